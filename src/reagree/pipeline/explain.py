"""``reagree explain KEY``: one claim of a build, the printed value, reagree's value, every
variant tried with its value, and which reproduce the print.

What it decides:

- **It reads the build, never recomputes it.** ``results/<paper>/claims.tsv`` gives the
  claim (printed text, reagree's value, status, explained_by), ``results/<paper>/
  variants.tsv`` or ``results/<paper>/variants/*.tsv`` the variants the paper's rules computed for the key; the search that
  says which reproduce the print is ``reagree.pipeline.reproduce.claim_search``, the one
  the claims diff ran, so ``explain`` and claims.tsv cannot disagree.
- **Where to look.** ``--paper ID`` names the paper; without it every paper with a
  claims.tsv under ``results/`` is searched and every claim under the key is shown (one
  key may be printed in several places).
- **What is missing is said, not guessed.** No claims.tsv at all: the build is missing
  (run ``make all``); a key no claim has: the nearest claim keys (difflib).
"""

from __future__ import annotations

import difflib
import math
from pathlib import Path

import pandas as pd

from reagree.pipeline.claims import COMPARED, read_claims
from reagree.pipeline.paperspec import printed_tolerance
from reagree.pipeline.reproduce import REAGREE, claim_search
from reagree.pipeline.variantplan import read_variants
from reagree.stats.variants import describe

_READING_WORDS = {"match": "at printed precision", "round_half_up": "rounding half up",
                  "round_half_even": "rounding half to even", "truncation": "by truncation",
                  "rounding_up": "by rounding up"}


class BuildMissing(ValueError):
    """No build to explain from."""


def _number(value: float) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.6g}"


def _reproduces(readings: tuple[str, ...]) -> str:
    """"yes, at printed precision", "yes, by truncation", or "no"."""
    if "match" in readings:
        return "yes, at printed precision"
    chosen = [r for r in ("truncation", "rounding_up") if r in readings]
    return "yes, " + " or ".join(_READING_WORDS[r] for r in chosen) if chosen else "no"


def _reading(variant: str) -> str:
    try:
        return describe(variant)
    except ValueError:
        return ""


def _papers(results: Path, paper: str | None) -> list[str]:
    if paper is not None:
        if not (results / paper / "claims.tsv").is_file():
            raise BuildMissing(f"no build of {paper} in {results}/ ({results / paper / 'claims.tsv'} is missing): "
                               f"run `make all` (or snakemake) first, with {paper} in config papers")
        return [paper]
    found = sorted(p.parent.name for p in results.glob("*/claims.tsv"))
    if not found:
        raise BuildMissing(f"no build in {results}/ (no {results}/<paper>/claims.tsv): run `make all` "
                           "(or snakemake) first")
    return found


def variant_files(folder: Path) -> list[Path]:
    """The variants files a paper's rules wrote under its results folder: ``variants.tsv``
    and ``variants/*.tsv`` (a paper registers one or the other with ``add_variants``)."""
    return [p for p in [folder / "variants.tsv", *sorted((folder / "variants").glob("*.tsv"))] if p.is_file()]


def explain(key: str, results: str | Path = "results", paper: str | None = None) -> str:
    """The explanation of every claim under ``key`` (module docstring), as text."""
    results = Path(results)
    blocks, every_key = [], set()
    for paper_id in _papers(results, paper):
        claims = read_claims(results / paper_id / "claims.tsv")
        every_key |= set(claims["key"])
        chosen = claims[claims["key"] == key]
        if chosen.empty:
            continue
        paths = variant_files(results / paper_id)
        variants = read_variants(paths) if paths else pd.DataFrame(columns=["key"])
        rows = variants[variants["key"] == key].to_dict("records")
        where = (str(paths[0]) if len(paths) == 1 else f"{results / paper_id / 'variants'}/*.tsv" if paths
                 else f"no variants file under {results / paper_id}")
        for claim in chosen.to_dict("records"):
            blocks.append(_claim_block(paper_id, claim, rows, where))
    if not blocks:
        near = difflib.get_close_matches(key, sorted(every_key), n=3, cutoff=0.6)
        where = f"{paper}'s claims" if paper else f"the claims of {results}/"
        hint = f"; did you mean {' or '.join(repr(k) for k in near)}?" if near else ""
        raise ValueError(f"no claim has the key {key!r} in {where}{hint}")
    return "\n\n".join(blocks) + "\n"


