"""Plumbing shared by the rule scripts: logging to the rule's ``log:`` file, and writing
what the rule's one function returned.

A rule script opens with ``with rule_log(snakemake) as log:``; everything it logs lands in
the rule's log file as well as on stderr, so a failed job says why where Snakemake points.
It reads its inputs, calls one function of the paper's package or the library, and writes
what that function returns: a ``RuleOutputs`` names each output by the rule's output name
(``write_outputs``), so no script assembles a number itself.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

import pandas as pd

from reagree.io import reads
from reagree.pipeline.fetch import FetchError
from reagree.pipeline.tables import Table, write_tsv, write_values
from reagree.pipeline.variantplan import write_variants

__all__ = ["RuleOutputs", "rule_log", "write_outputs"]


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


@dataclass(frozen=True)
class RuleOutputs:
    """What a rule's function computed, each part under the name of the rule output it is
    written to: values.tsv rows (``values``; None: the rule writes none), variants.tsv rows
    (``variants``), titled tables (TSV and Markdown, ``Table``) and plain TSV frames."""

    values: list[dict] | None = None
    variants: list[dict] | None = None
    tables: Mapping[str, Table] = field(default_factory=dict)
    frames: Mapping[str, pd.DataFrame] = field(default_factory=dict)


def write_outputs(outputs: RuleOutputs, snakemake) -> None:
    """Every part of ``outputs`` to the rule output of its name: tables and frames first,
    then the values (checked against the rule's name: ``write_values``) and the variants,
    each with the record of what the job read beside it."""
    for name, table in outputs.tables.items():
        table.write(getattr(snakemake.output, name))
    for name, frame in outputs.frames.items():
        write_tsv(frame, getattr(snakemake.output, name))
    if outputs.values is not None:
        write_values(outputs.values, snakemake.output.values, rule=snakemake.rule)
    if outputs.variants is not None:
        write_variants(outputs.variants, snakemake.output.variants)
