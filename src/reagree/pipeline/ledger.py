"""The ledger: every number a paper's documents print, claimed or dismissed with a reason.

``workflow/papers/<id>/ledger.tsv`` holds one row per printed number of the paper's
documents (``reagree.pipeline.documents``), found by ``reagree.pipeline.scan``. What it
decides:

- **One header for every paper** (``LEDGER_HEADER``): ``document`` (the document's name),
  ``line``, ``column`` and ``printed`` (the number's place and exact text, as ``reagree
  scan`` gives them), ``kind`` (the scan's guess, or ``words``), ``status``, ``claims``
  (claim keys joined by ``;``), ``reason`` and ``note``. Tab-separated, no quoting; lines
  starting with ``#`` are comments; an empty cell is an absent field. Errors name the
  file and the line.
- **Statuses.** ``claimed``: the claims named check this number (at least one key).
  ``dismissed``: not a result, for a reason from the closed list ``REASONS``.
  ``unreviewed``: not looked at yet (``reagree new-paper --document`` writes every row
  so); a build reports these, and refuses them with ``strict_ledger: true``.
- **A region row** dismisses every number on a run of lines that no row of its own
  names (a reference list, a code listing): ``line`` is ``FIRST-LAST``, ``column`` and
  ``printed`` empty, ``status`` ``dismissed`` with its reason.
- **Where a claim is printed is the ledger's row, not the claim's ``where``.** A claim's
  ``where`` stays the reader's words ("Table 1", "§3"), never parsed; the row that names
  the claim's key gives the place. A row of kind ``words`` locates a claim printed in
  words rather than digits ("no ties occurred", "fair agreement"): ``printed`` is the
  words, found on that line (at that column when one is given); it is not a printed
  number and is not counted as one. It locates the key's claims that no printed number
  locates (``fleiss.humans`` printed as 0.39 in a table and as "fair agreement" in the
  abstract: the 0.39 row locates the first claim, the words row the other).
- **The check** (``check_ledger``), against a fresh scan of every document of the build
  (a row naming a document the build does not have is not checked: a paper text given by
  the config's ``documents:``, such as ``../shared/documents.yaml``, is left out of a build
  without it, and a misspelt name leaves the real document's numbers without rows):
  every printed number has exactly one row (its own, or a region's) — else an error
  naming the document, line, column and text; every row's number is printed at its place
  — else it has moved, and the error says where the text is printed now; every claim a
  row names exists, belongs to that document (``paper``, ``replication`` and
  ``internal`` claims to a paper's text, ``repository: PATH@COMMIT`` claims to that
  repository file) and quotes the number's digits (``reagree.pipeline.scan.agrees``:
  the same value at the same precision, or as a proportion, or a fraction word rounded;
  under the claim's approximate word, a whole percent's trailing zeros need not be
  quoted: "almost 10%" as 0.1) —
  else it is misquoted; and every claim is located by some row. Every error is collected
  before the check fails, so one build lists them all.
- **One printed number, one figure** (``reagree.pipeline.verdicts.figure_ids``: the
  summary gives a figure one verdict). The claims one row names that quote its number
  are one figure: a number printed once and checked twice (against the data and against
  other printed numbers) is one row naming both keys, and those claims are joined by
  their ``figure`` column; a row whose claims are several figures is an error (the
  summary would count one printed number twice). A claim of a paper's text is located
  when a row names it or another text claim of its figure (the same digits), so an
  internal claim (``source: internal``) joined to a data claim is located by that
  claim's row; a repository claim only by a row of its own file. A figure printed at several
  places is a row at each place, naming its key each time (or a ``restatement``).
- **Repository quotes.** A ``repository: PATH@COMMIT`` claim is held against the
  document that is that file (``repository_of``: fetched once, read as text): with a
  ledger, at the row that names it, as above; without one (``unquoted``), the file must
  print the claim's number somewhere, by the same ``agrees``. A cited file that is no
  document of the paper is an error either way. So every repository quote is checked on
  every build, and a misquote stops it.
- **Counts per document**: printed, claimed, dismissed, unreviewed and unaccounted
  (unreviewed, plus numbers without a row when the check failed), and the claims located
  by ``words`` rows. A claimed row is one printed number however many claims it names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from reagree.io import reads
from reagree.pipeline.paperspec import repository_source, table_lines
from reagree.pipeline.scan import Printed, agrees, read_document, scan_text
from reagree.pipeline.verdicts import figure_ids

__all__ = [
    "COUNT_COLUMNS",
    "LEDGER_HEADER",
    "REASONS",
    "STATUSES",
    "TABLE_COLUMNS",
    "TEXT_SOURCES",
    "WORDS",
    "Document",
    "LedgerCheck",
    "LedgerError",
    "LedgerRow",
    "check_ledger",
    "check_paper",
    "ledger_text",
    "read_counts",
    "read_ledger",
    "unchecked_counts",
    "unchecked_table",
    "unquoted",
    "unreviewed_rows",
]

LEDGER_HEADER = ("document", "line", "column", "printed", "kind", "status", "claims", "reason", "note")
STATUSES = ("claimed", "dismissed", "unreviewed")
#: Why a printed number is no claim: the closed list a ``dismissed`` row chooses from.
REASONS = {
    "date": "a year or a date",
    "reference": "a section, table, figure, equation, step, row or list number",
    "citation": "a citation, or an entry of the reference list",
    "literature": "a number of outside literature: another study's result, quoted",
    "setting": "a setting the authors chose (a seed, draws, folds, a threshold, a sample size they fixed)",
    "code": "a constant of code printed in the document",
    "formula": "a constant of a formula",
    "identifier": "part of a name, a version or an identifier",
    "design": "a count that describes the study or the text (three annotators, 11 pages), not a result",
    "hypothetical": "a number in a hypothetical, a prediction or a proposal, not a reported result",
    "restatement": "a restatement of a figure already claimed where it is first printed (the note says where)",
}
WORDS = "words"
#: The columns of ``results/<paper>/ledger.tsv``: every printed number and what the ledger says of it.
TABLE_COLUMNS = (
    "document",
    "line",
    "column",
    "printed",
    "value",
    "decimals",
    "unit",
    "kind",
    "status",
    "claims",
    "reason",
)
COUNT_COLUMNS = (
    "document",
    "printed",
    "claimed",
    "dismissed",
    "unreviewed",
    "unaccounted",
    "claimed_in_words",
    "sha256",
    "checked",
    "note",
)
#: Claims sources that a paper's text prints (``repository:`` claims are printed by a repository file).
TEXT_SOURCES = ("paper", "replication", "internal")
_REGION = re.compile(r"([0-9]+)-([0-9]+)")


class LedgerError(ValueError):
    """A ledger that does not account for its documents; the message lists every problem."""


@dataclass
class LedgerRow:
    """One row of a ledger file (``line_end`` set for a region row)."""

    where: str
    document: str
    line: int
    column: int | None
    printed: str
    kind: str
    status: str
    claims: list[str]
    reason: str
    note: str
    line_end: int | None = None

    @property
    def region(self) -> bool:
        return self.line_end is not None


# --------------------------------------------------------------------------- reading and writing


def _whole(cell: str, what: str, where: str) -> int:
    if not re.fullmatch(r"[0-9]+", cell) or int(cell) < 1:
        raise LedgerError(f"{where}: {what} {cell!r} is not a whole number from 1")
    return int(cell)


def _row(cells: list[str], where: str) -> LedgerRow:
    fields = dict(zip(LEDGER_HEADER, (cell.strip() for cell in cells)))
    fields = {name: fields.get(name, "") for name in LEDGER_HEADER}
    if not fields["document"]:
        raise LedgerError(f"{where}: no document")
    region = _REGION.fullmatch(fields["line"])
    status, reason = fields["status"], fields["reason"]
    claims = [key.strip() for key in fields["claims"].split(";") if key.strip()]
    if status not in STATUSES:
        raise LedgerError(f"{where}: status {status!r} is not one of {', '.join(STATUSES)}")
    if status == "claimed" and not claims:
        raise LedgerError(f"{where}: a claimed number names the key of at least one claim in the claims column")
    if status == "dismissed" and reason not in REASONS:
        raise LedgerError(
            f"{where}: a dismissed number gives a reason from the closed list: {', '.join(REASONS)} "
            f"(got {reason!r}); a result is claimed, even when it cannot be checked (uncheckable) or "
            "reagree does not reimplement its method (not recomputed)"
        )
    if status != "dismissed" and reason:
        raise LedgerError(f"{where}: only a dismissed number has a reason (this row is {status})")
    if status == "dismissed" and claims:
        raise LedgerError(f"{where}: a dismissed number names no claim")
    if region:
        first, last = int(region[1]), int(region[2])
        if not 1 <= first <= last or fields["column"] or fields["printed"] or status != "dismissed":
            raise LedgerError(
                f"{where}: a region row gives lines FIRST-LAST (first <= last), no column and no "
                "printed text, and is dismissed with a reason"
            )
        return LedgerRow(
            where, fields["document"], first, None, "", fields["kind"], status, [], reason, fields["note"], last
        )
    line = _whole(fields["line"], "line", where)
    if fields["kind"] == WORDS:
        if status != "claimed" or not fields["printed"]:
            raise LedgerError(f"{where}: a words row gives the words a claim is printed as, and is claimed")
        column = _whole(fields["column"], "column", where) if fields["column"] else None
    else:
        column = _whole(fields["column"], "column", where)
        if not fields["printed"]:
            raise LedgerError(f"{where}: no printed text (the number as the document prints it)")
    return LedgerRow(
        where,
        fields["document"],
        line,
        column,
        fields["printed"],
        fields["kind"],
        status,
        claims,
        reason,
        fields["note"],
    )


def read_ledger(path: str | Path) -> list[LedgerRow]:
    """The rows of a ledger file, each checked alone; errors name the file and the line."""
    path = Path(path)
    try:
        lines = table_lines(path)
    except ValueError as error:
        raise LedgerError(str(error)) from None
    if not lines or tuple(lines[0][1].split("\t")) != LEDGER_HEADER:
        got = lines[0][1].split("\t") if lines else "nothing"
        raise LedgerError(
            f"{path}: the first line is {got}; a ledger's header is {list(LEDGER_HEADER)} (tab-separated)"
        )
    rows = []
    for number, line in lines[1:]:
        cells = line.split("\t")
        if len(cells) > len(LEDGER_HEADER):
            raise LedgerError(f"{path}, line {number}: {len(cells)} cells for {len(LEDGER_HEADER)} columns")
        rows.append(_row(cells, f"{path}, line {number}"))
    return rows


def ledger_text(rows: list[dict], comment: str = "") -> str:
    """A ledger file's text from row mappings (``LEDGER_HEADER`` fields)."""
    lines = [f"# {line}" if line else "#" for line in comment.splitlines()] + ["\t".join(LEDGER_HEADER)]
    for row in rows:
        lines.append("\t".join(str(row.get(name, "")).replace("\t", " ").replace("\n", " ") for name in LEDGER_HEADER))
    return "\n".join(lines) + "\n"


