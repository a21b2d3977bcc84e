"""Rule compute_jayanetti2026_values: every number the paper and its replication print
that the released labels can reach. Composition only: the statistics are reagree's.

Units are the 100 tweets, identified by 0-based row (the replication's numbering) and
1-based file line. Framings: three-class, negative vs non-negative, positive vs
non-positive, each read from the released recoded columns; tie-rule variants recode a
re-voted three-class majority into the binary framings.
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
from reagree.tables import sha256_of, value_row, write_table, write_values

HUMANS = {f"rater{i}": f"sentiment_Rater{i}" for i in range(1, 7)}
TOOLS = {"textblob": "sentiment_textblob", "vader": "sentiment_VADER", "roberta": "sentiment_roBERTa"}
RATERS = {**HUMANS, **TOOLS}
MAJORITY = "majority_sentiment_human_raters"
SENTIMENT = ("negative", "neutral", "positive")
FRAMINGS = {  # framing: (column suffix, categories, recoding of the three classes)
    "three_class": ("", SENTIMENT, {c: c for c in SENTIMENT}),
    "neg_vs_rest": ("_NvsNonN", ("negative", "non-negative"),
                    {"negative": "negative", "neutral": "non-negative", "positive": "non-negative"}),
    "pos_vs_rest": ("_PvsNonP", ("non-positive", "positive"),
                    {"negative": "non-positive", "neutral": "non-positive", "positive": "positive"}),
}
TIE_RULES = {"ties_neutral": "prefer:neutral", "ties_dropped": "drop"}


def ratings_of(labels, framing, columns=None):
    """The released columns of one framing as Ratings (raters, then the majority)."""
    suffix, categories, _ = FRAMINGS[framing]
    columns = columns or {**RATERS, "majority": MAJORITY}
    frame = labels[[c + suffix for c in columns.values()]].set_axis(list(columns), axis=1)
    return Ratings.from_labels(frame, categories=categories, source=str(snakemake.input.labels))


def released_agreement(labels, values, pair_rows, majority_rows):
    """Fleiss per group, kappa against the released majority, all pairs; per framing."""
    for framing in FRAMINGS:
        everyone = ratings_of(labels, framing)
        humans, tools = everyone.select(list(HUMANS)), everyone.select(list(TOOLS))
        values += [value_row(f"fleiss.humans.{framing}", multirater.fleiss_kappa(humans.unit_counts())),
                   value_row(f"fleiss.tools.{framing}", multirater.fleiss_kappa(tools.unit_counts())),
                   value_row(f"ties.{framing}", int(tied_units(humans).sum()),
                             note="tweets whose six human votes split evenly between two labels")]
        for rater in RATERS:
            kappa = pairwise.cohen_kappa(pairwise.contingency_table(everyone, rater, "majority"))
            values.append(value_row(f"kappa.{rater}.vs_majority.{framing}", kappa))
            majority_rows.append({"framing": framing, "rater": rater, "tie_rule": "released", "kappa": kappa})
        for a, b in combinations(RATERS, 2):
            table = pairwise.contingency_table(everyone, a, b)
            pair_rows.append({"framing": framing, "rater_a": a, "rater_b": b, "n": int(table.sum()),
                              "agreement": multirater.percent_agreement(*counts_from_table(table)),
                              "kappa": pairwise.cohen_kappa(table)})


def ties_and_labels(labels, three, values):
    """Label counts, the 3-3 ties, how the release broke them; rows of the ties table."""
    humans = three.select(list(HUMANS))
    counts = humans.unit_counts()
    tied = tied_units(humans)
    released = three.codes[:, three.raters.index("majority")]
    shares = humans.category_shares()
    for code, name in enumerate(SENTIMENT):
        values += [value_row(f"majority.count.{name}", int((released == code).sum())),
                   value_row(f"labels.humans.percent.{name}", 100 * shares[code])]
        values += [value_row(f"labels.{tool}.count.{name}", int((three.select([tool]).codes == code).sum()))
                   for tool in TOOLS]
    for first, second in combinations(SENTIMENT, 2):
        split = (counts[:, SENTIMENT.index(first)] > 0) & (counts[:, SENTIMENT.index(second)] > 0)
        values.append(value_row(f"ties.three_class.{first}_{second}", int((tied & split).sum())))
    values.append(value_row("ties.three_class.resolved_polar",
                            int((tied & (released != SENTIMENT.index("neutral"))).sum())))
    values.append(value_row("majority.released_differs_on_untied",
                            int(((majority_vote(humans, "drop") != released) & ~tied).sum()),
                            note="untied tweets whose released majority is not the recomputed one"))
    contradicts = np.zeros(len(labels), dtype=bool)
    for framing in ("neg_vs_rest", "pos_vs_rest"):
        _, categories, recoding = FRAMINGS[framing]
        derived = three.select(["majority"]).recode(recoding, categories)
        contradicts |= ratings_of(labels, framing, {"majority": MAJORITY}).codes[:, 0] != derived.codes[:, 0]
    values.append(value_row("majority.binary_contradicts_three_class", int(contradicts.sum()),
                            note="rows " + ", ".join(str(r) for r in np.flatnonzero(contradicts))))
    return [{"row": int(row), "line": int(labels["line"].iloc[row]),
             **{f"votes_{name}": int(counts[row, code]) for code, name in enumerate(SENTIMENT)},
             "released_majority": SENTIMENT[released[row]],
             "released_neg_vs_rest": labels[MAJORITY + "_NvsNonN"].iloc[row],
             "released_pos_vs_rest": labels[MAJORITY + "_PvsNonP"].iloc[row]}
            for row in np.flatnonzero(tied)]


def tie_rule_variants(three, values, majority_rows):
    """Tools against the majority with the 3-3 ties re-voted under each tie rule."""
    humans = three.select(list(HUMANS))
    tied = tied_units(humans)
    released = three.codes[:, three.raters.index("majority")]
    for rule_name, tie_rule in TIE_RULES.items():
        voted = three.select(list(TOOLS)).with_column("majority", np.where(tied, majority_vote(humans, tie_rule),
                                                                            released))
        if rule_name == "ties_neutral":
            values += [value_row(f"majority.{rule_name}.count.{name}", int((voted.codes[:, -1] == code).sum()))
                       for code, name in enumerate(SENTIMENT)]
        for framing, (_, categories, recoding) in FRAMINGS.items():
            framed = voted.recode(recoding, categories)
            for tool in TOOLS:
                kappa = pairwise.cohen_kappa(pairwise.contingency_table(framed, tool, "majority"))
                values.append(value_row(f"kappa.{tool}.vs_majority_{rule_name}.{framing}", kappa))
                majority_rows.append({"framing": framing, "rater": tool, "tie_rule": rule_name, "kappa": kappa})


def intervals(labels, values, draws, seed, level):
    """Per-category kappa and the replication's bootstrap intervals (paired where a gain)."""
    counts = ratings_of(labels, "three_class").select(list(HUMANS)).unit_counts()
    values += [value_row(f"fleiss_category.humans.{name}", kappa)
               for name, kappa in zip(SENTIMENT, multirater.fleiss_category_kappas(counts))]
    setting = f"{draws} draws, seed {seed}"
    fleiss = {f: multirater.fleiss_statistic(ratings_of(labels, f).select(list(HUMANS)).unit_counts())
              for f in FRAMINGS}
    three = fleiss["three_class"]
    ends = percentile_interval(bootstrap([three], draws, seed)[0], level)
    rows = [value_row("bootstrap.fleiss.humans.three_class", three.estimate(), ends, note=setting)]
    for framing in ("neg_vs_rest", "pos_vs_rest"):
        gain, low, high = paired_difference(three, fleiss[framing], draws, seed, level)
        rows.append(value_row(f"bootstrap.fleiss_gain.humans.{framing}", gain, (low, high),
                              note=f"{framing} minus three_class, paired, {setting}"))
    roberta = {f: pairwise.cohen_statistic(ratings_of(labels, f), "roberta", "majority")
               for f in ("three_class", "pos_vs_rest")}
    gain, low, high = paired_difference(roberta["three_class"], roberta["pos_vs_rest"], draws, seed, level)
    rows.append(value_row("bootstrap.kappa_gain.roberta.vs_majority.pos_vs_rest", gain, (low, high),
                          note=f"pos_vs_rest minus three_class, paired, {setting}"))
    for row in rows:  # interval ends as keys of their own, so claims can name them
        values += [row, value_row(row["key"] + ".ci_low", row["ci_low"]),
                   value_row(row["key"] + ".ci_high", row["ci_high"])]


