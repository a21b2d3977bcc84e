"""Property tests: invariances, bounds, agreement with the reference libraries
(krippendorff, statsmodels, scikit-learn, irrCAC) to 1e-12 and the vectorised bootstrap
against a naive loop, on random units x raters code matrices."""

from __future__ import annotations

import math
import warnings

import irrCAC.raw
import irrCAC.table
import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

from reagree.stats import multirater, pairwise
from reagree.stats.alpha import LEVELS, alpha_statistic, krippendorff_alpha
from reagree.stats.bootstrap import bootstrap, draw_rows, evaluate_indices
from reagree.stats.pairtables import pair_tables
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.rows import row_ids, unique_rows

SETTINGS = settings(
    max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
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
    seed = draw(st.integers(0, 2**32 - 1))
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
    names = data.draw(
        st.lists(st.text(min_size=1, max_size=4), min_size=k, max_size=k, unique=True).filter(
            lambda xs: all(x.strip() for x in xs)
        )
    )
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
@given(data=st.data(), scale=st.floats(0.01, 100, allow_nan=False), shift=st.floats(-1000, 1000, allow_nan=False))
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
# reagree computes every coefficient from its own sufficient statistics; these hold each
# one against the field's libraries to 1e-12 (LIBRARY).

LIBRARY = 1e-12


def irrcac(module, method: str, frame: pd.DataFrame, **kwargs) -> dict:
    """An irrCAC coefficient, unrounded (digits=20); NaN values where it divides by zero."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return getattr(module.CAC(frame, digits=20, **kwargs), method)()["est"]
        except (ValueError, ZeroDivisionError):
            return {"coefficient_value": math.nan, "pa": math.nan}


def finite_or_nan(value) -> float:
    value = float(value)
    return value if math.isfinite(value) else math.nan


@SETTINGS
@given(r=ratings(numeric=True))
def test_alpha_equals_krippendorff_package(r):
    counts = r.unit_counts()
    for level in LEVELS:
        domain = np.array(r.categories, dtype=float)
        reference = quiet(
            krippendorff.alpha,
            reliability_data=coders_by_units(r, domain),
            value_domain=domain,
            level_of_measurement=level,
        )
        assert_same(krippendorff_alpha(r, level), reference, LIBRARY, what=level)
        from_counts = quiet(krippendorff.alpha, value_counts=counts, value_domain=domain, level_of_measurement=level)
        assert_same(krippendorff_alpha(counts, level, values=domain), from_counts, LIBRARY, what=f"{level} counts")


@SETTINGS
@given(r=ratings())
def test_fleiss_kappa_equals_statsmodels(r):
    counts = complete_counts(r)
    reference = quiet(inter_rater.fleiss_kappa, counts, method="fleiss") if len(counts) else math.nan
    assert_same(multirater.fleiss_kappa(counts), reference, LIBRARY)


@SETTINGS
@given(r=ratings())
def test_fleiss_category_kappa_equals_statsmodels_on_category_vs_rest(r):
    counts = complete_counts(r)
    if not len(counts):
        return
    m = counts.sum(axis=1)
    for j in range(counts.shape[1]):
        collapsed = np.column_stack([counts[:, j], m - counts[:, j]])
        reference = quiet(inter_rater.fleiss_kappa, collapsed, method="fleiss")
        assert_same(multirater.fleiss_category_kappa(counts, j), reference, LIBRARY, what=str(j))


@SETTINGS
@given(data=st.data())
def test_cohen_kappa_equals_sklearn_and_statsmodels(data):
    r = data.draw(ratings())
    a, b = data.draw(st.permutations(r.raters))[:2]
    x, y = r.codes[:, r.raters.index(a)], r.codes[:, r.raters.index(b)]
    both = (x != MISSING) & (y != MISSING)
    table = pairwise.contingency_table(r, a, b)
    for weights in pairwise.WEIGHTS:
        ours = pairwise.cohen_kappa(r, weights=weights, raters=(a, b))
        sklearn = quiet(cohen_kappa_score, x[both], y[both], labels=list(range(r.n_categories)), weights=weights)
        statsmodels = quiet(inter_rater.cohens_kappa, table, wt=weights, return_results=False)
        assert_same(ours, sklearn, LIBRARY, what=f"{weights} sklearn")
        assert_same(ours, finite_or_nan(statsmodels), LIBRARY, what=f"{weights} statsmodels")
        assert_same(pairwise.cohen_kappa(table, weights=weights), ours, LIBRARY, what=f"{weights} table")


@SETTINGS
@given(r=ratings())
def test_ac1_brennan_prediger_and_agreement_equal_irrcac(r):
    frame = pd.DataFrame(np.where(r.codes == MISSING, np.nan, r.codes.astype(float)))
    categories = [float(c) for c in range(r.n_categories)]
    counts = r.unit_counts()
    gwet = irrcac(irrCAC.raw, "gwet", frame, categories=categories)
    bp = irrcac(irrCAC.raw, "bp", frame, categories=categories)
    assert_same(multirater.gwet_ac1(counts), finite_or_nan(gwet["coefficient_value"]), LIBRARY, what="ac1")
    assert_same(multirater.brennan_prediger(counts), finite_or_nan(bp["coefficient_value"]), LIBRARY, what="bp")
    assert_same(multirater.percent_agreement(counts), finite_or_nan(gwet["pa"]), LIBRARY, what="agreement")


@SETTINGS
@given(data=st.data())
def test_two_rater_table_coefficients_equal_irrcac(data):
    r = data.draw(ratings())
    a, b = data.draw(st.permutations(r.raters))[:2]
    table = pairwise.contingency_table(r, a, b)
    if table.sum() == 0:
        return
    frame = pd.DataFrame(table)
    coefficients = pairwise.table_coefficients(table)
    expected = {
        "kappa": irrcac(irrCAC.table, "cohen", frame),
        "scott_pi": irrcac(irrCAC.table, "scott", frame),
        "ac1": irrcac(irrCAC.table, "gwet", frame),
        "pabak": irrcac(irrCAC.table, "bp", frame),
    }
    for name, reference in expected.items():
        assert_same(coefficients[name], finite_or_nan(reference["coefficient_value"]), LIBRARY, what=name)
    assert_same(pairwise.scott_pi(r, raters=(a, b)), coefficients["scott_pi"], LIBRARY, what="scott from ratings")


@SETTINGS
@given(r=ratings())
def test_specific_agreement_equals_counting_rater_pairs(r):
    # by enumeration: of all ordered pairs of two different raters who both labelled a
    # unit, in which the first said k, the share in which the second said k too
    agree, said = np.zeros(r.n_categories), np.zeros(r.n_categories)
    for row in r.codes:
        given = [c for c in row if c != MISSING]
        for i, first in enumerate(given):
            for j, second in enumerate(given):
                if i != j:
                    said[first] += 1
                    agree[first] += first == second
    ours = multirater.specific_agreement(r.unit_counts())
    for k in range(r.n_categories):
        assert_same(ours[k], agree[k] / said[k] if said[k] else math.nan, LIBRARY, what=str(k))
        assert_same(multirater.specific_agreement(r.unit_counts(), category=k), ours[k], 0, what=f"{k} alone")


# ----------------------------------------------------------------- bootstrap vs naive loop


def random_indices(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(int(rng.integers(1, 12)), n))


@FAST
@given(r=ratings(numeric=True), seed=st.integers(0, 2**32 - 1))
def test_alpha_indices_equal_naive_loop(r, seed):
    indices = random_indices(seed, r.n_units)
    for level in LEVELS:
        values = values_of(r, level)
        data = coders_by_units(r, values)
        vectorised = evaluate_indices([alpha_statistic(r, level)], indices)[0]
        for row, value in zip(indices, vectorised):
            naive = quiet(
                krippendorff.alpha, reliability_data=data[:, row], value_domain=values, level_of_measurement=level
            )
            if math.isnan(naive):  # the library raises or has 0/0 on a one-value resample
                continue
            assert_same(value, naive, tol=1e-12, what=level)


@FAST
@given(r=ratings(), seed=st.integers(0, 2**32 - 1))
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
@given(r=ratings(), seed=st.integers(0, 2**32 - 1))
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
@given(r=ratings(), seed=st.integers(0, 2**32 - 1))
def test_multirater_indices_equal_point_estimates_on_resamples(r, seed):
    indices = random_indices(seed, r.n_units)
    functions = (multirater.percent_agreement, multirater.gwet_ac1, multirater.brennan_prediger)
    counts = r.unit_counts()
    statistics = [
        multirater.percent_agreement_statistic(counts),
        multirater.gwet_ac1_statistic(counts),
        multirater.brennan_prediger_statistic(counts),
    ]
    vectorised = evaluate_indices(statistics, indices)
    for j, row in enumerate(indices):
        for i, function in enumerate(functions):
            assert_same(vectorised[i, j], function(counts[row]), tol=1e-12, what=function.__name__)


# ----------------------------------------------------------------- the default scheme vs a naive loop
# Each draw of the default scheme is a count of units per row of codes; written out as a
# resample (row r's first unit, repeated by its count), the libraries compute each draw.


def written_out(statistic, draws: int, seed: int) -> np.ndarray:
    rows, counts = draw_rows(statistic, draws, seed)
    assert (counts.sum(axis=1) == rows.n_units).all()
    return [np.repeat(rows.first, row) for row in counts]


@FAST
@given(r=ratings(numeric=True), seed=st.integers(0, 2**32 - 1))
def test_default_scheme_alpha_draws_equal_naive_loop(r, seed):
    for level in LEVELS:
        values = values_of(r, level)
        data = coders_by_units(r, values)
        statistic = alpha_statistic(r, level)
        for index, value in zip(written_out(statistic, 8, seed), bootstrap([statistic], 8, seed)[0]):
            naive = quiet(
                krippendorff.alpha, reliability_data=data[:, index], value_domain=values, level_of_measurement=level
            )
            if math.isnan(naive):  # the library raises or has 0/0 on a one-value resample
                continue
            assert_same(value, naive, tol=1e-12, what=level)


@FAST
@given(r=ratings(), seed=st.integers(0, 2**32 - 1))
def test_default_scheme_fleiss_and_cohen_draws_equal_naive_loop(r, seed):
    counts = complete_counts(r)
    if len(counts):
        statistic = multirater.fleiss_statistic(counts)
        for index, value in zip(written_out(statistic, 8, seed), bootstrap([statistic], 8, seed)[0]):
            assert_same(value, quiet(inter_rater.fleiss_kappa, counts[index], method="fleiss"), tol=1e-12)
    x, y = r.codes[:, 0], r.codes[:, 1]
    statistic = pairwise.cohen_statistic(r, r.raters[0], r.raters[1])
    for index, value in zip(written_out(statistic, 8, seed), bootstrap([statistic], 8, seed)[0]):
        both = (x[index] != MISSING) & (y[index] != MISSING)
        naive = quiet(cohen_kappa_score, x[index][both], y[index][both], labels=list(range(r.n_categories)))
        assert_same(value, naive, tol=1e-12)


# ----------------------------------------------------------------- distinct rows and pair tables


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 300),
    d=st.integers(1, 40),
    high=st.sampled_from([1, 2, 5, 1000, 2**40]),
    as_float=st.booleans(),
)
def test_unique_rows_equals_numpy_unique(seed, n, d, high, as_float):
    # wide rows with many values each force the key to be folded (2**62 bound) on the way
    matrix = np.random.default_rng(seed).integers(-1, high, size=(n, d))
    if as_float:
        matrix = matrix.astype(float)
    expected = np.unique(matrix, axis=0, return_index=True, return_inverse=True)
    rows, first, inverse = unique_rows(matrix)
    assert np.array_equal(rows, expected[0]) and rows.dtype == expected[0].dtype
    assert np.array_equal(first, expected[1]) and np.array_equal(inverse, expected[2].reshape(-1))
    ids, first_seen = row_ids(matrix)
    assert np.array_equal(ids[first_seen], np.arange(first_seen.size))  # numbered by first appearance
    assert np.array_equal(first_seen, np.sort(first_seen))
    # two rows share an id exactly when numpy puts them at the same unique row
    assert np.array_equal(expected[2].reshape(-1)[first_seen][ids], expected[2].reshape(-1))
    assert np.unique(expected[2].reshape(-1)[first_seen]).size == first_seen.size


def test_unique_rows_refuses_fractions_and_row_ids_takes_them():
    with pytest.raises(ValueError, match="whole numbers"):
        unique_rows(np.array([[0.5, 1.0], [1.0, 1.0]]))
    with pytest.raises(ValueError, match="whole numbers"):
        unique_rows(np.array([[np.nan, 1.0]]))
    ids, first = row_ids(np.array([[0.5, -0.0], [0.25, 0.0], [0.5, 0.0], [np.nan, 1.0], [np.nan, 1.0]]))
    assert ids.tolist() == [0, 1, 0, 2, 2] and first.tolist() == [0, 1, 3]


@SETTINGS
@given(r=ratings(max_raters=7))
def test_pair_tables_equal_each_pairs_contingency_table(r):
    tables = pair_tables(r)
    expected = [
        (a, b) for i, a in enumerate(r.raters) for b in r.raters[i + 1 :] if pairwise.contingency_table(r, a, b).sum()
    ]
    assert tables.pairs == expected
    for (a, b), table in zip(tables.pairs, tables.tables):
        assert np.array_equal(table, pairwise.contingency_table(r, a, b))
        assert np.array_equal(tables.table(b, a), table.T)


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_indices_single_value_resample_is_nan(level):
    r = Ratings(np.array([[0, 0, 0], [1, 2, 1], [0, 0, MISSING]]), (1, 2, 3), ("A", "B", "C"))
    values = evaluate_indices([alpha_statistic(r, level)], np.array([[0, 0, 2], [1, 0, 2]]))[0]
    assert math.isnan(values[0]) and np.isfinite(values[1])


# ----------------------------------------------------------------- more reference libraries
# Second opinions where the tests above hold a coefficient against one library only:
# Fleiss' kappa against irrCAC, Scott's pi and Brennan-Prediger against statsmodels,
# nominal and interval alpha against irrCAC's Krippendorff, weighted Cohen against irrCAC.


def codes_frame(r: Ratings, values: np.ndarray | None = None) -> pd.DataFrame:
    """irrCAC's raw layout: units x raters, NaN for missing, a number per category."""
    values = np.arange(r.n_categories, dtype=float) if values is None else values
    return pd.DataFrame(np.where(r.codes == MISSING, np.nan, values[np.maximum(r.codes, 0)]))


@SETTINGS
@given(r=ratings())
def test_fleiss_kappa_equals_irrcac(r):
    complete = r.complete()
    if complete.n_units < 2:  # irrCAC divides by n - 1 for its variance
        return
    categories = [float(c) for c in range(r.n_categories)]
    reference = irrcac(irrCAC.raw, "fleiss", codes_frame(complete), categories=categories)
    assert_same(multirater.fleiss_kappa(complete.unit_counts()), finite_or_nan(reference["coefficient_value"]), LIBRARY)


@SETTINGS
@given(r=ratings())
def test_brennan_prediger_equals_statsmodels_randolph(r):
    counts = complete_counts(r)
    if not len(counts):
        return
    reference = quiet(inter_rater.fleiss_kappa, counts, method="randolph")
    assert_same(multirater.brennan_prediger(counts), finite_or_nan(reference), LIBRARY)


@SETTINGS
@given(data=st.data())
def test_scott_pi_equals_statsmodels_fleiss_on_the_pairs_units(data):
    r = data.draw(ratings())
    a, b = data.draw(st.permutations(r.raters))[:2]
    pair = r.select([a, b]).complete()
    reference = quiet(inter_rater.fleiss_kappa, pair.unit_counts(), method="fleiss") if pair.n_units else math.nan
    assert_same(pairwise.scott_pi(r, raters=(a, b)), finite_or_nan(reference), LIBRARY)


@SETTINGS
@given(r=ratings(numeric=True))
def test_nominal_and_interval_alpha_equal_irrcac(r):
    if ((r.codes != MISSING).sum(axis=1) >= 2).sum() < 2:  # irrCAC divides by n - 1 for its variance
        return
    values = np.array(r.categories, dtype=float)
    frame = codes_frame(r, values)
    for level, weights in (("nominal", "identity"), ("interval", "quadratic")):
        reference = irrcac(irrCAC.raw, "krippendorff", frame, categories=list(values), weights=weights)
        assert_same(krippendorff_alpha(r, level), finite_or_nan(reference["coefficient_value"]), 1e-10, what=level)


@SETTINGS
@given(data=st.data())
def test_weighted_cohen_kappa_equals_irrcac(data):
    r = data.draw(ratings())
    a, b = data.draw(st.permutations(r.raters))[:2]
    table = pairwise.contingency_table(r, a, b)
    if table.sum() < 2:  # irrCAC divides by n - 1 for its variance
        return
    for weights, named in ((None, "identity"), ("linear", "linear"), ("quadratic", "quadratic")):
        reference = irrcac(irrCAC.table, "cohen", pd.DataFrame(table), weights=named)
        assert_same(
            pairwise.cohen_kappa(table, weights), finite_or_nan(reference["coefficient_value"]), LIBRARY, what=named
        )


# ----------------------------------------------------------------- tie rules (reagree.stats.majority)


@st.composite
def votes(draw):
    """Six-ish raters on the three-class bipolar scale; some cells and some units empty,
    many ties (few raters, few categories)."""
    n_units, n_raters = draw(st.integers(1, 40)), draw(st.integers(1, 7))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, (n_units, n_raters))
    codes[rng.random((n_units, n_raters)) < draw(st.sampled_from([0.0, 0.1, 0.3]))] = MISSING
    codes[rng.random(n_units) < 0.1] = MISSING  # some units nobody rated
    return Ratings(codes, ("negative", "neutral", "positive"), tuple(f"r{i}" for i in range(n_raters)))


