"""Annotations keyed by id: reading long and wide tables, the views coefficients read.

Every expected number below is worked out by hand in the comments next to it.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reagree.io.annotations import (
    LineError,
    from_long,
    from_records,
    from_wide,
    read_annotations,
    read_wide_annotations,
)
from reagree.stats import multirater
from reagree.stats.alpha import krippendorff_alpha
from reagree.stats.labels import Annotations
from reagree.stats.ratings import MISSING

# Two ids one apart at 1.2e18: as floats they are the same number (float64 spacing there
# is 256), so any float round-trip merges the two units.
ID_1 = "1234567890123456789"
ID_2 = "1234567890123456790"
ID_3 = "9999999999999999999"
CATEGORIES = ["neg", "neu", "pos"]

# Written with a UTF-8 BOM, CRLF line ends and some quoted fields. Line numbers (header = 1):
LONG = (
    '"item","coder","label"\r\n'  # 1
    f"{ID_1},A,pos\r\n"  # 2
    f'"{ID_1}",B,"pos"\r\n'  # 3
    f"{ID_1},C,neg\r\n"  # 4
    f"{ID_2},A,neg\r\n"  # 5
    f"{ID_2},B,neg\r\n"  # 6
    f"{ID_2},C,neg\r\n"  # 7
    f"{ID_2},B,neg\r\n"  # 8  B again on ID_2, the same label (a duplicate line): a self pair that agrees
    f"{ID_3},A,pos\r\n"  # 9
    f"{ID_3},B, neu \r\n"  # 10 label with spaces: stripped
    f"{ID_3},A,neu\r\n"  # 11 A again on ID_3, a different label: a self pair that disagrees
    f"{ID_3},C,neu\r\n"  # 12
)


def write(tmp_path: Path, name: str, text: str, bom: bool = True) -> Path:
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


@pytest.fixture
def long_file(tmp_path):
    return write(tmp_path, "labels.csv", LONG)


@pytest.fixture
def annotations(long_file):
    return read_annotations(long_file, unit="item", rater="coder", label="label", categories=CATEGORIES)


def test_ids_stay_exact_text_and_codes_are_compact(annotations):
    assert annotations.unit_ids.tolist() == [ID_1, ID_2, ID_3]
    assert annotations.rater_ids == ("A", "B", "C")
    assert annotations.categories == ("neg", "neu", "pos")
    assert annotations.n_labels == 11
    # file order: ID_1 x3, ID_2 x4, ID_3 x4
    assert annotations.unit.tolist() == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert annotations.rater.tolist() == [0, 1, 2, 0, 1, 2, 1, 0, 1, 0, 2]
    assert annotations.code.tolist() == [2, 2, 0, 0, 0, 0, 0, 2, 1, 1, 1]
    # B's second label on ID_2 (line 8) and A's second label on ID_3 (line 11) are occasion 1
    assert annotations.occasion.tolist() == [0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]
    assert annotations.unit.dtype.itemsize <= 4 and annotations.code.dtype.itemsize == 1
    # label totals: neg = lines 4,5,6,7,8 = 5; neu = 10,11,12 = 3; pos = 2,3,9 = 3
    assert annotations.label_counts().tolist() == [5, 3, 3]


def test_inter_view_first_label_counts_and_coefficients(annotations):
    view = annotations.inter(repeats="first")
    assert view.unit_ids.tolist() == [ID_1, ID_2, ID_3]
    # ID_1: A pos, B pos, C neg -> [1, 0, 2]; ID_2: A, B (first), C all neg -> [3, 0, 0];
    # ID_3: A's first label pos, B neu, C neu -> [0, 2, 1]
    assert view.counts.tolist() == [[1, 0, 2], [3, 0, 0], [0, 2, 1]]
    # Percent agreement (share of agreeing pairs among the 3 pairs of each unit):
    # ID_1 1/3 (pos-pos), ID_2 3/3, ID_3 1/3 (neu-neu); mean (1/3 + 1 + 1/3) / 3 = 5/9
    assert multirater.percent_agreement(view.counts) == pytest.approx(5 / 9)
    # Fleiss: P_bar = 5/9; category shares of the 9 ratings neg 4/9, neu 2/9, pos 3/9,
    # P_e = (16 + 4 + 9) / 81 = 29/81; kappa = (45/81 - 29/81) / (52/81) = 16/52 = 4/13
    assert multirater.fleiss_kappa(view.counts) == pytest.approx(4 / 13)
    # Krippendorff nominal: coincidences (weight 1/(3-1) per pair): ID_1 gives o(neg,pos) =
    # o(pos,neg) = 1, o(pos,pos) = 1; ID_2 gives o(neg,neg) = 3; ID_3 gives o(neu,neu) = 1,
    # o(neu,pos) = o(pos,neu) = 1. Off-diagonal total 4, n_c = (4, 2, 3), n = 9:
    # alpha = 1 - (n - 1) * 4 / (n^2 - sum n_c^2) = 1 - 8 * 4 / (81 - 29) = 1 - 32/52 = 5/13
    ratings = view.ratings()
    assert ratings.raters == ("A", "B", "C")
    assert ratings.codes.tolist() == [[2, 2, 0], [0, 0, 0], [2, 1, 1]]
    assert krippendorff_alpha(ratings, "nominal") == pytest.approx(5 / 13)


def test_inter_view_all_labels_keeps_repeats_as_ratings(annotations):
    view = annotations.inter(repeats="all")
    # ID_2 gains B's second neg -> [4, 0, 0]; ID_3 gains A's second label neu -> [0, 3, 1]
    assert view.counts.tolist() == [[1, 0, 2], [4, 0, 0], [0, 3, 1]]
    with pytest.raises(ValueError, match="repeats='all'"):
        view.ratings()


def test_self_agreement_view(annotations):
    view = annotations.self_agreement()
    # (ID_2, B): neg, neg; (ID_3, A): pos then neu. Ordered by item, then rater.
    assert view.unit_ids.tolist() == [ID_2, ID_3]
    assert view.unit_raters.tolist() == ["B", "A"]
    assert view.counts.tolist() == [[2, 0, 0], [0, 1, 1]]
    ratings = view.ratings()
    assert ratings.raters == ("occasion_1", "occasion_2")
    assert ratings.codes.tolist() == [[0, 0], [2, 1]]
    # one of the two pairs agrees
    assert multirater.percent_agreement(view.counts) == pytest.approx(1 / 2)
    # coincidences: o(neg,neg) = 2, o(neu,pos) = o(pos,neu) = 1; n_c = (2, 1, 1), n = 4:
    # alpha = 1 - (4 - 1) * 2 / (16 - 6) = 1 - 6/10 = 0.4
    assert krippendorff_alpha(ratings, "nominal") == pytest.approx(0.4)


def test_raters_subset_view(annotations):
    view = annotations.raters(["C", "A"])
    # every item has both A and C: ID_1 C neg, A pos; ID_2 neg, neg; ID_3 C neu, A pos (first)
    assert view.ratings().codes.tolist() == [[0, 2], [0, 0], [1, 2]]
    assert view.counts.tolist() == [[1, 0, 1], [2, 0, 0], [0, 1, 1]]
    # min_raters: only items two of {B} rated -> none; with min_raters=1, all three
    assert annotations.raters(["B"]).n_units == 0
    assert annotations.raters(["B"], min_raters=1).counts.tolist() == [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
    with pytest.raises(ValueError, match="unknown rater"):
        annotations.raters(["A", "Z"])


def test_explicit_occasion_column_orders_repeats(tmp_path):
    path = write(tmp_path, "occ.tsv", "unit\trater\tlabel\trun\nu1\tA\tx\t10\nu1\tA\ty\t9\nu1\tB\tx\t1\n", bom=False)
    annotations = read_annotations(path, occasion="run")
    # run 9 comes before run 10 (compared as numbers, not as text), so A's first label is y
    assert annotations.occasion.tolist() == [1, 0, 0]
    assert annotations.inter().counts.tolist() == [[1, 1]]  # categories sorted: x, y; A -> y, B -> x
    assert annotations.self_agreement().ratings().codes.tolist() == [[1, 0]]
    twice = write(tmp_path, "twice.tsv", "unit\trater\tlabel\trun\nu1\tA\tx\t1\nu1\tA\ty\t1\n", bom=False)
    with pytest.raises(ValueError, match=r"lines \[2, 3\].*same occasion"):
        read_annotations(twice, occasion="run")


def test_wide_equals_long(tmp_path):
    wide = write(
        tmp_path, "wide.csv", f'id,A,B,C\r\n{ID_1},pos,pos,neg\r\n{ID_2},neg,,neg\r\n{ID_3},pos,neu,\r\n"7",,,\r\n'
    )
    long = write(
        tmp_path,
        "long.tsv",
        f"id\trater\tlabel\n{ID_1}\tA\tpos\n{ID_1}\tB\tpos\n{ID_1}\tC\tneg\n{ID_2}\tA\tneg\n"
        f"{ID_2}\tC\tneg\n{ID_3}\tA\tpos\n{ID_3}\tB\tneu\n",
        bom=False,
    )
    read_wide = read_wide_annotations(wide, unit="id", categories=CATEGORIES)
    read_long = read_annotations(long, unit="id", categories=CATEGORIES)
    # the wide table's unit "7" has no label: it is a unit nobody rated
    assert read_wide.unit_ids.tolist() == [ID_1, ID_2, ID_3, "7"]
    assert read_wide.rater_ids == read_long.rater_ids == ("A", "B", "C")
    pd.testing.assert_frame_equal(read_wide.to_frame(), read_long.to_frame())
    for view in ("inter", "self_agreement"):
        a, b = getattr(read_wide, view)(), getattr(read_long, view)()
        assert a.unit_ids.tolist() == b.unit_ids.tolist()
        assert np.array_equal(a.counts, b.counts)
    assert np.array_equal(read_wide.inter(min_raters=1).ratings().codes, [[2, 2, 0], [0, MISSING, 0], [2, 1, MISSING]])
    # concatenated, the unlabelled unit stays and every label of the first is repeated by the second:
    # 7 labels each, 7 (item, rater) pairs labelled twice, all agreeing
    both = Annotations.concat([read_wide, read_long])
    assert both.unit_ids.tolist() == [ID_1, ID_2, ID_3, "7"] and both.n_labels == 14
    assert both.self_agreement().n_units == 7 and multirater.percent_agreement(both.self_agreement().counts) == 1
    # the in-memory constructor gives the same
    frame = pd.read_csv(wide, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    in_memory = from_wide(frame, unit="id", categories=CATEGORIES)
    pd.testing.assert_frame_equal(in_memory.to_frame(), read_wide.to_frame())


def test_separator_by_extension_or_sniffed(tmp_path):
    text = f"u;r;l\n{ID_1};A;x\n{ID_1};B;x\n"
    sniffed = read_annotations(write(tmp_path, "labels.txt", text, bom=False), "u", "r", "l")
    assert sniffed.unit_ids.tolist() == [ID_1] and sniffed.inter().counts.tolist() == [[2]]
    tabs = read_annotations(write(tmp_path, "labels.csv", text.replace(";", "\t"), bom=False), "u", "r", "l")
    assert tabs.inter().counts.tolist() == [[2]]


def test_concat_matches_ids_as_text(annotations):
    other = from_records([ID_3, "x"], ["A", "D"], ["neg", "pos"], categories=CATEGORIES, source="more")
    joined = Annotations.concat([annotations, other])
    assert joined.unit_ids.tolist() == [ID_1, ID_2, ID_3, "x"]
    assert joined.rater_ids == ("A", "B", "C", "D")
    # A on ID_3: pos, neu (first file), then neg (second file) -> one self unit of three labels
    own = joined.self_agreement()
    assert own.counts.tolist() == [[2, 0, 0], [1, 1, 1]]
    assert own.ratings().codes.tolist() == [[0, 0, MISSING], [2, 1, 0]]


def test_in_memory_ids_refuse_floats():
    assert from_records([10**18 + 1], ["A"], ["x"]).unit_ids.tolist() == ["1000000000000000001"]
    frame = pd.DataFrame({"unit": [1.234e18], "rater": ["A"], "label": ["x"]})
    with pytest.raises(ValueError, match="not text"):
        from_long(frame)


# --- errors name the file and the line ------------------------------------------------------


def test_unknown_label_names_file_and_line(tmp_path):
    path = write(tmp_path, "bad.csv", LONG.replace(f"{ID_2},C,neg", f"{ID_2},C,negative"))
    with pytest.raises(ValueError, match=r"bad\.csv: line 7: label 'negative' is not one of the categories") as error:
        read_annotations(path, "item", "coder", "label", categories=CATEGORIES)
    assert isinstance(error.value, LineError) and error.value.line == 7


def test_missing_column_lists_the_columns_found(long_file):
    with pytest.raises(
        ValueError,
        match=r"labels\.csv: missing column\(s\) \['annotator'\]; "
        r"found \['item', 'coder', 'label'\]",
    ):
        read_annotations(long_file, "item", "annotator", "label")


def test_extra_field_names_the_line(tmp_path):
    path = write(tmp_path, "extra.csv", LONG.replace(f"{ID_3},A,neu\r\n", f"{ID_3},A,neu,1\r\n"))
    with pytest.raises(ValueError, match=r"extra\.csv: line 11: 4 fields where the header has 3"):
        read_annotations(path, "item", "coder", "label")


def test_short_row_names_the_line_and_shows_it(tmp_path):
    path = write(tmp_path, "short.csv", LONG.replace(f"{ID_2},A,neg\r\n", f"{ID_2},neg\r\n"))
    with pytest.raises(ValueError, match=r"short\.csv: line 5: empty label .*2 fields, the header has 3"):
        read_annotations(path, "item", "coder", "label")


def test_blank_lines_are_skipped_but_counted(tmp_path):
    path = write(tmp_path, "blank.csv", LONG.replace("\r\n", "\r\n\r\n", 2).replace(f"{ID_3},C,neu", f"{ID_3},C,bad"))
    # two blank lines inserted after lines 1 and 2: the bad label on line 12 is now on line 14
    with pytest.raises(ValueError, match=r"line 14: label 'bad'"):
        read_annotations(path, "item", "coder", "label", categories=CATEGORIES)


def test_quoted_line_break_keeps_line_numbers(tmp_path):
    text = 'unit,rater,label,comment\nu1,A,x,"two\nlines"\nu1,B,x,\nu2,A,,\n'
    path = write(tmp_path, "quoted.csv", text, bom=False)
    # the quoted comment spans lines 2-3, so the empty label of u2 is on line 5
    with pytest.raises(ValueError, match=r"line 5: empty label"):
        read_annotations(path)


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes("unit,rater,label\nu1,A,x\nu2,B,caf\u00e9\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1\.csv: line 3: not UTF-8"):
        read_annotations(path)


def test_wide_duplicate_unit_names_both_lines(tmp_path):
    path = write(tmp_path, "dup.csv", "id,A,B\nu1,x,y\nu2,x,x\nu1,y,y\n", bom=False)
    with pytest.raises(ValueError, match=r"dup\.csv: unit id 'u1' appears on lines \[2, 4\]"):
        read_wide_annotations(path, unit="id")


def test_id_patterns_name_the_line(tmp_path):
    path = write(tmp_path, "ids.csv", f"unit,rater,label\r\n{ID_1},1,x\r\n1.23457E+18,2,x\r\n")
    with pytest.raises(ValueError, match=r"ids\.csv: line 3: unit id '1\.23457E\+18' does not match"):
        read_annotations(path, unit_pattern=r"\d{17,19}", rater_pattern=r"\d+")
    assert read_annotations(path, rater_pattern=r"\d+").n_units == 2


def test_the_share_of_labels_the_busiest_raters_gave_by_hand():
    # r1 gives 3 labels, r2 2, r3 1: the top one gave 3 of 6 (50%), the top two 5 of 6
    annotations = from_records(
        ["u1", "u2", "u3", "u1", "u2", "u1"], ["r1", "r1", "r1", "r2", "r2", "r3"], ["a", "b", "a", "a", "b", "b"]
    )
    assert annotations.top_raters_percent(1) == pytest.approx(50.0)
    assert annotations.top_raters_percent(2) == pytest.approx(500 / 6)
    assert annotations.top_raters_percent(5) == pytest.approx(100.0)
    with pytest.raises(ValueError, match="count >= 1"):
        annotations.top_raters_percent(0)
