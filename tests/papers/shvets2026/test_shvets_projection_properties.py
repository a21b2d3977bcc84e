"""Property test of the projection of a run's segments onto a text's units
(shvets2026.segments.project) against the convention worked line by line
(``project_by_hand``), on generated texts and runs."""

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from shvets2026.segments import FUNCTIONS, UNCOVERED, Run, Segment, Units, project

SETTINGS = settings(
    max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def text_and_run(draw):
    """Units of a numbered text (blocks with gaps between them, or single lines with
    gaps) and a run of segments over a range a little wider than the text."""
    per_line = draw(st.booleans())
    n_units = draw(st.integers(1, 25))
    gaps = draw(st.lists(st.integers(0, 3), min_size=n_units, max_size=n_units))
    spans = draw(st.lists(st.integers(1, 1 if per_line else 5), min_size=n_units, max_size=n_units))
    first, last, line = [], [], 1
    for gap, span in zip(gaps, spans):
        line += gap
        first.append(line)
        last.append(line + span - 1)
        line += span
    units = Units(np.array(first), np.array(last), per_line)
    segments = []
    for position in range(draw(st.integers(0, 12))):
        start = draw(st.integers(0, line + 2))
        end = start + draw(st.integers(0, 8))
        segments.append(Segment(position, f"s{position}", draw(st.sampled_from(FUNCTIONS)), start, end))
    segments.sort(key=lambda s: (s.line_start, s.line_end))  # as parse_run keeps them
    return units, Run("<generated>", tuple(segments))


def project_by_hand(units, run):
    """The docstring's convention, line by line: votes, earliest voting segment, first
    real line of each segment."""
    unit_of = {
        line: u for u in range(units.n_units) for line in range(int(units.first_line[u]), int(units.last_line[u]) + 1)
    }
    votes = np.zeros((units.n_units, len(FUNCTIONS)), dtype=int)
    earliest = np.full((units.n_units, len(FUNCTIONS)), len(run.segments))
    boundary = np.zeros(units.n_units, dtype=bool)
    outside = []
    for rank, segment in enumerate(run.segments):
        real = [line for line in range(segment.line_start, segment.line_end + 1) if line in unit_of]
        if not real:
            outside.append(segment.segment_id)
        for line in real:
            code = FUNCTIONS.index(segment.function)
            votes[unit_of[line], code] += 1
            earliest[unit_of[line], code] = min(earliest[unit_of[line], code], rank)
        if real:
            boundary[unit_of[real[0]]] = True
    labels = []
    for u in range(units.n_units):
        if votes[u].sum() == 0:
            labels.append(-1)
            continue
        top = votes[u].max()
        labels.append(min((earliest[u, f], f) for f in range(len(FUNCTIONS)) if votes[u, f] == top)[1])
    return np.array(labels), boundary, outside


@SETTINGS
@given(case=text_and_run())
def test_projection_of_segments_onto_units(case):
    units, run = case
    projection = project(run, units)
    labels, boundary, outside = project_by_hand(units, run)
    covered = projection.labels != UNCOVERED
    # every label is one of the seven functions, or uncovered
    assert set(projection.labels.tolist()) <= set(range(len(FUNCTIONS))) | {UNCOVERED}
    # a unit is covered iff some segment's line falls in it
    assert covered.tolist() == (labels != -1).tolist()
    # the label: most votes, ties to the function of the earliest voting segment
    assert projection.labels.tolist() == labels.tolist()
    # boundaries are a subset of the covered units: uncovered units are absent, not 0
    assert ((projection.boundaries == UNCOVERED) == ~covered).all()
    assert set(np.flatnonzero(projection.boundaries == 1)) <= set(np.flatnonzero(covered))
    assert (projection.boundaries == 1).tolist() == boundary.tolist()
    assert list(projection.segments_outside) == outside
