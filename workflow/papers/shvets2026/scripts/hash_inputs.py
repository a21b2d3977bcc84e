"""Rule hash_shvets2026_inputs: the sha256 of every fetched file, in `sha256sum -c` format.
The upstream bytes are not pinned (the offline mirror's copies are not byte-exact), so the
digests of what this run read are recorded instead."""
from reagree.rulekit import rule_log
from reagree.tables import sha256_of, write_text_atomic

with rule_log(snakemake) as log:
    lines = [f"{sha256_of(path)}  {path}" for path in sorted(snakemake.input)]
    write_text_atomic(snakemake.output[0], "\n".join(lines) + "\n")
    log.info("%d files hashed", len(lines))
