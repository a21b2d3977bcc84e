"""``reagree explain KEY``: one claim of a build, the printed value, reagree's value, every
variant tried with its value, and which reproduce the print.

What it decides:

- **What was checked is said first.** The status's meaning (reproduced from the data, a
  bound that holds, consistent with other printed numbers, ...), the tolerance and its
  reason (the printed digits, a stated wider tolerance, an approximate word's rule), an
  internal claim's range over its printed inputs, and a rounding note as a note.
- **A family of many variants is one line**: how many of its members reproduce the print
  and their values (``reagree.pipeline.reproduce.MANY``).

- **It reads the build, never recomputes it.** ``results/<paper>/claims.tsv`` gives the
  claim (printed text, reagree's value, status, explained_by), ``results/<paper>/
  variants/*.tsv`` the variants the paper's rules computed for the key; the search that
  says which reproduce the print is ``reagree.pipeline.reproduce.claim_search``, the one
  the claims diff ran, so ``explain`` and claims.tsv cannot disagree.
- **Where to look.** ``--paper ID`` names the paper; without it every paper with a
  claims.tsv under ``results/`` is searched and every claim under the key is shown (one
  key may be printed in several places).
- **What is missing is said, not guessed.** No claims.tsv at all: the build is missing
  (run ``make all``); a key no claim has: the nearest claim keys (difflib), and when a
  paper searched could not have its claims diffed (``reagree.pipeline.failures``), that
  it failed and why: its keys have no verdict until the error is fixed.
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path

import pandas as pd

from reagree.pipeline.claims import COMPARED, PRINTED_RELATION, read_claims
from reagree.pipeline.failures import failed_papers
from reagree.pipeline.paper import paper_code
from reagree.pipeline.paperspec import printed_tolerance
from reagree.pipeline.reproduce import MANY, REAGREE, claim_search
from reagree.pipeline.variantplan import VariantPlan, read_variants
from reagree.pipeline.verdicts import INTERNAL, internal_status
from reagree.stats.variants import describe

_READING_WORDS = {
    "match": "at printed precision",
    "round_half_up": "rounding half up",
    "round_half_even": "rounding half to even",
    "truncation": "by truncation",
    "rounding_up": "by rounding up",
}
#: What each status says was checked.
_MEANING = {
    "match": "reproduced from the released data at its printed digits",
    "within tolerance": "from the released data, inside the claim's stated wider tolerance",
    "holds": "a printed bound the released data keep",
    "consistent": "consistent with the printed numbers it is checked against",
    "inconsistent": "no value the printed inputs allow prints as it (a finding)",
    "mismatch": "the released data do not give it back (a finding)",
    "uncheckable": "nothing: what was released or fetched cannot give it (the reason below)",
    "not recomputed": "nothing: the data are released, but reagree does not reimplement the method that "
    "printed it (the reason below names it)",
    "not built": "nothing: the configuration left out a part it needs (the reason below names the setting)",
    "not comparable": "computed under other settings than the paper's",
    "missing": "no value computed: a defect in reagree",
}


class BuildMissing(ValueError):
    """No build to explain from."""


def _number(value: float) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.6g}"


def _reproduces(readings: tuple[str, ...]) -> str:
    """ "yes, at printed precision", or "no" ("no (by truncation only: a note)" when only a
    rounding other than to nearest would give the print)."""
    if "match" in readings:
        return "yes, at printed precision"
    chosen = [r for r in ("truncation", "rounding_up") if r in readings]
    return f"no ({' or '.join(_READING_WORDS[r] for r in chosen)} only: a note)" if chosen else "no"


def _reading(variant: str, plan: VariantPlan | None) -> str:
    """The variant's one-line reading: the paper's plan's own or the catalogue's ("" for neither)."""
    try:
        return plan.describe(variant) if plan is not None else describe(variant)
    except ValueError:
        return ""


def _plan(paper_id: str) -> VariantPlan | None:
    """The paper's variant plan when its package can be imported here (its own families'
    readings), else None: explain reads a build, it never needs the paper's code."""
    try:
        return paper_code(paper_id).variants
    except (ImportError, ValueError):
        return None


def _papers(results: Path, paper: str | None) -> list[str]:
    if paper is not None:
        if not (results / paper / "claims.tsv").is_file():
            raise BuildMissing(
                f"no build of {paper} in {results}/ ({results / paper / 'claims.tsv'} is missing): "
                f"run `make all` (or snakemake) first, with {paper} in config papers"
            )
        return [paper]
    found = sorted(p.parent.name for p in results.glob("*/claims.tsv"))
    if not found:
        raise BuildMissing(
            f"no build in {results}/ (no {results}/<paper>/claims.tsv): run `make all` (or snakemake) first"
        )
    return found


