"""Rule gather_values: one values.tsv from a paper's partial value files (keys unique, each
declared by the paper's keys.py with the rule and function that wrote it)."""

from reagree.pipeline.paper import paper_code
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import gather_values, write_values

with rule_log(snakemake) as log:
    merged = gather_values(snakemake.input)
    rows = merged.to_dict("records")
    paper_code(snakemake.wildcards.paper).keys.check(rows)
    write_values(rows, snakemake.output[0])
    log.info("%d values from %d files", len(merged), len(snakemake.input))
