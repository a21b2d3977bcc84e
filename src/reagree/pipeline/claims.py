"""Diffing computed values against the numbers a paper printed.

What it decides (design.md, "Claims"; the rules themselves are
``reagree.pipeline.verdicts``, one function each): every claim gets exactly one status,
tried in this order.

- ``uncheckable``: the claim carries a reason (data never released, needs a model
  download); decided before any value is looked up.
- ``not recomputed``: the claim names the method reagree does not reimplement (and the
  authors' file that does) for a number whose data are released (``not_recomputed``);
  decided before any value is looked up. Never a finding, never a match.
- ``not built``: the claim ``needs`` parts of the build the configuration left out (a
  language, an optional model rerun). The reason names every missing part and the
  setting that builds it.
- A claim key that no rule produces is **an error in the claims file**, not a status:
  the run stops with the file, the line and the nearest keys the build did produce
  (difflib). "Produced" means written to values.tsv; with the paper's key grammar
  (``reagree.pipeline.keys``), a key that a family declares but whose rule wrote no value
  is ``missing`` (a defect in reagree) instead.
- ``not comparable``: the claim states the settings it was printed ``under`` (scheme,
  draws, seed, level, or any other setting the value's scheme names) and the run's value
  used others; the reason names both. Never a finding.
- ``missing``: no finite computed value under the claim's key (or interval end). A
  defect in reagree, never a finding.
- **An internal claim** (``source: internal``): ``consistent`` or ``inconsistent``
  (``verdicts.internal_status``), its value's range over the printed inputs' intervals
  (values.tsv ``ci_low``, ``ci_high``: ``reagree.pipeline.internal``) held against the
  printed number widened by its own rounding. Never a match.
- **A bound** (``compare`` ``>``, ``>=``, ``<``, ``<=``: "over 40%", "2–4%"): ``holds`` or
  ``mismatch`` (``verdicts.bound_status``); shown with the bound (``reason``) and the value.
  Never a match.
- **A value** from the data: ``match`` at the printed digits, ``within tolerance`` inside a
  wider tolerance the claim states a reason for (its own ``tolerance`` with
  ``tolerance_reason``, or its ``approximate`` word read by the one rule), else
  ``mismatch`` (``verdicts.value_status``). ``compare: abs`` compares |computed|;
  ``end: ci_low`` or ``ci_high`` compares that end of the value's interval.

A relative slack of 1e-9 absorbs float noise at the rounding boundary.

**Variants** (``reagree.pipeline.variantplan``, ``reagree.pipeline.reproduce``). For
every claim compared with its value (match, within tolerance, mismatch; not an interval
end) the variants the paper's rules computed for the key are held against the print:
``explained_by`` names those that reproduce a mismatch ("reproduced by
alpha.expected_n_squared (0.205345)", or "none of N variants tried reproduces 0.205"),
and for a match the other variants that reproduce it too. An internal claim's variants
are other relations over printed numbers (``reagree.pipeline.internal``), held against the
print by their ranges. A family the paper declares for the key without rows in
variants.tsv, or an ``own`` variant (reagree's reading computed again) that differs from
the value, is a defect and stops the run.
**Causes.** A finding's ``cause`` is the claim's declared ``cause``, else "reproduced by
<the variant>" when exactly one variant reproduces it, else empty (a cause of its own).
**Rounding** (``rounding``): that truncating or rounding up the value would give the
printed digits is a note, never an explanation or a cause.
**Figure** (``figure``): the printed figure the claim checks (``verdicts.figure_ids``);
the summary gives each figure one verdict (``reagree.pipeline.summary``).
"""

from __future__ import annotations

import difflib
import io
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from reagree.pipeline.paperspec import printed_tolerance
from reagree.pipeline.reproduce import claim_search, explanation, first_cause, printed_search
from reagree.pipeline.summary import reference_disagreements, summarise  # noqa: F401  (re-exported)
from reagree.pipeline.verdicts import (
    COMPARED,
    INEQUALITIES,
    approximate_reason,
    approximate_tolerance,
    bound_allowance,
    bound_status,
    figure_ids,
    internal_status,
    rounding_note,
    value_status,
    window_end,
)
from reagree.stats.references import DEFECT

