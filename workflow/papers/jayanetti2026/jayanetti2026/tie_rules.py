"""The human majority of jayanetti2026 under each tie rule, and the tools' kappas side by side
across the rules.

``score_tie_rule`` (rule score_jayanetti2026_tie_rule, one rule): the majority under the
tie rule, its label counts, and every rater's Cohen's kappa against it per framing.
``released`` reads the released majority columns as they are; the other rules re-vote the
six humans with ``reagree.stats.majority`` and recode the three-class majority into the
binary framings. Deterministic rules carry the pipeline's bootstrap interval (config
``bootstrap``); ``random`` reports the median over its tie breaks and their 2.5 / 97.5
percentiles.

``compare_tie_rules`` (rule compare_jayanetti2026_tie_rules): the ranking table marks, per
framing and tie rule, the tools' order and every pair that swaps against the released
majority; for ``random``, the order of the medians and the share of tie breaks under which
any pair swaps. Values: the lowest and highest kappa of each tool over the deterministic
rules, the number of swapped pairs per rule, and the random rule's share of reordering tie
breaks (``reagree.stats.reference``). The statistics are reagree's.
"""

from __future__ import annotations

import logging
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from reagree.io.reads import sha256_read
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table, interval_columns
from reagree.stats.bootstrap import bootstrap_intervals, paired_difference
from reagree.stats.majority import DETERMINISTIC_RULES, label_counts, majority_vote, random_majorities
from reagree.stats.ratings import Ratings
from reagree.stats.reference import kappa_against_many, kappa_statistic, range_over, ranking_table, spread
from reagree.stats.references import cohen_against

from jayanetti2026 import keys
from jayanetti2026.release import (
    FRAMINGS,
    HUMANS,
    MAJORITY,
    RATERS,
    SENTIMENT,
    TOOLS,
    Release,
    against,
    framed,
    majority_name,
    provenance,
)

BASELINE = "released"
KEEPS_EVERY_TWEET = ("neutral", "polar")  # a paired change needs the same tweets on both sides


def majorities(release: Release, tie_rule: str, repetitions: int, seed: int) -> dict[str, np.ndarray]:
    """Per framing, the majority labelling(s) as codes of shape (R, n); R = 1 unless random."""
    if tie_rule == "released":
        return {framing: ratings.select([MAJORITY]).codes.T for framing, ratings in release.ratings.items()}
    three = (
        random_majorities(release.humans, repetitions, seed)
        if tie_rule == "random"
        else majority_vote(release.humans, tie_rule)[None, :]
    )
    columns = Ratings(three.T, SENTIMENT, tuple(f"labelling{r}" for r in range(three.shape[0])))
    return {framing: framed(columns, framing).codes.T for framing in FRAMINGS}


def deterministic_scores(
    release: Release, tie_rule: str, references: Mapping[str, np.ndarray], bootstrap: Mapping[str, float]
) -> tuple[list[dict], list[dict], pd.DataFrame]:
    """Each rater's kappa against the one labelling, with a bootstrap interval."""
    values, rows = [], []
    for framing, reference in references.items():
        raters = release.ratings[framing]
        statistics = [kappa_statistic(raters, rater, reference[0]) for rater in RATERS]
        intervals = bootstrap_intervals(statistics, bootstrap["draws"], bootstrap["seed"], bootstrap["level"])
        for rater, statistic, interval in zip(RATERS, statistics, intervals):
            kappa = statistic.value()
            values.append(
                keys.KAPPA.row(
                    kappa,
                    rater=rater,
                    against=against(tie_rule),
                    framing=framing,
                    interval=interval,
                    reference=cohen_against(raters, rater, reference[0]),
                )
            )
            rows.append(
                {
                    "tie_rule": tie_rule,
                    "framing": framing,
                    "rater": rater,
                    "kappa": kappa,
                    "units": statistic.n_units,
                    **interval_columns(interval),
                }
            )
    values += [
        keys.TWEETS_SCORED.row(
            statistics[0].n_units, against=against(tie_rule), note="tweets in the comparison (a dropped tie leaves it)"
        )
    ]
    return values, rows, pd.DataFrame(columns=["draw", "framing", "rater", "kappa"])


