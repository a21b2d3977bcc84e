"""Diffing computed values against the numbers a paper printed.

What it decides (design.md, "Claims"): every claim gets exactly one status, tried in this
order.

- ``uncheckable``: the claim carries a reason (data never released, needs a model
  download); decided before any value is looked up.
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
- ``match``: |computed - published| is at most half a unit of the last printed digit
  (``reagree.pipeline.paperspec.printed_tolerance``): the printed digits are reproduced.
  A claim on a magnitude (``compare: abs``) compares |computed|; ``end: ci_low`` or
  ``ci_high`` compares that end of the value's interval.
- ``within tolerance``: not a match at printed precision, but within the claim's own
  wider ``tolerance``, whose ``tolerance_reason`` (a Monte Carlo error) is the reason.
  Counted apart from the matches, never added to them.
- **An inequality** ("over 40%", "below 0.2", "at least 0.6") is a claim whose ``compare``
  is ``>``, ``>=``, ``<`` or ``<=`` and whose ``published`` is the printed bound: it
  matches when ``computed <op> bound`` holds. A bound is exact, so such a claim has no
  tolerance (its tolerance column reads 0); computed and bound within the float slack
  count as equal (``>=`` holds, ``>`` does not).
- ``mismatch``: anything else. A finding; the build still succeeds.

A relative slack of 1e-9 absorbs float noise at the rounding boundary.

**Variants** (``reagree.pipeline.variantplan``, ``reagree.pipeline.reproduce``). For
every claim compared with its value (match, within tolerance, mismatch; not an interval
end) the variants the paper's rules computed for the key are held against the print:
``explained_by`` names those that reproduce a mismatch ("reproduced by
alpha.expected_n_squared (0.205345)", or "none of N variants tried reproduces 0.205"),
and for a match the other variants that reproduce it too. A family the paper declares
for the key without rows in variants.tsv, or an ``own`` variant (reagree's reading
computed again) that differs from the value, is a defect and stops the run.
**Causes.** A mismatch's ``cause`` is the claim's declared ``cause``, else "reproduced by
<the first variant that reproduces it>", else empty (a cause of its own); the summary
lists one line per cause with the claims it covers.
"""

from __future__ import annotations

import difflib
import io
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from reagree.pipeline.paperspec import printed_tolerance
from reagree.pipeline.printed import SLACK
from reagree.pipeline.reproduce import claim_search, explanation, first_cause
from reagree.stats.references import DEFECT

STATUSES = ("match", "within tolerance", "mismatch", "uncheckable", "not built", "not comparable", "missing")
#: Statuses of a claim held against its computed value (the variants are searched for these).
COMPARED = ("match", "within tolerance", "mismatch")
# ``explained_by``: what the variant search says (module docstring); ``cause``: what the
# summary groups a mismatch under. ``rule`` and ``function``: the rule that wrote the
# claim's value and the one function that computed it (from values.tsv; empty when no
# value was computed).
CLAIM_COLUMNS = ["key", "end", "where", "source", "published", "computed", "difference", "tolerance", "status",
                 "reason", "explained_by", "cause", "rule", "function"]
WITHIN_TOLERANCE = "within a stated wider tolerance"
#: ``compare`` values that state a bound: computed <op> published.
INEQUALITIES = (">", ">=", "<", "<=")


def _within(published: float, computed: float, tolerance: float) -> bool:
    return abs(computed - published) <= tolerance * (1 + SLACK) + SLACK * abs(published)


def _status(published: float, computed: float, precision: float, tolerance: float | None = None) -> str:
    """match within the printed ``precision`` (or a narrower own tolerance), within
    tolerance within a wider own ``tolerance``, else mismatch; missing without a value."""
    if not np.isfinite(computed):
        return "missing"
    if _within(published, computed, min(precision, tolerance) if tolerance is not None else precision):
        return "match"
    if tolerance is not None and tolerance > precision and _within(published, computed, tolerance):
        return "within tolerance"
    return "mismatch"


def holds(computed: float, relation: str, bound: float) -> bool:
    """Whether ``computed <relation> bound`` holds; values within the float slack of the
    bound (relative to the bound: a bound of 5e-13 is not swamped) count as equal to it
    (so ``>=`` holds there and ``>`` does not)."""
    if relation not in INEQUALITIES:
        raise ValueError(f"compare {relation!r} is not an inequality ({', '.join(INEQUALITIES)})")
    excess = computed - bound
    slack = SLACK * abs(bound)
    return {">": excess > slack, ">=": excess >= -slack, "<": excess < -slack, "<=": excess <= slack}[relation]


def _bound_status(computed: float, relation: str, bound: float) -> str:
    if not np.isfinite(computed):
        return "missing"
    return "match" if holds(computed, relation, bound) else "mismatch"


