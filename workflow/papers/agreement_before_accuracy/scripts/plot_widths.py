"""Rule plot_agreement_before_accuracy_widths: bootstrap interval width against the number
of items."""
import pandas as pd

from reagree.plots import lines
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    widths = pd.read_csv(snakemake.input[0], sep="\t")
    lines(widths, "n", ["kappa_width", "alpha_width"], snakemake.output[0],
          "95% bootstrap interval width (2,000 draws)", "items", "interval width", logx=True,
          labels={"kappa_width": "Cohen's kappa, 2 coders", "alpha_width": "nominal alpha, 3 coders"})
