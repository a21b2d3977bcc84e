"""Units, run files and the projection (shvets2026.segments), on a hand-made text whose
units, labels, boundaries and kappas are worked out below, and on the malformed inputs
the released run files contain."""

import json
from datetime import date

import numpy as np
import pytest

from reagree.methods import runtriples
from shvets2026 import segments
from shvets2026.segments import FUNCTIONS


def parse_run(text, source="<run>", fractional_lines="line"):
    """A run file's text read with the setting's default (settings.schema.yaml: fractional_lines)."""
    return segments.parse_run(text, source, fractional_lines=fractional_lines)


P, C, E, D, N, S, R = range(7)  # preparation, contact, exchange, disruption, negotiation, stabilization, return

# A dozen lines: notes, lacunae, an en dash range, spaces around a dash, a duplicate, a
# line that is no passage, and a CRLF ending.
TEXT = "\n".join(
    [
        "1\tIn the beginning the goddess set her mind on the great below.",
        "2\tShe abandoned heaven.",
        "3\t......",
        "4\u20135\tShe spoke; and she was answered.",
        "6\tms. adds the line: she wept.",
        "7 - 8\tThe gate opened before her.",
        "9\t[ ... ] (?)",
        "10\tShe bargained at the gate.\r",
        "11\tShe came back up.",
        "12\tThus it ended.",
        "10\tShe bargained at the gate.",
        "a note without a number",
    ]
)
# Per line: units are lines 1, 2, 4, 5, 7, 8, 10, 11, 12 (3 and 9 are lacunae, 6 a note).
LINES = [1, 2, 4, 5, 7, 8, 10, 11, 12]

RUN_A = [  # a plain list; line 3 is a lacuna, so segment 2's first real line is 4
    {"segment_id": "1", "function": "preparation", "line_start": 1, "line_end": 2},
    {"segment_id": "2", "function": "contact", "line_start": 3, "line_end": 5},
    {"segment_id": "3", "function": "exchange", "line_start": "7", "line_end": "8 "},
    {"segment_id": "4", "function": "return", "line_start": 10, "line_end": 12},
]
RUN_B = {  # an object; a bad date, a duplicate id, a segment in a lacuna, one past the end
    "annotated_date": "2026-08_07",
    "segments": [
        {"segment_id": "1", "function": "preparation", "line_start": 1, "line_end": 4},
        {"segment_id": "2", "function": "contact", "line_start": 5, "line_end": 8},
        {"segment_id": "2", "function": "disruption", "line_start": 9, "line_end": 9},
        {"segment_id": "3", "function": " Return ", "line_start": 10, "line_end": 11},
        {"segment_id": "4", "function": "negotiation", "line_start": 20, "line_end": 25},
        {"segment_id": "5", "function": "exchange", "line_start": "x", "line_end": 3},
        {"segment_id": "6", "function": "omen", "line_start": 1, "line_end": 2},
    ],
}


def test_units_of_the_hand_made_text():
    units = segments.parse_units(TEXT, per_line=True, source="hand.txt")
    assert units.first_line.tolist() == LINES
    # (file line, why): file lines, not passage numbers ("6\tms. adds ..." is file line 5)
    assert dict(units.skipped) == {
        3: "lacuna",
        5: "manuscript note",
        7: "lacuna",
        11: "duplicate of line 8",
        12: "not a numbered passage",
    }
    blocks = segments.parse_units(TEXT, per_line=False)
    assert [blocks.label(u) for u in range(blocks.n_units)] == ["1", "2", "4-5", "7-8", "10", "11", "12"]
    assert blocks.units_of_lines(3, 8).tolist() == [2, 2, 3, 3]  # lines 4, 5, 7, 8; 3 and 6 are not real


@pytest.mark.parametrize("note", ["ms. adds 1 line", "mss. add 2 lines: x", "(ms. has instead: y)", "( mss. z"])
def test_manuscript_notes_are_not_units(note):
    units = segments.parse_units(f"1\tfirst\n2\t{note}\n3\tthird", per_line=True)
    assert units.first_line.tolist() == [1, 3]


def test_a_range_dash_takes_spaces_not_tabs():
    units = segments.parse_units("5\t- 7\tan aside\n9 \u2013 10\tx", per_line=True)
    assert units.first_line.tolist() == [5, 9, 10]  # "5<TAB>- 7..." is line 5 whose text starts with "-"