def _same(wanted: object, built: object) -> bool:
    if isinstance(built, bool) or isinstance(wanted, bool):
        return str(wanted).lower() == str(built).lower()
    if isinstance(built, (int, float)) and isinstance(wanted, (int, float)):
        return float(wanted) == float(built)
    return str(wanted) == str(built)


def _listed(values: list) -> str:
    """"A", "A and B", "A, B and C"."""
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
                how = (f"add {'them' if many else 'it'} to config {paper_id}.{setting}" if setting
                       else "not in this build")
                reasons.append(f"{field}{'s' if many else ''} {_listed(absent)} {'were' if many else 'was'} "
                               f"not built ({how})")
        else:
            raise ValueError(f"claim needs {field!r}, which is neither a setting of {paper_id} "
                             f"({sorted(settings)}) nor a source expand field ({sorted(expansions)})")
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
        lines.append(f"{claim.get('_where_defined', 'a claim')}: claim key {claim['key']!r} is produced by no "
                     f"rule{hint}")
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
        raise ValueError(f"{where}: claim key {claim['key']}: the paper's variants rule wrote no variants of "
                         f"{absent}, which workflow/papers/{paper_id}/{paper_id}/variants.py declares for it")
    for row in rows:
        value = float(row["value"])
        if row.get("own") == "yes" and np.isfinite(value) and np.isfinite(computed) \
                and abs(value - computed) > DEFECT * max(1.0, abs(computed)):
            raise ValueError(f"{where}: claim key {claim['key']}: variant {row['variant']} ({row['family']}) is "
                             f"reagree's own reading but gives {value!r}, values.tsv {computed!r}: the variants "
                             "rule and the value rule disagree")


def diff_claims(claims: list[dict], values: pd.DataFrame, paper_id: str = "", settings: dict | None = None,
                expansions: dict | None = None, *, variants: pd.DataFrame | None = None,
                families_for: Callable[[str], list[str]] | None = None,
                declared: Callable[[str], object] | None = None) -> pd.DataFrame:
    """One row per claim with its status (module docstring); ``values`` is a values.tsv frame.

    ``variants``: the paper's variants.tsv rows; ``families_for(key)``: the families its
    variants.py declares for a key (``VariantPlan.families_for``); ``declared(key)``: the
    key grammar's family of a key or None (``KeyGrammar.family_of``). Without
    ``declared``, a claim key absent from values.tsv is an unproduced key."""
    settings, expansions = settings or {}, expansions or {}
    rows_by_key = {row["key"]: row for row in values.to_dict("records")}
    variants_of = _variants_by_key(variants)
    rows, unproduced = [], []
    for claim in claims:
        published = float(claim["published"])
        end = claim.get("end", "")
        relation = claim.get("compare", "value")
        if relation in INEQUALITIES and "tolerance" in claim:
            raise ValueError(f"{claim.get('_where_defined', 'claim')}: claim {claim['key']}: a bound "
                             f"(compare {relation}) is exact and takes no tolerance")
        precision = 0.0 if relation in INEQUALITIES else printed_tolerance(claim["published"])
        own = claim.get("tolerance")
        tolerance = float(own) if own is not None else precision
        if not (np.isfinite(tolerance) and tolerance >= 0):  # NaN would make every claim a mismatch, inf a match
            raise ValueError(f"{claim.get('_where_defined', 'claim')}: claim {claim['key']}: tolerance {tolerance} "
                             "must be a finite number >= 0")
        value_row = rows_by_key.get(claim["key"], {})
        row = {"key": claim["key"], "end": end, "where": claim.get("where", ""),
               "source": claim.get("source", "paper"),
               "published": getattr(claim["published"], "text", None) or repr(published),
               "computed": np.nan, "difference": np.nan, "tolerance": tolerance, "reason": claim.get("note", ""),
               "explained_by": "", "cause": "",
               **{column: value_row.get(column, "") if isinstance(value_row.get(column, ""), str) else ""
                  for column in ("rule", "function")}}
        if claim.get("uncheckable"):
            row.update(status="uncheckable", reason=claim["uncheckable"])
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
            row.update(status="missing", reason=f"no value written under this key; {paper_id}'s keys.py declares it "
                                                f"for rule {family.rule} ({family.function}): a defect in reagree",
                       rule=family.rule, function=family.function)
            rows.append(row)
            continue
        computed = float(value_row.get(end or "value", np.nan))
        differs = incomparable(claim.get("under", {}), value_row.get("scheme", ""))
        if differs:
            row.update(computed=computed, status="not comparable", reason=differs)
            rows.append(row)
            continue
        value = abs(computed) if relation == "abs" else computed
        if relation in INEQUALITIES:  # the bound's relation, which published alone does not show
            row["reason"] = f"states {relation} {row['published']}" + (f"; {row['reason']}" if row["reason"] else "")
            status = _bound_status(value, relation, published)
        else:
            status = _status(published, value, precision, tolerance if own is not None else None)
        row.update(computed=value, difference=value - published, status=status)
        if status == "missing":
            what = f"the {end} of " if end else ""
            row["reason"] = f"no value computed for {what}this key" + (f" ({value_row.get('note')})"
                                                                       if value_row.get("note") else "")
        if status == "within tolerance":
            row["reason"] = "; ".join(p for p in (claim.get("tolerance_reason", ""), claim.get("note", "")) if p)
        if relation in INEQUALITIES:
            if status == "mismatch":  # a bound is checked as printed: no reading of it to search
                row["explained_by"] = "a printed bound: no variant searched"
                row["cause"] = claim.get("cause", "")
        elif status in COMPARED and not end:
            key_rows = variants_of.get(claim["key"], [])
            _check_variants(claim, computed, key_rows, families_for(claim["key"]) if families_for else [], paper_id)
            found = claim_search(claim["published"], claim["key"], computed, key_rows,
                                 magnitude=relation == "abs")
            row["explained_by"] = explanation(found, status)
            if status == "mismatch":
                row["cause"] = claim.get("cause", "") or first_cause(found)
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
        raise ValueError(f"{path}, line {line}: not UTF-8 text ({error.reason} at byte {column} of the line); it is "
                         "written by reagree: rebuild it (make all)") from None
    return pd.read_csv(io.StringIO(text), sep="\t", keep_default_na=False,
                       dtype={"published": str, "end": str, "rule": str, "function": str, "explained_by": str,
                              "cause": str},
                       na_values={"computed": [""], "difference": [""]})


