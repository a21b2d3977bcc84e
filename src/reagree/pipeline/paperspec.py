"""Reading a paper's ``paper.yaml`` (and its claim tables) without losing how numbers were printed.

What it decides:

- **A published value's precision is part of the claim.** "0.40" printed with two
  decimals matches 0.396 and not 0.41; YAML would turn it into 0.4 and forget the second
  decimal. Every number keeps its printed text (``reagree.pipeline.yamlio.PrintedNumber``), so the
  default tolerance is half a unit of the last printed digit (``0.40`` -> 0.005,
  ``6.08e-04`` -> 5e-07, ``44`` -> 0.5).
- **Large printed tables are tables.** ``claim_tables:`` lists TSV files beside
  paper.yaml with the claim fields as columns (key, where, source, published, and
  optionally tolerance, compare, end, needs, under, note, uncheckable). ``needs`` and
  ``under`` are written ``field=value`` joined by ``;``. Empty cells are absent fields.
  Errors name the file and the line.
- **Validation.** paper.yaml is validated against ``workflow/schemas/paper.schema.yaml``
  (shipped with the package); each claim from a table against the same claim schema. A
  published value must be a finite number. The folder name must equal the ``id``.
- **Uniqueness.** One value may be printed more than once (a table and the prose, a
  paper and its replication); the same (key, end, source, where) twice is a slip, and so
  is a repeated source name.
"""

from __future__ import annotations

import csv
import math
from decimal import Decimal, InvalidOperation
from pathlib import Path

import jsonschema

from reagree.pipeline.settings import load_schema, schema_error, schema_path, schema_validator
from reagree.pipeline.yamlio import PrintedNumber, load_yaml, plain

__all__ = ["PrintedNumber", "printed_tolerance", "load_paper", "load_claim_table"]

CLAIM_FIELDS = ("key", "where", "source", "published", "tolerance", "compare", "end", "needs", "under", "note",
                "uncheckable")


def printed_tolerance(value: float | int | str) -> float:
    """Half a unit of the last printed digit of ``value`` (plus float slack is the caller's)."""
    text = getattr(value, "text", None) or (value if isinstance(value, str) else repr(value))
    try:
        exponent = Decimal(text.strip().lstrip("+").replace("_", "")).as_tuple().exponent
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a printed number") from None
    return 0.5 * 10.0 ** exponent


def _validation_error(where: str, error: jsonschema.ValidationError) -> ValueError:
    field = "/".join(str(p) for p in error.absolute_path) or "(top level)"
    return ValueError(f"{where}: field {field}: {error.message}")


def _pairs(text: str, where: str) -> dict:
    out = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        if "=" not in part:
            raise ValueError(f"{where}: {part.strip()!r} is not field=value")
        field, value = (s.strip() for s in part.split("=", 1))
        lowered = value.lower()
        if lowered in ("true", "false"):
            parsed = lowered == "true"
        else:
            try:
                parsed = PrintedNumber(value)
            except ValueError:
                parsed = value
        if field in out:  # a field named twice wants every value (language=Serbian;language=Croatian)
            out[field] = (out[field] if isinstance(out[field], list) else [out[field]]) + [parsed]
        else:
            out[field] = parsed
    return out


def load_claim_table(path: str | Path, claim_schema: dict) -> list[dict]:
    """Claims from one TSV file; each row validated, errors naming file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    lines = text.splitlines()
    rows = [(number, line) for number, line in enumerate(lines, start=1) if line.strip() and not line.startswith("#")]
    if not rows:
        raise ValueError(f"{path}: no header line")
    header_line, header = rows[0][0], next(csv.reader([rows[0][1]], delimiter="\t"))
    unknown = [c for c in header if c not in CLAIM_FIELDS]
    if unknown:
        raise ValueError(f"{path}, line {header_line}: unknown column(s) {unknown}; claim columns are {list(CLAIM_FIELDS)}")
    validator = schema_validator(claim_schema)
    claims = []
    for number, line in rows[1:]:
        where = f"{path}, line {number}"
        cells = next(csv.reader([line], delimiter="\t"))
        if len(cells) > len(header):
            raise ValueError(f"{where}: {len(cells)} cells for {len(header)} columns")
        claim = {}
        for column, cell in zip(header, cells):
            cell = cell.strip()
            if not cell:
                continue
            if column in ("published", "tolerance"):
                try:
                    claim[column] = PrintedNumber(cell)
                except ValueError:
                    raise ValueError(f"{where}: {column} {cell!r} is not a number") from None
            elif column in ("needs", "under"):
                claim[column] = _pairs(cell, where)
            else:
                claim[column] = cell
        error = schema_error(plain(claim), validator)
        if error is not None:
            raise _validation_error(where, error)
        claim["_where_defined"] = where
        claims.append(claim)
    return claims


def load_paper(path: str | Path, schema_file: str | Path | None = None) -> dict:
    """Load and validate one paper.yaml and its claim tables; ``claims`` holds them all."""
    path = Path(path)
    paper = load_yaml(path, printed_numbers=True)
    schema = load_schema(schema_file or schema_path("paper"))
    if not isinstance(paper, dict):
        raise ValueError(f"{path}: a paper.yaml is a mapping of id, title, cite, sources and claims")
    error = schema_error(plain(paper), schema)
    if error is not None:
        raise _validation_error(str(path), error)
    if paper["id"] != path.parent.name:
        raise ValueError(f"{path}: id {paper['id']!r} differs from its folder name {path.parent.name!r}")
    claims = [dict(claim, _where_defined=f"{path}, claims[{i}]") for i, claim in enumerate(paper.get("claims") or [])]
    claim_schema = dict(schema["$defs"]["claim"], **{"$defs": schema["$defs"]})
    for table in paper.get("claim_tables") or []:
        table_path = path.parent / table
        if not table_path.is_file():
            raise ValueError(f"{path}: claim_tables names {table}, which is not a file beside it")
        claims += load_claim_table(table_path, claim_schema)
    for claim in claims:
        if not math.isfinite(float(claim["published"])):
            raise ValueError(f"{claim['_where_defined']}: published {claim['published']!r} is not a finite number")
    keys = [(c["key"], c.get("end", ""), c["source"], c["where"]) for c in claims]
    seen: dict = {}
    for claim, key in zip(claims, keys):
        if key in seen:
            raise ValueError(f"{claim['_where_defined']}: the same claim (key, end, source, where) = {key} "
                             f"is already made at {seen[key]}")
        seen[key] = claim["_where_defined"]
    paper["claims"] = claims
    names = [source["name"] for source in paper.get("sources") or []]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"{path}: sources repeat the name(s) {repeated}")
    return paper
