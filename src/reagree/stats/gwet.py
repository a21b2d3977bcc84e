"""Gwet's family of chance-corrected agreement coefficients, weighted or not, for any
number of raters with missing ratings, each with its chance-agreement term and Gwet's
linearised variance.

What this module decides:

- **Input.** Per-unit category counts (n_units x q, as ``reagree.stats.multirater``) and
  a q x q matrix of agreement weights (``reagree.stats.weights``; identity when none).
  Units nobody rated take no part (n counts the rated units, as irrCAC drops them).
  Conger's kappa also needs which rater gave which rating: a ``Ratings`` or an
  ``AnnotationView`` (``conger``).
- **Observed agreement** (every coefficient here): r_i ratings on unit i, c*_ik =
  sum_l w_kl c_il, p_a|i = sum_k c_ik (c*_ik - 1) / (r_i (r_i - 1)) over units with r_i >= 2,
  P_o their mean (n2 such units).
- **Chance agreement**, pi_k = (1/n) sum_i c_ik / r_i over rated units, T_w = sum_kl w_kl:

  - percent agreement: P_e = 0 (no chance correction);
  - Brennan-Prediger: P_e = T_w / q^2;
  - Gwet's AC1 (identity weights) / AC2: P_e = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k);
  - Fleiss' kappa, Gwet's form: P_e = sum_kl w_kl pi_k pi_l. With every unit rated by the
    same m raters it is Fleiss' (1971) kappa; with unequal numbers of ratings it is the
    generalisation Gwet (2014, ch. 5) gives and irrCAC computes; with two raters on every
    unit, Scott's pi;
  - Conger's kappa: P_e = sum_kl w_kl (pbar_k pbar_l - s_kl / r), from each rater's own
    classification shares p_gk (over the units rater g rated), pbar their mean over the r
    raters and s_kl their covariance; with two raters, Cohen's kappa.

- **Variance** (Gwet 2008; 2014, ch. 5): kappa_i = (n / n2) (p_a|i - P_e [r_i >= 2]) / (1 - P_e),
  kappa*_i = kappa_i - 2 (1 - kappa) (p_e|i - P_e) / (1 - P_e) with each coefficient's
  unit-level chance term p_e|i (none for percent agreement and Brennan-Prediger), and
  v = (1 - f) / (n (n - 1)) sum_i (kappa*_i - kappa)^2, f = n / N the sampling fraction
  (0: an infinite population, irrCAC's default). Inference is on Student's t with n - 1
  degrees of freedom (``reagree.stats.inference``).
- **Undefined** (``Undefined`` with a reason, never an exception): no unit with two
  ratings, fewer than two categories, chance agreement 1.
- **Bootstrap.** ``weighted_statistic`` gives each count-based coefficient as a
  ``UnitStatistic`` (sums over units), so its value and its bootstrap interval come from
  one definition; ``estimate`` gives the same value with its analytic standard error.

Every value and standard error here equals irrCAC's ``CAC`` for raw ratings (the tests hold
them on the handbook's data sets that irrCAC ships and on generated tables).

Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of
high agreement. British Journal of Mathematical and Statistical Psychology 61, 29-48;
Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., Advanced Analytics,
chs. 2-5; Conger, A. J. (1980). Integration and generalization of kappas for multiple
raters. Psychological Bulletin 88(2), 322-328.
"""

from __future__ import annotations

import numpy as np

from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.inference import Estimate
from reagree.stats.ratings import MISSING, Ratings, check_unit_counts
from reagree.stats.rows import unique_rows
from reagree.stats.undefined import Undefined

__all__ = ["COEFFICIENTS", "NAMES", "NO_PAIRABLE_UNIT", "conger", "conger_statistic", "estimate", "weighted_statistic"]

COEFFICIENTS = ("percent_agreement", "brennan_prediger", "gwet_ac", "fleiss", "conger")
NAMES = {
    "percent_agreement": "percent agreement",
    "brennan_prediger": "Brennan-Prediger",
    "gwet_ac": "Gwet's AC",
    "fleiss": "Fleiss' kappa (Gwet's form)",
    "conger": "Conger's kappa",
}
NO_PAIRABLE_UNIT = "no unit has two or more ratings"


