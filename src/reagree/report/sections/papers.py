"""One section per paper: its counts, a link to its findings, its figures with their
captions, its tables, and last its claims.

What it decides:

- **What is long is folded.** The claims list and every table start closed
  (``<details>``), so the figures are what a reader meets first; the search box at the
  top opens the lists it finds a key in.
- **Finding a claim.** Every claim row carries its key; each list has its own filter
  over all its text and a status selector, and column headers sort it. Without
  JavaScript the rows are already sorted: findings first (``STATUS_ORDER``), then by key.
- **A paper whose claims could not be diffed** says so and why where its counts would
  be; it has no claims list (none of its verdicts stands) but keeps its figures and
  tables, which its own rules built.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reagree.report.html import (
    STATUS_ORDER,
    claim_key,
    counted,
    esc,
    figure_block,
    has_rows,
    key_html,
    number,
    scrolling,
    slug,
    status_badge,
    tsv_table,
)
from reagree.report.load import PaperResults

__all__ = ["claim_anchor", "claims_block", "claims_table", "paper_section", "sort_claims"]


def sort_claims(table: pd.DataFrame) -> pd.DataFrame:
    rank = {s: i for i, s in enumerate(STATUS_ORDER)}
    return (
        table.assign(_rank=table["status"].map(rank).fillna(len(rank)))
        .sort_values(["_rank", "key", "source"], kind="stable")
        .drop(columns="_rank")
    )


def claim_anchor(paper_id: str, row, index) -> str:
    return f"claim-{slug(paper_id)}-{slug(row['key'])}" + (f"-{row['end']}" if row["end"] else "") + f"-{index}"


def claims_table(paper: PaperResults, anchors: dict) -> str:
    columns = [
        "key",
        "where",
        "source",
        "published",
        "computed",
        "difference",
        "tolerance",
        "status",
        "reason",
        "explained by",
    ]
    numeric = {"computed", "difference", "tolerance"}
    head = "".join(
        f'<th data-sort="{"num" if c in numeric else "text"}"{" class=num" if c in numeric else ""}>{esc(c)}</th>'
        for c in columns
    )
    body = []
    for index, row in sort_claims(paper.claims).iterrows():
        anchor = anchors[(paper.paper_id, index)]
        cells = [
            f'<td class="key">{key_html(claim_key(row))}</td>',
            f"<td>{esc(row['where'])}</td>",
            f"<td>{esc(row['source'])}</td>",
            f'<td class="num published">{esc(row["published"])}</td>',
            f'<td class="num computed" data-value="{esc(number(row["computed"], 17))}">'
            f"{esc(number(row['computed']))}</td>",
            f'<td class="num" data-value="{esc(number(row["difference"], 17))}">'
            f"{esc(number(row['difference'], 3))}</td>",
            f'<td class="num" data-value="{esc(number(row["tolerance"], 17))}">{esc(number(row["tolerance"], 3))}</td>',
            f"<td>{status_badge(row['status'])}</td>",
            f'<td class="reason">{esc(row["reason"])}</td>',
            f'<td class="explained">{esc(row.get("explained_by", ""))}</td>',
        ]
        body.append(
            f'<tr id="{esc(anchor)}" class="claim" data-key="{esc(row["key"])}" '
            f'data-status="{esc(row["status"])}">{"".join(cells)}</tr>'
        )
    present = [s for s in STATUS_ORDER if (paper.claims["status"] == s).any()]
    options = "".join(
        f'<option value="{esc(s)}">{esc(s)} ({int((paper.claims["status"] == s).sum())})</option>' for s in present
    )
    table_id = f"claims-{slug(paper.paper_id)}"
    picker = (
        f'<label class="filter">status <select class="status-filter" data-table="{table_id}">'
        f'<option value="">all ({len(paper.claims)})</option>{options}</select></label>'
        f'<label class="filter">filter <input type="search" class="text-filter" data-table="{table_id}" '
        f'placeholder="any text: key, where, status, reason" aria-label="filter the claims of '
        f'{esc(paper.paper_id)}"></label>'
    )
    return picker + scrolling(
        f'<table id="{table_id}" class="data claims sortable"><thead><tr>{head}</tr>'
        f"</thead><tbody>{''.join(body)}</tbody></table>"
    )


def claims_block(paper: PaperResults, anchors: dict) -> str:
    """The claims table, folded (the paper's findings are in the Findings section; searching opens it)."""
    if paper.failed:
        return "<h3>Claims</h3><p>None stands: its claims could not be diffed (above).</p>"
    if not len(paper.claims):
        return "<h3>Claims</h3><p>This paper declares no claims.</p>"
    return (
        f'<details class="claims-box"><summary><h3>Claims ({counted(len(paper.claims), "claim")}: every '
        f'number the paper printed, findings first)</h3> <span class="muted">click to open, or find a key '
        f"above</span></summary>{claims_table(paper, anchors)}</details>"
    )


def paper_section(paper: PaperResults, findings: list[dict], anchors: dict, results: Path) -> str:
    counts = paper.claims["status"].value_counts()
    count_text = ", ".join(f"{int(counts[s])} {s}" for s in STATUS_ORDER if s in counts)
    if paper.failed:
        said = (
            f'<p class="failed"><strong>Failed: its claims could not be diffed</strong>, so none of its verdicts '
            f"stands (the other papers' results do): {esc(paper.failed)}</p>"
        )
    else:
        said = f"<p>{counted(len(paper.claims), 'claim')}: {esc(count_text) or 'none'}.</p>"
    if findings:
        said += (
            f'<p><a href="#findings-{slug(paper.paper_id)}">{counted(len(findings), "finding")}</a>, listed '
            "with published and computed values under Findings.</p>"
        )
    figures = "".join(figure_block(f, results, paper.captions.get(f.name, "")) for f in paper.figures)
    tables = "".join(tsv_table(t, results) for t in paper.tables if has_rows(t))
    return f"""
<section id="paper-{slug(paper.paper_id)}" class="paper">
<h2>{esc(paper.paper_id)}: {esc(paper.title)}</h2>
<p class="muted">{esc(paper.cite)}</p>
{said}
{f'<h3>Figures</h3><div class="figures">{figures}</div>' if figures else ""}
{f"<h3>Tables</h3>{tables}" if tables else ""}
{claims_block(paper, anchors)}
</section>"""