# COMPARED, reference_disagreements and summarise are re-exported (from verdicts and summary).
__all__ = [
    "CLAIM_COLUMNS",
    "COMPARED",
    "PRINTED_RELATION",
    "ClaimKeyError",
    "diff_claims",
    "incomparable",
    "parse_scheme",
    "read_claims",
    "reference_disagreements",
    "summarise",
    "unmet_need",
]

# ``explained_by``: what the variant search says (module docstring); ``cause``: what the
# summary groups a finding under. ``rule`` and ``function``: the rule that wrote the
# claim's value and the one function that computed it (from values.tsv; empty when no
# value was computed). ``computed_low``, ``computed_high``: an internal claim's range
# over its printed inputs. ``figure``: the printed figure it checks. ``rounding``: a
# rounding note (never an explanation).
CLAIM_COLUMNS = [
    "key",
    "end",
    "where",
    "source",
    "published",
    "computed",
    "difference",
    "tolerance",
    "status",
    "reason",
    "explained_by",
    "cause",
    "rule",
    "function",
    "computed_low",
    "computed_high",
    "figure",
    "rounding",
]
#: The variants-file family of an internal relation's variants (reagree.pipeline.internal).
PRINTED_RELATION = "printed_relation"


def _same(wanted: object, built: object) -> bool:
    if isinstance(built, bool) or isinstance(wanted, bool):
        return str(wanted).lower() == str(built).lower()
    if isinstance(built, (int, float)) and isinstance(wanted, (int, float)):
        return float(wanted) == float(built)
    return str(wanted) == str(built)


def _listed(values: list) -> str:
    """ "A", "A and B", "A, B and C"."""
    texts = [str(v) for v in values]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def unmet_need(needs: dict, paper_id: str, settings: dict, expansions: dict) -> str:
    """Why a claim's ``needs`` are not met by this configuration ("" when they are),
    naming every missing part.

    A ``needs`` field is a paper setting (its value must equal the wanted one, or contain
    it when the setting is a list) or an ``expand`` field of a source (the files built
    under these settings must include the wanted value). A field may want a list of
    values (``part=a;part=b`` in a claim table): every one must be built, and every one
    that is not is named ("languages B and C were not built")."""
    reasons = []
    for field, wanted in (needs or {}).items():
        wants = wanted if isinstance(wanted, list) else [wanted]
        if field in settings:
            built = settings[field]
            if isinstance(built, list):
                absent = [one for one in wants if not any(_same(one, v) for v in built)]
                if absent:
                    reasons.append(f"needs {_listed(absent)} in config {paper_id}.{field}; this build has {built}")
            else:
                absent = [one for one in wants if not _same(one, built)]
                if absent:
                    reasons.append(f"needs config {paper_id}.{field}: {_listed(absent)}; this build has {built}")
        elif field in expansions:
            slot = expansions[field]
            absent = [one for one in wants if not any(_same(one, v) for v in slot["values"])]
            if absent:
                many = len(absent) > 1
                setting = slot.get("setting")
                how = (
                    f"add {'them' if many else 'it'} to config {paper_id}.{setting}" if setting else "not in this build"
                )
                reasons.append(
                    f"{field}{'s' if many else ''} {_listed(absent)} {'were' if many else 'was'} not built ({how})"
                )
        else:
            raise ValueError(
                f"claim needs {field!r}, which is neither a setting of {paper_id} "
                f"({sorted(settings)}) nor a source expand field ({sorted(expansions)})"
            )
    return "; ".join(reasons)


def parse_scheme(text: object) -> dict:
    """``"numpy; draws=2000; seed=0; level=0.95"`` -> {scheme, draws, seed, level}."""
    if not isinstance(text, str) or not text.strip():
        return {}
    name, *pairs = [part.strip() for part in text.split(";")]
    out: dict = {"scheme": name}
    for pair in pairs:
        if "=" in pair:
            field, value = (s.strip() for s in pair.split("=", 1))
            out[field] = value
    return out


