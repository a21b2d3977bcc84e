"""results/report.html: every result of a run on one self-contained page.

What it decides:

- **Order of reading.** The summary first (per paper: how many printed figures were
  reproduced from the released data, hold as bounds, agree with other printed numbers,
  are findings, uncheckable, not built, not comparable or missing: the same numbers as
  results/summary.tsv, one verdict per printed figure), then every finding across papers
  (a mismatch or an inconsistency: one row per printed figure, with the published and
  the computed value side by side and every check it got), then any missing value (a
  defect), then one section per paper (its findings, its figures with their captions,
  its tables, and last its claims), then one section per audited dataset. What is long is folded: every
  claims list and every table starts closed (``<details>``), so the summary, the findings
  and the figures are what a reader meets first.
- **Finding a claim.** Every claim row carries its key; a search box filters every
  claims table by key (and opens the lists it finds something in), each list has its own
  filter over all its text and a status selector, and column headers sort it. Without
  JavaScript the tables are already sorted: findings first (mismatch, inconsistent,
  missing, not comparable, not built, uncheckable, then within tolerance, holds,
  consistent, match), then by key.
- **Figures say what they show.** Each figure carries its caption (the paper's
  ``report/<figure>.rst``, the same text Snakemake's report shows) and its file.
- **Self-contained.** CSS and the small script are inline; figures are embedded as PNG
  data (re-encoded with a 256-colour palette, which keeps line figures sharp at a fraction
  of the bytes). Nothing is fetched when the page is opened: it works from a USB stick.
- **Tables.** Each paper's ``results/<paper>/tables/*.tsv`` with rows is shown (first
  ``MAX_TABLE_ROWS`` rows) with the provenance its Markdown twin ends with; an empty
  table is not listed.
- **Same inputs, same bytes.** No timestamps; files are read in sorted order.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree import __version__
from reagree.pipeline.claims import read_claims
from reagree.pipeline.summary import LEDGER_COLUMNS, finding_figures
from reagree.pipeline.verdicts import STATUSES

MAX_TABLE_ROWS = 100
MAX_TIE_ROWS = 50
# Pairs of raters listed per audit (as the terminal and the figure do); pairwise.tsv has every one.
MAX_PAIR_ROWS = 45
MAX_RATERS_NAMED = 20
# Findings first: what a reader must look at, then what the build left out, then the rest.
STATUS_ORDER = ("mismatch", "inconsistent", "missing", "not comparable", "not built", "uncheckable", "within tolerance",
                "holds", "consistent", "match")
STATUS_COLOURS = {"match": "#1a7f37", "within tolerance": "#4d8f5a", "holds": "#2f6f6f", "consistent": "#57606a",
                  "mismatch": "#cf222e", "inconsistent": "#bc4c00", "uncheckable": "#6e7781", "missing": "#8250df",
                  "not built": "#0969da", "not comparable": "#bf8700"}


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """"1 paper", "2 papers": a count that agrees with its noun."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def figure_captions(figures: Sequence[str | Path], workflow_dir: str | Path) -> dict[str, str]:
    """Each figure's caption: ``results/<paper>/figures/<name>.png`` is captioned by
    ``<workflow_dir>/papers/<paper>/report/<name>.rst`` (the file its rule gives
    Snakemake's ``report()``), when that file exists."""
    captions = {}
    for figure in figures:
        figure = Path(figure)
        if figure.suffix != ".png" or len(figure.parts) < 3 or figure.parent.name != "figures":
            continue
        caption = Path(workflow_dir) / "papers" / figure.parts[-3] / "report" / f"{figure.stem}.rst"
        if caption.is_file():
            captions[str(figure)] = caption.read_text(encoding="utf-8").strip()
    return captions


def rst_html(text: str) -> str:
    """A caption's reStructuredText, as much of it as captions use: ``code`` and **bold**."""
    text = esc(text)
    text = re.sub(r"``(.+?)``", r"<code>\1</code>", text)
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in str(text))


@dataclass
class PaperResults:
    paper_id: str
    title: str
    cite: str
    claims: pd.DataFrame
    figures: list[Path] = field(default_factory=list)
    tables: list[Path] = field(default_factory=list)
    captions: dict[str, str] = field(default_factory=dict)  # figure file name -> caption text


@dataclass
class AuditResults:
    name: str
    result: dict
    figure: Path | None
    folder: Path


# --------------------------------------------------------------------------- reading

def load_papers(results: Path, papers: dict[str, dict], figures: Sequence[str | Path] = (),
                captions: dict[str, str] | None = None) -> list[PaperResults]:
    """Each paper's claims, figures (the given PNGs under results/<paper>/ in the given
    order, else every PNG in results/<paper>/figures) with their ``captions`` (keyed by figure path), and tables
    (results/<paper>/tables/*.tsv)."""
    loaded = []
    for paper_id, meta in papers.items():
        folder = results / paper_id
        claims = read_claims(folder / "claims.tsv")
        # in the order the paper's rules list them (its reading order), else sorted
        mine = list(dict.fromkeys(Path(f) for f in figures if Path(f).suffix == ".png" and paper_id in Path(f).parts))
        if not mine and (folder / "figures").is_dir():
            mine = sorted((folder / "figures").glob("*.png"))
        tables = sorted((folder / "tables").glob("*.tsv")) if (folder / "tables").is_dir() else []
        mine_captions = {Path(f).name: text for f, text in (captions or {}).items()
                         if Path(f).suffix == ".png" and paper_id in Path(f).parts}
        loaded.append(PaperResults(paper_id, meta.get("title", paper_id), meta.get("cite", ""), claims, mine, tables,
                                   mine_captions))
    return loaded


