"""The report's sections, in reading order: summary, findings, papers, audits."""