def test_a_note_inside_a_passage_keeps_the_passage():
    units = segments.parse_units("1-3\tShe goes (1 ms. has instead: runs) to the abzu.", per_line=False)
    assert units.n_units == 1


def test_backwards_ranges_and_overlapping_blocks_are_errors_naming_the_file():
    with pytest.raises(ValueError, match=r"t\.txt: line 1: range 5-3"):
        segments.parse_units("5-3\tx", per_line=True, source="t.txt")
    with pytest.raises(ValueError, match="overlap"):
        segments.parse_units("1-5\tx\n4-8\ty", per_line=False, source="t.txt")


def test_hand_made_runs_labels_boundaries_and_kappas():
    units = segments.parse_units(TEXT, per_line=True)
    run_a = parse_run(json.dumps(RUN_A), "a.json")
    run_b = parse_run(json.dumps(RUN_B), "b.json")
    a, b = segments.project(run_a, units), segments.project(run_b, units)
    # units:           1  2  4  5  7  8 10 11 12
    assert a.labels.tolist() == [P, P, C, C, E, E, R, R, R]
    assert a.boundaries.tolist() == [1, 0, 1, 0, 1, 0, 1, 0, 0]
    assert b.labels.tolist() == [P, P, P, C, C, C, R, R, -1]  # B stops at line 11
    assert b.boundaries.tolist() == [1, 0, 0, 1, 0, 0, 1, 0, -1]
    assert b.segments_outside == ("2", "4")  # the lacuna-only segment and lines 20-25
    # On the 8 common units: labels agree on 5 (p_o = 5/8); shares A = (P, C, E, R) 2/8
    # each, B = (P, C, R) 3/8, 3/8, 2/8, so p_e = (6 + 6 + 4) / 64 = 1/4 and
    # kappa = (5/8 - 1/4) / (3/4) = 1/2. Boundaries agree on 5 of 8; A has 4 of 8
    # boundaries, B 3 of 8: p_e = 4/8 * 3/8 + 4/8 * 5/8 = 1/2, kappa = (5/8 - 1/2) / (1/2) = 1/4.
    labels, boundaries = segments.project_runs([run_a, run_b], units)
    frame = runtriples.pair_frame(labels, boundaries, len(FUNCTIONS))
    row = frame.iloc[0]
    assert row["n_common"] == 8
    assert row["agreement_label"] == pytest.approx(5 / 8) and row["chance_label"] == pytest.approx(1 / 4)
    assert row["kappa_label"] == pytest.approx(1 / 2)
    assert row["agreement_boundary"] == pytest.approx(5 / 8) and row["chance_boundary"] == pytest.approx(1 / 2)
    assert row["kappa_boundary"] == pytest.approx(1 / 4)
    assert row["gap"] == pytest.approx(-1 / 4)


def test_block_units_collect_votes_and_break_ties_to_the_earlier_segment():
    units = segments.parse_units("1-6\tone block\n7-8\tanother\n10-12\ta third", per_line=False)
    run = parse_run(
        json.dumps(
            [
                {"segment_id": "a", "function": "exchange", "line_start": 1, "line_end": 3},
                {"segment_id": "b", "function": "contact", "line_start": 4, "line_end": 6},  # 3 votes each: a wins
                {"segment_id": "c", "function": "contact", "line_start": 7, "line_end": 7},
                {"segment_id": "d", "function": "return", "line_start": 8, "line_end": 8},
                {"segment_id": "e", "function": "return", "line_start": 9, "line_end": 11},  # line 9 is no unit
                {"segment_id": "f", "function": "contact", "line_start": 12, "line_end": 12},
            ]
        )
    )
    projection = segments.project(run, units)
    # Block 7-8: one vote each, c is earlier; block 10-12: return 2 votes, contact 1.
    assert projection.labels.tolist() == [E, C, R]
    # Boundaries: a and b start in block 1-6, c and d in 7-8, e's first real line (10) and f in 10-12.
    assert projection.boundaries.tolist() == [1, 1, 1]


def test_a_function_tie_goes_to_the_function_of_the_earliest_voting_segment():
    units = segments.parse_units("1-6\tone block", per_line=False)
    run = parse_run(
        json.dumps(
            [
                {"function": "contact", "line_start": 1, "line_end": 2},
                {"function": "exchange", "line_start": 3, "line_end": 5},
                {"function": "contact", "line_start": 6, "line_end": 6},
            ]
        )
    )
    assert segments.project(run, units).labels.tolist() == [C]  # contact 3 votes, exchange 3, contact first


