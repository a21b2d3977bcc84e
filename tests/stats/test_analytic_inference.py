"""Analytic standard errors, z and p (``reagree.stats.asymptotic``, ``reagree.stats.inference``)
and the ICC (``reagree.stats.icc``) against the values the peers' test suites hold.

Cited cases:
- statsmodels 0.15, ``statsmodels/stats/tests/test_inter_rater.py``:
  ``test_fleiss_kappa_irr``: R irr ``kappam.fleiss(diagnoses)`` (Fleiss 1971, 30 patients x
  6 psychiatrists) kappa 0.4302445, z 17.65183;
  ``TestUnweightedCohens`` (a SAS printout, ``table10``): kappa 0.4842, ASE 0.1380, 95%
  limits 0.2137 and 0.7547, ASE under H0 0.1484, Z 3.2626, two-sided p 0.0011;
  ``TestWeightedCohens`` (weights |i - j|, SAS): 0.4701, ASE 0.1457, limits 0.1845 and
  0.7558, ASE under H0 0.1426, Z 3.2971, p 0.0010;
  ``test_cohens_kappa_irr``: R irr ``kappa2(anxiety[, 2:3])`` unweighted z -0.0604067
  (p 0.9518317), "equal" (linear) z 1.282472, "squared" z 1.437451.
  Convention: R irr drops the unused category 4 of ``anxiety``; the table here is built
  the way that test builds it (``np.histogramdd`` over the used values).
- Shrout, P. E., Fleiss, J. L. (1979), Psychological Bulletin 86, 420-428, Table 2 (6
  targets x 4 judges) and Table 4: ICC(2,1) = .29, ICC(3,1) = .71. R psych's ``ICC`` on
  those data (its documentation's example) prints ICC2 0.29, F 11.0 on 5 and 15 degrees
  of freedom, p 0.00013, interval 0.019 to 0.76; ICC3 0.71, interval 0.342 to 0.95;
  DescTools' ``ICC`` prints F 11.03 and p 0.000135 for both.
"""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.tests.test_inter_rater import anxiety, diagnoses, table10

from reagree.stats import asymptotic
from reagree.stats.icc import icc


def test_fleiss_z_under_the_null_is_r_irr():
    counts, _ = aggregate_raters(diagnoses)
    found = asymptotic.fleiss_null(counts)
    assert round(found.value, 7) == 0.4302445
    assert round(found.z, 5) == 17.65183
    assert found.distribution == "normal" and found.p_value < 1e-60
    assert np.isnan(found.interval()[0])  # a variance under kappa = 0 gives no interval


def test_fleiss_category_kappas_and_their_null_se_on_fleiss_1971():
    """Fleiss (1971), Table 2: kappa_j .245, .245, .520, .471, .566 for depression,
    personality disorder, schizophrenia, neurosis, other. Under kappa_j = 0 each has the
    standard error sqrt(2 / (N m (m - 1))) = sqrt(2 / (30 * 6 * 5)) = sqrt(1 / 450), by hand
    (the formula R irr's ``kappam.fleiss(detail = TRUE)`` uses); z = kappa_j / se_0."""
    counts, _ = aggregate_raters(diagnoses)
    found = [asymptotic.fleiss_category_null(counts, j) for j in range(5)]
    assert [round(f.value, 3) for f in found] == [0.245, 0.245, 0.520, 0.471, 0.566]
    for f in found:
        assert f.se_null == pytest.approx((1 / 450) ** 0.5, abs=1e-15)
        assert f.z == pytest.approx(f.value * 450**0.5)
        assert f.distribution == "normal" and np.isnan(f.interval()[0])
        assert (f.observed - f.chance) / (1 - f.chance) == pytest.approx(f.value)  # kappa_j = (P_j - p_j) / (1 - p_j)


def test_fleiss_null_needs_equal_numbers_of_ratings():
    with pytest.raises(ValueError, match="same number of ratings"):
        asymptotic.fleiss_null(np.array([[2, 1], [1, 1]]))


@pytest.mark.parametrize(
    "weights, expected",
    [
        (None, (0.4842, 0.1380, 0.2137, 0.7547, 0.1484, 3.2626, 0.0011)),
        ("linear", (0.4701, 0.1457, 0.1845, 0.7558, 0.1426, 3.2971, 0.0010)),
    ],
)
def test_cohen_standard_errors_are_the_sas_printout(weights, expected):
    found = asymptotic.cohen(table10, weights)
    low, high = found.interval(0.95)
    assert np.round([found.value, found.se, low, high, found.se_null, found.z, found.p_value], 4).tolist() == list(
        expected
    )


@pytest.mark.parametrize(
    "weights, z, p",
    [(None, -0.0604067, 0.9518317), ("linear", 1.282472, 0.1996772), ("quadratic", 1.437451, 0.1505898)],
)
def test_cohen_z_is_r_irr_kappa2(weights, z, p):
    table = np.histogramdd(anxiety[:, 1:], ([1, 2, 3, 4, 6, 7], [1, 2, 3, 4, 6, 7]))[0]
    found = asymptotic.cohen(table, weights)
    assert round(found.z, 5) == round(z, 5)
    assert round(found.p_value, 6) == round(p, 6)


def test_cohen_chance_term_by_hand():
    """A 2 x 2 table [[20, 5], [10, 15]]: P_o = 35/50, P_e = (25*30 + 25*20)/50^2 = 0.5."""
    found = asymptotic.cohen([[20, 5], [10, 15]])
    assert (found.observed, found.chance) == (0.7, 0.5)
    assert found.value == pytest.approx(0.4)


SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]


def test_icc_is_shrout_and_fleiss_table_4_as_r_psych_prints_it():
    two, three = icc(SHROUT_FLEISS, "ICC(2,1)"), icc(SHROUT_FLEISS, "ICC(3,1)")
    assert round(two["value"], 2) == 0.29 and round(three["value"], 2) == 0.71
    for found in (two, three):
        assert round(found["F"], 2) == 11.03 and (found["df1"], found["df2"]) == (5, 15)
        assert round(found["p"], 6) == 0.000135
    assert (round(two["ci"][0], 3), round(two["ci"][1], 2)) == (0.019, 0.76)
    assert (round(three["ci"][0], 3), round(three["ci"][1], 2)) == (0.342, 0.95)


def test_icc_of_constant_ratings_is_undefined():
    found = icc(np.ones((4, 3)))
    assert np.isnan(found["value"]) and "no variance" in found["value"].reason