def unreviewed_rows(document: str, numbers: list[Printed]) -> list[dict]:
    """A row per number, ``unreviewed``, its context as the note: a new paper's ledger."""
    return [
        {
            "document": document,
            "line": n.line,
            "column": n.column,
            "printed": n.printed,
            "kind": n.kind,
            "status": "unreviewed",
            "note": n.context,
        }
        for n in numbers
    ]


# --------------------------------------------------------------------------- the check


@dataclass
class Document:
    """One document as the check reads it: its name, text, numbers, and the repository
    file it is (``(path, commit)``) or None for a paper's text."""

    name: str
    text: str
    repository: tuple[str, str] | None = None
    sha256: str = ""
    numbers: list[Printed] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.numbers:
            self.numbers = scan_text(self.text)

    @property
    def lines(self) -> list[str]:
        return [line[:-1] if line.endswith("\r") else line for line in self.text.split("\n")]


@dataclass
class LedgerCheck:
    """What the check found: the errors, every number with its status, counts per document."""

    errors: list[str]
    table: pd.DataFrame
    counts: pd.DataFrame


def _fits(claim: dict, document: Document) -> bool:
    """Whether a claim is printed by this document (its source names it)."""
    source = claim.get("source", "paper")
    if document.repository is None:
        return source in TEXT_SOURCES
    path, commit = document.repository
    cited = repository_source(source)
    return cited is not None and cited[0] == path and commit.startswith(cited[1])