def _as_number(text: object) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def incomparable(under: dict, scheme_text: object) -> str:
    """Why a value computed with ``scheme_text`` (values.tsv's ``scheme``: "numpy;
    draws=2000; seed=0; level=0.95", "python-random; draws=1000; max_lag=3") cannot be held
    against a number printed ``under`` other settings ("" when the settings agree).
    Settings compare as numbers when both read as numbers, else as text."""
    if not under:
        return ""
    used = parse_scheme(scheme_text)
    if not used:
        return ""
    differ = []
    for field, wanted in under.items():
        have = used.get(field)
        if field == "scheme" or _as_number(wanted) is None or _as_number(have) is None:
            same = have is not None and _same(str(getattr(wanted, "text", None) or wanted), str(have))
        else:
            same = _same(float(wanted), float(have))
        if not same:
            printed = getattr(wanted, "text", None) or wanted
            differ.append(f"{field} {printed} (printed) vs {have} (this run)")
    if differ:
        what = "interval settings" if set(under) & {"draws", "seed", "level"} else "settings"
        return f"{what} differ: " + "; ".join(differ)
    return ""


class ClaimKeyError(ValueError):
    """Claim keys that no rule produces: an error in the claims file (module docstring)."""


def _unproduced(claims: list[dict], produced: list[str]) -> ClaimKeyError:
    lines = []
    for claim in claims:
        near = difflib.get_close_matches(claim["key"], produced, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(k) for k in near)}?" if near else ""
        lines.append(
            f"{claim.get('_where_defined', 'a claim')}: claim key {claim['key']!r} is produced by no rule{hint}"
        )
    return ClaimKeyError("\n".join(lines))


def _variants_by_key(variants: pd.DataFrame | None) -> dict[str, list[dict]]:
    if variants is None or not len(variants):
        return {}
    out: dict[str, list[dict]] = {}
    for row in variants.to_dict("records"):
        out.setdefault(row["key"], []).append(row)
    return out


def _check_variants(claim: dict, computed: float, rows: list[dict], families: list[str], paper_id: str) -> None:
    """A declared family without rows, or an own variant that is not reagree's value: a defect."""
    where = claim.get("_where_defined", "a claim")
    written = {row["family"] for row in rows}
    absent = [family for family in families if family not in written]
    if absent:
        raise ValueError(
            f"{where}: claim key {claim['key']}: the paper's variants rule wrote no variants of "
            f"{absent}, which workflow/papers/{paper_id}/{paper_id}/variants.py declares for it"
        )
    for row in rows:
        value = float(row["value"])
        if (
            row.get("own") == "yes"
            and np.isfinite(value)
            and np.isfinite(computed)
            and abs(value - computed) > DEFECT * max(1.0, abs(computed))
        ):
            raise ValueError(
                f"{where}: claim key {claim['key']}: variant {row['variant']} ({row['family']}) is "
                f"reagree's own reading but gives {value!r}, values.tsv {computed!r}: the variants "
                "rule and the value rule disagree"
            )


def _tolerances(claim: dict, relation: str) -> tuple[float, float | None, str]:
    """The claim's printed precision (0 for a bound), the wider tolerance it states or its
    approximate word implies (None when neither), and the reason for that tolerance."""
    where = claim.get("_where_defined", "claim")
    word = claim.get("approximate", "")
    if word and "tolerance" in claim:
        raise ValueError(
            f"{where}: claim {claim['key']}: an approximate word ({word!r}) sets the tolerance by the "
            "one rule; give no tolerance of its own"
        )
    if relation in INEQUALITIES and "tolerance" in claim:
        raise ValueError(f"{where}: claim {claim['key']}: a bound (compare {relation}) is exact and takes no tolerance")
    precision = 0.0 if relation in INEQUALITIES else printed_tolerance(claim["published"])
    if word:
        return precision, approximate_tolerance(claim["published"]), approximate_reason(word, claim["published"])
    if claim.get("tolerance") is None:
        return precision, None, ""
    tolerance = float(claim["tolerance"])
    if not (np.isfinite(tolerance) and tolerance >= 0):  # NaN would make every claim a mismatch, inf a match
        raise ValueError(f"{where}: claim {claim['key']}: tolerance {tolerance} must be a finite number >= 0")
    return precision, tolerance, claim.get("tolerance_reason", "")


def _joined(*parts: str) -> str:
    return "; ".join(part for part in parts if part)


