"""Reading annotation tables into ``Annotations`` (``reagree.stats.labels``): long rows
(unit id, rater id, label[, occasion]) or wide ones, from CSV/TSV files or DataFrames.

What this module decides:

- **Long and wide.** Long: one row per label given: which unit (item, tweet, message) by
  its id, which rater by its id, which label, and optionally on which occasion
  (``read_annotations``, ``from_long``, ``from_records``). A wide table (one row per unit,
  a unit id column, one column per rater; an empty cell is a missing label) is the same
  model (``from_wide``, ``read_wide_annotations``).
- **Ids are text.** Unit and rater ids are read as strings and never pass through a
  number: a 19-digit tweet id survives byte for byte (a float keeps 15-17 digits; a
  spreadsheet round-trip prints ``1.68E+18``). Ids and labels are stripped of surrounding
  whitespace; an id or label that is empty after stripping is an error (in the long form:
  a missing label is a row that is not there; in the wide form an empty cell is missing).
- **Codes.** Unit ids and rater ids are numbered in order of first appearance (a wide
  table: its rows and its rater columns, in order). Categories are the declared ones in
  the declared order (which is the order ordinal and interval metrics use), else the
  sorted observed labels. A label outside the declared categories is an error.
- **Occasions.** ``occasion`` numbers a rater's labels on one unit 0, 1, 2, ... in the
  order of the occasion column when there is one (integers compared as numbers, anything
  else as text; two labels of one rater on one unit on the same occasion are an error),
  else in file order.
- **Files.** Regular files only, of at most ``max_bytes`` (default
  ``reagree.files.MAX_TABLE_BYTES``, 2 GiB): a folder, a device or a FIFO is refused
  before a byte is read, a larger file after ``max_bytes`` bytes (``reagree.files``).
  CSV or TSV, chosen by the extension (.csv / .tsv, .tab) when the header line
  holds that separator, else sniffed from the header line (tab, comma or semicolon,
  whichever occurs most). UTF-8 text unless another ``encoding`` is named (Latin-1,
  cp1252, UTF-16, ...: decoded, then read as the same text). LF or CRLF line ends, an
  optional UTF-8 byte-order mark, quoted or unquoted fields. Wholly blank lines carry no label and are skipped (line numbers
  still count them). Anything else that is malformed (a row with more fields than the
  header, an empty id or label, a label outside the categories, an id that does not match
  a given ``unit_pattern`` / ``rater_pattern``, bytes that are not text in the encoding:
  an ``EncodingError``) raises
  ``ValueError`` (a ``LineError`` with ``.line``) naming the file and the 1-based file line
  (the header is line 1; a quoted field spanning lines is counted), and shows the line; a
  missing column raises naming it and listing the columns found (``MissingColumns``). The reader never
  guesses: a row is taken as written or the read stops.

Speed: reading a 1.6-million-row CSV (parse, codes, occasions) takes a few seconds and a few
hundred MB.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from reagree.files import MAX_TABLE_BYTES, read_bounded
from reagree.io import reads
from reagree.stats.labels import Annotations, number_occasions

__all__ = [
    "TOO_LARGE",
    "EncodingError",
    "LineError",
    "MissingColumns",
    "NotTextEncoding",
    "from_long",
    "from_records",
    "from_wide",
    "read_annotations",
    "read_wide_annotations",
    "text_codec",
]

_SEPARATORS = ("\t", ",", ";")
_BY_SUFFIX = {".tsv": "\t", ".tab": "\t", ".csv": ","}
_PARSER_LINE = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_INTEGER = re.compile(r"^[+-]?\d+$")


class LineError(ValueError):
    """A ValueError about one file line; ``line`` is that 1-based line number."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = int(line)


class EncodingError(LineError):
    """Bytes that are not text in the file's encoding (``encoding``), at ``line``."""

    def __init__(self, message: str, line: int, encoding: str) -> None:
        super().__init__(message, line)
        self.encoding = encoding