def test_uncovered_units_are_absent_not_labelled():
    units = segments.parse_units(TEXT, per_line=True)
    run = parse_run(json.dumps([{"function": "return", "line_start": 10, "line_end": 11}]))
    projection = segments.project(run, units)
    assert projection.covered.tolist() == [False] * 6 + [True, True, False]
    assert projection.boundaries.tolist() == [-1] * 6 + [1, 0, -1]


def test_malformed_run_fields_are_read_or_skipped_and_reported():
    run = parse_run(json.dumps(RUN_B), "b.json")
    assert run.annotated_date == date(2026, 8, 7)
    assert run.date_note == "malformed annotated_date '2026-08_07' read as 2026-08-07"
    assert run.duplicate_ids == ("2",)
    assert [(position, reason.split(" ")[0]) for position, _, reason in run.skipped] == [
        (5, "line_start"),
        (6, "function"),
    ]
    assert [s.function for s in run.segments] == ["preparation", "contact", "disruption", "return", "negotiation"]
    units = segments.parse_units(TEXT, per_line=True)
    rows = segments.diagnostics_rows(run, segments.project(run, units), reader="b")
    issues = sorted(row["issue"] for row in rows)
    assert issues == [
        "annotated_date",
        "duplicate segment_id",
        "segment outside the text",
        "segment outside the text",
        "segment skipped",
        "segment skipped",
    ]


@pytest.mark.parametrize(
    "value, read",
    [
        (7, 7),
        ("7", 7),
        ("8 ", 8),
        (" 12", 12),
        (13.0, 13),
        (13.8, 13),
        (True, None),
        (None, None),
        ("13.8", None),
        ("x", None),
        ([1], None),
    ],
)
def test_line_numbers(value, read):
    assert segments.parse_line_number(value, "line") == read


def test_fractional_line_numbers_are_a_sub_line_or_skipped_on_request():
    document = json.dumps([{"function": "return", "line_start": 290, "line_end": 305.3}])
    read = parse_run(document)
    assert (read.segments[0].line_start, read.segments[0].line_end) == (290, 305)
    assert "305.3" in read.notes[0][2]
    skipped = parse_run(document, fractional_lines="skip")
    assert skipped.segments == () and len(skipped.skipped) == 1


def test_segments_sort_by_start_then_end_and_keep_file_order_on_ties():
    run = parse_run(
        json.dumps(
            [
                {"segment_id": "late", "function": "return", "line_start": 5, "line_end": 9},
                {"segment_id": "long", "function": "contact", "line_start": 1, "line_end": 9},
                {"segment_id": "short", "function": "contact", "line_start": 1, "line_end": 3},
                {"segment_id": "short-again", "function": "exchange", "line_start": 1, "line_end": 3},
            ]
        )
    )
    assert [s.segment_id for s in run.segments] == ["short", "short-again", "long", "late"]
    assert segments.first_segment(run).segment_id == "short"


@pytest.mark.parametrize(
    "text, date_read, flagged",
    [
        ("2026-07-09", date(2026, 7, 9), False),
        ("2026-08_07", date(2026, 8, 7), True),
        ("2026/8/7", date(2026, 8, 7), True),
        ("2026-02-30", None, True),
        ("soon", None, True),
        (None, None, True),
    ],
)
def test_dates(text, date_read, flagged):
    read, note = segments.parse_date(text)
    assert read == date_read and bool(note) == flagged


def test_invalid_json_names_file_and_line():
    with pytest.raises(ValueError, match=r"run\.json: line 3, column"):
        parse_run('{\n "segments": [\n  {"function": "x",,}\n ]\n}', "run.json")
    with pytest.raises(ValueError, match="run.json: a run is a list"):
        parse_run('"just text"', "run.json")
    with pytest.raises(ValueError, match="'segments' list"):
        parse_run('{"annotated_date": "2026-01-01"}', "run.json")


def test_interval_days_and_boundary_share():
    early = parse_run('{"annotated_date": "2025-10-10", "segments": []}')
    late = parse_run('{"annotated_date": "2026-08-21", "segments": []}')
    assert segments.interval_days(early, late) == 315
    assert np.isnan(segments.interval_days(early, parse_run("[]")))
    assert segments.boundary_share(np.array([[1, 0, 0, -1], [1, 1, 0, 0]])) == pytest.approx(3 / 7)


