"""The workflow's plumbing: configuration and paper settings, sources and fetching, paper
files and their claims, each paper's declared value keys, the registry of the run's
papers, value and result tables, rule-script helpers, the scaffold.

Nothing here computes a statistic; nothing here names a paper.
"""

__all__ = ["claims", "fetch", "keys", "paper_registry", "paperspec", "progress", "readers", "rulekit", "scaffold",
           "settings", "sources", "tables", "yamlio"]