def _published(claim: dict) -> str:
    published = claim["published"]
    return getattr(published, "text", None) or repr(float(published))


def _moved(row: LedgerRow, document: Document, at: dict, accounted: set) -> str:
    here = at.get((row.line, row.column))
    said = f"{row.where}: {document.name}, line {row.line}, column {row.column}: {row.printed!r} is not printed there"
    if here is not None:
        said += f" ({document.name} prints {here.printed!r} there)"
    elsewhere = [n for n in document.numbers if n.printed == row.printed and (n.line, n.column) not in accounted]
    if elsewhere:
        near = min(elsewhere, key=lambda n: (abs(n.line - row.line), abs(n.column - (row.column or 0))))
        said += f"; {row.printed!r} is printed at line {near.line}, column {near.column}"
    return said


def check_ledger(
    documents: list[Document], rows: list[LedgerRow], claims: list[dict], ledger: str, strict: bool = False
) -> LedgerCheck:
    """Hold ``rows`` (one paper's ledger, named ``ledger`` in messages) against a fresh
    scan of its ``documents`` and the paper's ``claims`` (module docstring)."""
    errors: list[str] = []
    by_name = {document.name: document for document in documents}
    by_key: dict[str, list[dict]] = {}
    for claim in claims:
        by_key.setdefault(claim["key"], []).append(claim)
    figure_of = {id(claim): figure for claim, figure in zip(claims, figure_ids(claims))}
    located: set[int] = set()
    status_of: dict[tuple[str, int, int], LedgerRow] = {}
    regions: dict[str, list[LedgerRow]] = {}
    words: dict[str, int] = {}
    word_rows: list[tuple[LedgerRow, Document]] = []
    for row in rows:
        document = by_name.get(row.document)
        if document is None:  # a document this build left out (the config's documents:): nothing to hold it to
            continue
        if row.region:
            regions.setdefault(row.document, []).append(row)
            continue
        if row.kind == WORDS:
            word_rows.append((row, document))
            continue
        place = (row.document, row.line, row.column)
        if place in status_of:
            errors.append(
                f"{row.where}: {row.document}, line {row.line}, column {row.column} already has a row "
                f"({status_of[place].where}); each number has exactly one"
            )
            continue
        status_of[place] = row
    table_rows, count_rows = [], []
    for document in documents:
        at = {(n.line, n.column): n for n in document.numbers}
        accounted = {(line, column) for (name, line, column) in status_of if name == document.name}
        for (name, line, column), row in status_of.items():
            if name != document.name:
                continue
            number = at.get((line, column))
            if number is None or number.printed != row.printed:
                errors.append(_moved(row, document, at, accounted))
                continue
            if row.status == "claimed":
                errors += _locate(row, number, document, by_key, located, figure_of)
        tally = {status: 0 for status in (*STATUSES, "missing")}
        for number in document.numbers:
            row = status_of.get((document.name, number.line, number.column))
            if row is None or row.printed != number.printed:
                row = next((r for r in regions.get(document.name, []) if r.line <= number.line <= r.line_end), None)
            status = row.status if row is not None else "missing"
            if row is None:
                errors.append(
                    f"{document.name}, line {number.line}, column {number.column}: {number.printed!r} "
                    f"({number.kind}) is printed but has no row in {ledger}"
                )
            tally[status] += 1
            table_rows.append(
                {
                    "document": document.name,
                    "line": number.line,
                    "column": number.column,
                    "printed": number.printed,
                    "value": number.value_text,
                    "decimals": "" if number.decimals is None else number.decimals,
                    "unit": number.unit,
                    "kind": number.kind,
                    "status": status,
                    "claims": ";".join(row.claims) if row is not None else "",
                    "reason": row.reason if row is not None else "",
                }
            )
        count_rows.append(
            {
                "document": document.name,
                "printed": len(document.numbers),
                "claimed": tally["claimed"],
                "dismissed": tally["dismissed"],
                "unreviewed": tally["unreviewed"],
                "unaccounted": tally["unreviewed"] + tally["missing"],
                "claimed_in_words": words.get(document.name, 0),
                "sha256": document.sha256,
                "checked": "yes",
                "note": "",
            }
        )
        if strict and tally["unreviewed"]:
            first = next(r for r in table_rows if r["document"] == document.name and r["status"] == "unreviewed")
            errors.append(
                f"{ledger}: {tally['unreviewed']} numbers of {document.name} are unreviewed, and "
                f"strict_ledger is on (the first: line {first['line']}, column {first['column']}, "
                f"{first['printed']!r}); claim or dismiss each"
            )
    for row, document in word_rows:  # after the numbers: words locate what no printed number does
        line = document.lines[row.line - 1] if row.line <= len(document.lines) else ""
        found = (
            line.find(row.printed) + 1
            if row.column is None
            else (row.column if line[row.column - 1 : row.column - 1 + len(row.printed)] == row.printed else 0)
        )
        if not found:
            errors.append(
                f"{row.where}: {document.name}, line {row.line}: the words {row.printed!r} are not printed there"
            )
        words[row.document] = words.get(row.document, 0) + 1
        errors += _locate(row, None, document, by_key, located, figure_of)
    for count in count_rows:
        count["claimed_in_words"] = words.get(count["document"], 0)
    errors += _unlocated(claims, documents, located, figure_of, ledger)
    return LedgerCheck(
        errors,
        pd.DataFrame(table_rows, columns=list(TABLE_COLUMNS)),
        pd.DataFrame(count_rows, columns=list(COUNT_COLUMNS)),
    )


