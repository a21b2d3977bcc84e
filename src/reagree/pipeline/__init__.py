"""The workflow's plumbing: configuration and paper settings, sources and fetching, pins
(first-use records of unpinned inputs), one run per folder, paper files and their claims,
value and result tables, rule-script helpers, the scaffold.

Nothing here computes a statistic; nothing here names a paper.
"""

__all__ = ["claims", "fetch", "paper_registry", "paperspec", "pins", "progress", "readers", "rulekit", "runs",
           "scaffold", "settings", "sources", "tables", "yamlio"]
