"""Every tool of jayanetti2026 scored against the six raters themselves rather than their
majority (rule score_jayanetti2026_soft_labels: ``score_soft_labels``; the write-up's
recommendation, no published value): Cohen's kappa with each rater and the mean, and the
cross-entropy of the tool's label under the six raters' smoothed label distribution, per
framing, each with the pipeline's bootstrap interval. The released majority is scored the
same way, as a reference row. The statistics are reagree's (``reagree.stats.softlabel``).
"""

from __future__ import annotations

import logging
from typing import Mapping

import pandas as pd

from reagree.io.reads import sha256_read
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table, interval_columns
from reagree.stats.bootstrap import bootstrap_intervals
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.references import cohen_reference
from reagree.stats.softlabel import cross_entropy_statistic, mean_kappa_statistic

from jayanetti2026 import keys
from jayanetti2026.release import HUMANS, MAJORITY, TOOLS, Release, provenance

SCORED = [*TOOLS, MAJORITY]
SMOOTHING_NOTE = "nats; six-rater distribution smoothed add-{0:g}: p(k) = (votes_k + {0:g}) / (6 + K x {0:g})"


def score_soft_labels(
    release: Release, smoothing: float, bootstrap: Mapping[str, float], log: logging.Logger | None = None
) -> RuleOutputs:
    """Each tool's and the released majority's kappa with every rater, their mean and the
    cross-entropy under the raters' distribution smoothed add-``smoothing`` (the setting
    ``soft_label_smoothing``), per framing, with ``bootstrap``'s intervals; the table ``table``."""
    log = log or logging.getLogger(__name__)
    panel = list(HUMANS)
    values, rows = [], []
    for framing, ratings in release.ratings.items():
        for scored in SCORED:
            statistics = {
                f"kappa_{rater}": (keys.KAPPA_VS_RATER, {"human": rater}, cohen_statistic(ratings, scored, rater))
                for rater in panel
            }
            statistics["kappa_mean"] = (keys.KAPPA_MEAN, {}, mean_kappa_statistic(ratings, scored, panel))
            statistics["cross_entropy"] = (
                keys.CROSS_ENTROPY,
                {},
                cross_entropy_statistic(ratings, scored, panel, smoothing),
            )
            intervals = bootstrap_intervals(
                [statistic for _, _, statistic in statistics.values()],
                bootstrap["draws"],
                bootstrap["seed"],
                bootstrap["level"],
            )
            row = {"framing": framing, "scored": scored}
            for (column, (family, fields, statistic)), interval in zip(statistics.items(), intervals):
                value = statistic.value()
                reference = cohen_reference(ratings, raters=(scored, fields["human"])) if "human" in fields else None
                values.append(
                    family.row(
                        value,
                        interval=interval,
                        scored=scored,
                        framing=framing,
                        **fields,
                        note=SMOOTHING_NOTE.format(smoothing) if column == "cross_entropy" else "",
                        reference=reference,
                    )
                )
                row[column] = value
                if column in ("kappa_mean", "cross_entropy"):
                    row.update(interval_columns(interval, prefix=f"{column}_"))
            rows.append(row)
    log.info("%d values", len(values))
    return RuleOutputs(
        values=values,
        tables={
            "table": Table(
                pd.DataFrame(rows),
                "Tools (and the released majority) scored against the six raters: Cohen's kappa with each "
                "and the mean, and cross-entropy against the six-rater label distribution",
                provenance(
                    release,
                    sha256_read(release.path),
                    smoothing=f"p_i(k) = (votes_ik + {smoothing:g}) / (6 + K x {smoothing:g}); "
                    "cross-entropy in nats, lower is closer",
                    intervals=f"percentile bootstrap, {bootstrap['draws']} draws, seed {bootstrap['seed']}, "
                    f"level {bootstrap['level']}",
                ),
            )
        },
    )
