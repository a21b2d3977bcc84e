"""Rule compute_jayanetti2026_values: every number the paper and its replication print
that the released labels can reach. Composition only: the statistics are reagree's.

Units are the 100 tweets, identified by 0-based row (the replication's numbering) and
1-based file line. Framings: three-class, negative vs non-negative, positive vs
non-positive, each read from the released recoded columns.
"""
from itertools import combinations

import numpy as np
import pandas as pd

from reagree import multirater, pairwise
from reagree.bootstrap import bootstrap, paired_difference, percentile_interval
from reagree.majority import majority_vote, tied_units
from reagree.ratings import Ratings, counts_from_table
from reagree.readers import read_label_table, require_labels
from reagree.rulekit import rule_log
from reagree.tables import value_row, write_table, write_values

HUMANS = {f"rater{i}": f"sentiment_Rater{i}" for i in range(1, 7)}
TOOLS = {"textblob": "sentiment_textblob", "vader": "sentiment_VADER", "roberta": "sentiment_roBERTa"}
MAJORITY = "majority_sentiment_human_raters"
FRAMINGS = {  # key: (column suffix, categories in order)
    "three_class": ("", ("negative", "neutral", "positive")),
    "neg_vs_rest": ("_NvsNonN", ("negative", "non-negative")),
    "pos_vs_rest": ("_PvsNonP", ("non-positive", "positive")),
}


def ratings_of(labels, columns, framing):
    suffix, categories = FRAMINGS[framing]
    frame = labels[[c + suffix for c in columns.values()]]
    frame.columns = list(columns)
    return Ratings.from_labels(frame, categories=categories, source=str(snakemake.input.labels))


def collapse(codes, categories, framing):
    """Three-class codes recoded to a binary framing (MISSING stays missing)."""
    names = np.array(list(categories) + [None], dtype=object)[codes]
    if framing == "neg_vs_rest":
        names = np.where(names == None, None, np.where(names == "negative", "negative", "non-negative"))  # noqa: E711
    elif framing == "pos_vs_rest":
        names = np.where(names == None, None, np.where(names == "positive", "positive", "non-positive"))  # noqa: E711
    return names


