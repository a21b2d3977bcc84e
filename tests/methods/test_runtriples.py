"""All-pairs Cohen's kappa, run-triples, thresholds and far runs (reagree.methods.runtriples)."""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from reagree.stats import pairwise
from reagree.methods import runtriples


def random_runs(seed, n_runs=5, n_units=60, k=7, uncovered=0.1):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, size=(n_runs, n_units))
    codes[rng.random((n_runs, n_units)) < uncovered] = -1
    return codes


@pytest.mark.parametrize("seed", range(5))
def test_all_pairs_agree_with_scikit_learn_and_reagree_pairwise(seed):
    codes = random_runs(seed)
    pairs = runtriples.cohen_kappa_pairs(codes, 7)
    for a, b in runtriples.pair_indices(codes.shape[0]):
        both = (codes[a] >= 0) & (codes[b] >= 0)
        expected = cohen_kappa_score(codes[a, both], codes[b, both], labels=list(range(7)))
        assert pairs.kappa[a, b] == pytest.approx(expected)
        assert pairs.kappa[b, a] == pytest.approx(expected)
        table = np.zeros((7, 7))
        np.add.at(table, (codes[a, both], codes[b, both]), 1)
        assert pairs.kappa[a, b] == pytest.approx(pairwise.cohen_kappa(table))
        assert pairs.n_common[a, b] == both.sum()
        assert pairs.observed[a, b] == pytest.approx((codes[a, both] == codes[b, both]).mean())


def test_the_chance_term_sums_over_the_fixed_category_set():
    # Both runs use only categories 0 and 1 of 3; shares (1/2, 1/2, 0) and (1/4, 3/4, 0):
    # p_e = 1/8 + 3/8 = 1/2; p_o = 3/4; kappa = (3/4 - 1/2) / (1/2) = 1/2.
    codes = np.array([[0, 0, 1, 1], [0, 1, 1, 1]])
    pairs = runtriples.cohen_kappa_pairs(codes, 3)
    assert pairs.chance[0, 1] == pytest.approx(0.5) and pairs.kappa[0, 1] == pytest.approx(0.5)


def test_chance_one_is_kappa_one_and_no_common_unit_is_undefined():
    codes = np.array([[2, 2, 2, -1, -1], [2, 2, 2, -1, -1], [-1, -1, -1, 0, 1]])
    pairs = runtriples.cohen_kappa_pairs(codes, 3)
    assert pairs.chance[0, 1] == 1.0 and pairs.kappa[0, 1] == 1.0  # the paper's convention
    assert np.isnan(pairs.kappa[0, 2]) and pairs.n_common[0, 2] == 0
    assert np.isnan(pairwise.cohen_kappa(np.diag([3.0, 0, 0])))  # reagree's general rule: undefined


def test_codes_outside_the_category_set_are_rejected():
    with pytest.raises(ValueError, match="codes must lie in"):
        runtriples.cohen_kappa_pairs(np.array([[0, 7]]), 7)


