"""results/report.html: every result of a run on one self-contained page.

The package reads the run (``load``), builds the page from its sections and writes it
(``page``), from pieces that know nothing of a paper (``html``):

- ``load``: summary.tsv, each paper's claims, figures with their captions (the paper's
  ``report/<figure>.rst``, the text Snakemake's report shows), tables and failure record,
  each audited dataset.
- ``sections.summary``: which papers this run built and which it left out, the per-paper
  counts of printed figures (the numbers of results/summary.tsv, one verdict per printed
  figure), a sentence per paper (a failed paper's error in one line), what each verdict means.
- ``sections.findings``: every finding once (a mismatch or an inconsistency, one row per
  printed figure, published beside computed), per paper and grouped by cause; then any
  missing value (a defect).
- ``sections.papers``: one section per paper: figures, tables with the provenance their
  Markdown twin ends with (first ``MAX_TABLE_ROWS`` rows; an empty table is not listed),
  and last its claims, folded, filterable and sortable; the search box at the top finds
  any claim by key.
- ``sections.audits``: one section per audited dataset.
- ``html``: escaping, numbers, tables in boxes that scroll sideways (nothing on the page is
  wider than a 1,280 px window), figures embedded as palette PNG and loaded eagerly, the
  inline style and script. Nothing is fetched when the page is opened: it works from a
  USB stick.

Same inputs, same bytes: no timestamps; files are read in sorted order.
"""

import importlib

# Each public name and the module that defines it. They are loaded on first use (PEP 562), so
# that the Snakefile, which needs only ``load.figure_captions``, does not import the audit's
# statistics (and scipy) at every start of Snakemake.
_MODULES = {
    "MAX_TABLE_ROWS": "html",
    "STATUS_ORDER": "html",
    "counted": "html",
    "esc": "html",
    "rst_html": "html",
    "AuditResults": "load",
    "PaperResults": "load",
    "RunScope": "load",
    "figure_captions": "load",
    "load_audits": "load",
    "load_papers": "load",
    "build_report": "page",
    "render": "page",
    "audit_section": "sections.audits",
    "by_cause": "sections.findings",
    "side_by_side": "sections.findings",
}


def __getattr__(name: str):
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
    globals()[name] = value
    return value


# The report's public API, re-exported from its modules.
__all__ = [
    "MAX_TABLE_ROWS",
    "STATUS_ORDER",
    "AuditResults",
    "PaperResults",
    "RunScope",
    "audit_section",
    "build_report",
    "by_cause",
    "counted",
    "esc",
    "figure_captions",
    "load_audits",
    "load_papers",
    "render",
    "rst_html",
    "side_by_side",
]
