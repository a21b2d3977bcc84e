"""The findings (a mismatch or an inconsistency: one row per printed figure) and the
missing values, published against computed.

What it decides:

- **Each finding appears once**, in the Findings section, under its paper and grouped by
  cause: a cause shared by several figures is a heading row with the figures under it
  (as summary.md has one line per cause); a finding without a cause stands alone. A
  paper's own section links to its group instead of repeating it.
- **A row reads in one glance at 1,280 px**: the figure's key with every place it is
  printed under it (a line each, with its source), the published and the computed value
  side by side, the difference over the tolerance, then in one wide column the verdict,
  what reproduces the print (``explained_by``), any rounding note, the figure's other
  checks and the claim's reason.
"""

from __future__ import annotations

from reagree.pipeline.summary import finding_figures
from reagree.report.html import claim_key, counted, esc, key_html, number, scrolling, slug, status_badge
from reagree.report.load import PaperResults

__all__ = ["by_cause", "finding_rows", "findings_section", "missing_section", "side_by_side"]


def by_cause(rows: list[dict]) -> list[dict]:
    """Rows in their order, except that a paper's claims of one cause follow the first of
    them (as summary.md lists one line per cause)."""

    def group(position: int, row: dict):
        return (row.get("paper", ""), row["cause"]) if row.get("cause") else position

    first: dict = {}
    for position, row in enumerate(rows):
        first.setdefault(group(position, row), position)
    return [row for _, row in sorted(enumerate(rows), key=lambda item: (first[group(*item)], item[0]))]


def finding_rows(paper: PaperResults, anchors: dict) -> list[dict]:
    """One row per finding figure of a paper (its verdict a mismatch or an
    inconsistency): the claim that gives the verdict, every place the figure is printed
    and its other checks."""
    rows = []
    for figure, members in finding_figures(paper.claims):
        first, others = members[0], members[1:]
        rows.append(
            {
                **first,
                "paper": paper.paper_id,
                "anchor": anchors[(paper.paper_id, figure["first"])],
                "places": " / ".join(dict.fromkeys(m["where"] for m in members)),
                "other_checks": "; ".join(f"{r['source']}: {r['status']} ({number(r['computed'])})" for r in others),
            }
        )
    return rows


_HEAD = (
    "<th class='figure'>printed figure: its key and every place it is printed</th>"
    "<th class='num'>published</th><th class='num'>computed</th><th class='num'>difference</th>"
    "<th class='explained'>verdict; what reproduces the print; why</th>"
)
_COLUMNS = 5


def _places(row: dict) -> str:
    """Every place the figure is printed, one a line (``where`` names its source unless
    the claim is the paper's own)."""
    places = (row.get("places") or row["where"]).split(" / ")
    source = row.get("source", "paper")
    named = [
        place if source == "paper" or place.startswith(source) else f"{source}: {place}"
        for place in dict.fromkeys(places)
    ]
    return "".join(f'<span class="where">{esc(place)}</span>' for place in named)


def _row(row: dict, with_paper: bool) -> str:
    paper = f'<span class="where">paper: {esc(row["paper"])}</span>' if with_paper else ""
    notes = [status_badge(row["status"]) + " " + esc(row.get("explained_by", ""))]
    if row.get("rounding"):
        notes.append(f'<span class="note">note: {esc(row["rounding"])}</span>')
    if row.get("other_checks"):
        notes.append(f'<span class="note">other checks: {esc(row["other_checks"])}</span>')
    if row.get("reason"):
        notes.append(f'<span class="note">why: {esc(row["reason"])}</span>')
    tolerance = number(row["tolerance"], 3)
    return (
        f'<tr class="finding"><td class="key"><a href="#{esc(row["anchor"])}">{key_html(claim_key(row))}</a>'
        f"{paper}{_places(row)}</td>"
        f'<td class="num published">{esc(row["published"])}</td>'
        f'<td class="num computed">{esc(number(row["computed"]))}</td>'
        f'<td class="num">{esc(number(row["difference"], 3))}'
        + (f'<br><span class="note">tolerance {esc(tolerance)}</span>' if tolerance else "")
        + f'</td><td class="explained">{"<br>".join(notes)}</td></tr>'
    )


def side_by_side(rows: list[dict], with_paper: bool = False) -> str:
    """Findings (or missing values): published and computed next to each other, one row
    per printed figure, the figures of one cause under a heading row naming it."""
    body, seen = [], set()
    for row in by_cause(rows):
        cause = row.get("cause")
        if cause and (row.get("paper"), cause) not in seen:
            seen.add((row.get("paper"), cause))
            members = sum(1 for r in rows if r.get("cause") == cause and r.get("paper") == row.get("paper"))
            if members > 1:
                body.append(
                    f'<tr class="cause"><th colspan="{_COLUMNS}">cause: {esc(cause)} '
                    f"({counted(members, 'figure')})</th></tr>"
                )
        body.append(_row(row, with_paper))
    return scrolling(
        f'<table class="data findings"><thead><tr>{_HEAD}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    )


def findings_section(papers: list[PaperResults], findings_of: dict[str, list[dict]]) -> str:
    """Every finding once, per paper, grouped by cause (module docstring)."""
    total = sum(len(rows) for rows in findings_of.values())
    if not total:
        body = '<p class="ok">No finding: every checked figure agrees with the data or the paper.</p>'
    else:
        body = (
            "<p>Each is a printed figure that the released data do not give back at its printed digits "
            "(a mismatch), or that the paper's other printed numbers cannot give (inconsistent), one row per "
            "figure however many places print it, grouped by cause. The build still succeeded; the last column "
            "says which variant reproduces the print, or that none tried does.</p>"
        )
        for paper in papers:
            rows = findings_of[paper.paper_id]
            if rows:
                causes = len({r["cause"] or id(r) for r in rows})
                body += (
                    f'<h3 id="findings-{slug(paper.paper_id)}"><a href="#paper-{slug(paper.paper_id)}">'
                    f"{esc(paper.paper_id)}</a>: {counted(len(rows), 'finding')}, "
                    f"{counted(causes, 'cause')}</h3>" + side_by_side(rows)
                )
    return f'<section id="findings">\n<h2>Findings: published against computed ({total})</h2>\n{body}\n</section>'


def missing_section(missing: list[dict], total_claims: int) -> str:
    if missing:
        return (
            '<section id="defects"><h2>Missing values (defects in reagree)</h2>'
            + side_by_side(missing, with_paper=True)
            + "</section>"
        )
    return '<p class="ok" id="defects">No claim is missing a computed value.</p>' if total_claims else ""
