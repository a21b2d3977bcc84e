"""Rule hash_inputs: the sha256 of every file a paper fetched, in `sha256sum -c` format."""

from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_checksums

with rule_log(snakemake) as log:
    write_checksums(snakemake.input, snakemake.output[0])
    log.info("%d files hashed", len(snakemake.input))
