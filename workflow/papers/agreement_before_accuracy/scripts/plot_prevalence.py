"""Rule plot_agreement_before_accuracy_prevalence: kappa, PABAK and AC1 against prevalence."""
import pandas as pd

from reagree.plots import lines
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    sweep = pd.read_csv(snakemake.input[0], sep="\t")
    lines(sweep, "prevalence", ["kappa", "pabak", "ac1"], snakemake.output[0],
          "Observed agreement held at 0.900", "prevalence of the rare class", "coefficient", logx=True,
          labels={"kappa": "Cohen's kappa", "pabak": "PABAK", "ac1": "Gwet's AC1"})
