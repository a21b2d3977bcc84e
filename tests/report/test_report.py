"""results/report.html: one page that agrees with results/summary.tsv, puts the
summary, the mismatches and the figures first (claim lists folded), finds any claim by
key, and opens without network.

One build, no downloads (the session's ``demo_build`` of conftest.py): the synthetic
paper, the demo paper of tests/fixtures (its own mirror; one claim matches, one
mismatches, one is not built) and the example audit of config.yaml; the page is rendered
again in a copy of it. Two tests render the page in headless Chromium (Debian's
`chromium`; .ci/run installs it): the rendered page puts the summary, the findings and
the first figure before any claim list, every claim list starts folded, and a
screenshot is left in the test's output folder.
"""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
import yaml

from reagree.pipeline.claims import read_claims

from browser import Page as BrowserPage, chromium
from conftest import DEMO, copy_build, run_snakemake
from test_report_page import Order

pytestmark = pytest.mark.e2e
PAPERS = ["agreement_before_accuracy", "demo"]


@pytest.fixture(scope="module")
def built(demo_build):
    """The session's build of the synthetic and the demo paper (read only)."""
    assert yaml.safe_load((demo_build / DEMO).read_text())["papers"] == PAPERS
    return demo_build


class Page(HTMLParser):
    """The parts of the page the tests read: the summary cells, claim rows, sections."""

    def __init__(self) -> None:
        super().__init__()
        self.summary: dict[str, dict[str, int]] = {}
        self.claims: list[dict] = []
        self.sections: list[str] = []
        self.findings: list[list[str]] = []
        self.external: list[str] = []
        self.root: dict = {}
        self._paper = self._status = None
        self._in_findings = False
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.root = attrs
        for name in ("src", "href"):
            if re.match(r"^(https?:)?//", attrs.get(name) or ""):
                self.external.append(attrs[name])
        if tag == "section":
            self.sections.append(attrs.get("id", ""))
            self._in_findings = attrs.get("id") == "findings"
        if tag == "tr" and "data-paper" in attrs:  # the summary's two tables: verdicts, then checks
            self._paper = attrs["data-paper"]
            self.summary.setdefault(self._paper, {})
        if tag == "td" and self._paper and "data-status" in attrs:
            self._status, self._cell = attrs["data-status"], []
        if tag == "tr" and "data-key" in attrs:
            self.claims.append({"key": attrs["data-key"], "status": attrs["data-status"], "id": attrs.get("id")})
        if tag == "tr" and self._in_findings and "finding" in (attrs.get("class") or "").split():
            self._row = []
        if tag == "td" and self._row is not None:
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            text = "".join(self._cell).strip()
            if self._status is not None:
                self.summary[self._paper][self._status] = int(text)
                self._status = None
            elif self._row is not None:
                self._row.append(text)
            self._cell = None
        if tag == "tr":
            if self._row:
                self.findings.append(self._row)
            self._row, self._paper = None, None
        if tag == "section":
            self._in_findings = False


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    return page


def expected_summary(work: Path) -> dict:
    summary = pd.read_csv(work / "results" / "summary.tsv", sep="\t").set_index("paper")
    return {
        paper: {column.replace("_", " "): int(value) for column, value in row.items() if column != "failed"}
        for paper, row in summary.iterrows()
    }


def test_summary_on_the_page_equals_summary_tsv(built):
    page = parse((built / "results" / "report.html").read_text(encoding="utf-8"))
    expected = expected_summary(built)
    assert set(expected) == set(PAPERS)
    assert page.summary == expected
    # the demo paper's three claims: a match, a mismatch, one not built
    assert expected["demo"]["match"] == 1 and expected["demo"]["mismatch"] == 1 and expected["demo"]["not built"] == 1


