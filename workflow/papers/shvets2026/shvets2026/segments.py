"""Segmented readings of a numbered text, projected onto shared units (Shvets 2026).

What it decides, so that every number can be re-derived from this docstring alone
(Shvets, "Boundaries Agree, Labels Do Not", arXiv:2610.04370, Sections 3.3-3.5):

Units (``parse_units``). A numbered text has one passage per line: a line number ``N``
or a range ``A-B`` (an en dash may stand for the hyphen, spaces may surround it), one
TAB, then the text; trailing ``\\r`` is dropped. Any other line is not a passage. A
passage is skipped when its text is only a manuscript note (it starts with ``ms.`` or
``mss.``, possibly after ``(``) or a lacuna (nothing but whitespace, ``.``, ``...``,
``(``, ``)``, ``?``, ``[``, ``]``). A range seen twice counts once; units are sorted.
Two granularities, chosen per text by the caller (a paper's convention):

- ``per_line=False``: a unit is one block, the range ``A-B``;
- ``per_line=True``: every line of every range is its own unit (a line seen twice
  counts once).

A *real line* is a line number that lies in a unit: on per-line texts the unit itself,
on block texts any line inside a block's range. Line numbers between blocks, in lacunae
or beyond the text are not real.

Runs (``parse_run``). A run file is JSON (parsed with ``json.loads``, never evaluated):
a list of segments or an object with a ``segments`` list. A segment is kept when its
``line_start`` and ``line_end`` are integers (a JSON integer, or a string holding one,
surrounding spaces allowed: ``"12 "``), ``line_start <= line_end``, and its
``function``, stripped and lower-cased, is one of the seven ``FUNCTIONS``. Booleans,
non-numeric strings, null and anything else are skipped. A JSON number with a fraction
is a sub-line reference: the script that moved seg_v3's line ranges out of scene names
turned ETCSL's "13.h" (sub-line h of line 13) into ``13.8``. With
``fractional_lines="line"`` (the setting's default, and what the paper's Table 2 needs) it is
read as its line, the integer part, and the reading is flagged in ``Run.notes``; with
``fractional_lines="skip"`` such a segment is skipped. Every skipped segment is kept in
``Run.skipped`` with its reason, for the diagnostics table. Kept segments are sorted by
(line_start, line_end), stably (file order breaks ties).
Duplicate ``segment_id`` values are reported, not repaired: identity in this module is
the segment's position, never its id.

Dates (``parse_date``). ``annotated_date`` is ISO ``YYYY-MM-DD``. A date whose three
numeric fields are separated by something else (the release's ``"2026-08_07"``) is read
field by field (2026-08-07) and the reading is flagged in ``Run.date_note``; it is never
repaired silently.

Projection (``project``). Each real line of a kept segment votes for the segment's
function on the line's unit. A unit's label is the function with the most votes; among
functions tied on votes, the one whose earliest voting segment (in sorted order) comes
first wins. A unit is a boundary when it holds the first real line of some segment. A
unit no segment's real line reaches is *uncovered*: absent from the run (code -1), not
labelled. A segment with no real line (wholly outside the text, or inside a lacuna)
votes for nothing and places no boundary; it is reported in
``Projection.segments_outside``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from reagree.io import reads
from reagree.stats.undefined import Undefined

if TYPE_CHECKING:  # pandas is imported where a frame is made, not on import
    import pandas as pd

FUNCTIONS = ("preparation", "contact", "exchange", "disruption", "negotiation", "stabilization", "return")
UNCOVERED = -1

_PASSAGE = re.compile(r"(\d+)(?: *[-\u2013] *(\d+))?\t(.*)")
_NOTE = re.compile(r"\(?\s*mss?\.")
_LACUNA = re.compile(r"[\s.\u2026()?\[\]]*")
_INTEGER = re.compile(r"\s*([+-]?\d+)\s*")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_LOOSE_DATE = re.compile(r"(\d{4})\D(\d{1,2})\D(\d{1,2})")


@dataclass(frozen=True)
class Units:
    """The shared units of one text: unit ``u`` spans lines ``first_line[u]..last_line[u]``."""

    first_line: np.ndarray
    last_line: np.ndarray
    per_line: bool
    source: str = "<text>"
    skipped: tuple[tuple[int, str], ...] = ()  # (1-based file line, why it is not a unit)

    @property
    def n_units(self) -> int:
        return len(self.first_line)

    @property
    def line_unit(self) -> np.ndarray:
        """Array indexed by line number: the unit holding that line, or -1."""
        cached = self.__dict__.get("_line_unit")
        if cached is None:
            size = int(self.last_line.max()) + 2 if self.n_units else 1
            cached = np.full(size, UNCOVERED, dtype=np.int64)
            for unit in range(self.n_units - 1, -1, -1):  # the earlier unit wins an overlap
                cached[self.first_line[unit] : self.last_line[unit] + 1] = unit
            object.__setattr__(self, "_line_unit", cached)
        return cached

    def units_of_lines(self, line_start: int, line_end: int) -> np.ndarray:
        """The unit of every real line in ``line_start..line_end``, in line order."""
        lookup = self.line_unit
        low, high = max(line_start, 0), min(line_end, len(lookup) - 1)
        if high < low:
            return np.empty(0, dtype=np.int64)
        units = lookup[low : high + 1]
        return units[units != UNCOVERED]

    def label(self, unit: int) -> str:
        first, last = int(self.first_line[unit]), int(self.last_line[unit])
        return str(first) if first == last else f"{first}-{last}"


def parse_units(text: str, per_line: bool, source: str = "<text>") -> Units:
    """The units of a numbered text (see the module docstring for the convention)."""
    ranges: dict[tuple[int, int], int] = {}
    skipped: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        match = _PASSAGE.fullmatch(line)
        if match is None:
            if line.strip():
                skipped.append((number, "not a numbered passage"))
            continue
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        passage = match.group(3)
        if _NOTE.match(passage.lstrip()):
            skipped.append((number, "manuscript note"))
        elif _LACUNA.fullmatch(passage):
            skipped.append((number, "lacuna"))
        elif last < first:
            raise ValueError(f"{source}: line {number}: range {first}-{last} runs backwards")
        elif (first, last) in ranges:
            skipped.append((number, f"duplicate of line {ranges[(first, last)]}"))
        else:
            ranges[(first, last)] = number
    spans = sorted(ranges)
    if per_line:
        lines = sorted({line for first, last in spans for line in range(first, last + 1)})
        first_line = last_line = np.asarray(lines, dtype=np.int64)
    else:
        first_line = np.asarray([s[0] for s in spans], dtype=np.int64)
        last_line = np.asarray([s[1] for s in spans], dtype=np.int64)
        overlapping = np.flatnonzero(first_line[1:] <= last_line[:-1])
        if len(overlapping):
            u = int(overlapping[0])
            raise ValueError(
                f"{source}: blocks {first_line[u]}-{last_line[u]} and "
                f"{first_line[u + 1]}-{last_line[u + 1]} overlap; a line must lie in one unit"
            )
    return Units(first_line, last_line.copy(), per_line, source, tuple(skipped))


def read_units(path: str | Path, per_line: bool) -> Units:
    path = Path(path)
    return parse_units(reads.read_text(path), per_line, str(path))


@dataclass(frozen=True)
class Segment:
    position: int  # 0-based position in the file's segment list
    segment_id: str
    function: str
    line_start: int
    line_end: int


@dataclass(frozen=True)
class Run:
    """One reading of one text: its kept segments, sorted, and what was skipped and why."""

    source: str
    segments: tuple[Segment, ...]
    skipped: tuple[tuple[int, str, str], ...] = ()  # (position, segment_id, reason)
    annotated_date: date | None = None
    date_text: str | None = None
    date_note: str = ""
    duplicate_ids: tuple[str, ...] = ()
    notes: tuple[tuple[int, str, str], ...] = ()  # (position, segment_id, how a field was read)


FRACTIONAL_LINES = ("line", "skip")


def parse_line_number(value: object, fractional_lines: str) -> int | None:
    """An integer line number, or None when the value is not one.

    JSON integers and strings holding one (spaces around it allowed) are read as is. A
    JSON number with a fraction (``13.8``, a sub-line of line 13) is read as its integer
    part when ``fractional_lines="line"`` and is None when ``"skip"``; an integral float
    (``13.0``) is its integer. Booleans, other strings and anything else are None.
    """
    if fractional_lines not in FRACTIONAL_LINES:
        raise ValueError(f"fractional_lines must be one of {FRACTIONAL_LINES}, got {fractional_lines!r}")
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not np.isfinite(value):
            return None
        if value.is_integer() or fractional_lines == "line":
            return int(np.floor(value))
        return None
    if isinstance(value, str):
        match = _INTEGER.fullmatch(value)
        return int(match.group(1)) if match else None
    return None


def parse_date(value: object) -> tuple[date | None, str]:
    """(date, note): the note is "" for a clean ISO date, otherwise says what was read."""
    if value is None:
        return None, "no annotated_date"
    text = str(value).strip()
    if _ISO_DATE.fullmatch(text):
        try:
            return date.fromisoformat(text), ""
        except ValueError:
            return None, f"annotated_date {value!r} is not a calendar date"
    loose = _LOOSE_DATE.fullmatch(text)
    if loose:
        try:
            read = date(*(int(part) for part in loose.groups()))
        except ValueError:
            return None, f"annotated_date {value!r} is not a calendar date"
        return read, f"malformed annotated_date {value!r} read as {read.isoformat()}"
    return None, f"annotated_date {value!r} is not a date"


def _segment_reason(segment: object, fractional_lines: str) -> tuple[str | None, tuple | None]:
    if not isinstance(segment, dict):
        return f"not an object ({type(segment).__name__})", None
    start = parse_line_number(segment.get("line_start"), fractional_lines)
    end = parse_line_number(segment.get("line_end"), fractional_lines)
    if start is None or end is None:
        return (
            f"line_start {segment.get('line_start')!r} / line_end {segment.get('line_end')!r} not both integers"
        ), None
    if end < start:
        return f"line_end {end} before line_start {start}", None
    function = segment.get("function")
    function = function.strip().lower() if isinstance(function, str) else function
    if function not in FUNCTIONS:
        return f"function {segment.get('function')!r} is not one of the seven", None
    return None, (function, start, end)


def _reading_note(segment: dict, fractional_lines: str) -> str:
    """How a kept segment's line numbers were read, when not as plain integers."""
    notes = []
    for name in ("line_start", "line_end"):
        value = segment.get(name)
        if isinstance(value, str):
            notes.append(f"{name} {value!r} read as {parse_line_number(value, fractional_lines)}")
        elif isinstance(value, float):
            notes.append(f"{name} {value!r} read as line {int(np.floor(value))}")
    return "; ".join(notes)


