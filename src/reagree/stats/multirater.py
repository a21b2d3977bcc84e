"""Coefficients for any number of raters, read from unit x category counts.

What this module decides:

- **Input.** ``counts`` of shape (n_units, K): entry (i, k) = how many raters put unit i
  in category k (``Ratings.unit_counts()``, statsmodels' ``aggregate_raters``, or a
  long table's per-unit counts: no units x raters matrix is ever needed). Counts are
  finite non-negative whole numbers, else ValueError. K is the number of *declared*
  categories, which matters for Brennan-Prediger and Gwet's AC1.
- **Weights.** Optional ``weights`` (one finite non-negative number per unit) let a
  two-rater contingency table enter as weighted pseudo-units
  (``reagree.stats.ratings.counts_from_table``): every coefficient here then equals its
  two-rater textbook form on that table, for counts and for proportions alike.
- **Pairable units.** Units with fewer than two ratings are not pairable and take no part
  in observed agreement; Gwet's prevalences average over every unit with a rating.
  Fleiss' kappa skips units nobody rated and needs the same number m of ratings on every
  other unit (ValueError otherwise).
- **Undefined.** Degenerate input (no pairable unit, one category in use, fewer than two
  declared categories) returns ``Undefined(reason)``, never an exception.
- **One definition.** Each coefficient ``name(counts)`` is ``name_statistic(counts).value()``:
  the value and the bootstrap draws (``reagree.stats.bootstrap``) come from the same
  sufficient statistic. The tests hold each one against statsmodels, irrCAC or a
  by-hand enumeration of rater pairs.
"""

from __future__ import annotations

import numpy as np

from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.ratings import check_unit_counts
from reagree.stats.rows import unique_rows
from reagree.stats.undefined import Undefined, reason_of

__all__ = [
    "NO_PAIRABLE_UNIT",
    "brennan_prediger",
    "brennan_prediger_statistic",
    "conger_kappa",
    "conger_statistic",
    "fleiss_category_kappa",
    "fleiss_category_kappas",
    "fleiss_category_statistic",
    "fleiss_category_weighted_mean",
    "fleiss_kappa",
    "fleiss_statistic",
    "gwet_ac1",
    "gwet_ac1_statistic",
    "pabak",
    "percent_agreement",
    "percent_agreement_statistic",
    "randolph_kappa",
    "specific_agreement",
    "specific_agreement_statistic",
]

NO_PAIRABLE_UNIT = "no unit has two or more ratings"


# --- input ----------------------------------------------------------------------------


def _as_weights(counts: np.ndarray, weights) -> np.ndarray | None:
    if weights is None:
        return None
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (counts.shape[0],):
        raise ValueError(f"need one weight per unit: {counts.shape[0]}, got shape {weights.shape}")
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        unit = int(np.flatnonzero(bad)[0])
        raise ValueError(f"weights must be finite and non-negative; unit {unit} has weight {float(weights[unit])!r}")
    return weights


def _sample(counts, weights) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(rows, units, weights): unweighted units pooled into their distinct count rows
    (``units`` says which row each unit has, in order), weighted units kept as rows."""
    counts = check_unit_counts(counts)
    weights = _as_weights(counts, weights)
    if weights is not None:
        return counts, None, weights
    rows, _, inverse = unique_rows(counts)
    return rows, inverse, None


def _statistic(name, per_unit, finish, why, units, weights) -> UnitStatistic:
    return UnitStatistic(name, per_unit, finish, why, units=units, weights=weights)


def _pairable_agreement(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: pairable (m >= 2), and its share of agreeing rater pairs."""
    m = rows.sum(axis=1)
    pairable = m >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(pairable, (rows * (rows - 1)).sum(axis=1) / (m * (m - 1)), 0.0)
    return pairable.astype(float), share


def _constant_raters(rows: np.ndarray) -> int:
    m = rows.sum(axis=1)
    m = m[m > 0]
    if m.size == 0:
        return 0
    if not np.all(m == m[0]):
        raise ValueError(
            f"Fleiss' kappa needs the same number of ratings on every unit; got {int(m.min())} to {int(m.max())} "
            "(use Ratings.complete(), Gwet's form for unequal numbers of ratings, "
            "reagree.stats.gwet.estimate(counts, 'fleiss'), or Krippendorff's alpha for missing cells)"
        )
    return int(m[0])


