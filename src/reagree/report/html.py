"""The report's HTML pieces: escaping, numbers, status badges, tables, figures, and the
page's inline style and script.

What it decides:

- **Nothing is wider than the window.** The page is laid out for a window of 1,280 px
  and narrower: text wraps, figures shrink to their column, and every table that can be
  wider than its column (the summary, the claims, a paper's tables) sits in a box of its
  own that scrolls sideways (``scroll``), so the page itself never does.
- **Figures load with the page.** Each is embedded as PNG data (re-encoded with a
  256-colour palette, which keeps line figures sharp at a fraction of the bytes) and
  loaded eagerly: a printout or a full-page capture shows every one.
- **Numbers**: at most 6 significant digits in tables (``number``), coefficients with 3
  decimals (``fixed``); an undefined value is "undefined", never a blank that reads as 0.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from pathlib import Path

import pandas as pd

__all__ = [
    "CSS",
    "MAX_TABLE_ROWS",
    "SCRIPT",
    "STATUS_COLOURS",
    "STATUS_ORDER",
    "ci_text",
    "claim_key",
    "counted",
    "esc",
    "figure_block",
    "fixed",
    "frame_table",
    "has_rows",
    "key_html",
    "number",
    "p_text",
    "png_data",
    "rst_html",
    "scrolling",
    "shown_path",
    "slug",
    "status_badge",
    "tsv_table",
]

MAX_TABLE_ROWS = 100
# Findings first: what a reader must look at, then what the build left out, then the rest.
STATUS_ORDER = (
    "mismatch",
    "inconsistent",
    "missing",
    "not comparable",
    "not built",
    "uncheckable",
    "not recomputed",
    "within tolerance",
    "holds",
    "consistent",
    "match",
)
STATUS_COLOURS = {
    "match": "#1a7f37",
    "within tolerance": "#4d8f5a",
    "holds": "#2f6f6f",
    "consistent": "#57606a",
    "mismatch": "#cf222e",
    "inconsistent": "#bc4c00",
    "uncheckable": "#6e7781",
    "not recomputed": "#7d5f8f",
    "missing": "#8250df",
    "not built": "#0969da",
    "not comparable": "#bf8700",
}


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 paper", "2 papers": a count that agrees with its noun."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def rst_html(text: str) -> str:
    """A caption's reStructuredText, as much of it as captions use: ``code`` and **bold**."""
    text = esc(text)
    text = re.sub(r"``(.+?)``", r"<code>\1</code>", text)
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)


def slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in str(text))


def number(value: object, digits: int = 6) -> str:
    if value is None or value == "":
        return ""
    try:
        as_float = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(as_float):
        return ""
    if as_float.is_integer() and abs(as_float) < 1e15:
        return str(int(as_float))
    return f"{as_float:.{digits}g}"


def fixed(value: object, decimals: int = 3) -> str:
    """A coefficient with a fixed number of decimals ("undefined" for None)."""
    return "undefined" if value is None else f"{float(value):.{decimals}f}"


def p_text(value) -> str:
    if value is None:
        return ""
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def ci_text(ends) -> str:
    if not ends or ends[0] is None or ends[1] is None:
        return ""
    return f"{ends[0]:.3f} to {ends[1]:.3f}"


def status_badge(status: str) -> str:
    return f'<span class="status s-{slug(status)}">{esc(status)}</span>'


def claim_key(row: dict) -> str:
    return row["key"] + (f" ({row['end']})" if row.get("end") else "")


def key_html(text: str) -> str:
    """A key, escaped, that may wrap after its dots (long keys stay readable in narrow columns)."""
    return esc(text).replace(".", ".<wbr>")


def scrolling(table: str) -> str:
    """A table in a box of its own that scrolls sideways when the table is wider than
    the page (module docstring)."""
    return f'<div class="scroll">{table}</div>'


def png_data(path: Path) -> str:
    """The figure as a data URI, re-encoded with an adaptive 256-colour palette."""
    data = path.read_bytes()
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            quantized = image.convert("RGB").quantize(
                colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
            )
            buffer = io.BytesIO()
            quantized.save(buffer, format="PNG", optimize=True)
        if buffer.tell() < len(data):
            data = buffer.getvalue()
    except (ImportError, OSError):
        pass
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def shown_path(path: Path, results: Path) -> Path:
    """``path`` as the reader finds it: relative to the folder holding results/."""
    return path.relative_to(results.parent) if path.is_relative_to(results.parent) else path


def figure_block(path: Path, results: Path, caption: str = "") -> str:
    """A figure with its caption (what it shows, where its numbers come from) and its file."""
    said = f"{rst_html(caption)} " if caption else ""
    return (
        f'<figure><img src="{png_data(path)}" alt="{esc(path.name)}" loading="eager">'
        f'<figcaption>{said}<span class="file">{esc(shown_path(path, results))}</span></figcaption></figure>'
    )


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
    body = "".join(
        "<tr>" + "".join(f"<td>{esc(number(v) if isinstance(v, (int, float)) else v)}</td>" for v in row) + "</tr>"
        for row in shown.itertuples(index=False)
    )
    more = f'<p class="note">First {limit} of {len(frame)} rows.</p>' if len(frame) > limit else ""
    return scrolling(f'<table class="data small"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>') + more


