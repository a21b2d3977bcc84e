"""The workflow's plumbing: configuration and paper settings, sources and fetching, pins
(first-use records of unpinned inputs), one run per folder, paper files and their claims,
printed values and the variants that reproduce them, each paper's declared value keys, the
registry of the run's papers, value and result tables, rule-script helpers, the scaffold.

Nothing here computes a statistic; nothing here names a paper.
"""

__all__ = [
    "checkout",
    "claims",
    "documents",
    "explain",
    "failures",
    "fetch",
    "halt",
    "internal",
    "keys",
    "ledger",
    "paper",
    "paper_registry",
    "papercode",
    "paperspec",
    "pins",
    "printed",
    "progress",
    "readers",
    "reproduce",
    "requirements",
    "rulekit",
    "runs",
    "scaffold",
    "scan",
    "settings",
    "sources",
    "summary",
    "tables",
    "variantplan",
    "verdicts",
    "yamlio",
]
