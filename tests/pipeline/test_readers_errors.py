"""A released table that cannot be read as it should is one clear error naming the file
(and the line, counted as in the file), never a bare pandas or codec exception."""

import pytest

from reagree.pipeline.readers import read_label_table, read_text, require_labels


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_an_empty_file_is_named(tmp_path):
    path = write(tmp_path, "empty.tsv", b"")
    with pytest.raises(ValueError, match=r"empty.tsv: the file is empty"):
        read_label_table(path, ["A"])


def test_a_header_without_rows_is_named(tmp_path):
    path = write(tmp_path, "header.tsv", b"A\tB\n")
    with pytest.raises(ValueError, match=r"header.tsv: the file has a header but no rows"):
        read_label_table(path, ["A"])


def test_latin1_text_names_file_line_and_byte(tmp_path):
    path = write(tmp_path, "latin.tsv", "A\tB\npos\tneg\nn\u00e9g\tpos\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin.tsv, line 3: byte 0xe9 is not UTF-8"):
        read_text(path)


def test_utf16_text_says_so(tmp_path):
    path = write(tmp_path, "wide.tsv", "A\tB\npos\tneg\n".encode("utf-16"))
    with pytest.raises(ValueError, match=r"wide.tsv: the file is UTF-16 text; save it as UTF-8"):
        read_label_table(path, ["A"])


def test_blank_lines_do_not_shift_line_numbers(tmp_path):
    path = write(tmp_path, "gaps.tsv", b"A\tB\npos\tneg\n\n\nneg\tmaybe\n")
    table = read_label_table(path, ["A", "B"])
    assert table["line"].tolist() == [2, 5]
    with pytest.raises(ValueError, match=r"gaps.tsv: line 5, column 'B': label 'maybe'"):
        require_labels(table, ["neg", "pos"], path)


def test_a_repeated_column_is_refused(tmp_path):
    path = write(tmp_path, "twice.tsv", b"A\tA\tB\npos\tneg\tpos\n")
    with pytest.raises(ValueError, match=r"twice.tsv: a column name appears twice"):
        read_label_table(path, ["A", "B"])
