"""Rule plot_agreement_before_accuracy_prevalence: kappa, PABAK and AC1 against prevalence."""

import pandas as pd

from agreement_before_accuracy.plots import prevalence_sweep
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    prevalence_sweep(pd.read_csv(snakemake.input[0], sep="\t"), snakemake.output[0])