# --- percent agreement, Brennan-Prediger / PABAK, Gwet's AC1 ----------------------------


def percent_agreement_statistic(counts, weights=None) -> UnitStatistic:
    """``percent_agreement`` as sums over units: [pairable, share of agreeing pairs]."""
    rows, units, weights = _sample(counts, weights)
    pairable, share = _pairable_agreement(rows)

    def why(totals: np.ndarray) -> str:
        return NO_PAIRABLE_UNIT

    return _statistic(
        "percent_agreement",
        np.column_stack([pairable, share]),
        lambda totals: totals[:, 1] / totals[:, 0],
        why,
        units,
        weights,
    )


def percent_agreement(counts, weights=None) -> float:
    """Observed agreement P_o: the mean, over pairable units, of the share of agreeing
    rater pairs, sum_k c_ik (c_ik - 1) / (m_i (m_i - 1)).

    For two raters this is the proportion of units both labelled alike. Units rated by
    fewer than two raters are skipped; with none left the value is ``Undefined``.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (a contingency table as pseudo-units; module docstring).

    Returns
    -------
    float or Undefined

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382 (P_i and P_bar).

    Examples
    --------
    Randolph's online calculator, for two units rated by eight raters as (7, 1) and (3, 5)
    on two categories, prints overall agreement 0.607143 (by hand: unit 1 has
    7 * 6 / (8 * 7) = 0.75 agreeing pairs, unit 2 (3 * 2 + 5 * 4) / 56 = 0.464286):

    >>> round(percent_agreement([[7, 1], [3, 5]]), 6)
    0.607143
    """
    return percent_agreement_statistic(counts, weights).value()


def brennan_prediger_statistic(counts, weights=None) -> UnitStatistic:
    """``brennan_prediger`` as sums over units: [pairable, share of agreeing pairs]."""
    rows, units, weights = _sample(counts, weights)
    k = rows.shape[1]
    pairable, share = _pairable_agreement(rows)

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, 1] / totals[:, 0]
        return (observed - 1.0 / k) / (1.0 - 1.0 / k)

    def why(totals: np.ndarray) -> str:
        return "fewer than two categories declared" if k < 2 else NO_PAIRABLE_UNIT

    return _statistic("brennan_prediger", np.column_stack([pairable, share]), finish, why, units, weights)


def brennan_prediger(counts, weights=None) -> float:
    """Brennan-Prediger kappa (free-marginal kappa; PABAK for two categories).

    kappa_BP = (P_o - 1/K) / (1 - 1/K): chance agreement taken as uniform over the K
    declared categories, P_o as in ``percent_agreement``. With K = 2 it is
    PABAK = 2 P_o - 1 (Byrt, Bishop & Carlin 1993). Equals statsmodels'
    ``fleiss_kappa(method="randolph")`` on complete data and irrCAC's ``CAC.bp()``.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (a contingency table as pseudo-units; module docstring).

    Returns
    -------
    float or Undefined

    References
    ----------
    Brennan, R. L., Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. Educational and Psychological Measurement 41, 687-699; Byrt, T.,
    Bishop, J., Carlin, J. B. (1993). Bias, prevalence and kappa. Journal of Clinical
    Epidemiology 46(5), 423-429.

    Examples
    --------
    Randolph's online calculator, for two units rated by eight raters as (7, 1) and (3, 5)
    on two categories, prints free-marginal kappa 0.214286; with two categories
    it is PABAK, 2 * 0.607143 - 1:

    >>> round(brennan_prediger([[7, 1], [3, 5]]), 6)
    0.214286
    """
    return brennan_prediger_statistic(counts, weights).value()


pabak = brennan_prediger


def gwet_ac1_statistic(counts, weights=None) -> UnitStatistic:
    """``gwet_ac1`` as sums over units: [pairable, share, rated, c_i1/m_i .. c_iK/m_i]."""
    rows, units, weights = _sample(counts, weights)
    k = rows.shape[1]
    m = rows.sum(axis=1)
    pairable, share = _pairable_agreement(rows)
    rated = (m >= 1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        classification = np.where(m[:, None] >= 1, rows / m[:, None], 0.0)

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, 1] / totals[:, 0]
        prevalence = totals[:, 3:] / totals[:, 2][:, None]
        chance = (prevalence * (1 - prevalence)).sum(axis=1) / (k - 1)
        return (observed - chance) / (1 - chance)

    def why(totals: np.ndarray) -> str:
        return "fewer than two categories declared" if k < 2 else NO_PAIRABLE_UNIT

    per_unit = np.column_stack([pairable, share, rated, classification])
    return _statistic("gwet_ac1", per_unit, finish, why, units, weights)