def load_audits(results: Path, names: Sequence[str]) -> list[AuditResults]:
    audits = []
    for name in names:
        folder = results / "audit" / name
        figure = folder / "coefficients.png"
        audits.append(AuditResults(name, json.loads((folder / "audit.json").read_text(encoding="utf-8")),
                                   figure if figure.is_file() else None, folder))
    return audits


# --------------------------------------------------------------------------- pieces

def _number(value: object, digits: int = 6) -> str:
    if value is None or value == "":
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(number):
        return ""
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.{digits}g}"


def _png(path: Path) -> str:
    """The figure as a data URI, re-encoded with an adaptive 256-colour palette."""
    data = path.read_bytes()
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            quantized = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            buffer = io.BytesIO()
            quantized.save(buffer, format="PNG", optimize=True)
        if buffer.tell() < len(data):
            data = buffer.getvalue()
    except (ImportError, OSError):
        pass
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _fixed(value: object, decimals: int = 3) -> str:
    """A coefficient with a fixed number of decimals ("undefined" for None)."""
    return "undefined" if value is None else f"{float(value):.{decimals}f}"


def _status_badge(status: str) -> str:
    return f'<span class="status s-{_slug(status)}">{esc(status)}</span>'


def _sort_claims(table: pd.DataFrame) -> pd.DataFrame:
    rank = {s: i for i, s in enumerate(STATUS_ORDER)}
    return table.assign(_rank=table["status"].map(rank).fillna(len(rank))).sort_values(
        ["_rank", "key", "source"], kind="stable").drop(columns="_rank")


def _claim_key(row: dict) -> str:
    return row["key"] + (f" ({row['end']})" if row.get("end") else "")


def _key_html(text: str) -> str:
    """A key, escaped, that may wrap after its dots (long keys stay readable in narrow columns)."""
    return esc(text).replace(".", ".<wbr>")


_AFTER_STATUSES = ("figures", "claims", "finding_causes", "reference_checked", "reference_differs", *LEDGER_COLUMNS)


def summary_table(summary: pd.DataFrame) -> str:
    """The per-paper counts of printed figures, one cell per verdict (data-status names
    it), as summary.tsv has them."""
    columns = [s.replace(" ", "_") for s in STATUSES]
    head = "".join(f'<th class="num">{esc(s)}</th>' for s in STATUSES)
    rows = []
    for record in summary.to_dict("records"):
        cells = []
        for status, column in zip(STATUSES, columns):
            count = int(record[column])
            style = f' style="color:{STATUS_COLOURS[status]};font-weight:600"' if count and status != "match" else ""
            cells.append(f'<td class="num" data-status="{esc(status)}"{style}>{count}</td>')
        # the columns after the statuses, as summary.tsv has them: figures, claims, finding causes,
        # the values a field library also computes with how many of them differ (defects), and the
        # ledger's documents and printed numbers (claimed, dismissed, unaccounted)
        extra = "".join(f'<td class="num" data-status="{esc(c.replace("_", " "))}"'
                        + (' style="color:#8250df;font-weight:600"' if c == "reference_differs" and record[c] else "")
                        + f'>{int(record[c])}</td>' for c in _AFTER_STATUSES if c in record)
        rows.append(f'<tr data-paper="{esc(record["paper"])}"><th><a href="#paper-{_slug(record["paper"])}">'
                    f'{esc(record["paper"])}</a></th>{"".join(cells)}{extra}</tr>')
    after = [c for c in _AFTER_STATUSES if c in summary.columns]
    totals = summary[columns + after].sum() if len(summary) else pd.Series(0, index=columns + after)
    foot = "".join(f'<td class="num">{int(totals[c])}</td>' for c in columns + after)
    head += "".join(f'<th class="num">{esc(c.replace("_", " "))}</th>' for c in after)
    return (f'<table id="summary-table" class="data"><thead><tr><th>paper</th>{head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody><tfoot><tr><th>all papers</th>{foot}'
            f'</tr></tfoot></table>')


