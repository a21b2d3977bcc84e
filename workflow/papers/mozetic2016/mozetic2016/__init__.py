"""The mozetic2016 paper's own code: its readers, keys and figures (rule scripts and tests import it)."""
