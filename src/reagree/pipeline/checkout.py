"""Which reagree checkout a command works on, from wherever it is typed.

A checkout is the folder holding the ``Snakefile`` and ``workflow/papers/``. The commands
that read or change a checkout (``explain``, ``accept``, ``mirror``, ``new-paper``) look for
it at the working folder and then in each folder above it, as git looks for ``.git``, so
``reagree explain KEY`` works from ``results/`` or from a paper's folder. Found nowhere,
the error names every folder looked in and the option that names a checkout.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["NotACheckout", "project_root"]


class NotACheckout(ValueError):
    """No reagree checkout at or above the folder a command started from."""


def is_checkout(folder: Path) -> bool:
    return (folder / "Snakefile").is_file() and (folder / "workflow" / "papers").is_dir()


def project_root(start: str | Path | None = None) -> Path:
    """The nearest folder at or above ``start`` (default: the working folder) that is a
    reagree checkout; NotACheckout naming the folders looked in."""
    here = Path(start if start is not None else Path.cwd()).resolve()
    looked = [here, *here.parents]
    for folder in looked:
        if is_checkout(folder):
            return folder
    shown = ", ".join(str(folder) for folder in looked)
    raise NotACheckout(
        f"no reagree checkout (a folder holding the Snakefile and workflow/papers/) at or above "
        f"{here}; looked in {shown}. Run from inside a checkout, or pass --root DIR"
    )
