"""Stopping a run before any job starts: one message, and nothing printed after it.

Snakemake formats an exception raised while it reads the Snakefile with the file and
line it came from and a ``File "...", line N, in <module>`` trailer, so a message meant
for a user ("no network and no mirror: here is what to do") would end in a line that
looks like a crash. The workflow stops through ``stop`` instead: the message goes to
stderr prefixed ``reagree:``, and the process exits with status 1 (``SystemExit`` is not
an ``Exception``, so Snakemake neither catches nor reformats it). Nothing has been
scheduled at that point, so there is nothing to clean up; the run lock is a kernel lock
released with the process.
"""

from __future__ import annotations

import sys
from typing import NoReturn

__all__ = ["stop"]


def stop(message: object) -> NoReturn:
    """Print ``message`` (prefixed ``reagree:`` unless it already names reagree) and exit 1."""
    text = str(message).rstrip("\n")
    if not text.startswith("reagree"):
        text = f"reagree: {text}"
    print(text, file=sys.stderr, flush=True)
    raise SystemExit(1)