def gwet_ac1(counts, weights=None) -> float:
    """Gwet's first-order agreement coefficient AC1.

    AC1 = (P_o - P_e) / (1 - P_e), P_e = 1/(K-1) sum_k pi_k (1 - pi_k), where pi_k is the
    mean over rated units of the share c_ik / m_i of ratings in category k; P_o as in
    ``percent_agreement``. For two raters pi_k is the mean of their two marginals, and with
    two categories P_e = 2 pi (1 - pi), which never exceeds 0.5. Equals irrCAC's
    ``CAC.gwet()`` (raw ratings and contingency tables).

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (a contingency table as pseudo-units; module docstring).

    Returns
    -------
    float or Undefined

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence
    of high agreement. British Journal of Mathematical and Statistical Psychology 61, 29-48;
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., Advanced Analytics.

    Examples
    --------
    Gwet (2014): 4 raters, 12 subjects, values 1 to 5 with missing ratings (irrCAC's
    ``raw_4raters``; the reliability data of Krippendorff 2011). irrCAC's documentation
    prints AC1 = 0.77544 and percent agreement 0.81818:

    >>> import numpy as np, pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> nan = np.nan
    >>> raters_by_units = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...                    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...                    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...                    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> counts = Ratings.from_labels(pd.DataFrame(raters_by_units).T, categories=(1, 2, 3, 4, 5)).unit_counts()
    >>> round(gwet_ac1(counts), 5), round(percent_agreement(counts), 5)
    (0.77544, 0.81818)
    """
    return gwet_ac1_statistic(counts, weights).value()


# --- Fleiss ---------------------------------------------------------------------------


def _fleiss_why(m: int, what: str):
    def why(totals: np.ndarray) -> str:
        if totals[0] == 0:
            return "no unit has a rating"
        if m < 2:
            return "fewer than two ratings per unit"
        return what

    return why


def fleiss_statistic(counts, weights=None) -> UnitStatistic:
    """``fleiss_kappa`` as sums over units: [rated, sum_k c_ik^2, c_i1 .. c_iK]."""
    rows, units, weights = _sample(counts, weights)
    m = _constant_raters(rows)
    rated = (rows.sum(axis=1) > 0).astype(float)
    per_unit = np.column_stack([rated, (rows**2).sum(axis=1), rows])

    def finish(totals: np.ndarray) -> np.ndarray:
        n_units = totals[:, 0]
        observed = (totals[:, 1] - n_units * m) / (n_units * m * (m - 1))
        share = totals[:, 2:] / (n_units * m)[:, None]
        chance = (share**2).sum(axis=1)
        return (observed - chance) / (1 - chance)

    why = _fleiss_why(m, "only one category in use: chance agreement is 1")
    return _statistic("fleiss_kappa", per_unit, finish, why, units, weights)


def fleiss_kappa(counts, weights=None) -> float:
    """Fleiss' kappa for m raters per unit.

    kappa = (P_bar - P_e) / (1 - P_e), with P_i = (sum_k c_ik^2 - m) / (m (m - 1)),
    P_bar the mean of P_i over units, p_k = sum_i c_ik / (N m) and P_e = sum_k p_k^2.
    Units nobody rated are skipped; every other unit must carry the same number m of
    ratings (else ValueError). m < 2 or a single category in use gives ``Undefined``.
    Equals statsmodels' ``fleiss_kappa(method="fleiss")``; with two raters it is Scott's pi.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (a contingency table as pseudo-units; module docstring).

    Returns
    -------
    float or Undefined

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382, eqs. (2)-(6).

    Examples
    --------
    The worked example of Wikipedia's "Fleiss' kappa" article (10 subjects, 14 raters,
    5 categories; statsmodels' test suite holds the table) prints P_bar = 0.378 and
    kappa = 0.210:

    >>> table = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    ...          [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    >>> round(fleiss_kappa(table), 3), round(percent_agreement(table), 3)
    (0.21, 0.378)
    """
    return fleiss_statistic(counts, weights).value()