def parse_run(text: str, source: str = "<run>", *, fractional_lines: str) -> Run:
    """One run file's text (see the module docstring); errors name ``source`` and line."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{source}: line {error.lineno}, column {error.colno}: not valid JSON ({error.msg})") from None
    if isinstance(document, dict):
        if not isinstance(document.get("segments"), list):
            raise ValueError(f"{source}: a run object needs a 'segments' list")
        listed, date_value = document["segments"], document.get("annotated_date")
    elif isinstance(document, list):
        listed, date_value = document, None
    else:
        raise ValueError(
            f"{source}: a run is a list of segments or an object with 'segments', not {type(document).__name__}"
        )
    kept, skipped, notes, ids = [], [], [], []
    for position, segment in enumerate(listed):
        segment_id = str(segment.get("segment_id", "")) if isinstance(segment, dict) else ""
        ids.append(segment_id)
        reason, fields = _segment_reason(segment, fractional_lines)
        if reason:
            skipped.append((position, segment_id, reason))
            continue
        kept.append(Segment(position, segment_id, *fields))
        note = _reading_note(segment, fractional_lines)
        if note:
            notes.append((position, segment_id, note))
    kept.sort(key=lambda s: (s.line_start, s.line_end))
    seen, duplicates = set(), []
    for segment_id in ids:
        if segment_id in seen and segment_id not in duplicates:
            duplicates.append(segment_id)
        seen.add(segment_id)
    annotated, note = parse_date(date_value)
    return Run(
        source,
        tuple(kept),
        tuple(skipped),
        annotated,
        None if date_value is None else str(date_value),
        note,
        tuple(duplicates),
        tuple(notes),
    )


def read_run(path: str | Path, fractional_lines: str) -> Run:
    path = Path(path)
    return parse_run(reads.read_text(path), str(path), fractional_lines=fractional_lines)


@dataclass(frozen=True)
class Projection:
    """One run on the units: label codes (index into FUNCTIONS) and boundary codes (0/1),
    -1 where the run does not cover the unit."""

    labels: np.ndarray
    boundaries: np.ndarray
    segments_outside: tuple[str, ...] = field(default=())  # ids of segments with no real line

    @property
    def covered(self) -> np.ndarray:
        return self.labels != UNCOVERED


def project(run: Run, units: Units) -> Projection:
    """A run's labels and boundaries on ``units`` (convention: module docstring)."""
    n_segments = len(run.segments)
    votes = np.zeros((units.n_units, len(FUNCTIONS)), dtype=np.int64)
    first_rank = np.full((units.n_units, len(FUNCTIONS)), n_segments, dtype=np.int64)
    boundaries = np.zeros(units.n_units, dtype=np.int8)
    outside = []
    for rank, segment in enumerate(run.segments):
        hit = units.units_of_lines(segment.line_start, segment.line_end)
        if hit.size == 0:
            outside.append(segment.segment_id)
            continue
        code = FUNCTIONS.index(segment.function)
        np.add.at(votes[:, code], hit, 1)
        first_rank[hit, code] = np.minimum(first_rank[hit, code], rank)
        boundaries[hit[0]] = 1
    covered = votes.sum(axis=1) > 0
    # Most votes first; among equal votes the function whose first voting segment is
    # earliest in sorted order (lower rank -> larger score).
    score = votes * (n_segments + 1) + (n_segments - first_rank)
    labels = np.where(covered, score.argmax(axis=1), UNCOVERED).astype(np.int8)
    boundaries = np.where(covered, boundaries, UNCOVERED).astype(np.int8)
    return Projection(labels, boundaries, tuple(outside))