def _locate(
    row: LedgerRow, number: Printed | None, document: Document, by_key: dict, located: set, figure_of: dict
) -> list[str]:
    """The claims a row names: each exists, belongs to the document and quotes the number,
    and those that quote it are one printed figure."""
    errors, figures = [], {}
    for key in row.claims:
        if key not in by_key:
            errors.append(f"{row.where}: claim key {key!r} is no claim of the paper's claim tables")
            continue
        fitting = [claim for claim in by_key[key] if _fits(claim, document)]
        if not fitting:
            sources = sorted({claim.get("source", "paper") for claim in by_key[key]})
            errors.append(f"{row.where}: claim {key} is printed by {', '.join(sources)}, not by {document.name}")
            continue
        if number is None:  # words: the key's claims no printed number located
            quoting = [claim for claim in fitting if id(claim) not in located]
            if not quoting:
                errors.append(
                    f"{row.where}: the words {row.printed!r} name {key}, whose claims in "
                    f"{document.name} are all located by printed numbers"
                )
            located.update(id(claim) for claim in quoting)
            continue
        quoting = [
            claim
            for claim in fitting
            if agrees(number, _published(claim), claim.get("compare", "value"), claim.get("approximate", ""))
        ]
        if not quoting:
            published = ", ".join(f"{_published(c)} ({c.get('_where_defined', 'a claim')})" for c in fitting)
            errors.append(
                f"{document.name}, line {row.line}, column {row.column}: {row.printed!r} is claimed by "
                f"{key}, which publishes {published}: the claim does not quote the printed number "
                f"({row.where})"
            )
        located.update(id(claim) for claim in quoting)
        figures.update({figure_of[id(claim)]: None for claim in quoting})
    if len(figures) > 1:
        errors.append(
            f"{document.name}, line {row.line}, column {row.column}: {row.printed!r} is one printed number, "
            f"but the claims {row.where} names are {len(figures)} figures to the summary "
            f"({'; '.join(figures)}): join them with the figure column (docs/claims.md, 'One printed "
            "figure, one verdict')"
        )
    return errors


