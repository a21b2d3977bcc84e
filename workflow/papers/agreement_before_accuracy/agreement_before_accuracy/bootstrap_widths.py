"""The bootstrap width study of "Agreement Before Accuracy" (rule
compute_agreement_before_accuracy_bootstrap_widths: ``compute_bootstrap_widths``):
interval width against sample size.

Uses the document's own resampling scheme (draw d = random.Random(100000 + d), n calls of
randrange(n)) so its printed intervals can be matched exactly; the statistics are
evaluated by reagree's vectorised engine on those index draws and the interval ends are
the order statistics of the percentile scheme. Also the kappa interval's half width and how
much each size's width is of the one before (the prose's "halve", "plus or minus"). Each
kappa and alpha carries the field library's value (reference); the kappa's chance-model
variants are returned for the claims diff.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.pipeline.variantplan import variant_rows
from reagree.stats import bootstrap, variants
from reagree.stats.alpha import alpha_statistic
from reagree.stats.bootstrap import Interval, UnitStatistic, half_width
from reagree.stats.multirater import percent_agreement
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import Ratings
from reagree.stats.references import cohen_reference, krippendorff_reference
from reagree.stats.undefined import ratio

from agreement_before_accuracy import keys
from agreement_before_accuracy.fixture import (
    LABELS,
    WIDTH_COMPARISONS,
    WIDTH_STUDY_DRAWS,
    WIDTH_STUDY_SIZES,
    complete_round,
    resample_indices,
)
from agreement_before_accuracy.variants import PLAN

DRAWS = WIDTH_STUDY_DRAWS  # the document's
FIRST_SEED = 100_000
LEVEL = 0.95
SCHEME_NAME = f"python-random({FIRST_SEED}+d)"
# Cohen's kappa of coders A and B, nominal alpha of coders A, B, C, per sample size: the
# value's family and its interval width's
WIDTH_STUDY_KEYS = {
    "kappa": (keys.WIDTH_STUDY_KAPPA, keys.WIDTH_STUDY_KAPPA_WIDTH),
    "alpha": (keys.WIDTH_STUDY_ALPHA, keys.WIDTH_STUDY_ALPHA_WIDTH),
}
PROVENANCE = {
    "paper": "agreement_before_accuracy",
    "source": "regenerated fixtures (seed n for two coders, n + 5000 for three)",
    "draws": f"{DRAWS}, random.Random({FIRST_SEED} + draw).randrange(n) x n; "
    f"{LEVEL:.0%} percentile interval (order statistics)",
}


def percentile_interval(statistic: UnitStatistic, indices: np.ndarray) -> Interval:
    """The statistic on the document's resamples (``indices``: draws x items), as a
    percentile Interval of level ``LEVEL`` named by the document's scheme."""
    draws = bootstrap.evaluate_indices([statistic], indices)[0]
    return bootstrap.interval_from_draws(draws, LEVEL, "percentile", seed=FIRST_SEED, name=SCHEME_NAME)


def compute_bootstrap_widths(log: logging.Logger | None = None) -> RuleOutputs:
    """Per sample size: agreement, kappa and alpha with the document's intervals, their
    widths and the kappa interval's half width; the width ratios the prose compares; the
    kappa's chance-model variants; the table ``widths``."""
    log = log or logging.getLogger(__name__)
    values, rows, kappa_intervals, found_variants = [], [], {}, []
    for n in WIDTH_STUDY_SIZES:
        two = Ratings.from_labels(pd.DataFrame(complete_round(n, n, ("A", "B"))), categories=LABELS)
        three = Ratings.from_labels(pd.DataFrame(complete_round(n, n + 5000)), categories=LABELS)
        kappa, alpha = cohen_statistic(two, "A", "B"), alpha_statistic(three, "nominal")
        # the document resamples both fixtures (two and three coders) with the same n-unit draws
        indices = np.array(resample_indices(n, DRAWS, FIRST_SEED))
        found = {
            "kappa": (kappa.value(), percentile_interval(kappa, indices)),
            "alpha": (alpha.value(), percentile_interval(alpha, indices)),
        }
        references = {
            "kappa": cohen_reference(two, raters=("A", "B")),
            "alpha": krippendorff_reference(three, "nominal"),
        }
        row = {"n": n, "agreement": percent_agreement(two.unit_counts())}
        values.append(keys.WIDTH_STUDY_AGREEMENT.row(row["agreement"], n=n))
        for name, (value, interval) in found.items():
            row.update(
                {
                    name: value,
                    f"{name}_ci_low": interval.low,
                    f"{name}_ci_high": interval.high,
                    f"{name}_width": interval.width,
                    f"{name}_undefined_draws": interval.undefined_draws,
                }
            )
            family, width_family = WIDTH_STUDY_KEYS[name]
            # the interval's ends sit beside the value; its width is a figure the document prints
            values += [
                family.row(value, interval=interval, n=n, reference=references[name]),
                width_family.row(interval.width, note=interval.scheme, n=n),
            ]
            key = family.key(n=n)
            for variant_family in PLAN.families_for(key):  # chance_model, of the two coders' kappa
                found_variants += variant_rows(key, variant_family, variants.chance_models(two), own="kappa.cohen")
        kappa_intervals[n] = found["kappa"][1]
        values.append(keys.WIDTH_STUDY_KAPPA_HALF_WIDTH.row(half_width(found["kappa"][1]), n=n))
        rows.append(row)
        log.info("n=%d: kappa width %.3f, alpha width %.3f", n, row["kappa_width"], row["alpha_width"])
    values += [
        keys.WIDTH_STUDY_KAPPA_WIDTH_RATIO.row(
            ratio(kappa_intervals[big].width, kappa_intervals[small].width), a=big, b=small
        )
        for big, small in WIDTH_COMPARISONS
    ]
    return RuleOutputs(
        values=values,
        variants=found_variants,
        tables={
            "widths": Table(
                pd.DataFrame(rows),
                "Bootstrap interval width by number of items (Cohen's kappa, 2 coders; alpha, 3 coders)",
                PROVENANCE,
            )
        },
    )
