"""Rule plot_agreement_before_accuracy_widths: bootstrap interval width against the number
of items."""

import pandas as pd

from agreement_before_accuracy.fixture import WIDTH_STUDY_DRAWS
from agreement_before_accuracy.plots import interval_widths
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    interval_widths(pd.read_csv(snakemake.input[0], sep="\t"), WIDTH_STUDY_DRAWS, snakemake.output[0])
