"""Where repeated segmentations of one text put things: boundary placement, onset lags
between runs against rotations (the phase-shift test) and relabels taken from a
neighbouring fragment (B2).

What it decides (the tests of Shvets 2026, Section 4.3 and Table 4, and of the
replication's boundary placement, written for any segmentation). Runs are rows of
(runs x units) code arrays: a label code 0..K-1 or a boundary flag 0/1 per unit, -1 where
the run does not cover the unit; unit distances are differences of unit indices. The
windows, the largest lag and the distance to a boundary are the caller's conventions,
always passed.

Boundary placement (``boundary_placement``). For each unordered pair of runs (a, b),
a < b: take the units both cover and drop the first of them (every run starts a segment
there). Of the two runs' boundary sets on the remaining units, take the smaller (a's on
a tie) as the *source*; the share of source boundaries with a boundary of the other run
at distance <= w units, for each window w (0 is exactly); chance = the other run's
boundary count (first unit dropped) / the number of common units (first unit included).
A reader's value is the mean over pairs; a pair whose source set is empty is undefined
(NaN).

Pieces (``pieces``). For a set of runs, keep the units every run covers; a piece is a
maximal stretch of consecutive unit indices on which the tuple of the runs' labels does
not change; a unit not covered by every run breaks a stretch. Each run's sequence is its
label per piece (P pieces).

Phase-shift lags (``lag_counts``). An *onset* of run b is a piece j >= 1 whose label X
differs from piece j-1. Run a *enters* X at piece i when a's piece i has label X and
i = 0 or a's piece i-1 differs. For every ordered pair (a, b) of distinct runs and every
onset (j, X) of b, the lag is the i - j of smallest absolute value over a's entries into
X, a negative lag winning a tie (-1 over +1); no lag when a never enters X or the
smallest |i - j| exceeds ``max_lag``. Counted over all ordered pairs: *same place* =
lag 0, *one step* = lag -1 plus lag +1.

Expected lags (``expected_lag_counts``). For every k in 1..P-1, rotate a's sequence
left by k (piece i of the rotation is a's piece (i + k) mod P), recompute a's entries
(the rotation's piece 0 counts as an entry), score b's (unrotated) onsets, and average
the counts over all P-1 rotations: the exact mean of any number of uniformly drawn
rotations. ``sampled_lag_counts`` averages over rotations given explicitly instead (a
Monte Carlo null drawn elsewhere, from any random stream).

B2, a relabel taken from a neighbour (``neighbour_relabels``). On units covered by at
least two runs, the majority label is the most frequent label when strictly ahead of
the second; units without one are skipped. Consecutive majority units (in unit order,
skipped units not breaking them) with the same label form a *fragment*; a fragment's
*licensed* labels are the labels of the previous and next fragments (those that exist).
An *event* is a distinct (run, fragment, alternative label) where a run's label on a
unit of the fragment differs from the majority (``departures``: run by run, units in
order, an event where its (run, fragment, label) first occurs). Observed = share of
events whose alternative is licensed; chance = mean over events of |licensed| / (L - 1),
L the number of distinct labels the runs use on the units covered by at least two runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Sequence

import numpy as np

from reagree.stats.undefined import Undefined

__all__ = [
    "UNCOVERED",
    "Departures",
    "LagCounts",
    "NeighbourRelabels",
    "boundary_placement",
    "departures",
    "expected_lag_counts",
    "lag_counts",
    "neighbour_relabels",
    "onsets",
    "phase_shift",
    "phase_shift_subsets",
    "pieces",
    "sampled_lag_counts",
    "summarise_subsets",
    "units_far_from_boundaries",
]

UNCOVERED = -1


def _preference(max_lag: int) -> np.ndarray:
    """Lags in order of preference: smaller |lag| first, the negative one first on a tie."""
    return np.asarray([0] + [lag for step in range(1, max_lag + 1) for lag in (-step, step)])


def boundary_placement(
    boundaries: np.ndarray, windows: Sequence[int], run_names: Sequence | None = None
) -> dict[str, object]:
    """Boundary placement over all pairs of runs (module docstring).

    ``boundaries``: (runs x units) of 1 (boundary), 0 (not), -1 (uncovered); ``windows``:
    the distances in units a boundary may lie from its match (0: exactly). Returns
    ``{"pairs": [per-pair dicts], "within": {w: mean share}, "chance": mean chance}``;
    runs are named by ``run_names`` (default: their 0-based row).
    """
    boundaries = np.asarray(boundaries)
    names = list(run_names) if run_names is not None else list(range(boundaries.shape[0]))
    rows = []
    for a, b in combinations(range(boundaries.shape[0]), 2):
        common = np.flatnonzero((boundaries[a] >= 0) & (boundaries[b] >= 0))
        row = {"run_a": names[a], "run_b": names[b], "n_common": len(common)}
        if len(common) < 2:
            row.update({f"within_{w}": Undefined("fewer than two common units") for w in windows})
            row["chance"] = Undefined("fewer than two common units")
            rows.append(row)
            continue
        rest = common[1:]
        at_a, at_b = rest[boundaries[a, rest] == 1], rest[boundaries[b, rest] == 1]
        source, other, source_run = (at_a, at_b, a) if len(at_a) <= len(at_b) else (at_b, at_a, b)
        row.update(source_run=names[source_run], n_source=len(source), n_other=len(other))
        if len(source) == 0:
            row.update({f"within_{w}": Undefined("the smaller boundary set is empty") for w in windows})
        else:
            nearest = (
                np.abs(source[:, None] - other[None, :]).min(axis=1) if len(other) else np.full(len(source), np.inf)
            )
            row.update({f"within_{w}": float((nearest <= w).mean()) for w in windows})
        row["chance"] = len(other) / len(common)
        rows.append(row)
    within = {
        w: float(np.mean([r[f"within_{w}"] for r in rows])) if rows else Undefined("fewer than two runs")
        for w in windows
    }
    chance = float(np.mean([r["chance"] for r in rows])) if rows else Undefined("fewer than two runs")
    return {"pairs": rows, "within": within, "chance": chance}


def pieces(labels: np.ndarray) -> np.ndarray:
    """Each run's label per piece: (runs x P); see the module docstring."""
    labels = np.asarray(labels)
    everywhere = np.flatnonzero((labels >= 0).all(axis=0))
    if len(everywhere) == 0:
        return np.empty((labels.shape[0], 0), dtype=labels.dtype)
    tuples = labels[:, everywhere]
    gap = np.diff(everywhere) > 1
    changed = (tuples[:, 1:] != tuples[:, :-1]).any(axis=0)
    starts = np.concatenate([[True], gap | changed])
    return tuples[:, starts]


