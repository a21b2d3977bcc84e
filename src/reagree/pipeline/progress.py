"""Progress for long work: a tqdm bar on a terminal, silence when output is piped.

Snakemake jobs and CI runs write to files, where a bar is noise; a person at a terminal
waiting on a download or a large audit sees how far it got.
"""

from __future__ import annotations

import sys
from typing import Iterable, TypeVar

__all__ = ["progress", "progress_bar"]

T = TypeVar("T")


def progress_bar(total: int, desc: str = "", unit: str = "it"):
    """A bar to ``update(n)`` by hand when stderr is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, unit_scale=True, leave=False, file=sys.stderr)


def progress(items: Iterable[T], desc: str = "", unit: str = "it", total: int | None = None) -> Iterable[T]:
    """``items``, wrapped in a progress bar when stderr is a terminal."""
    if not sys.stderr.isatty():
        return items
    from tqdm import tqdm

    return tqdm(items, desc=desc, unit=unit, total=total, leave=False, file=sys.stderr)
