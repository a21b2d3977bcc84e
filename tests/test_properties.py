"""Property tests: invariances, bounds, agreement with the reference libraries
(krippendorff, statsmodels, scikit-learn) and the vectorised bootstrap against a naive
loop, on random units x raters code matrices."""

from __future__ import annotations

import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

from reagree import multirater, pairwise
from reagree.alpha import LEVELS, alpha_statistic, krippendorff_alpha
from reagree.bootstrap import evaluate_indices
from reagree.ratings import MISSING, Ratings

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
FAST = settings(SETTINGS, max_examples=50)


# ----------------------------------------------------------------- strategy and helpers

@st.composite
def ratings(draw, numeric: bool = False, min_raters: int = 2, max_raters: int = 5):
    """Units x raters codes: a latent label per unit, each rater copies it with some
    probability or guesses, some cells missing. Categories are distinct increasing
    positive numbers (numeric=True) or strings."""
    n_raters = draw(st.integers(min_raters, max_raters))
    n_units = draw(st.integers(5, 60))
    k = draw(st.integers(2, 5))
    agreement = draw(st.sampled_from([0.0, 0.3, 0.6, 0.9, 1.0]))
    missing = draw(st.sampled_from([0.0, 0.05, 0.2, 0.4]))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_units)
    copy = rng.random((n_units, n_raters)) < agreement
    codes = np.where(copy, truth[:, None], rng.integers(0, k, (n_units, n_raters)))
    codes[rng.random((n_units, n_raters)) < missing] = MISSING
    if numeric:
        categories = tuple(sorted(draw(st.lists(st.integers(1, 100), min_size=k, max_size=k, unique=True))))
    else:
        categories = tuple(f"cat{i}" for i in range(k))
    return Ratings(codes.astype(np.int64), categories, tuple(f"r{i}" for i in range(n_raters)))


def same(a, b, tol: float = 1e-9) -> bool:
    """Equal within ``tol``, NaN equal to NaN."""
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


def assert_same(a, b, tol: float = 1e-9, what: str = "") -> None:
    assert same(a, b, tol), f"{what}: {a!r} != {b!r}"


def quiet(function, *args, **kwargs) -> float:
    """Reference-library value, NaN where the library raises or divides 0 by 0."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return float(function(*args, **kwargs))
        except ValueError:
            return math.nan


def complete_counts(r: Ratings) -> np.ndarray:
    return r.complete().unit_counts()


def fleiss(r: Ratings) -> float:
    return multirater.fleiss_kappa(complete_counts(r))


def cohen(r: Ratings, a: str, b: str, weights=None) -> float:
    return pairwise.cohen_kappa(pairwise.contingency_table(r, a, b), weights=weights)


def values_of(r: Ratings, level: str) -> np.ndarray:
    if level in ("nominal", "ordinal"):
        return np.arange(r.n_categories, dtype=float)
    return np.array(r.categories, dtype=float)


def coders_by_units(r: Ratings, values: np.ndarray) -> np.ndarray:
    """The krippendorff package's layout: coders x units, NaN for missing."""
    return np.where(r.codes == MISSING, np.nan, values[np.maximum(r.codes, 0)]).T


def all_coefficients(r: Ratings) -> dict[str, float]:
    out = {f"alpha[{level}]": krippendorff_alpha(r, level) for level in LEVELS}
    counts = r.unit_counts()
    out["fleiss"] = fleiss(r)
    out["ac1"] = multirater.gwet_ac1(counts)
    out["brennan_prediger"] = multirater.brennan_prediger(counts)
    out["percent_agreement"] = multirater.percent_agreement(counts)
    return out


# ----------------------------------------------------------------- invariances

@SETTINGS
@given(data=st.data())
def test_invariant_under_permuting_raters(data):
    r = data.draw(ratings(numeric=True))
    order = data.draw(st.permutations(range(r.n_raters)))
    shuffled = Ratings(r.codes[:, order], r.categories, tuple(r.raters[i] for i in order))
    before, after = all_coefficients(r), all_coefficients(shuffled)
    for name in before:
        assert_same(before[name], after[name], what=name)
    a, b = r.raters[0], r.raters[1]
    for weights in pairwise.WEIGHTS:
        kappa = cohen(r, a, b, weights)
        assert_same(kappa, cohen(shuffled, a, b, weights), what=f"cohen[{weights}]")
        assert_same(kappa, cohen(r, b, a, weights), what=f"cohen[{weights}] swapped")


