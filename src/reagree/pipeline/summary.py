"""The summary of a run: results/summary.tsv and results/summary.md.

What it decides:

- **It counts printed figures, not claims.** The claims that check one printed figure
  (claims.tsv's ``figure``: ``reagree.pipeline.verdicts.figure_ids``) get one verdict
  (``verdicts.verdict``: findings first), and every count is of figures: a figure printed
  twice, or checked against the data and against other printed numbers, counts once.
- **Each paper's line leads with what was reproduced**: "N of M printed figures
  reproduced from the released data" (verdict ``match``), then every other verdict in
  ``verdicts.STATUSES`` order, zeros included: within a stated wider tolerance, bounds
  that hold, consistent with other printed numbers, the findings (mismatch,
  inconsistent), and what was not checked (uncheckable, not recomputed, not built, not
  comparable, missing). ``not recomputed`` (data released, method not reimplemented) is
  counted apart from ``uncheckable`` (data not released or not fetched), never as either.
- **summary.tsv**: one row per paper, one column per verdict (spaces as underscores),
  then ``figures``, ``claims``, ``finding_causes`` (the distinct causes of its findings,
  a finding without one counting as its own), ``reference_checked`` and
  ``reference_differs`` (values a field library computes too, and how many differ by
  more than 1e-9: defects), then the ledger's counts (``LEDGER_COLUMNS``, from each
  paper's ``ledger_counts.tsv``, ``reagree.pipeline.ledger``): its ``documents``, how many
  the ledger ``checked``, and the numbers they print: ``printed``, ``claimed`` (a row
  naming claims, one printed number however many claims check it), ``dismissed`` and
  ``unaccounted`` (unreviewed, or every number of a document no ledger checked).
- **A paper whose claims could not be diffed** (``reagree.pipeline.failures``) has its
  counts at zero and the error in summary.tsv's last column, ``failed`` (empty for the
  others), and one line in summary.md in place of its counts; the run lists it at the top.
- **A run that left papers out says so at the top** ("built: x; not in this run: y"), so
  a run under ``--config papers=[x]`` is not read as the whole project.
- **Nothing cross-checked is said, not counted as agreement**: a paper none of whose
  values a field library computes (a new paper's first build) says "no value
  cross-checked", and "No field library disagrees" is said only of values that were.
- **summary.md** lists every finding once: one line per cause with the figures it
  covers, then per paper one row per finding figure with every place it is printed and
  every check it got (source, status, value), what reproduces it (``explained_by``) and
  any rounding note; then every missing key, every reference disagreement, and why
  figures are within tolerance, uncheckable, not recomputed, not built or not comparable
  (one line per reason, with its count of figures); last, the ledgers: a row per checked
  document, and for a paper whose documents no ledger checked, one line saying why.
- **Linear in the claims.** Grouping and counting are pandas group-bys over the whole
  table; only the findings (few) are written out one by one. 200,000 claims take seconds
  (``bench/summary_scale.py``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reagree.pipeline.verdicts import FINDINGS, STATUSES, VERDICT_ORDER
from reagree.stats.references import DEFECT

__all__ = [
    "LEDGER_COLUMNS",
    "SUMMARY_COLUMNS",
    "figures",
    "finding_figures",
    "ledger_section",
    "ledger_totals",
    "reference_disagreements",
    "scope_line",
    "summarise",
]

_RANK = {status: rank for rank, status in enumerate(VERDICT_ORDER)}


def _column(status: str) -> str:
    return status.replace(" ", "_")


#: summary.tsv's ledger columns: a paper's ``ledger_counts.tsv`` summed over its documents.
LEDGER_COLUMNS = [
    "documents",
    "documents_checked",
    "numbers_printed",
    "numbers_claimed",
    "numbers_dismissed",
    "numbers_unaccounted",
]
SUMMARY_COLUMNS = [
    "paper",
    *(_column(s) for s in STATUSES),
    "figures",
    "claims",
    "finding_causes",
    "reference_checked",
    "reference_differs",
    *LEDGER_COLUMNS,
    "failed",
]
# summary.md's table: every column but the error (which has the paper's own line).
_COUNTED = SUMMARY_COLUMNS[:-1]
# The words of each verdict on a paper's line, in STATUSES order (singular, plural).
_WORDS = {
    "within tolerance": ("within a stated wider tolerance",) * 2,
    "holds": ("bound that holds", "bounds that hold"),
    "consistent": ("consistent with other printed numbers",) * 2,
    "mismatch": ("mismatch (a finding)", "mismatches (findings)"),
    "inconsistent": (
        "inconsistent with other printed numbers (a finding)",
        "inconsistent with other printed numbers (findings)",
    ),
    "uncheckable": ("uncheckable",) * 2,
    "not recomputed": ("not recomputed (data released, method not reimplemented)",) * 2,
    "not built": ("not built (left out by the configuration)",) * 2,
    "not comparable": ("not comparable (run under other settings)",) * 2,
    "missing": ("missing (pipeline defects)",) * 2,
}
_GROUPS = (
    ("within tolerance", "holds", "consistent"),
    FINDINGS,
    ("uncheckable", "not recomputed", "not built", "not comparable", "missing"),
)


def _words(status: str, count: int) -> str:
    one, many = _WORDS[status]
    return f"{count} {one if count == 1 else many}"


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
        differ = np.where(
            np.isnan(mine) | np.isnan(theirs), np.isnan(mine) != np.isnan(theirs), np.abs(mine - theirs) > DEFECT
        )
    return len(checked), checked[differ][["key", "value", "reference", "reference_value"]]


def _figure_column(table: pd.DataFrame) -> pd.Series:
    """claims.tsv's ``figure``; where a table has none, the key, end and printed text."""
    own = (
        table["key"].astype(str) + " (" + table["end"].fillna("").astype(str) + ") = " + table["published"].astype(str)
    )
    if "figure" not in table.columns:
        return own
    figure = table["figure"].fillna("").astype(str)
    return figure.where(figure != "", own)