def _unlocated(claims: list[dict], documents: list[Document], located: set, figure_of: dict, ledger: str) -> list[str]:
    """Claims a document prints that no row locates: itself, or (a claim of a paper's
    text) through another text claim of its figure, which prints the same digits. A
    repository claim needs a row of its own file, so its quote is checked there."""
    texts = [d for d in documents if d.repository is None]
    in_text = {id(claim) for claim in claims if claim.get("source", "paper") in TEXT_SOURCES}
    located_figures = {figure_of[id(claim)] for claim in claims if id(claim) in located and id(claim) in in_text}
    errors = []
    for claim in claims:
        source = claim.get("source", "paper")
        if id(claim) in located or (id(claim) in in_text and figure_of[id(claim)] in located_figures):
            continue
        if source in TEXT_SOURCES and not texts:
            continue
        if source not in TEXT_SOURCES and not any(_fits(claim, d) for d in documents):
            errors.append(
                f"{claim.get('_where_defined', 'a claim')}: claim {claim['key']} is printed by "
                f"{source}, which is not among the paper's documents (declare it under documents: in "
                "paper.yaml)"
            )
            continue
        errors.append(
            f"{claim.get('_where_defined', 'a claim')}: claim {claim['key']} ({_published(claim)}, "
            f"where {claim.get('where', '')!r}) is located by no row of {ledger}: give its printed number's "
            "row (or, for words, a words row) its key"
        )
    return errors


# --------------------------------------------------------------------------- a paper's check


def unchecked_counts(documents: list[Document], why: str) -> pd.DataFrame:
    """Counts for documents whose numbers no ledger accounts for (``checked`` no)."""
    rows = [
        {
            "document": d.name,
            "printed": len(d.numbers),
            "claimed": 0,
            "dismissed": 0,
            "unreviewed": 0,
            "unaccounted": len(d.numbers),
            "claimed_in_words": 0,
            "sha256": d.sha256,
            "checked": "no",
            "note": why,
        }
        for d in documents
    ]
    if not documents:
        rows = [
            {
                "document": "",
                "printed": 0,
                "claimed": 0,
                "dismissed": 0,
                "unreviewed": 0,
                "unaccounted": 0,
                "claimed_in_words": 0,
                "sha256": "",
                "checked": "no",
                "note": why,
            }
        ]
    return pd.DataFrame(rows, columns=list(COUNT_COLUMNS))


