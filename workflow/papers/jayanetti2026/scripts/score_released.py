"""Rule score_jayanetti2026_released: what the released labels say before any tie rule, and
the write-up's own intervals under its scheme (jayanetti2026.released.score_released)."""

from jayanetti2026.release import read_release
from jayanetti2026.released import score_released
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    write_outputs(
        score_released(release, snakemake.params.bootstrap, snakemake.params.excerpt_characters, log), snakemake
    )
