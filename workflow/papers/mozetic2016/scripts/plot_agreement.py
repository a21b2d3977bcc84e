"""Rule plot_mozetic2016_agreement: self- and inter-agreement Alpha of each built dataset
with its bootstrap interval, ordered by self-agreement (the paper's Fig 1 without the
classifier bar; mozetic2016.plots.agreement_figure)."""

import pandas as pd

from mozetic2016.plots import agreement_figure
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    agreement_figure(pd.read_csv(snakemake.input.table, sep="\t"), snakemake.params.draws, snakemake.output[0])