def onsets(sequence: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions j >= 1, labels) where the sequence changes label."""
    sequence = np.asarray(sequence)
    positions = np.flatnonzero(sequence[1:] != sequence[:-1]) + 1
    return positions, sequence[positions]


def _entry_mask(sequences: np.ndarray) -> np.ndarray:
    """Where each row (a sequence) enters a label: piece 0 and every change."""
    first = np.ones((sequences.shape[0], 1), dtype=bool)
    return np.concatenate([first, sequences[:, 1:] != sequences[:, :-1]], axis=1)


def _lags(a_rows: np.ndarray, b: np.ndarray, max_lag: int) -> np.ndarray:
    """Lag of every onset of ``b`` against every row of ``a_rows`` (a's sequence, or its
    rotations): (rows x onsets), with ``max_lag + 1`` standing for "no lag"."""
    positions, wanted = onsets(b)
    no_lag = max_lag + 1
    if len(positions) == 0:
        return np.empty((a_rows.shape[0], 0), dtype=np.int64)
    entries = _entry_mask(a_rows)
    offsets = _preference(max_lag)
    where = positions[:, None] + offsets[None, :]  # onsets x offsets
    valid = (where >= 0) & (where < a_rows.shape[1])
    clipped = np.clip(where, 0, a_rows.shape[1] - 1)
    hits = entries[:, clipped] & (a_rows[:, clipped] == wanted[None, :, None]) & valid[None]
    first = hits.argmax(axis=2)
    return np.where(hits.any(axis=2), offsets[first], no_lag)


@dataclass(frozen=True)
class LagCounts:
    """Counts over all ordered pairs: lag 0, lag -1 plus +1, all onsets, onsets with a lag."""

    same_place: float
    one_step: float
    onsets: int
    with_lag: float

    @property
    def one_step_per_same_place(self) -> float:
        """o1 / max(o0, 1), the summary the replication compares across readers."""
        return self.one_step / max(self.same_place, 1)


def _tally(lags: np.ndarray, max_lag: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return ((lags == 0).sum(axis=1), (np.abs(lags) == 1).sum(axis=1), (lags <= max_lag).sum(axis=1))


def lag_counts(sequences: np.ndarray, max_lag: int) -> LagCounts:
    """Observed lags of every ordered pair of runs' piece sequences (module docstring)."""
    same = step = with_lag = total = 0
    for a, b in permutations(range(sequences.shape[0]), 2):
        lags = _lags(sequences[a][None, :], sequences[b], max_lag)
        zero, one, any_lag = _tally(lags, max_lag)
        same, step, with_lag, total = same + zero[0], step + one[0], with_lag + any_lag[0], total + lags.shape[1]
    return LagCounts(float(same), float(step), int(total), float(with_lag))


