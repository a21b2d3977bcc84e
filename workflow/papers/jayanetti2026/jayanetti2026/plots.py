"""The three figures of Jayanetti et al. (2026), recomputed from the released labels
(himarshaj/hard-to-reach-environments): pairwise kappa heatmaps, tool kappa by tie rule (a
dot plot: the tie rules are categories, not a scale) and the forest plot of intervals.
Each title names the paper and where its numbers come from. No statistic is computed
here; the functions return the (closed) figures so tests can read what was drawn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from jayanetti2026 import keys
from jayanetti2026.release import FRAMINGS, TOOLS
from reagree.plots import pairwise_heatmaps
from reagree.plots.intervals import dots_with_band, forest

NAMES = {"textblob": "TextBlob", "vader": "VADER", "roberta": "Twitter-RoBERTa"}
#: The framings in words, as panel titles.
FRAMING_WORDS = {
    "three_class": "three classes (negative, neutral, positive)",
    "neg_vs_rest": "negative vs the rest",
    "pos_vs_rest": "positive vs the rest",
}
SOURCE = "recomputed from the released labels"
WRITEUP = {  # value key -> label of the write-up's intervals in the forest plot
    keys.FLEISS.key(group="humans", framing="three_class"): "human Fleiss, three-class",
    keys.FLEISS_GAIN.key(binary="neg_vs_rest"): "human gain: neg vs rest minus three-class",
    keys.FLEISS_GAIN.key(binary="pos_vs_rest"): "human gain: pos vs rest minus three-class",
    keys.KAPPA_GAIN.key(): "RoBERTa: pos vs rest minus three-class",
    keys.KAPPA_WRITEUP_INTERVAL.key(): "RoBERTa: pos vs rest",
}


def pairwise(pairs: pd.DataFrame, path: str | Path):
    """``pairs``: columns framing, rater_a, rater_b, kappa; each pair drawn once."""
    pairs = pairs.rename(columns={"framing": "panel"})
    raters = list(dict.fromkeys(list(pairs["rater_a"]) + list(pairs["rater_b"])))
    return pairwise_heatmaps(
        pairs,
        raters,
        list(dict.fromkeys(pairs["panel"])),
        path,
        f"Jayanetti et al. (2026): pairwise Cohen's kappa, six humans and three tools ({SOURCE})",
        titles=FRAMING_WORDS,
    )


def tie_rules(scores: pd.DataFrame, rules: Sequence[str], path: str | Path):
    """``scores``: columns framing, tie_rule, rater, kappa, ci_low, ci_high (the tools only)."""
    frame = scores.rename(
        columns={
            "framing": "panel",
            "tie_rule": "condition",
            "rater": "series",
            "kappa": "value",
            "ci_low": "low",
            "ci_high": "high",
        }
    )
    frame["panel"] = frame["panel"].map(FRAMING_WORDS)
    return dots_with_band(
        frame,
        [r for r in rules if r != "random"],
        "random",
        [FRAMING_WORDS[f] for f in FRAMINGS],
        list(TOOLS),
        path,
        f"Jayanetti et al. (2026): tool kappa against the human majority by tie rule ({SOURCE})\n"
        "dots: one tie rule each; shaded: middle 95% of the random tie breaks; dashed: their median",
        "Cohen's kappa vs human majority",
        labels=NAMES,
    )


def intervals(
    scores: pd.DataFrame, rules: Sequence[str], writeup: pd.DataFrame, labels: Mapping[str, str], path: str | Path
):
    """``scores`` as for :func:`tie_rules`; ``writeup``: the write-up's values (key, value,
    ci_low, ci_high, scheme), drawn in the order and with the names of ``labels`` (key ->
    label)."""
    tools = scores.assign(
        rater=pd.Categorical(scores["rater"], list(TOOLS)), tie_rule=pd.Categorical(scores["tie_rule"], list(rules))
    )
    tools = tools.sort_values(["framing", "rater", "tie_rule"])
    frame = pd.DataFrame(
        {
            "panel": tools["framing"].astype(str).map(FRAMING_WORDS),
            "label": tools["rater"].map(NAMES).astype(str) + ", " + tools["tie_rule"].astype(str),
            "value": tools["kappa"],
            "low": tools["ci_low"],
            "high": tools["ci_high"],
            "group": tools["rater"].astype(str),
            "kind": (tools["tie_rule"] == "random").map({True: "spread", False: "interval"}),
        }
    )
    writeup = writeup.set_index("key").loc[list(labels)]
    panel = f"the write-up's intervals, under its own scheme\n({writeup['scheme'].iloc[0]})"
    frame = pd.concat(
        [
            frame,
            pd.DataFrame(
                {
                    "panel": panel,
                    "label": list(labels.values()),
                    "value": writeup["value"].to_numpy(),
                    "low": writeup["ci_low"].to_numpy(),
                    "high": writeup["ci_high"].to_numpy(),
                    "group": "write-up",
                    "kind": "interval",
                }
            ),
        ],
        ignore_index=True,
    )
    framings = [FRAMING_WORDS[f] for f in FRAMINGS]
    return forest(
        frame,
        [*framings, panel],
        path,
        f"Jayanetti et al. (2026): kappa against the human majority ({SOURCE})",
        {
            **{framing: "Cohen's kappa vs human majority" for framing in framings},
            panel: "kappa, or difference of kappas",
        },
        groups=[*TOOLS, "write-up"],
        shared=framings,
        annotate=[panel],
        kinds={
            "interval": "95% interval: reagree's percentile bootstrap over tweets (the write-up's: its own scheme)",
            "spread": "random tie rule: middle 95% of its seeded tie breaks (a spread, not an interval)",
        },
    )


def draw_figures(
    pairs: pd.DataFrame,
    tie_rule_tables: Sequence[pd.DataFrame],
    rules: Sequence[str],
    writeup: pd.DataFrame,
    paths: Mapping[str, str | Path],
) -> None:
    """The three figures of rule plot_jayanetti2026_figures in one job (one matplotlib start):
    ``paths["pairwise"]`` from ``pairs`` (the pairwise kappa table), ``paths["tie_rules"]``
    and ``paths["forest"]`` from the tools' rows of ``tie_rule_tables`` (one per rule of
    ``rules``) and, for the forest, the write-up's intervals among the values ``writeup``."""
    scores = pd.concat(list(tie_rule_tables), ignore_index=True)
    scores = scores[scores["rater"].isin(list(TOOLS))]
    pairwise(pairs, paths["pairwise"])
    tie_rules(scores, rules, paths["tie_rules"])
    intervals(scores, rules, writeup, WRITEUP, paths["forest"])
