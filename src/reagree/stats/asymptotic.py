"""Large-sample standard errors of Fleiss' and Cohen's kappa, the ones R irr, SAS and
statsmodels print: what a reader of those tools expects beside the value.

What this module decides:

- **Fleiss' kappa under the null** (Fleiss, Nee & Landis 1979; R irr's ``kappam.fleiss``),
  on N units each rated by m raters, with p_j the category shares and q_j = 1 - p_j,
  se_0 = sqrt(2) / (sum_j p_j q_j sqrt(N m (m - 1))) * sqrt((sum_j p_j q_j)^2 - sum_j p_j q_j (q_j - p_j))
  (Fleiss, Levin & Paik 2003, eq. 18.11; R irr prints z = 17.65183 on Fleiss' 1971 table,
  statsmodels' test suite records it). It is the variance when kappa is 0, so it tests
  kappa = 0 (z = kappa / se_0, normal) and gives no interval; Gwet's general variance
  (``reagree.stats.gwet``, form "fleiss") gives the interval. Every unit must have the
  same m ratings (the complete units), as for ``reagree.stats.multirater.fleiss_kappa``.
- **Fleiss' kappa of one category** (kappa_j, ``reagree.stats.multirater.fleiss_category_kappa``)
  under the null: se_0 = sqrt(2 / (N m (m - 1))), the same for every category (Fleiss, Nee &
  Landis 1979; R irr's ``kappam.fleiss(detail = TRUE)``), z = kappa_j / se_0, normal; no
  interval, as for the overall kappa.
- **Cohen's kappa** (Fleiss, Cohen & Everitt 1969), unweighted or with linear or quadratic
  weights, on a K x K table: the asymptotic standard error and the one under the null,
  computed by statsmodels' ``cohens_kappa`` (the field's library; it reproduces SAS's
  printout), z = kappa / se_0 and the normal distribution, as R irr's ``kappa2``.
"""

from __future__ import annotations

import numpy as np

from reagree.stats.inference import NORMAL, Estimate
from reagree.stats.multirater import _constant_raters, fleiss_category_kappa, fleiss_kappa, percent_agreement
from reagree.stats.pairwise import _disagreement_weights
from reagree.stats.ratings import check_unit_counts
from reagree.stats.undefined import Undefined, reason_of

__all__ = ["cohen", "fleiss_category_null", "fleiss_null"]


def fleiss_null(counts) -> Estimate:
    """Fleiss' kappa with its standard error under kappa = 0:
    se_0 = sqrt(2) / (sum_j p_j q_j sqrt(N m (m - 1))) sqrt((sum_j p_j q_j)^2 - sum_j p_j q_j (q_j - p_j)),
    z = kappa / se_0 on the normal (Fleiss, Nee & Landis 1979; Fleiss, Levin & Paik 2003,
    eq. 18.11; R irr's ``kappam.fleiss``). Every unit must have the same m ratings."""
    counts = check_unit_counts(counts)
    rated = counts[counts.sum(axis=1) > 0]
    value = fleiss_kappa(rated)
    method = "Fleiss, Nee & Landis (1979) variance under kappa = 0"
    if reason_of(value):
        return Estimate("Fleiss' kappa", value, value, value, value, len(rated), NORMAL, se_null=value, method=method)
    m = _constant_raters(rated)
    n = rated.shape[0]
    shares = rated.sum(axis=0) / (n * m)
    spread = shares * (1 - shares)
    inside = spread.sum() ** 2 - (spread * (1 - 2 * shares)).sum()
    se_null = (
        float(np.sqrt(2 * inside) / (spread.sum() * np.sqrt(n * m * (m - 1))))
        if inside > 0
        else Undefined("the variance under the null is not positive")
    )
    return Estimate(
        "Fleiss' kappa",
        value,
        percent_agreement(rated),
        float((shares**2).sum()),
        Undefined("Fleiss' null variance gives no interval: see Gwet's form"),
        n,
        NORMAL,
        se_null=se_null,
        method=method,
    )


def fleiss_category_null(counts, category: int) -> Estimate:
    """Fleiss' kappa of category ``category`` against the rest (Fleiss 1971, eq. 9) with its
    standard error under kappa_j = 0, sqrt(2 / (N m (m - 1))) (Fleiss, Nee & Landis 1979;
    module docstring). Every unit must have the same m ratings."""
    counts = check_unit_counts(counts)
    rated = counts[counts.sum(axis=1) > 0]
    value = fleiss_category_kappa(rated, category)
    method = "Fleiss, Nee & Landis (1979) variance under kappa_j = 0"
    no_interval = Undefined("the variance under kappa_j = 0 gives no interval")
    if reason_of(value):
        return Estimate(
            f"Fleiss' kappa_{category}",
            value,
            value,
            value,
            no_interval,
            len(rated),
            NORMAL,
            se_null=value,
            method=method,
        )
    m, n = _constant_raters(rated), rated.shape[0]
    column = rated[:, category].astype(float)
    share = column.sum() / (n * m)
    # kappa_j = (P_j - p_j) / (1 - p_j): P_j the share of agreeing pairs among the pairs a rating j starts
    observed = float((column * (column - 1)).sum() / (n * m * (m - 1) * share))
    return Estimate(
        f"Fleiss' kappa_{category}",
        value,
        observed,
        float(share),
        no_interval,
        n,
        NORMAL,
        se_null=float(np.sqrt(2 / (n * m * (m - 1)))),
        method=method,
    )


def cohen(table, weights: str | None = None) -> Estimate:
    """Cohen's kappa of a K x K table, (P_o - P_e) / (1 - P_e) with agreement weights
    1 - d_ij / max d (P_o = sum_ij w_ij p_ij, P_e = sum_ij w_ij p_i. p_.j), with its large-sample
    standard errors, general and under kappa = 0 (Fleiss, Cohen & Everitt 1969; Cohen 1968
    for the weighted form), computed by statsmodels' ``cohens_kappa``; z = kappa / se_0,
    normal, as R irr's ``kappa2``. ``weights``: None, "linear" or "quadratic"
    (disagreement |i - j| or (i - j)^2 over the declared order)."""
    from statsmodels.stats.inter_rater import cohens_kappa

    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    table = np.asarray(table, dtype=float)
    n = int(round(table.sum()))
    name = "Cohen's kappa" + (f" ({weights} weights)" if weights else "")
    method = "Fleiss, Cohen & Everitt (1969), statsmodels cohens_kappa"
    marginal_a, marginal_b = table.sum(axis=1), table.sum(axis=0)
    if n == 0 or np.count_nonzero(marginal_a) < 2 and np.count_nonzero(marginal_b) < 2:
        why = "no unit was labelled by both raters" if n == 0 else "both raters used one and the same category"
        return Estimate(
            name,
            Undefined(why),
            Undefined(why),
            Undefined(why),
            Undefined(why),
            n,
            NORMAL,
            se_null=Undefined(why),
            method=method,
        )
    # agreement weights 1 - d / max d, so that kappa = (P_o - P_e) / (1 - P_e) in every form
    disagreement = _disagreement_weights(table.shape[0], weights)
    agreement = 1 - disagreement / disagreement.max()
    observed = float((agreement * table).sum() / n)
    chance = float(np.einsum("i,j,ij->", marginal_a, marginal_b, agreement) / n**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        found = cohens_kappa(table, wt=weights)
    return Estimate(
        name,
        float(found.kappa),
        observed,
        chance,
        float(found.std_kappa),
        n,
        NORMAL,
        se_null=float(found.std_kappa0),
        method=method,
    )
