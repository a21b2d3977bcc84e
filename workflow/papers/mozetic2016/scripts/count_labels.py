"""Rule count_mozetic2016_labels: Table 1 (labels per class) and Table 6's sizes (one gold
label per tweet after merging repeated labels by the paper's rule), per built dataset
(mozetic2016.labels.count_labels)."""

from mozetic2016.labels import count_labels
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    write_outputs(count_labels(snakemake.params.datasets, list(snakemake.input), log), snakemake)