def read_counts(path: str | Path) -> pd.DataFrame:
    """A paper's ``results/<paper>/ledger_counts.tsv`` (``COUNT_COLUMNS``) as check_ledger wrote it."""
    return pd.read_csv(path, sep="\t", keep_default_na=False, dtype={"document": str, "sha256": str, "note": str})


def unchecked_table(documents: list[Document], status: str) -> pd.DataFrame:
    rows = [
        {
            "document": d.name,
            "line": n.line,
            "column": n.column,
            "printed": n.printed,
            "value": n.value_text,
            "decimals": "" if n.decimals is None else n.decimals,
            "unit": n.unit,
            "kind": n.kind,
            "status": status,
            "claims": "",
            "reason": "",
        }
        for d in documents
        for n in d.numbers
    ]
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))


def unquoted(claims: list[dict], documents: list[Document], paper_id: str) -> list[str]:
    """Without a ledger (module docstring, "Repository quotes"): every ``repository:``
    claim whose file is no document of the paper, or whose file prints its number nowhere
    (``agrees``: the claim's digits, or a percentage the claim writes as a proportion)."""
    errors = []
    for claim in claims:
        cited = repository_source(claim.get("source", ""))
        if cited is None:
            continue
        where = claim.get("_where_defined", "a claim")
        document = next((d for d in documents if _fits(claim, d)), None)
        if document is None:
            errors.append(
                f"{where}: claim {claim['key']} cites {cited[0]}@{cited[1]}, which is no document of "
                f"{paper_id} (declare it under documents: in paper.yaml, so the quote can be checked)"
            )
        elif not any(
            agrees(n, _published(claim), claim.get("compare", "value"), claim.get("approximate", ""))
            for n in document.numbers
        ):
            errors.append(
                f"{where}: claim {claim['key']} says {cited[0]}@{cited[1]} prints {_published(claim)}; "
                f"the fetched {document.name} prints no such number"
            )
    return errors


def _failure(head: str, errors: list[str]) -> LedgerError:
    shown = errors[:200]
    more = f"\n... and {len(errors) - len(shown)} more" if len(errors) > len(shown) else ""
    return LedgerError(
        f"{head} ({len(errors)} problem{'s' if len(errors) != 1 else ''}):\n"
        + "\n".join(f"- {e}" for e in shown)
        + more
    )


def check_paper(
    paper_id: str, claims: list[dict], documents: list[dict], ledger: str | Path | None, strict: bool = False
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One paper's ledger held against its documents (``documents``: ``name``, ``path``,
    ``repository`` as ``reagree.pipeline.documents.document_params`` gives them): the
    table of every printed number and the counts per document. Without documents, or
    without a ledger, the counts say why nothing was checked (an error under ``strict``
    when documents exist but no ledger does), and the repository quotes are still held
    against their files (``unquoted``); a ledger that does not account for its documents,
    or a misquote, raises LedgerError listing every problem."""
    read = [
        Document(
            d["name"],
            read_document(d["path"]),
            tuple(d["repository"]) if d.get("repository") else None,
            reads.sha256_read(d["path"]),
        )
        for d in documents
    ]  # the sha256 of the bytes scanned
    folder = f"workflow/papers/{paper_id}"
    if ledger is None or not read:
        misquoted = unquoted(claims, read, paper_id)
        if misquoted:
            raise _failure(f"{paper_id}: claims that quote the authors' repository, held against its files", misquoted)
    if not read:
        why = (
            f"not checked: {paper_id} declares no document (documents: in paper.yaml, or the config's "
            "documents:), so its printed numbers were not compared with the ledger"
        )
        return unchecked_table(read, "not checked"), unchecked_counts(read, why)
    if ledger is None:
        why = (
            f"not checked: no ledger ({folder}/ledger.tsv); `reagree scan DOCUMENT` lists the numbers, "
            "`reagree new-paper --document` writes a ledger for a new paper"
        )
        if strict:
            raise LedgerError(f"{paper_id}: {why}, and strict_ledger is on")
        return unchecked_table(read, "no ledger"), unchecked_counts(read, why)
    result = check_ledger(read, read_ledger(ledger), claims, str(ledger), strict=strict)
    if result.errors:
        raise _failure(f"{paper_id}: the ledger {ledger} does not account for its documents", result.errors)
    return result.table, result.counts
