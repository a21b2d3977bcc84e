"""Published worked examples, asserted at the precision their source prints.

Each expected number is printed in the cited source (paper, book, reference manual, or
the reference output of R's ``irr`` package held in statsmodels' test suite); none is
reagree's own output pasted back.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reagree.stats import multirater, pairwise
from reagree.stats.alpha import coincidence_matrix, krippendorff_alpha
from reagree.stats.ratings import Ratings

from conftest import FLEISS_1971

nan = np.nan

# Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
# Communication, University of Pennsylvania, section C ("Reliability data ... with missing
# values"): 4 observers x 12 units, values 1..5 (rows here are the observers, as printed).
KRIPPENDORFF_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
)
# The alphas Krippendorff (2011) prints for these data. The `krippendorff` package's
# documented example (`alpha` docstring) prints the same nominal, ordinal and ratio values
# on these data; interval 0.849 is printed in Krippendorff (2011), section C.
KRIPPENDORFF_2011_ALPHA = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def krippendorff_2011() -> Ratings:
    # reagree reads units x raters: the printed observers x units table, transposed
    return Ratings.from_labels(pd.DataFrame(KRIPPENDORFF_2011.T), categories=(1.0, 2.0, 3.0, 4.0, 5.0))


@pytest.mark.parametrize("level", list(KRIPPENDORFF_2011_ALPHA))
def test_krippendorff_2011_alpha_from_ratings(level):
    assert round(krippendorff_alpha(krippendorff_2011(), level), 3) == KRIPPENDORFF_2011_ALPHA[level]


@pytest.mark.parametrize("level", list(KRIPPENDORFF_2011_ALPHA))
def test_krippendorff_2011_alpha_from_counts(level):
    counts = krippendorff_2011().unit_counts()
    values = [1, 2, 3, 4, 5] if level in ("interval", "ratio") else None
    assert round(krippendorff_alpha(counts, level, values=values), 3) == KRIPPENDORFF_2011_ALPHA[level]


def test_krippendorff_2011_coincidence_matrix_by_hand():
    # Counted by hand from the table: units 1-11 are pairable with 3, 4, 4, 4, 4, 4, 4, 4,
    # 4, 3, 2 values (n = 40; unit 12's lone value does not count). Pairable values per
    # category: 1 -> 9, 2 -> 13, 3 -> 10, 4 -> 5, 5 -> 3. Unit 1 (1, 1, 1) adds 3*2/2 = 3 to
    # o_11; unit 8 (1, 1, 2, 1) adds 3*2/3 = 2 to o_11 and 3/3 = 1 to o_12; unit 11 (1, 1)
    # adds 2 to o_11: o_11 = 7. Units 2 (2, 2, 3, 2), 6 (1, 2, 3, 4) and 8 hold all the
    # disagreement, 6/3 + 12/3 + 6/3 = 8 off the diagonal, so nominal
    # alpha = 1 - (n - 1) * 8 / (n^2 - sum n_c^2) = 1 - 39 * 8 / (1600 - 384).
    o = coincidence_matrix(krippendorff_2011())
    np.testing.assert_allclose(o.sum(axis=1), [9, 13, 10, 5, 3], rtol=0, atol=1e-12)
    assert o.sum() == pytest.approx(40, abs=1e-12)
    assert o[0, 0] == pytest.approx(7, abs=1e-12)
    assert o.sum() - np.trace(o) == pytest.approx(8, abs=1e-12)
    assert krippendorff_alpha(krippendorff_2011(), "nominal") == pytest.approx(1 - 39 * 8 / 1216, abs=1e-12)


# The example of Wikipedia's "Krippendorff's alpha" article, also the documented example of
# the `krippendorff` package's `alpha` (3 coders x 15 units), which prints nominal 0.691358
# and interval 0.810845.
WIKIPEDIA_ALPHA = np.array(
    [
        [nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
        [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
        [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4],
    ]
)


def test_wikipedia_alpha_example():
    ratings = Ratings.from_labels(pd.DataFrame(WIKIPEDIA_ALPHA.T), categories=(1.0, 2.0, 3.0, 4.0))
    assert round(krippendorff_alpha(ratings, "nominal"), 6) == 0.691358
    assert round(krippendorff_alpha(ratings, "interval"), 6) == 0.810845


# Fleiss (1971), Table 1: FLEISS_1971 in conftest (the audit's tests read it too).


def test_fleiss_1971_kappa():
    counts = Ratings.from_labels(FLEISS_1971, categories=(1, 2, 3, 4, 5)).unit_counts()
    assert counts.shape == (30, 5) and (counts.sum(axis=1) == 6).all()
    kappa = multirater.fleiss_kappa(counts)
    assert round(kappa, 3) == 0.430
    assert round(kappa, 7) == 0.4302445  # R irr, kappam.fleiss(diagnoses)


# Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories; the
# article prints each subject's P_i, P_bar = 0.378, P_e = 0.213 and kappa = 0.210. Table as
# statsmodels' test suite holds it (`table0`).
WIKIPEDIA_FLEISS = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
)
WIKIPEDIA_P_I = [1.000, 0.253, 0.308, 0.440, 0.330, 0.462, 0.242, 0.176, 0.286, 0.286]


def test_wikipedia_fleiss_example():
    assert round(multirater.fleiss_kappa(WIKIPEDIA_FLEISS), 3) == 0.210
    assert round(multirater.percent_agreement(WIKIPEDIA_FLEISS), 3) == 0.378
    for row, printed in zip(WIKIPEDIA_FLEISS, WIKIPEDIA_P_I):
        assert round(multirater.percent_agreement(row[None, :]), 3) == printed


# R package irr, kappa2() on the `anxiety` data (20 subjects, raters 2 and 3), as printed
# in statsmodels' test suite (test_cohens_kappa_irr): unweighted -0.006289308, "equal"
# (linear) 0.1459075, "squared" (quadratic) 0.2520325. Category 5 is never used by these
# two raters; irr works on the levels present (1, 2, 3, 4, 6), so the weights step by level.
ANXIETY_RATER2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4]
ANXIETY_RATER3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2]


@pytest.mark.parametrize(
    "weights, printed, digits", [(None, -0.006289308, 9), ("linear", 0.1459075, 7), ("quadratic", 0.2520325, 7)]
)
def test_irr_kappa2_anxiety(weights, printed, digits):
    ratings = Ratings.from_labels(
        pd.DataFrame({"rater2": ANXIETY_RATER2, "rater3": ANXIETY_RATER3}), categories=(1, 2, 3, 4, 6)
    )
    assert round(pairwise.cohen_kappa(ratings, weights=weights), digits) == printed
    table = pairwise.contingency_table(ratings, "rater2", "rater3")
    assert round(pairwise.cohen_kappa(table, weights=weights), digits) == printed


# Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed.: the 4 raters x 12
# subjects example with missing ratings (irrCAC's `raw_4raters`, the same reliability
# data as Krippendorff 2011 up to which rater gave unit 12's single rating). irrCAC's
# documentation (irrCAC.raw) prints AC1 = 0.77544 with pa = 0.81818.
def test_gwet_2014_four_raters_ac1():
    counts = Ratings.from_labels(pd.DataFrame(KRIPPENDORFF_2011.T), categories=(1.0, 2.0, 3.0, 4.0, 5.0)).unit_counts()
    assert round(multirater.gwet_ac1(counts), 5) == 0.77544
    assert round(multirater.percent_agreement(counts), 5) == 0.81818


# Gwet (2014): two abstractors classify 100 pregnancies as ectopic, abnormal intrauterine
# or normal intrauterine (irrCAC's `table_cont3x3abstractors`); irrCAC's documentation
# (irrCAC.table) prints AC1 = 0.84933 with pa = 0.89.
ABSTRACTORS = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])


def test_gwet_2014_abstractors_ac1():
    coefficients = pairwise.table_coefficients(ABSTRACTORS)
    assert round(coefficients["ac1"], 5) == 0.84933
    assert round(coefficients["agreement"], 5) == 0.89