def _column(status: str) -> str:
    return status.replace(" ", "_")


# The words of each status in summary.md, in STATUSES order; every count is shown, zeros too.
_WORDS = {"match": "match at printed precision", "within tolerance": WITHIN_TOLERANCE,
          "mismatch": ("mismatch (a finding)", "mismatches (findings)"), "uncheckable": "uncheckable",
          "not built": "not built (left out by the configuration)",
          "not comparable": "not comparable (run under other settings)", "missing": "missing (pipeline defects)"}
SUMMARY_COLUMNS = ["paper", *(_column(s) for s in STATUSES), "total", "mismatch_causes", "reference_checked",
                   "reference_differs"]


def _words(status: str, count: int) -> str:
    words = _WORDS[status]
    if isinstance(words, tuple):
        words = words[0] if count == 1 else words[1]
    return f"{count} {words}"


def reference_disagreements(values: pd.DataFrame | None) -> tuple[int, pd.DataFrame]:
    """How many values carry a field library's value (values.tsv ``reference``), and the
    rows where it differs from reagree's by more than 1e-9 (or exactly one is undefined):
    pipeline defects."""
    if values is None or "reference" not in values.columns:
        return 0, pd.DataFrame(columns=["key", "value", "reference", "reference_value"])
    checked = values[values["reference"].fillna("").astype(str) != ""]
    mine = checked["value"].astype(float).to_numpy()
    theirs = checked["reference_value"].astype(float).to_numpy()
    with np.errstate(invalid="ignore"):
        differ = np.where(np.isnan(mine) | np.isnan(theirs), np.isnan(mine) != np.isnan(theirs),
                          np.abs(mine - theirs) > DEFECT)
    return len(checked), checked[differ][["key", "value", "reference", "reference_value"]]


