"""Rule score_mozetic2016_agreement: Table 4 for one dataset, self- and inter-annotator
agreement with bootstrap intervals, and the alpha variants of its claims
(mozetic2016.agreement.score_agreement)."""

from mozetic2016.agreement import score_agreement
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    settings = snakemake.params
    write_outputs(
        score_agreement(snakemake.wildcards.dataset, settings.draws, settings.seed, settings.level, log), snakemake
    )
