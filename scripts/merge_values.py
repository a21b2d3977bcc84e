"""Rule merge_*_values: one values.tsv from a paper's partial value files (keys unique)."""
import pandas as pd

from reagree.rulekit import rule_log
from reagree.tables import read_values, write_values

with rule_log(snakemake) as log:
    parts = [read_values(path) for path in snakemake.input]
    merged = pd.concat(parts, ignore_index=True)
    write_values(merged.to_dict("records"), snakemake.output[0])
    log.info("%d values from %d files", len(merged), len(parts))
