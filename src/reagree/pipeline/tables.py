"""Writing results: atomic files, stable formatting, provenance on every table.

Everything is written to a temporary file beside the target and renamed into place, so
an interrupted run never leaves a half-written table, and only over a regular file or a
new path; a write that fails (a full disk) names the file it was writing
(``reagree.files``). Floats are written with 12 significant digits, so the same inputs
always give the same bytes. A bootstrap interval
carries its count of undefined draws wherever it is written: values.tsv's
``undefined_draws`` column and note, and a table's ``undefined_draws`` column.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

from reagree.files import open_regular, write_atomic
from reagree.io import reads
from reagree.stats.bootstrap import MAX_UNDEFINED_SHARE
from reagree.stats.undefined import reason_of

__all__ = [
    "FLOAT_FORMAT",
    "VALUE_COLUMNS",
    "Table",
    "gather_values",
    "interval_columns",
    "markdown_table",
    "read_values",
    "sha256_of",
    "value_row",
    "write_checksums",
    "write_reads_beside",
    "write_table",
    "write_text_atomic",
    "write_tsv",
    "write_values",
]

FLOAT_FORMAT = "%.12g"
# values.tsv: one row per computed number. ``scheme`` says how an interval was drawn
# (resampling scheme, draws, seed, level), ``undefined_draws`` how many draws had no value,
# ``rule`` which Snakemake rule wrote the row and ``function`` the one function that
# computed it (both declared with the key's family, reagree.pipeline.keys); ``reference``
# names the field library that computes the same coefficient (the call and its version)
# and ``reference_value`` is its value, both empty where no library computes it
# (reagree.stats.references).
VALUE_COLUMNS = [
    "key",
    "value",
    "ci_low",
    "ci_high",
    "scheme",
    "undefined_draws",
    "note",
    "rule",
    "function",
    "reference",
    "reference_value",
]
_TEXT_COLUMNS = ("scheme", "note", "rule", "function", "reference")


def write_text_atomic(path: str | Path, text: str) -> None:
    """``text`` written to ``path`` atomically, only over a regular file or a new path
    (``reagree.files``: the one writer of every output)."""
    write_atomic(path, text)


def write_reads_beside(path: str | Path) -> None:
    """``<path>.reads``: the sha256 of every file this job read through
    ``reagree.io.reads`` (the bytes it parsed), written before ``path`` so that a values
    or variants file computed from data never stands without them; none when the job
    read nothing."""
    text = reads.reads_text()
    if text:
        write_text_atomic(reads.reads_path(path), text)
    else:
        reads.reads_path(path).unlink(missing_ok=True)


def write_tsv(frame: pd.DataFrame, path: str | Path) -> None:
    write_text_atomic(path, frame.to_csv(sep="\t", index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))


def _cell(value: object) -> str:
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            return ""
        if float(value).is_integer():
            return str(int(value))
        return f"{value:.4f}" if abs(value) >= 1e-3 else f"{value:.3g}"
    return str(value)


def markdown_table(frame: pd.DataFrame) -> str:
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows]) + "\n"


def sha256_of(path: str | Path) -> str:
    """The sha256 of a regular file (anything else is refused: a FIFO or a device would
    never end), for a table's provenance and the inputs' checks."""
    digest = hashlib.sha256()
    with open_regular(path) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _is_interval(value: object) -> bool:
    return all(hasattr(value, name) for name in ("low", "high", "undefined_draws", "scheme"))


def interval_columns(interval: object, prefix: str = "") -> dict:
    """A bootstrap ``Interval`` as table cells: ``ci_low``, ``ci_high``, ``undefined_draws``
    (how many draws had no value) and ``interval`` (its scheme text), names prefixed."""
    return {
        f"{prefix}ci_low": float(interval.low),
        f"{prefix}ci_high": float(interval.high),
        f"{prefix}undefined_draws": int(interval.undefined_draws),
        f"{prefix}interval": str(interval.scheme),
    }


def _expand_intervals(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns holding ``Interval`` objects become ``interval_columns`` (the column's
    name, if not "interval", prefixes them)."""
    out = frame
    for column in frame.columns:
        cells = frame[column]
        if cells.dtype != object or not len(cells) or not all(_is_interval(v) or v is None for v in cells):
            continue
        prefix = "" if column == "interval" else f"{column}_"
        empty = {
            f"{prefix}ci_low": np.nan,
            f"{prefix}ci_high": np.nan,
            f"{prefix}undefined_draws": np.nan,
            f"{prefix}interval": "",
        }
        expanded = pd.DataFrame(
            [interval_columns(v, prefix) if v is not None else empty for v in cells], index=frame.index
        )
        at = list(out.columns).index(column)
        out = pd.concat([out.iloc[:, :at], expanded, out.iloc[:, at + 1 :]], axis=1)
    return out


