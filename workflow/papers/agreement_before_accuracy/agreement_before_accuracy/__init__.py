"""The agreement_before_accuracy paper's own code: its readers, keys and figures (rule scripts and tests import it)."""
