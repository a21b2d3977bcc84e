"""Rule count_mozetic2016_repeats: Table 3 per built dataset, the posts labelled more than
once counted as posts and as label pairs, and the counting and percentage-base variants of
the paper's reading (mozetic2016.repeats.count_repeats)."""

from mozetic2016.repeats import count_repeats
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    write_outputs(
        count_repeats(snakemake.params.datasets, snakemake.params.languages, list(snakemake.input), log), snakemake
    )
