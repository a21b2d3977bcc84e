"""The report's first section: which papers this run built, the per-paper counts of
results/summary.tsv (one verdict per printed figure), a sentence per paper, and what
each verdict means.

What it decides:

- **A run that left papers out says so first** (``scope_line``): "built: x; not in this
  run: y, z", at the top of the page as at the top of summary.md, so a run under
  ``--config papers=[x]`` is not read as the whole project.
- **A paper whose claims could not be diffed** (``reagree.pipeline.failures``) has one
  line in red with the error, in place of its counts.
- **The table is summary.tsv**: one cell per verdict and per count after them, grouped
  under short headings (verdicts, counts, field library, ledger); the cells carry the
  summary.tsv column they show (``data-status``).
"""

from __future__ import annotations

import pandas as pd

from reagree.pipeline.summary import LEDGER_COLUMNS
from reagree.pipeline.verdicts import STATUSES
from reagree.report.html import STATUS_COLOURS, counted, esc, scrolling, slug
from reagree.report.load import RunScope

__all__ = ["LEGEND", "scope_line", "summary_section", "summary_sentences", "summary_table"]

# The columns after the verdicts, in summary.tsv's order, in the second table: what was
# counted and the checks beside the verdicts, each column under a group heading and a short name.
_CHECKS = (
    ("counted", (("figures", "figures"), ("claims", "claims"))),
    ("findings", (("finding_causes", "causes"),)),
    ("field library", (("reference_checked", "checked"), ("reference_differs", "differ"))),
    (
        "ledger of printed numbers",
        (
            ("documents", "documents"),
            ("documents_checked", "checked"),
            ("numbers_printed", "printed"),
            ("numbers_claimed", "claimed"),
            ("numbers_dismissed", "dismissed"),
            ("numbers_unaccounted", "unaccounted"),
        ),
    ),
)
assert [c for _, group in _CHECKS for c, _ in group][-len(LEDGER_COLUMNS) :] == LEDGER_COLUMNS


def scope_line(scope: RunScope | None) -> str:
    """ "built: x; not in this run: y, z" (module docstring); "" when nothing was left out."""
    if scope is None or not scope.left_out:
        return ""
    built = ", ".join(scope.built) or "no paper"
    return (
        f'<p class="scope"><strong>built: {esc(built)}; not in this run: {esc(", ".join(scope.left_out))}'
        f'</strong> <span class="muted">(config <code>papers</code>; a run of every paper lists them all)</span>'
        "</p>"
    )


def _count_cell(record: dict, column: str) -> str:
    """One count of summary.tsv, named by ``data-status`` (its column, spaces for underscores)."""
    status = column.replace("_", " ")
    count = int(record[column])
    style = ""
    if count and status in STATUS_COLOURS and status != "match":
        style = f' style="color:{STATUS_COLOURS[status]};font-weight:600"'
    elif count and column == "reference_differs":
        style = ' style="color:#8250df;font-weight:600"'
    return f'<td class="num" data-status="{esc(status)}"{style}>{count}</td>'


def _table(summary: pd.DataFrame, table_id: str, groups: list[tuple[str, list[tuple[str, str]]]]) -> str:
    """One table of summary.tsv's columns: a row per paper and a total row, the columns
    under their group headings."""
    shown = [column for _, members in groups for column, _ in members]
    rows = []
    for record in summary.to_dict("records"):
        failed = ' <span class="status s-mismatch">failed</span>' if record.get("failed") else ""
        rows.append(
            f'<tr data-paper="{esc(record["paper"])}"><th><a href="#paper-{slug(record["paper"])}">'
            f"{esc(record['paper'])}</a>{failed}</th>{''.join(_count_cell(record, c) for c in shown)}</tr>"
        )
    totals = summary[shown].astype(int).sum() if len(summary) else pd.Series(0, index=shown)
    foot = "".join(f'<td class="num">{int(totals[c])}</td>' for c in shown)
    heads = "".join(f'<th colspan="{len(members)}">{esc(group)}</th>' for group, members in groups)
    names = "".join(f'<th class="num">{esc(name)}</th>' for _, members in groups for _, name in members)
    return scrolling(
        f'<table id="{table_id}" class="data summary"><thead><tr><th rowspan="2">paper</th>{heads}</tr>'
        f"<tr>{names}</tr></thead><tbody>{''.join(rows)}</tbody><tfoot><tr><th>all papers</th>{foot}"
        "</tr></tfoot></table>"
    )


