"""Rule score_jayanetti2026_soft_labels: every tool scored against the six raters
themselves rather than their majority (the write-up's recommendation; no published
value): Cohen's kappa with each rater and the mean, and the cross-entropy of the tool's
label under the six raters' smoothed label distribution, per framing, each with the
pipeline's bootstrap interval. The released majority is scored the same way, as a
reference row. Composition only: the statistics are reagree's (``reagree.stats.softlabel``).
"""
import pandas as pd

from jayanetti2026.release import HUMANS, MAJORITY, TOOLS, provenance, read_release
from reagree.stats.bootstrap import bootstrap_intervals
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.references import cohen_reference
from reagree.pipeline.rulekit import rule_log
from reagree.stats.softlabel import cross_entropy_statistic, mean_kappa_statistic
from reagree.io.reads import sha256_read
from reagree.pipeline.tables import interval_columns, write_table, write_values
from jayanetti2026 import keys

SCORED = [*TOOLS, MAJORITY]
SMOOTHING_NOTE = "nats; six-rater distribution smoothed add-{0:g}: p(k) = (votes_k + {0:g}) / (6 + K x {0:g})"

with rule_log(snakemake) as log:
    settings, bootstrap = snakemake.params.settings, snakemake.params.bootstrap
    smoothing = settings["soft_label_smoothing"]
    release = read_release(snakemake.input.labels)
    panel = list(HUMANS)
    values, rows = [], []
    for framing, ratings in release.ratings.items():
        for scored in SCORED:
            statistics = {f"kappa_{rater}": (keys.KAPPA_VS_RATER, {"human": rater},
                                             cohen_statistic(ratings, scored, rater)) for rater in panel}
            statistics["kappa_mean"] = (keys.KAPPA_MEAN, {}, mean_kappa_statistic(ratings, scored, panel))
            statistics["cross_entropy"] = (keys.CROSS_ENTROPY, {},
                                           cross_entropy_statistic(ratings, scored, panel, smoothing))
            intervals = bootstrap_intervals([statistic for _, _, statistic in statistics.values()],
                                            bootstrap["draws"], bootstrap["seed"], bootstrap["level"])
            row = {"framing": framing, "scored": scored}
            for (column, (family, fields, statistic)), interval in zip(statistics.items(), intervals):
                value = statistic.value()
                reference = cohen_reference(ratings, raters=(scored, fields["human"])) if "human" in fields else None
                values.append(family.row(value, interval=interval, scored=scored, framing=framing, **fields,
                                         note=SMOOTHING_NOTE.format(smoothing) if column == "cross_entropy" else "",
                                         reference=reference))
                row[column] = value
                if column in ("kappa_mean", "cross_entropy"):
                    row.update(interval_columns(interval, prefix=f"{column}_"))
            rows.append(row)
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(rows), snakemake.output.table,
                "Tools (and the released majority) scored against the six raters: Cohen's kappa with each "
                "and the mean, and cross-entropy against the six-rater label distribution",
                provenance(release, sha256_read(release.path),
                           smoothing=f"p_i(k) = (votes_ik + {smoothing:g}) / (6 + K x {smoothing:g}); "
                                     "cross-entropy in nats, lower is closer",
                           intervals=f"percentile bootstrap, {bootstrap['draws']} draws, seed {bootstrap['seed']}, "
                                     f"level {bootstrap['level']}"))
    log.info("%d values", len(values))