def _summary_sentences(summary: pd.DataFrame) -> str:
    items = []
    for row in summary.to_dict("records"):
        parts = [f"{row['match']} of {counted(row['figures'], 'printed figure')} reproduced from the released data"]
        if row["within_tolerance"]:
            parts.append(f"{row['within_tolerance']} within a stated wider tolerance")
        if row["holds"]:
            parts.append(f"{counted(row['holds'], 'bound that holds', 'bounds that hold')}")
        if row["consistent"]:
            parts.append(f"{row['consistent']} consistent with other printed numbers")
        if row["mismatch"]:
            parts.append(f'<a href="#findings">{row["mismatch"]} mismatch{"es" if row["mismatch"] != 1 else ""}</a>')
        if row["inconsistent"]:
            parts.append(f'<a href="#findings">{row["inconsistent"]} inconsistent with other printed numbers</a>')
        if row["missing"]:
            parts.append(f'<strong>{row["missing"]} missing (defects)</strong>')
        if row["uncheckable"]:
            parts.append(f"{row['uncheckable']} uncheckable")
        if row["not_built"]:
            parts.append(f"{row['not_built']} not built")
        if row["not_comparable"]:
            parts.append(f"{row['not_comparable']} not comparable")
        if row.get("reference_differs"):
            parts.append(f'<strong>{row["reference_differs"]} values differ from the field library\'s '
                         '(defects)</strong>')
        items.append(f'<li><a href="#paper-{_slug(row["paper"])}">{esc(row["paper"])}</a>: {", ".join(parts)}.</li>')
    return f'<ul class="sentences">{"".join(items)}</ul>'


def _by_cause(rows: list[dict]) -> list[dict]:
    """Rows in their order, except that a paper's claims of one cause follow the first of
    them (as summary.md lists one line per cause)."""
    def group(position: int, row: dict):
        return (row.get("paper", ""), row["cause"]) if row.get("cause") else position

    first: dict = {}
    for position, row in enumerate(rows):
        first.setdefault(group(position, row), position)
    return [row for _, row in sorted(enumerate(rows), key=lambda item: (first[group(*item)], item[0]))]


def side_by_side(rows: list[dict], with_paper: bool) -> str:
    """Findings (or missing values): published and computed next to each other, one row
    per printed figure, with every place it is printed and every other check it got."""
    head = ("<th>paper</th>" if with_paper else "") + ("<th>key</th><th>where</th><th>source</th><th>status</th>"
                                                       "<th class='num'>published</th><th class='num'>computed</th>"
                                                       "<th class='num'>difference</th><th class='num'>tolerance</th>"
                                                       "<th>explained by</th><th>why</th>")
    body = []
    for row in _by_cause(rows):
        paper = f'<td><a href="#paper-{_slug(row["paper"])}">{esc(row["paper"])}</a></td>' if with_paper else ""
        others = row.get("other_checks", "")
        body.append(f'<tr>{paper}<td class="key"><a href="#{esc(row["anchor"])}">{_key_html(_claim_key(row))}</a></td>'
                    f'<td>{esc(row.get("places") or row["where"])}</td><td>{esc(row["source"])}</td>'
                    f'<td>{_status_badge(row["status"])}</td>'
                    f'<td class="num published">{esc(row["published"])}</td>'
                    f'<td class="num computed">{esc(_number(row["computed"]))}</td>'
                    f'<td class="num">{esc(_number(row["difference"], 3))}</td>'
                    f'<td class="num">{esc(_number(row["tolerance"], 3))}</td>'
                    f'<td class="explained">{esc(row.get("explained_by", ""))}'
                    + (f'<br><span class="cause">cause: {esc(row["cause"])}</span>' if row.get("cause") else "")
                    + (f'<br><span class="note">note: {esc(row["rounding"])}</span>' if row.get("rounding") else "")
                    + (f'<br><span class="note">other checks: {esc(others)}</span>' if others else "")
                    + f'</td><td>{esc(row["reason"])}</td></tr>')
    return f'<table class="data side-by-side"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def finding_rows(paper: PaperResults, anchors: dict) -> list[dict]:
    """One row per finding figure of a paper (its verdict a mismatch or an
    inconsistency): the claim that gives the verdict, every place the figure is printed
    and its other checks."""
    rows = []
    for figure, members in finding_figures(paper.claims):
        first, others = members[0], members[1:]
        rows.append({**first, "paper": paper.paper_id, "anchor": anchors[(paper.paper_id, figure["first"])],
                     "places": " / ".join(dict.fromkeys(m["where"] for m in members)),
                     "other_checks": "; ".join(f"{r['source']}: {r['status']} ({_number(r['computed'])})"
                                               for r in others)})
    return rows


