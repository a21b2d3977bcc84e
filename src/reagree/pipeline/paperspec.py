"""Reading a paper's ``paper.yaml`` and its claim tables without losing how numbers were printed.

What it decides:

- **A paper.yaml holds the paper's metadata and sources; its claims are tables.**
  ``claim_tables:`` lists TSV files in the paper's ``claims/`` folder, in the order
  claims.tsv lists them. Every claim table has one header, ``CLAIM_HEADER`` (key, end,
  where, source, published, tolerance, compare, needs, under, uncheckable, not_recomputed,
  note, tolerance_reason, cause, approximate, figure), the same for every paper. A TSV in
  ``claims/`` that ``claim_tables`` leaves out is an error, so no claim is silently
  dropped. ``tolerance_reason``, ``cause``, ``approximate`` and ``figure`` come last, so a
  row may end after ``note`` (missing cells at the end of a row are empty).
- **Why a figure is not checked is one reason.** ``uncheckable``: what was released or
  fetched cannot give it (data never released, a page reagree does not fetch);
  ``not_recomputed``: the data are released, but reagree does not reimplement the method
  that printed it (the reason names the method and the authors' file). A claim gives at
  most one of the two (an error naming the file, line and claim).
- **An approximate word** (``approximate``: "roughly", "about", ...) sets the claim's
  tolerance by the one rule (``reagree.pipeline.verdicts.approximate_tolerance``); a
  claim with one gives no ``tolerance`` of its own (an error naming the file and line).
- **A published value's precision is part of the claim.** "0.40" printed with two
  decimals matches 0.396 and not 0.41. Every number keeps its printed text
  (``reagree.pipeline.yamlio.PrintedNumber``), so the default tolerance is half a unit of
  the last printed digit (``0.40`` -> 0.005, ``6.08e-04`` -> 5e-07, ``44`` -> 0.5,
  ``12.0`` -> 0.05). A trailing ``%`` and thousands separators are part of the printed
  text (``9.3%`` is 9.3 percent, to one decimal; ``19,991`` is 19991, to the unit) and
  stay in claims.tsv as printed.
- **A printed number is well formed.** A comma between digits separates groups of
  three (``19,991``, ``1,234,567``); ``0,67``, ``1,0``, ``1_0`` and digits outside 0-9
  are refused, naming the file, line and claim, never read as 67, 10 or a digit's value.
  A paper printed with decimal commas says so once, ``decimal: comma`` in paper.yaml:
  its claims then read ``0,67`` as 0.67 (a point or a thin space separates thousands,
  ``1.234,5``), and keep the number with a decimal point in claims.tsv
  (``reagree.pipeline.yamlio.printed_parts``).
- **Cells.** A claim table is tab-separated text without quoting: a cell is everything
  between two tabs. Lines starting with ``#`` are comments. An empty cell is an absent
  field. ``needs`` and ``under`` are written ``field=value`` joined by ``;`` (a field
  named twice wants every value). Errors name the file and the line.
- **A wider tolerance says why.** A ``tolerance`` wider than half a unit of the last
  printed digit is allowed only with its ``tolerance_reason`` (the Monte Carlo error of
  an estimate drawn from a random stream reagree cannot replay); without one it is an
  error naming the file and line. Such a claim counts apart from the matches at printed
  precision (status ``within tolerance``). A printed value that was rounded up or
  truncated is a variant of the print (``reagree.pipeline.printed``), never a wider
  tolerance.
- **A tolerance is a finite number >= 0.** ``.nan`` would turn every match into a false
  mismatch and ``.inf`` would match anything (JSON Schema's bounds let both through), so
  either, or a negative one, is an error naming the file, the claim key (and the line in
  a TSV).
- **Validation.** paper.yaml is validated against ``workflow/schemas/paper.schema.yaml``
  (shipped with the package), each claim row against the same schema's ``claim``. A
  published value must be a finite number. The folder name must equal the ``id``.
- **Uniqueness.** One value may be printed more than once (a table and the prose, a
  paper and its replication); the same (key, end, source, where) twice is a slip, and so
  is a repeated source name.
- **Where a number is printed** (``source``): ``paper``, ``replication`` (a published
  re-analysis), ``internal`` (no data: the number is held against other printed numbers,
  ``reagree.pipeline.internal``) or ``repository: <path>@<commit>``, a file of the
  authors' repository (a results file, a script's output) that prints a number the paper
  document does not. Its commit (7 to 40 hex digits) must be the one a source or a
  document of the paper is pinned to, so a claim cannot cite a version of the repository
  the build does not read (the ledger check holds the quote against the document,
  ``reagree.pipeline.ledger``).

Adding a claim field: a ``ClaimColumn`` in ``CLAIM_COLUMNS`` (its name and how a cell is
read), the field in the schema's ``claim``, and the column in every claim table (a test
holds every table to ``CLAIM_HEADER``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Callable

import jsonschema

from reagree.pipeline.settings import load_schema, schema_error, schema_path, schema_validator
from reagree.pipeline.yamlio import PrintedNumber, load_yaml, plain, plain_number_text

__all__ = [
    "CLAIM_COLUMNS",
    "CLAIM_HEADER",
    "ClaimColumn",
    "PrintedNumber",
    "load_claim_table",
    "load_paper",
    "printed_tolerance",
    "repository_source",
    "table_lines",
]

CLAIMS_FOLDER = "claims"
#: A tolerance counts as wider than the printed precision beyond this relative slack.
WIDER_SLACK = 1e-9


def printed_tolerance(value: float | int | str) -> float:
    """Half a unit of the last printed digit of ``value`` (plus float slack is the caller's)."""
    text = getattr(value, "text", None) or (value if isinstance(value, str) else repr(value))
    try:
        exponent = Decimal(plain_number_text(text)[0]).as_tuple().exponent
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a printed number") from None
    return 0.5 * 10.0**exponent


def _validation_error(where: str, error: jsonschema.ValidationError) -> ValueError:
    field = "/".join(str(p) for p in error.absolute_path) or "(top level)"
    return ValueError(f"{where}: field {field}: {error.message}")


# --------------------------------------------------------------------------- claim cells


def _text(cell: str, where: str, decimal: str = "point") -> str:
    return cell


def _number(cell: str, where: str, decimal: str = "point") -> PrintedNumber:
    try:
        return PrintedNumber(cell, decimal)
    except ValueError as error:
        raise ValueError(f"{where} {error}") from None


def _pairs(cell: str, where: str, decimal: str = "point") -> dict:
    """``field=value;field=value``: numbers keep their printed text, true/false are booleans."""
    out: dict = {}
    for part in cell.split(";"):
        if not part.strip():
            continue
        if "=" not in part:
            raise ValueError(f"{where}: {part.strip()!r} is not field=value")
        field, value = (s.strip() for s in part.split("=", 1))
        lowered = value.lower()
        if lowered in ("true", "false"):
            parsed: object = lowered == "true"
        else:
            try:
                parsed = PrintedNumber(value, decimal)
            except ValueError:
                parsed = value
        if field in out:  # a field named twice wants every value (part=a;part=b)
            out[field] = (out[field] if isinstance(out[field], list) else [out[field]]) + [parsed]
        else:
            out[field] = parsed
    return out


def _check_tolerance(claim: dict, where: str) -> None:
    """A tolerance is a finite number >= 0; one wider than the printed precision carries
    its reason (``tolerance_reason``), and a reason needs a tolerance."""
    key = claim.get("key", "?")
    if "tolerance" not in claim:
        if claim.get("tolerance_reason"):
            raise ValueError(
                f"{where}: claim {key}: tolerance_reason is given but no tolerance; a claim without "
                "a tolerance is held to its printed precision (drop the reason, or give the tolerance)"
            )
        return
    if claim.get("approximate"):
        raise ValueError(
            f"{where}: claim {key}: an approximate word ({claim['approximate']!r}) sets the "
            "tolerance by the one rule (docs/claims.md); give no tolerance of its own"
        )
    tolerance = claim["tolerance"]
    printed = getattr(tolerance, "text", None) or repr(tolerance)
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, (int, float))
        or not math.isfinite(tolerance)
        or tolerance < 0
    ):
        raise ValueError(f"{where}: claim {key}: tolerance {printed} must be a finite number >= 0")
    if "published" not in claim:
        return
    precision = printed_tolerance(claim["published"])
    if tolerance > precision * (1 + WIDER_SLACK) and not claim.get("tolerance_reason"):
        raise ValueError(
            f"{where}: claim {key}: tolerance {printed} is wider than the printed precision of "
            f"{claim['published'].text} ({precision:g}) and gives no reason: say why in the "
            "tolerance_reason column (a Monte Carlo estimate from a random stream reagree cannot "
            "replay), or drop the tolerance. A printed value that was rounded up or truncated is a "
            "variant, not a wider tolerance."
        )