class MissingColumns(ValueError):
    """Columns asked for that the table does not have: ``absent`` and the columns ``found``."""

    def __init__(self, message: str, absent: list, found: list) -> None:
        super().__init__(message)
        self.absent, self.found = list(absent), list(found)


# --- tables in memory ---------------------------------------------------------------------


def from_records(
    units: Sequence,
    raters: Sequence,
    labels: Sequence,
    occasions: Sequence | None = None,
    categories: Sequence | None = None,
    source: str = "annotations",
    lines: Sequence[int] | None = None,
) -> Annotations:
    """Build from parallel sequences (one entry per label). ``lines`` gives each label's
    1-based file line for error messages (default: its 1-based position)."""
    columns = {"unit": units, "rater": raters, "label": labels}
    if occasions is not None:
        columns["occasion"] = occasions
    columns = {role: _text_codes(pd.Series(values, dtype=object, name=role)) for role, values in columns.items()}
    lengths = {name: len(column[0]) for name, column in columns.items()}
    if len(set(lengths.values())) != 1:
        raise ValueError(f"{source}: columns of different lengths {lengths}")
    n = lengths["unit"]
    line = np.asarray(lines, dtype=np.int64) if lines is not None else np.arange(1, n + 1, dtype=np.int64)
    return _build(columns, categories, source, line)


def from_long(
    frame: pd.DataFrame,
    unit: str = "unit",
    rater: str = "rater",
    label: str = "label",
    occasion: str | None = None,
    categories: Sequence | None = None,
    source: str = "annotations",
) -> Annotations:
    """Build from a long DataFrame (one row per label). Cells are taken as text; a row's
    position (1-based, +1 for a header) is its line in error messages."""
    names = {"unit": unit, "rater": rater, "label": label}
    if occasion is not None:
        names["occasion"] = occasion
    _require_columns(list(frame.columns), list(names.values()), source)
    columns = {role: _text_codes(frame[name]) for role, name in names.items()}
    line = np.arange(2, len(frame) + 2, dtype=np.int64)
    return _build(columns, categories, source, line)


def from_wide(
    frame: pd.DataFrame,
    unit: str,
    raters: Sequence[str] | None = None,
    categories: Sequence | None = None,
    source: str = "annotations",
    lines: Sequence[int] | None = None,
) -> Annotations:
    """Build from a wide table: one row per unit, the ``unit`` id column, one column
    per rater (``raters``, default every other column). An empty cell (None, NaN, or
    blank) is a missing label. Labels enter in row order, then column order; a unit id
    on two rows is an error naming both lines."""
    columns = [str(c) for c in frame.columns]
    cells = frame.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(cells.ravel(), skipna=False) != "string":  # numbers or None among the cells
        cells = frame.apply(_as_text).to_numpy(dtype=object)
    line = np.asarray(lines, dtype=np.int64) if lines is not None else np.arange(2, len(frame) + 2, dtype=np.int64)
    return _from_wide_cells(columns, cells, unit, raters, categories, source, line)


# --- reading files ------------------------------------------------------------------------


def read_annotations(
    path: str | Path,
    unit: str = "unit",
    rater: str = "rater",
    label: str = "label",
    occasion: str | None = None,
    categories: Sequence | None = None,
    sep: str | None = None,
    unit_pattern: str | None = None,
    rater_pattern: str | None = None,
    encoding: str = "utf-8",
    max_bytes: int = MAX_TABLE_BYTES,
) -> Annotations:
    """Long rows from a CSV/TSV file: the columns named ``unit``, ``rater``, ``label``
    (and ``occasion`` if given); other columns are ignored. ``unit_pattern`` /
    ``rater_pattern``: regular expressions every (stripped) id must match in full, e.g.
    ``r"[0-9]{17,19}"`` for tweet ids; the first id that does not names its line. See the
    module docstring for what is accepted and what raises. ``encoding``: the file's
    (any codec Python knows, e.g. "latin-1"; default UTF-8). ``max_bytes``: the most
    bytes read (a longer file is refused)."""
    path = Path(path)
    header, cells, line, sep, padded = _read_table(path, sep, encoding, max_bytes)
    names = {"unit": unit, "rater": rater, "label": label}
    if occasion is not None:
        names["occasion"] = occasion
    _require_columns(header, list(names.values()), str(path))
    position = {name: i for i, name in enumerate(header)}
    columns = {role: pd.Series(cells[:, position[name]], dtype=object, name=name) for role, name in names.items()}
    try:
        return _build(
            columns, categories, str(path), line, padded=padded, patterns={"unit": unit_pattern, "rater": rater_pattern}
        )
    except LineError as error:
        raise LineError(f"{error}{_line_context(path, error.line, sep, len(header), encoding)}", error.line) from None