def figures(table: pd.DataFrame) -> pd.DataFrame:
    """One row per printed figure, in the order its first claim appears: ``figure``,
    ``verdict``, ``first`` (the index label of the claim that gives the verdict: its first
    claim of that status), ``claims`` (how many claims check it) and ``cause`` (the first
    cause among its claims)."""
    if not len(table):
        return pd.DataFrame(columns=["figure", "verdict", "first", "claims", "cause"])
    frame = pd.DataFrame(
        {
            "figure": _figure_column(table).to_numpy(),
            "rank": table["status"].map(_RANK).fillna(len(_RANK)).astype(int).to_numpy(),
            "cause": table["cause"].fillna("").astype(str).to_numpy() if "cause" in table else "",
            "index": table.index.to_numpy(),
        }
    )
    grouped = frame.groupby("figure", sort=False)
    order = pd.Index(frame["figure"].drop_duplicates())
    deciding = frame[frame["rank"] == grouped["rank"].transform("min")].drop_duplicates("figure")
    deciding = deciding.set_index("figure").reindex(order)
    caused = frame[frame["cause"] != ""].drop_duplicates("figure").set_index("figure")["cause"]
    return pd.DataFrame(
        {
            "figure": order,
            "verdict": [VERDICT_ORDER[r] for r in deciding["rank"]],
            "first": deciding["index"].to_numpy(),
            "claims": grouped.size().reindex(order).to_numpy(),
            "cause": caused.reindex(order).fillna("").to_numpy(),
        }
    )


def _cause_groups(findings: list[tuple[dict, list[dict]]]) -> list[tuple[str, list[tuple[dict, list[dict]]]]]:
    """A paper's finding figures (``finding_figures``) grouped by cause, in the order of
    their first figure; a finding without a cause is a group of its own."""
    groups: dict[str, list] = {}
    for position, finding in enumerate(findings):
        groups.setdefault(finding[0]["cause"] or f"\0{position}", []).append(finding)
    return [("" if cause.startswith("\0") else cause, members) for cause, members in groups.items()]


def finding_figures(table: pd.DataFrame, found: pd.DataFrame | None = None) -> list[tuple[dict, list[dict]]]:
    """Each finding figure of a claims table (its verdict a mismatch or an inconsistency),
    in order: the figure (``figures``' row, or of ``found`` when given) and its claims as
    records, the claim that gives the verdict first; linear in the claims."""
    found = figures(table) if found is None else found
    chosen = found[found["verdict"].isin(FINDINGS)]
    if not len(chosen):
        return []
    members = _members(table, chosen)
    return [
        (figure, sorted(members[figure["figure"]], key=lambda c: c["_index"] != figure["first"]))
        for figure in chosen.to_dict("records")
    ]


