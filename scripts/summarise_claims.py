"""Rule summarise_claims: status counts per paper, every mismatch and missing key."""
from reagree.pipeline.claims import read_claims, summarise
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_text_atomic, write_tsv

with rule_log(snakemake) as log:
    tables = {paper: read_claims(path) for paper, path in zip(snakemake.params.papers, snakemake.input)}
    summary, markdown = summarise(tables)
    write_tsv(summary, snakemake.output.tsv)
    write_text_atomic(snakemake.output.md, markdown)
    log.info("summary: %s", summary.to_dict("records"))
