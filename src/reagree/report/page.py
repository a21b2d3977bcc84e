"""The whole page, in reading order, and writing it.

Order of reading: which papers the run built (when it left some out), the summary, every
finding once (grouped per paper and cause), any missing value (a defect), one section
per paper (its figures, its tables, and last its folded claims), then one section per
audited dataset. Same inputs, same bytes: no timestamps; files are read in sorted order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree import __version__
from reagree.report.html import CSS, SCRIPT, counted, esc, slug
from reagree.report.load import AuditResults, PaperResults, RunScope, load_audits, load_papers, load_summary
from reagree.report.sections.audits import audit_section
from reagree.report.sections.findings import finding_rows, findings_section, missing_section
from reagree.report.sections.papers import claim_anchor, paper_section
from reagree.report.sections.summary import scope_line, summary_section

__all__ = ["build_report", "render"]


def render(
    summary: pd.DataFrame,
    papers: Sequence[PaperResults],
    audits: Sequence[AuditResults],
    results: Path,
    settings: dict | None = None,
    scope: RunScope | None = None,
) -> str:
    """The whole page as text."""
    anchors = {}
    missing: list[dict] = []
    for paper in papers:
        for index, row in paper.claims.iterrows():
            anchor = claim_anchor(paper.paper_id, row, index)
            anchors[(paper.paper_id, index)] = anchor
            if row["status"] == "missing":
                missing.append({**row.to_dict(), "paper": paper.paper_id, "anchor": anchor})
    findings_of = {paper.paper_id: finding_rows(paper, anchors) for paper in papers}
    total = int(summary["claims"].sum()) if len(summary) else 0
    n_figures = int(summary["figures"].sum()) if len(summary) else 0
    n_findings = sum(len(rows) for rows in findings_of.values())
    failed = [paper.paper_id for paper in papers if paper.failed]
    nav = " ".join(
        [
            '<a href="#summary">Summary</a>',
            f'<a href="#findings">Findings ({n_findings})</a>',
            *(f'<a href="#paper-{slug(p.paper_id)}">{esc(p.paper_id)}</a>' for p in papers),
            *(f'<a href="#audit-{slug(a.name)}">audit: {esc(a.name)}</a>' for a in audits),
        ]
    )
    find = (
        '<input id="find" type="search" placeholder="find a claim by key, e.g. fleiss.humans" '
        'aria-label="find a claim by key"> <span id="find-count" class="muted"></span>'
    )
    settings_text = "; ".join(f"{esc(k)}: {esc(v)}" for k, v in (settings or {}).items())
    their = "its" if len(failed) == 1 else "their"
    failed_text = (
        f'<p class="failed"><strong>{counted(len(failed), "paper")} failed: {esc(", ".join(failed))}'
        f"</strong>: {their} claims could not be diffed (why: in the summary below); every other "
        "paper's results stand.</p>"
        if failed
        else ""
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="reagree {esc(__version__)}">
<title>reagree report: {counted(len(papers), "paper")}, {counted(n_figures, "printed figure")}, {counted(n_findings, "finding")}</title>
<style>{CSS}</style>
</head>
<body>
<header>
<h1>reagree: published agreement numbers, recomputed</h1>
{scope_line(scope)}
{failed_text}
<p class="muted">{counted(len(papers), "paper")}, {counted(n_figures, "printed figure")} ({counted(total, "claim")}), {counted(len(audits), "audited dataset")}.
reagree {esc(__version__)}.
{settings_text}</p>
</header>
<nav>{nav} {find}</nav>
<main>
{summary_section(summary, len(papers))}
{findings_section(list(papers), findings_of)}
{missing_section(missing, total)}
{"".join(paper_section(p, findings_of[p.paper_id], anchors, results) for p in papers)}
{"".join(audit_section(a, results) for a in audits)}
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""


def build_report(
    results: str | Path,
    papers: dict[str, dict],
    datasets: Sequence[str],
    out: str | Path,
    figures: Sequence[str | Path] = (),
    settings: dict | None = None,
    captions: dict[str, str] | None = None,
    left_out: Sequence[str] = (),
) -> None:
    """Read the run's results and write the page to ``out`` (atomically); ``left_out``:
    the paper folders this run did not build (``config papers``)."""
    from reagree.pipeline.tables import write_text_atomic

    results = Path(results)
    page = render(
        load_summary(results),
        load_papers(results, papers, figures, captions),
        load_audits(results, datasets),
        results,
        settings,
        RunScope(list(papers), list(left_out)),
    )
    write_text_atomic(out, page)