def claims_table(paper: PaperResults, anchors: dict) -> str:
    columns = ["key", "where", "source", "published", "computed", "difference", "tolerance", "status", "reason",
               "explained by"]
    numeric = {"computed", "difference", "tolerance"}
    head = "".join(f'<th data-sort="{"num" if c in numeric else "text"}"'
                   f'{" class=num" if c in numeric else ""}>{esc(c)}</th>' for c in columns)
    body = []
    for index, row in _sort_claims(paper.claims).iterrows():
        anchor = anchors[(paper.paper_id, index)]
        cells = [f'<td class="key">{_key_html(_claim_key(row))}</td>', f'<td>{esc(row["where"])}</td>',
                 f'<td>{esc(row["source"])}</td>', f'<td class="num published">{esc(row["published"])}</td>',
                 f'<td class="num computed" data-value="{esc(_number(row["computed"], 17))}">'
                 f'{esc(_number(row["computed"]))}</td>',
                 f'<td class="num" data-value="{esc(_number(row["difference"], 17))}">'
                 f'{esc(_number(row["difference"], 3))}</td>',
                 f'<td class="num" data-value="{esc(_number(row["tolerance"], 17))}">'
                 f'{esc(_number(row["tolerance"], 3))}</td>',
                 f'<td>{_status_badge(row["status"])}</td>', f'<td class="reason">{esc(row["reason"])}</td>',
                 f'<td class="explained">{esc(row.get("explained_by", ""))}</td>']
        body.append(f'<tr id="{esc(anchor)}" class="claim" data-key="{esc(row["key"])}" '
                    f'data-status="{esc(row["status"])}">{"".join(cells)}</tr>')
    present = [s for s in STATUS_ORDER if (paper.claims["status"] == s).any()]
    options = "".join(f'<option value="{esc(s)}">{esc(s)} ({int((paper.claims["status"] == s).sum())})</option>'
                      for s in present)
    table_id = f"claims-{_slug(paper.paper_id)}"
    picker = (f'<label class="filter">status <select class="status-filter" data-table="{table_id}">'
              f'<option value="">all ({len(paper.claims)})</option>{options}</select></label>'
              f'<label class="filter">filter <input type="search" class="text-filter" data-table="{table_id}" '
              f'placeholder="any text: key, where, status, reason" aria-label="filter the claims of '
              f'{esc(paper.paper_id)}"></label>')
    return (f'{picker}<table id="claims-{_slug(paper.paper_id)}" class="data claims sortable"><thead><tr>{head}</tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table>')


def claims_block(paper: PaperResults, anchors: dict) -> str:
    """The claims table, folded (the paper's findings are shown above it; searching opens it)."""
    if not len(paper.claims):
        return "<h3>Claims</h3><p>This paper declares no claims.</p>"
    return (f'<details class="claims-box"><summary><h3>Claims ({counted(len(paper.claims), "claim")}: every '
            f'number the paper printed, findings first)</h3> <span class="muted">click to open, or find a key '
            f'above</span></summary>{claims_table(paper, anchors)}</details>')


def _provenance(md_path: Path) -> str:
    if not md_path.is_file():
        return ""
    text = md_path.read_text(encoding="utf-8")
    if "Provenance:" not in text:
        return ""
    lines = [line[2:] for line in text.split("Provenance:", 1)[1].splitlines() if line.startswith("- ")]
    return '<ul class="provenance">' + "".join(f"<li>{esc(line)}</li>" for line in lines) + "</ul>" if lines else ""


def _title(md_path: Path, fallback: str) -> str:
    if md_path.is_file():
        first = md_path.read_text(encoding="utf-8").splitlines()[:1]
        if first and first[0].startswith("# "):
            return first[0][2:]
    return fallback


def frame_table(frame: pd.DataFrame, limit: int = MAX_TABLE_ROWS) -> str:
    shown = frame.head(limit)
    head = "".join(f"<th>{esc(c)}</th>" for c in shown.columns)
    body = "".join("<tr>" + "".join(f"<td>{esc(_number(v) if isinstance(v, (int, float)) else v)}</td>"
                                    for v in row) + "</tr>" for row in shown.itertuples(index=False))
    more = (f'<p class="note">First {limit} of {len(frame)} rows.</p>' if len(frame) > limit else "")
    return f'<div class="scroll"><table class="data small"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{more}'


def tsv_table(path: Path, results: Path) -> str:
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    frame = frame.apply(lambda column: column.map(_number_text))
    where = path.relative_to(results.parent) if path.is_relative_to(results.parent) else path
    return (f'<details class="table"><summary>{esc(_title(path.with_suffix(".md"), path.stem))} '
            f'<span class="muted">({len(frame)} rows; {esc(where)})</span></summary>'
            f'{frame_table(frame)}{_provenance(path.with_suffix(".md"))}</details>')


def _has_rows(path: Path) -> bool:
    """A TSV with at least one row under its header."""
    with open(path, encoding="utf-8") as handle:
        return any(line.strip() for line in list(handle)[1:])


def _number_text(text: str) -> str:
    """A TSV cell: numbers with at most 6 significant digits, anything else as written."""
    try:
        number = float(text)
    except (TypeError, ValueError):
        return text
    if not math.isfinite(number) or text.strip().lower() in ("nan", "inf", "-inf"):
        return text
    return _number(number)


def figure_block(path: Path, results: Path, caption: str = "") -> str:
    """A figure with its caption (what it shows, where its numbers come from) and its file."""
    where = path.relative_to(results.parent) if path.is_relative_to(results.parent) else path
    said = f"{rst_html(caption)} " if caption else ""
    return (f'<figure><img src="{_png(path)}" alt="{esc(path.name)}" loading="lazy">'
            f'<figcaption>{said}<span class="file">{esc(where)}</span></figcaption></figure>')


def _p_text(value) -> str:
    if value is None:
        return ""
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _ci_text(ends) -> str:
    if not ends or ends[0] is None or ends[1] is None:
        return ""
    return f"{ends[0]:.3f} to {ends[1]:.3f}"


