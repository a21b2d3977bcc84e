"""The report's sections, in reading order: summary, findings, papers, audits."""

__all__ = ["audits", "findings", "papers", "summary"]
