"""Distinct rows of a matrix of whole numbers, by one integer key per row.

What this module decides:

- **Why.** Units with the same row (their category counts, or their row of rater codes)
  are interchangeable for every coefficient, so the coefficients pool units into distinct
  rows. ``numpy.unique(matrix, axis=0)`` does that by sorting rows as structured records,
  which at a million units of four counts takes about ten seconds; one int64 key per row
  and a hash table (``pandas.factorize``) take a fortieth of that, with the same result.
- **The key.** Column j, shifted to start at 0, is a digit in base s_j (its span,
  max - min + 1; a column spanning more values than there are rows is numbered by its
  distinct values instead), the first column most significant: key = sum_j (x_j - min_j)
  prod_{l>j} s_l. Equal rows, equal keys, and only that is used. When the product of
  spans would pass 2**62, the columns are folded in turn: the rows seen so far are
  numbered (first appearance) and the number becomes the next fold's leading digit, so
  any number of columns (83 raters, say) needs no more than n-length int64 arrays.
- **Orders.** ``row_ids`` numbers the distinct rows in order of first appearance (a unit
  order, independent of the values in the rows); ``unique_rows`` returns what
  ``numpy.unique(matrix, axis=0, return_index=True, return_inverse=True)`` returns: the
  distinct rows (few) sorted lexicographically, the index of each one's first unit, and
  each unit's row (a test holds the two equal).
- **Input.** ``unique_rows`` takes whole numbers only (integer codes, or counts stored
  as floats), else ValueError: a key built from truncated values would merge rows.
  ``row_ids`` also takes other floats (a statistic's per-unit sums), numbering each
  column's distinct values first.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["row_ids", "unique_rows"]

# Keys stay below 2**62, so that key * span + digit never overflows int64.
_KEY_LIMIT = 2**62


def _whole(matrix) -> np.ndarray:
    matrix = np.asarray(matrix)
    if matrix.ndim != 2:
        raise ValueError(f"rows of a 2-D matrix, got shape {matrix.shape}")
    if matrix.dtype.kind in "iub":
        return matrix.astype(np.int64, copy=False)
    if matrix.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            whole = matrix.astype(np.int64)
        if np.array_equal(whole, matrix):  # NaN, inf and fractions do not survive the round trip
            return whole
    raise ValueError("distinct rows by integer key need whole numbers")


def _as_digits(matrix) -> np.ndarray:
    """Whole numbers as int64; a matrix with other values (per-unit sums of a statistic)
    as the number of each value within its column (only equality matters for ids)."""
    matrix = np.asarray(matrix)
    try:
        return _whole(matrix)
    except ValueError:
        if matrix.ndim != 2 or matrix.dtype.kind not in "f":
            raise
    digits = np.empty(matrix.shape, dtype=np.int64)
    for j in range(matrix.shape[1]):
        # +0.0 so that -0.0 and 0.0 are one value, as they compare equal
        digits[:, j] = pd.factorize(matrix[:, j] + 0.0, use_na_sentinel=False)[0]
    return digits


def _first_appearances(codes: np.ndarray) -> np.ndarray:
    """Index of the first unit of each id, for ids numbered in order of first appearance
    (a unit starts a new id exactly when its id exceeds every id before it)."""
    if codes.size == 0:
        return np.zeros(0, dtype=np.int64)
    seen = np.maximum.accumulate(codes)
    new = np.empty(codes.size, dtype=bool)
    new[0] = True
    new[1:] = seen[1:] > seen[:-1]
    return np.flatnonzero(new)


def row_ids(matrix) -> tuple[np.ndarray, np.ndarray]:
    """(ids, first): each row's id, numbered 0, 1, ... in order of first appearance, and
    the index of each id's first row. Rows are equal when all their entries are (whole
    numbers, or any floats: then each column's values are numbered first)."""
    values = _as_digits(matrix)
    n, d = values.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # one contiguous row per column: numpy reduces a narrow (n, d) array along axis 0 slowly
    columns = np.array(values.T, order="C")  # a copy: the digits are computed in place
    low = columns.min(axis=1)
    span = columns.max(axis=1) - low + 1
    key = np.zeros(n, dtype=np.int64)
    distinct = 1  # an upper bound on the distinct keys so far
    for j in range(d):
        digit, base = columns[j], int(span[j])
        digit -= low[j]
        if base > n:  # a column of far-apart values: number its values instead (equality is all a key needs)
            digit, seen = pd.factorize(digit)
            digit, base = digit.astype(np.int64), len(seen)
        if distinct * base >= _KEY_LIMIT:
            key, uniques = pd.factorize(key)
            key = key.astype(np.int64)
            distinct = len(uniques)
        key *= base
        key += digit
        distinct *= base
    ids, _ = pd.factorize(key)
    ids = ids.astype(np.int64)
    return ids, _first_appearances(ids)


def unique_rows(matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``numpy.unique(matrix, axis=0, return_index=True, return_inverse=True)`` for a
    matrix of whole numbers: (distinct rows in lexicographic order, the index of each
    one's first row, each row's position among them (1-D))."""
    matrix = np.asarray(matrix)
    ids, first = row_ids(_whole(matrix))
    if first.size == 0:
        return matrix[:0], first, ids
    representatives = matrix[first]
    order = np.lexsort(representatives.T[::-1]) if matrix.shape[1] else np.arange(first.size)
    rank = np.empty(first.size, dtype=np.int64)
    rank[order] = np.arange(first.size)
    return representatives[order], first[order], rank[ids]