def _weights(q: int, weights) -> np.ndarray:
    if weights is None:
        return np.eye(q)
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (q, q) or not np.isfinite(weights).all():
        raise ValueError(f"agreement weights must be a finite {q} x {q} matrix, got shape {weights.shape}")
    return weights


def _check(coefficient: str) -> None:
    if coefficient not in COEFFICIENTS:
        raise ValueError(f"coefficient must be one of {COEFFICIENTS}, got {coefficient!r}")


def _chance_from_totals(coefficient: str, weights: np.ndarray, prevalence: np.ndarray) -> np.ndarray:
    """P_e for each row of prevalences pi (shape (b, q)), for the count-based coefficients."""
    q = weights.shape[0]
    total = weights.sum()
    if coefficient == "percent_agreement":
        return np.zeros(prevalence.shape[0])
    if coefficient == "brennan_prediger":
        return np.full(prevalence.shape[0], total / q**2)
    if coefficient == "gwet_ac":
        with np.errstate(divide="ignore", invalid="ignore"):
            return total / (q * (q - 1)) * (prevalence * (1 - prevalence)).sum(axis=1)
    return np.einsum("kl,bk,bl->b", weights, prevalence, prevalence)


def _why(q: int):
    def why(totals: np.ndarray) -> str:
        if q < 2:
            return "fewer than two categories declared"
        if totals[0] == 0:
            return NO_PAIRABLE_UNIT
        return "chance agreement is 1 (every rating in one category)"

    return why


