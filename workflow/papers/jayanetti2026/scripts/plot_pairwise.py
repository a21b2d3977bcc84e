"""Rule plot_jayanetti2026_pairwise: heatmap of pairwise kappa among the nine raters."""
import pandas as pd

from reagree.plots import pairwise_heatmaps
from reagree.rulekit import rule_log

with rule_log(snakemake):
    pairs = pd.read_csv(snakemake.input[0], sep="\t").rename(columns={"framing": "panel"})
    raters = list(dict.fromkeys(list(pairs["rater_a"]) + list(pairs["rater_b"])))
    pairwise_heatmaps(pairs, raters, list(dict.fromkeys(pairs["panel"])), snakemake.output[0],
                      "Jayanetti et al. (2026): pairwise Cohen's kappa, six humans and three tools")
