"""Every pair of raters' contingency table at once, counted from the units they share.

What this module decides:

- **The table of a pair.** For raters a and b (a before b in rater order), cell (i, j)
  counts the units on which a gave category i and b gave category j; only units both
  labelled count (``reagree.stats.pairwise.contingency_table`` for one pair of a
  ``Ratings``). Rows are the first rater's categories, in the declared order.
- **One label per rater and unit.** From ``Annotations`` a rater's first label on a unit
  (occasion 0) is its label there, as in ``Annotations.inter(repeats="first")``; an
  ``AnnotationView`` must be dense (``repeats="first"``); a ``Ratings`` has one cell per
  unit and rater already.
- **Only pairs that share a unit.** Pairs that never labelled a unit in common have no
  table and are not listed (``PairTables.table`` gives them zeros). With 83 raters who
  each label a few thousand of 200,000 units, most of the 3,403 pairs share nothing.
- **Cost.** A ``Ratings`` whose raters label nearly every unit (few raters, dense) is
  counted one pass over the units per pair, which is then the cheaper way. Otherwise the
  labels are sorted by unit once (not at all when they come sorted, as a ``Ratings``'
  do); then, for d = 1, 2, ..., every label is paired with the label d
  places after it in its unit, for the units that still have one, and the pairs are
  counted into the tables. That visits each co-labelled pair of ratings once: time grows
  with the number of ratings plus sum_u m_u (m_u - 1) / 2 over units with m_u ratings,
  memory with the number of ratings (plus the tables), never with (pairs of raters) x
  (units): no pair holds an n-length array.
- **Readings.** ``PairTables.cohen_kappas`` finishes every table with
  ``reagree.stats.pairwise.cohen_statistic``'s own finish (one definition; a pair's kappa
  equals ``cohen_kappa`` of its table), NaN where a pair's kappa is undefined.

Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
Psychological Measurement 20, 37-46 (the two-rater contingency table and its kappa).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reagree.stats.labels import Annotations, AnnotationView
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import MISSING, Ratings

__all__ = ["PairTables", "pair_tables"]

# Cells (pairs of raters x K x K) above which the tables are counted by distinct key
# instead of one dense count array (4 million int64: 32 MB).
_DENSE_CELLS = 4_000_000


@dataclass(frozen=True, eq=False)
class PairTables:
    """Contingency tables of the rater pairs that share at least one unit.

    ``first``, ``second``: (P,) rater indices into ``raters``, first < second, in order of
    (first, second). ``tables``: (P, K, K) counts, rows the first rater's categories.
    """

    raters: tuple
    categories: tuple
    first: np.ndarray
    second: np.ndarray
    tables: np.ndarray

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The pairs, as (first rater, second rater) names."""
        return [(self.raters[a], self.raters[b]) for a, b in zip(self.first.tolist(), self.second.tolist())]

    def shared_units(self) -> np.ndarray:
        """(P,) units each pair labelled in common."""
        return self.tables.sum(axis=(1, 2))

    def table(self, rater_a: str, rater_b: str) -> np.ndarray:
        """The K x K table of two named raters (rows: ``rater_a``), zeros if they share nothing."""
        for rater in (rater_a, rater_b):
            if rater not in self.raters:
                raise ValueError(f"no rater {rater!r} among {list(self.raters)}")
        a, b = self.raters.index(rater_a), self.raters.index(rater_b)
        if a == b:
            raise ValueError(f"a pair needs two raters, got {rater_a!r} twice")
        low, high = min(a, b), max(a, b)
        found = np.flatnonzero((self.first == low) & (self.second == high))
        k = len(self.categories)
        table = self.tables[found[0]] if found.size else np.zeros((k, k), dtype=np.int64)
        return table if a < b else table.T

    def cohen_kappas(self, weights: str | None = None) -> np.ndarray:
        """(P,) Cohen's kappa of every pair (NaN where undefined), by the finish of
        ``cohen_statistic``."""
        k = len(self.categories)
        finish = cohen_statistic(np.eye(k), weights=weights).finish_totals
        return finish(self.tables.reshape(-1, k * k).astype(float)) if len(self.first) else np.zeros(0)


def _labels(data) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple, tuple]:
    """(unit, rater, code) with one label per rater and unit, and the rater names and categories."""
    if isinstance(data, Ratings):
        unit, rater = np.nonzero(data.codes != MISSING)
        return unit, rater, data.codes[unit, rater], data.raters, data.categories
    if isinstance(data, AnnotationView):
        if not data.dense:
            raise ValueError(
                f"{data.source}: pair tables need one label per rater and unit; this {data.kind} view "
                "keeps repeats (use repeats='first')"
            )
        return data.label_unit, data.label_column, data.label_code, data.columns, data.categories
    if isinstance(data, Annotations):
        first = data.occasion == 0
        return data.unit[first], data.rater[first], data.code[first], data.rater_ids, data.categories
    raise ValueError(f"pair tables read Annotations, an AnnotationView or Ratings, got {type(data).__name__}")


