"""Pieces, onset lags and their rotation expectation, B2 and boundary placement
(reagree.methods.phaseshift), on cases worked out by hand in each test."""

import numpy as np
import pytest

from reagree.methods import phaseshift

A, B, C, D, E, F, G = range(7)


def onset_lags(sequence_a, sequence_b, max_lag=3):
    """The lag the library finds for each onset of b against a's entries (None: no lag
    within max_lag), one onset at a time, to hold against lags worked out by hand."""
    lags = phaseshift._lags(np.asarray(sequence_a)[None, :], np.asarray(sequence_b), max_lag)[0]
    return [int(lag) if abs(lag) <= max_lag else None for lag in lags]


def test_pieces_follow_the_label_tuple_and_break_at_coverage_gaps():
    labels = np.array([[A, A, B, B, C, C, C, C], [A, B, B, B, C, C, -1, C]])
    # Common units 0-5 and 7; tuples (A,A) (A,B) (B,B) (B,B) (C,C) (C,C) | gap | (C,C).
    assert phaseshift.pieces(labels).tolist() == [[A, A, B, C, C], [A, B, B, C, C]]


def test_onset_lags_by_hand():
    a, b = np.array([A, A, B, C]), np.array([A, B, B, C])
    # b's onsets: (1, B) and (3, C); a enters A at 0, B at 2, C at 3: lags +1 and 0.
    assert onset_lags(a, b) == [1, 0]
    # a's onsets (2, B), (3, C) against b's entries A@0, B@1, C@3: lags -1 and 0.
    assert onset_lags(b, a) == [-1, 0]
    counts = phaseshift.lag_counts(np.stack([a, b]), 3)
    assert (counts.same_place, counts.one_step, counts.onsets) == (2, 2, 4)
    assert counts.one_step_per_same_place == 1.0


def test_minus_one_wins_a_tie_and_piece_zero_is_an_entry():
    assert onset_lags(np.array([B, A, B]), np.array([A, B, B])) == [-1]  # B entered at 0 and 2
    assert onset_lags(np.array([B, A]), np.array([A, B])) == [-1]  # piece 0 of a counts


def test_no_lag_when_the_label_is_never_entered_or_too_far():
    a = np.array([B, A, A, A, A, A])
    b = np.array([A, A, A, A, A, B])
    assert onset_lags(a, b) == [None]  # a enters B only at 0: |0 - 5| > 3
    assert onset_lags(a, b, max_lag=5) == [-5]
    assert onset_lags(np.array([A, A, A]), np.array([A, C, C])) == [None]


def test_expected_counts_average_every_rotation():
    # a = b = (A, B, C). Observed: both onsets at lag 0 in both directions: same place 4.
    # Rotation k = 1 of a: (B, C, A), entries B@0 C@1 A@2: b's onsets (1, B) -> -1,
    # (2, C) -> -1. k = 2: (C, A, B), entries C@0 A@1 B@2: (1, B) -> +1, (2, C) -> -2.
    # Per ordered pair: one step (2 + 1) / 2 = 1.5, same place 0; two ordered pairs.
    sequences = np.array([[A, B, C], [A, B, C]])
    observed = phaseshift.lag_counts(sequences, 3)
    expected = phaseshift.expected_lag_counts(sequences, 3)
    assert (observed.same_place, observed.one_step) == (4, 0)
    assert (expected.same_place, expected.one_step) == (0, 3.0)
    table = phaseshift.phase_shift(sequences, 3)
    assert table["pieces"] == 3 and table["one_step_ratio"] == 0 and np.isnan(table["same_place_ratio"])


def test_a_single_piece_has_no_expectation():
    expected = phaseshift.expected_lag_counts(np.array([[A], [A]]), 3)
    assert np.isnan(expected.same_place)


