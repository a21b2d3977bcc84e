"""Rule fetch_source_<paper>_<n>: the files of one source entry, copied or downloaded, each
checked against its pin or first-use record (reagree.pipeline.pins), renamed into place together."""

from reagree.pipeline.pins import fetch_entry
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake) as log:
    paper = snakemake.params.paper
    settings = snakemake.config["fetch"]  # schema defaults filled in by common.smk
    fetch_entry(
        paper,
        snakemake.params.entry,
        snakemake.config.get(paper) or {},
        list(snakemake.output),
        mirror=snakemake.config["mirror"],
        timeout=settings["timeout"],
        retries=settings["retries"],
        log=log.info,
    )