def _members(table: pd.DataFrame, chosen: pd.DataFrame) -> dict[str, list[dict]]:
    """The claims (as records, each with its index label under ``_index``) of each chosen
    figure, in table order: one pass over the table."""
    ids = _figure_column(table)
    picked = ids.isin(set(chosen["figure"]))
    out: dict[str, list[dict]] = {}
    for index, figure, record in zip(table.index[picked], ids[picked], table[picked].to_dict("records")):
        out.setdefault(figure, []).append({**record, "_index": index})
    return out


def _number(value: object) -> str:
    return f"{value:.6g}" if isinstance(value, (int, float)) and value == value else "no value"


def _checks(claims: list[dict]) -> str:
    """Every check of one figure: "internal: consistent (0.007; inputs allow 0.006 to 0.008)"."""
    parts = []
    for r in claims:
        low, high = r.get("computed_low"), r.get("computed_high")
        span = (
            f"; inputs allow {low:.6g} to {high:.6g}" if isinstance(low, float) and low == low and low != high else ""
        )
        parts.append(f"{r['source']}: {r['status']} ({_number(r.get('computed'))}{span})")
    return "; ".join(dict.fromkeys(parts))


def _key(r: dict) -> str:
    return r["key"] + (f" ({r['end']})" if r.get("end") else "")


def _figure_words(claims: list[dict]) -> str:
    """One finding figure in a cause line (its claims, the one that gives the verdict
    first): its key, printed and computed value, what reproduces it, and its other checks
    and places."""
    first = claims[0]
    words = f"`{_key(first)}` (printed {first['published']}, {first['status']} {_number(first.get('computed'))})"
    if first.get("explained_by"):
        words += f": {first['explained_by']}"
    if len(claims) > 1:
        places = len({c["where"] for c in claims})
        words += f" [{len(claims)} checks at {places} place{'s' if places != 1 else ''}: {_checks(claims)}]"
    return words


def _joined(claims: list[dict], column: str, separator: str = " / ") -> str:
    return separator.join(text for text in dict.fromkeys(str(c.get(column) or "") for c in claims) if text)