def _check_internal(
    claim: dict,
    row: dict,
    value_row: dict,
    computed: float,
    relation: str,
    tolerance: float | None,
    why: str,
    variant_rows: list[dict],
) -> None:
    """An internal claim: consistent or inconsistent with the range its printed inputs
    allow; the variants of its relation searched the same way."""
    low, high = (float(value_row.get(end, np.nan)) for end in ("ci_low", "ci_high"))
    if not (np.isfinite(low) and np.isfinite(high)):
        low, high = computed, computed  # a relation whose inputs are constants: an exact value
    status = internal_status(claim["published"], low, high, relation, tolerance)
    bound = _bound_words(claim, relation, row["published"]) if relation in INEQUALITIES else ""
    row.update(
        computed=computed,
        difference=computed - float(claim["published"]),
        status=status,
        computed_low=low,
        computed_high=high,
        reason=_joined(bound, why, claim.get("note", "")),
    )
    if status == "missing":
        row["reason"] = _joined(
            f"no value computed from the printed numbers ({value_row.get('note')})", claim.get("note", "")
        )
        return
    relations = [r for r in variant_rows if r.get("family") == PRINTED_RELATION]
    words, reproducing = printed_search(claim["published"], tolerance, relations, relation)
    if status == "inconsistent":
        row["explained_by"] = words or "no variant tried (none declared for this relation)"
        row["cause"] = claim.get("cause", "") or (f"reproduced by {reproducing[0]}" if len(reproducing) == 1 else "")
        if relation not in INEQUALITIES:
            row["rounding"] = rounding_note(claim["published"], computed, "the value from the printed numbers")
    elif reproducing:
        row["explained_by"] = "also " + words


def _bound_words(claim: dict, relation: str, published: str) -> str:
    """ "states > 40", or for a window's end "states <= 4 (a window's end, read to its
    printed digits: <= 4.5)"."""
    allowance = bound_allowance(relation, claim["published"])
    digits = (
        f" (a window's end, read to its printed digits: {window_end(relation, claim['published'])})"
        if allowance
        else ""
    )
    return f"states {relation} {published}{digits}"


def _check_bound(claim: dict, row: dict, value: float, relation: str, tolerance: float | None, why: str) -> None:
    """The data against a printed bound: holds or mismatch, with the bound in the reason."""
    status = bound_status(value, relation, claim["published"], tolerance)
    row.update(
        computed=value,
        difference=value - float(claim["published"]),
        status=status,
        tolerance=bound_allowance(relation, claim["published"]),
        reason=_joined(_bound_words(claim, relation, row["published"]), why, claim.get("note", "")),
    )
    if status == "mismatch":  # a bound is checked as printed: no reading of it to search
        row["explained_by"] = "a printed bound: no variant searched"
        row["cause"] = claim.get("cause", "")


def _check_value(
    claim: dict,
    row: dict,
    value: float,
    computed: float,
    precision: float,
    tolerance: float | None,
    why: str,
    key_rows: list[dict],
    magnitude: bool,
) -> None:
    """A value from the data against a printed value: match, within tolerance or
    mismatch; for a value (not an interval end) the variants of its key are searched."""
    status = value_status(float(claim["published"]), value, precision, tolerance)
    row.update(computed=value, difference=value - float(claim["published"]), status=status)
    if status == "within tolerance" or claim.get("approximate"):
        row["reason"] = _joined(why, claim.get("note", ""))
    if status == "mismatch":
        row["rounding"] = rounding_note(claim["published"], value)
    if status in COMPARED and not claim.get("end"):
        found = claim_search(claim["published"], claim["key"], computed, key_rows, magnitude=magnitude)
        row["explained_by"] = explanation(found, status)
        if status == "mismatch":
            row["cause"] = claim.get("cause", "") or first_cause(found)


