"""Reading released annotation tables as data.

What it decides: a released table is parsed, never trusted. Labels are stripped and
lower-cased; a unit is identified by its 0-based row index (``row``) and, for error
messages and tables, by its 1-based line in the file (``line``; the header is line 1).
Identifier columns are not used as keys: spreadsheet round-trips mangle long tweet IDs
into ``1.68E+18``. A missing column is an error that names the file and the column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd


def read_label_table(path: str | Path, columns: Sequence[str], sep: str = "\t") -> pd.DataFrame:
    """The named label columns of a delimited file, normalised, indexed by 0-based row.

    The returned frame has the requested columns plus ``line`` (1-based file line of the
    row, header = line 1). Empty cells are missing (NaN).
    """
    path = Path(path)
    frame = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    absent = [c for c in columns if c not in frame.columns]
    if absent:
        raise ValueError(f"{path}: missing column(s) {absent}; found {list(frame.columns)}")
    labels = frame[list(columns)].apply(lambda col: col.str.strip().str.lower())
    labels = labels.mask(labels == "")
    labels.index.name = "row"
    labels.insert(0, "line", labels.index + 2)
    return labels


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
