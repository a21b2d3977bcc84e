"""Reading released annotation tables as data.

What it decides: a released table is parsed, never trusted. Labels are stripped and
lower-cased; a unit is identified by its 0-based row index (``row``) and, for error
messages and tables, by its 1-based line in the file (``line``; the header is line 1).
Identifier columns are not used as keys: spreadsheet round-trips mangle long tweet IDs
into ``1.68E+18``. A missing column is an error that names the file and the column. A
release in which every rater labelled every unit is read with ``require_complete``: an
empty label cell there is an error naming the file, the line and the column, not a
missing rating that would change which units a coefficient sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import io

import pandas as pd

from reagree.io import reads

__all__ = ["read_label_table", "read_text", "require_complete", "require_labels"]


def read_text(path: str | Path) -> str:
    """A data file's text, UTF-8 (a BOM is allowed). Anything else is an error naming the
    file and saying what it looks like, instead of a bare UnicodeDecodeError."""
    path = Path(path)
    data = reads.read_bytes(path)  # hashed as read: the job's record of what it parsed
    if not data.strip():
        raise ValueError(f"{path}: the file is empty")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValueError(f"{path}: the file is UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ValueError(
            f"{path}, line {line}: byte 0x{data[error.start]:02x} is not UTF-8 "
            "(Latin-1 or Windows-1252 text?); save the file as UTF-8"
        ) from None


def read_label_table(
    path: str | Path, columns: Sequence[str], sep: str = "\t", text: str | None = None
) -> pd.DataFrame:
    """The named label columns of a delimited file, normalised, indexed by 0-based row.

    The returned frame has the requested columns plus ``line`` (1-based file line of the
    row, header = line 1). Empty cells are missing (NaN). ``text``: the file's text, when
    the caller has read it already (``read_text``), so the file is read once.
    """
    path = Path(path)
    try:
        # blank lines are kept while reading so that every row knows its line in the file
        frame = pd.read_csv(
            io.StringIO(read_text(path) if text is None else text),
            sep=sep,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=False,
        )
    except pd.errors.ParserError as error:
        raise ValueError(
            f"{path}: cannot be read as a {'tab' if sep == chr(9) else repr(sep)}-separated table: {error}"
        ) from None
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise ValueError(f"{path}: missing column(s) {absent}; found {list(frame.columns)}")
    duplicated = sorted({c for c in frame.columns if str(c).rsplit(".", 1)[0] in frame.columns and "." in str(c)})
    if duplicated:
        raise ValueError(f"{path}: a column name appears twice ({duplicated} are pandas' renamings of repeats)")
    lines = frame.index + 2
    blank = frame.isna().all(axis=1) | frame.fillna("").apply(lambda col: col.str.strip() == "").all(axis=1)
    frame, lines = frame[~blank], lines[~blank]
    if frame.empty:
        raise ValueError(f"{path}: the file has a header but no rows")
    labels = frame[list(columns)].apply(lambda col: col.fillna("").str.strip().str.lower())
    labels = labels.mask(labels == "")
    labels = labels.reset_index(drop=True)
    labels.index.name = "row"
    labels.insert(0, "line", list(lines))
    return labels


def require_complete(table: pd.DataFrame, path: str | Path, columns: Sequence[str] | None = None) -> None:
    """Fail naming file, line and column on the first empty cell of ``columns`` (default:
    every label column), for releases in which every rater labelled every unit: an
    emptied cell there is a damaged file, not a missing rating."""
    columns = list(columns) if columns is not None else list(table.columns.drop("line"))
    empty = table[columns].isna()
    if empty.to_numpy().any():
        row, column = next((r, c) for r in empty.index for c in columns if empty.at[r, c])
        raise ValueError(
            f"{path}: line {table.at[row, 'line']}, column {column!r}: the label is empty; every "
            f"unit of this release carries a label in every one of its {len(columns)} label columns"
        )


def require_labels(table: pd.DataFrame, allowed: Sequence[str], path: str | Path) -> None:
    """Fail naming file, line and column on the first label outside ``allowed``."""
    for column in table.columns.drop("line"):
        bad = table[column].notna() & ~table[column].isin(list(allowed))
        if bad.any():
            row = bad.idxmax()
            raise ValueError(
                f"{path}: line {table.at[row, 'line']}, column {column!r}: label {table.at[row, column]!r} "
                f"is not one of {list(allowed)}"
            )
