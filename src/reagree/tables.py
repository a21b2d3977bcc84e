"""Writing results: atomic files, stable formatting, provenance on every table.

Everything is written to a temporary file beside the target and renamed into place, so
an interrupted run never leaves a half-written table. Floats are written with 12
significant digits, so the same inputs always give the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

from reagree.undefined import reason_of

FLOAT_FORMAT = "%.12g"
VALUE_COLUMNS = ["key", "value", "ci_low", "ci_high", "note"]


def write_text_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", suffix=".part",
                                         delete=False, encoding="utf-8", newline="")
    try:
        with handle:
            handle.write(text)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


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
    """The sha256 of a file, for a table's provenance."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_table(frame: pd.DataFrame, tsv_path: str | Path, title: str, provenance: Mapping[str, object]) -> None:
    """A table as TSV and as Markdown (title, the table, then where it came from)."""
    write_tsv(frame, tsv_path)
    lines = [f"# {title}", "", markdown_table(frame), "Provenance:", ""]
    lines += [f"- {key}: {value}" for key, value in provenance.items()]
    write_text_atomic(Path(tsv_path).with_suffix(".md"), "\n".join(lines) + "\n")


def value_row(key: str, value: object, ci: tuple[float, float] | None = None, note: str = "") -> dict:
    """One row of values.tsv; an ``Undefined`` value brings its reason into the note."""
    reason = reason_of(value)
    value = float(value)
    return {
        "key": key,
        "value": value,
        "ci_low": ci[0] if ci else np.nan,
        "ci_high": ci[1] if ci else np.nan,
        "note": "; ".join(part for part in (note, reason) if part),
    }


def write_values(rows: Iterable[Mapping], path: str | Path) -> None:
    """values.tsv: key, value, ci_low, ci_high, note; keys must be unique."""
    frame = pd.DataFrame(list(rows), columns=VALUE_COLUMNS)
    duplicated = frame["key"][frame["key"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"{path}: value keys written twice: {duplicated}")
    write_tsv(frame.sort_values("key", kind="stable"), path)


def read_values(path: str | Path) -> pd.DataFrame:
    frame = pd.read_csv(path, sep="\t", dtype={"key": str, "note": str}, keep_default_na=False,
                        na_values={"value": [""], "ci_low": [""], "ci_high": [""]})
    missing = [c for c in ("key", "value") if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing columns {missing}")
    duplicated = frame["key"][frame["key"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"{path}: keys appear twice: {duplicated}")
    return frame
