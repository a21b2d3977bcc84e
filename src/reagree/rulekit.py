"""Plumbing shared by the rule scripts: logging to the rule's ``log:`` file.

A rule script opens with ``with rule_log(snakemake) as log:``; everything it logs, and
the traceback of anything that fails, lands in the rule's log file as well as on stderr,
so a failed job says why where Snakemake points.
"""

from __future__ import annotations

import logging
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def rule_log(snakemake, name: str = "reagree") -> Iterator[logging.Logger]:
    logger = logging.getLogger(name)
    logger.setLevel(logging.INFO)
    logger.handlers.clear()
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if snakemake.log:
        Path(snakemake.log[0]).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(snakemake.log[0], mode="w", encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(formatter)
        logger.addHandler(handler)
    try:
        yield logger
    except Exception:
        logger.exception("rule %s failed", getattr(snakemake, "rule", "?"))
        raise
    finally:
        for handler in handlers:
            handler.close()