def test_mismatches_come_first_with_published_and_computed_side_by_side(built):
    page = parse((built / "results" / "report.html").read_text(encoding="utf-8"))
    assert page.sections.index("summary") < page.sections.index("findings") < page.sections.index("paper-demo")
    # the demo paper printed 0.70 for part c; the released part agrees on 3 of 4 items: one row,
    # under the demo paper's heading, published beside computed, the verdict leading the last cell
    (row,) = [r for r in page.findings if r[0].startswith("agreement.a_b.part_c")]
    assert row[1:3] == ["0.70", "0.75"] and row[4].startswith("mismatch")
    text = (built / "results" / "report.html").read_text(encoding="utf-8")
    findings = text[
        text.index('<section id="findings">') : text.index("</section>", text.index('<section id="findings">'))
    ]
    assert '<h3 id="findings-demo">' in findings and findings.index("findings-demo") < findings.index("part_c")


def test_every_claim_is_on_the_page_findable_by_key(built):
    page = parse((built / "results" / "report.html").read_text(encoding="utf-8"))
    on_page = sorted((c["key"], c["status"]) for c in page.claims)
    in_files = sorted(
        (key, status)
        for paper in PAPERS
        for key, status in read_claims(built / "results" / paper / "claims.tsv")[["key", "status"]].itertuples(
            index=False
        )
    )
    assert on_page == in_files
    ids = [c["id"] for c in page.claims]
    assert len(set(ids)) == len(ids)


def test_the_page_is_self_contained_and_shows_the_audit(built):
    text = (built / "results" / "report.html").read_text(encoding="utf-8")
    page = parse(text)
    assert page.external == []
    assert "<link" not in text and "@import" not in text and "url(http" not in text
    # two paper figures and the audit's four (coefficients, leave one rater out, pairs, confusions)
    assert text.count('src="data:image/png;base64,') == 6
    assert "audit-triage_example" in page.sections
    assert "Krippendorff&#x27;s convention (a convention, not a test)" in text
    assert len(text.encode()) < 1_500_000


def test_figures_are_captioned_and_counts_agree_in_number(built):
    text = (built / "results" / "report.html").read_text(encoding="utf-8")
    # the synthetic paper's two figures carry their report/*.rst captions
    assert "Two coders who agree on 90% of items, as the prevalence of the rare class moves" in text
    assert "Width of the 95% percentile bootstrap interval of Cohen&#x27;s kappa" in text
    assert "2 papers, " in text and ", 1 audited dataset." in text and "1 audited datasets" not in text
    cites = re.findall(r'<section id="paper-[^"]+" class="paper">\n<h2>.*?</h2>\n<p class="muted">(.*?)</p>', text)
    assert len(cites) == len(PAPERS) and all(cites)
    for cite in cites:  # citations name the document, never a path of the checkout
        assert not re.search(r"(\.\.?/|/work/|seeds/|tests/|fixtures/)|\.md\b", cite), cite


def test_the_page_is_rebuilt_byte_for_byte(built, tmp_path_factory):
    work = copy_build(built, tmp_path_factory, "report_again")
    report = work / "results" / "report.html"
    before = report.read_bytes()
    run_snakemake(work, "--forcerun", "render_report", configfile=DEMO)
    assert report.read_bytes() == before
    assert "Nothing to be done" in run_snakemake(work, "-n", configfile=DEMO).stdout


def _chromium() -> str:
    found = chromium()
    if found is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)")
    return found


def _flags(tmp_path: Path) -> list[str]:
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]


def _rendered(built: Path, tmp_path: Path) -> str:
    """The page's DOM after Chromium ran its script."""
    chromium = _chromium()
    url = (built / "results" / "report.html").resolve().as_uri()
    dom = subprocess.run([chromium, *_flags(tmp_path), "--dump-dom", url], capture_output=True, text=True, timeout=120)
    if dom.returncode != 0 or "<html" not in dom.stdout:
        pytest.skip(f"chromium could not run here: {dom.stderr.strip()[-300:]}")
    return dom.stdout