def test_neighbour_relabels_by_hand():
    labels = np.array(
        [
            # 0  1  2   3  4  5  6  7  8  9
            [A, A, E, A, B, B, B, C, C, G],
            [A, A, F, B, B, C, C, C, C, -1],
            [A, A, -1, A, B, B, B, C, D, -1],
        ]
    )
    # Unit 2: E vs F, no majority (it does not break the A fragment); unit 9: one run only.
    # Fragments: A (units 0, 1, 3), B (4-6), C (7, 8). Events: (run 1, A fragment, B)
    # licensed by the next fragment; (run 1, B fragment, C) twice, counted once, licensed;
    # (run 2, C fragment, D) not licensed (only B is). Labels seen on units covered by
    # two runs or more: A-F (G is on unit 9 only), so L - 1 = 5.
    # Observed 2/3; chance = mean(1/5, 2/5, 1/5) = 4/15.
    result = phaseshift.neighbour_relabels(labels)
    assert (result.events, result.licensed, result.labels_seen, result.fragments) == (3, 2, 6, 3)
    assert result.observed == pytest.approx(2 / 3)
    assert result.chance == pytest.approx(4 / 15)
    assert result.gap == pytest.approx(6 / 15)


def test_neighbour_relabels_without_departures_is_undefined():
    result = phaseshift.neighbour_relabels(np.array([[A, B], [A, B]]))
    assert result.events == 0 and np.isnan(result.observed)


def test_boundary_placement_by_hand():
    boundaries = np.array(
        [
            [1, 0, 0, 1, 0, 0, 1, 0, 0, 0],
            [1, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            [-1, 1, 0, 0, 1, 0, 0, 0, -1, -1],
        ]
    )
    result = phaseshift.boundary_placement(boundaries, (0, 1, 2))
    first, second, third = result["pairs"]
    # Runs 0, 1: first unit dropped; {3, 6} vs {4, 9}, a tie in size: run 0's set is the
    # source. Exactly: none; within 1: 3 (4); within 2: 3 and 6 (4). Chance 2 / 10.
    assert (first["source_run"], first["within_0"], first["within_1"], first["within_2"]) == (0, 0.0, 0.5, 1.0)
    assert first["chance"] == pytest.approx(0.2)
    # Runs 0, 2: common units 1-7, unit 1 dropped: {3, 6} vs {4}: run 2 is the source;
    # 4 is 1 from 3. Chance: run 0's 2 boundaries / 7 common units.
    assert (second["source_run"], second["within_0"], second["within_1"]) == (2, 0.0, 1.0)
    assert second["chance"] == pytest.approx(2 / 7)
    # Runs 1, 2: common 1-7, unit 1 dropped: {4} and {4}: exact.
    assert third["within_0"] == 1.0 and third["chance"] == pytest.approx(1 / 7)
    assert result["within"][0] == pytest.approx(1 / 3)
    assert result["chance"] == pytest.approx((0.2 + 2 / 7 + 1 / 7) / 3)


def test_boundary_placement_with_an_empty_source_is_undefined():
    result = phaseshift.boundary_placement(np.array([[1, 0, 0], [1, 0, 1]]), (0, 1, 2))
    assert np.isnan(result["pairs"][0]["within_0"]) and result["pairs"][0]["chance"] == pytest.approx(1 / 3)


def test_units_far_from_boundaries_by_hand():
    boundaries = np.array(
        [
            # 0  1  2  3  4  5  6  7  8  9  10
            [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, -1],
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1],
        ]
    )
    labels = np.where(boundaries >= 0, 0, -1)
    # Starts at units 0 and 6 (run 0); more than 2 units away: 3 (3 from both) and 9;
    # unit 10 is covered by no run.
    far = phaseshift.units_far_from_boundaries(labels, boundaries, distance=2)
    assert np.flatnonzero(far).tolist() == [3, 9]
    assert np.flatnonzero(phaseshift.units_far_from_boundaries(labels, boundaries, distance=0)).tolist() == [
        1,
        2,
        3,
        4,
        5,
        7,
        8,
        9,
    ]


def test_neighbour_relabels_on_allowed_units_only():
    labels = np.array(
        [
            [A, A, E, A, B, B, B, C, C, G],
            [A, A, F, B, B, C, C, C, C, -1],
            [A, A, -1, A, B, B, B, C, D, -1],
        ]
    )
    # As test_neighbour_relabels_by_hand; allowing units 0-6 drops the event on unit 8
    # (run 2, C fragment, D): two events, both licensed. The fragments stay those of every unit.
    allowed = np.arange(10) < 7
    result = phaseshift.neighbour_relabels(labels, allowed)
    assert (result.events, result.licensed, result.fragments) == (2, 2, 3)
    assert result.observed == pytest.approx(1.0)