def fleiss_category_statistic(counts, category: int, weights=None) -> UnitStatistic:
    """``fleiss_category_kappa`` as sums over units: [rated, c_ij, c_ij (m - c_ij)]."""
    rows, units, weights = _sample(counts, weights)
    if not 0 <= category < rows.shape[1]:
        raise ValueError(f"category must lie in 0..{rows.shape[1] - 1}, got {category}")
    m = _constant_raters(rows)
    rated = (rows.sum(axis=1) > 0).astype(float)
    column = rows[:, category]
    per_unit = np.column_stack([rated, column, column * (m - column)])

    def finish(totals: np.ndarray) -> np.ndarray:
        n_units = totals[:, 0]
        share = totals[:, 1] / (n_units * m)
        return 1 - totals[:, 2] / (n_units * m * (m - 1) * share * (1 - share))

    why = _fleiss_why(m, f"category {category} is used by nobody or by everybody")
    return _statistic(f"fleiss_category_kappa[{category}]", per_unit, finish, why, units, weights)


def fleiss_category_kappa(counts, category: int, weights=None) -> float:
    """Fleiss' kappa of one category j against the rest (Fleiss 1971, eq. 9).

    kappa_j = 1 - sum_i c_ij (m - c_ij) / (N m (m - 1) p_j (1 - p_j)), p_j = sum_i c_ij / (N m).
    Collapsing the categories to "j vs the rest" gives exactly kappa_j, and the overall
    kappa is the mean of the kappa_j weighted by p_j (1 - p_j). A category nobody used,
    or everybody always used, is ``Undefined``. statsmodels has no per-category form.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    category : int
        The category's column in ``counts``.
    weights : array_like, shape (n_units,), optional
        One weight per unit (module docstring).

    Returns
    -------
    float or Undefined

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382.

    Examples
    --------
    With two categories "j vs the rest" is the table itself, so each category's kappa is
    the overall one: Randolph's online calculator prints fixed-marginal (Fleiss) kappa
    0.161905 for two units rated by eight raters as (7, 1) and (3, 5):

    >>> round(fleiss_category_kappa([[7, 1], [3, 5]], 0), 6), round(fleiss_category_kappa([[7, 1], [3, 5]], 1), 6)
    (0.161905, 0.161905)
    """
    return fleiss_category_statistic(counts, category, weights).value()


def fleiss_category_kappas(counts, weights=None) -> np.ndarray:
    """``fleiss_category_kappa`` of every category, as an object array (so that each
    entry can be ``Undefined`` with its own reason).

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (a contingency table as pseudo-units; module docstring).

    Returns
    -------
    numpy.ndarray of object, shape (K,)

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382, eq. 9.

    Examples
    --------
    By hand: 4 units, 2 raters each, counts (2, 0, 0), (1, 1, 0), (0, 2, 0), (0, 0, 2): N m = 8,
    p = (3/8, 3/8, 2/8) and sum_i c_ij (m - c_ij) = 1, 1, 0, so kappa_j = 1 - 1 / (8 * 15/64) = 7/15
    for the first two categories and 1 for the third:

    >>> [round(k, 6) for k in fleiss_category_kappas([[2, 0, 0], [1, 1, 0], [0, 2, 0], [0, 0, 2]])]
    [0.466667, 0.466667, 1.0]
    """
    counts = check_unit_counts(counts)
    return np.array([fleiss_category_kappa(counts, j, weights) for j in range(counts.shape[1])], dtype=object)


def fleiss_category_weighted_mean(counts) -> float:
    """The mean of the category kappas weighted by p_j (1 - p_j) (Fleiss 1971, eq. 10):

    kappa = sum_j p_j (1 - p_j) kappa_j / sum_j p_j (1 - p_j), p_j = sum_i c_ij / (N m).

    Equal to Fleiss' overall kappa for a constant number of raters per unit; computed here
    from the per-category kappas, as a write-up states it ("the weighted mean is 0.385"),
    so the identity itself is checked. Undefined when a used category's kappa is, or no
    category varies."""
    counts = check_unit_counts(counts)
    shares = counts.sum(axis=0) / counts.sum()
    weights = shares * (1 - shares)
    kappas = fleiss_category_kappas(counts)
    used = weights > 0
    undefined = [reason_of(k) for k, u in zip(kappas, used) if u and reason_of(k)]
    if undefined:
        return Undefined("; ".join(undefined))
    if not used.any():
        return Undefined("no category varies: every weight p_j (1 - p_j) is 0")
    return float(np.sum(weights[used] * kappas[used].astype(float)) / weights[used].sum())


