"""The workflow's plumbing: configuration and paper settings, sources and fetching, paper
files and their claims, value and result tables, rule-script helpers, the scaffold.

Nothing here computes a statistic; nothing here names a paper.
"""

__all__ = ["claims", "fetch", "paper_registry", "paperspec", "progress", "readers", "rulekit", "scaffold",
           "settings", "sources", "tables", "yamlio"]