def read_wide_annotations(
    path: str | Path,
    unit: str,
    raters: Sequence[str] | None = None,
    categories: Sequence | None = None,
    sep: str | None = None,
    encoding: str = "utf-8",
    max_bytes: int = MAX_TABLE_BYTES,
) -> Annotations:
    """A wide CSV/TSV file (one row per unit, one column per rater), as
    ``Annotations.from_wide`` reads a DataFrame."""
    path = Path(path)
    header, cells, line, sep, _ = _read_table(path, sep, encoding, max_bytes)
    try:
        return _from_wide_cells(header, cells, unit, raters, categories, str(path), line)
    except LineError as error:
        raise LineError(f"{error}{_line_context(path, error.line, sep, len(header), encoding)}", error.line) from None


def _from_wide_cells(
    columns: list[str],
    cells: np.ndarray,
    unit: str,
    raters: Sequence[str] | None,
    categories: Sequence | None,
    source: str,
    line: np.ndarray,
) -> Annotations:
    """``from_wide`` on a (rows, columns) array of text cells named by ``columns``. Every
    step is one pass over the cells or the columns, never one per column pair or per
    column: a table of 100,000 rater columns stays linear."""
    raters = [str(r) for r in raters] if raters is not None else [c for c in columns if c != unit]
    _require_columns(columns, [unit, *raters], source)
    if not raters:
        raise ValueError(f"{source}: a wide table needs at least one rater column besides {unit!r}")
    position = {name: i for i, name in enumerate(columns)}
    ids = pd.Series(cells[:, position[unit]], dtype=object).str.strip()
    repeated = ids.duplicated(keep=False).to_numpy()
    if repeated.any():
        first = int(np.flatnonzero(repeated)[0])
        twins = np.flatnonzero(repeated & (ids.to_numpy() == ids.iloc[first]))
        raise LineError(
            f"{source}: unit id {ids.iloc[first]!r} appears on lines {line[twins].tolist()}; "
            "a wide table holds one row per unit",
            line[twins[-1]],
        )
    empty_id = (ids == "").to_numpy()
    if empty_id.any():
        row = int(np.flatnonzero(empty_id)[0])
        raise LineError(f"{source}: line {line[row]}: empty unit id", line[row])
    labels = cells[:, [position[r] for r in raters]].ravel()  # row-major: row order, then column order
    present = np.flatnonzero((pd.Series(labels, dtype=object).str.strip() != "").to_numpy(dtype=bool))
    rows, cols = np.divmod(present, len(raters))
    long = {
        "unit": pd.Series(ids.to_numpy()[rows], dtype=object),
        "rater": pd.Series(np.asarray(raters, dtype=object)[cols], dtype=object),
        "label": pd.Series(labels[present], dtype=object),
    }
    return _build(long, categories, source, line[rows], keep_units=ids.to_numpy(), keep_raters=raters)


class NotTextEncoding(ValueError):
    """A codec that exists but does not decode bytes into text (``text_codec``)."""


