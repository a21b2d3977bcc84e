"""Two-rater coefficients, read from a K x K contingency table.

Orientation: rows are the first rater's categories, columns the second's, in the
declared category order (the order linear and quadratic weights use). Entries are counts
or proportions. ``contingency_table`` builds one from two columns of a ``Ratings``,
counting only units both raters labelled.

Cohen's kappa calls statsmodels (checked against scikit-learn's ``cohen_kappa_score``
in the tests). The multi-rater coefficients (percent and specific agreement, PABAK,
Gwet's AC1, Scott's pi = two-rater Fleiss) apply to a table through
``reagree.ratings.counts_from_table``; ``table_coefficients`` does that for all of them.
"""

from __future__ import annotations

import numpy as np
from statsmodels.stats import inter_rater

from reagree import multirater
from reagree.bootstrap import UnitStatistic
from reagree.ratings import MISSING, Ratings, counts_from_table
from reagree.undefined import Undefined

WEIGHTS = (None, "linear", "quadratic")


def contingency_table(ratings: Ratings, rater_a: str, rater_b: str) -> np.ndarray:
    """K x K counts of (rater_a's category, rater_b's category) over units both labelled."""
    a = ratings.codes[:, ratings.raters.index(rater_a)]
    b = ratings.codes[:, ratings.raters.index(rater_b)]
    both = (a != MISSING) & (b != MISSING)
    k = ratings.n_categories
    return np.bincount(a[both] * k + b[both], minlength=k * k).reshape(k, k)


def _disagreement_weights(k: int, weights: str | None) -> np.ndarray:
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {WEIGHTS}, got {weights!r}")
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)
    if weights is None:
        return (distance > 0).astype(float)
    return distance if weights == "linear" else distance ** 2


def _square(table) -> np.ndarray:
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] != table.shape[1]:
        raise ValueError(f"a contingency table must be K x K, got shape {table.shape}")
    if (table < 0).any():
        raise ValueError("a contingency table cannot hold negative counts")
    return table


def cohen_kappa(table, weights: str | None = None) -> float:
    """Cohen's kappa of two raters, unweighted or with linear/quadratic weights.

    kappa = 1 - sum_ij w_ij o_ij / sum_ij w_ij e_ij, with o the observed proportions,
    e_ij = o_i. o_.j the product of the marginals and w the disagreement weights (1 off
    the diagonal; |i - j|; (i - j)^2). Unweighted it is (p_o - p_e) / (1 - p_e).
    Computed by ``statsmodels.stats.inter_rater.cohens_kappa``. An empty table, or one
    in which both raters used a single and the same category, is ``Undefined``.

    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20, 37-46; Cohen, J. (1968), weighted kappa, Psychological
    Bulletin 70, 213-220.
    """
    table = _square(table)
    disagreement = _disagreement_weights(table.shape[0], weights)
    total = table.sum()
    if total == 0:
        return Undefined("no unit was labelled by both raters")
    rows, cols = table.sum(axis=1) / total, table.sum(axis=0) / total
    expected = np.outer(rows, cols)
    if np.isclose((expected * disagreement).sum(), 0.0):
        return Undefined("both raters used one and the same category: chance agreement is 1")
    return float(inter_rater.cohens_kappa(table, wt=weights, return_results=False))


def cohen_statistic(ratings: Ratings, rater_a: str, rater_b: str, weights: str | None = None) -> UnitStatistic:
    """Cohen's kappa as sums over units: each unit adds one to its (a, b) cell."""
    k = ratings.n_categories
    a = ratings.codes[:, ratings.raters.index(rater_a)]
    b = ratings.codes[:, ratings.raters.index(rater_b)]
    both = (a != MISSING) & (b != MISSING)
    per_unit = np.zeros((ratings.n_units, k * k))
    per_unit[np.flatnonzero(both), a[both] * k + b[both]] = 1.0
    disagreement = _disagreement_weights(k, weights)

    def finish(totals: np.ndarray) -> np.ndarray:
        tables = totals.reshape(-1, k, k)
        n = tables.sum(axis=(1, 2))
        observed = (tables * disagreement).sum(axis=(1, 2)) / n
        expected = np.einsum("bi,bj,ij->b", tables.sum(axis=2), tables.sum(axis=1), disagreement) / n ** 2
        return 1 - observed / expected

    return UnitStatistic(f"cohen_kappa[{rater_a},{rater_b}]", per_unit, finish)


def scott_pi(table) -> float:
    """Scott's pi: two-rater kappa with chance from the pooled marginals,
    p_e = sum_k ((o_k. + o_.k) / 2)^2. It is Fleiss' kappa with m = 2 (hand-written on
    the pseudo-unit form, since the table may hold proportions).

    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale
    coding. Public Opinion Quarterly 19(3), 321-325.
    """
    counts, weights = counts_from_table(_square(table))
    value = float(multirater.fleiss_statistic(counts).evaluate(weights[None, :])[0])
    return value if np.isfinite(value) else Undefined("only one category in use: chance agreement is 1")


def table_coefficients(table) -> dict[str, object]:
    """Every two-rater reading of one table: agreement, kappa, Scott's pi, PABAK, AC1 and
    the specific agreement of each category."""
    table = _square(table)
    counts, weights = counts_from_table(table)
    return {
        "n": float(table.sum()),
        "agreement": multirater.percent_agreement(counts, weights),
        "chance": _cohen_chance(table),
        "kappa": cohen_kappa(table),
        "scott_pi": scott_pi(table),
        "pabak": multirater.brennan_prediger(counts, weights),
        "ac1": multirater.gwet_ac1(counts, weights),
        "specific": multirater.specific_agreement(counts, weights),
    }


def _cohen_chance(table: np.ndarray) -> float:
    """Cohen's chance agreement p_e = sum_k p_k. p_.k."""
    total = table.sum()
    if total == 0:
        return Undefined("empty table")
    return float((table.sum(axis=1) * table.sum(axis=0)).sum() / total ** 2)
