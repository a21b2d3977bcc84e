"""Coefficients for any number of raters, read from unit x category counts.

Input: ``counts`` of shape (n_units, K), entry (i, k) = how many raters put unit i in
category k (``Ratings.unit_counts()``, or statsmodels' ``aggregate_raters``). K is the
number of *declared* categories, which matters for Brennan-Prediger and Gwet's AC1.
Optional ``weights`` (one per unit) let a two-rater contingency table enter as weighted
pseudo-units (``reagree.ratings.counts_from_table``): every coefficient here then equals
its two-rater textbook form on that table.

Units with fewer than two ratings are not pairable and take no part in observed
agreement. Degenerate input returns ``Undefined(reason)`` (a NaN), never an exception.

Fleiss' kappa calls statsmodels. The rest (per-category kappa, percent and specific
agreement, Brennan-Prediger/PABAK, Gwet's AC1) have no well-kept library implementation
that takes weights and missing cells, so they are written here, each as a
``UnitStatistic`` the bootstrap engine can evaluate on thousands of draws at once.
"""

from __future__ import annotations

import numpy as np
from statsmodels.stats import inter_rater

from reagree.bootstrap import UnitStatistic
from reagree.undefined import Undefined


def _as_counts(counts) -> np.ndarray:
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2:
        raise ValueError(f"counts must be units x categories, got shape {counts.shape}")
    if (counts < 0).any():
        raise ValueError("counts must be non-negative")
    return counts


def _weights(counts: np.ndarray, weights) -> np.ndarray:
    if weights is None:
        return np.ones(counts.shape[0])
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (counts.shape[0],):
        raise ValueError(f"need one weight per unit: {counts.shape[0]}, got shape {weights.shape}")
    return weights


def _why_undefined(counts: np.ndarray, weights: np.ndarray) -> str:
    m = counts.sum(axis=1)
    live = weights > 0
    if not (live & (m >= 2)).any():
        return "no unit has two or more ratings"
    if counts.shape[1] < 2:
        return "fewer than two categories declared"
    if ((weights[:, None] * counts)[m >= 2].sum(axis=0) > 0).sum() < 2:
        return "only one category in use: chance agreement is 1"
    return "undefined on this input"


def _point(statistic: UnitStatistic, counts: np.ndarray, weights: np.ndarray) -> float:
    value = float(statistic.evaluate(weights[None, :])[0])
    return value if np.isfinite(value) else Undefined(_why_undefined(counts, weights))