def test_means_over_pairs_and_over_the_pairs_of_every_triple():
    # A 4-run pair matrix written out by hand: m[i, j] = 10 i + 10 j (i != j).
    m = np.array([[0, 10, 20, 30], [10, 0, 30, 40], [20, 30, 0, 50], [30, 40, 50, 0]], dtype=float)
    assert runtriples.mean_over_pairs(m) == pytest.approx((10 + 20 + 30 + 30 + 40 + 50) / 6)
    subsets = runtriples.run_subsets(4, 3)
    assert subsets.tolist() == [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
    assert runtriples.mean_over_pairs(m, subsets).tolist() == pytest.approx([20, 80 / 3, 100 / 3, 40])
    assert len(runtriples.run_subsets(10, 3)) == 120 and len(runtriples.pair_indices(10)) == 45


def test_triple_frame_combines_the_pairs_computed_once():
    codes = random_runs(7, n_runs=5)
    boundaries = random_runs(8, n_runs=5, k=2)
    pairs = runtriples.pair_frame(codes, boundaries, 7)
    triples = runtriples.triple_frame(pairs, 5)
    assert len(pairs) == 10 and len(triples) == 10
    row = triples[triples["runs"] == "1+3+5"].iloc[0]
    chosen = pairs[pairs["run_a"].isin([1, 3, 5]) & pairs["run_b"].isin([1, 3, 5])]
    assert row["kappa_label"] == pytest.approx(chosen["kappa_label"].mean())
    assert row["gap"] == pytest.approx(chosen["gap"].mean())
    summary = runtriples.reader_summary(pairs)
    assert summary["gap"] == pytest.approx(pairs["kappa_boundary"].mean() - pairs["kappa_label"].mean())
    assert summary["pairs"] == 10


def test_thresholds_are_reached_at_equality_and_never_by_nan():
    gaps = np.array([-0.1, 0.0, 0.25, 0.3, np.nan])
    assert runtriples.threshold_counts(gaps, [0.3, 0.25, 0]).tolist() == [1, 2, 3]
    assert runtriples.independent_pass_share([0.75, 0.9, 5 / 6]) == pytest.approx(0.5625)
    assert [runtriples.threshold_label(t) for t in ("human_gap", 0.25, 0, -0.1)] == [
        "human_gap",
        "at_0_25",
        "at_0",
        "at_-0_1",
    ]


def test_far_runs_start_from_the_least_agreeing_pair_then_add_the_farthest():
    agreement = np.array([[1.0, 0.9, 0.5, 0.6], [0.9, 1.0, 0.5, 0.7], [0.5, 0.5, 1.0, 0.8], [0.6, 0.7, 0.8, 1.0]])
    # Lowest pair 0.5: (0, 2) comes before (1, 2). Then run 1 is 0.1 from run 0, run 3 is
    # 0.2 from run 2: run 3 is farther.
    assert runtriples.far_runs(agreement) == [0, 2, 3]
    tied = np.array([[1.0, 0.2, 0.6, 0.6], [0.2, 1.0, 0.6, 0.6], [0.6, 0.6, 1.0, 0.5], [0.6, 0.6, 0.5, 1.0]])
    assert runtriples.far_runs(tied) == [0, 1, 2]  # runs 2 and 3 tie at 0.4: the lower index
    with pytest.raises(ValueError):
        runtriples.far_runs(np.eye(2))


def test_reader_rank_counts_the_readers_above():
    gaps = {"human": 0.298, "gemini": 0.291, "opus": 0.065, "qwen": 0.077}
    assert runtriples.reader_rank(gaps, "human") == 1
    assert runtriples.reader_rank(gaps, "gemini") == 2
    assert runtriples.reader_rank({**gaps, "gemini": 0.298}, "gemini") == 1  # a tie shares the better rank
    assert runtriples.reader_rank({**gaps, "qwen": float("nan")}, "qwen") == 4  # undefined ranks last
    with pytest.raises(ValueError, match="no value for reader 'nobody'"):
        runtriples.reader_rank(gaps, "nobody")


def test_runs_and_pairs_are_counted_once_over_pair_tables():
    import pandas as pd

    enki = pd.DataFrame({"myth": "enki", "reader": ["h", "h", "h", "m"], "run_a": [1, 1, 2, 1], "run_b": [2, 3, 3, 2]})
    gudea = pd.DataFrame({"myth": "gudea", "reader": ["h"], "run_a": [1], "run_b": [2]})
    # enki: h runs 1-3, m runs 1-2; gudea: h runs 1-2 -> 3 + 2 + 2 runs; h pairs: 3 + 1
    assert runtriples.count_runs([enki, gudea], by=("myth", "reader")) == 7
    assert runtriples.count_pairs([enki, gudea], "reader", "h", by=("myth",)) == 4
    assert runtriples.count_pairs([enki, enki], "reader", "m", by=("myth",)) == 1


def test_the_grouping_columns_are_the_callers():
    """No column name is built in: any grouping works, and the grouping decides what is one
    run (by hand: the same run numbers under two coders are two runs, under one coder one)."""
    import pandas as pd

    frame = pd.DataFrame({"text": ["t1", "t1"], "coder": ["x", "y"], "run_a": [1, 1], "run_b": [2, 2]})
    assert runtriples.count_runs([frame], by=("text", "coder")) == 4
    assert runtriples.count_runs([frame], by=("text",)) == 2
    assert runtriples.count_pairs([frame], "coder", "y", by=("text",)) == 1
    assert runtriples.count_pairs([frame], "text", "t1", by=()) == 1  # both coders' pair (1, 2), once


def test_the_ratio_of_two_ranges_midpoints_by_hand():
    # "raw agreement of 31.6% to 37.6% is roughly twice the 13.6% to 17.8% expected": (0.316 + 0.376) / 2
    # = 0.346 over (0.136 + 0.178) / 2 = 0.157: 2.2038
    assert runtriples.midpoint_ratio([0.376, 0.333, 0.316], [0.136, 0.173, 0.178]) == pytest.approx(0.346 / 0.157)
    assert runtriples.midpoint_ratio([], [0.1]) != runtriples.midpoint_ratio([], [0.1])  # Undefined: NaN
