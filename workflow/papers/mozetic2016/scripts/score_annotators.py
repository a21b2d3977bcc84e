"""Rule score_mozetic2016_annotators: per annotator of each built language, labels, share,
tweets labelled twice and self-agreement Alpha_int; the text's main annotator and its A and
B (mozetic2016.annotators.score_annotators)."""

from mozetic2016.annotators import score_annotators
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake):
    write_outputs(score_annotators(snakemake.params.languages, list(snakemake.input)), snakemake)