def project_runs(runs: Sequence[Run], units: Units) -> tuple[np.ndarray, np.ndarray]:
    """Label and boundary codes of several runs: two (runs x units) int8 arrays."""
    projections = [project(run, units) for run in runs]
    if not projections:
        empty = np.empty((0, units.n_units), dtype=np.int8)
        return empty, empty.copy()
    return (np.stack([p.labels for p in projections]), np.stack([p.boundaries for p in projections]))


def first_segment(run: Run) -> Segment | None:
    """The first kept segment in sorted order (the one a prompt's worked example anchors)."""
    return run.segments[0] if run.segments else None


def worked_example_segments(prompt_text: str, source: str = "<prompt>") -> list[dict]:
    """The JSON array a prompt shows as its worked example: the first ``[`` that opens a
    JSON array of objects, decoded with ``json.JSONDecoder.raw_decode`` (never evaluated)."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\[\s*\{", prompt_text):
        try:
            value, _ = decoder.raw_decode(prompt_text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return value
    raise ValueError(f"{source}: no JSON array of segment objects found")


def diagnostics_rows(run: Run, projection: Projection, /, **identity: object) -> list[dict]:
    """Rows for the diagnostics table: one per skipped segment, one per segment outside the
    text, one per duplicate id and one for a flagged date; ``identity`` names the run."""
    rows = [
        {**identity, "issue": "segment skipped", "segment": f"#{position} id={segment_id!r}", "detail": reason}
        for position, segment_id, reason in run.skipped
    ]
    rows += [
        {**identity, "issue": "line number read", "segment": f"#{position} id={segment_id!r}", "detail": note}
        for position, segment_id, note in run.notes
    ]
    rows += [
        {
            **identity,
            "issue": "segment outside the text",
            "segment": f"id={segment_id!r}",
            "detail": "no line of the segment is a unit of the text",
        }
        for segment_id in projection.segments_outside
    ]
    rows += [
        {
            **identity,
            "issue": "duplicate segment_id",
            "segment": f"id={segment_id!r}",
            "detail": "kept: segments are identified by position",
        }
        for segment_id in run.duplicate_ids
    ]
    if run.date_note:
        rows.append({**identity, "issue": "annotated_date", "segment": "", "detail": run.date_note})
    return rows


def boundary_share(boundaries: np.ndarray) -> float:
    """Share of covered units that are boundaries, pooled over the runs (rows)."""
    boundaries = np.asarray(boundaries)
    covered = boundaries != UNCOVERED
    if not covered.any():
        return Undefined("no run covers any unit")
    return float((boundaries == 1).sum() / covered.sum())


def interval_days(earlier: Run, later: Run) -> int | float:
    """Days from ``earlier``'s annotated_date to ``later``'s (Undefined without both)."""
    if earlier.annotated_date is None or later.annotated_date is None:
        return Undefined("a run has no readable annotated_date")
    return (later.annotated_date - earlier.annotated_date).days


def projection_frame(runs: dict[str, Sequence[Run]], units: Units, /, **identity: object) -> "pd.DataFrame":
    """Long table of projections: one row per (reader, run, unit) the run covers, with the
    unit's lines, its label (a function name) and whether it is a boundary (1/0); the
    ``identity`` fields (the text's name, say) are the first columns."""
    import pandas as pd

    frames = []
    names = np.asarray([units.label(u) for u in range(units.n_units)], dtype=object)
    for reader, reader_runs in runs.items():
        for number, run in enumerate(reader_runs, start=1):
            projection = project(run, units)
            covered = np.flatnonzero(projection.covered)
            frames.append(
                pd.DataFrame(
                    {
                        **identity,
                        "reader": reader,
                        "run": number,
                        "unit": covered,
                        "lines": names[covered],
                        "label": np.asarray(FUNCTIONS, dtype=object)[projection.labels[covered]],
                        "boundary": projection.boundaries[covered].astype(int),
                    }
                )
            )
    columns = [*identity, "reader", "run", "unit", "lines", "label", "boundary"]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def codes_from_frame(frame: "pd.DataFrame", reader: str, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """Label and boundary codes (runs x units, -1 uncovered) of one reader, read back from a
    ``projection_frame`` table; runs in the order of their numbers 1..R."""
    rows = frame[frame["reader"] == reader]
    if rows.empty:
        raise ValueError(f"no projection rows for reader {reader!r}")
    n_runs = int(rows["run"].max())
    labels = np.full((n_runs, n_units), UNCOVERED, dtype=np.int8)
    boundaries = labels.copy()
    function_code = {name: code for code, name in enumerate(FUNCTIONS)}
    unknown = sorted(set(rows["label"]) - set(function_code))
    if unknown:
        raise ValueError(f"projection rows of {reader!r} hold labels {unknown} outside {FUNCTIONS}")
    run_index = rows["run"].to_numpy() - 1
    unit_index = rows["unit"].to_numpy()
    labels[run_index, unit_index] = rows["label"].map(function_code).to_numpy()
    boundaries[run_index, unit_index] = rows["boundary"].to_numpy()
    return labels, boundaries


def collection_days(runs: Sequence[Run]) -> int | float:
    """Calendar days from the first to the last annotated_date of ``runs``, both counted
    (runs on one day: 1). Undefined when any run has no readable date."""
    dates = [run.annotated_date for run in runs]
    if not dates or any(d is None for d in dates):
        return Undefined("a run has no readable annotated_date")
    return (max(dates) - min(dates)).days + 1


def dominant_label_share(labels: np.ndarray) -> tuple[str, float]:
    """The most frequent function over all covered units of all runs, and its share."""
    labels = np.asarray(labels)
    used = labels[labels != UNCOVERED]
    if used.size == 0:
        return "", Undefined("no run covers any unit")
    counts = np.bincount(used, minlength=len(FUNCTIONS))
    return FUNCTIONS[int(counts.argmax())], float(counts.max() / counts.sum())


def run_summary(run: Run, projection: Projection) -> dict[str, object]:
    """What a run file held and what was kept: for the runs table."""
    first = first_segment(run)
    return {
        "annotated_date": run.annotated_date.isoformat() if run.annotated_date else "",
        "date_note": run.date_note,
        "segments": len(run.segments) + len(run.skipped),
        "kept": len(run.segments),
        "skipped": len(run.skipped),
        "line_numbers_read": len(run.notes),
        "outside_text": len(projection.segments_outside),
        "duplicate_ids": ",".join(run.duplicate_ids),
        "first_segment": f"{first.line_start}-{first.line_end}" if first else "",
        "units_covered": int(projection.covered.sum()),
        "boundaries": int((projection.boundaries == 1).sum()),
    }


def opens_with(run: Run, line_start: int, line_end: int) -> bool:
    """Whether the run's first segment (sorted order) is exactly lines line_start..line_end."""
    first = first_segment(run)
    return first is not None and (first.line_start, first.line_end) == (line_start, line_end)


def anchoring_counts(
    runs: dict[str, Sequence[Run]], line_start: int, line_end: int, groups: dict[str, Sequence[str]]
) -> dict[str, tuple[int, int]]:
    """For each reader and each named group of readers: (runs opening with exactly lines
    line_start..line_end, runs)."""
    per_reader = {
        reader: (sum(opens_with(run, line_start, line_end) for run in reader_runs), len(reader_runs))
        for reader, reader_runs in runs.items()
    }
    counts = dict(per_reader)
    for name, members in groups.items():
        counts[name] = (sum(per_reader[m][0] for m in members), sum(per_reader[m][1] for m in members))
    return counts


def mean_segment_lines(runs: Sequence[Run]) -> float:
    """Mean length in lines (line_end - line_start + 1) of every kept segment of ``runs``
    ("human segments average 21 to 32 lines"); Undefined with no segment."""
    lengths = [segment.line_end - segment.line_start + 1 for run in runs for segment in run.segments]
    return float(np.mean(lengths)) if lengths else Undefined("no segment")


def mean_segments(runs: Sequence[Run]) -> float:
    """Mean number of kept segments (boundaries) per run; Undefined with no run."""
    return float(np.mean([len(run.segments) for run in runs])) if runs else Undefined("no run")


def median_segments(runs: Sequence[Run]) -> float:
    """The median number of kept segments (boundaries) per run: a typical run ("one
    boundary of roughly 25 per run"); Undefined with no run."""
    return float(np.median([len(run.segments) for run in runs])) if runs else Undefined("no run")


_TYPOGRAPHIC = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _comparable(text: str) -> str:
    """Text as a quotation is compared: typographic quotes as plain ones, runs of white
    space as one space, surrounding space and closing punctuation dropped."""
    return " ".join(text.translate(_TYPOGRAPHIC).split()).strip(" .,;:")


def quoted_lines(quotes: Sequence[str], text: str, source: str = "<text>") -> list[int]:
    """The numbered line (the first line of its passage) each quotation comes from, in the
    quotations' order: the passage whose text holds it (typographic quotes read as plain
    ones, white space collapsed). ValueError naming a quotation no passage holds, or one
    several passages hold."""
    passages = []
    for raw in text.split("\n"):
        match = _PASSAGE.fullmatch(raw.rstrip("\r"))
        if match is not None:
            passages.append((int(match.group(1)), _comparable(match.group(3))))
    lines = []
    for quote in quotes:
        wanted = _comparable(str(quote))
        found = [number for number, passage in passages if wanted and wanted in passage]
        if len(found) != 1:
            where = "no numbered passage" if not found else f"passages {found}"
            raise ValueError(f"{source}: {where} of the text hold{'s' if not found else ''} the quotation {quote!r}")
        lines.append(found[0])
    return lines


def numbered_lines(units: Units) -> int:
    """How many numbered lines a line-unit text holds: its units and the numbered lines
    skipped as lacunae or manuscript notes ("Cylinder A only (814 numbered lines)")."""
    if not units.per_line:
        raise ValueError(f"{units.source}: a text of blocks has no numbered lines of its own")
    return units.n_units + sum(1 for _, why in units.skipped if why in ("lacuna", "manuscript note"))


def date_span(dates: Sequence[object]) -> tuple[int, int]:
    """The first and the last of ISO dates (``2026-06-29``; a ``date`` too), as YYYYMMDD
    integers; ValueError naming a date that is not ISO, or for none."""
    parsed = []
    for value in dates:
        text = value.isoformat() if isinstance(value, date) else str(value).strip()
        if not _ISO_DATE.fullmatch(text):
            raise ValueError(f"date {value!r} is not YYYY-MM-DD")
        parsed.append(int(text.replace("-", "")))
    if not parsed:
        raise ValueError("no dates")
    return min(parsed), max(parsed)
