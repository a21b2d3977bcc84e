"""Unit tests of the coefficients on small hand-made inputs: textbook values, identities
with the reference libraries, degenerate inputs, label coding, majority vote and the
accuracy-style table readings."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import krippendorff
from statsmodels.stats import inter_rater

from reagree.stats import classification, multirater, pairwise
from reagree.stats.alpha import LEVELS, alpha_statistic, krippendorff_alpha
from reagree.stats.majority import majority_vote, tied_units
from reagree.stats.ratings import MISSING, Ratings, counts_from_table
from reagree.stats.undefined import Undefined, reason_of


def assert_undefined(value) -> None:
    """NaN, carrying a non-empty reason."""
    assert isinstance(value, float)
    assert math.isnan(value)
    assert reason_of(value) != ""


def noisy_ratings(
    seed: int, n_units: int, n_raters: int, k: int, agreement: float = 0.6, missing: float = 0.0, categories=None
) -> Ratings:
    """Each rater copies a latent label with probability ``agreement``, else guesses."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_units)
    copy = rng.random((n_units, n_raters)) < agreement
    codes = np.where(copy, truth[:, None], rng.integers(0, k, (n_units, n_raters)))
    codes[rng.random((n_units, n_raters)) < missing] = MISSING
    categories = tuple(categories) if categories is not None else tuple(f"c{i}" for i in range(k))
    raters = tuple("ABCDEFGH"[:n_raters])
    return Ratings(codes.astype(np.int64), categories, raters)


# ----------------------------------------------------------------- textbook 2x2 table

TEXTBOOK = np.array([[1, 0], [9, 230]])


def test_textbook_table_values():
    out = pairwise.table_coefficients(TEXTBOOK)
    assert out["n"] == 240
    assert out["agreement"] == pytest.approx(0.9625, abs=1e-12)
    assert round(out["kappa"], 3) == 0.176
    assert out["pabak"] == pytest.approx(0.925, abs=1e-12)
    assert round(out["ac1"], 3) == 0.961
    assert round(out["specific"][0], 3) == 0.182
    assert round(out["specific"][1], 3) == 0.981
    # the closed forms behind them
    assert out["chance"] == pytest.approx((1 * 10 + 239 * 230) / 240**2, abs=1e-12)
    assert out["specific"][0] == pytest.approx(2 * 1 / (2 * 1 + 0 + 9), abs=1e-12)
    assert out["specific"][1] == pytest.approx(2 * 230 / (2 * 230 + 0 + 9), abs=1e-12)
    pi = (1 / 240 + 10 / 240) / 2
    chance_ac1 = 2 * pi * (1 - pi)
    assert out["ac1"] == pytest.approx((0.9625 - chance_ac1) / (1 - chance_ac1), abs=1e-12)


def test_table_proportions_give_the_same_coefficients_as_counts():
    counts = pairwise.table_coefficients(TEXTBOOK)
    shares = pairwise.table_coefficients(TEXTBOOK / TEXTBOOK.sum())
    for key in ("agreement", "chance", "kappa", "scott_pi", "pabak", "ac1"):
        assert shares[key] == pytest.approx(counts[key], abs=1e-12), key
    np.testing.assert_allclose(shares["specific"].astype(float), counts["specific"].astype(float), atol=1e-12)


def test_table_coefficients_equal_the_multirater_forms_on_real_units():
    ratings = noisy_ratings(3, 150, 2, 4, missing=0.1)
    table = pairwise.contingency_table(ratings, "A", "B")
    out = pairwise.table_coefficients(table)
    units = ratings.unit_counts()
    assert out["agreement"] == pytest.approx(multirater.percent_agreement(units), abs=1e-12)
    assert out["pabak"] == pytest.approx(multirater.brennan_prediger(units), abs=1e-12)
    np.testing.assert_allclose(
        out["specific"].astype(float), multirater.specific_agreement(units).astype(float), atol=1e-12
    )
    both = ratings.complete().unit_counts()
    assert out["ac1"] == pytest.approx(multirater.gwet_ac1(both), abs=1e-12)
    assert out["scott_pi"] == pytest.approx(multirater.fleiss_kappa(both), abs=1e-12)