def test_chromium_shows_summary_findings_and_a_figure_before_any_claim_list(built, tmp_path):
    order = Order()
    order.feed(_rendered(built, tmp_path))
    seen = order.seen
    lists = [i for i, (kind, _) in enumerate(seen) if kind == "claims"]
    assert len(lists) == len(PAPERS)
    first = seen[: lists[0]]
    summary, findings = first.index(("section", "summary")), first.index(("section", "findings"))
    assert summary < findings < first.index(("figure", ""))
    assert all(seen[i][1] == "folded" for i in lists), seen  # every claim list starts folded...
    filters = [target for kind, target in seen if kind == "filter"]
    assert filters == [f"claims-{paper}" for paper in PAPERS]  # ...with its own filter


def test_chromium_renders_the_summary_and_leaves_a_screenshot(built, tmp_path):
    chromium = _chromium()
    url = (built / "results" / "report.html").resolve().as_uri()
    flags = _flags(tmp_path)
    rendered = parse(_rendered(built, tmp_path))
    assert rendered.root.get("data-ready") == "1", "the page's script did not run to its end"
    assert rendered.summary == expected_summary(built)
    screenshot = tmp_path / "report.png"
    shot = subprocess.run(
        [chromium, *flags, "--window-size=1400,2200", f"--screenshot={screenshot}", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shot.returncode == 0 and screenshot.stat().st_size > 20_000, shot.stderr[-300:]
    print(f"screenshot of results/report.html: {screenshot}")


# What the page measures in Chromium at 1,280 px: its width, each figure's natural and drawn
# width, the boxes of the summary and the findings that would scroll, and the findings' keys
# (in the Findings section, and anywhere else on the page).
MEASURE = """JSON.stringify({
  width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
  images: Array.from(document.images).map(i => ({complete: i.complete, natural: i.naturalWidth, shown: i.width,
                                                  audit: !!i.closest('.audit-figures')})),
  scrolling: Array.from(document.querySelectorAll('#summary .scroll, #findings .scroll'))
    .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.firstElementChild.id || b.parentElement.id),
  findings: Array.from(document.querySelectorAll('#findings tr.finding td.key a')).map(a => a.textContent),
  elsewhere: document.querySelectorAll('section.paper tr.finding, section.paper table.findings').length
})"""


def test_chromium_at_1280_px_nothing_is_wider_every_figure_loads_and_findings_appear_once(built, tmp_path):
    """Issue 27: at a 1,280 px window the page is no wider than the window (long tables scroll
    inside their own box; the summary's and the findings' never need to), every figure has
    loaded in a full-page capture (none is lazy), the audit's figures are drawn at a scale
    that keeps their smallest text (7 pt at 120 dpi: 11.7 px) at 10 px or more, and each
    finding appears once, in the Findings section."""
    page = BrowserPage(_chromium(), tmp_path / "profile", 1280, 900)
    try:
        page.open((built / "results" / "report.html").resolve().as_uri())
        page.capture(tmp_path / "report-1280.png")
        measured = json.loads(page.evaluate(MEASURE))
    except (RuntimeError, OSError) as error:
        pytest.skip(f"chromium could not run here: {error}")
    finally:
        page.close()
    assert measured["width"] <= 1280, measured["width"]
    assert measured["scrolling"] == [], measured["scrolling"]
    images = measured["images"]
    assert len(images) == 6 and all(i["complete"] and i["natural"] > 0 for i in images), images
    audit = [i for i in images if i["audit"]]
    assert len(audit) == 4 and all(i["shown"] / i["natural"] >= 10 / 11.7 for i in audit), audit
    expected = expected_summary(built)
    findings = sum(row["mismatch"] + row["inconsistent"] for row in expected.values())
    assert len(measured["findings"]) == findings == len(set(measured["findings"])) >= 1
    assert measured["elsewhere"] == 0
    print(f"full-page capture of results/report.html at 1,280 px: {tmp_path / 'report-1280.png'}")