with rule_log(snakemake) as log:
    path = snakemake.input.labels
    all_columns = [c + FRAMINGS[f][0] for f in FRAMINGS for c in [*HUMANS.values(), *TOOLS.values(), MAJORITY]]
    labels = read_label_table(path, all_columns)
    for framing, (suffix, categories) in FRAMINGS.items():
        columns = [c + suffix for c in [*HUMANS.values(), *TOOLS.values(), MAJORITY]]
        require_labels(labels[["line", *columns]], categories, path)
    raters = {**HUMANS, **TOOLS}
    values, pair_rows, majority_rows = [], [], []
    draws, seed, level = snakemake.params.draws, snakemake.params.seed, snakemake.params.level
    log.info("%d tweets; bootstrap %d draws, seed %d", len(labels), draws, seed)

    fleiss_statistics = {}
    for framing in FRAMINGS:
        everyone = ratings_of(labels, {**raters, "majority": MAJORITY}, framing)
        humans, tools = everyone.select(list(HUMANS)), everyone.select(list(TOOLS))
        fleiss_statistics[framing] = multirater.fleiss_statistic(humans.unit_counts())
        values += [value_row(f"fleiss.humans.{framing}", multirater.fleiss_kappa(humans.unit_counts())),
                   value_row(f"fleiss.tools.{framing}", multirater.fleiss_kappa(tools.unit_counts()))]
        for rater in raters:
            kappa = pairwise.cohen_kappa(pairwise.contingency_table(everyone, rater, "majority"))
            values.append(value_row(f"kappa.{rater}.vs_majority.{framing}", kappa))
            majority_rows.append({"framing": framing, "rater": rater, "tie_rule": "released", "kappa": kappa})
        for a, b in combinations(raters, 2):
            table = pairwise.contingency_table(everyone, a, b)
            pair_rows.append({"framing": framing, "rater_a": a, "rater_b": b, "n": int(table.sum()),
                              "agreement": multirater.percent_agreement(*counts_from_table(table)),
                              "kappa": pairwise.cohen_kappa(table)})
        values.append(value_row(f"ties.{framing}", int(tied_units(humans).sum()),
                                note="units whose six human votes split evenly between two labels"))

    # The released three-class majority, its ties and how they were broken.
    three = ratings_of(labels, {**raters, "majority": MAJORITY}, "three_class")
    humans3 = three.select(list(HUMANS))
    categories3 = FRAMINGS["three_class"][1]
    released = three.codes[:, three.raters.index("majority")]
    tied = tied_units(humans3)
    for code, name in enumerate(categories3):
        values.append(value_row(f"majority.count.{name}", int((released == code).sum())))
    neutral = categories3.index("neutral")
    human_labels = humans3.unit_counts().sum(axis=0)
    for code, name in enumerate(categories3):
        values.append(value_row(f"labels.humans.percent.{name}", 100 * human_labels[code] / human_labels.sum()))
        for tool in TOOLS:
            values.append(value_row(f"labels.{tool}.count.{name}", int((three.codes[:, three.raters.index(tool)] == code).sum())))
    split = humans3.unit_counts()[tied] > 0
    for first, second in (("negative", "neutral"), ("neutral", "positive"), ("negative", "positive")):
        pair = split[:, categories3.index(first)] & split[:, categories3.index(second)]
        values.append(value_row(f"ties.three_class.{first}_{second}", int(pair.sum())))
    values.append(value_row("ties.three_class.resolved_polar", int((tied & (released != neutral)).sum())))
    recomputed = majority_vote(humans3, "drop")
    values.append(value_row("majority.released_differs_on_untied", int(((recomputed != released) & ~tied).sum()),
                            note="untied tweets where the released majority is not the recomputed one"))
    contradictions = np.zeros(len(labels), dtype=bool)
    for framing in ("neg_vs_rest", "pos_vs_rest"):
        binary = ratings_of(labels, {"majority": MAJORITY}, framing)
        derived = collapse(released, categories3, framing)
        contradictions |= np.array(binary.labels()["majority"]) != derived
    values.append(value_row("majority.binary_contradicts_three_class", int(contradictions.sum()),
                            note="rows " + ", ".join(str(r) for r in np.flatnonzero(contradictions))))

    # Other tie rules: ties to neutral, ties dropped (the replication's two alternatives).
    counts3 = humans3.unit_counts()
    tie_rows = []
    for row in np.flatnonzero(tied):
        votes = dict(zip(categories3, counts3[row]))
        tie_rows.append({"row": int(row), "line": int(labels["line"].iloc[row]),
                         **{f"votes_{k}": int(v) for k, v in votes.items()},
                         "released_majority": categories3[released[row]],
                         "released_neg_vs_rest": labels[MAJORITY + "_NvsNonN"].iloc[row],
                         "released_pos_vs_rest": labels[MAJORITY + "_PvsNonP"].iloc[row]})
    rules = {"ties_neutral": "prefer:neutral", "ties_dropped": "drop"}
    for rule_name, tie_rule in rules.items():
        voted = np.where(tied, majority_vote(humans3, tie_rule), released)
        if rule_name == "ties_neutral":
            for code, name in enumerate(categories3):
                values.append(value_row(f"majority.{rule_name}.count.{name}", int((voted == code).sum())))
        for framing, (_, categories) in FRAMINGS.items():
            majority_labels = collapse(voted, categories3, framing)
            for tool in TOOLS:
                tool_labels = collapse(three.codes[:, three.raters.index(tool)], categories3, framing)
                both = Ratings.from_labels(pd.DataFrame({"tool": tool_labels, "majority": majority_labels}),
                                           categories=categories)
                kappa = pairwise.cohen_kappa(pairwise.contingency_table(both, "tool", "majority"))
                values.append(value_row(f"kappa.{tool}.vs_majority_{rule_name}.{framing}", kappa))
                majority_rows.append({"framing": framing, "rater": tool, "tie_rule": rule_name, "kappa": kappa})

    # Per-category kappa of the humans, and bootstrap intervals (the replication's Section 4).
    for name, kappa in zip(categories3, multirater.fleiss_category_kappas(counts3)):
        values.append(value_row(f"fleiss_category.humans.{name}", kappa))
    human3 = fleiss_statistics["three_class"]
    low, high = percentile_interval(bootstrap([human3], draws, seed)[0], level)
    values.append(value_row("bootstrap.fleiss.humans.three_class", human3.estimate(), (low, high),
                            note=f"{draws} draws, seed {seed}"))
    for framing in ("neg_vs_rest", "pos_vs_rest"):
        gain, low, high = paired_difference(human3, fleiss_statistics[framing], draws, seed, level)
        values.append(value_row(f"bootstrap.fleiss_gain.humans.{framing}", gain, (low, high),
                                note=f"{framing} minus three_class, {draws} paired draws, seed {seed}"))
    roberta = {}
    for framing in ("three_class", "pos_vs_rest"):
        everyone = ratings_of(labels, {"roberta": TOOLS["roberta"], "majority": MAJORITY}, framing)
        roberta[framing] = pairwise.cohen_statistic(everyone, "roberta", "majority")
    gain, low, high = paired_difference(roberta["three_class"], roberta["pos_vs_rest"], draws, seed, level)
    values.append(value_row("bootstrap.kappa_gain.roberta.vs_majority.pos_vs_rest", gain, (low, high),
                            note=f"pos_vs_rest minus three_class, {draws} paired draws, seed {seed}"))
    interval_rows = [r for r in values if r["key"].startswith("bootstrap.")]
    for r in interval_rows:
        values.append(value_row(r["key"] + ".ci_low", r["ci_low"]))
        values.append(value_row(r["key"] + ".ci_high", r["ci_high"]))

    provenance = {"paper": "jayanetti2026", "source": f"{path} (himarshaj/hard-to-reach-environments @ e74bb77)",
                  "units": f"{len(labels)} tweets, 0-based row = replication numbering, line = 1-based file line"}
    write_values(values, snakemake.output.values)
    write_table(pd.DataFrame(pair_rows), snakemake.output.pairwise,
                "Pairwise Cohen's kappa and percent agreement among the nine raters", provenance)
    write_table(pd.DataFrame(tie_rows), snakemake.output.ties,
                "Tweets whose six human votes split 3-3 (three-class), and how the release broke them", provenance)
    write_table(pd.DataFrame(majority_rows), snakemake.output.against_majority,
                "Cohen's kappa against the human majority, by framing and tie rule", provenance)
    log.info("%d values written", len(values))