# --- specific agreement -----------------------------------------------------------------


def specific_agreement_statistic(counts, category: int, weights=None) -> UnitStatistic:
    """``specific_agreement`` of one category as sums over pairable units:
    [c_ik (c_ik - 1), c_ik (m_i - 1)]."""
    rows, units, weights = _sample(counts, weights)
    if not 0 <= category < rows.shape[1]:
        raise ValueError(f"category must lie in 0..{rows.shape[1] - 1}, got {category}")
    m = rows.sum(axis=1)
    column = rows[:, category]
    pairable = m >= 2
    per_unit = np.column_stack(
        [np.where(pairable, column * (column - 1), 0.0), np.where(pairable, column * (m - 1), 0.0)]
    )

    def why(totals: np.ndarray) -> str:
        return f"category {category} is never used on a pairable unit"

    return _statistic(
        f"specific_agreement[{category}]", per_unit, lambda totals: totals[:, 0] / totals[:, 1], why, units, weights
    )


def specific_agreement(counts, weights=None, category: int | None = None):
    """Specific (positive/negative) agreement of a category.

    p_s(k) = sum_i c_ik (c_ik - 1) / sum_i c_ik (m_i - 1) over pairable units: of all the
    rater pairs in which one rater said k, the share in which the other said k too. For
    two raters and a 2x2 table this is 2a / (2a + b + c) (and 2d / (2d + b + c) for the
    other category). With ``category`` given, that category's value (float or
    ``Undefined``); without, an object array with one entry per category. A category
    never used on a pairable unit is ``Undefined``.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (module docstring).
    category : int, optional
        The category's column; None gives every category.

    Returns
    -------
    float or Undefined, or numpy.ndarray of object, shape (K,)

    References
    ----------
    Uebersax, J. S. (1982). A design-independent method for measuring the reliability of
    psychiatric diagnosis. Journal of Psychiatric Research 17(4), 335-342; Fleiss, J. L.
    (1975). Measuring agreement between two judges on the presence or absence of a trait.
    Biometrics 31, 651-659.

    Examples
    --------
    By hand (Fleiss 1975's 2a / (2a + b + c) and 2d / (2d + b + c)): two raters agree on
    a = 20 units in the first category and d = 15 in the second and split on b + c = 15,
    so positive agreement is 40 / 55 = 0.727273 and negative 30 / 45 = 0.666667:

    >>> import numpy as np
    >>> counts = np.array([[2, 0]] * 20 + [[0, 2]] * 15 + [[1, 1]] * 15)
    >>> [round(value, 6) for value in specific_agreement(counts)]
    [0.727273, 0.666667]
    """
    if category is not None:
        return specific_agreement_statistic(counts, category, weights).value()
    counts = check_unit_counts(counts)
    return np.array(
        [specific_agreement_statistic(counts, k, weights).value() for k in range(counts.shape[1])], dtype=object
    )


# --- Randolph's free-marginal kappa and Conger's kappa ------------------------------------


def randolph_kappa(counts, weights=None) -> float:
    """Randolph's free-marginal multirater kappa.

    kappa_free = (P_o - 1/K) / (1 - 1/K), P_o as in ``percent_agreement`` and K the number
    of *declared* categories: raters are assumed free to put any share of units in any
    category, so chance agreement is uniform. Randolph proposed it as the multirater
    counterpart of Brennan and Prediger's coefficient, and the number is the same as
    ``brennan_prediger`` (one definition: this function calls it). Randolph's online
    calculator prints, for two units rated by eight raters as (7, 1) and (3, 5) on two
    categories, overall agreement 0.607143, fixed-marginal (Fleiss) kappa 0.161905 and
    free-marginal kappa 0.214286. Equals statsmodels' ``fleiss_kappa(method="randolph")``.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    weights : array_like, shape (n_units,), optional
        One weight per unit (a contingency table as pseudo-units; module docstring).

    Returns
    -------
    float or Undefined

    References
    ----------
    Randolph, J. J. (2005). Free-marginal multirater kappa (multirater kappa_free): an
    alternative to Fleiss' fixed-marginal multirater kappa. Joensuu Learning and
    Instruction Symposium 2005 (ERIC ED490661).

    Examples
    --------
    Randolph's calculator's numbers above:

    >>> counts = [[7, 1], [3, 5]]
    >>> round(percent_agreement(counts), 6), round(fleiss_kappa(counts), 6), round(randolph_kappa(counts), 6)
    (0.607143, 0.161905, 0.214286)
    """
    return brennan_prediger(counts, weights)