def summary_table(summary: pd.DataFrame) -> str:
    """summary.tsv on the page, in two tables that each fit the window: the verdicts of
    the printed figures per paper (one cell per verdict), then what was counted and the
    checks beside them (finding causes, the field libraries' values, the ledger of
    printed numbers)."""
    verdicts = [("verdicts of printed figures", [(s.replace(" ", "_"), s) for s in STATUSES])]
    checks = [(group, [c for c in members if c[0] in summary.columns]) for group, members in _CHECKS]
    return _table(summary, "summary-table", verdicts) + _table(
        summary, "checks-table", [(g, m) for g, m in checks if m]
    )


def summary_sentences(summary: pd.DataFrame) -> str:
    items = []
    for row in summary.to_dict("records"):
        paper = f'<a href="#paper-{slug(row["paper"])}">{esc(row["paper"])}</a>'
        if row.get("failed"):
            items.append(
                f'<li class="failed">{paper}: <strong>failed</strong>: its claims could not be diffed, so '
                f"none of its verdicts stands: {esc(row['failed'])}</li>"
            )
            continue
        parts = [f"{row['match']} of {counted(row['figures'], 'printed figure')} reproduced from the released data"]
        findings = f"#findings-{slug(row['paper'])}"
        parts += [
            words(row[column])
            for column, words in (
                ("within_tolerance", lambda n: f"{n} within a stated wider tolerance"),
                ("holds", lambda n: counted(n, "bound that holds", "bounds that hold")),
                ("consistent", lambda n: f"{n} consistent with other printed numbers"),
                ("mismatch", lambda n: f'<a href="{findings}">{counted(n, "mismatch", "mismatches")}</a>'),
                ("inconsistent", lambda n: f'<a href="{findings}">{n} inconsistent with other printed numbers</a>'),
                ("missing", lambda n: f"<strong>{n} missing (defects)</strong>"),
                ("uncheckable", lambda n: f"{n} uncheckable"),
                ("not_recomputed", lambda n: f"{n} not recomputed"),
                ("not_built", lambda n: f"{n} not built"),
                ("not_comparable", lambda n: f"{n} not comparable"),
                (
                    "reference_differs",
                    lambda n: f"<strong>{n} values differ from the field library's (defects)</strong>",
                ),
            )
            if row.get(column)
        ]
        if "reference_checked" in row and not row["reference_checked"] and row["figures"]:
            parts.append("no value cross-checked against a field library (none computes one of its values)")
        items.append(f"<li>{paper}: {', '.join(parts)}.</li>")
    return f'<ul class="sentences">{"".join(items)}</ul>'


LEGEND = """<p class="muted">Every count is of printed figures: a figure printed in several places, or checked against
the data and against other printed numbers, has one verdict (findings first). <b>match</b> a number computed from the
released data reproduces the printed digits (within half a unit of the last printed digit); <b>within tolerance</b>
outside the printed digits, inside a wider tolerance the claim states a reason for (a Monte Carlo error, an
approximate word read by the one rule); <b>holds</b> a printed bound or window that the data satisfy;
<b>consistent</b> / <b>inconsistent</b> a printed number held against other printed numbers, each read as the interval
its digits allow; <b>mismatch</b> a finding against the data; <b>uncheckable</b> what was released or fetched cannot
give it, with its reason (data never released, a page reagree does not fetch, ...); <b>not recomputed</b> the data are
released, but reagree does not reimplement the method that printed it (the reason names the method and the authors'
file); <b>not built</b> left out by the configuration; <b>not comparable</b> computed under other bootstrap settings than
the paper's; <b>missing</b> no computed value: a defect in reagree. <b>field library</b>: the values krippendorff,
statsmodels or scikit-learn also compute, and how many differ (defects). The same counts are in
results/summary.tsv.</p>"""


def summary_section(summary: pd.DataFrame, n_papers: int) -> str:
    no_papers = "" if n_papers else "<p><strong>No paper is configured (<code>papers: []</code>).</strong></p>"
    return (
        f'<section id="summary">\n<h2>Summary</h2>\n{no_papers}\n{summary_table(summary)}\n'
        f"{summary_sentences(summary)}\n{LEGEND}\n</section>"
    )