def _pairwise_agreement(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per unit: is it pairable (m >= 2), and its share of agreeing rater pairs."""
    m = counts.sum(axis=1)
    pairable = m >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(pairable, (counts * (counts - 1)).sum(axis=1) / (m * (m - 1)), 0.0)
    return pairable.astype(float), share


# --- Fleiss ---------------------------------------------------------------------------

def _constant_raters(counts: np.ndarray) -> int:
    m = counts.sum(axis=1)
    if m.size == 0:
        return 0
    if not np.all(m == m[0]):
        raise ValueError(
            f"Fleiss' kappa needs the same number of ratings on every unit; got {int(m.min())} to {int(m.max())} "
            "(use Ratings.complete() or Krippendorff's alpha for missing cells)"
        )
    return int(m[0])


def fleiss_statistic(counts) -> UnitStatistic:
    """Fleiss' kappa as sums over units: [1, sum_k c_ik^2, c_i1 .. c_iK]."""
    counts = _as_counts(counts)
    m = _constant_raters(counts)
    per_unit = np.column_stack([np.ones(len(counts)), (counts ** 2).sum(axis=1), counts])

    def finish(totals: np.ndarray) -> np.ndarray:
        n_units = totals[:, 0]
        observed = (totals[:, 1] - n_units * m) / (n_units * m * (m - 1))
        share = totals[:, 2:] / (n_units * m)[:, None]
        chance = (share ** 2).sum(axis=1)
        return (observed - chance) / (1 - chance)

    return UnitStatistic("fleiss_kappa", per_unit, finish)


def fleiss_kappa(counts) -> float:
    """Fleiss' kappa for m raters per unit (Fleiss 1971).

    kappa = (P_bar - P_e) / (1 - P_e), with P_i = (sum_k c_ik^2 - m) / (m (m - 1)),
    P_bar the mean of P_i over units, p_k = sum_i c_ik / (N m) and P_e = sum_k p_k^2.
    Computed by ``statsmodels.stats.inter_rater.fleiss_kappa``. Every unit must carry the
    same number m of ratings (else ValueError); m < 2 or a single category in use gives
    ``Undefined``.

    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382.
    """
    counts = _as_counts(counts)
    m = _constant_raters(counts)
    weights = np.ones(len(counts))
    if m < 2 or (counts.sum(axis=0) > 0).sum() < 2:
        return Undefined(_why_undefined(counts, weights))
    return float(inter_rater.fleiss_kappa(counts, method="fleiss"))


def fleiss_category_statistic(counts, category: int) -> UnitStatistic:
    """Category-specific Fleiss kappa as sums over units: [1, c_ij, c_ij (m - c_ij)]."""
    counts = _as_counts(counts)
    m = _constant_raters(counts)
    column = counts[:, category]
    per_unit = np.column_stack([np.ones(len(counts)), column, column * (m - column)])

    def finish(totals: np.ndarray) -> np.ndarray:
        n_units = totals[:, 0]
        share = totals[:, 1] / (n_units * m)
        return 1 - totals[:, 2] / (n_units * m * (m - 1) * share * (1 - share))

    return UnitStatistic(f"fleiss_category_kappa[{category}]", per_unit, finish)


def fleiss_category_kappas(counts) -> np.ndarray:
    """Fleiss' category-specific kappas, one per category (Fleiss 1971, eq. 9).

    kappa_j = 1 - sum_i c_ij (m - c_ij) / (N m (m - 1) p_j (1 - p_j)).
    Collapsing the categories to "j vs the rest" gives exactly kappa_j, and the overall
    kappa is the mean of the kappa_j weighted by p_j (1 - p_j). Returns an object array
    so that a category nobody used (or everybody always used) can be ``Undefined`` with
    its reason. Written here: statsmodels has no per-category form.
    """
    counts = _as_counts(counts)
    out = []
    for j in range(counts.shape[1]):
        value = float(fleiss_category_statistic(counts, j).estimate())
        out.append(value if np.isfinite(value) else Undefined(f"category {j} is used by nobody or by everybody"))
    return np.array(out, dtype=object)


# --- percent agreement, Brennan-Prediger / PABAK, Gwet's AC1 ----------------------------

def percent_agreement_statistic(counts) -> UnitStatistic:
    counts = _as_counts(counts)
    pairable, share = _pairwise_agreement(counts)
    return UnitStatistic("percent_agreement", np.column_stack([pairable, share]),
                         lambda totals: totals[:, 1] / totals[:, 0])


def percent_agreement(counts, weights=None) -> float:
    """Observed agreement P_bar: the mean, over pairable units, of the share of agreeing
    rater pairs, sum_k c_ik (c_ik - 1) / (m_i (m_i - 1)).

    For two raters this is the proportion of units both labelled alike. Units rated by
    fewer than two raters are skipped; with none left the value is ``Undefined``.
    Hand-written (weights and missing cells; no library form).
    """
    counts = _as_counts(counts)
    return _point(percent_agreement_statistic(counts), counts, _weights(counts, weights))


def brennan_prediger_statistic(counts) -> UnitStatistic:
    counts = _as_counts(counts)
    k = counts.shape[1]
    pairable, share = _pairwise_agreement(counts)

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, 1] / totals[:, 0]
        return (observed - 1.0 / k) / (1.0 - 1.0 / k)

    return UnitStatistic("brennan_prediger", np.column_stack([pairable, share]), finish)


