"""Rule score_mozetic2016_ordering: Table 5 per built dataset, on the union of its self- and
inter-agreement units, and their average (mozetic2016.ordering.score_ordering)."""

from mozetic2016.ordering import score_ordering
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake):
    write_outputs(score_ordering(snakemake.params.datasets, list(snakemake.input)), snakemake)
