"""Rule score_jayanetti2026_tie_rule: the human majority under one tie rule ({tie_rule}),
its label counts, and every rater's Cohen's kappa against it per framing.

``released`` reads the released majority columns as they are; the other rules re-vote
the six humans with ``reagree.stats.majority`` and recode the three-class majority into the
binary framings. Deterministic rules carry the pipeline's bootstrap interval
(config ``bootstrap``); ``random`` reports the median over its tie breaks and their
2.5 / 97.5 percentiles. Composition only: the statistics are reagree's.
"""
import numpy as np
import pandas as pd

from jayanetti2026.release import (FRAMINGS, HUMANS, MAJORITY, RATERS, SENTIMENT, TOOLS, against, framed,
                                   majority_name, provenance, read_release)
from reagree.stats.bootstrap import bootstrap_intervals, paired_difference
from reagree.stats.majority import label_counts, majority_vote, random_majorities
from reagree.stats.ratings import Ratings
from reagree.stats.reference import kappa_against_many, kappa_statistic, spread
from reagree.stats.references import cohen_against
from reagree.pipeline.rulekit import rule_log
from reagree.io.reads import sha256_read
from reagree.pipeline.tables import interval_columns, write_table, write_tsv, write_values
from jayanetti2026 import keys

KEEPS_EVERY_TWEET = ("neutral", "polar")  # a paired change needs the same tweets on both sides


def majorities(release, tie_rule, repetitions, seed):
    """Per framing, the majority labelling(s) as codes of shape (R, n); R = 1 unless random."""
    if tie_rule == "released":
        return {framing: ratings.select([MAJORITY]).codes.T for framing, ratings in release.ratings.items()}
    three = (random_majorities(release.humans, repetitions, seed) if tie_rule == "random"
             else majority_vote(release.humans, tie_rule)[None, :])
    columns = Ratings(three.T, SENTIMENT, tuple(f"labelling{r}" for r in range(three.shape[0])))
    return {framing: framed(columns, framing).codes.T for framing in FRAMINGS}


def deterministic_scores(release, tie_rule, references, bootstrap):
    """Each rater's kappa against the one labelling, with a bootstrap interval."""
    values, rows = [], []
    for framing, reference in references.items():
        raters = release.ratings[framing]
        statistics = [kappa_statistic(raters, rater, reference[0]) for rater in RATERS]
        intervals = bootstrap_intervals(statistics, bootstrap["draws"], bootstrap["seed"], bootstrap["level"])
        for rater, statistic, interval in zip(RATERS, statistics, intervals):
            kappa = statistic.value()
            values.append(keys.KAPPA.row(kappa, rater=rater, against=against(tie_rule), framing=framing,
                                         interval=interval, reference=cohen_against(raters, rater, reference[0])))
            rows.append({"tie_rule": tie_rule, "framing": framing, "rater": rater, "kappa": kappa,
                         "units": statistic.n_units, **interval_columns(interval)})
    values += [keys.TWEETS_SCORED.row(statistics[0].n_units, against=against(tie_rule),
                                      note="tweets in the comparison (a dropped tie leaves it)")]
    return values, rows, pd.DataFrame(columns=["draw", "framing", "rater", "kappa"])


def changes(release, tie_rule, references, bootstrap):
    """How far the rule moves each tool's kappa from the released majority's, with a paired
    interval (same tweets, same resamples). Only for rules that keep every tweet."""
    values = []
    for framing, reference in references.items():
        raters = release.ratings[framing]
        released = raters.select([MAJORITY]).codes[:, 0]
        for tool in TOOLS:
            change, interval = paired_difference(kappa_statistic(raters, tool, released),
                                                 kappa_statistic(raters, tool, reference[0]),
                                                 bootstrap["draws"], bootstrap["seed"], bootstrap["level"])
            values.append(keys.KAPPA_CHANGE.row(
                change, tool=tool, keeps_every_tweet=against(tie_rule), framing=framing, interval=interval,
                note=f"kappa against the '{tie_rule}' majority minus against the released one"))
    return values


def random_scores(release, tie_rule, references, level, seed):
    """Each rater's kappa against every random labelling: median and percentile spread."""
    values, rows, draws = [], [], []
    for framing, reference in references.items():
        raters = release.ratings[framing]
        for rater in RATERS:
            kappas = kappa_against_many(raters, rater, reference)
            median, interval = spread(kappas, level, seed=seed)
            values.append(keys.KAPPA_RANDOM.row(median, rater=rater, framing=framing, interval=interval,
                                                note=f"median over {kappas.size} random tie breaks; interval: their "
                                                     f"middle {level:.0%} (numpy.percentile)"))
            rows.append({"tie_rule": tie_rule, "framing": framing, "rater": rater, "kappa": median,
                         "units": raters.n_units, **interval_columns(interval)})
            if rater in TOOLS:
                draws.append(pd.DataFrame({"draw": np.arange(kappas.size), "framing": framing, "rater": rater,
                                           "kappa": kappas}))
    return values, rows, pd.concat(draws, ignore_index=True)


def counts(tie_rule, references, level, seed):
    """The majority's label counts per framing (median and spread for random)."""
    values = []
    for framing, reference in references.items():
        categories = FRAMINGS[framing][1]
        per_labelling = label_counts(reference, categories)           # (R, K)
        for code, category in enumerate(categories):
            where = {"majority": majority_name(tie_rule), "framing": framing, "category": category}
            if tie_rule == "random":
                median, interval = spread(per_labelling[:, code], level, seed=seed)
                values.append(keys.MAJORITY_LABELS.row(median, interval=interval, **where,
                                                       note=f"median over {len(per_labelling)} random tie breaks"))
            else:
                values.append(keys.MAJORITY_LABELS.row(int(per_labelling[0, code]), **where))
    return values


with rule_log(snakemake) as log:
    tie_rule = snakemake.wildcards.tie_rule
    settings, bootstrap = snakemake.params.settings, snakemake.params.bootstrap
    release = read_release(snakemake.input.labels)
    repetitions, seed = settings["random_tie_seeds"], settings["random_tie_seed"]
    references = majorities(release, tie_rule, repetitions, seed)
    log.info("tie rule %s: %d labelling(s) of %d tweets", tie_rule, len(references["three_class"]),
             release.three_class.n_units)
    if tie_rule == "random":
        values, rows, draws = random_scores(release, tie_rule, references, bootstrap["level"], seed)
        about = f"{repetitions} random tie breaks, default_rng({seed})"
    else:
        values, rows, draws = deterministic_scores(release, tie_rule, references, bootstrap)
        if tie_rule in KEEPS_EVERY_TWEET:
            values += changes(release, tie_rule, references, bootstrap)
        about = f"bootstrap {bootstrap['draws']} draws, seed {bootstrap['seed']}, level {bootstrap['level']}"
    values += counts(tie_rule, references, bootstrap["level"], seed)
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(rows), snakemake.output.table,
                f"Cohen's kappa of every rater against the human majority, tie rule '{tie_rule}'",
                provenance(release, sha256_read(release.path), tie_rule=tie_rule, intervals=about,
                           humans=", ".join(HUMANS)))
    write_tsv(draws, snakemake.output.draws)
    log.info("%d values", len(values))