def plurality_by_counting(r: Ratings) -> tuple[np.ndarray, list[set]]:
    """Per unit, counted here: the leaders (categories with the top count) and, when one
    leads alone, its code (MISSING for a tie or for nobody)."""
    winner, sides = np.full(r.n_units, MISSING), []
    for unit, row in enumerate(r.codes):
        tally = {c: int((row == c).sum()) for c in range(r.n_categories)}
        top = max(tally.values())
        leaders = {c for c, n in tally.items() if n == top} if top else set()
        sides.append(leaders)
        if len(leaders) == 1:
            winner[unit] = leaders.pop()
            sides[-1] = {int(winner[unit])}
    return winner, sides


@SETTINGS
@given(r=votes(), seed=st.integers(0, 2**32 - 1))
def test_every_tie_rule_labels_every_rated_unit_except_drop(r, seed):
    from reagree.stats.majority import majority_vote, random_majorities, tied_units

    winner, sides = plurality_by_counting(r)
    rated = np.array([bool(s) for s in sides])
    tied = np.array([len(s) >= 2 for s in sides])
    assert tied_units(r).tolist() == tied.tolist()
    labels = {rule: majority_vote(r, rule, seed=seed) for rule in ("drop", "neutral", "polar", "random")}
    for rule, got in labels.items():
        assert (got[~rated] == MISSING).all(), rule  # nobody rated: no label, any rule
        assert (got[rated & ~tied] == winner[rated & ~tied]).all(), rule  # untied: its plurality, any rule
        if rule == "drop":
            assert (got[tied] == MISSING).all()
        else:
            assert (got[rated] != MISSING).all(), rule
    for unit in np.flatnonzero(tied):
        assert labels["random"][unit] in sides[unit]
        assert labels["neutral"][unit] == 1
        polar_sides = sides[unit] - {1}
        assert labels["polar"][unit] == (polar_sides.pop() if len(polar_sides) == 1 else 1)
    assert random_majorities(r, 3, seed)[0].tolist() == labels["random"].tolist()


@SETTINGS
@given(r=votes(), category=st.sampled_from(["negative", "neutral", "positive"]))
def test_prefer_wins_the_ties_it_is_in_and_resolves_no_other(r, category):
    from reagree.stats.majority import majority_vote

    code = r.categories.index(category)
    winner, sides = plurality_by_counting(r)
    got = majority_vote(r, f"prefer:{category}")
    for unit, leaders in enumerate(sides):
        if len(leaders) >= 2:
            assert got[unit] == (code if code in leaders else MISSING)
        else:
            assert got[unit] == winner[unit]
