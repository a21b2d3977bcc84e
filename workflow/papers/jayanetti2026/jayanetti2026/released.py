"""What the released labels of jayanetti2026 say before any tie rule (rule
score_jayanetti2026_released: ``score_released``).

How many tweets the release holds; Fleiss' kappa of the humans and of the tools per
framing, the humans' per-category kappas and their p(1-p)-weighted mean, label counts and
shares, pairwise kappa among the nine raters, and the 3-3 ties: how many, of which kind, where the release put each kind
(counts and rows; the ties table, with an excerpt of the text the tools read). The months
the tweets were posted, from the ids in their URLs. And the write-up's own intervals, drawn
under its scheme ("numpy": default_rng(seed), one integers(0, n, size=n) per draw,
numpy.percentile ends): human Fleiss three-class, the binary framings' gains over it
(paired), RoBERTa's positive-vs-rest minus three-class kappa and its positive-vs-rest kappa
against the released columns. Every Fleiss and Cohen kappa carries statsmodels' or
scikit-learn's value beside it (``reference``). The statistics are reagree's.
"""

from __future__ import annotations

import logging
from itertools import combinations
from typing import Mapping

import pandas as pd

from reagree.io.reads import sha256_read
from reagree.methods.snowflake import posting_months
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.stats import multirater, pairwise
from reagree.stats.bootstrap import bootstrap_interval, paired_difference
from reagree.stats.majority import (
    differing_units,
    disagreements_on_untied,
    label_counts,
    percent_tied,
    tie_kinds,
    tie_resolutions,
    tie_table,
    tied_units,
    ties_resolved_away_from,
)
from reagree.stats.ratings import counts_from_table
from reagree.stats.reference import kappa_statistic
from reagree.stats.references import cohen_against, fleiss_category_reference, fleiss_reference

from jayanetti2026 import keys
from jayanetti2026.release import (
    FRAMINGS,
    HUMANS,
    MAJORITY,
    RATERS,
    SENTIMENT,
    TOOLS,
    TRANSLATED,
    Release,
    framed,
    provenance,
    status_ids,
)
from jayanetti2026.toolrerun import excerpt

WRITEUP = "numpy"  # the write-up's resampling scheme (reagree.stats.bootstrap)


def agreement(release: Release) -> tuple[list[dict], list[dict]]:
    """Fleiss per group and tie counts per framing; every pair of the nine raters."""
    values, pairs = [], []
    for framing, ratings in release.ratings.items():
        humans, tools = ratings.select(list(HUMANS)), ratings.select(list(TOOLS))
        if framing != "three_class":  # three-class carries the write-up's interval (writeup_intervals)
            values.append(
                keys.FLEISS.row(
                    multirater.fleiss_kappa(humans.unit_counts()),
                    group="humans",
                    framing=framing,
                    reference=fleiss_reference(humans.unit_counts()),
                )
            )
        values += [
            keys.FLEISS.row(
                multirater.fleiss_kappa(tools.unit_counts()),
                group="tools",
                framing=framing,
                reference=fleiss_reference(tools.unit_counts()),
            ),
            keys.TIES.row(
                int(tied_units(humans).sum()),
                framing=framing,
                note="tweets whose six human votes split evenly between labels",
            ),
        ]
        for a, b in combinations(RATERS, 2):
            table = pairwise.contingency_table(ratings, a, b)
            counts, weights = counts_from_table(table)
            pairs.append(
                {
                    "framing": framing,
                    "rater_a": a,
                    "rater_b": b,
                    "n": int(table.sum()),
                    "agreement": multirater.percent_agreement(counts, weights),
                    "kappa": pairwise.cohen_kappa(table),
                }
            )
    return values, pairs