def test_brennan_prediger_equals_statsmodels_randolph_on_complete_counts():
    rng = np.random.default_rng(0)
    for n_raters, k in [(2, 2), (3, 4), (5, 3), (4, 6)]:
        counts = rng.multinomial(n_raters, np.ones(k) / k, size=80)
        expected = inter_rater.fleiss_kappa(counts, method="randolph")
        assert multirater.brennan_prediger(counts) == pytest.approx(expected, abs=1e-12)
        assert multirater.pabak(counts) == pytest.approx(expected, abs=1e-12)


def test_pabak_is_two_po_minus_one_for_two_categories():
    table = np.array([[40, 9], [6, 45]])
    counts, weights = counts_from_table(table)
    p_o = (40 + 45) / 100
    assert multirater.pabak(counts, weights) == pytest.approx(2 * p_o - 1, abs=1e-12)


def test_scott_pi_equals_statsmodels_fleiss_on_the_two_raters_units():
    ratings = noisy_ratings(1, 120, 3, 4, missing=0.15)
    for a, b in [("A", "B"), ("A", "C"), ("C", "B")]:
        table = pairwise.contingency_table(ratings, a, b)
        units = ratings.select([a, b]).complete().unit_counts()
        assert pairwise.scott_pi(table) == pytest.approx(inter_rater.fleiss_kappa(units, method="fleiss"), abs=1e-12)


def test_cohen_kappa_weights_by_hand():
    table = np.array([[10, 3, 1], [2, 12, 4], [0, 5, 13]], dtype=float)
    p = table / table.sum()
    expected = np.outer(p.sum(axis=1), p.sum(axis=0))
    distance = np.abs(np.subtract.outer(np.arange(3), np.arange(3)))
    for name, w in [(None, (distance > 0).astype(float)), ("linear", distance), ("quadratic", distance**2)]:
        by_hand = 1 - (w * p).sum() / (w * expected).sum()
        assert pairwise.cohen_kappa(table, weights=name) == pytest.approx(by_hand, abs=1e-12)
    with pytest.raises(ValueError, match="weights"):
        pairwise.cohen_kappa(table, weights="cubic")


# ----------------------------------------------------------------- Fleiss' category kappas


def test_fleiss_category_kappas_weighted_mean_is_fleiss_kappa():
    counts = noisy_ratings(5, 90, 4, 4, agreement=0.5).unit_counts()
    kappas = multirater.fleiss_category_kappas(counts).astype(float)
    p = counts.sum(axis=0) / counts.sum()
    weight = p * (1 - p)
    assert np.all(np.isfinite(kappas))
    assert (weight * kappas).sum() / weight.sum() == pytest.approx(multirater.fleiss_kappa(counts), abs=1e-12)


def test_fleiss_category_kappa_is_fleiss_kappa_of_category_vs_rest():
    counts = noisy_ratings(6, 70, 5, 3, agreement=0.4).unit_counts()
    kappas = multirater.fleiss_category_kappas(counts)
    m = counts.sum(axis=1)
    for j in range(counts.shape[1]):
        collapsed = np.column_stack([counts[:, j], m - counts[:, j]])
        assert multirater.fleiss_kappa(collapsed) == pytest.approx(kappas[j], abs=1e-12)


def test_fleiss_category_kappa_of_unused_category_is_undefined():
    counts = np.array([[2, 1, 0], [3, 0, 0], [1, 2, 0], [0, 3, 0]])
    kappas = multirater.fleiss_category_kappas(counts)
    assert np.isfinite(float(kappas[0])) and np.isfinite(float(kappas[1]))
    assert_undefined(kappas[2])


# ----------------------------------------------------------------- degenerate input

ONE_CATEGORY = Ratings(np.zeros((6, 3), dtype=np.int64), (1, 2, 3), ("A", "B", "C"))
ONE_RATER = Ratings(np.array([[0], [1], [2], [1]]), (1, 2, 3), ("A",))


@pytest.mark.filterwarnings("error")
def test_one_category_everywhere_is_undefined():
    assert_undefined(multirater.fleiss_kappa(ONE_CATEGORY.unit_counts()))
    assert_undefined(pairwise.cohen_kappa(pairwise.contingency_table(ONE_CATEGORY, "A", "B")))
    for level in LEVELS:
        assert_undefined(krippendorff_alpha(ONE_CATEGORY, level))
        assert math.isnan(alpha_statistic(ONE_CATEGORY, level).estimate())
    one_declared = np.full((6, 1), 3)
    assert_undefined(multirater.gwet_ac1(one_declared))
    assert_undefined(multirater.brennan_prediger(one_declared))
    assert_undefined(pairwise.scott_pi(pairwise.contingency_table(ONE_CATEGORY, "A", "B")))


