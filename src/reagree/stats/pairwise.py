"""Two-rater coefficients, from a K x K contingency table or from two raters of a ``Ratings``.

What this module decides:

- **Orientation.** Rows are the first rater's categories, columns the second's, in the
  declared category order (the order linear and quadratic weights use). Entries are
  counts or proportions (finite, non-negative).
- **Units.** From a ``Ratings``, only units both raters labelled count; the others are
  still units of the sample (a bootstrap resample draws them, and they add nothing). The
  bootstrap draws over the ratings' full rows (``Ratings.rating_rows``), so the kappas of
  every pair of one ``Ratings`` see the same resamples.
  From a table of counts, the units are its cells repeated by their counts, in row-major
  order; a table of proportions has a value but cannot be resampled.
- **Input checks.** A table is K x K, finite and non-negative (counts, or proportions);
  a NaN, inf or negative cell is a ValueError naming its row and column.
- **One definition.** ``cohen_kappa`` and ``scott_pi`` are the ``value()`` of
  ``cohen_statistic`` / ``scott_statistic``: each unit adds one to its (a, b) cell, and
  the finish reads the coefficient off the summed table. Cohen's finish is
  ``cohen_kappa_tables`` (any stack of tables at once: ``reagree.methods.runtriples``
  scores every pair of runs with it); Scott's pi is Fleiss' kappa
  (``reagree.stats.multirater.fleiss_statistic``) on each unit's two ratings. The multi-rater coefficients
  (percent and specific agreement, PABAK, Gwet's AC1) apply to a table through
  ``reagree.stats.ratings.counts_from_table``; ``table_coefficients`` does that for all of them.
"""

from __future__ import annotations

import numpy as np

from reagree.stats import multirater
from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.ratings import MISSING, Ratings, counts_from_table
from reagree.stats.undefined import Undefined, difference

__all__ = [
    "WEIGHTS",
    "agreement_range",
    "cohen_kappa",
    "cohen_kappa_tables",
    "cohen_statistic",
    "contingency_table",
    "scott_pi",
    "scott_statistic",
    "table_coefficients",
]

WEIGHTS = (None, "linear", "quadratic")


def contingency_table(ratings: Ratings, rater_a: str, rater_b: str) -> np.ndarray:
    """K x K counts of (rater_a's category, rater_b's category) over units both labelled."""
    a, b = _pair_codes(ratings, rater_a, rater_b)
    both = (a != MISSING) & (b != MISSING)
    k = ratings.n_categories
    return np.bincount(a[both] * k + b[both], minlength=k * k).reshape(k, k)


def _pair_codes(ratings: Ratings, rater_a: str, rater_b: str) -> tuple[np.ndarray, np.ndarray]:
    for rater in (rater_a, rater_b):
        if rater not in ratings.raters:
            raise ValueError(f"no rater {rater!r} among {list(ratings.raters)}")
    return ratings.codes[:, ratings.raters.index(rater_a)], ratings.codes[:, ratings.raters.index(rater_b)]


def _disagreement_weights(k: int, weights: str | None) -> np.ndarray:
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {WEIGHTS}, got {weights!r}")
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)
    if weights is None:
        return (distance > 0).astype(float)
    return distance if weights == "linear" else distance**2


def _square(table) -> np.ndarray:
    try:
        table = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("a contingency table must hold numbers") from None
    if table.ndim != 2 or table.shape[0] != table.shape[1]:
        raise ValueError(f"a contingency table must be K x K, got shape {table.shape}")
    if not np.isfinite(table).all():
        raise ValueError(
            "a contingency table must be finite (no NaN or inf); " + _first_cell(~np.isfinite(table), table)
        )
    if (table < 0).any():
        raise ValueError("a contingency table cannot hold negative counts; " + _first_cell(table < 0, table))
    return table


def _first_cell(bad: np.ndarray, table: np.ndarray) -> str:
    """ "row 0, column 1 holds nan": the first cell flagged in ``bad``."""
    i, j = (int(x) for x in np.argwhere(bad)[0])
    return f"row {i}, column {j} holds {float(table[i, j])!r}"


def _cells(data, rater_a: str | None, rater_b: str | None) -> tuple[int, dict]:
    """K and the sample as cells: each unit's cell a*K + b (K*K for "not both labelled"),
    or a table's cells with its entries as weights."""
    if isinstance(data, Ratings):
        if rater_a is None and rater_b is None and data.n_raters == 2:
            rater_a, rater_b = data.raters
        if rater_a is None or rater_b is None:
            raise ValueError(f"name the two raters of a Ratings with {data.n_raters} raters")
        a, b = _pair_codes(data, rater_a, rater_b)
        k = data.n_categories
        both = (a != MISSING) & (b != MISSING)
        return k, {"units": np.where(both, a * k + b, k * k), "rating_rows": lambda: data.rating_rows}
    if rater_a is not None or rater_b is not None:
        raise ValueError("raters are named only for a Ratings, not for a table")
    table = _square(data)
    k = table.shape[0]
    return k, {"weights": np.append(table.reshape(k * k), 0.0)}