def changes(
    release: Release, tie_rule: str, references: Mapping[str, np.ndarray], bootstrap: Mapping[str, float]
) -> list[dict]:
    """How far the rule moves each tool's kappa from the released majority's, with a paired
    interval (same tweets, same resamples). Only for rules that keep every tweet."""
    values = []
    for framing, reference in references.items():
        raters = release.ratings[framing]
        released = raters.select([MAJORITY]).codes[:, 0]
        for tool in TOOLS:
            change, interval = paired_difference(
                kappa_statistic(raters, tool, released),
                kappa_statistic(raters, tool, reference[0]),
                bootstrap["draws"],
                bootstrap["seed"],
                bootstrap["level"],
            )
            values.append(
                keys.KAPPA_CHANGE.row(
                    change,
                    tool=tool,
                    keeps_every_tweet=against(tie_rule),
                    framing=framing,
                    interval=interval,
                    note=f"kappa against the '{tie_rule}' majority minus against the released one",
                )
            )
    return values


def random_scores(
    release: Release, tie_rule: str, references: Mapping[str, np.ndarray], level: float, seed: int
) -> tuple[list[dict], list[dict], pd.DataFrame]:
    """Each rater's kappa against every random labelling: median and percentile spread."""
    values, rows, draws = [], [], []
    for framing, reference in references.items():
        raters = release.ratings[framing]
        for rater in RATERS:
            kappas = kappa_against_many(raters, rater, reference)
            median, interval = spread(kappas, level, seed=seed)
            values.append(
                keys.KAPPA_RANDOM.row(
                    median,
                    rater=rater,
                    framing=framing,
                    interval=interval,
                    note=f"median over {kappas.size} random tie breaks; interval: their "
                    f"middle {level:.0%} (numpy.percentile)",
                )
            )
            rows.append(
                {
                    "tie_rule": tie_rule,
                    "framing": framing,
                    "rater": rater,
                    "kappa": median,
                    "units": raters.n_units,
                    **interval_columns(interval),
                }
            )
            if rater in TOOLS:
                draws.append(
                    pd.DataFrame({"draw": np.arange(kappas.size), "framing": framing, "rater": rater, "kappa": kappas})
                )
    return values, rows, pd.concat(draws, ignore_index=True)


def counts(tie_rule: str, references: Mapping[str, np.ndarray], level: float, seed: int) -> list[dict]:
    """The majority's label counts per framing (median and spread for random)."""
    values = []
    for framing, reference in references.items():
        categories = FRAMINGS[framing][1]
        per_labelling = label_counts(reference, categories)  # (R, K)
        for code, category in enumerate(categories):
            where = {"majority": majority_name(tie_rule), "framing": framing, "category": category}
            if tie_rule == "random":
                median, interval = spread(per_labelling[:, code], level, seed=seed)
                values.append(
                    keys.MAJORITY_LABELS.row(
                        median, interval=interval, **where, note=f"median over {len(per_labelling)} random tie breaks"
                    )
                )
            else:
                values.append(keys.MAJORITY_LABELS.row(int(per_labelling[0, code]), **where))
    return values