def variant_files(folder: Path) -> list[Path]:
    """The variants files a paper's rules wrote under its results folder: ``variants/<part>.tsv``,
    one per rule that writes variants (every paper writes them there)."""
    return sorted((folder / "variants").glob("*.tsv"))


def explain(key: str, results: str | Path = "results", paper: str | None = None) -> str:
    """The explanation of every claim under ``key`` (module docstring), as text."""
    results = Path(results)
    blocks, every_key = [], set()
    searched = _papers(results, paper)
    for paper_id in searched:
        claims = read_claims(results / paper_id / "claims.tsv")
        every_key |= set(claims["key"])
        chosen = claims[claims["key"] == key]
        if chosen.empty:
            continue
        paths = variant_files(results / paper_id)
        variants = read_variants(paths) if paths else pd.DataFrame(columns=["key"])
        rows = variants[variants["key"] == key].to_dict("records")
        where = (
            str(paths[0])
            if len(paths) == 1
            else f"{results / paper_id / 'variants'}/*.tsv"
            if paths
            else f"no variants file under {results / paper_id}"
        )
        for claim in chosen.to_dict("records"):
            blocks.append(_claim_block(paper_id, claim, rows, where, _plan(paper_id)))
    if not blocks:
        near = difflib.get_close_matches(key, sorted(every_key), n=3, cutoff=0.6)
        where = f"{paper}'s claims" if paper else f"the claims of {results}/"
        hint = f"; did you mean {' or '.join(repr(k) for k in near)}?" if near else ""
        failed = "".join(
            f"; {paper_id} failed, its claims could not be diffed, so none of its keys has a verdict: {error}"
            for paper_id, error in failed_papers(results, searched).items()
        )
        raise ValueError(f"no claim has the key {key!r} in {where}{hint}{failed}")
    return "\n\n".join(blocks) + "\n"


def _status_lines(claim: dict) -> list[str]:
    """The printed value, its tolerance, reagree's value and the status with its meaning."""
    published, status = claim["published"], claim["status"]
    tolerance = float(claim["tolerance"]) if not math.isnan(float(claim["tolerance"])) else 0.0
    precision = printed_tolerance(published)
    if claim.get("reason", "").startswith("states "):
        read = "a bound" + (
            f", its window end read to its printed digits (within {tolerance:g})" if tolerance else ", exact"
        )
    elif abs(tolerance - precision) > 1e-12 * max(1.0, precision):
        why = "the approximate-words rule" if claim.get("reason", "").startswith("'") else "a stated wider tolerance"
        read = f"within {tolerance:g}: {why} (the reason below)"
    else:
        read = f"precision: within {precision:g}, half a unit of its last printed digit"
    lines = [f"  printed   {published}  ({read})"]
    computed = claim["computed"]
    if status in COMPARED or status in (*INTERNAL, "holds", "missing", "not comparable"):
        detail = f"; difference {claim['difference']:+.3g}" if not math.isnan(claim["difference"]) else ""
        lines.append(f"  reagree   {_number(computed) or '(no value)'}  status: {status}{detail}")
    else:
        lines.append(f"  reagree   (not compared)  status: {status}")
    if status in _MEANING:
        lines.append(f"  checked   {_MEANING[status]}")
    low, high = claim.get("computed_low"), claim.get("computed_high")
    if status in INTERNAL and isinstance(low, float) and not math.isnan(low):
        lines.append(
            f"  inputs    each printed input +/- half a unit of its last digit: the value lies in "
            f"{low:.6g} to {high:.6g}"
        )
    return lines


def _family_lines(rows: list[dict], readings: dict, published: str, family_width: int, width: int) -> list[str]:
    """A family of more than ``MANY`` variants as one line: how many reproduce the print."""
    values = [float(r["value"]) for r in rows if not math.isnan(float(r["value"]))]
    hits = [float(r["value"]) for r in rows if "match" in readings.get(r["variant"], ())]
    spread = (
        f" ({_number(min(hits))} to {_number(max(hits))})"
        if hits and min(hits) != max(hits)
        else (f" ({_number(hits[0])})" if hits else "")
    )
    return [
        f"    {rows[0]['family']:<{family_width}}  {f'{len(rows)} variants':<{width}}  "
        f"{f'{_number(min(values))}..{_number(max(values))}' if values else '':>12}  "
        f"{len(hits)} of {len(rows)} reproduce {published}{spread}"
    ]