@dataclass(frozen=True)
class ClaimColumn:
    """One column of a claim table: its name, how a non-empty cell is read, what it says."""

    name: str
    read: Callable[[str, str, str], object]
    about: str


CLAIM_COLUMNS = (
    ClaimColumn("key", _text, "the values.tsv key that should reproduce the number"),
    ClaimColumn("end", _text, "ci_low or ci_high: compare that end of the value's interval"),
    ClaimColumn("where", _text, "where the number is printed"),
    ClaimColumn(
        "source",
        _text,
        "where the number is printed: paper, replication (a published re-analysis), "
        "'repository: <path>@<commit>' (a file of the authors' repository at a pinned "
        "commit), or internal (checked against other printed numbers)",
    ),
    ClaimColumn("published", _number, "the number as printed (its precision is the default tolerance)"),
    ClaimColumn("tolerance", _number, "a tolerance wider than the printed precision (its reason in tolerance_reason)"),
    ClaimColumn(
        "compare",
        _text,
        "abs: compare the magnitude of the computed value; >, >=, <, <=: the printed "
        "number is a bound the computed value must keep",
    ),
    ClaimColumn("needs", _pairs, "setting=value;...: the part of the build the claim needs"),
    ClaimColumn("under", _pairs, "scheme=...;draws=...;seed=...;level=...: the interval's printed settings"),
    ClaimColumn(
        "uncheckable",
        _text,
        "why the number cannot be checked with what was released or fetched (data "
        "never released, a page reagree does not fetch, ...)",
    ),
    ClaimColumn(
        "not_recomputed",
        _text,
        "the method reagree does not reimplement (and the authors' file that does), "
        "for a number whose data are released",
    ),
    ClaimColumn("note", _text, "what is known about the number"),
    ClaimColumn(
        "tolerance_reason",
        _text,
        "why the tolerance is wider than the printed precision (Monte Carlo "
        "error of an estimate reagree cannot replay); required with one",
    ),
    ClaimColumn("cause", _text, "a cause several mismatches share, in a few words; the summary lists a cause once"),
    ClaimColumn(
        "approximate",
        _text,
        "the approximate word the number is printed with (roughly, about, around, "
        "nearly, almost, some, approximately, a factor of): read by the one rule, "
        "reagree.pipeline.verdicts",
    ),
    ClaimColumn(
        "figure",
        _text,
        "the key of another claim that checks the same printed figure (the data and an "
        "internal check of one number): the two get one verdict",
    ),
)
CLAIM_HEADER = tuple(column.name for column in CLAIM_COLUMNS)