def score_tie_rule(
    release: Release,
    tie_rule: str,
    settings: Mapping[str, object],
    bootstrap: Mapping[str, float],
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """Every rater's kappa against the majority under ``tie_rule`` (the paper's settings:
    ``random_tie_seeds`` and ``random_tie_seed``; the pipeline's ``bootstrap``), the change
    from the released majority's where the rule keeps every tweet, the majority's label
    counts; the table ``table`` and the frame ``draws`` (each random tie break's tool kappas)."""
    log = log or logging.getLogger(__name__)
    repetitions, seed = settings["random_tie_seeds"], settings["random_tie_seed"]
    references = majorities(release, tie_rule, repetitions, seed)
    log.info(
        "tie rule %s: %d labelling(s) of %d tweets",
        tie_rule,
        len(references["three_class"]),
        release.three_class.n_units,
    )
    if tie_rule == "random":
        values, rows, draws = random_scores(release, tie_rule, references, bootstrap["level"], seed)
        about = f"{repetitions} random tie breaks, default_rng({seed})"
    else:
        values, rows, draws = deterministic_scores(release, tie_rule, references, bootstrap)
        if tie_rule in KEEPS_EVERY_TWEET:
            values += changes(release, tie_rule, references, bootstrap)
        about = f"bootstrap {bootstrap['draws']} draws, seed {bootstrap['seed']}, level {bootstrap['level']}"
    values += counts(tie_rule, references, bootstrap["level"], seed)
    log.info("%d values", len(values))
    return RuleOutputs(
        values=values,
        frames={"draws": draws},
        tables={
            "table": Table(
                pd.DataFrame(rows),
                f"Cohen's kappa of every rater against the human majority, tie rule '{tie_rule}'",
                provenance(
                    release, sha256_read(release.path), tie_rule=tie_rule, intervals=about, humans=", ".join(HUMANS)
                ),
            )
        },
    )


def compare_tie_rules(
    release: Release,
    tables: Sequence[pd.DataFrame],
    tie_rules: Sequence[str],
    draw_tables: Sequence[pd.DataFrame],
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """The tools' kappas across ``tie_rules`` (``tables``: ``score_tie_rule``'s tables;
    ``draw_tables``: its draws, one per rule in the same order), as values and the ranking
    table ``table``."""
    log = log or logging.getLogger(__name__)
    scores = pd.concat(list(tables), ignore_index=True)
    kappas = scores[scores["rater"].isin(list(TOOLS))].rename(columns={"tie_rule": "reference"})
    draws = {}
    for rule, drawn in zip(tie_rules, draw_tables):
        for framing, group in drawn.groupby("framing", sort=False):
            draws[(framing, rule)] = {tool: rows["kappa"].to_numpy() for tool, rows in group.groupby("rater")}
    table = ranking_table(kappas[["framing", "reference", "rater", "kappa"]], BASELINE, draws)
    deterministic = [BASELINE, *(r for r in tie_rules if r in DETERMINISTIC_RULES)]
    values = []
    for row in range_over(kappas, deterministic).itertuples(index=False):
        note = "over tie rules " + ", ".join(deterministic)
        values += [
            keys.KAPPA_MIN.row(
                row.low, tool=row.rater, framing=row.framing, note=f"{note}; lowest under {row.low_under}"
            ),
            keys.KAPPA_MAX.row(
                row.high, tool=row.rater, framing=row.framing, note=f"{note}; highest under {row.high_under}"
            ),
        ]
    for row in table.itertuples(index=False):
        if row.reference != BASELINE:
            values.append(
                keys.TOOL_PAIRS_SWAPPED.row(
                    getattr(row, f"swaps_vs_{BASELINE}"),
                    against_rule=against(row.reference),
                    framing=row.framing,
                    note=f"tool pairs ordered differently than under the released majority: "
                    f"{getattr(row, f'swapped_vs_{BASELINE}')}",
                )
            )
        if (row.framing, row.reference) in draws:
            values.append(
                keys.SHARE_REORDERED.row(
                    row.share_of_draws_reordered,
                    framing=row.framing,
                    note="share of random tie breaks under which any tool pair swaps",
                )
            )
    log.info("%d values", len(values))
    return RuleOutputs(
        values=values,
        tables={
            "table": Table(
                table,
                "Tool kappas and rankings by tie rule; pairs that swap against the released majority",
                provenance(
                    release,
                    sha256_read(release.path),
                    tie_rules=", ".join(tie_rules),
                    random="kappa = median over the random tie breaks",
                ),
            )
        },
    )
