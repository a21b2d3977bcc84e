"""Tests of the bootstrap engine: the draws of both schemes (a plain numpy loop reproduces
them), their independence from company, each draw's value and the two interval schemes
against a naive loop over the reference libraries, the Interval record, pairing,
undefined draws and index draws."""

from __future__ import annotations

import itertools
import math

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

from reagree.stats import bootstrap as engine
from reagree.stats import multirater, pairwise
from reagree.stats.alpha import alpha_statistic
from reagree.stats.bootstrap import (
    Interval,
    UnitStatistic,
    bootstrap,
    bootstrap_interval,
    bootstrap_intervals,
    draw_indices,
    draw_rows,
    evaluate_indices,
    interval_from_draws,
    paired_difference,
    percentile_interval,
    resample_indices,
)
from reagree.stats.ratings import MISSING, Ratings
from reagree.pipeline.tables import value_row
from reagree.stats.undefined import reason_of


from agreement_before_accuracy import fixture as synthetic


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


def coders_by_units(ratings: Ratings) -> np.ndarray:
    """The krippendorff package's layout: coders x units, NaN for missing."""
    return np.where(ratings.codes == MISSING, np.nan, ratings.codes.astype(float)).T


# ----------------------------------------------------------------- the draws


@pytest.mark.parametrize("n", [1, 2, 7, 240, 241, 1001])
def test_draws_are_one_integers_call_per_draw(n, monkeypatch):
    # numpy's bit generator carries its state between calls, so blocks of draws give the
    # same stream as one rng.integers(0, n, size=n) per draw; small blocks force several
    rng = np.random.default_rng(123)
    loop = np.array([rng.integers(0, n, size=n) for _ in range(23)])
    assert np.array_equal(draw_indices(n, 23, 123), loop)
    monkeypatch.setattr(engine, "BLOCK_CELLS", 3 * n)
    assert np.array_equal(draw_indices(n, 23, 123), loop)


@pytest.mark.parametrize("scheme", ["percentile", "numpy"])
def test_block_size_does_not_change_values(statistics, monkeypatch, scheme):
    whole = bootstrap(statistics, 200, seed=9, scheme=scheme)
    monkeypatch.setattr(engine, "BLOCK_CELLS", 7 * statistics[0].n_units)
    np.testing.assert_allclose(
        bootstrap(statistics, 200, seed=9, scheme=scheme), whole, rtol=0, atol=1e-12, equal_nan=True
    )
    monkeypatch.setattr(engine, "BLOCK_CELLS", 1)  # one draw per block
    np.testing.assert_allclose(
        bootstrap(statistics, 200, seed=9, scheme=scheme), whole, rtol=0, atol=1e-12, equal_nan=True
    )


def test_numpy_scheme_is_evaluate_indices_on_its_draws(statistics):
    n = statistics[0].n_units
    np.testing.assert_allclose(
        bootstrap(statistics, 150, seed=4, scheme="numpy"),
        evaluate_indices(statistics, draw_indices(n, 150, 4)),
        rtol=0,
        atol=1e-12,
        equal_nan=True,
    )


def test_default_scheme_is_evaluate_indices_on_its_resamples(statistics):
    for statistic, values in zip(statistics, bootstrap(statistics, 150, seed=4)):
        np.testing.assert_allclose(
            values,
            evaluate_indices([statistic], resample_indices(statistic, 150, 4))[0],
            rtol=0,
            atol=1e-12,
            equal_nan=True,
        )