with rule_log(snakemake) as log:
    path = snakemake.input.labels
    columns = [c + suffix for suffix, _, _ in FRAMINGS.values() for c in [*RATERS.values(), MAJORITY]]
    labels = read_label_table(path, columns)
    for suffix, categories, _ in FRAMINGS.values():
        require_labels(labels[["line", *[c + suffix for c in [*RATERS.values(), MAJORITY]]]], categories, path)
    draws, seed, level = snakemake.params.draws, snakemake.params.seed, snakemake.params.level
    log.info("%d tweets; bootstrap %d draws, seed %d", len(labels), draws, seed)

    values, pair_rows, majority_rows = [], [], []
    released_agreement(labels, values, pair_rows, majority_rows)
    three = ratings_of(labels, "three_class")
    tie_rows = ties_and_labels(labels, three, values)
    tie_rule_variants(three, values, majority_rows)
    intervals(labels, values, draws, seed, level)

    provenance = {"paper": "jayanetti2026", "source": f"{path} (himarshaj/hard-to-reach-environments @ e74bb77)",
                  "sha256": sha256_of(path),
                  "units": f"{len(labels)} tweets; row = 0-based (the replication's numbering), line = 1-based",
                  "bootstrap": f"{draws} draws, seed {seed}, {level:.0%} percentile intervals"}
    write_values(values, snakemake.output.values)
    write_table(pd.DataFrame(pair_rows), snakemake.output.pairwise,
                "Pairwise Cohen's kappa and percent agreement among the nine raters", provenance)
    write_table(pd.DataFrame(tie_rows), snakemake.output.ties,
                "Tweets whose six human votes split 3-3 (three-class), and how the release broke them", provenance)
    write_table(pd.DataFrame(majority_rows), snakemake.output.against_majority,
                "Cohen's kappa against the human majority, by framing and tie rule", provenance)
    log.info("%d values written", len(values))