def expected_lag_counts(sequences: np.ndarray, max_lag: int) -> LagCounts:
    """Mean lag counts over every rotation k = 1..P-1 of the earlier-placed run's
    sequence (module docstring): exact, where a Monte Carlo null samples rotations."""
    n_pieces = sequences.shape[1]
    if n_pieces < 2:
        return LagCounts(
            Undefined("fewer than two pieces"),
            Undefined("fewer than two pieces"),
            0,
            Undefined("fewer than two pieces"),
        )
    shifts = np.arange(1, n_pieces)
    rotation = (np.arange(n_pieces)[None, :] + shifts[:, None]) % n_pieces  # rotate left by k
    same = step = with_lag = 0.0
    total = 0
    for a, b in permutations(range(sequences.shape[0]), 2):
        lags = _lags(sequences[a][rotation], sequences[b], max_lag)
        zero, one, any_lag = _tally(lags, max_lag)
        same, step, with_lag = same + zero.mean(), step + one.mean(), with_lag + any_lag.mean()
        total += lags.shape[1]
    return LagCounts(float(same), float(step), total, float(with_lag))


def sampled_lag_counts(sequences: np.ndarray, shifts: np.ndarray, max_lag: int) -> LagCounts:
    """Mean lag counts over draws: in draw d, the earlier-placed run of ordered pair p
    (``permutations`` order) has its sequence rotated left by ``shifts[d, p]``. The Monte
    Carlo counterpart of ``expected_lag_counts``, for rotations drawn elsewhere."""
    sequences = np.asarray(sequences)
    n_pieces = sequences.shape[1]
    pairs = list(permutations(range(sequences.shape[0]), 2))
    shifts = np.asarray(shifts, dtype=np.int64)
    if shifts.ndim != 2 or shifts.shape[1] != len(pairs) or shifts.shape[0] == 0:
        raise ValueError(f"shifts must be (draws x {len(pairs)} ordered pairs), got shape {shifts.shape}")
    same = step = with_lag = 0.0
    total = 0
    for p, (a, b) in enumerate(pairs):
        rotation = (np.arange(n_pieces)[None, :] + shifts[:, p][:, None]) % n_pieces
        lags = _lags(sequences[a][rotation], sequences[b], max_lag)
        zero, one, any_lag = _tally(lags, max_lag)
        same, step, with_lag = same + zero.mean(), step + one.mean(), with_lag + any_lag.mean()
        total += lags.shape[1]
    return LagCounts(float(same), float(step), total, float(with_lag))


@dataclass(frozen=True)
class NeighbourRelabels:
    events: int
    licensed: int
    observed: float
    chance: float
    labels_seen: int
    fragments: int

    @property
    def gap(self) -> float:
        return self.observed - self.chance


@dataclass(frozen=True)
class Departures:
    """B2's events in order: run by run, each run's units in order, an event recorded
    where its (run, fragment, alternative) first occurs; each fragment's majority label;
    the label codes seen on the units covered by at least two runs."""

    events: list[tuple[int, int, int]]  # (run, fragment, alternative label)
    fragment_label: list[int]
    seen: np.ndarray

    def licensed(self, fragment: int) -> set[int]:
        """The labels of the fragments before and after ``fragment`` (those that exist)."""
        return {self.fragment_label[g] for g in (fragment - 1, fragment + 1) if 0 <= g < len(self.fragment_label)}


def departures(labels: np.ndarray, allowed: np.ndarray | None = None) -> Departures:
    """Majority units, fragments and departure events of B2 (module docstring); with
    ``allowed`` (a boolean per unit) only departures on allowed units are events, the
    majority and its fragments still coming from every unit."""
    labels = np.asarray(labels)
    covered = labels >= 0
    shared = np.flatnonzero(covered.sum(axis=0) >= 2)
    seen = np.unique(labels[:, shared][covered[:, shared]])
    majority_units, majority_labels = [], []
    for unit in shared:
        counts = np.bincount(labels[covered[:, unit], unit])
        order = np.sort(counts)[::-1]
        if len(order) == 1 or order[0] > order[1]:
            majority_units.append(unit)
            majority_labels.append(int(counts.argmax()))
    majority_labels = np.asarray(majority_labels, dtype=np.int64)
    fragment = (
        np.concatenate([[0], np.cumsum(majority_labels[1:] != majority_labels[:-1])])
        if len(majority_labels)
        else np.empty(0, dtype=np.int64)
    )
    fragment_label = (
        [int(majority_labels[np.argmax(fragment == f)]) for f in range(int(fragment.max()) + 1)]
        if len(fragment)
        else []
    )
    events: dict[tuple[int, int, int], None] = {}
    for run in range(labels.shape[0]):
        for position, unit in enumerate(majority_units):
            if allowed is not None and not allowed[unit]:
                continue
            if covered[run, unit] and labels[run, unit] != majority_labels[position]:
                events.setdefault((run, int(fragment[position]), int(labels[run, unit])), None)
    return Departures(list(events), fragment_label, seen)


