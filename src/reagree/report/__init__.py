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

# The public names are loaded on first use (PEP 562), each from the module that defines it,
# so that the Snakefile, which needs only ``load.figure_captions``, does not import the
# audit's statistics (and scipy) at every start of Snakemake.
_HTML = ("MAX_TABLE_ROWS", "STATUS_ORDER", "counted", "esc", "rst_html")
_LOAD = ("AuditResults", "PaperResults", "RunScope", "figure_captions", "load_audits", "load_papers")
_PAGE = ("build_report", "render")
_FINDINGS = ("by_cause", "side_by_side")


def __getattr__(name: str):
    if name in _HTML:
        from reagree.report import html as module
    elif name in _LOAD:
        from reagree.report import load as module
    elif name in _PAGE:
        from reagree.report import page as module
    elif name in _FINDINGS:
        from reagree.report.sections import findings as module
    elif name == "audit_section":
        from reagree.report.sections import audits as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(module, name)
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
