"""Gwet's family (``reagree.stats.gwet``) against irrCAC and the values Gwet's handbook
prints as irrCAC's documentation reproduces them.

Cited cases:
- irrCAC 0.4.4, ``irrCAC/raw.py`` module docstring (doctests): ``raw_4raters`` (Gwet 2014,
  Handbook of Inter-Rater Reliability, 4th ed., Table 2.16: 12 units, 4 raters, 5
  categories, missing ratings): AC1 0.77544 (se 0.14295, P_e 0.19032), Fleiss' kappa
  0.76117 (se 0.15302, P_e 0.23872), AC2 under bipolar weights 0.90037 (se 0.10582).
- irrCAC computed live on the same data with ``categories=`` passed (under pandas 3 irrCAC
  otherwise counts NaN as a category) and ``digits=15`` (it rounds to 5 digits by default).

Convention differences, stated where they matter: irrCAC reports p and intervals on
Student's t with n - 1 degrees of freedom and clips the interval's upper end at 1;
reagree's Wald interval is not clipped. irrCAC's ``bp()`` p-value is one-sided (its code
omits the factor 2); reagree's is two-sided. irrCAC refuses ratio weights when a category
is 0; reagree reads 0 against 0 as no disagreement and 0 against x > 0 as the largest.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from irrCAC.datasets import raw_4raters, raw_5observers
from irrCAC.raw import CAC
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
from statsmodels.stats.tests.test_inter_rater import diagnoses

from reagree.stats import gwet
from reagree.stats.ratings import Ratings
from reagree.stats.weights import SCHEMES, agreement_weights, category_values

IRRCAC = {"gwet_ac": "gwet", "fleiss": "fleiss", "brennan_prediger": "bp"}


def _ratings(frame: pd.DataFrame) -> tuple[Ratings, list]:
    values = frame.to_numpy().ravel()
    categories = sorted(pd.unique(values[~pd.isna(values)]).tolist())
    return Ratings.from_labels(frame.reset_index(drop=True), categories=categories), categories


def _irrcac(frame, categories, weights, method):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(CAC(frame, weights=weights, categories=categories, digits=15), method)()["est"]


def test_the_handbook_values_irrcac_documents():
    ratings, _ = _ratings(raw_4raters())
    counts = ratings.unit_counts()
    ac1 = gwet.estimate(counts, "gwet_ac")
    assert (round(ac1.value, 5), round(ac1.se, 5), round(ac1.chance, 5)) == (0.77544, 0.14295, 0.19032)
    assert ac1.name == "Gwet's AC1"
    fleiss = gwet.estimate(counts, "fleiss")
    assert (round(fleiss.value, 5), round(fleiss.se, 5), round(fleiss.chance, 5)) == (0.76117, 0.15302, 0.23872)
    bipolar = gwet.estimate(counts, "gwet_ac", agreement_weights("bipolar", [1, 2, 3, 4, 5]))
    assert (round(bipolar.value, 5), round(bipolar.se, 5), round(bipolar.observed, 5)) == (0.90037, 0.10582, 0.96836)
    assert bipolar.name == "Gwet's AC2"
    # irrCAC's doctest prints z = 5.42458 and p = 0.00021 (t with 11 degrees of freedom)
    assert round(ac1.z, 3) == round(0.77544 / 0.14295, 3)
    assert round(ac1.p_value, 5) == 0.00021


@pytest.mark.parametrize("frame", [raw_4raters, raw_5observers], ids=["raw_4raters", "raw_5observers"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_weighted_coefficient_and_its_se_equal_irrcac(frame, scheme):
    data = frame()
    ratings, categories = _ratings(data)
    if scheme == "ratio" and 0 in categories:
        pytest.skip("irrCAC refuses ratio weights with a category 0 (module docstring)")
    weights = agreement_weights(scheme, category_values(categories))
    counts = ratings.unit_counts()
    for mine, theirs in IRRCAC.items():
        found, expected = gwet.estimate(counts, mine, weights), _irrcac(data, categories, scheme, theirs)
        assert found.value == pytest.approx(expected["coefficient_value"], abs=1e-12)
        assert found.se == pytest.approx(expected["se"], abs=1e-12)
        assert found.chance == pytest.approx(expected["pe"], abs=1e-12)
        assert found.observed == pytest.approx(expected["pa"], abs=1e-12)
    conger, expected = gwet.conger(ratings, weights), _irrcac(data, categories, scheme, "conger")
    assert conger.value == pytest.approx(expected["coefficient_value"], abs=1e-12)
    assert conger.se == pytest.approx(expected["se"], abs=1e-12)
    assert conger.chance == pytest.approx(expected["pe"], abs=1e-12)


def test_generated_tables_with_missing_ratings_equal_irrcac():
    rng = np.random.default_rng(26)
    for trial in range(4):
        n, r, k = 40, 3 + trial, 3 + trial % 2
        truth = rng.integers(0, k, n)
        codes = np.where(rng.random((n, r)) < 0.7, truth[:, None], rng.integers(0, k, (n, r)))
        codes = np.where(rng.random((n, r)) < 0.2, -1, codes)
        codes[0] = -1  # a unit nobody rated takes no part
        ratings = Ratings(codes, tuple(range(k)), tuple(f"r{i}" for i in range(r)))
        frame = pd.DataFrame(np.where(codes < 0, np.nan, codes + 1.0))
        categories = [float(c) for c in range(1, k + 1)]
        for scheme in ("identity", "quadratic"):
            weights = agreement_weights(scheme, categories)
            for mine, theirs in IRRCAC.items():
                found = gwet.estimate(ratings.unit_counts(), mine, weights)
                expected = _irrcac(frame, categories, scheme, theirs)
                assert found.se == pytest.approx(expected["se"], abs=1e-12), (trial, scheme, mine)
            assert gwet.conger(ratings, weights).se == pytest.approx(
                _irrcac(frame, categories, scheme, "conger")["se"], abs=1e-12
            )


def test_fleiss_gwet_form_is_fleiss_on_complete_data():
    """On Fleiss' (1971) table (statsmodels' test suite, ``diagnoses``) every unit has six
    ratings, and Gwet's form is Fleiss' kappa: statsmodels' value, R irr's 0.4302445."""
    counts, _ = aggregate_raters(diagnoses)
    found = gwet.estimate(counts, "fleiss")
    assert found.value == pytest.approx(fleiss_kappa(counts), abs=1e-12)
    assert round(found.value, 7) == 0.4302445


def test_percent_agreement_se_is_irrcac_two_rater_form_up_to_n_over_n_minus_one():
    """irrCAC's ``table.CAC.pa2`` (two raters, a contingency table: Gwet 2014, Table 3.8's
    abstractors, ``table_cont3x3abstractors``) divides the unit variance by n where the raw
    form divides by n - 1: se_raw^2 (n - 1) / n = se_table^2."""
    from irrCAC.datasets import table_cont3x3abstractors
    from irrCAC.table import CAC as TableCAC

    table = table_cont3x3abstractors().to_numpy()
    ratings = Ratings.from_table(table, ("Ectopic", "AIU", "NIU"))
    found = gwet.estimate(ratings.unit_counts(), "percent_agreement")
    expected = TableCAC(table_cont3x3abstractors(), digits=15).pa2()["est"]
    n = table.sum()
    assert found.value == pytest.approx(expected["coefficient_value"], abs=1e-12)
    assert found.se**2 * (n - 1) / n == pytest.approx(expected["se"] ** 2, abs=1e-12)
    assert found.chance == 0


def test_degenerate_tables_are_undefined_with_a_reason():
    one_category = np.array([[3, 0], [2, 0]])
    found = gwet.estimate(one_category, "fleiss")  # chance agreement 1
    assert np.isnan(found.value) and "chance agreement is 1" in found.value.reason
    assert gwet.estimate(one_category, "gwet_ac").value == 1.0  # AC1's chance term is 0 there, by hand
    single = np.array([[1, 0], [0, 1]])
    found = gwet.estimate(single, "fleiss")
    assert np.isnan(found.value) and "two or more ratings" in found.value.reason
    assert np.isnan(found.z) and np.isnan(found.interval()[0])


def test_weights_follow_gwet_definitions_by_hand():
    """Three categories 1, 2, 3 (Gwet 2014, ch. 3): linear 1 - |k - l| / 2, quadratic
    1 - (k - l)^2 / 4; circular with U = 3: sin^2(pi / 3) = 3/4 for every off-diagonal
    pair, so 0 off the diagonal."""
    assert agreement_weights("linear", [1, 2, 3])[0].tolist() == [1.0, 0.5, 0.0]
    assert agreement_weights("quadratic", [1, 2, 3])[0].tolist() == [1.0, 0.75, 0.0]
    assert np.allclose(agreement_weights("circular", [1, 2, 3]), np.eye(3))
    with pytest.raises(ValueError, match="weights must be one of"):
        agreement_weights("cubic", [1, 2])