@SETTINGS
@given(data=st.data())
def test_nominal_coefficients_invariant_under_renaming_categories(data):
    r = data.draw(ratings())
    k = r.n_categories
    perm = np.array(data.draw(st.permutations(range(k))))  # old code c -> new code perm[c]
    names = data.draw(st.lists(st.text(min_size=1, max_size=4), min_size=k, max_size=k, unique=True)
                      .filter(lambda xs: all(x.strip() for x in xs)))
    categories = [None] * k
    for old, new in enumerate(perm):
        categories[new] = names[old]
    renamed = Ratings(np.where(r.codes == MISSING, MISSING, perm[np.maximum(r.codes, 0)]), tuple(categories), r.raters)

    assert_same(krippendorff_alpha(r, "nominal"), krippendorff_alpha(renamed, "nominal"), what="alpha")
    assert_same(fleiss(r), fleiss(renamed), what="fleiss")
    a, b = r.raters[:2]
    assert_same(cohen(r, a, b), cohen(renamed, a, b), what="cohen")
    before, after = r.unit_counts(), renamed.unit_counts()
    for name in ("gwet_ac1", "percent_agreement", "brennan_prediger"):
        function = getattr(multirater, name)
        assert_same(function(before), function(after), what=name)
    specific_before = multirater.specific_agreement(before)
    specific_after = multirater.specific_agreement(after)
    for old in range(k):
        assert_same(specific_before[old], specific_after[perm[old]], what=f"specific[{old}]")


@SETTINGS
@given(data=st.data())
def test_ordinal_alpha_invariant_under_order_preserving_renaming(data):
    r = data.draw(ratings(numeric=True))
    k = r.n_categories
    new = tuple(sorted(data.draw(st.lists(st.integers(-1000, 1000), min_size=k, max_size=k, unique=True))))
    renamed = Ratings(r.codes, new, r.raters)
    ordinal = krippendorff_alpha(r, "ordinal")
    assert_same(ordinal, krippendorff_alpha(renamed, "ordinal"), what="renamed")
    # reversing the order is also order-preserving up to direction: the ordinal metric is symmetric
    reversed_codes = np.where(r.codes == MISSING, MISSING, k - 1 - r.codes)
    reversed_ = Ratings(reversed_codes, tuple(reversed(r.categories)), r.raters)
    assert_same(ordinal, krippendorff_alpha(reversed_, "ordinal"), what="reversed")


def test_ordinal_alpha_depends_on_category_order():
    # order-changing renaming does change ordinal alpha (and not nominal alpha)
    codes = np.array([[0, 1], [1, 2], [2, 2], [0, 0], [1, 1], [2, 1], [0, 1]])
    r = Ratings(codes, ("lo", "mid", "hi"), ("A", "B"))
    swapped = Ratings(np.array([0, 2, 1])[codes], ("lo", "hi", "mid"), ("A", "B"))
    assert not same(krippendorff_alpha(r, "ordinal"), krippendorff_alpha(swapped, "ordinal"))
    assert same(krippendorff_alpha(r, "nominal"), krippendorff_alpha(swapped, "nominal"))


@SETTINGS
@given(data=st.data(),
       scale=st.floats(0.01, 100, allow_nan=False),
       shift=st.floats(-1000, 1000, allow_nan=False))
def test_interval_alpha_invariant_under_increasing_affine_maps(data, scale, shift):
    r = data.draw(ratings(numeric=True))
    moved = Ratings(r.codes, tuple(scale * v + shift for v in r.categories), r.raters)
    assert_same(krippendorff_alpha(r, "interval"), krippendorff_alpha(moved, "interval"), what="interval")
    scaled = Ratings(r.codes, tuple(scale * v for v in r.categories), r.raters)
    assert_same(krippendorff_alpha(r, "ratio"), krippendorff_alpha(scaled, "ratio"), what="ratio")


# ----------------------------------------------------------------- bounds

@SETTINGS
@given(r=ratings(numeric=True))
def test_bounds(r):
    counts = r.unit_counts()
    tol = 1e-12
    agreement = multirater.percent_agreement(counts)
    assert math.isnan(agreement) or -tol <= agreement <= 1 + tol
    for level in LEVELS:
        alpha = krippendorff_alpha(r, level)
        assert math.isnan(alpha) or alpha <= 1 + tol, level
    for weights in pairwise.WEIGHTS:
        kappa = cohen(r, r.raters[0], r.raters[-1], weights)
        assert math.isnan(kappa) or kappa <= 1 + tol, weights
    for value in (fleiss(r), multirater.gwet_ac1(counts), multirater.brennan_prediger(counts)):
        assert math.isnan(value) or value <= 1 + tol
    for value in multirater.specific_agreement(counts):
        assert math.isnan(value) or -tol <= value <= 1 + tol


# ----------------------------------------------------------------- reference libraries

@SETTINGS
@given(r=ratings(numeric=True))
def test_alpha_equals_krippendorff_package(r):
    for level in LEVELS:
        domain = values_of(r, level) if level != "ordinal" else np.array(r.categories, dtype=float)
        reference = quiet(krippendorff.alpha, reliability_data=coders_by_units(r, domain),
                          value_domain=domain, level_of_measurement=level)
        ours = krippendorff_alpha(r, level)
        assert_same(ours, reference, what=level)
        assert_same(alpha_statistic(r, level).estimate(), ours, what=f"{level} statistic")