def text_codec(encoding: str) -> str:
    """The codec name of a text encoding (``latin-1`` -> ``iso8859-1``); ValueError for a
    name Python does not know, and for a codec that is not a text encoding (``rot13``,
    ``base64``, ``hex``, ``zlib``, ``bz2``, ``uu``, ``quopri`` turn bytes into bytes or
    text into text: ``bytes.decode`` refuses them with a LookupError)."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r} (e.g. utf-8, latin-1, cp1252, utf-16)") from None
    try:
        b"a".decode(info.name)  # an empty input is not enough: Python returns "" without asking the codec
    except UnicodeError:  # a text encoding that cannot decode this one byte (utf-16)
        pass
    except LookupError:
        raise NotTextEncoding(
            f"{encoding}: not a text encoding (it turns bytes into bytes); name the file's text "
            "encoding (e.g. utf-8, latin-1, cp1252, utf-16)"
        ) from None
    return info.name


def _utf8(data: bytes, path: Path, encoding: str) -> bytes:
    """The file's bytes as UTF-8: checked when they should be UTF-8 already, else decoded
    from ``encoding`` and encoded again (line breaks, and so line numbers, are kept)."""
    try:
        codec = text_codec(encoding)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    utf8 = codec == "utf-8"
    try:
        text = data.decode("utf-8" if utf8 else encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)  # 1-based byte of the line
        name = "UTF-8" if utf8 else encoding
        raise EncodingError(
            f"{path}: line {line}: not {name} text ({error.reason} at byte {column} of the line)", line, encoding
        ) from None
    return data if utf8 else text.encode("utf-8")


# What a table above the byte bound is told.
TOO_LARGE = "raise the bound with --max-bytes (a datasets: entry: max_bytes) if the table is meant to be this large"


def _read_table(
    path: Path, sep: str | None, encoding: str = "utf-8", max_bytes: int = MAX_TABLE_BYTES
) -> tuple[list[str], np.ndarray, np.ndarray, str, bool]:
    """All cells as text, wholly blank lines dropped; returns (the header's column names,
    the (rows, columns) cells as an object array, 1-based file line of each row, the
    separator used, whether any cell may carry surrounding whitespace)."""
    data = _utf8(
        reads.remember(path, read_bounded(path, max_bytes, TOO_LARGE, "reagree reads tables only from regular files")),
        path,
        encoding,
    )
    text_start = data[:65536].decode("utf-8-sig", errors="ignore")
    header_line = text_start.splitlines()[0] if text_start.strip() else ""
    if not header_line.strip():
        raise ValueError(f"{path}: line 1: no header (the file is empty or starts with a blank line)")
    sep = sep or _separator(path, header_line)
    if header_line.count(sep) >= _MANY_COLUMNS:
        table, line = _parse_rows(data, sep, path)
    else:
        table, line = _parse_columns(data, sep, path)
    header = [str(h).strip() for h in table[0]]
    if len(set(header)) != len(header):
        seen = pd.Series(header).value_counts()
        twice = sorted(seen.index[seen > 1])
        raise ValueError(f"{path}: line 1: column name(s) {twice} appear twice; found {header}")
    body, line = table[1:], line[1:]
    padded = _may_be_padded(data, sep)
    if body.size and (
        padded or b"\n\n" in data or b"\n\r\n" in data or b"\r\r" in data
    ):  # only then can a row be blank
        stripped = pd.Series(body.ravel(), dtype=object).str.strip().to_numpy(dtype=object).reshape(body.shape)
        kept = ~(stripped == "").all(axis=1)
        body, line = body[kept], line[kept]
    return header, body, line, sep, padded


# A header with this many separators is parsed row by row (the csv module): pandas' parser
# spends a fraction of a millisecond per column, which at 100,000 rater columns is most of a minute.
_MANY_COLUMNS = 1000


def _parse_columns(data: bytes, sep: str, path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Every line, header included, as an object array of text cells (pandas' C parser;
    short rows padded with ""), and each row's first file line."""
    try:
        frame = pd.read_csv(
            io.BytesIO(data),
            sep=sep,
            header=None,
            dtype=object,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            index_col=False,
            encoding="utf-8-sig",
            engine="c",
        )
    except pd.errors.ParserError as error:
        match = _PARSER_LINE.search(str(error))
        if match:
            expected, line, seen = match.groups()
            raise ValueError(f"{path}: line {line}: {seen} fields where the header has {expected}") from None
        raise ValueError(f"{path}: cannot parse: {error}") from None
    table = frame.to_numpy(dtype=object)
    line = np.arange(1, len(table) + 1, dtype=np.int64)
    if b'"' in data:  # a quoted field may hold line breaks: rows and file lines then drift apart
        breaks = pd.Series(table.ravel(), dtype=object).str.count("\n").to_numpy().reshape(table.shape).sum(axis=1)
        line = line + np.concatenate([[0], np.cumsum(breaks)[:-1]]).astype(np.int64)
    return table, line