def _undefined_draws_lines(frame: pd.DataFrame) -> list[str]:
    """Markdown lines saying which rows' intervals had undefined draws, and that an
    interval with too many is refused (its ends left blank)."""
    lines = []
    for column in [c for c in frame.columns if str(c).endswith("undefined_draws")]:
        counts = pd.to_numeric(frame[column], errors="coerce").fillna(0)
        if (counts > 0).any():
            rows = ", ".join(str(i + 1) for i in np.flatnonzero(counts.to_numpy() > 0))
            lines.append(
                f"- {column}: {int((counts > 0).sum())} row(s) have bootstrap draws on which the coefficient "
                f"is undefined (rows {rows}); they are left out and counted, and an interval with more "
                f"than {MAX_UNDEFINED_SHARE:.0%} of its draws undefined is refused (its ends are blank)."
            )
    return lines


def write_checksums(paths: Iterable[str | Path], path: str | Path) -> None:
    """``<sha256>  <path>`` per file, sorted by path (the format ``sha256sum -c`` reads)."""
    lines = [f"{sha256_of(p)}  {p}" for p in sorted(map(str, paths))]
    write_text_atomic(path, "\n".join(lines) + "\n")


def write_table(frame: pd.DataFrame, tsv_path: str | Path, title: str, provenance: Mapping[str, object]) -> None:
    """A table as TSV and as Markdown (title, the table, then where it came from).

    A column of bootstrap ``Interval`` objects is written as its ends, its count of
    undefined draws and its scheme (``interval_columns``); the Markdown says which rows'
    intervals had undefined draws."""
    frame = _expand_intervals(frame)
    write_tsv(frame, tsv_path)
    lines = [f"# {title}", "", markdown_table(frame)]
    undefined = _undefined_draws_lines(frame)
    if undefined:
        lines += ["Undefined draws:", "", *undefined, ""]
    lines += ["Provenance:", ""]
    lines += [f"- {key}: {value}" for key, value in provenance.items()]
    write_text_atomic(Path(tsv_path).with_suffix(".md"), "\n".join(lines) + "\n")


@dataclass(frozen=True)
class Table:
    """A table as a rule's function returns it: its rows, the title above its Markdown copy
    and where it came from (``write_table``)."""

    frame: pd.DataFrame
    title: str
    provenance: Mapping[str, object]

    def write(self, tsv_path: str | Path) -> None:
        write_table(self.frame, tsv_path, self.title, self.provenance)