def test_projection_table_round_trip():
    units = segments.parse_units(TEXT, per_line=True)
    runs = [parse_run(json.dumps(RUN_A)), parse_run(json.dumps(RUN_B))]
    frame = segments.projection_frame({"reader": runs}, units, myth="hand")
    labels, boundaries = segments.codes_from_frame(frame, "reader", units.n_units)
    expected_labels, expected_boundaries = segments.project_runs(runs, units)
    assert (labels == expected_labels).all() and (boundaries == expected_boundaries).all()
    assert frame.loc[frame["unit"] == 2, "lines"].iloc[0] == "4"


def test_worked_example_of_a_prompt_is_parsed_not_evaluated():
    prompt = (
        'Fields ... Follow this schema per element:\n[\n  {\n    "segment_id": "1",\n'
        '    "evidence": ["It was time [to decide]"],\n    "line_start": 1,\n    "line_end": 9\n  }\n]\nDone.'
    )
    example = segments.worked_example_segments(prompt)
    assert (example[0]["line_start"], example[0]["line_end"]) == (1, 9)
    with pytest.raises(ValueError, match="p.txt: no JSON array"):
        segments.worked_example_segments("[\n  {\n    segment_id 1,\n    line_start 1\n  }\n]", "p.txt")


def test_released_texts_give_the_papers_unit_counts(mirror):
    """71 blocks (Inanna and Enki), 405 and 804 lines: Section 3.3 of the paper."""
    texts = (
        mirror
        / "raw.githubusercontent.com/Malificenta883/intra-annotator-dynamics"
        / "5241a8bc2cb91b3ad39c0b79f26679427fd75491/texts"
    )
    counts = {
        myth: segments.read_units(texts / f"{myth}_numbered.txt", per_line=myth != "inanna_enki").n_units
        for myth in ("inanna_enki", "inanna_descent", "gudea")
    }
    assert counts == {"inanna_enki": 71, "inanna_descent": 405, "gudea": 804}


def test_segment_lengths_segment_counts_numbered_lines_and_date_spans():
    units = segments.parse_units(TEXT, per_line=True)
    run_a = parse_run(json.dumps(RUN_A), "a.json")
    run_c = parse_run(json.dumps(RUN_A[:2]), "c.json")
    # RUN_A: lines 1-2, 3-5, 7-8, 10-12 -> 2, 3, 2, 3 lines; run c: 2 and 3
    assert segments.mean_segment_lines([run_a, run_c]) == pytest.approx(15 / 6)
    assert segments.mean_segments([run_a, run_c]) == pytest.approx(3.0)
    assert np.isnan(segments.mean_segments([])) and np.isnan(segments.mean_segment_lines([]))
    # 9 units, two lacunae (3, 9) and a note (6): lines 1 to 12; the duplicate and the line
    # without a number are no numbered lines of their own
    assert segments.numbered_lines(units) == 12
    with pytest.raises(ValueError, match="blocks"):
        segments.numbered_lines(segments.parse_units(TEXT, per_line=False, source="b.txt"))
    assert segments.date_span(["2026-08-13", date(2026, 6, 29), " 2026-07-01"]) == (20260629, 20260813)
    with pytest.raises(ValueError, match="'2026-08_07' is not YYYY-MM-DD"):
        segments.date_span(["2026-08_07"])
    with pytest.raises(ValueError, match="no dates"):
        segments.date_span([])


def test_quoted_lines_find_the_numbered_passage_of_each_quotation():
    # typographic quotes read as plain ones; a passage "4-5" is found at its first line
    text = (
        "1\tIt was time to decide destinies,\n2\tLagash had raised the head in large \u2018me\u2019,\n"
        "3\tEnlil looked upon Ningirsu.\n4-5\tThe flood, did it not twinkle?\n"
    )
    found = segments.quoted_lines(
        ["It was time to decide destinies", "Lagash had raised the head in large 'me'", "did it not twinkle"],
        text,
        "gudea.txt",
    )
    assert found == [1, 2, 4]
    with pytest.raises(ValueError, match=r"gudea.txt: no numbered passage of the text holds the quotation 'Ninurta'"):
        segments.quoted_lines(["Ninurta"], text, "gudea.txt")


def test_the_median_run_against_the_mean_run():
    # kept segments 24, 25, 58: the median is 25, the mean 35.67 (by hand)
    runs = [
        segments.Run(f"run{n}", tuple(segments.Segment(i, str(i), "contact", i, i) for i in range(n)))
        for n in (24, 25, 58)
    ]
    assert segments.median_segments(runs) == 25
    assert segments.mean_segments(runs) == pytest.approx(107 / 3)