def _parse_rows(data: bytes, sep: str, path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``_parse_columns`` for a table of many columns, row by row with the csv module
    (the same quoting rules: double quotes, doubled inside a field)."""
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=sep)
    rows, line, previous = [], [], 0
    for row in reader:
        rows.append(row)
        line.append(previous + 1)
        previous = reader.line_num
    width = len(rows[0])
    for number, row in zip(line, rows):
        if len(row) > width:
            raise ValueError(f"{path}: line {number}: {len(row)} fields where the header has {width}")
        if len(row) < width:
            row.extend([""] * (width - len(row)))
    table = np.empty((len(rows), width), dtype=object)
    table[:] = rows
    return table, np.asarray(line, dtype=np.int64)


def _may_be_padded(data: bytes, sep: str) -> bool:
    """Whether any field can start or end with whitespace: a space or tab (other than the
    separator) next to a separator, a quote, a line end or the file's ends. Plain
    substring searches (memchr speed), not a regex: this runs over every byte."""
    spaces = [c for c in (b" ", b"\t") if c != sep.encode()]
    edges = [sep.encode(), b"\n", b"\r", b'"']
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    if body[:1] in spaces or body[-1:] in spaces:
        return True
    present = [space for space in spaces if space in data]  # one memchr pass each; most files stop here
    return any(edge + space in data or space + edge in data for space in present for edge in edges)


def _separator(path: Path, header_line: str) -> str:
    preferred = _BY_SUFFIX.get(path.suffix.lower())
    if preferred is not None and preferred in header_line:
        return preferred
    counts = {sep: header_line.count(sep) for sep in _SEPARATORS}
    best = max(counts, key=counts.get)
    if counts[best] == 0:
        raise ValueError(
            f"{path}: line 1: no tab, comma or semicolon in the header {header_line!r}; "
            "cannot tell the separator (pass sep=)"
        )
    return best


# --- building -----------------------------------------------------------------------------


def _require_columns(found: list, wanted: Iterable[str], source: str) -> None:
    present = set(found)  # a set: a wide table with 100,000 rater columns is checked in one pass
    absent = [c for c in wanted if c not in present]
    if absent:
        shown = (
            list(found)
            if len(found) <= 20
            else "[" + ", ".join(repr(c) for c in found[:20]) + f", ... ({len(found)} columns)]"
        )
        raise MissingColumns(f"{source}: missing column(s) {absent}; found {shown}", absent, list(found))


def _text_codes(column: pd.Series) -> tuple[np.ndarray, np.ndarray, bool]:
    """(codes, texts, digits): the cells numbered in order of first appearance, each
    number's text (None/NaN -> ""), and whether the texts are integers' digits (nothing to
    strip). Integers become their exact digits, converted once per distinct value; floats
    and booleans are refused, because an id that went through a float has already lost
    digits (read files with ``dtype=str``)."""
    kind = pd.api.types.infer_dtype(column, skipna=True)
    if kind not in ("string", "empty", "integer"):
        raise ValueError(
            f"column {column.name!r} holds {kind} values, not text; read ids and labels as strings "
            "(e.g. pandas.read_csv(..., dtype=str)) so that long ids keep every digit"
        )
    codes, uniques = pd.factorize(column.to_numpy(dtype=object) if kind != "integer" else column)
    texts = list(map(str, uniques.tolist())) if kind == "integer" else list(uniques)
    codes = codes.astype(np.int64, copy=False)
    missing = codes < 0
    if missing.any():  # None/NaN cells are empty text, numbered in order of first appearance like the rest
        first_missing = int(np.flatnonzero(missing)[0])
        position = int(codes[:first_missing].max()) + 1 if first_missing else 0
        codes = np.where(codes >= position, codes + 1, codes)
        codes[missing] = position
        texts.insert(position, "")
    return codes, np.asarray(texts, dtype=object), kind == "integer"


def _as_text(column: pd.Series) -> pd.Series:
    """Cells as text (None/NaN -> ""), by ``_text_codes``."""
    codes, texts, _ = _text_codes(column)
    return pd.Series(texts[codes], index=column.index, name=column.name, dtype=object)


def _factorize_stripped(
    column, what: str, source: str, line: np.ndarray, strip: bool = True
) -> tuple[np.ndarray, list]:
    """Codes (first appearance order) of the stripped cells; an empty cell is an error.
    ``column`` is a Series of text, or (codes, texts, digits) from ``_text_codes``."""
    if isinstance(column, tuple):
        codes, uniques, digits = column
        strip = strip and not digits
    else:
        codes, uniques = pd.factorize(column.to_numpy(dtype=object))  # cells are text here: no NaN to sentinel
    uniques = np.asarray(uniques, dtype=object)
    # Only the distinct values are stripped, and not at all when the file shows no padding.
    stripped = pd.Series(uniques, dtype=object).str.strip().to_numpy(dtype=object) if strip else uniques
    if stripped is uniques or (stripped == uniques).all():
        distinct = stripped
    else:  # " a" and "a" are one id: merge what stripping made equal
        remap, distinct = pd.factorize(stripped)
        codes = remap[codes]
    empty = np.flatnonzero(np.asarray(distinct) == "")
    if empty.size:
        row = int(np.flatnonzero(codes == empty[0])[0])
        raise LineError(f"{source}: line {line[row]}: empty {what}", line[row])
    return codes.astype(np.int64, copy=False), list(distinct)


def _build(
    columns: dict,
    categories: Sequence | None,
    source: str,
    line: np.ndarray,
    keep_units: np.ndarray | None = None,
    keep_raters: Sequence | None = None,
    padded: bool = True,
    patterns: dict | None = None,
) -> Annotations:
    """``padded=False`` promises that no cell has surrounding whitespace (a file scan found
    none), which skips stripping a million distinct ids. ``patterns``: {"unit"/"rater":
    regex every id must match in full}."""
    unit_codes, unit_ids = _factorize_stripped(columns["unit"], "unit id", source, line, strip=padded)
    rater_codes, rater_ids = _factorize_stripped(columns["rater"], "rater id", source, line)
    label_codes, labels = _factorize_stripped(columns["label"], "label", source, line)
    for role, codes, ids in (("unit", unit_codes, unit_ids), ("rater", rater_codes, rater_ids)):
        pattern = (patterns or {}).get(role)
        if pattern:
            bad = np.flatnonzero(~pd.Series(ids, dtype=object).str.fullmatch(pattern).to_numpy(dtype=bool))
            if bad.size:
                row = int(np.flatnonzero(codes == bad[0])[0])
                raise LineError(
                    f"{source}: line {line[row]}: {role} id {ids[bad[0]]!r} does not match {pattern!r}", line[row]
                )
    if keep_units is not None:  # wide: every row is a unit, even one nobody labelled; column order for raters
        unit_codes, unit_ids = _reindex(unit_codes, unit_ids, [str(u) for u in keep_units])
    if keep_raters is not None:
        rater_codes, rater_ids = _reindex(rater_codes, rater_ids, list(keep_raters))
    if categories is None:
        categories = tuple(sorted(labels))
    else:
        categories = tuple(str(c).strip() for c in categories)
        if len(set(categories)) != len(categories):
            raise ValueError(f"{source}: categories {list(categories)} name a category twice")
    lookup = pd.Index(categories).get_indexer(labels)
    unknown = np.flatnonzero(lookup < 0)
    if unknown.size:
        rows = np.flatnonzero(np.isin(label_codes, unknown))
        row = int(rows[0])
        raise LineError(
            f"{source}: line {line[row]}: label {labels[label_codes[row]]!r} is not one of the "
            f"categories {list(categories)}",
            line[row],
        )
    code = lookup[label_codes]
    if "occasion" in columns:
        order_key = _occasion_order(columns["occasion"], source, line)
        _refuse_same_occasion(unit_codes, rater_codes, len(rater_ids), order_key, unit_ids, rater_ids, source, line)
    else:
        order_key = None  # file order
    occasion = number_occasions(unit_codes, rater_codes, len(rater_ids), order_key)
    small = np.int8 if len(categories) <= 127 else np.int32
    return Annotations(
        unit_ids=np.asarray(unit_ids, dtype=object),
        rater_ids=tuple(rater_ids),
        categories=categories,
        unit=unit_codes.astype(np.int32),
        rater=rater_codes.astype(np.int32),
        code=code.astype(small),
        occasion=occasion,
        source=source,
    )


def _reindex(codes: np.ndarray, found: list, wanted: list) -> tuple[np.ndarray, list]:
    table = pd.Index(wanted).get_indexer(found)
    return table[codes], wanted


def _occasion_order(column: pd.Series, source: str, line: np.ndarray) -> np.ndarray:
    codes, values = _factorize_stripped(column, "occasion", source, line)
    if all(_INTEGER.match(v) for v in values):
        ranks = np.argsort(np.argsort([int(v) for v in values], kind="stable"), kind="stable")
    else:
        ranks = np.argsort(np.argsort(np.asarray(values, dtype=str), kind="stable"), kind="stable")
    return ranks[codes].astype(np.int64)


def _refuse_same_occasion(
    unit: np.ndarray,
    rater: np.ndarray,
    n_raters: int,
    order_key: np.ndarray,
    unit_ids: list,
    rater_ids: list,
    source: str,
    line: np.ndarray,
) -> None:
    key = pd.DataFrame({"pair": unit * max(n_raters, 1) + rater, "occasion": order_key})
    twice = key.duplicated(keep=False).to_numpy()
    if twice.any():
        first = int(np.flatnonzero(twice)[0])
        rows = np.flatnonzero(
            twice & (key["pair"].to_numpy() == key["pair"].iat[first]) & (order_key == order_key[first])
        )
        raise LineError(
            f"{source}: lines {line[rows].tolist()}: rater {rater_ids[rater[first]]!r} labelled unit "
            f"{unit_ids[unit[first]]!r} twice on the same occasion",
            line[rows[0]],
        )


def _line_context(path: Path, line: int, sep: str | None, n_columns: int, encoding: str = "utf-8") -> str:
    """' (the line reads '...'; 2 fields, the header has 3)' for an error message."""
    try:
        with open(
            path, encoding="utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding, newline=""
        ) as handle:
            text = next((t for number, t in enumerate(handle, start=1) if number == line), None)
    except OSError:
        return ""
    if text is None:
        return ""
    text = text.rstrip("\r\n")
    fields = len(next(csv.reader([text], delimiter=sep))) if text else 0
    shown = text if len(text) <= 120 else text[:117] + "..."
    count = f"; {fields} fields, the header has {n_columns}" if fields != n_columns else ""
    return f" (the line reads {shown!r}{count})"