def pair_tables(data) -> PairTables:
    """The contingency table of every pair of raters that labelled a unit in common, from
    ``Annotations`` (each rater's first label on a unit), a dense ``AnnotationView`` or a
    ``Ratings`` (module docstring for the counting and its cost)."""
    if isinstance(data, Ratings) and _dense(data):
        return _per_pair(data)
    unit, rater, code, raters, categories = _labels(data)
    k, r = len(categories), len(raters)
    key = np.asarray(unit, dtype=np.int64) * max(r, 1) + np.asarray(rater, dtype=np.int64)
    if key.size > 1 and not (key[1:] > key[:-1]).all():  # a Ratings' labels come sorted already
        order = np.argsort(key, kind="stable")
        key, code = key[order], np.asarray(code)[order]
    unit, rater, code = key // max(r, 1), key % max(r, 1), np.asarray(code, dtype=np.int64)
    # how many labels follow each one in its unit (the labels are grouped by unit now)
    starts = np.flatnonzero(np.r_[True, unit[1:] != unit[:-1]]) if unit.size else np.zeros(0, dtype=np.int64)
    ends = np.r_[starts[1:], unit.size]
    after = np.repeat(ends, ends - starts) - np.arange(unit.size) - 1
    counter = _Counter(r * r * k * k)
    active = np.flatnonzero(after >= 1)
    distance = 1
    while active.size:
        partner = active + distance
        # rater[active] < rater[partner]: labels are sorted by rater within a unit
        counter.add(((rater[active] * r + rater[partner]) * k + code[active]) * k + code[partner])
        distance += 1
        active = active[after[active] >= distance]
    pair_ids, tables = counter.tables(k * k)
    return PairTables(
        raters=tuple(raters),
        categories=tuple(categories),
        first=pair_ids // max(r, 1),
        second=pair_ids % max(r, 1),
        tables=tables.reshape(-1, k, k),
    )


def _dense(ratings: Ratings) -> bool:
    """Whether one pass over the units per pair of raters costs less than visiting each
    co-labelled pair of ratings (raters who label nearly every unit, a few of them)."""
    pairs = ratings.n_raters * (ratings.n_raters - 1) // 2
    labels = (ratings.codes != MISSING).sum(axis=1)
    return pairs * ratings.n_units <= 2 * int((labels * (labels - 1) // 2).sum())


def _per_pair(ratings: Ratings) -> PairTables:
    """The tables of a dense ``Ratings``, one count over the units per pair."""
    k, r = ratings.n_categories, ratings.n_raters
    first, second, tables = [], [], []
    for a in range(r):
        for b in range(a + 1, r):
            x, y = ratings.codes[:, a], ratings.codes[:, b]
            both = (x != MISSING) & (y != MISSING)
            table = np.bincount(x[both] * k + y[both], minlength=k * k)
            if table.any():
                first.append(a)
                second.append(b)
                tables.append(table.reshape(k, k))
    return PairTables(
        raters=ratings.raters,
        categories=ratings.categories,
        first=np.array(first, dtype=np.int64),
        second=np.array(second, dtype=np.int64),
        tables=np.array(tables, dtype=np.int64).reshape(-1, k, k),
    )


class _Counter:
    """Counts of cell keys (pair * K*K + cell), added a batch at a time: one dense bincount
    when the cells fit, else the distinct keys of each batch, merged at the end."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.dense = np.zeros(cells, dtype=np.int64) if cells <= _DENSE_CELLS else None
        self.batches: list[tuple[np.ndarray, np.ndarray]] = []

    def add(self, keys: np.ndarray) -> None:
        if self.dense is not None:
            self.dense += np.bincount(keys, minlength=self.cells)
        else:
            self.batches.append(np.unique(keys, return_counts=True))

    def tables(self, width: int) -> tuple[np.ndarray, np.ndarray]:
        """(pair ids with a shared unit, their (P, width) counts)."""
        if self.dense is not None:
            counts = self.dense.reshape(-1, width)
            pair_ids = np.flatnonzero(counts.sum(axis=1))
            return pair_ids, counts[pair_ids]
        if not self.batches:
            return np.zeros(0, dtype=np.int64), np.zeros((0, width), dtype=np.int64)
        keys = np.concatenate([keys for keys, _ in self.batches])
        cells, which = np.unique(keys, return_inverse=True)
        counts = np.bincount(which.reshape(-1), weights=np.concatenate([n for _, n in self.batches]))
        pair_ids, pair_of = np.unique(cells // width, return_inverse=True)
        tables = np.zeros((pair_ids.size, width), dtype=np.int64)
        tables[pair_of.reshape(-1), cells % width] = counts.astype(np.int64)
        return pair_ids, tables