def neighbour_relabels(labels: np.ndarray, allowed: np.ndarray | None = None) -> NeighbourRelabels:
    """B2: are departures from the majority the neighbouring fragments' labels? With
    ``allowed``, only departures on those units (``units_far_from_boundaries``)."""
    found = departures(labels, allowed)
    if not found.events:
        reason = Undefined("no run departs from the majority")
        return NeighbourRelabels(0, 0, reason, reason, len(found.seen), len(found.fragment_label))
    licensed_hits = sum(alternative in found.licensed(f) for _, f, alternative in found.events)
    chance = float(np.mean([len(found.licensed(f)) / (len(found.seen) - 1) for _, f, _ in found.events]))
    return NeighbourRelabels(
        len(found.events),
        licensed_hits,
        licensed_hits / len(found.events),
        chance,
        len(found.seen),
        len(found.fragment_label),
    )


def phase_shift(labels: np.ndarray, max_lag: int) -> dict[str, float]:
    """Table 4 for one set of runs (rows of ``labels``): pieces, onsets, observed and
    expected same-place (lag 0) and one-step (lag +-1) counts, and the ratios
    one step per same place = o1 / max(o0, 1), same place = o0 / e0, one step = o1 / e1."""
    sequences = pieces(labels)
    observed = lag_counts(sequences, max_lag)
    expected = expected_lag_counts(sequences, max_lag)
    return {
        "pieces": sequences.shape[1],
        "onsets": observed.onsets,
        "same_place_observed": observed.same_place,
        "same_place_expected": expected.same_place,
        "one_step_observed": observed.one_step,
        "one_step_expected": expected.one_step,
        "one_step_per_same_place": observed.one_step_per_same_place,
        "same_place_ratio": _ratio(observed.same_place, expected.same_place),
        "one_step_ratio": _ratio(observed.one_step, expected.one_step),
    }


def _ratio(observed: float, expected: float) -> float:
    if not np.isfinite(expected) or expected == 0:
        return Undefined("no lag expected by chance")
    return float(observed / expected)


def phase_shift_subsets(labels: np.ndarray, subsets: np.ndarray, max_lag: int):
    """``phase_shift`` of every subset of runs (rows of ``subsets`` index ``labels``), as a
    DataFrame with a ``runs`` column (1-based run numbers joined by "+")."""
    import pandas as pd

    rows = [
        {"runs": "+".join(str(k + 1) for k in subset), **phase_shift(labels[subset], max_lag)}
        for subset in np.asarray(subsets)
    ]
    return pd.DataFrame(rows)


def summarise_subsets(frame, by: Sequence[str]):
    """Per group of a ``phase_shift_subsets`` table: subsets, the highest one step per
    same place, the lowest same-place ratio and the median of both."""
    grouped = frame.groupby(list(by), sort=False)
    out = grouped.agg(
        subsets=("runs", "size"),
        one_step_per_same_place_max=("one_step_per_same_place", "max"),
        one_step_per_same_place_median=("one_step_per_same_place", "median"),
        same_place_ratio_min=("same_place_ratio", "min"),
        same_place_ratio_median=("same_place_ratio", "median"),
    )
    return out.reset_index()


def units_far_from_boundaries(labels: np.ndarray, boundaries: np.ndarray, distance: int) -> np.ndarray:
    """Boolean per unit: covered by some run and more than ``distance`` units from every
    unit that starts a segment in any run (a robustness check of B2: is it a side effect
    of shifted boundaries?)."""
    labels, boundaries = np.asarray(labels), np.asarray(boundaries)
    covered = (labels >= 0).any(axis=0)
    starts = np.flatnonzero((boundaries == 1).any(axis=0))
    units = np.arange(labels.shape[1])
    if starts.size == 0:
        return covered
    nearest = np.abs(units[:, None] - starts[None, :]).min(axis=1)
    return covered & (nearest > distance)