def _per_unit(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """[pairable, p_a|i (0 if not pairable), rated, c_i1 / r_i .. c_iq / r_i] per row."""
    r = rows.sum(axis=1)
    pairable = r >= 2
    weighted = rows @ weights.T  # c*_ik = sum_l w_kl c_il
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.where(pairable, (rows * (weighted - 1)).sum(axis=1) / (r * (r - 1)), 0.0)
        shares = np.where(r[:, None] >= 1, rows / r[:, None], 0.0)
    return np.column_stack([pairable, observed, r >= 1, shares]).astype(float)


def weighted_statistic(counts, coefficient: str, weights=None) -> UnitStatistic:
    """One of percent agreement, Brennan-Prediger, Gwet's AC1/AC2 or Fleiss' kappa (Gwet's
    form) as sums over units (module docstring), for the value and the bootstrap."""
    _check(coefficient)
    if coefficient == "conger":
        raise ValueError("Conger's kappa reads which rater gave which rating: use conger(ratings)")
    counts = check_unit_counts(counts)
    q = counts.shape[1]
    weights = _weights(q, weights)
    rows, _, inverse = unique_rows(counts)

    def finish(totals: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            observed = totals[:, 1] / totals[:, 0]
            chance = _chance_from_totals(coefficient, weights, totals[:, 3:] / totals[:, 2][:, None])
            value = (observed - chance) / (1 - chance)
        return np.where(np.isclose(chance, 1.0) | (q < 2), np.nan, value)

    return UnitStatistic(f"{coefficient}[weighted]", _per_unit(rows, weights), finish, _why(q), units=inverse)


def _linearised(
    name: str,
    value: float,
    observed: float,
    chance: float,
    per_unit: np.ndarray,
    chance_per_unit: np.ndarray | None,
    n_population: float,
    method: str,
    multiplicity: np.ndarray | None = None,
) -> Estimate:
    """Gwet's variance of a coefficient from its unit terms (module docstring). A row of
    ``per_unit`` stands for ``multiplicity`` units alike (default: one each)."""
    if multiplicity is None:
        multiplicity = np.ones(per_unit.shape[0])
    pairable, observed_i = per_unit[:, 0].astype(bool), per_unit[:, 1]
    n, n2 = int(multiplicity.sum()), int(multiplicity @ pairable)
    if np.isnan(value):
        return Estimate(name, value, observed, chance, value, n, method=method)
    kappa_i = (n / n2) * (observed_i - chance * pairable) / (1 - chance)
    if chance_per_unit is not None:
        kappa_i = kappa_i - 2 * (1 - value) * (chance_per_unit - chance) / (1 - chance)
    fraction = n / n_population
    se = (
        float(np.sqrt((1 - fraction) / (n * (n - 1)) * (multiplicity @ (kappa_i - value) ** 2)))
        if n >= 2
        else Undefined("fewer than two rated units")
    )
    return Estimate(name, value, observed, chance, se, n, method=method)


def _label(coefficient: str, weights: np.ndarray) -> str:
    weighted = not np.array_equal(weights, np.eye(weights.shape[0]))
    if coefficient == "gwet_ac":
        return "Gwet's AC2" if weighted else "Gwet's AC1"
    return NAMES[coefficient] + (" (weighted)" if weighted else "")


def estimate(counts, coefficient: str, weights=None, n_population: float = np.inf) -> Estimate:
    """The coefficient (percent agreement, Brennan-Prediger, Gwet's AC1/AC2, Fleiss' kappa in
    Gwet's form) with its observed and chance agreement and Gwet's standard error.

    kappa = (P_o - P_e) / (1 - P_e), P_o = mean over units with r_i >= 2 of
    sum_k c_ik (c*_ik - 1) / (r_i (r_i - 1)); P_e: 0, T_w / q^2, T_w / (q (q - 1))
    sum_k pi_k (1 - pi_k), or sum_kl w_kl pi_k pi_l (module docstring). Variance
    v = (1 - f) / (n (n - 1)) sum_i (kappa*_i - kappa)^2 on Student's t with n - 1 degrees of
    freedom. Equals irrCAC's ``CAC(ratings, weights).pa/bp/gwet/fleiss`` value and ``se``.

    Parameters
    ----------
    counts : array_like, shape (n_units, K)
        How many raters put each unit in each declared category.
    coefficient : {"percent_agreement", "brennan_prediger", "gwet_ac", "fleiss"}
        Which chance agreement P_e (``COEFFICIENTS``).
    weights : array_like, shape (K, K), optional
        Agreement weights (``reagree.stats.weights.agreement_weights``); None: identity,
        so ``gwet_ac`` is AC1, and weighted it is AC2.
    n_population : float
        The number of units in the population, for the finite population correction f.

    Returns
    -------
    Estimate
        ``value``, ``observed``, ``chance``, ``se``, ``n_units`` and the t distribution.

    References
    ----------
    Gwet (2008), eqs. for AC1 and its variance; Gwet (2014), Handbook, chs. 2-5.

    Examples
    --------
    Gwet (2014)'s 4 raters x 12 subjects (irrCAC's ``raw_4raters``): irrCAC's documentation
    prints AC1 = 0.77544; irrCAC 0.4.4's ``CAC(...).gwet()`` gives its standard error
    0.14295, and under quadratic weights AC2 = 0.91400 with standard error 0.10396:

    >>> import numpy as np, pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> nan = np.nan
    >>> raters_by_units = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...                    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...                    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...                    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> counts = Ratings.from_labels(pd.DataFrame(raters_by_units).T, categories=(1, 2, 3, 4, 5)).unit_counts()
    >>> ac1 = estimate(counts, "gwet_ac")
    >>> round(ac1.value, 5), round(ac1.se, 5)
    (0.77544, 0.14295)
    >>> from reagree.stats.weights import agreement_weights
    >>> ac2 = estimate(counts, "gwet_ac", agreement_weights("quadratic", [1, 2, 3, 4, 5]))
    >>> round(ac2.value, 5), round(ac2.se, 5)
    (0.914, 0.10396)
    """
    statistic = weighted_statistic(counts, coefficient, weights)
    q = statistic.per_unit.shape[1] - 3
    weights = _weights(q, weights)
    # the statistic's rows are the distinct count rows: each stands for its units (those rated)
    multiplicity = statistic.row_weights()
    keep = (multiplicity > 0) & (statistic.per_unit[:, 2] > 0)
    per_unit, multiplicity = statistic.per_unit[keep], multiplicity[keep]
    value = statistic.value()
    totals = multiplicity @ per_unit
    n_rated = int(multiplicity.sum())
    if totals[0] == 0 or q < 2:
        return Estimate(
            _label(coefficient, weights),
            value,
            Undefined(NO_PAIRABLE_UNIT),
            value,
            value,
            n_rated,
            method="Gwet (2008) linearised variance",
        )
    observed = float(totals[1] / totals[0])
    prevalence = totals[3:] / totals[2]
    chance = float(_chance_from_totals(coefficient, weights, prevalence[None])[0])
    shares = per_unit[:, 3:]
    if coefficient == "gwet_ac":
        chance_i = weights.sum() / (q * (q - 1)) * shares @ (1 - prevalence)
    elif coefficient == "fleiss":
        chance_i = shares @ ((weights @ prevalence + weights.T @ prevalence) / 2)
    else:
        chance_i = None
    return _linearised(
        _label(coefficient, weights),
        value,
        observed,
        chance,
        per_unit,
        chance_i,
        n_population,
        "Gwet (2008) linearised variance",
        multiplicity,
    )


# --- Conger --------------------------------------------------------------------------------


def _long(data) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
    """(unit, rater, code) of every rating, and n_units, n_raters, q, from a ``Ratings`` or an
    ``AnnotationView`` (its labels)."""
    if isinstance(data, Ratings):
        unit, rater = np.nonzero(data.codes != MISSING)
        return unit, rater, data.codes[unit, rater], data.n_units, data.n_raters, data.n_categories
    return (
        np.asarray(data.label_unit),
        np.asarray(data.label_column),
        np.asarray(data.label_code),
        data.n_units,
        len(data.columns),
        len(data.categories),
    )


def conger_statistic(ratings: Ratings, weights=None) -> UnitStatistic:
    """Conger's kappa (weighted or not) as sums over units, for the value and the bootstrap:
    [pairable, p_a|i, then per rater g and category k whether g put the unit in k (R x q),
    then whether g rated it (R)]. Needs a dense ``Ratings`` (few raters: the audit bootstraps
    it up to 20 raters). Units are pooled by their row of codes (a unit's sums depend on
    nothing else), so memory grows with the distinct rows, not with the units."""
    ids = ratings.rating_rows  # cached on the ratings: every statistic of them draws over these rows
    first = np.unique(ids, return_index=True)[1]  # rows are numbered in order of first appearance
    codes = np.asarray(ratings.codes)[first]
    n_rows, r = codes.shape
    q = len(ratings.categories)
    weights = _weights(q, weights)
    rated = codes >= 0
    counts = np.stack([(codes == k).sum(axis=1) for k in range(q)], axis=1).astype(float).reshape(n_rows, q)
    per_unit = _per_unit(counts, weights)
    in_category = (codes[:, :, None] == np.arange(q)[None, None, :]) & rated[:, :, None]
    columns = np.column_stack([per_unit[:, :2], in_category.reshape(n_rows, r * q), rated]).astype(float)

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, 1] / totals[:, 0]
        given = totals[:, 2 + r * q :]
        with np.errstate(divide="ignore", invalid="ignore"):
            shares = totals[:, 2 : 2 + r * q].reshape(-1, r, q) / given[:, :, None]
            summed = shares.sum(axis=1)
            # mean over ordered pairs of distinct raters (a, b) of sum_kl w_kl p_ak p_bl
            chance = (
                np.einsum("kl,bk,bl->b", weights, summed, summed) - np.einsum("kl,bgk,bgl->b", weights, shares, shares)
            ) / (r * (r - 1))
            value = (observed - chance) / (1 - chance)
        return np.where(np.isclose(chance, 1.0), np.nan, value)

    def why(totals: np.ndarray) -> str:
        if r < 2:
            return "fewer than two raters"
        if totals[0] == 0:
            return NO_PAIRABLE_UNIT
        if (totals[2 + r * q :] == 0).any():
            return "a rater rated no unit: no marginal to take chance from"
        return "chance agreement is 1 (every rating in one category)"

    return UnitStatistic("conger_kappa[weighted]", columns, finish, why, units=ids)


def conger(data, weights=None, n_population: float = np.inf) -> Estimate:
    """Conger's kappa (weighted or not) with Gwet's standard error.

    kappa = (P_o - P_e) / (1 - P_e), P_o as for Fleiss' kappa, P_e = sum_kl w_kl (pbar_k pbar_l
    - s_kl / r) with p_gk rater g's share of category k over the units g rated, pbar_k their
    mean over the r raters and s_kl their covariance (with two raters, Cohen's kappa).
    ``data`` is a ``Ratings`` or an ``AnnotationView``: one pass over the ratings, no units x
    raters matrix. Equals irrCAC's ``CAC(ratings, weights).conger()`` value and ``se``; with
    identity weights it is ``reagree.stats.multirater.conger_kappa``.

    Parameters
    ----------
    data : Ratings or AnnotationView
        Which rater gave which rating.
    weights : array_like, shape (K, K), optional
        Agreement weights; None: identity.
    n_population : float
        The number of units in the population, for the finite population correction.

    Returns
    -------
    Estimate

    References
    ----------
    Conger (1980), Psychological Bulletin 88(2), 322-328; Gwet (2014), ch. 5 (the variance).

    Examples
    --------
    By hand, two raters and 50 units (``multirater.conger_kappa``'s example): p_o = 0.7,
    p_e = 0.5, kappa = 0.4, Cohen's; irrCAC 0.4.4's ``CAC(...).conger()`` gives the same
    value with standard error 0.12829:

    >>> import pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> pairs = pd.DataFrame({"a": list("x" * 25 + "y" * 25), "b": list("x" * 20 + "y" * 5 + "x" * 10 + "y" * 15)})
    >>> found = conger(Ratings.from_labels(pairs))
    >>> round(found.value, 6), round(found.se, 5)
    (0.4, 0.12829)
    """
    unit, rater, code, n_units, r, q = _long(data)
    weights = _weights(q, weights)
    name = "Conger's kappa" + ("" if np.array_equal(weights, np.eye(q)) else " (weighted)")
    method = "Gwet (2014, ch. 5) linearised variance"
    counts = np.bincount(unit * q + code, minlength=n_units * q).reshape(n_units, q).astype(float)
    rated_units = counts.sum(axis=1) > 0
    renumber = np.cumsum(rated_units) - 1
    counts, unit = counts[rated_units], renumber[unit]
    n = counts.shape[0]
    per_unit = _per_unit(counts, weights)
    if r < 2 or q < 2 or per_unit[:, 0].sum() == 0:
        why = "fewer than two raters" if r < 2 else "fewer than two categories declared" if q < 2 else NO_PAIRABLE_UNIT
        return Estimate(name, Undefined(why), Undefined(why), Undefined(why), Undefined(why), n, method=method)
    classified = np.bincount(rater * q + code, minlength=r * q).reshape(r, q).astype(float)
    n_g = classified.sum(axis=1)
    if (n_g == 0).any():
        silent = int(np.flatnonzero(n_g == 0)[0])
        why = f"rater {silent} rated no unit: no marginal to take chance from"
        return Estimate(name, Undefined(why), Undefined(why), Undefined(why), Undefined(why), n, method=method)
    shares = classified / n_g[:, None]  # p_gk
    mean = shares.mean(axis=0)  # pbar_k
    covariance = (shares.T @ shares - r * np.outer(mean, mean)) / (r - 1)
    chance = float((weights * (np.outer(mean, mean) - covariance / r)).sum())
    observed = float(per_unit[:, 1].sum() / per_unit[:, 0].sum())
    if np.isclose(chance, 1.0):
        why = "chance agreement is 1 (every rating in one category)"
        return Estimate(name, Undefined(why), observed, chance, Undefined(why), n, method=method)
    value = (observed - chance) / (1 - chance)
    # p_e|i = sum_g lambda_ig / (r (r - 1)), lambda_ig linear in rater g's rating of unit i:
    # one pass over the ratings (module docstring; the algebra in Gwet 2014, ch. 5).
    b = (n / n_g)[:, None] * (r * mean[None, :] - shares)  # B_gk
    bw = b @ weights  # sum_k B_gk w_kl
    c = (b * (shares @ weights.T)).sum(axis=1)  # sum_k B_gk sum_l w_kl p_gl
    per_rating = bw[rater, code] - c[rater]
    chance_i = (np.bincount(unit, weights=per_rating, minlength=n) + (n_g / n * c).sum()) / (r * (r - 1))
    return _linearised(name, value, observed, chance, per_unit, chance_i, n_population, method)
