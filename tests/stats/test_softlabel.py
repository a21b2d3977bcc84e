"""Soft-label scores: cross-entropy against a panel's smoothed label distribution (worked
by hand) and the mean of per-member Cohen's kappas (against scikit-learn)."""

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from reagree.stats.bootstrap import bootstrap, resample_indices
from reagree.stats.ratings import Ratings
from reagree.stats.softlabel import (
    cross_entropy,
    cross_entropy_statistic,
    label_distribution,
    mean_cohen_kappa,
    mean_kappa_statistic,
)
from reagree.stats.undefined import Undefined

SENTIMENT = ("negative", "neutral", "positive")
# panel r1..r3 and a tool, three units:
#   unit 0: neg neg neu  (2, 1, 0)   tool neg
#   unit 1: neu neu neu  (0, 3, 0)   tool pos
#   unit 2: pos neg neu  (1, 1, 1)   tool neu
TABLE = [
    ["negative", "negative", "neutral", "negative"],
    ["neutral", "neutral", "neutral", "positive"],
    ["positive", "negative", "neutral", "neutral"],
]
PANEL = ["r1", "r2", "r3"]


def small():
    return Ratings.from_labels(
        np.array(TABLE, dtype=object), categories=SENTIMENT, raters=[*PANEL, "tool"], units_by_raters=True
    )


def test_distribution_is_additively_smoothed():
    # add-one with m = 3 raters and K = 3: (c + 1) / 6
    assert label_distribution(np.array([[2, 1, 0], [0, 3, 0]]), 1.0) == pytest.approx(
        np.array([[3, 2, 1], [1, 4, 1]]) / 6
    )
    with pytest.raises(ValueError, match="smoothing must be positive"):
        label_distribution(np.array([[1, 0, 0]]), smoothing=0)


def test_cross_entropy_worked_by_hand():
    # add-one: p(neg | unit 0) = 3/6, p(pos | unit 1) = 1/6, p(neu | unit 2) = 2/6
    expected = (math.log(2) + math.log(6) + math.log(3)) / 3
    assert cross_entropy(small(), "tool", PANEL, smoothing=1.0) == pytest.approx(expected)
    # add-0.5: (c + 0.5) / 4.5 -> 2.5/4.5, 0.5/4.5, 1.5/4.5
    expected_half = -(math.log(2.5 / 4.5) + math.log(0.5 / 4.5) + math.log(1.5 / 4.5)) / 3
    assert cross_entropy(small(), "tool", PANEL, smoothing=0.5) == pytest.approx(expected_half)


def test_a_unit_the_rater_left_blank_is_not_scored():
    table = [row[:] for row in TABLE]
    table[1][3] = None
    ratings = Ratings.from_labels(
        np.array(table, dtype=object), categories=SENTIMENT, raters=[*PANEL, "tool"], units_by_raters=True
    )
    assert cross_entropy(ratings, "tool", PANEL, smoothing=1.0) == pytest.approx((math.log(2) + math.log(3)) / 2)


def random_ratings(seed, units=60):
    rng = np.random.default_rng(seed)
    labels = rng.choice(SENTIMENT, size=(units, 5))
    return Ratings.from_labels(labels, categories=SENTIMENT, raters=["tool", "a", "b", "c", "d"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mean_kappa_is_the_mean_of_scikit_learn_kappas(seed):
    ratings = random_ratings(seed)
    labels = ratings.labels()
    expected = np.mean([cohen_kappa_score(labels["tool"], labels[m]) for m in "abcd"])
    assert mean_cohen_kappa(ratings, "tool", list("abcd")) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("units, panel", [(40, "abcd"), (400, "ab")])
def test_bootstrap_of_both_scores_equals_a_per_draw_loop(units, panel):
    # 40 units of 5 raters: nearly every row of codes distinct (drawn as the numpy
    # scheme's units); 400 units of 3 raters: at most 27 rows (drawn by a multinomial)
    ratings = random_ratings(5, units=units).select(["tool", *panel])
    labels = ratings.labels()
    statistics = [
        mean_kappa_statistic(ratings, "tool", list(panel)),
        cross_entropy_statistic(ratings, "tool", list(panel), 1.0),
    ]
    assert statistics[0].rows().drawn_by_multinomial() == (units == 400)
    draws = bootstrap(statistics, 50, seed=11)
    # both statistics are drawn over the ratings' rows of codes: the same resamples
    indices = resample_indices(statistics[0], 50, seed=11)
    assert np.array_equal(indices, resample_indices(statistics[1], 50, seed=11))
    distribution = label_distribution(ratings.select(list(panel)).unit_counts(), 1.0)
    tool = ratings.codes[:, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loop_kappa = [
            np.mean([cohen_kappa_score(labels["tool"].iloc[i], labels[m].iloc[i]) for m in panel]) for i in indices
        ]
    loop_entropy = [-np.mean(np.log(distribution[i, tool[i]])) for i in indices]
    assert draws[0] == pytest.approx(loop_kappa, abs=1e-12)
    assert draws[1] == pytest.approx(loop_entropy, abs=1e-12)


def test_mean_kappa_is_undefined_when_a_member_kappa_is():
    constant = Ratings.from_labels(
        np.array([["neutral"] * 3] * 4, dtype=object), categories=SENTIMENT, raters=["tool", "a", "b"]
    )
    value = mean_cohen_kappa(constant, "tool", ["a", "b"])
    assert isinstance(value, Undefined) and "tool with a, b" in value.reason