@pytest.mark.filterwarnings("error")
def test_single_rater_is_undefined():
    for level in LEVELS:
        assert_undefined(krippendorff_alpha(ONE_RATER, level))
    assert_undefined(multirater.percent_agreement(ONE_RATER.unit_counts()))
    assert_undefined(multirater.gwet_ac1(ONE_RATER.unit_counts()))
    assert_undefined(multirater.fleiss_kappa(ONE_RATER.unit_counts()))


@pytest.mark.filterwarnings("error")
def test_empty_table_is_undefined():
    for weights in pairwise.WEIGHTS:
        assert_undefined(pairwise.cohen_kappa(np.zeros((3, 3)), weights=weights))
    disjoint = Ratings(np.array([[0, MISSING], [MISSING, 1], [2, MISSING]]), ("x", "y", "z"), ("A", "B"))
    table = pairwise.contingency_table(disjoint, "A", "B")
    assert table.sum() == 0
    assert_undefined(pairwise.cohen_kappa(table))
    assert_undefined(multirater.percent_agreement(disjoint.unit_counts()))


@pytest.mark.filterwarnings("error")
def test_fleiss_with_no_units_is_undefined():
    assert_undefined(multirater.fleiss_kappa(np.zeros((0, 3))))


def test_fleiss_unequal_ratings_per_unit_raises():
    counts = np.array([[2, 1, 0], [1, 1, 0], [0, 3, 0]])
    with pytest.raises(ValueError, match="same number"):
        multirater.fleiss_kappa(counts)
    with pytest.raises(ValueError, match="same number"):
        multirater.fleiss_statistic(counts)


def test_undefined_is_nan_with_reason():
    value = Undefined("because")
    assert math.isnan(value) and reason_of(value) == "because"
    assert reason_of(0.5) == "" and reason_of(float("nan")) == "" and reason_of("x") == ""
    assert np.isnan(np.array([value, 1.0])).tolist() == [True, False]


# ----------------------------------------------------------------- input checks

COUNT_FUNCTIONS = {
    "fleiss_kappa": multirater.fleiss_kappa,
    "percent_agreement": multirater.percent_agreement,
    "gwet_ac1": multirater.gwet_ac1,
    "brennan_prediger": multirater.brennan_prediger,
    "specific_agreement": multirater.specific_agreement,
    "fleiss_category_kappas": multirater.fleiss_category_kappas,
    "krippendorff_alpha": lambda counts: krippendorff_alpha(counts, "nominal"),
}


@pytest.mark.parametrize("name", list(COUNT_FUNCTIONS))
@pytest.mark.parametrize(
    "bad, message",
    [
        ([[2, -1], [1, 1]], "non-negative"),
        ([[2, np.nan], [1, 1]], "finite"),
        ([[2, np.inf], [1, 1]], "finite"),
        ([[1.5, 0.5], [1, 1]], "whole numbers"),
        ([2, 1], "units x categories"),
        ([["a", "b"], ["b", "a"]], "numbers"),
    ],
)
def test_counts_must_be_finite_non_negative_whole_numbers(name, bad, message):
    with pytest.raises(ValueError, match=message):
        COUNT_FUNCTIONS[name](bad)


def test_weights_must_be_one_finite_non_negative_number_per_unit():
    counts = np.array([[2, 0], [1, 1]])
    for weights, message in [([1.0], "one weight per unit"), ([1.0, -0.5], "non-negative"), ([1.0, np.nan], "finite")]:
        with pytest.raises(ValueError, match=message):
            multirater.percent_agreement(counts, weights)
    assert multirater.percent_agreement(counts, [0.25, 0.75]) == pytest.approx(0.25, abs=1e-15)


def test_tables_must_be_finite_non_negative_squares():
    bad_tables = [(np.ones((2, 3)), "K x K"), ([[1, -1], [0, 2]], "negative"), ([[1, np.nan], [0, 2]], "finite")]
    for bad, message in bad_tables:
        for function in (pairwise.cohen_kappa, pairwise.scott_pi, pairwise.table_coefficients):
            with pytest.raises(ValueError, match=message):
                function(bad)


