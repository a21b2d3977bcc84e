"""Rule plot_jayanetti2026_figures: the paper's three figures, drawn in one job (one
matplotlib start instead of three).

- pairwise_kappa.png: pairwise Cohen's kappa among the nine raters, one panel per framing.
- kappa_by_tie_rule.png: each tool's kappa against the human majority by tie rule (a dot
  per rule), one panel per framing, the random rule's 2.5-97.5 percentile band shaded.
- intervals_forest.png: every tool's kappa per framing and tie rule with the pipeline's
  bootstrap interval (random: the spread of its tie breaks), and the write-up's five
  intervals under its own scheme.
"""
import pandas as pd

from jayanetti2026 import keys, plots
from jayanetti2026.release import TOOLS
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values

WRITEUP = {  # value key -> label of the write-up's intervals
    keys.FLEISS.key(group="humans", framing="three_class"): "human Fleiss, three-class",
    keys.FLEISS_GAIN.key(binary="neg_vs_rest"): "human gain: neg vs rest minus three-class",
    keys.FLEISS_GAIN.key(binary="pos_vs_rest"): "human gain: pos vs rest minus three-class",
    keys.KAPPA_GAIN.key(): "RoBERTa: pos vs rest minus three-class",
    keys.KAPPA_WRITEUP_INTERVAL.key(): "RoBERTa: pos vs rest",
}

with rule_log(snakemake):
    rules = list(snakemake.params.tie_rules)
    scores = pd.concat([pd.read_csv(p, sep="\t") for p in snakemake.input.tie_rules], ignore_index=True)
    scores = scores[scores["rater"].isin(list(TOOLS))]
    plots.pairwise(pd.read_csv(snakemake.input.pairwise, sep="\t"), snakemake.output.pairwise)
    plots.tie_rules(scores, rules, snakemake.output.tie_rules)
    plots.intervals(scores, rules, read_values(snakemake.input.writeup), WRITEUP, snakemake.output.forest)
