"""Rule fetch_source: copy or download one declared source, sha256-checked, atomically."""
from reagree.pipeline.fetch import fetch_source
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    settings = snakemake.config["fetch"]  # schema defaults filled in by common.smk
    fetch_source(snakemake.params.url, snakemake.output[0], sha256=snakemake.params.sha256,
                 mirror=snakemake.config["mirror"], timeout=settings["timeout"], retries=settings["retries"],
                 log_path=snakemake.log[0])