def table_lines(path: str | Path) -> list[tuple[int, str]]:
    """The lines of a hand-written TSV file (a claim table, a ledger) that are neither blank
    nor ``#`` comments, with their 1-based numbers (UTF-8, a BOM and a trailing CR dropped);
    a file that is not UTF-8 is one line naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    return [
        (number, line.rstrip("\r"))
        for number, line in enumerate(text.split("\n"), start=1)
        if line.strip() and not line.startswith("#")
    ]


def load_claim_table(path: str | Path, claim_schema: dict, decimal: str = "point") -> list[dict]:
    """Claims from one TSV file; each row validated, errors naming file and line. Numbers
    are read under the paper's decimal mark (``decimal``: point or comma)."""
    path = Path(path)
    rows = table_lines(path)
    if not rows:
        raise ValueError(f"{path}: no header line")
    header_line, header = rows[0][0], tuple(rows[0][1].split("\t"))
    if header != CLAIM_HEADER:
        raise ValueError(
            f"{path}, line {header_line}: the header is {list(header)}; every claim table has the "
            f"header {list(CLAIM_HEADER)} (tab-separated)"
        )
    validator = schema_validator(claim_schema)  # built once: a table has hundreds of rows
    claims = []
    for number, line in rows[1:]:
        where = f"{path}, line {number}"
        cells = line.split("\t")
        if len(cells) > len(CLAIM_COLUMNS):
            raise ValueError(f"{where}: {len(cells)} cells for {len(CLAIM_COLUMNS)} columns")
        claim = {}
        key = cells[0].strip()
        for column, cell in zip(CLAIM_COLUMNS, cells):
            cell = cell.strip()
            if cell:
                claim[column.name] = column.read(cell, f"{where}: claim {key}: {column.name}", decimal)
        _check_tolerance(claim, where)
        if claim.get("uncheckable") and claim.get("not_recomputed"):
            raise ValueError(
                f"{where}: claim {key}: both uncheckable and not_recomputed are given; a number is "
                "either uncheckable (its data were never released or fetched) or not recomputed (its "
                "data are released, its method is not reimplemented): keep one"
            )
        error = schema_error(plain(claim), validator)
        if error is not None:
            raise _validation_error(where, error)
        claim["_where_defined"] = where
        claims.append(claim)
    return claims