def audit_section(audit: AuditResults, results: Path) -> str:
    from reagree.audit import coefficient_rows

    result = audit.result
    missing = result["missing_share"]
    raters = result["raters"]
    named = ", ".join(raters) if len(raters) <= MAX_RATERS_NAMED else f'{", ".join(raters[:5])}, ...'
    design = (f'{result["n_units"]} units, {result["n_raters"]} raters ({esc(named)}), '
              f'{result["n_ratings"]} ratings, {"-" if missing is None else f"{100 * missing:.1f}%"} of cells '
              f'missing; {result["units_pairable"]} units with two or more ratings, {result["units_complete"]} '
              f'{esc(result.get("complete_means", "units every rater labelled"))}.')
    labels = ", ".join(f"{esc(c)} {n}" for c, n in result["label_distribution"].items())
    rows = coefficient_rows(result)
    notes = any(r["note"] for r in rows)
    body = "".join(
        f'<tr><td>{esc(r["what"])}</td><td class="num">{esc(_fixed(r["value"]))}</td>'
        f'<td class="num">{esc(_ci_text((r["ci_low"], r["ci_high"])))}</td>'
        f'<td class="num">{esc(_fixed(r.get("se") if r.get("se") is not None else r.get("se_null")))}</td>'
        f'<td class="num">{esc(_p_text(r.get("p")))}</td>'
        + (f'<td>{esc(r["note"])}</td>' if notes else "") + "</tr>" for r in rows)
    level = 100 * result["settings"]["bootstrap"]["level"]
    resampled = result["ci"].get("resampled")
    method = (f'bootstrap over {esc(resampled)} ({esc(result["ci"]["method"])})' if resampled
              else esc(result["ci"]["method"]))
    coefficients = (f'<table class="data"><thead><tr><th>coefficient</th><th class="num">value</th>'
                    f'<th class="num">{level:g}% interval</th><th class="num">SE</th><th class="num">p</th>'
                    + ("<th>note</th>" if notes else "")
                    + f'</tr></thead><tbody>{body}</tbody></table><p class="note">Intervals: {method}. SE and p: '
                    'analytic (Gwet\'s variance on t(n - 1); Fleiss\' kappa on the complete units: its SE under '
                    'kappa = 0); alpha has none (bootstrap only).</p>')
    raters_rows = "".join(
        f'<tr><td>{esc(r["rater"])}</td><td class="num">{r["units"]}</td>'
        f'<td class="num">{esc(_fixed(r["pairwise_agreement"]))}</td>'
        f'<td class="num">{esc(_fixed(r["majority_agreement"]))}</td><td class="num">{esc(_p_text(r["bias"]["p"]))}</td>'
        f'<td class="num">{esc(_fixed(r["without_alpha"]["change"]))}</td>'
        f'<td class="num">{esc(_ci_text(r["without_alpha"].get("change_ci")))}</td></tr>'
        for r in result.get("per_rater", [])[:MAX_PAIR_ROWS])
    raters_table = (f'<h3>Per rater</h3><table class="data"><thead><tr><th>rater</th><th class="num">units</th>'
                    '<th class="num">agreement with the rest</th><th class="num">with the others\' majority</th>'
                    '<th class="num">label bias p</th><th class="num">alpha without, minus alpha</th>'
                    f'<th class="num">interval</th></tr></thead><tbody>{raters_rows}</tbody></table>'
                    if raters_rows else "")
    item_rows = "".join(
        f'<tr><td>{esc(u["unit"])}</td><td class="num">{100 * u["disagreeing_pairs"]:.1f}%</td>'
        f'<td>{esc(", ".join(f"{c} {n}" for c, n in u["votes"].items()))}</td></tr>'
        for u in result.get("items", {}).get("units", [])[:MAX_TIE_ROWS])
    items_table = (f'<h3>Items to adjudicate first</h3><table class="data small"><thead><tr><th>unit</th>'
                   f'<th class="num">pairs disagreeing</th><th>votes</th></tr></thead><tbody>{item_rows}</tbody>'
                   '</table><p class="note">Every disputed item, ranked, is in items.csv.</p>' if item_rows else "")
    per_category = "".join(
        f'<tr><td>{esc(c)}</td><td class="num">{v["count"]}</td>'
        f'<td class="num">{esc(_fixed(v.get("fleiss_kappa")))}</td><td class="num">{esc(_ci_text(v.get("fleiss_kappa_ci")))}</td>'
        f'<td class="num">{esc(_p_text(v.get("fleiss_kappa_p")))}</td>'
        f'<td class="num">{esc(_fixed(v.get("specific_agreement")))}</td>'
        f'<td class="num">{esc(_ci_text(v.get("specific_agreement_ci")))}</td></tr>'
        for c, v in result["per_category"].items())
    pairs = "".join(
        f'<tr><td>{esc(p["a"])}-{esc(p["b"])}</td><td class="num">{p["n"]}</td>'
        f'<td class="num">{esc(_fixed(p["percent_agreement"], 4))}</td>'
        f'<td class="num">{esc(_fixed(p["cohen_kappa"]))}</td><td class="num">{esc(_ci_text(p.get("cohen_kappa_ci")))}</td>'
        f'<td>a model that copies {esc(p["a"])} scores {esc(_fixed(p["copy_a_scores_against_b"], 4))} against {esc(p["b"])}</td></tr>'
        for p in result["pairwise"][:MAX_PAIR_ROWS])
    plan = result.get("pairwise_plan", {})
    if len(result["pairwise"]) > MAX_PAIR_ROWS:
        pairs += (f'<tr><td colspan="6" class="note">... and {len(result["pairwise"]) - MAX_PAIR_ROWS:,} more pairs: '
                  'every pair is in pairwise.tsv and audit.json</td></tr>')
    pair_note = f'<p class="note">{esc(plan["why"])}.</p>' if plan.get("why") else ""
    ties = result["ties"]
    tie_text = f'{ties["count"]} of {ties.get("units_voted", result["n_units"])} units tie under the majority vote'
    if ties.get("kinds"):
        tie_text += " (" + "; ".join(f"{esc(k)}: {n}" for k, n in ties["kinds"].items()) + ")"
    tie_text += f'; the rule <code>{esc(ties["rule"])}</code> gave them: ' + esc(
        ", ".join(f"{k} {n}" for k, n in ties.get("rule_gave", {}).items()) or "nothing")
    if "column" in ties:
        tie_text += (f'; the column <code>{esc(ties["column"])}</code> gave them: '
                     + esc(", ".join(f"{k} {n}" for k, n in ties.get("column_gave", {}).items()) or "nothing")
                     + f'; it differs from the plurality on {ties["column_differs_on_untied"]} untied unit(s)')
    tie_rows = "".join(
        f'<tr><td>{esc(u["unit"])}</td><td>{esc(", ".join(f"{c} {n}" for c, n in u["votes"].items()))}</td>'
        f'<td>{esc(u["rule"] or "(no label)")}</td>'
        + (f'<td>{esc(u.get("column") or "")}</td>' if "column" in ties else "") + "</tr>"
        for u in ties["units"][:MAX_TIE_ROWS])
    tie_head = "<th>unit</th><th>votes</th><th>rule</th>" + ("<th>column</th>" if "column" in ties else "")
    problems = "".join(f'<li class="problem">{esc(p)}</li>' for p in result["problems"] + result["notes"])
    figure = figure_block(audit.figure, results) if audit.figure else ""
    figure += "".join(figure_block(audit.folder / name, results) for name in ("raters.png", "pairs.png",
                                                                            "confusion.png")
                      if (audit.folder / name).is_file())
    from reagree.audit.render import headline
    source = f'{esc(result["source"])}' + (f' (sha256 {esc(result["sha256"][:12])}...)' if result.get("sha256") else "")
    return f"""
<section id="audit-{_slug(audit.name)}" class="audit">
<h2>Audit: {esc(audit.name)}</h2>
<p class="muted">{source}; {esc(result["format"])} format; level {esc(result["level"])}; tie rule {esc(ties["rule"])}.
Files: {esc(audit.folder.relative_to(results.parent) if audit.folder.is_relative_to(results.parent) else audit.folder)}/</p>
<p>{design} Labels: {labels}.</p>
{f'<ul>{problems}</ul>' if problems else ''}
<p class="reading"><strong>{esc(headline(result)) if result["n_units"] else ""}</strong></p>
<p class="reading">{esc(result["reading"])}</p>
<div class="two">
<div><h3>Coefficients</h3>{coefficients}
<h3>Per category</h3><table class="data"><thead><tr><th>category</th><th class="num">ratings</th><th class="num">Fleiss kappa_j</th><th class="num">interval</th><th class="num">p (SE under kappa_j = 0)</th><th class="num">specific agreement</th><th class="num">interval</th></tr></thead><tbody>{per_category}</tbody></table>
<h3>Pairs</h3><table class="data"><thead><tr><th>pair</th><th class="num">n</th><th class="num">agreement</th><th class="num">Cohen's kappa</th><th class="num">interval</th><th>ceiling</th></tr></thead><tbody>{pairs}</tbody></table>{pair_note}
<h3>Majority vote and ties</h3><p>{tie_text}.</p>
{f'<table class="data small"><thead><tr>{tie_head}</tr></thead><tbody>{tie_rows}</tbody></table>' if tie_rows else ''}
</div>
<div>{raters_table}{items_table}</div>
</div>
<div class="audit-figures">{figure}</div>
</section>"""


