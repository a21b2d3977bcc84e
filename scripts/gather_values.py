"""Rule gather_values: one values.tsv from a paper's partial value files (keys unique)."""
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import gather_values, write_values

with rule_log(snakemake) as log:
    merged = gather_values(snakemake.input)
    write_values(merged.to_dict("records"), snakemake.output[0])
    log.info("%d values from %d files", len(merged), len(snakemake.input))
