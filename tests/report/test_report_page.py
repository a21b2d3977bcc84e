"""results/report.html, read at a glance (issue 18), rendered from a small results folder
written here (no build): a paper's figures (with their captions) and tables come before
its claims, which start folded with their own filter; an empty table is not listed;
counts agree in number. The browser check of the built page is in tests/report/test_report.py.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pandas as pd

from reagree.pipeline.claims import CLAIM_COLUMNS, read_claims, summarise

from reagree.plots import lines
from reagree.report import build_report, counted
from reagree.report.html import STATUS_COLOURS

CLAIMS = (
    "\t".join(CLAIM_COLUMNS)
    + "\n"
    + "\t".join(
        {
            "key": "kappa.a_b",
            "where": "Table 1",
            "source": "paper",
            "published": "0.50",
            "computed": "0.5012",
            "difference": "0.0012",
            "tolerance": "0.005",
            "status": "match",
            "rule": "score_toy",
        }.get(column, "")
        for column in CLAIM_COLUMNS
    )
    + "\n"
)


class Order(HTMLParser):
    """What the page shows, in order: sections, figures, tables, claim lists (open or not)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "section":
            self.seen.append(("section", attrs.get("id", "")))
        elif tag == "figure":
            self.seen.append(("figure", ""))
        elif tag == "details" and "claims-box" in classes:
            self.seen.append(("claims", "open" if "open" in attrs else "folded"))
        elif tag == "details" and "table" in classes:
            self.seen.append(("table", ""))
        elif tag == "input" and "text-filter" in classes:
            self.seen.append(("filter", attrs.get("data-table", "")))


def _results(tmp_path: Path) -> Path:
    results = tmp_path / "results"
    (results / "toy" / "tables").mkdir(parents=True)
    (results / "toy" / "claims.tsv").write_text(CLAIMS)
    # the summary as the pipeline writes it, from the claims
    summary, _ = summarise({"toy": read_claims(results / "toy" / "claims.tsv")})
    summary.to_csv(results / "summary.tsv", sep="\t", index=False)
    (results / "toy" / "tables" / "empty.tsv").write_text("a\tb\n")
    (results / "toy" / "tables" / "full.tsv").write_text("a\tb\n1\t2\n")
    lines(
        pd.DataFrame({"n": [1, 2], "y": [0.1, 0.2]}),
        "n",
        ["y"],
        results / "toy" / "figures" / "curve.png",
        "toy",
        "n",
        "y",
    )
    return results


def test_figures_and_tables_come_before_the_folded_claims_and_empty_tables_are_not_listed(tmp_path):
    results = _results(tmp_path)
    out = tmp_path / "report.html"
    figure = "results/toy/figures/curve.png"
    build_report(
        results,
        {"toy": {"title": "A toy", "cite": "Toy (2026)"}},
        [],
        out,
        figures=[results / "toy" / "figures" / "curve.png"],
        captions={figure: "A curve of **y**, recomputed from ``y.tsv``."},
    )
    text = out.read_text(encoding="utf-8")
    order = Order()
    order.feed(text)
    kinds = [kind for kind, _ in order.seen]
    assert kinds == ["section", "section", "section", "figure", "table", "claims", "filter"], order.seen
    assert ("claims", "folded") in order.seen and ("filter", "claims-toy") in order.seen
    assert "full.tsv" in text and "empty.tsv" not in text
    assert "A curve of <b>y</b>, recomputed from <code>y.tsv</code>." in text
    assert "1 paper, 1 printed figure (1 claim), 0 audited datasets." in text
    assert "<title>reagree report: 1 paper, 1 printed figure, 0 findings</title>" in text
    assert "1 of 1 printed figure reproduced from the released data" in text and "<p>1 claim: 1 match.</p>" in text


def test_counts_agree_in_number():
    assert counted(1, "audited dataset") == "1 audited dataset"
    assert counted(2, "audited dataset") == "2 audited datasets"
    assert counted(0, "paper") == "0 papers"
    assert counted(1, "mismatch", "mismatches") == "1 mismatch"
    assert counted(5, "mismatch", "mismatches") == "5 mismatches"


def test_findings_of_one_cause_sit_together_under_their_cause():
    from reagree.report import by_cause, side_by_side

    rows = [
        {"paper": "p", "key": k, "cause": c}
        for k, c in [("a", "pairs"), ("b", ""), ("c", "pairs"), ("d", "n2"), ("e", "")]
    ]
    assert [r["key"] for r in by_cause(rows)] == ["a", "c", "b", "d", "e"]
    full = [
        {
            **r,
            "anchor": r["key"],
            "where": "",
            "source": "paper",
            "status": "mismatch",
            "published": "1",
            "computed": 1.0,
            "difference": 0.0,
            "tolerance": 0.5,
            "explained_by": "",
            "reason": "",
        }
        for r in rows
    ]
    page = side_by_side(full, with_paper=True)
    # a cause shared by two figures is one heading row over them; a cause of one figure needs none
    assert page.count("cause: pairs (2 figures)") == 1 and "cause: n2" not in page
    assert page.index("cause: pairs") < page.index(">a<") < page.index(">c<") < page.index(">b<")


def test_not_recomputed_is_counted_coloured_and_defined_apart_from_uncheckable(tmp_path):
    # a toy paper with one match, one uncheckable and two not recomputed claims (counted by hand)
    def claim(key, status, reason=""):
        return "\t".join(
            {
                "key": key,
                "where": "T1",
                "source": "paper",
                "published": "0.50",
                "status": status,
                "reason": reason,
                "tolerance": "0.005",
            }.get(c, "")
            for c in CLAIM_COLUMNS
        )

    results = _results(tmp_path)
    (results / "toy" / "claims.tsv").write_text(
        CLAIMS
        + "\n".join(
            [
                claim("b1.x", "not recomputed", "the authors' B1 null (src/b1.py)"),
                claim("b1.y", "not recomputed", "the authors' B1 null (src/b1.py)"),
                claim("llm.z", "uncheckable", "labels never released"),
            ]
        )
        + "\n"
    )
    summary, _ = summarise({"toy": read_claims(results / "toy" / "claims.tsv")})
    summary.to_csv(results / "summary.tsv", sep="\t", index=False)
    out = tmp_path / "report.html"
    build_report(results, {"toy": {"title": "A toy", "cite": "Toy (2026)"}}, [], out)
    text = out.read_text(encoding="utf-8")
    assert "1 of 4 printed figures reproduced from the released data, 1 uncheckable, 2 not recomputed, no value" in text
    assert f'<td class="num" data-status="not recomputed" style="color:{STATUS_COLOURS["not recomputed"]};' in text
    assert STATUS_COLOURS["not recomputed"] != STATUS_COLOURS["uncheckable"]
    assert f".s-not-recomputed{{background:{STATUS_COLOURS['not recomputed']}}}" in text
    assert "<b>not recomputed</b> the data are\nreleased, but reagree does not reimplement the method" in text
    assert "<p>4 claims: 1 uncheckable, 2 not recomputed, 1 match.</p>" in text