@SETTINGS
@given(r=ratings())
def test_fleiss_statistic_equals_statsmodels(r):
    counts = complete_counts(r)
    reference = quiet(inter_rater.fleiss_kappa, counts, method="fleiss") if len(counts) else math.nan
    assert_same(multirater.fleiss_statistic(counts).estimate(), reference, what="statistic")
    assert_same(multirater.fleiss_kappa(counts), reference, what="fleiss_kappa")


@SETTINGS
@given(data=st.data())
def test_cohen_equals_sklearn(data):
    r = data.draw(ratings())
    a, b = data.draw(st.permutations(r.raters))[:2]
    x, y = r.codes[:, r.raters.index(a)], r.codes[:, r.raters.index(b)]
    both = (x != MISSING) & (y != MISSING)
    table = pairwise.contingency_table(r, a, b)
    for weights in pairwise.WEIGHTS:
        reference = quiet(cohen_kappa_score, x[both], y[both], labels=list(range(r.n_categories)), weights=weights)
        ours = pairwise.cohen_kappa(table, weights=weights)
        assert_same(ours, reference, what=str(weights))
        assert_same(pairwise.cohen_statistic(r, a, b, weights).estimate(), ours, what=f"{weights} statistic")


# ----------------------------------------------------------------- bootstrap vs naive loop

def random_indices(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(int(rng.integers(1, 12)), n))


@FAST
@given(r=ratings(numeric=True), seed=st.integers(0, 2 ** 32 - 1))
def test_alpha_indices_equal_naive_loop(r, seed):
    indices = random_indices(seed, r.n_units)
    for level in LEVELS:
        values = values_of(r, level)
        data = coders_by_units(r, values)
        vectorised = evaluate_indices([alpha_statistic(r, level)], indices)[0]
        for row, value in zip(indices, vectorised):
            naive = quiet(krippendorff.alpha, reliability_data=data[:, row], value_domain=values,
                          level_of_measurement=level)
            if math.isnan(naive):  # the library raises or has 0/0 on a one-value resample
                continue
            assert_same(value, naive, tol=1e-12, what=level)


@FAST
@given(r=ratings(), seed=st.integers(0, 2 ** 32 - 1))
def test_fleiss_indices_equal_naive_loop(r, seed):
    counts = complete_counts(r)
    if len(counts) == 0:
        return
    indices = random_indices(seed, len(counts))
    vectorised = evaluate_indices([multirater.fleiss_statistic(counts)], indices)[0]
    for row, value in zip(indices, vectorised):
        naive = quiet(inter_rater.fleiss_kappa, counts[row], method="fleiss")
        assert_same(value, naive, tol=1e-12)


@FAST
@given(r=ratings(), seed=st.integers(0, 2 ** 32 - 1))
def test_cohen_indices_equal_naive_loop(r, seed):
    a, b = r.raters[0], r.raters[1]
    x, y = r.codes[:, 0], r.codes[:, 1]
    indices = random_indices(seed, r.n_units)
    labels = list(range(r.n_categories))
    for weights in pairwise.WEIGHTS:
        vectorised = evaluate_indices([pairwise.cohen_statistic(r, a, b, weights)], indices)[0]
        for row, value in zip(indices, vectorised):
            xs, ys = x[row], y[row]
            both = (xs != MISSING) & (ys != MISSING)
            naive = quiet(cohen_kappa_score, xs[both], ys[both], labels=labels, weights=weights)
            assert_same(value, naive, tol=1e-12, what=str(weights))


@FAST
@given(r=ratings(), seed=st.integers(0, 2 ** 32 - 1))
def test_multirater_indices_equal_point_estimates_on_resamples(r, seed):
    indices = random_indices(seed, r.n_units)
    functions = (multirater.percent_agreement, multirater.gwet_ac1, multirater.brennan_prediger)
    counts = r.unit_counts()
    statistics = [multirater.percent_agreement_statistic(counts), multirater.gwet_ac1_statistic(counts),
                  multirater.brennan_prediger_statistic(counts)]
    vectorised = evaluate_indices(statistics, indices)
    for j, row in enumerate(indices):
        for i, function in enumerate(functions):
            assert_same(vectorised[i, j], function(counts[row]), tol=1e-12, what=function.__name__)


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_indices_single_value_resample_is_nan(level):
    r = Ratings(np.array([[0, 0, 0], [1, 2, 1], [0, 0, MISSING]]), (1, 2, 3), ("A", "B", "C"))
    values = evaluate_indices([alpha_statistic(r, level)], np.array([[0, 0, 2], [1, 0, 2]]))[0]
    assert math.isnan(values[0]) and np.isfinite(values[1])