def conger_statistic(ratings) -> UnitStatistic:
    """``conger_kappa`` as sums over units: [pairable, share of agreeing pairs, then per
    rater r and category k whether r put the unit in k (R x K), then whether r rated it (R)]."""
    codes = np.asarray(ratings.codes)
    n_raters, k = codes.shape[1], len(ratings.categories)
    counts = ratings.unit_counts()
    pairable, share = _pairable_agreement(counts)
    rated = codes >= 0
    in_category = (codes[:, :, None] == np.arange(k)[None, None, :]) & rated[:, :, None]
    per_unit = np.column_stack([pairable, share, in_category.reshape(codes.shape[0], n_raters * k), rated]).astype(
        float
    )

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, 1] / totals[:, 0]
        given = totals[:, 2 + n_raters * k :]
        with np.errstate(divide="ignore", invalid="ignore"):
            shares = totals[:, 2 : 2 + n_raters * k].reshape(-1, n_raters, k) / given[:, :, None]
            # mean over ordered pairs of distinct raters of sum_k p_ak p_bk
            chance = (shares.sum(axis=1) ** 2 - (shares**2).sum(axis=1)).sum(axis=1) / (n_raters * (n_raters - 1))
            return (observed - chance) / (1 - chance)

    def why(totals: np.ndarray) -> str:
        if n_raters < 2:
            return "fewer than two raters"
        if totals[0] == 0:
            return NO_PAIRABLE_UNIT
        silent = [str(r) for r, n in zip(ratings.raters, totals[2 + n_raters * k :]) if n == 0]
        if silent:
            return f"rater(s) {', '.join(silent)} rated no unit: no marginal to take chance from"
        return "every rater put every unit in one and the same category: chance agreement is 1"

    return UnitStatistic("conger_kappa", per_unit, finish, why)


def conger_kappa(ratings) -> float:
    """Conger's kappa: Fleiss' observed agreement with chance taken from each rater's own
    marginals, averaged over pairs of raters.

    kappa_C = (P_o - P_e) / (1 - P_e), P_o as in ``percent_agreement`` (the mean share of
    agreeing rater pairs over units with two or more ratings), p_rk the share of rater r's
    ratings in category k, and P_e = sum_k [(sum_r p_rk)^2 - sum_r p_rk^2] / (R (R - 1)),
    the mean over ordered pairs of distinct raters (a, b) of Cohen's chance agreement
    sum_k p_ak p_bk. With two raters and no missing rating it is Cohen's kappa (Conger's
    point: Fleiss' kappa is then Scott's pi instead); with missing ratings each rater's
    marginals are over the units it rated (Gwet 2014, ch. 5), which is what irrCAC's
    ``CAC.conger()`` computes. Unlike the count-based coefficients of this module it needs
    to know which rater gave which rating, so it takes a ``Ratings`` (units x raters).
    Undefined with no pairable unit, fewer than two raters, a rater who rated nothing, or
    chance agreement 1.

    Parameters
    ----------
    ratings : Ratings
        Units x raters: which rater gave which rating.

    Returns
    -------
    float or Undefined

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    Psychological Bulletin 88(2), 322-328; Gwet, K. L. (2014). Handbook of Inter-Rater
    Reliability, 4th ed., Advanced Analytics.

    Examples
    --------
    By hand: with two raters and no missing rating Conger's kappa is Cohen's. Rater a
    says x on 25 units and b on 30 of the 50; they agree on 20 x and 15 y, so p_o = 0.7,
    p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5 and kappa = 0.4 (irrCAC's ``CAC.conger()`` gives 0.4):

    >>> import pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> pairs = pd.DataFrame({"a": list("x" * 25 + "y" * 25), "b": list("x" * 20 + "y" * 5 + "x" * 10 + "y" * 15)})
    >>> round(conger_kappa(Ratings.from_labels(pairs)), 6)
    0.4
    """
    return conger_statistic(ratings).value()