def _cell_rows(k: int) -> np.ndarray:
    """One row per cell (a one-hot K*K vector), plus an all-zero row for a unit not both labelled."""
    return np.vstack([np.eye(k * k), np.zeros((1, k * k))])


def cohen_kappa_tables(tables, weights: str | None = None) -> np.ndarray:
    """``cohen_kappa`` of every K x K table of a stack (shape (..., K, K)) at once, as
    floats: NaN (or inf) where a table is empty or both raters used one and the same
    category. The one formula behind ``cohen_statistic`` and ``cohen_kappa``."""
    tables = np.asarray(tables, dtype=float)
    k = tables.shape[-1]
    disagreement = _disagreement_weights(k, weights)
    flat = tables.reshape(-1, k, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        n = flat.sum(axis=(1, 2))
        if weights is None:  # Cohen (1960): (p_o - p_e) / (1 - p_e)
            observed = np.trace(flat, axis1=1, axis2=2) / n
            chance = (flat.sum(axis=2) * flat.sum(axis=1)).sum(axis=1) / n**2
            kappa = (observed - chance) / (1 - chance)
        else:  # Cohen (1968): 1 - sum w o / sum w e, with disagreement weights w
            observed = (flat * disagreement).sum(axis=(1, 2)) / n
            expected = np.einsum("bi,bj,ij->b", flat.sum(axis=2), flat.sum(axis=1), disagreement) / n**2
            kappa = 1 - observed / expected
    return kappa.reshape(tables.shape[:-2])


def cohen_statistic(
    data, rater_a: str | None = None, rater_b: str | None = None, weights: str | None = None
) -> UnitStatistic:
    """``cohen_kappa`` as sums over units: each unit adds one to its (a, b) cell.

    ``data`` is a K x K table, or a ``Ratings`` with the two raters named (or exactly two
    raters)."""
    k, sample = _cells(data, rater_a, rater_b)
    _disagreement_weights(k, weights)  # an unknown weighting is refused here, not at the first value

    def finish(totals: np.ndarray) -> np.ndarray:
        return cohen_kappa_tables(totals.reshape(-1, k, k), weights)

    def why(totals: np.ndarray) -> str:
        if totals.sum() == 0:
            return "no unit was labelled by both raters"
        return "both raters used one and the same category: chance agreement is 1"

    name = f"cohen_kappa[{rater_a},{rater_b}]" if rater_a else "cohen_kappa"
    return UnitStatistic(name, _cell_rows(k), finish, why, **sample)


def cohen_kappa(data, weights: str | None = None, raters: tuple[str, str] | None = None) -> float:
    """Cohen's kappa of two raters, unweighted or with linear/quadratic weights.

    kappa = 1 - sum_ij w_ij o_ij / sum_ij w_ij e_ij, with o the observed proportions,
    e_ij = o_i. o_.j the product of the marginals and w the disagreement weights (1 off
    the diagonal; |i - j|; (i - j)^2). Unweighted it is (p_o - p_e) / (1 - p_e).
    ``data`` is a K x K table (counts or proportions) or a ``Ratings``, with ``raters``
    naming the pair unless it has exactly two. An empty table, or one in which both raters
    used a single and the same category, is ``Undefined``. Equals statsmodels'
    ``cohens_kappa`` and scikit-learn's ``cohen_kappa_score``.

    Parameters
    ----------
    data : array_like or Ratings
        A K x K contingency table (rows: the first rater's categories) or the ratings.
    weights : {None, "linear", "quadratic"}
        The disagreement weights; None is Cohen's (1960) unweighted kappa.
    raters : tuple of two str, optional
        The pair of raters to read from ``data`` when it is a ``Ratings`` of more than two.

    Returns
    -------
    float or Undefined

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20, 37-46; Cohen, J. (1968). Weighted kappa. Psychological
    Bulletin 70, 213-220.

    Examples
    --------
    By hand: 50 units, p_o = (20 + 15) / 50 = 0.7, p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5, so
    kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4:

    >>> import numpy as np
    >>> round(cohen_kappa(np.array([[20, 5], [10, 15]])), 6)
    0.4

    Weighted: R irr's ``kappa2`` on its ``anxiety`` data (raters 2 and 3, the levels they
    used) prints -0.006289308 unweighted, 0.1459075 "equal" (linear) and 0.2520325
    "squared" (quadratic), as statsmodels' test suite holds them:

    >>> import pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> anxiety = pd.DataFrame({"rater2": [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4],
    ...                         "rater3": [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]})
    >>> ratings = Ratings.from_labels(anxiety, categories=(1, 2, 3, 4, 6))
    >>> [round(cohen_kappa(ratings, weights=w), 7) for w in (None, "linear", "quadratic")]
    [-0.0062893, 0.1459075, 0.2520325]
    """
    rater_a, rater_b = raters if raters is not None else (None, None)
    return cohen_statistic(data, rater_a, rater_b, weights).value()


def scott_statistic(data, rater_a: str | None = None, rater_b: str | None = None) -> UnitStatistic:
    """``scott_pi`` as sums over units: Fleiss' kappa (``multirater.fleiss_statistic``) on
    each unit's two ratings. A unit in cell (a, b) is one rating in a and one in b
    (``counts_from_table``); a unit not both labelled has no rating and takes no part."""
    k, sample = _cells(data, rater_a, rater_b)
    cell_counts, _ = counts_from_table(np.zeros((k, k)))
    rows = np.vstack([cell_counts, np.zeros((1, k))])
    fleiss = multirater.fleiss_statistic(rows, weights=np.ones(rows.shape[0]))  # one row per cell, in order

    def why(totals: np.ndarray) -> str:
        if totals.sum() == 0:
            return "no unit was labelled by both raters"
        return "only one category in use: chance agreement is 1"

    name = f"scott_pi[{rater_a},{rater_b}]" if rater_a else "scott_pi"
    return UnitStatistic(name, fleiss.per_unit, fleiss.finish, why, **sample)


def scott_pi(data, raters: tuple[str, str] | None = None) -> float:
    """Scott's pi: two-rater agreement with chance from the pooled marginals.

    pi = (p_o - p_e) / (1 - p_e), p_o = sum_k o_kk, p_e = sum_k ((o_k. + o_.k) / 2)^2.
    It is Fleiss' kappa with m = 2 on the units both raters labelled. ``data`` as for
    ``cohen_kappa``. Equals irrCAC's ``CAC.scott()`` on the table.

    Parameters
    ----------
    data : array_like or Ratings
        A K x K contingency table or the ratings, as for ``cohen_kappa``.
    raters : tuple of two str, optional
        The pair of raters to read from a ``Ratings`` of more than two.

    Returns
    -------
    float or Undefined

    References
    ----------
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal scale
    coding. Public Opinion Quarterly 19(3), 321-325.

    Examples
    --------
    By hand, the table of ``cohen_kappa``'s example: p_o = 0.7, the pooled shares are
    (25 + 30) / 100 = 0.55 and 0.45, p_e = 0.55^2 + 0.45^2 = 0.505, so
    pi = 0.195 / 0.495 = 0.393939 (irrCAC's Fleiss' kappa on the 50 units' two ratings
    gives the same):

    >>> import numpy as np
    >>> round(scott_pi(np.array([[20, 5], [10, 15]])), 6)
    0.393939
    """
    rater_a, rater_b = raters if raters is not None else (None, None)
    return scott_statistic(data, rater_a, rater_b).value()


def _cohen_chance(table) -> float:
    """Cohen's chance agreement p_e = sum_k p_k. p_.k."""
    table = _square(table)
    total = table.sum()
    if total == 0:
        return Undefined("empty table")
    return float((table.sum(axis=1) * table.sum(axis=0)).sum() / total**2)


def agreement_range(ratings: Ratings, raters) -> tuple[float, float]:
    """The lowest and the highest observed agreement over every pair of ``raters``, each
    pair on the units both rated ("match each other on 74 to 79 percent of the items
    they both labelled")."""
    raters = list(raters)
    if len(raters) < 2:
        raise ValueError(f"agreement_range needs two or more raters, got {raters}")
    found = [
        table_coefficients(contingency_table(ratings, a, b))["agreement"]
        for i, a in enumerate(raters)
        for b in raters[i + 1 :]
    ]
    return float(min(found)), float(max(found))


def table_coefficients(table) -> dict[str, object]:
    """Every two-rater reading of one table: agreement (and its complement, the observed
    disagreement), kappa, Scott's pi, PABAK, AC1 and the specific agreement of each category.

    Parameters
    ----------
    table : array_like
        A K x K contingency table of counts.

    Returns
    -------
    dict
        ``n``, ``agreement``, ``disagreement``, ``chance`` (Cohen's), ``kappa``,
        ``scott_pi``, ``pabak``, ``ac1`` and ``specific`` (one entry per category).

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., Advanced Analytics
    (the abstractors example; irrCAC's ``table_cont3x3abstractors``).

    Examples
    --------
    Gwet (2014): two abstractors classify 100 pregnancies; irrCAC's documentation
    (``irrCAC.table``) prints AC1 = 0.84933 with percent agreement 0.89:

    >>> found = table_coefficients([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
    >>> round(found["ac1"], 5), round(found["agreement"], 5)
    (0.84933, 0.89)
    """
    table = _square(table)
    counts, weights = counts_from_table(table)
    agreement = multirater.percent_agreement(counts, weights)
    return {
        "n": float(table.sum()),
        "agreement": agreement,
        "disagreement": difference(1.0, agreement),
        "chance": _cohen_chance(table),
        "kappa": cohen_kappa(table),
        "scott_pi": scott_pi(table),
        "pabak": multirater.brennan_prediger(counts, weights),
        "ac1": multirater.gwet_ac1(counts, weights),
        "specific": multirater.specific_agreement(counts, weights),
    }
