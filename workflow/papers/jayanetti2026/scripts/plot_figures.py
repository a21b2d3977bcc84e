"""Rule plot_jayanetti2026_figures: the paper's three figures, drawn in one job (one
matplotlib start instead of three).

- pairwise_kappa.png: pairwise Cohen's kappa among the nine raters, one panel per framing.
- kappa_by_tie_rule.png: each tool's kappa against the human majority by tie rule, one
  panel per framing, the random rule's 2.5-97.5 percentile band shaded.
- intervals_forest.png: every tool's kappa per framing and tie rule with the pipeline's
  bootstrap interval (random: the spread of its tie breaks), and the write-up's five
  intervals under its own scheme.
"""
import pandas as pd

from jayanetti2026 import keys
from jayanetti2026.release import FRAMINGS, TOOLS
from reagree.plots.intervals import forest, lines_with_band
from reagree.plots import pairwise_heatmaps
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values

NAMES = {"textblob": "TextBlob", "vader": "VADER", "roberta": "Twitter-RoBERTa"}
WRITEUP = {  # value key -> label of the write-up's intervals
    keys.FLEISS.key(group="humans", framing="three_class"): "human Fleiss, three-class",
    keys.FLEISS_GAIN.key(binary="neg_vs_rest"): "human gain: neg vs rest minus three-class",
    keys.FLEISS_GAIN.key(binary="pos_vs_rest"): "human gain: pos vs rest minus three-class",
    keys.KAPPA_GAIN.key(): "RoBERTa: pos vs rest minus three-class",
    keys.KAPPA_WRITEUP_INTERVAL.key(): "RoBERTa: pos vs rest",
}


def plot_pairwise(pairs_path, path):
    pairs = pd.read_csv(pairs_path, sep="\t").rename(columns={"framing": "panel"})
    raters = list(dict.fromkeys(list(pairs["rater_a"]) + list(pairs["rater_b"])))
    pairwise_heatmaps(pairs, raters, list(dict.fromkeys(pairs["panel"])), path,
                      "Jayanetti et al. (2026): pairwise Cohen's kappa, six humans and three tools")


def plot_tie_rules(scores, tie_rules, path):
    frame = scores.rename(columns={"framing": "panel", "tie_rule": "condition", "rater": "series",
                                   "kappa": "value", "ci_low": "low", "ci_high": "high"})
    lines_with_band(frame, [r for r in tie_rules if r != "random"], "random", list(FRAMINGS), list(TOOLS), path,
                    "Jayanetti et al. (2026): tool kappa against the human majority by tie rule\n"
                    "(shaded: middle 95% of the random tie breaks; dashed: their median)",
                    "Cohen's kappa vs human majority", labels=NAMES)


def plot_forest(scores, tie_rules, writeup_values_path, path):
    tools = scores.assign(rater=pd.Categorical(scores["rater"], list(TOOLS)),
                          tie_rule=pd.Categorical(scores["tie_rule"], list(tie_rules)))
    tools = tools.sort_values(["framing", "rater", "tie_rule"])
    frame = pd.DataFrame({"panel": tools["framing"].astype(str),
                          "label": tools["rater"].map(NAMES).astype(str) + ", " + tools["tie_rule"].astype(str),
                          "value": tools["kappa"], "low": tools["ci_low"], "high": tools["ci_high"],
                          "group": tools["rater"].astype(str),
                          "kind": (tools["tie_rule"] == "random").map({True: "spread", False: "interval"})})
    writeup = read_values(writeup_values_path).set_index("key").loc[list(WRITEUP)]
    panel = f"the write-up's intervals\n({writeup['scheme'].iloc[0]})"
    frame = pd.concat([frame, pd.DataFrame({"panel": panel, "label": list(WRITEUP.values()),
                                            "value": writeup["value"].to_numpy(),
                                            "low": writeup["ci_low"].to_numpy(),
                                            "high": writeup["ci_high"].to_numpy(), "group": "write-up",
                                            "kind": "interval"})], ignore_index=True)
    forest(frame, [*FRAMINGS, panel], path,
           "Jayanetti et al. (2026): kappa against the human majority, 95% intervals\n"
           "(filled: bootstrap over tweets; hollow: spread of random tie breaks)",
           {**{framing: "Cohen's kappa vs human majority" for framing in FRAMINGS},
            panel: "kappa, or difference of kappas"}, groups=[*TOOLS, "write-up"], shared=list(FRAMINGS),
           annotate=[panel])


with rule_log(snakemake):
    rules = list(snakemake.params.tie_rules)
    scores = pd.concat([pd.read_csv(p, sep="\t") for p in snakemake.input.tie_rules], ignore_index=True)
    scores = scores[scores["rater"].isin(list(TOOLS))]
    plot_pairwise(snakemake.input.pairwise, snakemake.output.pairwise)
    plot_tie_rules(scores, rules, snakemake.output.tie_rules)
    plot_forest(scores, rules, snakemake.input.writeup, snakemake.output.forest)
