"""Tests of the bootstrap engine: determinism, shape, pairing, the distribution of the
multinomial-over-patterns draws, percentile intervals and blocked index evaluation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from reagree import multirater, pairwise, synthetic
from reagree.alpha import alpha_statistic
from reagree.bootstrap import UnitStatistic, bootstrap, evaluate_indices, percentile_interval
from reagree.ratings import Ratings


@pytest.fixture(scope="module")
def intent() -> Ratings:
    """The synthetic support-desk fixture, 200 units, coders A, B, C, ~7% missing."""
    units, _ = synthetic.intent_round(seed=7, n_items=200)
    return Ratings.from_labels(pd.DataFrame(units), categories=synthetic.LABELS)


@pytest.fixture(scope="module")
def statistics(intent):
    counts = intent.unit_counts()
    return [
        alpha_statistic(intent, "nominal"),
        multirater.percent_agreement_statistic(counts),
        multirater.gwet_ac1_statistic(counts),
        pairwise.cohen_statistic(intent, "A", "B"),
    ]


# ----------------------------------------------------------------- determinism and shape

def test_same_seed_same_draws(statistics):
    first = bootstrap(statistics, draws=300, seed=42)
    second = bootstrap(statistics, draws=300, seed=42)
    assert first.shape == (len(statistics), 300)
    assert np.array_equal(first, second, equal_nan=True)


def test_different_seeds_differ(statistics):
    assert not np.array_equal(bootstrap(statistics, 300, seed=1), bootstrap(statistics, 300, seed=2), equal_nan=True)


def test_shape_single_statistic_and_single_draw(statistics):
    assert bootstrap(statistics[:1], draws=1, seed=0).shape == (1, 1)
    assert bootstrap(statistics[:2], draws=7, seed=0).shape == (2, 7)


def test_invalid_arguments(statistics, intent):
    with pytest.raises(ValueError, match="draws"):
        bootstrap(statistics, draws=0, seed=0)
    other = multirater.percent_agreement_statistic(intent.subset(np.arange(50)).unit_counts())
    with pytest.raises(ValueError, match="share their units"):
        bootstrap([statistics[0], other], draws=10, seed=0)


# ----------------------------------------------------------------- pairing

def test_paired_statistics_share_draws(statistics):
    s = statistics[0]
    out = bootstrap([s, s], draws=500, seed=3)
    assert np.array_equal(out[0], out[1], equal_nan=True)


def test_paired_rows_are_pairs_of_one_resample(intent):
    # percent agreement and Brennan-Prediger read the same sums, so on a shared resample
    # BP = (P_o - 1/K) / (1 - 1/K) holds draw by draw
    counts = intent.unit_counts()
    k = intent.n_categories
    out = bootstrap([multirater.percent_agreement_statistic(counts), multirater.brennan_prediger_statistic(counts)],
                    draws=500, seed=4)
    np.testing.assert_allclose(out[1], (out[0] - 1 / k) / (1 - 1 / k), rtol=0, atol=1e-12)


# ----------------------------------------------------------------- distribution of the draws

def test_bootstrap_mean_of_percent_agreement_is_near_the_estimate(intent):
    statistic = multirater.percent_agreement_statistic(intent.unit_counts())
    values = bootstrap([statistic], draws=4000, seed=2024)[0]
    assert np.isfinite(values).all()
    assert abs(values.mean() - statistic.estimate()) < 0.01


def test_multinomial_draws_match_index_draws_in_distribution(intent):
    statistic = multirater.percent_agreement_statistic(intent.unit_counts())
    multinomial = bootstrap([statistic], draws=4000, seed=5)[0]
    rng = np.random.default_rng(6)
    indexed = evaluate_indices([statistic], rng.integers(0, intent.n_units, size=(4000, intent.n_units)))[0]
    assert abs(multinomial.mean() - indexed.mean()) < 0.005
    assert 0.9 < multinomial.std() / indexed.std() < 1.1


def test_identical_units_give_a_constant_bootstrap():
    statistic = UnitStatistic("mean", np.tile([[1.0, 0.25]], (30, 1)), lambda t: t[:, 1] / t[:, 0])
    values = bootstrap([statistic], draws=200, seed=0)[0]
    assert np.allclose(values, 0.25, rtol=0, atol=1e-15)


def test_bootstrap_resamples_n_units(intent):
    # the first column of the percent-agreement statistic counts pairable units;
    # with a column of ones the finish exposes the resample size itself
    size = UnitStatistic("size", np.ones((intent.n_units, 1)), lambda t: t[:, 0])
    assert (bootstrap([size], draws=100, seed=0)[0] == intent.n_units).all()


# ----------------------------------------------------------------- percentile interval

def test_percentile_interval_order_statistics():
    assert percentile_interval(np.arange(2000), 0.95) == (49.0, 1949.0)
    assert percentile_interval(np.arange(2000)[::-1].copy(), 0.95) == (49.0, 1949.0)


def test_percentile_interval_drops_nan():
    values = np.concatenate([np.arange(2000, dtype=float), np.full(37, np.nan)])
    np.random.default_rng(0).shuffle(values)
    assert percentile_interval(values, 0.95) == (49.0, 1949.0)


def test_percentile_interval_all_nan():
    low, high = percentile_interval(np.full(10, np.nan))
    assert math.isnan(low) and math.isnan(high)
    low, high = percentile_interval(np.array([]))
    assert math.isnan(low) and math.isnan(high)


def test_percentile_interval_single_value():
    assert percentile_interval(np.array([0.3]), 0.95) == (0.3, 0.3)


# ----------------------------------------------------------------- evaluate_indices

def test_evaluate_indices_block_size_does_not_matter(statistics, intent):
    rng = np.random.default_rng(11)
    indices = rng.integers(0, intent.n_units, size=(50, intent.n_units))
    whole = evaluate_indices(statistics, indices)
    blocked = evaluate_indices(statistics, indices, block=3)
    assert whole.shape == blocked.shape == (len(statistics), 50)
    np.testing.assert_allclose(blocked, whole, rtol=0, atol=1e-12, equal_nan=True)


def test_evaluate_indices_identity_resample_is_the_estimate(statistics, intent):
    out = evaluate_indices(statistics, np.arange(intent.n_units)[None, :])[:, 0]
    for statistic, value in zip(statistics, out):
        assert value == pytest.approx(statistic.estimate(), abs=1e-12)