# --------------------------------------------------------------------------- paper.yaml


def _claim_tables(path: Path, listed: list[str]) -> list[Path]:
    """The listed claim tables, each a file; a TSV in claims/ left out of the list is an error."""
    tables = []
    for table in listed:
        table_path = path.parent / table
        if not table_path.is_file():
            raise ValueError(f"{path}: claim_tables names {table}, which is not a file beside it")
        tables.append(table_path)
    folder = path.parent / CLAIMS_FOLDER
    unlisted = (
        sorted(
            f"{CLAIMS_FOLDER}/{p.name}"
            for p in folder.glob("*.tsv")
            if p.resolve() not in {t.resolve() for t in tables}
        )
        if folder.is_dir()
        else []
    )
    if unlisted:
        raise ValueError(
            f"{path}: claim_tables leaves out {unlisted}; list every claim table (in the order claims.tsv shows them)"
        )
    return tables


REPOSITORY = re.compile(r"repository: (?P<path>[^\s@]+)@(?P<commit>[0-9a-f]{7,40})")
_PINNED_COMMIT = re.compile(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])")


def repository_source(source: str) -> tuple[str, str] | None:
    """(path, commit) of a ``repository: <path>@<commit>`` source; None for any other."""
    found = REPOSITORY.fullmatch(source or "")
    return (found["path"], found["commit"]) if found else None


def _check_repository_commits(claims: list[dict], paper: dict) -> None:
    """A claim printed in the authors' repository names a commit some source or document is pinned to."""
    pinned = {
        commit
        for entry in [*(paper.get("sources") or []), *(paper.get("documents") or [])]
        for commit in _PINNED_COMMIT.findall(entry.get("url") or "")
    }  # a local one (path:) has no url
    for claim in claims:
        cited = repository_source(claim["source"])
        if cited and not any(commit.startswith(cited[1]) for commit in pinned):
            raise ValueError(
                f"{claim['_where_defined']}: claim {claim['key']}: source names commit {cited[1]}, "
                f"which no source or document of the paper is pinned to ({sorted(pinned) or 'none'})"
            )


def load_paper(path: str | Path, schema_file: str | Path | None = None) -> dict:
    """Load and validate one paper.yaml and its claim tables; ``claims`` holds them all."""
    path = Path(path)
    paper = load_yaml(path, printed_numbers=True)
    schema = load_schema(schema_file or schema_path("paper"))
    if not isinstance(paper, dict):
        raise ValueError(f"{path}: a paper.yaml is a mapping of id, title, cite, sources and claim_tables")
    if "claims" in paper:
        raise ValueError(
            f"{path}: claims are not written in paper.yaml; put them in {CLAIMS_FOLDER}/*.tsv "
            f"(header: {chr(9).join(CLAIM_HEADER)}) and list the files under claim_tables"
        )
    sources = paper.get("sources")
    for index, entry in enumerate(sources if isinstance(sources, list) else []):
        if isinstance(entry, dict) and ("url" in entry) == ("path" in entry):
            raise ValueError(
                f"{path}: sources[{index}] ({entry.get('name')}): give either url (a download) or path "
                "(a file on this machine), not both and not neither"
            )
    error = schema_error(plain(paper), schema)
    if error is not None:
        raise _validation_error(str(path), error)
    if paper["id"] != path.parent.name:
        raise ValueError(f"{path}: id {paper['id']!r} differs from its folder name {path.parent.name!r}")
    claim_schema = dict(schema["$defs"]["claim"], **{"$defs": schema["$defs"]})
    claims = []
    for table_path in _claim_tables(path, paper["claim_tables"]):
        claims += load_claim_table(table_path, claim_schema, paper.get("decimal", "point"))
    for claim in claims:
        if not math.isfinite(float(claim["published"])):
            raise ValueError(f"{claim['_where_defined']}: published {claim['published']!r} is not a finite number")
    keys = [(c["key"], c.get("end", ""), c["source"], c["where"]) for c in claims]
    seen: dict = {}
    for claim, key in zip(claims, keys):
        if key in seen:
            raise ValueError(
                f"{claim['_where_defined']}: the same claim (key, end, source, where) = {key} "
                f"is already made at {seen[key]}"
            )
        seen[key] = claim["_where_defined"]
    _check_repository_commits(claims, paper)
    paper["claims"] = claims
    names = [source["name"] for source in paper.get("sources") or []]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"{path}: sources repeat the name(s) {repeated}")
    return paper
