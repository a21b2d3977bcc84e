"""The authors' seeded random streams replayed (scheme ``python-random``), and the chance
levels of Table 4 and B2 as their exact expectation beside the replayed estimate.

What it decides. The authors estimate the expected lag counts and B2's chance level by
Monte Carlo, from Python's ``random.Random`` seeded with a string
(``random.Random("lag-<text>-mine-own")``; seeds and draws in ``shvets2026.release.STREAM``);
their printed figures are those estimates. ``replayed_lag_counts``,
``replayed_lag_counts_sequence`` and ``replayed_neighbour_relabels`` draw the same numbers
in the same order, so they give the authors' estimates digit for digit, beside the exact
values of ``reagree.methods.phaseshift``:

- lag counts: with R runs there are R(R - 1) ordered pairs (``permutations`` order). The
  stream first serves ``shuffle_blocks`` x draws x pairs calls of ``shuffle`` on a list of
  P items (a permutation test of the same function that runs first: ``max_lag + 1``
  blocks in the authors' ``lag_test.analyse``, none in their triple mode), then, draw by
  draw and pair by pair, one rotation offset k = ``randrange(1, P)`` (0 when P < 2). The
  estimate is the mean over draws of the counts summed over pairs
  (``reagree.methods.phaseshift.sampled_lag_counts``). Several run-triples share one
  stream in order (``replayed_lag_counts_sequence``).
- B2's chance: draw by draw, every event in the authors' order (run by run, units in
  order, an event where its (run, fragment, label) first occurs:
  ``reagree.methods.phaseshift.departures``) takes ``choice`` of the labels seen other
  than its fragment's, ordered by name; chance is the mean over draws of the share of
  events whose drawn label is licensed.

The family ``chance_expectation`` (declared in ``shvets2026.variants``) gives a chance
level both ways: ``expected.exact`` and ``expected.python_random``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Sequence

import numpy as np

from reagree.methods.phaseshift import (
    LagCounts,
    NeighbourRelabels,
    departures,
    expected_lag_counts,
    lag_counts,
    neighbour_relabels,
    pieces,
    sampled_lag_counts,
)
from reagree.stats.undefined import Undefined

STREAM_SCHEME = "python-random"


def skip_shuffles(stream: random.Random, length: int, times: int) -> None:
    """Advance ``stream`` exactly as ``times`` calls of ``stream.shuffle`` on a list of
    ``length`` items would (how many numbers a shuffle draws depends on the draws, never
    on the items, so a scratch list stands in for the authors' sequences)."""
    scratch = list(range(length))
    for _ in range(times):
        stream.shuffle(scratch)


def rotation_draws(stream: random.Random, n_pieces: int, n_pairs: int, draws: int) -> np.ndarray:
    """(draws x pairs) rotation offsets, one ``stream.randrange(1, P)`` per ordered pair per
    draw (draw by draw, pairs in ``permutations`` order); 0 when P < 2."""
    return np.array(
        [[stream.randrange(1, n_pieces) if n_pieces > 1 else 0 for _ in range(n_pairs)] for _ in range(draws)],
        dtype=np.int64,
    ).reshape(draws, n_pairs)


def replayed_lag_counts(
    sequences: np.ndarray, seed: str, draws: int, max_lag: int, shuffle_blocks: int = 0
) -> LagCounts:
    """The expected lag counts as the mean over ``draws`` random rotations taken from
    ``random.Random(seed)``, consumed in this order: first ``shuffle_blocks`` x ``draws`` x
    (ordered pairs) shuffles of a P-piece list (another test's permutation null drawn
    from the same stream before the rotations: the authors' ``lag_test.analyse`` runs
    ``max_lag + 1`` such blocks), then ``rotation_draws``. A Monte Carlo estimate of
    ``expected_lag_counts``, reproducible draw for draw."""
    sequences = np.asarray(sequences)
    n_runs, n_pieces = sequences.shape
    n_pairs = n_runs * (n_runs - 1)
    stream = random.Random(seed)
    skip_shuffles(stream, n_pieces, shuffle_blocks * draws * n_pairs)
    return sampled_lag_counts(sequences, rotation_draws(stream, n_pieces, n_pairs, draws), max_lag)


def replayed_lag_counts_sequence(
    sequence_sets: Sequence[np.ndarray], seed: str, draws: int, max_lag: int
) -> list[LagCounts]:
    """``replayed_lag_counts`` of several sets of runs (run-triples) from one stream
    ``random.Random(seed)`` shared in order: set i's rotations are drawn after those of
    sets 0..i-1 (the authors' ``lag_test.triple_counts`` over all triples of a reader)."""
    stream = random.Random(seed)
    out = []
    for sequences in sequence_sets:
        sequences = np.asarray(sequences)
        n_runs, n_pieces = sequences.shape
        shifts = rotation_draws(stream, n_pieces, n_runs * (n_runs - 1), draws)
        out.append(sampled_lag_counts(sequences, shifts, max_lag))
    return out


def replayed_neighbour_relabels(
    labels: np.ndarray, seed: str, draws: int, label_names: Sequence[str] | None = None
) -> NeighbourRelabels:
    """B2 with the chance level as the mean over ``draws`` draws from ``random.Random(seed)``
    instead of its exact expectation: in each draw, every event (in the order of
    ``departures``: run by run, units in order) takes ``stream.choice`` of the labels
    seen other than its fragment's majority label, those labels ordered by their names
    (``label_names[code]``, default the codes) as sorted strings; the draw's share is the
    share of events whose drawn label is licensed. Events, licensed and observed are
    ``neighbour_relabels``'; only ``chance`` (and so ``gap``) is the replayed estimate."""
    exact = neighbour_relabels(labels)
    found = departures(labels)
    if not found.events:
        return exact
    names = {int(code): str(label_names[code] if label_names is not None else code) for code in found.seen}
    vocabulary = sorted(names.values())
    code_of = {name: code for code, name in names.items()}
    pools = [
        [code_of[name] for name in vocabulary if name != names[found.fragment_label[f]]] for _, f, _ in found.events
    ]
    licensed = [found.licensed(f) for _, f, _ in found.events]
    stream = random.Random(seed)
    shares = [
        sum(stream.choice(pool) in allowed for pool, allowed in zip(pools, licensed)) / len(pools) for _ in range(draws)
    ]
    return NeighbourRelabels(
        exact.events, exact.licensed, exact.observed, float(np.mean(shares)), exact.labels_seen, exact.fragments
    )


# --- the chance level, exact or replayed: the family ``chance_expectation`` -------------------
# (shvets2026.variants declares it; each function returns {variant name: value}).

EXACT, REPLAYED = "expected.exact", "expected.python_random"


def lag_count_expectations(
    sequences: np.ndarray, measure: str, seed: str, draws: int, max_lag: int, shuffle_blocks: int = 0
) -> dict[str, float]:
    """An expected lag count (``measure``: ``same_place`` or ``one_step``) as the exact
    mean over every rotation (``expected_lag_counts``) and as the seeded Monte Carlo
    estimate the authors printed (``replayed_lag_counts``; scheme ``python-random``)."""
    if measure not in ("same_place", "one_step"):
        raise ValueError(f"measure must be same_place or one_step, got {measure!r}")
    exact = expected_lag_counts(sequences, max_lag)
    replayed = replayed_lag_counts(sequences, seed, draws, max_lag, shuffle_blocks)
    return {EXACT: getattr(exact, measure), REPLAYED: getattr(replayed, measure)}


def b2_gap_expectations(
    labels: np.ndarray, seed: str, draws: int, label_names: Sequence[str] | None = None
) -> dict[str, float]:
    """B2's gap (observed minus chance) with the chance level exact (``neighbour_relabels``)
    and as the seeded estimate (``replayed_neighbour_relabels``; scheme ``python-random``)."""
    return {
        EXACT: neighbour_relabels(labels).gap,
        REPLAYED: replayed_neighbour_relabels(labels, seed, draws, label_names).gap,
    }


def lowest_same_place_ratio(groups: Sequence[tuple[np.ndarray, str]], draws: int, max_lag: int) -> dict[str, float]:
    """The lowest same-place ratio o0 / e0 over every run-triple of every group (a group:
    a reader's runs x units labels and the seed of its stream), with e0 exact and with e0
    replayed from the group's stream (``replayed_lag_counts_sequence``: triples in
    ``combinations`` order, ``draws`` rotations each). Triples whose e0 is 0 have no ratio."""
    exact, replayed = [], []
    for labels, seed in groups:
        sets = [pieces(labels[list(triple)]) for triple in combinations(range(len(labels)), 3)]
        estimates = replayed_lag_counts_sequence(sets, seed, draws, max_lag)
        for sequences, estimate in zip(sets, estimates):
            observed = lag_counts(sequences, max_lag).same_place
            expected = expected_lag_counts(sequences, max_lag).same_place
            exact += [observed / expected] if np.isfinite(expected) and expected > 0 else []
            replayed += [observed / estimate.same_place] if estimate.same_place > 0 else []
    return {
        EXACT: min(exact) if exact else Undefined("no triple expects a lag"),
        REPLAYED: min(replayed) if replayed else Undefined("no triple expects a lag"),
    }