def test_alpha_on_counts_equals_alpha_on_ratings():
    ratings = noisy_ratings(8, 120, 4, 4, missing=0.2, categories=(1, 2, 4, 7))
    counts = ratings.unit_counts()
    for level in LEVELS:
        values = ratings.categories if level in ("interval", "ratio") else None
        assert krippendorff_alpha(counts, level, values=values) == pytest.approx(
            krippendorff_alpha(ratings, level), abs=1e-12
        )
    # values= overrides a Ratings' categories
    doubled = krippendorff_alpha(ratings, "interval", values=[2, 4, 8, 14])
    assert doubled == pytest.approx(krippendorff_alpha(ratings, "interval"), abs=1e-12)


def test_alpha_needs_numbers_for_interval_and_ratio():
    counts = np.array([[2, 0, 1], [0, 3, 0], [1, 1, 1]])
    for level in ("interval", "ratio"):
        with pytest.raises(ValueError, match="values="):
            krippendorff_alpha(counts, level)
        with pytest.raises(ValueError, match="3 finite category values"):
            krippendorff_alpha(counts, level, values=[1, 2])
        with pytest.raises(ValueError, match="numeric"):
            krippendorff_alpha(noisy_ratings(1, 20, 3, 3), level)
    with pytest.raises(ValueError, match="true zero"):
        krippendorff_alpha(counts, "ratio", values=[-1, 0, 1])
    with pytest.raises(ValueError, match="level_of_measurement"):
        krippendorff_alpha(counts, "cardinal")


def test_cohen_and_scott_from_ratings_equal_their_table_forms():
    ratings = noisy_ratings(4, 90, 3, 3, missing=0.2)
    table = pairwise.contingency_table(ratings, "C", "A")
    for weights in pairwise.WEIGHTS:
        assert pairwise.cohen_kappa(ratings, weights, raters=("C", "A")) == pytest.approx(
            pairwise.cohen_kappa(table, weights), abs=1e-12
        )
    assert pairwise.scott_pi(ratings, raters=("C", "A")) == pytest.approx(pairwise.scott_pi(table), abs=1e-12)
    two = ratings.select(["C", "A"])
    assert pairwise.cohen_kappa(two) == pytest.approx(pairwise.cohen_kappa(table), abs=1e-12)
    with pytest.raises(ValueError, match="name the two raters"):
        pairwise.cohen_kappa(ratings)
    with pytest.raises(ValueError, match="no rater 'Z'"):
        pairwise.cohen_kappa(ratings, raters=("A", "Z"))


def test_fleiss_skips_units_nobody_rated():
    counts = np.array([[2, 1, 0], [0, 3, 0], [1, 1, 1], [0, 2, 1]])
    with_empty = np.vstack([counts[:2], np.zeros((1, 3)), counts[2:]])
    assert multirater.fleiss_kappa(with_empty) == pytest.approx(multirater.fleiss_kappa(counts), abs=1e-15)


def test_counts_of_many_units_need_no_dense_matrix():
    # A long table of 1.6 million labels on 200,000 units (2 to 14 raters each), summed
    # into the n x K per-unit counts. Units pool by their count row, so alpha's statistic
    # holds a few hundred rows, not 200,000.
    rng = np.random.default_rng(0)
    n_units = 200_000
    raters = rng.integers(2, 15, size=n_units)
    truth = rng.integers(0, 3, size=n_units)
    unit_of_label = np.repeat(np.arange(n_units), raters)
    slip = (rng.random(unit_of_label.size) < 0.3) * rng.integers(1, 3, unit_of_label.size)
    labels = (truth[unit_of_label] + slip) % 3
    counts = np.bincount(unit_of_label * 3 + labels, minlength=n_units * 3).reshape(n_units, 3)
    assert counts.sum() == raters.sum() > 1_500_000
    statistic = alpha_statistic(counts, "nominal")
    assert statistic.per_unit.shape[0] < 1_000 and statistic.n_units == n_units
    reference = krippendorff.alpha(value_counts=counts, level_of_measurement="nominal")
    assert statistic.value() == pytest.approx(reference, abs=1e-12)


# ----------------------------------------------------------------- Ratings.from_labels


def test_from_labels_rejects_wide_array():
    table = np.random.default_rng(0).choice(["a", "b", "c"], size=(3, 240))
    with pytest.raises(ValueError, match="ambiguous orientation"):
        Ratings.from_labels(table)
    with pytest.raises(ValueError, match="ambiguous orientation"):
        Ratings.from_labels(table.tolist())