def _claim_block(paper_id: str, claim: dict, rows: list[dict], variants_path: str) -> str:
    key = claim["key"]
    end = f" ({claim['end']} of its interval)" if claim.get("end") else ""
    lines = [f"{paper_id}: {key}{end}", f"  where     {claim['where']} (source: {claim['source']})"]
    published = claim["published"]
    lines.append(f"  printed   {published}  (precision: within {printed_tolerance(published):g}, half a unit of "
                 "its last printed digit)")
    status = claim["status"]
    computed = claim["computed"]
    if status in COMPARED or status in ("missing", "not comparable"):
        detail = f"; difference {claim['difference']:+.3g}" if not math.isnan(claim["difference"]) else ""
        lines.append(f"  reagree   {_number(computed) or '(no value)'}  status: {status}{detail}")
    else:
        lines.append(f"  reagree   (not compared)  status: {status}")
    if claim.get("rule"):
        lines.append(f"  computed  by rule {claim['rule']}, function {claim['function']}")
    if claim.get("reason"):
        lines.append(f"  reason    {claim['reason']}")
    if status not in COMPARED or claim.get("end"):
        why = "an interval end is not searched" if claim.get("end") else f"a claim that is {status} is not compared"
        lines.append(f"  variants  none tried ({why})")
        return "\n".join(lines)
    own = [r for r in rows if r.get("own") == "yes"]
    found = claim_search(published, key, float(computed), rows)
    readings = {t.name: t.readings for t in found.tried}
    width = max([len(r["variant"]) for r in rows] + [len("reagree's value"), 8])
    family_width = max([len(r["family"]) for r in rows] + [6])
    lines.append(f"  variants  {len(found.tried) - 1} tried ({variants_path}), reagree's value first:")
    lines.append(f"    {'family':<{family_width}}  {'variant':<{width}}  {'value':>12}  reproduces {published}?")
    mine = readings.get(REAGREE, ())
    mine_label = "reagree's value"
    lines.append(f"    {'':<{family_width}}  {mine_label:<{width}}  {_number(float(computed)):>12}  "
                 f"{_reproduces(mine)}")
    seen: set[str] = set()
    for row in rows:
        value = float(row["value"])
        if row.get("own") == "yes":
            verdict = "reagree's own reading (the value above)"
        elif row["variant"] in seen:
            verdict = "(named twice: counted once)"
        elif math.isnan(value):
            verdict = f"not applicable: {row['note'] or 'no value'}"
        else:
            verdict = _reproduces(readings.get(row["variant"], ()))
            if status != "mismatch" and verdict.startswith("yes, by"):
                # a match is reproduced at printed precision or not: a variant that gives the
                # print only rounded up or truncated is not another reading of a match
                verdict = f"no ({verdict[5:]} only)"
        seen.add(row["variant"])
        about = _reading(row["variant"])
        lines.append(f"    {row['family']:<{family_width}}  {row['variant']:<{width}}  {_number(value):>12}  {verdict}"
                     + (f"  [{about}]" if about else ""))
    if not rows:
        lines.append("    (the paper declares no variant family for this key: workflow/papers/"
                     f"{paper_id}/{paper_id}/variants.py)")
    lines.append(f"  explained {claim.get('explained_by') or '(nothing to add)'}")
    if claim.get("cause"):
        lines.append(f"  cause     {claim['cause']}")
    if own:
        lines.append("  (reagree's own reading is computed twice, by its rule and by the variants rule; they agree)")
    return "\n".join(lines)


__all__ = ["BuildMissing", "explain"]