def _finding_rows(findings: list[tuple[dict, list[dict]]]) -> list[str]:
    """summary.md's table of a paper's findings, one row per printed figure (the claim that
    gives the verdict first, then the figure's other checks)."""
    lines = [
        "| figure | printed | where (every place) | checks | explained by | rounding note | why |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, claims in findings:
        first = claims[0]
        lines.append(
            f"| {_key(first)} | {first['published']} | {_joined(claims, 'where')} | {_checks(claims)} | "
            f"{_joined(claims, 'explained_by')} | {_joined(claims, 'rounding')} | "
            f"{_joined(claims, 'reason')} |"
        )
    return lines


def _paper_line(row: dict) -> str:
    if row["failed"]:
        return (
            f"- **{row['paper']}**: **failed: its claims could not be diffed**, so none of its verdicts stands: "
            f"{row['failed']}"
        )
    if row["claims"] == 0:
        return f"- **{row['paper']}**: **warning: no claims.** The paper declares none, so nothing was checked."
    groups = [", ".join(_words(status, row[_column(status)]) for status in group) for group in _GROUPS]
    if row["reference_checked"]:
        reference = (
            f"{row['reference_differs']} reference disagreement{'s' if row['reference_differs'] != 1 else ''}"
            f" (pipeline defects) among {row['reference_checked']} values a field library computes too"
        )
    else:
        reference = "no value cross-checked against a field library (none computes one of its values)"
    return (
        f"- **{row['paper']}**: {row['match']} of {row['figures']} printed figures reproduced from the released "
        f"data; {'; '.join(groups)}; {row['claims']} claim{'s' if row['claims'] != 1 else ''}; {reference}."
    )


def scope_line(built: list[str], left_out: list[str]) -> str:
    """ "built: x; not in this run: y, z" when the run left paper folders out ("" otherwise)."""
    if not left_out:
        return ""
    return (
        f"**built: {', '.join(built) or 'no paper'}; not in this run: {', '.join(left_out)}** "
        "(config `papers`; a run of every paper lists them all)"
    )


def _reference_line(summary: pd.DataFrame) -> str:
    """What the field libraries' check found over the papers (module docstring)."""
    differ = int(summary["reference_differs"].sum())
    if differ:
        return (
            f"**{differ} values differ from the field library's value by more than 1e-9: these are defects in "
            "reagree.**"
        )
    checked = summary[summary["reference_checked"] > 0]
    unchecked = [
        p
        for p, n, failed in zip(summary["paper"], summary["claims"], summary["failed"])
        if n and not failed and p not in set(checked["paper"])
    ]
    if not len(checked):
        return (
            "Nothing was cross-checked against a field library: no value of "
            + ("this paper" if len(unchecked) == 1 else "these papers")
            + " is one krippendorff, statsmodels or scikit-learn computes."
        )
    said = (
        f"No field library disagrees: every value krippendorff, statsmodels or scikit-learn also computes "
        f"({int(checked['reference_checked'].sum())} values) is the same to 1e-9."
    )
    if unchecked:
        said += f" Not cross-checked (no value a field library computes): {', '.join(unchecked)}."
    return said


def ledger_totals(counts: pd.DataFrame | None) -> dict[str, int]:
    """A paper's ``LEDGER_COLUMNS`` from its ledger counts (one row per document; a paper
    without documents has one row with no document name)."""
    if counts is None:
        return dict.fromkeys(LEDGER_COLUMNS, 0)
    documents = counts[counts["document"].astype(str) != ""]
    total = documents[["printed", "claimed", "dismissed", "unaccounted"]].astype(int).sum()
    return {
        "documents": len(documents),
        "documents_checked": int((documents["checked"] == "yes").sum()),
        **{f"numbers_{name}": int(total[name]) for name in ("printed", "claimed", "dismissed", "unaccounted")},
    }


def ledger_section(ledgers: dict[str, pd.DataFrame]) -> list[str]:
    """summary.md's lines on the ledgers: per paper and checked document, the numbers
    printed, claimed, dismissed, unreviewed and unaccounted; one line for a paper none was
    checked for, saying why."""
    lines = ["", "## Printed numbers: every number of the documents, claimed or dismissed (the ledger)", ""]
    table = []
    for paper, frame in ledgers.items():
        records = frame.to_dict("records")
        checked = [r for r in records if r["checked"] == "yes"]
        if checked:
            table += [(paper, r) for r in checked]
            continue
        documents = [r for r in records if r["document"]]
        printed = sum(int(r["printed"]) for r in documents)
        what = (
            f" ({len(documents)} document{'s' if len(documents) != 1 else ''}, {printed:,} numbers printed)"
            if documents
            else ""
        )
        lines.append(f"- **{paper}**{what}: {records[0]['note']}")
    if table:
        if len(lines) > 3:
            lines.append("")
        lines += [
            "| paper | document | printed | claimed | dismissed | unreviewed | unaccounted | claimed in words |",
            "|---|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {paper} | {r['document']} | {r['printed']} | {r['claimed']} | {r['dismissed']} | "
            f"{r['unreviewed']} | {r['unaccounted']} | {r['claimed_in_words']} |"
            for paper, r in table
        ]
    return lines


def summarise(
    tables: dict[str, pd.DataFrame],
    values: dict[str, pd.DataFrame] | None = None,
    ledgers: dict[str, pd.DataFrame] | None = None,
    failed: dict[str, str] | None = None,
    left_out: list[str] | tuple = (),
) -> tuple[pd.DataFrame, str]:
    """summary.tsv's frame and summary.md's text for the papers' claims tables (module
    docstring); ``values``: each paper's values.tsv frame (for the reference check);
    ``ledgers``: each paper's ledger_counts.tsv frame (without them, the ledger columns
    are 0 and summary.md has no ledger section); ``failed``: {paper: the error} of the
    papers whose claims could not be diffed; ``left_out``: the paper folders this run
    did not build."""
    values, failed = values or {}, failed or {}
    counts, disagreements, found_of, findings_of = [], {}, {}, {}
    for paper, table in tables.items():
        found = figures(table)
        found_of[paper] = found
        findings_of[paper] = finding_figures(table, found)
        tally = found["verdict"].value_counts()
        checked, differ = reference_disagreements(values.get(paper))
        disagreements[paper] = differ
        counts.append(
            {
                "paper": paper,
                **{_column(s): int(tally.get(s, 0)) for s in STATUSES},
                "figures": len(found),
                "claims": len(table),
                "finding_causes": len(_cause_groups(findings_of[paper])),
                "reference_checked": checked,
                "reference_differs": len(differ),
                **ledger_totals((ledgers or {}).get(paper)),
                "failed": failed.get(paper, ""),
            }
        )
    summary = pd.DataFrame(counts, columns=SUMMARY_COLUMNS)

    lines = ["# reagree: published numbers against recomputed ones", ""]
    scope = scope_line(list(tables), list(left_out))
    if scope:
        lines += [scope, ""]
    if failed:
        names = ", ".join(p for p in tables if p in failed)
        their = "its" if len(failed) == 1 else "their"
        lines += [
            f"**Failed: the claims of {names} could not be diffed** (why: on {their} line below); every other "
            "paper's results stand.",
            "",
        ]
    if not tables:
        lines += ["**Warning: no paper is configured (`papers: []`); nothing was checked.**", ""]
    lines += [_paper_line(row) for row in summary.to_dict("records")]
    total_missing = int(summary["missing"].sum()) if len(summary) else 0
    total_differ = int(summary["reference_differs"].sum()) if len(summary) else 0
    total_claims = int(summary["claims"].sum()) if len(summary) else 0
    if total_missing:
        lines += [
            "",
            f"**{total_missing} printed figures are missing a computed value: these are defects in reagree.**",
        ]
    elif total_claims:
        lines += ["", "No claim is missing: every checkable number was computed."]
    if total_claims or total_differ:
        lines += ["", _reference_line(summary)]
    lines += [
        "",
        "Every count is of printed figures: a figure printed in several places, or checked against the "
        "data and against other printed numbers, is one verdict (findings first).",
        "",
        "| paper | " + " | ".join(c.replace("_", " ") for c in _COUNTED[1:]) + " |",
        "|---" * len(_COUNTED) + "|",
    ]
    lines += [
        "| " + " | ".join(str(r[c]) + (" (failed)" if c == "paper" and r["failed"] else "") for c in _COUNTED) + " |"
        for r in summary.to_dict("records")
    ]

    cause_lines = []
    for paper in tables:
        for cause, group in _cause_groups(findings_of[paper]):
            words = [_figure_words(claims) for _, claims in group]
            head = f"**{cause}** ({len(words)} figure{'s' if len(words) != 1 else ''})" if cause else ""
            cause_lines.append(f"- {paper}: " + (f"{head}: " if head else "") + "; ".join(words))
    if cause_lines:
        lines += ["", "## Findings (mismatches and inconsistencies), one line per cause", "", *cause_lines]
    for paper, table in tables.items():
        found = found_of[paper]
        if findings_of[paper]:
            lines += ["", f"## {paper}: findings, one row per printed figure", "", *_finding_rows(findings_of[paper])]
        missing = table[table["status"] == "missing"]
        if len(missing):
            lines += [
                "",
                f"## {paper}: Missing (defects)",
                "",
                "| key | where | published | why |",
                "|---|---|---|---|",
            ]
            for r in missing.to_dict("records"):
                key = r["key"] + (f" ({r['end']})" if r.get("end") else "")
                lines.append(f"| {key} | {r['where']} | {r['published']} | {r['reason']} |")
        differ = disagreements.get(paper)
        if differ is not None and len(differ):
            lines += [
                "",
                f"## {paper}: reference disagreements (defects)",
                "",
                "| key | reagree | library | library's value | difference |",
                "|---|---|---|---|---|",
            ]
            for r in differ.to_dict("records"):
                lines.append(
                    f"| {r['key']} | {float(r['value']):.12g} | {r['reference']} | "
                    f"{float(r['reference_value']):.12g} | "
                    f"{float(r['value']) - float(r['reference_value']):+.3g} |"
                )
        deciding = table.loc[found["first"]] if len(found) else table.iloc[:0]
        for status, heading in (
            ("within tolerance", "why figures are within a stated wider tolerance"),
            ("uncheckable", "why figures are uncheckable"),
            ("not recomputed", "why figures are not recomputed"),
            ("not built", "why figures are not built"),
            ("not comparable", "why figures are not comparable"),
        ):
            reasons = deciding.loc[deciding["status"] == status, "reason"].value_counts()
            if len(reasons):
                lines += ["", f"## {paper}: {heading}", ""]
                lines += [f"- {count} figure{'s' if count != 1 else ''}: {reason}" for reason, count in reasons.items()]
    if ledgers:
        lines += ledger_section(ledgers)
    return summary, "\n".join(lines) + "\n"
