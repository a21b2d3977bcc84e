"""Diffing computed values against the numbers a paper printed.

What it decides (design.md, "Claims"): every claim gets exactly one status.

- ``uncheckable``: the claim carries a reason (data never released, needs a model
  download); decided before any value is looked up.
- ``missing``: no finite computed value under the claim's key. A defect in reagree,
  never a finding.
- ``match``: |computed - published| <= tolerance. The default tolerance is half a unit of
  the last printed digit (``reagree.paperspec.printed_tolerance``); a claim may set its
  own, and a claim on a magnitude (``compare: abs``) compares |computed|.
- ``mismatch``: anything else. A finding; the build still succeeds.

A relative slack of 1e-9 absorbs float noise at the rounding boundary.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reagree.paperspec import printed_tolerance

STATUSES = ("match", "mismatch", "uncheckable", "missing")
CLAIM_COLUMNS = ["key", "where", "source", "published", "computed", "difference", "tolerance", "status", "reason"]
SLACK = 1e-9


def _status(published: float, computed: float, tolerance: float) -> str:
    if not np.isfinite(computed):
        return "missing"
    return "match" if abs(computed - published) <= tolerance * (1 + SLACK) + SLACK * abs(published) else "mismatch"


def diff_claims(claims: list[dict], values: pd.DataFrame) -> pd.DataFrame:
    """One row per claim with its status; ``values`` has columns key and value."""
    computed_by_key = dict(zip(values["key"], values["value"].astype(float)))
    rows = []
    for claim in claims:
        published = float(claim["published"])
        tolerance = float(claim.get("tolerance", printed_tolerance(claim["published"])))
        row = {"key": claim["key"], "where": claim.get("where", ""), "source": claim.get("source", "paper"),
               "published": claim["published"].text if hasattr(claim["published"], "text") else published,
               "computed": np.nan, "difference": np.nan, "tolerance": tolerance, "reason": claim.get("note", "")}
        if claim.get("uncheckable"):
            row.update(status="uncheckable", reason=claim["uncheckable"])
        else:
            computed = computed_by_key.get(claim["key"], np.nan)
            if claim.get("compare") == "abs":
                computed = abs(computed)
            row.update(computed=computed, difference=computed - published,
                       status=_status(published, computed, tolerance))
            if row["status"] == "missing":
                row["reason"] = "no value computed under this key"
        rows.append(row)
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def read_claims(path) -> pd.DataFrame:
    """A claims.tsv as written by ``diff_claims`` (published kept as printed text)."""
    return pd.read_csv(path, sep="\t", keep_default_na=False, dtype={"published": str},
                       na_values={"computed": [""], "difference": [""]})


def summarise(tables: dict[str, pd.DataFrame]) -> tuple[pd.DataFrame, str]:
    """Counts per status per paper, and a Markdown page listing every mismatch and missing key."""
    counts = []
    for paper, table in tables.items():
        tally = table["status"].value_counts()
        counts.append({"paper": paper, **{s: int(tally.get(s, 0)) for s in STATUSES}, "total": len(table)})
    summary = pd.DataFrame(counts, columns=["paper", *STATUSES, "total"])

    lines = ["# reagree: published numbers against recomputed ones", ""]
    for row in summary.itertuples(index=False):
        checkable = row.match + row.mismatch + row.missing
        lines.append(
            f"- **{row.paper}**: {row.total} claims. {row.match} of {checkable} checkable claims match; "
            f"{row.mismatch} {'mismatch (a finding)' if row.mismatch == 1 else 'mismatches (findings)'}; "
            f"{row.uncheckable} uncheckable; {row.missing} missing (pipeline defects)."
        )
    total_missing = int(summary["missing"].sum()) if len(summary) else 0
    lines += ["", "No claim is missing: every checkable number was computed." if total_missing == 0
              else f"**{total_missing} claims are missing a computed value: these are defects in reagree.**", ""]
    lines += ["| paper | match | mismatch | uncheckable | missing | total |", "|---|---|---|---|---|---|"]
    lines += [f"| {r.paper} | {r.match} | {r.mismatch} | {r.uncheckable} | {r.missing} | {r.total} |"
              for r in summary.itertuples(index=False)]
    for paper, table in tables.items():
        for status, heading in (("mismatch", "Mismatches"), ("missing", "Missing")):
            chosen = table[table["status"] == status]
            if chosen.empty:
                continue
            lines += ["", f"## {paper}: {heading}", "", "| key | where | published | computed | difference | why |",
                      "|---|---|---|---|---|---|"]
            for r in chosen.itertuples(index=False):
                lines.append(f"| {r.key} | {r.where} | {r.published} | {r.computed:.6g} | {r.difference:+.3g} | {r.reason} |")
        reasons = table.loc[table["status"] == "uncheckable", "reason"].value_counts()
        if len(reasons):
            lines += ["", f"## {paper}: why claims are uncheckable", ""]
            lines += [f"- {count} claim{'s' if count != 1 else ''}: {reason}" for reason, count in reasons.items()]
    return summary, "\n".join(lines) + "\n"