def brennan_prediger(counts, weights=None) -> float:
    """Brennan-Prediger kappa (free-marginal kappa; PABAK for two categories).

    kappa_BP = (P_o - 1/K) / (1 - 1/K), chance taken as uniform over the K declared
    categories. With K = 2 it is PABAK = 2 P_o - 1 (Byrt, Bishop & Carlin 1993).
    Equals statsmodels' ``fleiss_kappa(method="randolph")`` on complete data; written
    here to take weights and missing cells.

    Brennan, R. L., Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. Educational and Psychological Measurement 41, 687-699.
    """
    counts = _as_counts(counts)
    weights = _weights(counts, weights)
    if counts.shape[1] < 2:
        return Undefined("fewer than two categories declared")
    return _point(brennan_prediger_statistic(counts), counts, weights)


pabak = brennan_prediger


def gwet_ac1_statistic(counts) -> UnitStatistic:
    counts = _as_counts(counts)
    k = counts.shape[1]
    m = counts.sum(axis=1)
    pairable, share = _pairwise_agreement(counts)
    rated = (m >= 1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        classification = np.where(m[:, None] >= 1, counts / m[:, None], 0.0)

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, 1] / totals[:, 0]
        prevalence = totals[:, 3:] / totals[:, 2][:, None]
        chance = (prevalence * (1 - prevalence)).sum(axis=1) / (k - 1)
        return (observed - chance) / (1 - chance)

    per_unit = np.column_stack([pairable, share, rated, classification])
    return UnitStatistic("gwet_ac1", per_unit, finish)


def gwet_ac1(counts, weights=None) -> float:
    """Gwet's first-order agreement coefficient AC1.

    AC1 = (P_o - P_e) / (1 - P_e), P_e = 1/(K-1) sum_k pi_k (1 - pi_k), where pi_k is the
    mean over rated units of the share c_ik / m_i of ratings in category k; P_o as in
    ``percent_agreement``. For two raters pi_k is the mean of their two marginals, and with
    two categories P_e = 2 pi (1 - pi), which never exceeds 0.5. Hand-written: no
    well-kept Python library implements it.

    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. British Journal of Mathematical and Statistical Psychology 61, 29-48.
    """
    counts = _as_counts(counts)
    weights = _weights(counts, weights)
    if counts.shape[1] < 2:
        return Undefined("fewer than two categories declared")
    return _point(gwet_ac1_statistic(counts), counts, weights)


# --- specific agreement -----------------------------------------------------------------

def specific_agreement_statistic(counts, category: int) -> UnitStatistic:
    counts = _as_counts(counts)
    m = counts.sum(axis=1)
    column = counts[:, category]
    pairable = m >= 2
    per_unit = np.column_stack([np.where(pairable, column * (column - 1), 0.0),
                                np.where(pairable, column * (m - 1), 0.0)])
    return UnitStatistic(f"specific_agreement[{category}]", per_unit, lambda totals: totals[:, 0] / totals[:, 1])


def specific_agreement(counts, weights=None) -> np.ndarray:
    """Specific (positive/negative) agreement per category.

    p_s(k) = sum_i c_ik (c_ik - 1) / sum_i c_ik (m_i - 1) over pairable units: of all the
    rater pairs in which one rater said k, the share in which the other said k too. For
    two raters and a 2x2 table this is 2a / (2a + b + c) (and 2d / (2d + b + c) for the
    other category). Returns an object array, one entry per category; a category nobody
    used is ``Undefined``. Hand-written.

    Uebersax, J. S. (1982). A design-independent method for measuring the reliability of
    psychiatric diagnosis. Journal of Psychiatric Research 17(4), 335-342; Fleiss (1975).
    """
    counts = _as_counts(counts)
    weights = _weights(counts, weights)
    out = []
    for k in range(counts.shape[1]):
        value = float(specific_agreement_statistic(counts, k).evaluate(weights[None, :])[0])
        out.append(value if np.isfinite(value) else Undefined(f"category {k} is never used on a pairable unit"))
    return np.array(out, dtype=object)