CSS = """
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--band:#f6f8fa}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0}
header{padding:18px 28px 10px;border-bottom:1px solid var(--line)}
header h1{margin:0 0 4px;font-size:24px}
nav{position:sticky;top:0;background:var(--band);border-bottom:1px solid var(--line);padding:8px 28px;z-index:2;
 display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center;font-size:14px}
nav input{font:inherit;padding:4px 8px;width:22em;border:1px solid var(--line);border-radius:6px}
main{padding:6px 28px 40px;max-width:1500px}
section{margin-top:26px}
h2{font-size:20px;border-bottom:1px solid var(--line);padding-bottom:4px;margin-bottom:8px}
h3{font-size:16px;margin:16px 0 6px}
a{color:#0969da;text-decoration:none} a:hover{text-decoration:underline}
.muted,.note{color:var(--muted);font-size:13px}
table.data{border-collapse:collapse;margin:6px 0;font-size:13.5px}
table.data th,table.data td{border:1px solid var(--line);padding:3px 8px;vertical-align:top;text-align:left}
table.data thead th{background:var(--band);position:sticky;top:40px;white-space:nowrap}
table.data .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.small{font-size:12.5px}
#summary-table{font-size:15px} #summary-table td,#summary-table th{padding:5px 12px}
td.key{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px;min-width:14em}
table.claims,table.side-by-side{width:100%} td.reason{min-width:14em}
td.published{background:#fff8c5} td.computed{background:#ddf4ff}
.status{display:inline-block;padding:0 7px;border-radius:10px;color:#fff;font-size:12px;white-space:nowrap}
""" + "".join(f".s-{_slug(s)}{{background:{c}}}" for s, c in STATUS_COLOURS.items()) + """
table.sortable th{cursor:pointer} table.sortable th:after{content:" \\2195";color:#aaa}
tr.hit td{outline:2px solid #bf8700}
.scroll{overflow-x:auto;max-width:100%}
details.table{margin:4px 0} details summary{cursor:pointer}
details.claims-box>summary h3{display:inline}
figure{margin:10px 0} figure img{max-width:100%;height:auto;border:1px solid var(--line)}
figcaption{color:var(--fg);font-size:13px;max-width:70em} figcaption .file{color:var(--muted);font-size:12px}
figcaption code{font-size:12px}
.figures figure{max-width:1100px;margin:10px 0 22px}
.audit-figures figure{max-width:900px;margin:10px 0 22px}
.two{display:flex;flex-wrap:wrap;gap:24px} .two>div{flex:1 1 520px}
.reading{background:var(--band);border-left:4px solid #0969da;padding:6px 10px}
li.problem{color:#9a6700}
.filter{font-size:13px;margin-right:12px} .filter input{font:inherit;padding:2px 6px;width:22em}
ul.provenance{font-size:12px;color:var(--muted);margin:2px 0 8px}
.ok{color:#1a7f37}
"""