def test_from_labels_accepts_wide_array_when_told():
    table = np.random.default_rng(0).choice(["a", "b", "c"], size=(3, 240))
    ratings = Ratings.from_labels(table, units_by_raters=True)
    assert (ratings.n_units, ratings.n_raters) == (3, 240)
    assert ratings.categories == ("a", "b", "c")
    assert (np.array(ratings.categories)[ratings.codes] == table).all()


def test_from_labels_accepts_wide_dataframe():
    table = np.random.default_rng(0).choice(["a", "b", "c"], size=(3, 240))
    ratings = Ratings.from_labels(pd.DataFrame(table), categories=["c", "b", "a"])
    assert (ratings.n_units, ratings.n_raters) == (3, 240)
    assert ratings.raters[:3] == ("0", "1", "2")
    assert (ratings.codes == np.select([table == "c", table == "b"], [0, 1], 2)).all()


def test_from_labels_codes_in_declared_order_and_names_raters():
    frame = pd.DataFrame({"ann1": ["lo", "hi", "mid"], "ann2": ["mid", "mid", "lo"]}, index=["t1", "t2", "t3"])
    ratings = Ratings.from_labels(frame, categories=("lo", "mid", "hi"))
    assert ratings.raters == ("ann1", "ann2")
    assert ratings.codes.tolist() == [[0, 1], [2, 1], [1, 0]]
    back = ratings.labels()
    assert back.to_numpy().tolist() == frame.to_numpy().tolist()


def test_from_labels_unknown_label_names_unit_and_rater():
    frame = pd.DataFrame({"A": ["x", "y", "x"], "B": ["y", "x", "w"]}, index=["u1", "u2", "u3"])
    with pytest.raises(ValueError) as info:
        Ratings.from_labels(frame, categories=("x", "y"), source="round1.csv")
    message = str(info.value)
    assert "'u3'" in message and "'B'" in message and "'w'" in message and "round1.csv" in message


def test_from_labels_missing_cells():
    table = [["a", "b"], ["", "a"], [None, "b"], [float("nan"), np.nan], ["b", "  "]]
    ratings = Ratings.from_labels(table, categories=("a", "b"))
    assert ratings.codes.tolist() == [[0, 1], [MISSING, 0], [MISSING, 1], [MISSING, MISSING], [1, MISSING]]
    inferred = Ratings.from_labels(table)
    assert inferred.categories == ("a", "b")
    assert (inferred.codes == ratings.codes).all()


def test_from_labels_numeric_dataframe_with_nan():
    frame = pd.DataFrame({"A": [1, 2, np.nan, 3], "B": [1, None, 2, 3]})
    ratings = Ratings.from_labels(frame, categories=(1, 2, 3))
    assert ratings.codes.tolist() == [[0, 0], [1, MISSING], [MISSING, 1], [2, 2]]


def test_ratings_validates_codes():
    with pytest.raises(ValueError):
        Ratings(np.array([[0, 3]]), ("a", "b", "c"), ("A", "B"))
    with pytest.raises(ValueError):
        Ratings(np.array([[0, -2]]), ("a", "b", "c"), ("A", "B"))
    with pytest.raises(ValueError):
        Ratings(np.array([[0, 1]]), ("a", "b"), ("A",))


def test_unit_counts_and_counts_from_table():
    ratings = Ratings(
        np.array([[0, 0, 2], [MISSING, 1, 1], [MISSING, MISSING, MISSING]]), ("a", "b", "c"), ("A", "B", "C")
    )
    assert ratings.unit_counts().tolist() == [[2, 0, 1], [0, 2, 0], [0, 0, 0]]
    counts, weights = counts_from_table(np.array([[1, 2], [3, 4]]))
    assert counts.tolist() == [[2, 0], [1, 1], [1, 1], [0, 2]]
    assert weights.tolist() == [1, 2, 3, 4]


# ----------------------------------------------------------------- majority vote

SENTIMENT = ("negative", "neutral", "positive")


