"""Plumbing shared by the rule scripts: logging to the rule's ``log:`` file.

A rule script opens with ``with rule_log(snakemake) as log:``; everything it logs lands in
the rule's log file as well as on stderr, so a failed job says why where Snakemake points.
The block is one job's ledger of reads (``reagree.io.reads.recording``): the values and
variants files it writes carry the sha256 of the data bytes it parsed.

A data error (``ValueError``, ``OSError`` or ``FetchError``: a bad file, a missing column, a label outside
the categories) is a message for the user: it goes to the screen as one line naming the
file and line, and its traceback only into the log file. Anything else is a defect in
reagree and shows its traceback everywhere.
"""

from __future__ import annotations

import logging
import sys
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from reagree.io import reads
from reagree.pipeline.fetch import FetchError


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
    rule = getattr(snakemake, "rule", "?")
    try:
        with reads.recording():  # the sha256 of every data file the job parses (reagree.io.reads)
            yield logger
    except (ValueError, OSError, FetchError) as error:
        logger.error("rule %s: %s", rule, error)
        for handler in handlers[1:]:
            handler.stream.write(traceback.format_exc())
        raise SystemExit(1) from None
    except Exception:
        logger.exception("rule %s failed", rule)
        raise
    finally:
        for handler in handlers:
            handler.close()
