"""Rule score_jayanetti2026_tie_rule: the human majority under one tie rule ({tie_rule}),
its label counts, and every rater's Cohen's kappa against it per framing
(jayanetti2026.tie_rules.score_tie_rule)."""

from jayanetti2026.release import read_release
from jayanetti2026.tie_rules import score_tie_rule
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    write_outputs(
        score_tie_rule(
            release, snakemake.wildcards.tie_rule, snakemake.params.settings, snakemake.params.bootstrap, log
        ),
        snakemake,
    )