def six_raters() -> Ratings:
    n, z, p = 0, 1, 2
    codes = np.array(
        [
            [z, z, z, p, p, p],  # tie neutral/positive
            [n, n, n, p, p, p],  # tie without neutral
            [p, p, p, p, z, z],  # clear positive
            [n, n, z, MISSING, MISSING, MISSING],  # clear negative with missing cells
            [MISSING] * 6,  # nobody
        ]
    )
    return Ratings(codes, SENTIMENT, tuple("ABCDEF"))


def test_majority_vote_drop():
    ratings = six_raters()
    assert majority_vote(ratings, "drop").tolist() == [MISSING, MISSING, 2, 0, MISSING]
    assert tied_units(ratings).tolist() == [True, True, False, False, False]


def test_majority_vote_prefer():
    ratings = six_raters()
    assert majority_vote(ratings, "prefer:neutral").tolist() == [1, MISSING, 2, 0, MISSING]
    assert majority_vote(ratings, "prefer:positive").tolist() == [2, 2, 2, 0, MISSING]


def test_majority_vote_bad_rules():
    with pytest.raises(ValueError, match="unknown tie rule"):
        majority_vote(six_raters(), "coinflip")
    with pytest.raises(ValueError):
        majority_vote(six_raters(), "prefer:angry")


# ----------------------------------------------------------------- classification readings

CONFUSION = np.array([[10, 2, 1], [3, 20, 4], [2, 5, 30]])


def test_accuracy_by_hand():
    assert classification.accuracy(CONFUSION) == pytest.approx(60 / 77, abs=1e-12)


def test_accuracy_within_one_by_hand():
    # everything except negative<->positive: 77 - 1 - 2
    assert classification.accuracy_within_one(CONFUSION) == pytest.approx(74 / 77, abs=1e-12)


def test_mean_polar_f1_by_hand():
    # rows 13, 27, 37; columns 15, 27, 35
    f1_negative = 2 * 10 / (13 + 15)
    f1_positive = 2 * 30 / (37 + 35)
    assert classification.f1_per_class(CONFUSION)[1] == pytest.approx(2 * 20 / (27 + 27), abs=1e-12)
    assert classification.mean_polar_f1(CONFUSION) == pytest.approx((f1_negative + f1_positive) / 2, abs=1e-12)


def test_classification_empty_and_bad_tables():
    assert_undefined(classification.accuracy(np.zeros((3, 3))))
    assert_undefined(classification.accuracy_within_one(np.zeros((3, 3))))
    assert_undefined(classification.f1_per_class(np.array([[1, 0], [0, 0]]))[1])
    with pytest.raises(ValueError):
        classification.accuracy(np.ones((2, 3)))


def test_a_difference_of_coefficients_keeps_the_reason_of_an_undefined_one():
    from reagree.stats.undefined import difference

    assert difference(0.635521, 0.634913) == pytest.approx(6.08e-04, abs=1e-12)
    gap = difference(Undefined("one category in use"), 0.5)
    assert_undefined(gap) and reason_of(gap) == "one category in use"


def test_fleiss_is_the_weighted_mean_of_its_category_kappas():
    """Fleiss (1971), eq. 10: the p(1-p)-weighted mean of the category kappas is the overall
    kappa; held against statsmodels' fleiss_kappa on a table worked by hand."""
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    from reagree.stats.multirater import fleiss_category_weighted_mean

    counts = np.array([[3, 3, 0], [6, 0, 0], [0, 2, 4], [1, 4, 1], [0, 0, 6]])
    assert fleiss_category_weighted_mean(counts) == pytest.approx(statsmodels_fleiss(counts), abs=1e-12)
    assert np.isnan(fleiss_category_weighted_mean(np.array([[6, 0], [6, 0]])))


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_alpha_with_each_unit_left_out_equals_the_krippendorff_package_on_the_remaining_units(level):
    """The jackknife values of alpha: for each unit, the krippendorff package's alpha on
    every other unit (coders x units, level given)."""
    from reagree.stats.alpha import alpha_without_each_unit

    ratings = noisy_ratings(seed=5, n_units=30, n_raters=3, k=3, missing=0.1, categories=(1, 2, 3))
    found = alpha_without_each_unit(ratings, level)
    data = np.where(ratings.codes == MISSING, np.nan, ratings.codes + 1.0).T
    expected = [
        krippendorff.alpha(reliability_data=np.delete(data, u, axis=1), level_of_measurement=level)
        for u in range(ratings.n_units)
    ]
    assert found == pytest.approx(expected, abs=1e-12)
