"""The variant families jayanetti2026/variants.py declares, evaluated for every claim key
they apply to (rule compute_jayanetti2026_variants: ``compute_variants``): each family of
``reagree.stats.variants`` on the data behind the key (the released labels, a tie rule's
re-vote, the tool reruns), one row per variant, reagree's own reading marked. The variants
are the catalogue's; the claims diff holds them against the printed numbers.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from reagree.pipeline.variantplan import variant_rows
from reagree.stats import variants
from reagree.stats.majority import majority_vote
from reagree.stats.ratings import Ratings
from reagree.stats.reference import kappa_against_many, kappa_statistic
from reagree.stats.undefined import Undefined

from jayanetti2026 import keys
from jayanetti2026.release import FRAMINGS, HUMANS, MAJORITY, RATERS, SENTIMENT, TOOLS, Release, framed, framing_table
from jayanetti2026.variants import PLAN

GROUPS = {"humans": list(HUMANS), "tools": list(TOOLS)}
FIXED_RULES = {"neutral", "polar", "drop"}  # tie rules whose re-vote is one labelling


def scored(release: Release, reruns: Ratings, rater: str, framing: str) -> Ratings:
    """The ratings (in ``framing``) that hold ``rater``: released labels, or a rerun's."""
    if rater in reruns.raters:
        return framed(reruns, framing)
    return release.ratings[framing]


def majority_codes(release: Release, against: str, framing: str) -> np.ndarray | None:
    """The majority ``against`` names, in ``framing``: the released column or a re-vote."""
    if against == "vs_majority":
        return release.ratings[framing].select([MAJORITY]).codes[:, 0]
    rule = against.removeprefix("vs_majority_ties_")
    return framing_table(framing)[majority_vote(release.humans, rule)] if rule in FIXED_RULES else None


def kappa_quantity(ratings: Ratings, rater: str, framing: str) -> Callable[[np.ndarray], object]:
    """Cohen's kappa of ``rater`` against a three-class majority labelling recoded into
    ``framing``: one labelling (n,) or many (R, n) at once."""
    table = framing_table(framing)

    def quantity(labels):
        codes = table[labels]
        if codes.ndim == 1:
            return kappa_statistic(ratings, rater, codes).value()
        return kappa_against_many(ratings, rater, codes)

    return quantity


def count_quantity(framing: str, category: str) -> Callable[[np.ndarray], object]:
    """How many units a three-class labelling, recoded into ``framing``, puts in ``category``."""
    table, code = framing_table(framing), FRAMINGS[framing][1].index(category)

    def quantity(labels):
        return (table[labels] == code).sum(axis=-1)

    return quantity


def evaluate(
    release: Release, reruns: Ratings, key: str, family: str, settings: Mapping[str, object]
) -> tuple[dict[str, float], str | None]:
    """{variant: value} of ``family`` for ``key``, and reagree's own variant (or None)."""
    shape, fields = keys.KEYS.fields(key)
    framing = fields.get("framing", "pos_vs_rest" if shape is keys.KAPPA_WRITEUP_INTERVAL else None)
    if family == "chance_model":
        ratings = release.ratings[framing].select(GROUPS[fields["group"]])
        return variants.chance_models(ratings), "kappa.fleiss"
    if family == "percentage_base":
        counts = release.humans.unit_counts().sum(axis=0)
        count = counts[list(SENTIMENT).index(fields["category"])]
        nine_raters = release.three_class.select(list(RATERS)).unit_counts().sum()
        return variants.percentage_bases(
            count, human_labels=counts.sum(), nine_raters_labels=nine_raters
        ), "base.human_labels"
    if family == "tie_definition":
        return variants.tie_definitions(release.ratings[framing].select(list(HUMANS))), "ties.shared_top"
    rater = fields.get("rater") or (f"{fields['tool']}_rerun" if "tool" in fields else "roberta")
    against = fields.get("against", "vs_majority")
    if family == "kappa_weights":
        ratings = scored(release, reruns, rater, framing)
        majority = majority_codes(release, against, framing)
        if majority is None:
            return {
                name: Undefined("a random tie rule has no single majority labelling")
                for name in variants.FAMILIES[family].variants
            }, None
        pair = ratings.select([rater]).with_column("majority", majority)
        return variants.kappa_weights(pair.subset(majority >= 0), raters=(rater, "majority")), "weights.none"
    if family == "tie_rule":
        repetitions, seed = settings["random_tie_seeds"], settings["random_tie_seed"]
        if shape is keys.MAJORITY_LABELS:
            quantity = count_quantity(framing, fields["category"])
        else:
            quantity = kappa_quantity(scored(release, reruns, rater, framing), rater, framing)
        return variants.tie_rules(release.humans, quantity, seed=seed, repetitions=repetitions), None
    raise ValueError(f"{key}: no evaluation of family {family} in jayanetti2026.variant_values")


def read_reruns(paths: Sequence[str | Path]) -> Ratings:
    """Every rerun's three-class labels as ``<tool>_rerun`` raters."""
    columns = {}
    for path in paths:
        table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        columns.update({name: table[name] for name in table.columns if name.endswith("_rerun")})
    return Ratings.from_labels(pd.DataFrame(columns), categories=SENTIMENT)


def compute_variants(
    release: Release,
    reruns: Ratings,
    claims: Iterable[Mapping],
    settings: Mapping[str, object],
    expansions: Mapping,
    log: logging.Logger | None = None,
) -> list[dict]:
    """variants.tsv rows of every (claim key, family) the plan applies to among ``claims``
    this configuration compares (``VariantPlan.jobs`` under ``settings`` and
    ``expansions``), on the release and the ``reruns``."""
    log = log or logging.getLogger(__name__)
    jobs = PLAN.jobs(claims, settings, expansions)
    rows = []
    for key, family in jobs:
        found, own = evaluate(release, reruns, key, family, settings)
        rows += variant_rows(key, family, found, own=own)
    log.info("%d variants for %d (key, family) pairs", len(rows), len(jobs))
    return rows