def value_row(
    key: str,
    value: object,
    ci: tuple[float, float] | None = None,
    note: str = "",
    interval: object | None = None,
    reference: object | None = None,
) -> dict:
    """One row of values.tsv; an ``Undefined`` value brings its reason into the note.

    ``reference`` is a field library's value of the same coefficient on the same data
    (``reagree.stats.references.Reference``: library call and value), written beside
    reagree's (columns ``reference`` and ``reference_value``).

    ``interval`` is a ``reagree.stats.bootstrap.Interval`` (anything with ``low``, ``high``,
    ``scheme`` and ``undefined_draws``): its ends, its scheme and its count of undefined
    draws go into the row, and the note says how many draws were undefined (or, for an
    interval refused for too many, why). ``ci`` is a bare (low, high) pair for intervals
    that are not bootstrap draws.
    """
    reason = reason_of(value)
    value = float(value)
    row = {
        "key": key,
        "value": value,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "scheme": "",
        "undefined_draws": np.nan,
        "note": "; ".join(part for part in (note, reason) if part),
        "rule": "",
        "function": "",
        "reference": "",
        "reference_value": np.nan,
    }
    if reference is not None:
        row.update(reference=str(reference[0]), reference_value=float(reference[1]))
    if interval is not None:
        row.update(
            ci_low=float(interval.low),
            ci_high=float(interval.high),
            scheme=str(interval.scheme),
            undefined_draws=int(interval.undefined_draws),
        )
        interval_reason = reason_of(interval.low)
        if not interval_reason and interval.undefined_draws:
            of = f" of {int(interval.draws)}" if hasattr(interval, "draws") else ""
            interval_reason = f"{int(interval.undefined_draws)}{of} bootstrap draws undefined, left out"
        if interval_reason and interval_reason not in row["note"]:
            row["note"] = "; ".join(p for p in (row["note"], f"interval: {interval_reason}") if p)
    elif ci is not None:
        row.update(ci_low=float(ci[0]), ci_high=float(ci[1]))
    return row


def write_values(rows: Iterable[Mapping], path: str | Path, rule: str = "") -> None:
    """values.tsv (``VALUE_COLUMNS``); keys must be unique. ``rule`` is the rule writing
    them (a rule script passes ``snakemake.rule``): it fills the rule column of rows that
    name none, and a row declared for another rule (``reagree.pipeline.keys.Family.row``)
    is an error naming both."""
    frame = pd.DataFrame(list(rows))
    for column in VALUE_COLUMNS:
        if column not in frame.columns:
            frame[column] = "" if column in _TEXT_COLUMNS else np.nan
    frame = frame[VALUE_COLUMNS]
    if rule:
        declared = frame["rule"].fillna("")
        elsewhere = frame.loc[(declared != "") & (declared != rule), ["key", "rule"]]
        if len(elsewhere):
            raise ValueError(
                f"{path}: rule {rule} writes key(s) declared for another rule: {elsewhere.head(5).to_dict('records')}"
            )
        frame["rule"] = declared.replace("", rule)
    duplicated = frame["key"][frame["key"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"{path}: value keys written twice: {duplicated}")
    write_reads_beside(path)
    write_tsv(frame.sort_values("key", kind="stable"), path)


def read_values(path: str | Path) -> pd.DataFrame:
    frame = pd.read_csv(
        path,
        sep="\t",
        dtype={"key": str, "note": str, "scheme": str, "rule": str, "function": str, "reference": str},
        keep_default_na=False,
        na_values={"value": [""], "ci_low": [""], "ci_high": [""], "undefined_draws": [""], "reference_value": [""]},
    )
    missing = [c for c in ("key", "value") if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing columns {missing}")
    duplicated = frame["key"][frame["key"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"{path}: keys appear twice: {duplicated}")
    return frame


def gather_values(paths: Iterable[str | Path]) -> pd.DataFrame:
    """The rows of several values files in one frame; a key written by two files is an
    error naming both files."""
    parts, origin = [], {}
    for path in paths:
        frame = read_values(path)
        for key in frame["key"]:
            if key in origin:
                raise ValueError(f"value key {key!r} is written by both {origin[key]} and {path}")
            origin[key] = path
        parts.append(frame)
    if not parts:
        return pd.DataFrame(columns=VALUE_COLUMNS)
    return pd.concat(parts, ignore_index=True)