SCRIPT = """
(function(){
  var box=document.getElementById('find');
  var count=document.getElementById('find-count');
  function find(){
    var q=box.value.trim().toLowerCase(), shown=0, rows=document.querySelectorAll('tr.claim');
    rows.forEach(function(r){
      var ok=!q||r.getAttribute('data-key').toLowerCase().indexOf(q)>=0;
      var f=r.getAttribute('data-filtered')==='1'||r.getAttribute('data-unmatched')==='1';
      r.style.display=(ok&&!f)?'':'none'; if(ok&&!f)shown++;
      r.classList.toggle('hit',!!q&&ok);
      if(q&&ok){var d=r.closest('details'); if(d)d.open=true;}
    });
    count.textContent=q?shown+' claim'+(shown===1?'':'s')+' match "'+box.value.trim()+'"':'';
  }
  box.addEventListener('input',find);
  document.querySelectorAll('select.status-filter').forEach(function(s){
    s.addEventListener('change',function(){
      var t=document.getElementById(s.getAttribute('data-table'));
      t.querySelectorAll('tr.claim').forEach(function(r){
        r.setAttribute('data-filtered',(s.value&&r.getAttribute('data-status')!==s.value)?'1':'0');
      });
      find();
    });
  });
  document.querySelectorAll('input.text-filter').forEach(function(s){
    s.addEventListener('input',function(){
      var t=document.getElementById(s.getAttribute('data-table')), q=s.value.trim().toLowerCase();
      t.querySelectorAll('tr.claim').forEach(function(r){
        r.setAttribute('data-unmatched',(q&&r.textContent.toLowerCase().indexOf(q)<0)?'1':'0');
      });
      find();
    });
  });
  document.querySelectorAll('table.sortable').forEach(function(t){
    t.querySelectorAll('thead th').forEach(function(th,i){
      th.addEventListener('click',function(){
        var body=t.tBodies[0], rows=Array.prototype.slice.call(body.rows);
        var num=th.getAttribute('data-sort')==='num', dir=th.getAttribute('data-dir')==='1'?-1:1;
        rows.sort(function(a,b){
          var x=a.cells[i], y=b.cells[i];
          if(num){var p=parseFloat(x.getAttribute('data-value')), q=parseFloat(y.getAttribute('data-value'));
            p=isNaN(p)?Infinity:p; q=isNaN(q)?Infinity:q; return (p-q)*dir;}
          return x.textContent.localeCompare(y.textContent)*dir;
        });
        rows.forEach(function(r){body.appendChild(r);});
        th.setAttribute('data-dir',dir===1?'1':'0');
      });
    });
  });
  document.documentElement.setAttribute('data-ready','1');
})();
"""