def labels_and_ties(release: Release, characters: int) -> tuple[list[dict], pd.DataFrame]:
    """Label counts and shares; the ties, their kinds and how the release broke them."""
    three, humans = release.three_class, release.humans
    released = three.codes[:, three.raters.index(MAJORITY)]
    values = [keys.TWEETS.row(three.n_units, note="rows of the release, each labelled by all nine raters")]
    values += [
        keys.FLEISS_CATEGORY.row(kappa, category=name, reference=fleiss_category_reference(humans.unit_counts(), code))
        for code, (name, kappa) in enumerate(zip(SENTIMENT, multirater.fleiss_category_kappas(humans.unit_counts())))
    ]
    values.append(
        keys.CATEGORY_MEAN.row(
            multirater.fleiss_category_weighted_mean(humans.unit_counts()),
            note="the category kappas' mean weighted by p(1-p)",
        )
    )
    values += [
        keys.LABEL_SHARE.row(100 * share, category=name) for name, share in zip(SENTIMENT, humans.category_shares())
    ]
    for tool in TOOLS:
        values += [
            keys.TOOL_LABELS.row(int(count), tool=tool, category=name)
            for name, count in zip(SENTIMENT, label_counts(three.select([tool]).codes[:, 0], SENTIMENT))
        ]
    values += [keys.TIE_KINDS.row(count, tie_kind=kind) for kind, count in tie_kinds(humans).items()]
    values.append(
        keys.TIES_RESOLVED_POLAR.row(
            ties_resolved_away_from(humans, released, "neutral"),
            note="3-3 ties the released majority broke toward a polar label",
        )
    )
    values.append(
        keys.MAJORITY_DIFFERS_ON_UNTIED.row(
            len(disagreements_on_untied(humans, released)),
            note="untied tweets whose released majority is not the recomputed one",
        )
    )
    contradicting = set()
    for framing in ("neg_vs_rest", "pos_vs_rest"):
        released_binary = release.ratings[framing].select([MAJORITY]).codes[:, 0]
        recoded = framed(three.select([MAJORITY]), framing).codes[:, 0]
        contradicting |= set(differing_units(released_binary, recoded).tolist())
    values.append(
        keys.BINARY_CONTRADICTS.row(len(contradicting), note="rows " + ", ".join(str(r) for r in sorted(contradicting)))
    )
    if contradicting:
        in_order = sorted(contradicting)
        values += [
            keys.BINARY_CONTRADICTS_ROW.row(row, position=position, note="0-based row")
            for position, row in (("first", in_order[0]), ("last", in_order[-1]))
        ]
    values += resolutions(release)

    ties = tie_table(
        humans, {f"released_{framing}": release.ratings[framing].labels()[MAJORITY] for framing in FRAMINGS}
    )
    ties.insert(1, "line", release.lines.iloc[ties["row"]].to_numpy())
    ties["text_scored"] = [excerpt(release.texts[TRANSLATED].iloc[row], characters) for row in ties["row"]]
    return values, ties


def resolutions(release: Release) -> list[dict]:
    """Where the released majority put the ties of each framing (all kinds together), and,
    three-class, of each kind with the first and last row of each non-empty group; the
    percentage of tweets tied."""
    values = []
    for framing, ratings in release.ratings.items():
        humans, released = ratings.select(list(HUMANS)), ratings.select([MAJORITY]).codes[:, 0]
        values.append(keys.PERCENT_TIED.row(percent_tied(humans), framing=framing))
        for group in tie_resolutions(humans, released, by_kind=False).itertuples():
            values.append(keys.TIES_RESOLVED.row(group.count, framing=framing, category=group.label))
    three = release.ratings["three_class"]
    for group in tie_resolutions(three.select(list(HUMANS)), three.select([MAJORITY]).codes[:, 0]).itertuples():
        where = {"tie_kind": group.tie, "category": group.label}
        values.append(keys.TIE_KIND_RESOLVED.row(group.count, **where))
        if group.count:
            values += [
                keys.TIE_KIND_RESOLVED_ROW.row(group.first_row, position="first", **where, note="0-based row"),
                keys.TIE_KIND_RESOLVED_ROW.row(group.last_row, position="last", **where, note="0-based row"),
            ]
    return values