def _number_text(text: str) -> str:
    """A TSV cell: numbers with at most 6 significant digits, anything else as written."""
    try:
        as_float = float(text)
    except (TypeError, ValueError):
        return text
    if not math.isfinite(as_float) or text.strip().lower() in ("nan", "inf", "-inf"):
        return text
    return number(as_float)


def tsv_table(path: Path, results: Path) -> str:
    """A results table, folded, with its title and the provenance its Markdown twin ends with."""
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    frame = frame.apply(lambda column: column.map(_number_text))
    return (
        f'<details class="table"><summary>{esc(_title(path.with_suffix(".md"), path.stem))} '
        f'<span class="muted">({len(frame)} rows; {esc(shown_path(path, results))})</span></summary>'
        f"{frame_table(frame)}{_provenance(path.with_suffix('.md'))}</details>"
    )


def has_rows(path: Path) -> bool:
    """A TSV with at least one row under its header."""
    with open(path, encoding="utf-8") as handle:
        return any(line.strip() for line in list(handle)[1:])


# Laid out for 1,280 px and narrower (module docstring): main is as wide as the window,
# its children never wider (min-width:0 on flex children, max-width on figures), and a
# table that can outgrow its column scrolls inside .scroll.
CSS = (
    """
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--band:#f6f8fa}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0}
header{padding:18px 28px 10px;border-bottom:1px solid var(--line)}
header h1{margin:0 0 4px;font-size:24px}
.scope{margin:6px 0 0;font-size:14px}
nav{position:sticky;top:0;background:var(--band);border-bottom:1px solid var(--line);padding:8px 28px;z-index:2;
 display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center;font-size:14px}
nav input{font:inherit;padding:4px 8px;width:22em;max-width:100%;border:1px solid var(--line);border-radius:6px}
main{padding:6px 28px 40px;max-width:1500px}
section{margin-top:26px}
h2{font-size:20px;border-bottom:1px solid var(--line);padding-bottom:4px;margin-bottom:8px}
h3{font-size:16px;margin:16px 0 6px}
a{color:#0969da;text-decoration:none} a:hover{text-decoration:underline}
.muted,.note{color:var(--muted);font-size:13px}
p,li,figcaption{overflow-wrap:anywhere}
table.data{border-collapse:collapse;margin:6px 0;font-size:13.5px}
table.data th,table.data td{border:1px solid var(--line);padding:3px 8px;vertical-align:top;text-align:left}
table.data thead th{background:var(--band)}
table.data .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.small{font-size:12.5px}
.scroll{overflow-x:auto;max-width:100%;margin:6px 0}
.scroll>table.data{margin:0}
table.summary{font-size:14px} table.summary td,table.summary th{padding:4px 5px}
table.summary thead th,table.summary thead th.num{white-space:normal;font-size:13px;vertical-align:bottom;font-weight:600}
td.key{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px;min-width:12em;max-width:26em;
 overflow-wrap:anywhere}
td.key .where{display:block;font-family:system-ui,sans-serif;color:var(--muted);font-size:12.5px;margin-top:3px}
table.claims{width:100%} td.reason{min-width:14em}
table.findings{width:100%}
table.findings th.figure{width:36%} table.findings td.key{max-width:none}
table.findings th.explained{width:44%}
table.findings tr.cause th{background:#fff8f0;text-align:left;font-weight:600;font-size:13.5px}
td.published{background:#fff8c5} td.computed{background:#ddf4ff}
.status{display:inline-block;padding:0 7px;border-radius:10px;color:#fff;font-size:12px;white-space:nowrap}
"""
    + "".join(f".s-{slug(s)}{{background:{c}}}" for s, c in STATUS_COLOURS.items())
    + """
table.sortable th{cursor:pointer} table.sortable th:after{content:" \\2195";color:#aaa}
tr.hit td{outline:2px solid #bf8700}
details.table{margin:4px 0} details summary{cursor:pointer}
details.claims-box>summary h3{display:inline}
figure{margin:10px 0;max-width:100%} figure img{max-width:100%;height:auto;border:1px solid var(--line)}
figcaption{color:var(--fg);font-size:13px;max-width:70em} figcaption .file{color:var(--muted);font-size:12px}
figcaption code{font-size:12px}
.figures figure,.audit-figures figure{margin:10px 0 22px}
.reading{background:var(--band);border-left:4px solid #0969da;padding:6px 10px}
.failed{background:#ffebe9;border-left:4px solid #cf222e;padding:6px 10px}
li.problem{color:#9a6700}
.filter{font-size:13px;margin-right:12px} .filter input{font:inherit;padding:2px 6px;width:22em;max-width:100%}
ul.provenance{font-size:12px;color:var(--muted);margin:2px 0 8px}
.ok{color:#1a7f37}
@media print{nav{position:static} details{display:block}}
"""
)

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