def first_appearance_rows(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sizes, first unit) of the distinct rows of ``codes`` in order of first appearance,
    by a plain dictionary."""
    seen: dict[tuple, int] = {}
    sizes, first = [], []
    for i, row in enumerate(map(tuple, codes.tolist())):
        if row not in seen:
            seen[row] = len(sizes)
            sizes.append(0)
            first.append(i)
        sizes[seen[row]] += 1
    return np.array(sizes), np.array(first)


@pytest.fixture(scope="module")
def large_intent() -> Ratings:
    """The same fixture with 2,400 units: at most 125 rows of codes, far fewer than a
    quarter of the units, so the default scheme draws them by a multinomial."""
    units, _ = synthetic.intent_round(seed=3, n_items=2400)
    return Ratings.from_labels(pd.DataFrame(units), categories=synthetic.LABELS)


def test_default_draws_are_one_multinomial_per_draw_over_the_rows_of_codes(large_intent, monkeypatch):
    statistic = alpha_statistic(large_intent, "nominal")
    rows, counts = draw_rows(statistic, 60, seed=5)
    sizes, first = first_appearance_rows(large_intent.codes)
    assert rows.sizes.tolist() == sizes.tolist() and rows.first.tolist() == first.tolist()
    assert rows.n_rows <= 125 and rows.drawn_by_multinomial()
    rng = np.random.default_rng(5)
    loop = np.array([rng.multinomial(large_intent.n_units, sizes / large_intent.n_units) for _ in range(60)])
    assert np.array_equal(counts, loop)
    monkeypatch.setattr(engine, "BLOCK_CELLS", 7 * rows.n_rows)
    assert np.array_equal(draw_rows(statistic, 60, seed=5)[1], loop)


def test_many_rows_are_drawn_as_the_numpy_schemes_units():
    # 125 units, every one its own row of codes: a multinomial over the rows would cost
    # more than drawing 125 indices, so the row counts are those of the numpy scheme's draws
    codes = np.array(list(itertools.product(range(-1, 4), repeat=3)))
    statistic = pairwise.cohen_statistic(Ratings(codes, ("a", "b", "c", "d"), ("A", "B", "C")), "A", "B")
    rows, counts = draw_rows(statistic, 40, seed=2)
    assert rows.n_rows == 125 and not rows.drawn_by_multinomial()
    expected = np.stack([np.bincount(index, minlength=125) for index in draw_indices(125, 40, 2)])
    assert np.array_equal(counts, expected)
    np.testing.assert_allclose(
        bootstrap([statistic], 40, 2)[0],
        bootstrap([statistic], 40, 2, scheme="numpy")[0],
        rtol=0,
        atol=1e-12,
        equal_nan=True,
    )


def test_statistics_of_one_ratings_share_its_rows_and_draws(large_intent):
    counts = large_intent.unit_counts()
    of_codes = [
        alpha_statistic(large_intent, "nominal"),
        pairwise.cohen_statistic(large_intent, "A", "C"),
        pairwise.scott_statistic(large_intent, "B", "C"),
    ]
    reference = draw_rows(of_codes[0], 30, seed=1)
    for statistic in of_codes[1:]:
        rows, drawn = draw_rows(statistic, 30, seed=1)
        assert np.array_equal(rows.ids, large_intent.rating_rows) and np.array_equal(drawn, reference[1])
    # counts know no raters: their rows are the count rows, fewer and coarser
    count_rows = multirater.percent_agreement_statistic(counts).rows()
    assert count_rows.n_rows < reference[0].n_rows
    assert np.array_equal(count_rows.sizes, first_appearance_rows(counts)[0])


def test_rating_rows_must_determine_the_sums(intent):
    cells = pairwise.cohen_statistic(intent, "A", "B")
    coarse = np.zeros(intent.n_units, dtype=np.int64)  # every unit one row: but their cells differ
    statistic = UnitStatistic("wrong", cells.per_unit, cells.finish, units=cells.units, rating_rows=coarse)
    with pytest.raises(ValueError, match="same rating row have different per-unit sums"):
        bootstrap([statistic], 10, 0)
    with pytest.raises(ValueError, match="one rating row per unit"):
        UnitStatistic("short", cells.per_unit, cells.finish, units=cells.units, rating_rows=coarse[:-1])


def test_same_seed_same_draws(statistics):
    first = bootstrap(statistics, draws=300, seed=42)
    assert first.shape == (len(statistics), 300)
    assert np.array_equal(first, bootstrap(statistics, draws=300, seed=42), equal_nan=True)


def test_different_seeds_differ(statistics):
    assert not np.array_equal(bootstrap(statistics, 300, seed=1), bootstrap(statistics, 300, seed=2), equal_nan=True)


def test_invalid_arguments(statistics, intent):
    with pytest.raises(ValueError, match="draws"):
        bootstrap(statistics, draws=0, seed=0)
    with pytest.raises(ValueError, match="draws"):
        bootstrap(statistics, draws=0, seed=0, scheme="numpy")
    with pytest.raises(ValueError, match="scheme"):
        bootstrap(statistics, 10, 0, scheme="bca")
    other = multirater.percent_agreement_statistic(intent.subset(np.arange(50)).unit_counts())
    with pytest.raises(ValueError, match="share their units"):
        bootstrap([statistics[0], other], draws=10, seed=0)
    with pytest.raises(ValueError, match="scheme"):
        bootstrap_interval(statistics[0], 10, 0, 0.95, scheme="bca")
    with pytest.raises(ValueError, match="level"):
        bootstrap_interval(statistics[0], 10, 0, level=95)
    with pytest.raises(ValueError, match="indices"):
        evaluate_indices(statistics, np.full((3, intent.n_units), intent.n_units))


# ----------------------------------------------------------------- independence from company


def test_interval_is_the_same_alone_or_in_company(statistics):
    for scheme in ("percentile", "numpy"):
        together = bootstrap_intervals(statistics, 500, seed=0, level=0.95, scheme=scheme)
        for statistic, bundled in zip(statistics, together):
            assert bootstrap_interval(statistic, 500, seed=0, level=0.95, scheme=scheme) == bundled
    rows = bootstrap(statistics, 300, seed=5)
    for i, statistic in enumerate(statistics):
        assert np.array_equal(bootstrap([statistic], 300, seed=5)[0], rows[i], equal_nan=True)
        assert np.array_equal(bootstrap([statistics[-1 - i], statistic], 300, seed=5)[1], rows[i], equal_nan=True)


def test_paired_statistics_share_draws(intent):
    # percent agreement and Brennan-Prediger read the same sums, so on a shared resample
    # BP = (P_o - 1/K) / (1 - 1/K) holds draw by draw
    counts = intent.unit_counts()
    k = intent.n_categories
    out = bootstrap(
        [multirater.percent_agreement_statistic(counts), multirater.brennan_prediger_statistic(counts)],
        draws=500,
        seed=4,
    )
    np.testing.assert_allclose(out[1], (out[0] - 1 / k) / (1 - 1 / k), rtol=0, atol=1e-12)


def test_interval_is_the_same_alone_or_in_company_of_statistics_of_other_rows(large_intent):
    # rows of codes, count rows, and the count rows of complete units (the others zeroed)
    counts = large_intent.unit_counts()
    company = [
        multirater.fleiss_statistic(np.where(counts.sum(axis=1, keepdims=True) == 3, counts, 0)),
        multirater.gwet_ac1_statistic(counts),
        alpha_statistic(large_intent, "nominal"),
        pairwise.cohen_statistic(large_intent, "A", "B"),
        multirater.percent_agreement_statistic(counts),
    ]
    rows = bootstrap(company, 200, seed=3)
    for i, statistic in enumerate(company):
        assert np.array_equal(bootstrap([statistic], 200, seed=3)[0], rows[i], equal_nan=True)
        assert np.array_equal(bootstrap(company[i:] + company[:i], 200, seed=3)[0], rows[i], equal_nan=True)


# ----------------------------------------------------------------- the schemes against a plain loop


def test_numpy_scheme_equals_a_plain_numpy_loop_over_krippendorff(intent):
    # the write-up's own code: one default_rng, one integers(0, n, size=n) per draw, the
    # reference library on each resample, np.percentile(values, [2.5, 97.5])
    data = coders_by_units(intent)
    domain = np.arange(intent.n_categories, dtype=float)
    n, draws, seed = intent.n_units, 300, 11
    rng = np.random.default_rng(seed)
    values = [
        krippendorff.alpha(
            reliability_data=data[:, rng.integers(0, n, size=n)], value_domain=domain, level_of_measurement="nominal"
        )
        for _ in range(draws)
    ]
    low, high = np.percentile(values, [2.5, 97.5])
    interval = bootstrap_interval(alpha_statistic(intent, "nominal"), draws, seed, 0.95, scheme="numpy")
    assert interval.low == pytest.approx(low, abs=1e-12)
    assert interval.high == pytest.approx(high, abs=1e-12)
    assert interval.scheme == "numpy; draws=300; seed=11; level=0.95"


def test_numpy_scheme_equals_a_plain_numpy_loop_over_statsmodels_fleiss(intent):
    counts = intent.complete().unit_counts()
    n, draws, seed, level = len(counts), 400, 3, 0.9
    rng = np.random.default_rng(seed)
    values = [inter_rater.fleiss_kappa(counts[rng.integers(0, n, size=n)], method="fleiss") for _ in range(draws)]
    low, high = np.percentile(values, [5, 95])
    interval = bootstrap_interval(multirater.fleiss_statistic(counts), draws, seed, level=level, scheme="numpy")
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12)
    assert interval.scheme == "numpy; draws=400; seed=3; level=0.9"


def test_percentile_scheme_is_the_order_statistics_of_a_plain_loop_over_sklearn(intent):
    a, b = intent.codes[:, 0], intent.codes[:, 1]
    draws, seed = 400, 8
    statistic = pairwise.cohen_statistic(intent, "A", "B")
    values = []
    for index in resample_indices(statistic, draws, seed):
        both = (a[index] != MISSING) & (b[index] != MISSING)
        values.append(cohen_kappa_score(a[index][both], b[index][both], labels=list(range(intent.n_categories))))
    ordered = np.sort(values)
    interval = bootstrap_interval(statistic, draws, seed, 0.95)
    # 400 draws at 95%: the ceil(400 * 0.025) = 10th and ceil(400 * 0.975) = 390th smallest
    assert interval.low == pytest.approx(ordered[9], abs=1e-12)
    assert interval.high == pytest.approx(ordered[389], abs=1e-12)
    assert interval.scheme == "percentile; draws=400; seed=8; level=0.95"
    assert (interval.level, interval.draws, interval.seed, interval.undefined_draws) == (0.95, 400, 8, 0)


# Each default-scheme draw against the reference library on the same counts: the draw's
# resample written out (row r's first unit, repeated by the row's count), one library
# call per draw.


def test_default_scheme_draws_equal_a_plain_loop_over_krippendorff(large_intent):
    statistic = alpha_statistic(large_intent, "nominal")
    assert statistic.rows().drawn_by_multinomial()
    data = coders_by_units(large_intent)
    domain = np.arange(large_intent.n_categories, dtype=float)
    loop = [
        krippendorff.alpha(reliability_data=data[:, index], value_domain=domain, level_of_measurement="nominal")
        for index in resample_indices(statistic, 60, 17)
    ]
    np.testing.assert_allclose(bootstrap([statistic], 60, 17)[0], loop, rtol=0, atol=1e-12)


def test_default_scheme_draws_equal_a_plain_loop_over_statsmodels_fleiss(large_intent):
    counts = large_intent.complete().unit_counts()
    statistic = multirater.fleiss_statistic(counts)
    assert statistic.rows().drawn_by_multinomial()
    loop = [inter_rater.fleiss_kappa(counts[index], method="fleiss") for index in resample_indices(statistic, 60, 2)]
    np.testing.assert_allclose(bootstrap([statistic], 60, 2)[0], loop, rtol=0, atol=1e-12)


def test_default_scheme_draws_equal_a_plain_loop_over_sklearn_cohen(large_intent):
    a, c = large_intent.codes[:, 0], large_intent.codes[:, 2]
    for weights in pairwise.WEIGHTS:
        statistic = pairwise.cohen_statistic(large_intent, "A", "C", weights)
        loop = []
        for index in resample_indices(statistic, 40, 6):
            both = (a[index] != MISSING) & (c[index] != MISSING)
            loop.append(cohen_kappa_score(a[index][both], c[index][both], labels=[0, 1, 2, 3], weights=weights))
        np.testing.assert_allclose(bootstrap([statistic], 40, 6)[0], loop, rtol=0, atol=1e-12)


def test_default_scheme_resamples_are_draws_of_n_units_in_proportion(large_intent):
    statistic = pairwise.cohen_statistic(large_intent, "A", "B")
    rows, counts = draw_rows(statistic, 4000, seed=0)
    assert (counts.sum(axis=1) == large_intent.n_units).all()
    # E[count of row r] = n * s_r / n = s_r, with standard error about sqrt(s_r / 4000)
    assert (np.abs(counts.mean(axis=0) - rows.sizes) <= 4 * np.sqrt(rows.sizes / 4000) + 0.05).all()


def test_bootstrap_mean_of_percent_agreement_is_near_the_estimate(intent):
    statistic = multirater.percent_agreement_statistic(intent.unit_counts())
    values = bootstrap([statistic], draws=4000, seed=2024)[0]
    assert np.isfinite(values).all()
    assert abs(values.mean() - statistic.value()) < 0.01


def test_identical_units_give_a_constant_bootstrap():
    statistic = UnitStatistic("mean", np.tile([[1.0, 0.25]], (30, 1)), lambda t: t[:, 1] / t[:, 0])
    assert np.allclose(bootstrap([statistic], draws=200, seed=0)[0], 0.25, rtol=0, atol=1e-15)


def test_bootstrap_resamples_n_units(intent):
    size = UnitStatistic("size", np.ones((intent.n_units, 1)), lambda t: t[:, 0])
    assert (bootstrap([size], draws=100, seed=0)[0] == intent.n_units).all()


# ----------------------------------------------------------------- tables as units


def test_a_table_of_counts_resamples_its_cells_as_units():
    table = np.array([[20, 5, 1], [3, 30, 4], [0, 6, 11]])
    k = table.shape[0]
    # the same units written out, in the table's row-major cell order
    cells = np.repeat(np.arange(k * k), table.ravel())
    ratings = Ratings(np.column_stack([cells // k, cells % k]), ("x", "y", "z"), ("A", "B"))
    for weights in pairwise.WEIGHTS:
        from_table = pairwise.cohen_statistic(table, weights=weights)
        from_units = pairwise.cohen_statistic(ratings, "A", "B", weights)
        assert from_table.n_units == from_units.n_units == table.sum()
        assert bootstrap_interval(from_table, 300, 1, 0.95) == bootstrap_interval(from_units, 300, 1, 0.95)


def test_a_table_of_proportions_has_a_value_but_no_bootstrap():
    shares = np.array([[0.4, 0.1], [0.05, 0.45]])
    statistic = pairwise.cohen_statistic(shares)
    assert statistic.value() == pytest.approx(pairwise.cohen_kappa(shares * 100), abs=1e-12)
    with pytest.raises(ValueError, match="proportions"):
        bootstrap([statistic], 10, 0)


# ----------------------------------------------------------------- undefined values and draws


def test_undefined_draws_are_counted_and_left_out():
    # Three units: two agree, one splits. A resample of agreeing units only has one value
    # in use: alpha is undefined there.
    ratings = Ratings(np.array([[0, 0], [1, 1], [0, 1]]), ("a", "b"), ("A", "B"))
    statistic = alpha_statistic(ratings, "nominal")
    indices = resample_indices(statistic, 500, 2)
    one_value = np.array([set(row.tolist()) in ({0}, {1}) for row in indices])
    values = bootstrap([statistic], 500, 2)[0]
    assert np.array_equal(np.isnan(values), one_value)
    # 39 of 500 (7.8%) are undefined: more than MAX_UNDEFINED_SHARE, so allow them all here
    interval = bootstrap_interval(statistic, 500, 2, 0.95, max_undefined_share=1.0)
    assert interval.undefined_draws == one_value.sum() > 0
    assert (interval.low, interval.high) == percentile_interval(values[~one_value], 0.95)
    row = value_row("alpha.tiny", statistic.value(), interval=interval)
    assert row["undefined_draws"] == interval.undefined_draws and row["scheme"] == interval.scheme


def test_all_draws_undefined_gives_undefined_ends_with_reason():
    ratings = Ratings(np.zeros((5, 2), dtype=np.int64), ("a", "b"), ("A", "B"))
    interval = bootstrap_interval(alpha_statistic(ratings, "nominal"), 50, 0, 0.95)
    assert math.isnan(interval.low) and math.isnan(interval.high)
    assert "every one of the 50" in reason_of(interval.low)
    assert interval.undefined_draws == 50


def test_value_carries_the_reason_and_estimate_is_its_alias():
    statistic = multirater.percent_agreement_statistic(np.array([[1, 0], [0, 1]]))
    assert math.isnan(statistic.value()) and reason_of(statistic.value()) == "no unit has two or more ratings"
    assert reason_of(statistic.estimate()) == reason_of(statistic.value())


# ----------------------------------------------------------------- paired difference


def test_paired_difference(intent):
    counts = intent.unit_counts()
    a, b = multirater.percent_agreement_statistic(counts), multirater.gwet_ac1_statistic(counts)
    estimate, interval = paired_difference(a, b, 400, seed=6, level=0.95)
    assert estimate == pytest.approx(b.value() - a.value(), abs=1e-15)
    values = bootstrap([a, b], 400, 6)
    assert interval == interval_from_draws(values[1] - values[0], 0.95, "percentile", seed=6)
    assert interval.scheme == "percentile; draws=400; seed=6; level=0.95"
    _, numpy_interval = paired_difference(a, b, 400, seed=6, level=0.95, scheme="numpy")
    numpy_values = bootstrap([a, b], 400, 6, scheme="numpy")
    assert numpy_interval.low == pytest.approx(np.percentile(numpy_values[1] - numpy_values[0], 2.5), abs=1e-12)


def test_paired_difference_draws_statistics_of_different_rows_over_the_same_units(large_intent):
    # the same percent agreement twice: over the count rows, and over the rows of codes.
    # Paired, every draw's difference is exactly 0; drawn apart, they would differ.
    counts = large_intent.unit_counts()
    by_counts = multirater.percent_agreement_statistic(counts)
    by_codes = UnitStatistic(
        "percent_agreement",
        by_counts.per_unit,
        by_counts.finish,
        units=by_counts.units,
        rating_rows=large_intent.rating_rows,
    )
    apart = bootstrap([by_counts, by_codes], 300, seed=1)
    assert not np.allclose(apart[0], apart[1])
    estimate, interval = paired_difference(by_counts, by_codes, 300, seed=1, level=0.95)
    assert estimate == 0 and (interval.low, interval.high) == (0.0, 0.0)


def test_paired_difference_of_an_undefined_value_is_undefined():
    counts = np.array([[2, 0], [2, 0], [2, 0]])
    estimate, _ = paired_difference(
        multirater.percent_agreement_statistic(counts), multirater.fleiss_statistic(counts), 20, seed=0, level=0.95
    )
    assert math.isnan(estimate) and "chance agreement is 1" in reason_of(estimate)


# ----------------------------------------------------------------- the interval record


def test_percentile_interval_order_statistics():
    assert percentile_interval(np.arange(2000), 0.95) == (49.0, 1949.0)
    assert percentile_interval(np.arange(2000)[::-1].copy(), 0.95) == (49.0, 1949.0)


def test_percentile_interval_drops_nan():
    values = np.concatenate([np.arange(2000, dtype=float), np.full(37, np.nan)])
    np.random.default_rng(0).shuffle(values)
    assert percentile_interval(values, 0.95) == (49.0, 1949.0)
    interval = interval_from_draws(values, 0.95, seed=0)
    assert (interval.low, interval.high, interval.draws, interval.undefined_draws) == (49.0, 1949.0, 2037, 37)


def test_percentile_interval_all_nan_and_single_value():
    low, high = percentile_interval(np.full(10, np.nan), 0.95)
    assert math.isnan(low) and math.isnan(high)
    assert percentile_interval(np.array([0.3]), 0.95) == (0.3, 0.3)


def test_numpy_ends_ask_numpy_for_exactly_the_printed_percentiles():
    values = np.random.default_rng(1).normal(size=2000)
    interval = interval_from_draws(values, 0.95, "numpy", seed=0)
    assert (interval.low, interval.high) == tuple(np.percentile(values, [2.5, 97.5]))


def test_interval_record_and_scheme_text():
    interval = interval_from_draws(np.arange(2000.0), 0.95, "percentile", seed=100000, name="python-random(100000+d)")
    assert isinstance(interval, Interval)
    assert interval.scheme == "python-random(100000+d); draws=2000; seed=100000; level=0.95"
    assert interval.width == 1900.0 and interval.ends == (49.0, 1949.0)
    assert interval.contains(1000.0) and not interval.contains(2.0)


# ----------------------------------------------------------------- evaluate_indices


def test_evaluate_indices_block_size_does_not_matter(statistics, intent):
    indices = np.random.default_rng(11).integers(0, intent.n_units, size=(50, intent.n_units))
    whole = evaluate_indices(statistics, indices)
    blocked = evaluate_indices(statistics, indices, block=3)
    assert whole.shape == blocked.shape == (len(statistics), 50)
    np.testing.assert_allclose(blocked, whole, rtol=0, atol=1e-12, equal_nan=True)


def test_evaluate_indices_identity_resample_is_the_value(statistics, intent):
    out = evaluate_indices(statistics, np.arange(intent.n_units)[None, :])[:, 0]
    for statistic, value in zip(statistics, out):
        assert value == pytest.approx(statistic.value(), abs=1e-12)


def test_evaluate_on_resample_counts_equals_evaluate_indices(statistics, intent):
    n = intent.n_units
    indices = draw_indices(n, 20, 3)
    counts = np.stack([np.bincount(row, minlength=n) for row in indices])
    for statistic, expected in zip(statistics, evaluate_indices(statistics, indices)):
        np.testing.assert_allclose(statistic.evaluate(counts), expected, rtol=0, atol=1e-12, equal_nan=True)
        assert statistic.evaluate(np.ones(n))[0] == pytest.approx(statistic.value(), abs=1e-12)


@pytest.mark.parametrize("scheme", ["percentile", "numpy"])
def test_mean_pairwise_cohen_draws_equal_a_plain_loop_over_sklearn(intent, scheme):
    """Light's kappa as one statistic over the distinct rows of codes (never an n-length
    array per pair): each draw is the mean of sklearn's kappa over the three pairs."""
    from reagree.stats.meanpairwise import mean_pairwise_cohen_statistic

    statistic = mean_pairwise_cohen_statistic(intent)
    draws = 40
    indices = (
        resample_indices(statistic, draws, 9) if scheme == "percentile" else draw_indices(intent.n_units, draws, 9)
    )
    codes = intent.codes
    loop = []
    for index in indices:
        kappas = []
        for i, j in itertools.combinations(range(3), 2):
            a, b = codes[index, i], codes[index, j]
            both = (a != MISSING) & (b != MISSING)
            kappas.append(cohen_kappa_score(a[both], b[both]))
        loop.append(np.mean(kappas))
    np.testing.assert_allclose(bootstrap([statistic], draws, 9, scheme=scheme)[0], loop, rtol=0, atol=1e-12)
    assert statistic.value() == pytest.approx(
        np.mean(
            [
                cohen_kappa_score(
                    codes[(codes[:, i] != MISSING) & (codes[:, j] != MISSING), i],
                    codes[(codes[:, i] != MISSING) & (codes[:, j] != MISSING), j],
                )
                for i, j in itertools.combinations(range(3), 2)
            ]
        ),
        abs=1e-12,
    )


def test_forgotten_rating_rows_are_found_again_with_the_same_draws():
    """``UnitStatistic.forget_rows`` frees the cached rows (the audit does, after each
    statistic's bootstrap); a later bootstrap finds the same rows, so the same draws."""
    counts = np.array([[3, 0], [2, 1], [1, 2], [3, 0], [0, 3], [2, 1]])
    statistic = multirater.fleiss_statistic(counts)
    first = bootstrap([statistic], 200, 5)
    statistic.forget_rows()
    assert statistic._pooled == {}
    assert np.array_equal(bootstrap([statistic], 200, 5), first, equal_nan=True)