def writeup_intervals(release: Release, draws: int, seed: int, level: float) -> list[dict]:
    """The write-up's five intervals under its own scheme; gains are paired differences."""
    fleiss = {
        framing: multirater.fleiss_statistic(ratings.select(list(HUMANS)).unit_counts())
        for framing, ratings in release.ratings.items()
    }
    roberta = {
        framing: kappa_statistic(
            release.ratings[framing], "roberta", release.ratings[framing].select([MAJORITY]).codes[:, 0]
        )
        for framing in ("three_class", "pos_vs_rest")
    }
    values = [
        keys.FLEISS.row(
            fleiss["three_class"].value(),
            group="humans",
            framing="three_class",
            interval=bootstrap_interval(fleiss["three_class"], draws, seed, level, scheme=WRITEUP),
            reference=fleiss_reference(release.humans.unit_counts()),
        )
    ]
    for framing in ("neg_vs_rest", "pos_vs_rest"):
        gain, interval = paired_difference(fleiss["three_class"], fleiss[framing], draws, seed, level, scheme=WRITEUP)
        values.append(
            keys.FLEISS_GAIN.row(
                gain, binary=framing, interval=interval, note=f"{framing} minus three_class, paired resamples"
            )
        )
    gain, interval = paired_difference(
        roberta["three_class"], roberta["pos_vs_rest"], draws, seed, level, scheme=WRITEUP
    )
    values.append(
        keys.KAPPA_GAIN.row(
            gain, interval=interval, note="pos_vs_rest minus three_class against the released majority columns, paired"
        )
    )
    positive = release.ratings["pos_vs_rest"]
    values.append(
        keys.KAPPA_WRITEUP_INTERVAL.row(
            roberta["pos_vs_rest"].value(),
            interval=bootstrap_interval(roberta["pos_vs_rest"], draws, seed, level, scheme=WRITEUP),
            reference=cohen_against(positive, "roberta", positive.select([MAJORITY]).codes[:, 0]),
            note="the write-up's interval; kappa.roberta.vs_majority.pos_vs_rest carries the pipeline's",
        )
    )
    return values


def score_released(
    release: Release, bootstrap: Mapping[str, float], excerpt_characters: int, log: logging.Logger | None = None
) -> RuleOutputs:
    """Every value of the released labels (module docstring), the write-up's intervals
    under its own scheme with ``bootstrap``'s draws, seed and level, and the tables
    ``pairwise`` (the nine raters' pairs) and ``ties`` (each 3-3 tie, its text cut to
    ``excerpt_characters``)."""
    log = log or logging.getLogger(__name__)
    log.info("%d tweets", release.three_class.n_units)
    agreement_values, pairs = agreement(release)
    tie_values, ties = labels_and_ties(release, excerpt_characters)
    interval_values = writeup_intervals(release, bootstrap["draws"], bootstrap["seed"], bootstrap["level"])
    interval_values += [
        keys.POSTING_MONTH.row(month, end=end, note="YYYYMM, UTC, from the status ids in tweetURL")
        for end, month in zip(("first_post", "last_post"), posting_months(status_ids(release)))
    ]
    about = provenance(release, sha256_read(release.path))
    log.info("%d values, %d ties", len(agreement_values) + len(tie_values) + len(interval_values), len(ties))
    return RuleOutputs(
        values=agreement_values + tie_values + interval_values,
        tables={
            "pairwise": Table(
                pd.DataFrame(pairs), "Pairwise Cohen's kappa and percent agreement among the nine raters", about
            ),
            "ties": Table(
                ties,
                "Tweets whose six human votes split 3-3 (three-class), how the release broke them, and "
                "the text the tools scored",
                about,
            ),
        },
    )
