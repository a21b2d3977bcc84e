"""Diffing computed values against the numbers a paper printed.

What it decides (design.md, "Claims"): every claim gets exactly one status, tried in this
order.

- ``uncheckable``: the claim carries a reason (data never released, needs a model
  download); decided before any value is looked up.
- ``not built``: the claim ``needs`` a part of the build the configuration left out (a
  language, an optional model rerun). The reason names the setting and how to build it.
- ``not comparable``: the claim states the bootstrap settings it was printed ``under``
  (scheme, draws, seed, level) and the run's interval used others; the reason names both.
  Never a finding.
- ``missing``: no finite computed value under the claim's key (or interval end). A
  defect in reagree, never a finding.
- ``match``: |computed - published| <= tolerance. The default tolerance is half a unit
  of the last printed digit (``reagree.pipeline.paperspec.printed_tolerance``); a claim may set its
  own, and a claim on a magnitude (``compare: abs``) compares |computed|. ``end:
  ci_low`` or ``ci_high`` compares that end of the value's interval.
- **An inequality** ("over 40%", "below 0.2", "at least 0.6") is a claim whose ``compare``
  is ``>``, ``>=``, ``<`` or ``<=`` and whose ``published`` is the printed bound: it
  matches when ``computed <op> bound`` holds. A bound is exact, so such a claim has no
  tolerance (its tolerance column reads 0); computed and bound within the float slack
  count as equal (``>=`` holds, ``>`` does not).
- ``mismatch``: anything else. A finding; the build still succeeds.

A relative slack of 1e-9 absorbs float noise at the rounding boundary.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reagree.pipeline.paperspec import printed_tolerance

STATUSES = ("match", "mismatch", "uncheckable", "not built", "not comparable", "missing")
# ``rule`` and ``function``: the rule that wrote the claim's value and the one function
# that computed it (from values.tsv; empty when no value was computed).
CLAIM_COLUMNS = ["key", "end", "where", "source", "published", "computed", "difference", "tolerance", "status",
                 "reason", "rule", "function"]
SLACK = 1e-9
#: ``compare`` values that state a bound: computed <op> published.
INEQUALITIES = (">", ">=", "<", "<=")


def _status(published: float, computed: float, tolerance: float) -> str:
    if not np.isfinite(computed):
        return "missing"
    return "match" if abs(computed - published) <= tolerance * (1 + SLACK) + SLACK * abs(published) else "mismatch"


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


def unmet_need(needs: dict, paper_id: str, settings: dict, expansions: dict) -> str:
    """Why a claim's ``needs`` are not met by this configuration ("" when they are).

    A ``needs`` field is a paper setting (its value must equal the wanted one, or contain
    it when the setting is a list) or an ``expand`` field of a source (the files built
    under these settings must include the wanted value). A field may want a list of
    values (``part=a;part=b`` in a claim table): every one must be built."""
    wants = [(field, one) for field, wanted in (needs or {}).items()
             for one in (wanted if isinstance(wanted, list) else [wanted])]
    for field, wanted in wants:
        if field in settings:
            built = settings[field]
            ok = any(_same(wanted, v) for v in built) if isinstance(built, list) else _same(wanted, built)
            if not ok:
                if isinstance(built, list):
                    return f"needs {wanted} in config {paper_id}.{field}; this build has {built}"
                return f"needs config {paper_id}.{field}: {wanted}; this build has {built}"
        elif field in expansions:
            slot = expansions[field]
            if not any(_same(wanted, v) for v in slot["values"]):
                how = f"add it to config {paper_id}.{slot['setting']}" if slot.get("setting") else "not in this build"
                return f"{field} {wanted} was not built ({how})"
        else:
            raise ValueError(f"claim needs {field!r}, which is neither a setting of {paper_id} "
                             f"({sorted(settings)}) nor a source expand field ({sorted(expansions)})")
    return ""


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


def incomparable(under: dict, scheme_text: object) -> str:
    """Why an interval computed with ``scheme_text`` cannot be held against a number
    printed ``under`` other settings ("" when the settings agree)."""
    if not under:
        return ""
    used = parse_scheme(scheme_text)
    if not used:
        return ""
    differ = []
    for field, wanted in under.items():
        have = used.get(field)
        if have is None or not _same(str(wanted) if field == "scheme" else float(wanted),
                                     have if field == "scheme" else float(have)):
            printed = getattr(wanted, "text", None) or wanted
            differ.append(f"{field} {printed} (printed) vs {have} (this run)")
    if differ:
        return "interval settings differ: " + "; ".join(differ)
    return ""


def diff_claims(claims: list[dict], values: pd.DataFrame, paper_id: str = "", settings: dict | None = None,
                expansions: dict | None = None) -> pd.DataFrame:
    """One row per claim with its status; ``values`` is a values.tsv frame."""
    settings, expansions = settings or {}, expansions or {}
    rows_by_key = {row["key"]: row for row in values.to_dict("records")}
    rows = []
    for claim in claims:
        published = float(claim["published"])
        end = claim.get("end", "")
        relation = claim.get("compare", "value")
        if relation in INEQUALITIES and "tolerance" in claim:
            raise ValueError(f"{claim.get('_where_defined', 'claim')}: claim {claim['key']}: a bound "
                             f"(compare {relation}) is exact and takes no tolerance")
        tolerance = 0.0 if relation in INEQUALITIES else \
            float(claim.get("tolerance", printed_tolerance(claim["published"])))
        if not (np.isfinite(tolerance) and tolerance >= 0):  # NaN would make every claim a mismatch, inf a match
            raise ValueError(f"{claim.get('_where_defined', 'claim')}: claim {claim['key']}: tolerance {tolerance} "
                             "must be a finite number >= 0")
        value_row = rows_by_key.get(claim["key"], {})
        row = {"key": claim["key"], "end": end, "where": claim.get("where", ""),
               "source": claim.get("source", "paper"),
               "published": getattr(claim["published"], "text", None) or repr(published),
               "computed": np.nan, "difference": np.nan, "tolerance": tolerance, "reason": claim.get("note", ""),
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
        computed = float(value_row.get(end or "value", np.nan)) if value_row else np.nan
        differs = incomparable(claim.get("under", {}), value_row.get("scheme", ""))
        if differs:
            row.update(computed=computed, status="not comparable", reason=differs)
            rows.append(row)
            continue
        if relation == "abs":
            computed = abs(computed)
        if relation in INEQUALITIES:  # the bound's relation, which published alone does not show
            row["reason"] = f"states {relation} {row['published']}" + (f"; {row['reason']}" if row["reason"] else "")
            status = _bound_status(computed, relation, published)
        else:
            status = _status(published, computed, tolerance)
        row.update(computed=computed, difference=computed - published, status=status)
        if row["status"] == "missing":
            what = f"the {end} of " if end else ""
            row["reason"] = f"no value computed for {what}this key" + (f" ({value_row.get('note')})"
                                                                       if value_row.get("note") else "")
        rows.append(row)
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def read_claims(path) -> pd.DataFrame:
    """A claims.tsv as written by ``diff_claims`` (published kept as printed text)."""
    return pd.read_csv(path, sep="\t", keep_default_na=False,
                       dtype={"published": str, "end": str, "rule": str, "function": str},
                       na_values={"computed": [""], "difference": [""]})


def _column(status: str) -> str:
    return status.replace(" ", "_")


def summarise(tables: dict[str, pd.DataFrame]) -> tuple[pd.DataFrame, str]:
    """Counts per status per paper (summary.tsv: one column per status, spaces as
    underscores), and a Markdown page listing every mismatch and missing key."""
    columns = [_column(s) for s in STATUSES]
    counts = []
    for paper, table in tables.items():
        tally = table["status"].value_counts()
        counts.append({"paper": paper, **{_column(s): int(tally.get(s, 0)) for s in STATUSES}, "total": len(table)})
    summary = pd.DataFrame(counts, columns=["paper", *columns, "total"])

    lines = ["# reagree: published numbers against recomputed ones", ""]
    if not tables:
        lines += ["**Warning: no paper is configured (`papers: []`); nothing was checked.**", ""]
    for row in summary.itertuples(index=False):
        checkable = row.match + row.mismatch + row.missing
        if row.total == 0:
            lines.append(f"- **{row.paper}**: **warning: no claims.** The paper declares none, so nothing was checked.")
            continue
        parts = [f"{row.match} of {checkable} checkable claims match",
                 f"{row.mismatch} {'mismatch (a finding)' if row.mismatch == 1 else 'mismatches (findings)'}",
                 f"{row.uncheckable} uncheckable"]
        if row.not_built:
            parts.append(f"{row.not_built} not built (left out by the configuration)")
        if row.not_comparable:
            parts.append(f"{row.not_comparable} not comparable (run under other settings)")
        parts.append(f"{row.missing} missing (pipeline defects)")
        lines.append(f"- **{row.paper}**: {row.total} claims. " + "; ".join(parts) + ".")
    total_missing = int(summary["missing"].sum()) if len(summary) else 0
    total_claims = int(summary["total"].sum()) if len(summary) else 0
    if total_missing:
        lines += ["", f"**{total_missing} claims are missing a computed value: these are defects in reagree.**"]
    elif total_claims:
        lines += ["", "No claim is missing: every checkable number was computed."]
    lines += ["", "| paper | " + " | ".join(STATUSES) + " | total |", "|---" * (len(STATUSES) + 2) + "|"]
    lines += [f"| {r['paper']} | " + " | ".join(str(r[c]) for c in columns) + f" | {r['total']} |"
              for r in summary.to_dict("records")]
    for paper, table in tables.items():
        for status, heading in (("mismatch", "Mismatches (findings)"), ("missing", "Missing (defects)")):
            chosen = table[table["status"] == status]
            if chosen.empty:
                continue
            lines += ["", f"## {paper}: {heading}", "", "| key | where | published | computed | difference | why |",
                      "|---|---|---|---|---|---|"]
            for r in chosen.to_dict("records"):
                key = r["key"] + (f" ({r['end']})" if r.get("end") else "")
                lines.append(f"| {key} | {r['where']} | {r['published']} | {r['computed']:.6g} | "
                             f"{r['difference']:+.3g} | {r['reason']} |")
        for status in ("uncheckable", "not built", "not comparable"):
            reasons = table.loc[table["status"] == status, "reason"].value_counts()
            if len(reasons):
                lines += ["", f"## {paper}: why claims are {status}", ""]
                lines += [f"- {count} claim{'s' if count != 1 else ''}: {reason}" for reason, count in reasons.items()]
    return summary, "\n".join(lines) + "\n"