def _printed_relation_lines(claim: dict, rows: list[dict]) -> list[str]:
    """An internal claim's variants: other relations over printed numbers, each with its
    range, and whether the print is consistent with it."""
    if not rows:
        return ["  variants  none tried (the relation declares none: <paper>/internal.py)"]
    lines = [f"  variants  {len(rows)} tried (other relations over printed numbers):"]
    for row in rows:
        verdict = internal_status(
            claim["published"],
            float(row["low"]),
            float(row["high"]),
            "value",
            None
            if abs(float(claim["tolerance"]) - printed_tolerance(claim["published"])) < 1e-12
            else float(claim["tolerance"]),
        )
        lines.append(
            f"    {row['variant']}  {_number(float(row['value']))} (inputs allow {_number(float(row['low']))} "
            f"to {_number(float(row['high']))}): {'reproduces' if verdict == 'consistent' else 'does not reproduce'}"
            f" {claim['published']}  [{row.get('note', '')}]"
        )
    return lines


def _claim_block(paper_id: str, claim: dict, rows: list[dict], variants_path: str, plan: VariantPlan | None) -> str:
    key = claim["key"]
    end = f" ({claim['end']} of its interval)" if claim.get("end") else ""
    lines = [f"{paper_id}: {key}{end}", f"  where     {claim['where']} (source: {claim['source']})"]
    lines += _status_lines(claim)
    status = claim["status"]
    published = claim["published"]
    if claim.get("rule"):
        lines.append(f"  computed  by rule {claim['rule']}, function {claim['function']}")
    if claim.get("reason"):
        lines.append(f"  reason    {claim['reason']}")
    if claim.get("rounding"):
        lines.append(f"  note      {claim['rounding']}")
    if status in INTERNAL:
        lines += _printed_relation_lines(claim, [r for r in rows if r.get("family") == PRINTED_RELATION])
        for label, field in (("explained", "explained_by"), ("cause", "cause")):
            if claim.get(field):
                lines.append(f"  {label:<9} {claim[field]}")
        return "\n".join(lines)
    if status not in COMPARED or claim.get("end"):
        why = (
            "an interval end is not searched"
            if claim.get("end")
            else "a bound is checked as printed"
            if status == "holds" or claim.get("reason", "").startswith("states ")
            else f"a claim that is {status} is not compared"
        )
        lines.append(f"  variants  none tried ({why})")
        return "\n".join(lines)
    own = [r for r in rows if r.get("own") == "yes"]
    found = claim_search(published, key, float(claim["computed"]), rows)
    readings = {t.name: t.readings for t in found.tried}
    by_family: dict[str, list[dict]] = {}
    for row in rows:
        by_family.setdefault(row["family"], []).append(row)
    shown = [r for r in rows if len(by_family[r["family"]]) <= MANY]
    width = max([len(r["variant"]) for r in shown] + [len("reagree's value"), 12])
    family_width = max([len(r["family"]) for r in rows] + [6])
    lines.append(f"  variants  {len(found.tried) - 1} tried ({variants_path}), reagree's value first:")
    lines.append(f"    {'family':<{family_width}}  {'variant':<{width}}  {'value':>12}  reproduces {published}?")
    lines.append(
        f"    {'':<{family_width}}  {REAGREE:<{width}}  {_number(float(claim['computed'])):>12}  "
        f"{_reproduces(readings.get(REAGREE, ()))}"
    )
    seen: set[str] = set()
    for family, members in by_family.items():
        if len(members) > MANY:
            lines += _family_lines(members, readings, published, family_width, width)
            continue
        for row in members:
            value = float(row["value"])
            if row.get("own") == "yes":
                verdict = "reagree's own reading (the value above)"
            elif row["variant"] in seen:
                verdict = "(named twice: counted once)"
            elif math.isnan(value):
                verdict = f"not applicable: {row['note'] or 'no value'}"
            else:
                verdict = _reproduces(readings.get(row["variant"], ()))
            seen.add(row["variant"])
            about = _reading(row["variant"], plan)
            lines.append(
                f"    {row['family']:<{family_width}}  {row['variant']:<{width}}  {_number(value):>12}  "
                f"{verdict}" + (f"  [{about}]" if about else "")
            )
    if not rows:
        lines.append(
            "    (the paper declares no variant family for this key: workflow/papers/"
            f"{paper_id}/{paper_id}/variants.py)"
        )
    lines.append(f"  explained {claim.get('explained_by') or '(nothing to add)'}")
    if claim.get("cause"):
        lines.append(f"  cause     {claim['cause']}")
    if own:
        lines.append("  (reagree's own reading is computed twice, by its rule and by the variants rule; they agree)")
    return "\n".join(lines)


__all__ = ["BuildMissing", "explain"]