def _causes(table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The paper's mismatches grouped by cause, in the order their first claim appears; a
    mismatch without a cause is a cause of its own."""
    chosen = table[table["status"] == "mismatch"]
    groups: dict[str, list[int]] = {}
    for index, cause in zip(chosen.index, chosen["cause"].fillna("")):
        groups.setdefault(cause or f"\0{index}", []).append(index)
    return [("" if cause.startswith("\0") else cause, chosen.loc[indices]) for cause, indices in groups.items()]


def _claim_words(r: dict) -> str:
    key = r["key"] + (f" ({r['end']})" if r.get("end") else "")
    return (f"`{key}` (printed {r['published']}, reagree {r['computed']:.6g})"
            + (f": {r['explained_by']}" if r.get("explained_by") else ""))


def summarise(tables: dict[str, pd.DataFrame],
              values: dict[str, pd.DataFrame] | None = None) -> tuple[pd.DataFrame, str]:
    """Counts per status per paper (summary.tsv: one column per status, spaces as
    underscores, then the total, the number of distinct mismatch causes, and how many
    values a field library computes too and how many of those differ), and a Markdown page
    with every count on every paper's line (zeros included, one order), every mismatch
    cause on one line with the claims it covers, and every mismatch, missing key and
    reference disagreement."""
    values = values or {}
    counts, disagreements = [], {}
    for paper, table in tables.items():
        tally = table["status"].value_counts()
        checked, differ = reference_disagreements(values.get(paper))
        disagreements[paper] = differ
        counts.append({"paper": paper, **{_column(s): int(tally.get(s, 0)) for s in STATUSES}, "total": len(table),
                       "mismatch_causes": len(_causes(table)), "reference_checked": checked,
                       "reference_differs": len(differ)})
    summary = pd.DataFrame(counts, columns=SUMMARY_COLUMNS)

    lines = ["# reagree: published numbers against recomputed ones", ""]
    if not tables:
        lines += ["**Warning: no paper is configured (`papers: []`); nothing was checked.**", ""]
    for row in summary.to_dict("records"):
        if row["total"] == 0:
            lines.append(f"- **{row['paper']}**: **warning: no claims.** The paper declares none, so nothing was "
                         "checked.")
            continue
        parts = ", ".join(_words(status, row[_column(status)]) for status in STATUSES)
        lines.append(f"- **{row['paper']}**: {row['total']} claims: {parts}; {row['reference_differs']} reference "
                     f"disagreement{'s' if row['reference_differs'] != 1 else ''} (pipeline defects) among "
                     f"{row['reference_checked']} values a field library computes too.")
    total_missing = int(summary["missing"].sum()) if len(summary) else 0
    total_differ = int(summary["reference_differs"].sum()) if len(summary) else 0
    total_claims = int(summary["total"].sum()) if len(summary) else 0
    if total_missing:
        lines += ["", f"**{total_missing} claims are missing a computed value: these are defects in reagree.**"]
    elif total_claims:
        lines += ["", "No claim is missing: every checkable number was computed."]
    if total_differ:
        lines += ["", f"**{total_differ} values differ from the field library's value by more than 1e-9: these are "
                      "defects in reagree.**"]
    elif total_claims:
        lines += ["", "No field library disagrees: every value krippendorff, statsmodels or scikit-learn also "
                      "computes is the same to 1e-9."]
    lines += ["", "| paper | " + " | ".join(STATUSES) + " | total | mismatch causes | reference checked | "
              "reference differs |", "|---" * (len(SUMMARY_COLUMNS)) + "|"]
    lines += ["| " + " | ".join(str(r[c]) for c in SUMMARY_COLUMNS) + " |" for r in summary.to_dict("records")]

    causes = [(paper, cause, group) for paper, table in tables.items() for cause, group in _causes(table)]
    if causes:
        lines += ["", "## Mismatches (findings), one line per cause", ""]
        for paper, cause, group in causes:
            claims = [_claim_words(r) for r in group.to_dict("records")]
            head = f"**{cause}** ({len(claims)} claim{'s' if len(claims) != 1 else ''})" if cause else ""
            lines.append(f"- {paper}: " + (f"{head}: " if head else "") + "; ".join(claims))
    for paper, table in tables.items():
        for status, heading in (("mismatch", "Mismatches (findings)"), ("missing", "Missing (defects)")):
            chosen = table[table["status"] == status]
            if chosen.empty:
                continue
            lines += ["", f"## {paper}: {heading}", "",
                      "| key | where | published | computed | difference | explained by | why |",
                      "|---|---|---|---|---|---|---|"]
            for r in chosen.to_dict("records"):
                key = r["key"] + (f" ({r['end']})" if r.get("end") else "")
                lines.append(f"| {key} | {r['where']} | {r['published']} | {r['computed']:.6g} | "
                             f"{r['difference']:+.3g} | {r.get('explained_by', '')} | {r['reason']} |")
        differ = disagreements.get(paper)
        if differ is not None and len(differ):
            lines += ["", f"## {paper}: reference disagreements (defects)", "",
                      "| key | reagree | library | library's value | difference |", "|---|---|---|---|---|"]
            for r in differ.to_dict("records"):
                lines.append(f"| {r['key']} | {float(r['value']):.12g} | {r['reference']} | "
                             f"{float(r['reference_value']):.12g} | "
                             f"{float(r['value']) - float(r['reference_value']):+.3g} |")
        for status, heading in (("within tolerance", "why claims match within a stated wider tolerance"),
                                ("uncheckable", "why claims are uncheckable"),
                                ("not built", "why claims are not built"),
                                ("not comparable", "why claims are not comparable")):
            reasons = table.loc[table["status"] == status, "reason"].value_counts()
            if len(reasons):
                lines += ["", f"## {paper}: {heading}", ""]
                lines += [f"- {count} claim{'s' if count != 1 else ''}: {reason}" for reason, count in reasons.items()]
    return summary, "\n".join(lines) + "\n"