def render(summary: pd.DataFrame, papers: Sequence[PaperResults], audits: Sequence[AuditResults], results: Path,
           settings: dict | None = None) -> str:
    """The whole page as text."""
    anchors = {}
    missing: list[dict] = []
    for paper in papers:
        for index, row in paper.claims.iterrows():
            anchor = f"claim-{_slug(paper.paper_id)}-{_slug(row['key'])}" + (f"-{row['end']}" if row["end"] else "")
            anchor += f"-{index}"
            anchors[(paper.paper_id, index)] = anchor
            if row["status"] == "missing":
                missing.append({**row.to_dict(), "paper": paper.paper_id, "anchor": anchor})
    findings_of = {paper.paper_id: finding_rows(paper, anchors) for paper in papers}
    all_findings = [row for paper in papers for row in findings_of[paper.paper_id]]
    total = int(summary["claims"].sum()) if len(summary) else 0
    n_figures = int(summary["figures"].sum()) if len(summary) else 0
    n_findings = len(all_findings)
    nav = " ".join([
        '<a href="#summary">Summary</a>', f'<a href="#findings">Findings ({n_findings})</a>',
        *(f'<a href="#paper-{_slug(p.paper_id)}">{esc(p.paper_id)}</a>' for p in papers),
        *(f'<a href="#audit-{_slug(a.name)}">audit: {esc(a.name)}</a>' for a in audits),
    ])
    find = ('<input id="find" type="search" placeholder="find a claim by key, e.g. fleiss.humans" '
            'aria-label="find a claim by key"> <span id="find-count" class="muted"></span>')
    if all_findings:
        findings = ('<p>Each is a printed figure that the released data do not give back at its printed digits '
                    '(a mismatch), or that the paper\'s other printed numbers cannot give (inconsistent), one row per '
                    'figure however many places print it. The build still succeeded; the explained-by column says '
                    'which variant reproduces the print, or that none tried does.</p>'
                    + side_by_side(all_findings, with_paper=True))
    else:
        findings = '<p class="ok">No finding: every checked figure agrees with the data or the paper.</p>'
    if missing:
        defects = ('<section id="defects"><h2>Missing values (defects in reagree)</h2>'
                   + side_by_side(missing, with_paper=True) + "</section>")
    else:
        defects = ('<p class="ok" id="defects">No claim is missing a computed value.</p>' if total else "")
    sections = []
    for paper in papers:
        counts = paper.claims["status"].value_counts()
        count_text = ", ".join(f"{int(counts[s])} {s}" for s in STATUS_ORDER if s in counts)
        mine = findings_of[paper.paper_id]
        figures = "".join(figure_block(f, results, paper.captions.get(f.name, "")) for f in paper.figures)
        tables = "".join(tsv_table(t, results) for t in paper.tables if _has_rows(t))
        sections.append(f"""
<section id="paper-{_slug(paper.paper_id)}" class="paper">
<h2>{esc(paper.paper_id)}: {esc(paper.title)}</h2>
<p class="muted">{esc(paper.cite)}</p>
<p>{counted(len(paper.claims), "claim")}: {esc(count_text) or "none"}.</p>
{'<h3>Findings</h3>' + side_by_side(mine, with_paper=False) if mine else ''}
{f'<h3>Figures</h3><div class="figures">{figures}</div>' if figures else ''}
{f'<h3>Tables</h3>{tables}' if tables else ''}
{claims_block(paper, anchors)}
</section>""")
    audit_sections = "".join(audit_section(a, results) for a in audits)
    settings_text = ""
    if settings:
        settings_text = "; ".join(f"{esc(k)}: {esc(v)}" for k, v in settings.items())
    no_papers = "" if papers else "<p><strong>No paper is configured (<code>papers: []</code>).</strong></p>"
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
<p class="muted">{counted(len(papers), "paper")}, {counted(n_figures, "printed figure")} ({counted(total, "claim")}), {counted(len(audits), "audited dataset")}.
reagree {esc(__version__)}.
{settings_text}</p>
</header>
<nav>{nav} {find}</nav>
<main>
<section id="summary">
<h2>Summary</h2>
{no_papers}
{summary_table(summary)}
{_summary_sentences(summary)}
<p class="muted">Every count is of printed figures: a figure printed in several places, or checked against the
data and against other printed numbers, has one verdict (findings first). <b>match</b> a number computed from the
released data reproduces the printed digits (within half a unit of the last printed digit); <b>within tolerance</b>
outside the printed digits, inside a wider tolerance the claim states a reason for (a Monte Carlo error, an
approximate word read by the one rule); <b>holds</b> a printed bound or window that the data satisfy;
<b>consistent</b> / <b>inconsistent</b> a printed number held against other printed numbers, each read as the interval
its digits allow; <b>mismatch</b> a finding against the data; <b>uncheckable</b> with its reason (data never released,
...); <b>not built</b> left out by the configuration; <b>not comparable</b> computed under other bootstrap settings than
the paper's; <b>missing</b> no computed value: a defect in reagree.
The same counts are in results/summary.tsv.</p>
</section>
<section id="findings">
<h2>Findings: published against computed ({n_findings})</h2>
{findings}
</section>
{defects}
{"".join(sections)}
{audit_sections}
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""


def build_report(results: str | Path, papers: dict[str, dict], datasets: Sequence[str], out: str | Path,
                 figures: Sequence[str | Path] = (), settings: dict | None = None,
                 captions: dict[str, str] | None = None) -> None:
    """Read the run's results and write the page to ``out`` (atomically)."""
    from reagree.pipeline.tables import write_text_atomic

    results = Path(results)
    summary = pd.read_csv(results / "summary.tsv", sep="\t")
    page = render(summary, load_papers(results, papers, figures, captions), load_audits(results, datasets), results,
                  settings)
    write_text_atomic(out, page)
