"""The shvets2026 paper's own code: its readers, keys and figures (rule scripts and tests import it)."""
