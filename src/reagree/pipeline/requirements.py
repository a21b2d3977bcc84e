"""What an optional part of a paper needs beyond the lock, checked before any job runs.

What it decides:

- **A paper declares what a setting switches on.** A setting that turns on an optional
  part (a model rerun, say) may need Python packages the lock does not install and model
  weights that are downloaded at run time. The paper's rules.smk declares them when the
  setting is on (``PaperBuild.require``); nothing else in reagree knows them.
- **Or what a part always needs from one of reagree's optional extras.** A part that runs
  with no setting (``setting`` None) may need packages that pyproject.toml keeps out of
  the library's own dependencies, in an extra (``tools``: the sentiment tools a paper
  reruns). The lock installs them; an installation without the extra is told the extra
  to install, in the same one line.
- **Checked once, in the main process, before anything is scheduled**
  (``workflow/rules/startup.smk``), for runs and dry runs, never for ``--lint`` and the
  like. A package is there when ``importlib.util.find_spec`` finds it (nothing is
  imported). Weights are there when the model is a folder holding ``config.json``, when
  the Hugging Face cache holds a snapshot of it (``HF_HUB_CACHE``, else ``HF_HOME/hub``,
  else ``~/.cache/huggingface/hub``: ``models--ORG--NAME/snapshots/*/config.json``), or
  when they can be downloaded: the hub is not switched off (``HF_HUB_OFFLINE``,
  ``TRANSFORMERS_OFFLINE``) and its host (``HF_ENDPOINT``, else huggingface.co) accepts a
  connection.
- **One line says everything that is missing**, the command that gets each piece (pip
  through the interpreter that runs the workflow, so it installs where the jobs import
  from) and the setting that leaves the part out.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "HUB_ENDPOINT",
    "Requirement",
    "hub_cache",
    "missing_packages",
    "unmet",
    "unmet_requirements",
    "weights_problem",
]

HUB_ENDPOINT = "https://huggingface.co"
_OFF = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Requirement:
    """What ``paper``'s setting ``setting`` (when on; None: a ``part`` that always runs)
    needs: importable ``packages`` (``{import name: pip name}``), installed by reagree's
    optional ``extra`` when one holds them, and the weights of the Hugging Face ``model``
    (a hub id or a local folder), or neither."""

    paper: str
    setting: str | None
    packages: dict[str, str] = field(default_factory=dict)
    model: str | None = None
    model_setting: str | None = None  # the setting that names the model, if any
    extra: str | None = None  # reagree's optional extra that installs ``packages``
    part: str | None = None  # what needs them, when no setting names it


def missing_packages(packages: dict[str, str]) -> list[str]:
    """The pip names of the packages whose import name Python cannot find."""
    missing = []
    for module, distribution in packages.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(distribution)
    return missing


def hub_cache() -> Path:
    """Where the Hugging Face hub keeps downloaded models (its own order of variables)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "huggingface" / "hub"


def _cached(model: str, cache: Path) -> bool:
    folder = cache / ("models--" + model.replace("/", "--"))
    return any((folder / "snapshots").glob("*/config.json")) if folder.is_dir() else False


def _hub_offline() -> bool:
    return any(os.environ.get(name, "").strip().lower() in _OFF for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def weights_problem(model: str, timeout: float = 5.0) -> str | None:
    """Why the weights of ``model`` cannot be loaded here ("not in the Hugging Face cache
    ..."), or None when they can."""
    from reagree.pipeline.fetch import unreachable_hosts

    local = Path(model).expanduser()
    if local.is_dir() or model.startswith((".", "/", "~")):
        return None if (local / "config.json").is_file() else f"the folder {model} holds no config.json"
    cache = hub_cache()
    if _cached(model, cache):
        return None
    if _hub_offline():
        return f"not in the Hugging Face cache {cache}, and downloads are off (HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE)"
    endpoint = os.environ.get("HF_ENDPOINT") or HUB_ENDPOINT
    if unreachable_hosts([endpoint.rstrip("/") + "/api"], timeout=timeout):
        host = urllib.parse.urlsplit(endpoint).netloc or endpoint
        return f"not in the Hugging Face cache {cache}, and {host} cannot be reached"
    return None


def _python() -> str:
    """The interpreter running the workflow, as a user types it from here."""
    executable = Path(sys.executable)
    try:
        return str(executable.relative_to(Path.cwd()))
    except ValueError:
        return str(executable)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def unmet(requirement: Requirement, timeout: float = 5.0) -> str | None:
    """One line saying what ``requirement`` lacks and how to get it, or None when it lacks nothing."""
    packages = missing_packages(requirement.packages)
    weights = weights_problem(requirement.model, timeout) if requirement.model else None
    if not packages and not weights:
        return None
    paper, setting, extra = requirement.paper, requirement.setting, requirement.extra
    lacks, steps = [], []
    if packages:
        lacks.append(
            f"the Python package{'s' * (len(packages) > 1)} {_and(packages)} (not installed"
            + (f"; reagree's optional extra {extra!r} holds {'them' if len(packages) > 1 else 'it'})" if extra else ")")
        )
        steps.append(
            f"{_python()} -m pip install -e '.[{extra}]' (in the checkout; or pip install {' '.join(packages)})"
            if extra
            else f"{_python()} -m pip install {' '.join(packages)}"
        )
    if weights:
        lacks.append(f"the weights of {requirement.model} ({weights})")
        named = f"{paper}: {{{requirement.model_setting}: /path/to/model}}" if requirement.model_setting else ""
        steps.append(
            ("then " if packages else "") + "run this once on a machine with network (the weights land "
            "in the Hugging Face cache; copy it over)" + (f", or set {named}, a folder holding them" if named else "")
        )
    what = f"{setting}: true" if setting else requirement.part or "its rules"
    return (
        f"{paper}: {what} needs {' and '.join(lacks)}. To get "
        f"{'them' if len(lacks) > 1 or len(packages) > 1 else 'it'}: {'; '.join(steps)}."
        + (f" Or leave that part out: {paper}: {{{setting}: false}}" if setting else "")
    )


def unmet_requirements(requirements: list[Requirement], timeout: float = 5.0) -> list[str]:
    """The one-line problem of every requirement that is not met, in order."""
    return [line for line in (unmet(r, timeout) for r in requirements) if line]
