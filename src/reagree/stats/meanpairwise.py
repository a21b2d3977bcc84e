"""Mean pairwise Cohen's kappa over every pair of raters (Light's kappa).

What it decides:

- **Which pairs.** Every pair of raters that labelled at least one unit in common; a
  pair that never overlaps (a design in which raters work on separate batches) has no
  kappa and is left out, and the pairs used are named (``pairs_used``).
- **Each pair's kappa** is ``reagree.stats.pairwise.cohen_kappa`` on the units both raters
  labelled (one definition: each pair's ``cohen_statistic`` finishes its own sums).
- **Undefined.** If any pair used has an undefined kappa (both raters used a single and
  the same category), the mean is undefined and the reason names the pair: averaging
  over the remaining pairs would silently change which pairs the number speaks for.
- **Bootstrap.** Units are pooled by their row of rater codes, so a resample's sums for
  every pair come from one count of the distinct rows; the mean over pairs and its
  bootstrap draws come from the same ``UnitStatistic``. That statistic holds one row of
  P x K x K sums per distinct row of codes; when that exceeds ``MAX_CELLS`` (many raters
  in a sparse design), ``mean_pairwise_cohen`` averages the kappas of every pair's table
  from ``reagree.stats.pairtables`` instead (the same numbers, counted from the units
  each pair shares, without the joint table), and ``fits_one_statistic`` says so to
  callers that want draws.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

import numpy as np

from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.pairtables import PairTables, pair_tables
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.rows import unique_rows
from reagree.stats.undefined import Undefined

__all__ = [
    "MAX_CELLS",
    "fits_one_statistic",
    "mean_pairwise_cohen",
    "mean_pairwise_cohen_of_tables",
    "mean_pairwise_cohen_statistic",
    "pairs_used",
]

# Sums the joint statistic may hold (distinct code rows x pairs x K x K): about 160 MB.
MAX_CELLS = 20_000_000


def pairs_used(ratings: Ratings) -> list[tuple[str, str]]:
    """The rater pairs (in rater order) that labelled at least one unit in common."""
    present = ratings.codes != MISSING
    return [
        (a, b) for (i, a), (j, b) in combinations(enumerate(ratings.raters), 2) if (present[:, i] & present[:, j]).any()
    ]


def fits_one_statistic(ratings: Ratings, pairs: Sequence[tuple[str, str]] | None = None) -> bool:
    """Whether ``mean_pairwise_cohen_statistic`` stays within ``MAX_CELLS`` sums."""
    pairs = list(pairs) if pairs is not None else pairs_used(ratings)
    distinct = int(ratings.rating_rows.max()) + 1 if ratings.n_units else 0
    return distinct * len(pairs) * ratings.n_categories**2 <= MAX_CELLS


def mean_pairwise_cohen_statistic(ratings: Ratings, pairs: Sequence[tuple[str, str]] | None = None) -> UnitStatistic:
    """``mean_pairwise_cohen`` as sums over units: each pair's (a, b) cell counts side by side."""
    pairs = list(pairs) if pairs is not None else pairs_used(ratings)
    distinct, first, inverse = unique_rows(ratings.codes)
    # each pair's statistic on the distinct rows only: its sums per row, never an n-length array per pair
    on_rows = Ratings(distinct, ratings.categories, ratings.raters)
    members = [cohen_statistic(on_rows, a, b) for a, b in pairs]
    rows = [member.per_unit[member.unit_rows()] for member in members]
    bounds = np.cumsum([0, *(r.shape[1] for r in rows)])
    per_unit = np.hstack(rows) if rows else np.zeros((distinct.shape[0], 1))

    def finish(totals: np.ndarray) -> np.ndarray:
        if not members:
            return np.full(totals.shape[0], np.nan)
        # np.mean keeps NaN: a draw on which any pair is undefined is undefined.
        return np.mean(
            [
                member.finish_totals(totals[:, start:stop])
                for member, start, stop in zip(members, bounds[:-1], bounds[1:])
            ],
            axis=0,
        )

    def why(totals: np.ndarray) -> str:
        if not members:
            return "no two raters labelled a unit in common"
        undefined = [
            f"{a}-{b}"
            for (a, b), member, start, stop in zip(pairs, members, bounds[:-1], bounds[1:])
            if not np.isfinite(member.finish_totals(totals[None, start:stop])[0])
        ]
        return f"Cohen's kappa is undefined for the pair(s) {', '.join(undefined)}"

    return UnitStatistic("mean_pairwise_cohen", per_unit, finish, why, units=inverse)


def mean_pairwise_cohen(ratings: Ratings, pairs: Sequence[tuple[str, str]] | None = None) -> float:
    """Light's kappa: the unweighted mean of Cohen's kappa over rater pairs,
    (1 / P) sum_{a<b} kappa(a, b), each kappa on the units both raters labelled.

    ``pairs`` defaults to every pair that labelled a unit in common (``pairs_used``). With
    none, or with any pair's kappa undefined, the value is ``Undefined`` naming why.

    Parameters
    ----------
    ratings : Ratings
        Units x raters.
    pairs : sequence of (str, str), optional
        The rater pairs to average over.

    Returns
    -------
    float or Undefined

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some
    generalizations and alternatives. Psychological Bulletin 76(5), 365-377; Conger, A. J.
    (1980). Integration and generalization of kappas for multiple raters. Psychological
    Bulletin 88(2), 322-328 (the mean of pairwise kappas beside Fleiss' form).

    Examples
    --------
    By hand: raters a and b agree on all four units (kappa 1); a and c, like b and c,
    agree on 3 of 4 with marginals (1/2, 1/2) and (1/4, 3/4), so p_e = 1/2 and kappa = 1/2;
    the mean is 2/3 (scikit-learn's ``cohen_kappa_score`` on each pair gives the same):

    >>> import pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> ratings = Ratings.from_labels(pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 0, 1, 1], "c": [0, 1, 1, 1]}))
    >>> round(mean_pairwise_cohen(ratings), 6)
    0.666667
    """
    if ratings.n_units == 0:
        return Undefined("no units")
    pairs = list(pairs) if pairs is not None else pairs_used(ratings)
    if fits_one_statistic(ratings, pairs):
        return mean_pairwise_cohen_statistic(ratings, pairs).value()
    return mean_pairwise_cohen_of_tables(pair_tables(ratings), pairs)


def mean_pairwise_cohen_of_tables(tables: PairTables, pairs: Sequence[tuple[str, str]] | None = None) -> float:
    """``mean_pairwise_cohen`` from the pairs' contingency tables (``reagree.stats.pairtables``,
    counted from the units each pair shares): the mean of ``tables.cohen_kappas()`` over
    ``pairs`` (default: every pair that shares a unit), ``Undefined`` naming the pairs
    whose kappa is undefined."""
    pairs = list(pairs) if pairs is not None else tables.pairs
    if not pairs:
        return Undefined("no two raters labelled a unit in common")
    found = dict(zip(tables.pairs, tables.cohen_kappas()))
    kappas = np.array([found.get((a, b), np.nan) for a, b in pairs])  # a pair that shares nothing has no kappa
    undefined = [f"{a}-{b}" for (a, b), kappa in zip(pairs, kappas) if not np.isfinite(kappa)]
    if undefined:
        named = ", ".join(undefined[:10]) + (f" and {len(undefined) - 10} more" if len(undefined) > 10 else "")
        return Undefined(f"Cohen's kappa is undefined for the pair(s) {named}")
    return float(np.mean(kappas))