def diff_claims(
    claims: list[dict],
    values: pd.DataFrame,
    paper_id: str = "",
    settings: dict | None = None,
    expansions: dict | None = None,
    *,
    variants: pd.DataFrame | None = None,
    families_for: Callable[[str], list[str]] | None = None,
    declared: Callable[[str], object] | None = None,
) -> pd.DataFrame:
    """One row per claim with its status (module docstring); ``values`` is a values.tsv frame.

    ``variants``: the paper's variants.tsv rows; ``families_for(key)``: the families its
    variants.py declares for a key (``VariantPlan.families_for``); ``declared(key)``: the
    key grammar's family of a key or None (``KeyGrammar.family_of``). Without
    ``declared``, a claim key absent from values.tsv is an unproduced key."""
    settings, expansions = settings or {}, expansions or {}
    rows_by_key = {row["key"]: row for row in values.to_dict("records")}
    variants_of = _variants_by_key(variants)
    figures = dict(zip(map(id, claims), figure_ids(claims)))
    rows, unproduced = [], []
    for claim in claims:
        end = claim.get("end", "")
        relation = claim.get("compare", "value")
        precision, tolerance, why = _tolerances(claim, relation)
        value_row = rows_by_key.get(claim["key"], {})
        row = {
            "key": claim["key"],
            "end": end,
            "where": claim.get("where", ""),
            "source": claim.get("source", "paper"),
            "published": getattr(claim["published"], "text", None) or repr(float(claim["published"])),
            "computed": np.nan,
            "difference": np.nan,
            "tolerance": tolerance if tolerance is not None else precision,
            "reason": _joined(why if claim.get("approximate") else "", claim.get("note", "")),
            "explained_by": "",
            "cause": "",
            **{
                column: value_row.get(column, "") if isinstance(value_row.get(column, ""), str) else ""
                for column in ("rule", "function")
            },
            "computed_low": np.nan,
            "computed_high": np.nan,
            "figure": figures[id(claim)],
            "rounding": "",
        }
        if claim.get("uncheckable") or claim.get("not_recomputed"):
            row.update(
                status="uncheckable" if claim.get("uncheckable") else "not recomputed",
                reason=claim.get("uncheckable") or claim["not_recomputed"],
            )
            rows.append(row)
            continue
        unmet = unmet_need(claim.get("needs", {}), paper_id, settings, expansions)
        if unmet:
            row.update(status="not built", reason=unmet)
            rows.append(row)
            continue
        if not value_row:
            family = declared(claim["key"]) if declared is not None else None
            if family is None:
                unproduced.append(claim)
                continue
            row.update(
                status="missing",
                reason=f"no value written under this key; {paper_id}'s keys.py declares it "
                f"for rule {family.rule} ({family.function}): a defect in reagree",
                rule=family.rule,
                function=family.function,
            )
            rows.append(row)
            continue
        computed = float(value_row.get(end or "value", np.nan))
        differs = incomparable(claim.get("under", {}), value_row.get("scheme", ""))
        if differs:
            row.update(computed=computed, status="not comparable", reason=differs)
            rows.append(row)
            continue
        key_rows = variants_of.get(claim["key"], [])
        value = abs(computed) if relation == "abs" else computed
        if claim.get("source") == "internal" and not end:
            _check_internal(claim, row, value_row, computed, relation, tolerance, why, key_rows)
        elif relation in INEQUALITIES:
            _check_bound(claim, row, value, relation, tolerance, why)
        else:
            if not end:
                _check_variants(claim, computed, key_rows, families_for(claim["key"]) if families_for else [], paper_id)
            _check_value(claim, row, value, computed, precision, tolerance, why, key_rows, relation == "abs")
        if row["status"] == "missing" and claim.get("source") != "internal":
            what = f"the {end} of " if end else ""
            row["reason"] = f"no value computed for {what}this key" + (
                f" ({value_row.get('note')})" if value_row.get("note") else ""
            )
        rows.append(row)
    if unproduced:
        raise _unproduced(unproduced, sorted(rows_by_key))
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def read_claims(path) -> pd.DataFrame:
    """A claims.tsv as written by ``diff_claims`` (published kept as printed text); one
    that is not UTF-8 (reagree writes UTF-8) is an error naming the file and the line."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise ValueError(
            f"{path}, line {line}: not UTF-8 text ({error.reason} at byte {column} of the line); it is "
            "written by reagree: rebuild it (make all)"
        ) from None
    return pd.read_csv(
        io.StringIO(text),
        sep="\t",
        keep_default_na=False,
        dtype={
            "published": str,
            "end": str,
            "rule": str,
            "function": str,
            "explained_by": str,
            "cause": str,
            "figure": str,
            "rounding": str,
        },
        na_values={"computed": [""], "difference": [""], "computed_low": [""], "computed_high": [""]},
    )
