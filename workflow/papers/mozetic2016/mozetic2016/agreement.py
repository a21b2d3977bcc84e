"""Table 4 of Mozetič et al. (2016): self- and inter-annotator agreement.

``score_agreement`` (rule score_mozetic2016_agreement, one dataset): Acc+-1, Acc, F1 (mean
of negative and positive), Alpha_int with its bootstrap interval (and the paper's "+-",
half its width), Alpha_nom, from one coincidence matrix per kind
(``mozetic2016.selfagreement``), and self minus inter Alpha_int (the text's "always lower
than the self-agreement"). Units are resampled within each kind; draws and seed as
configured. Both alphas carry the krippendorff package's value beside them (reference), and
the alpha variants mozetic2016/variants.py declares are returned for the claims diff.

``tabulate_agreement`` (rule tabulate_mozetic2016_agreement): the per-dataset rows as one
table, in the paper's dataset order.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.pipeline.variantplan import variant_rows
from reagree.stats import variants
from reagree.stats.bootstrap import bootstrap_interval, half_width
from reagree.stats.references import krippendorff_reference
from reagree.stats.undefined import difference

from mozetic2016 import keys, selfagreement
from mozetic2016.release import dataset_paths, display_name, provenance, read_dataset
from mozetic2016.selfagreement import SENTIMENT_VALUES
from mozetic2016.variants import PLAN

MEASURES = ("acc_within_one", "acc", "f1_polar", "alpha_nominal")
OWN = {
    "alpha_expected_disagreement": "alpha.expected_n_minus_1",
    "alpha_distance": "alpha.interval",
    "alpha_leave_one_unit_out": None,
}
ALPHA_FAMILIES = {
    "alpha_expected_disagreement": variants.alpha_expected_pairs,
    "alpha_leave_one_unit_out": variants.alpha_leave_one_unit_out,
}


def score_agreement(
    dataset: str, draws: int, seed: int, level: float, log: logging.Logger | None = None
) -> RuleOutputs:
    """Table 4's values and alpha variants for ``dataset``, and its two rows (self, inter)
    as the frame ``rows`` (``tabulate_agreement`` puts every dataset's rows together)."""
    log = log or logging.getLogger(__name__)
    annotations = read_dataset(dataset_paths(dataset), dataset)
    units = selfagreement.agreement_counts(annotations)
    rows, table, alpha, variant_table = [], [], {}, []
    for kind in ("self", "inter"):
        counts = units[kind]
        measures = selfagreement.agreement_measures(counts)
        interval = None
        if counts.shape[0]:  # Alpha_int and its interval from one statistic
            statistic = selfagreement.interval_alpha_statistic(counts)
            measures["alpha_interval"] = statistic.value()
            interval = bootstrap_interval(statistic, draws, seed, level)
        half = half_width(interval) if interval is not None else measures["alpha_interval"]
        alpha[kind] = measures["alpha_interval"]
        log.info("%s %s: %d units, alpha %.4f", dataset, kind, counts.shape[0], measures["alpha_interval"])
        where = {"kind": kind, "dataset": dataset}
        rows.append(keys.UNITS.row(counts.shape[0], **where))
        rows.append(
            keys.PAIRABLE.row(
                measures["pairable"], **where, note="labels in units with two or more (the coincidence matrix's total)"
            )
        )
        for measure in MEASURES:
            nominal = measure == "alpha_nominal" and counts.shape[0]
            rows.append(
                keys.MEASURE.row(
                    measures[measure],
                    measure=measure,
                    **where,
                    reference=krippendorff_reference(counts, "nominal") if nominal else None,
                )
            )
        rows.append(
            keys.ALPHA_INTERVAL.row(
                measures["alpha_interval"],
                interval=interval,
                **where,
                reference=krippendorff_reference(counts, "interval", SENTIMENT_VALUES) if counts.shape[0] else None,
            )
        )
        alpha_key = keys.ALPHA_INTERVAL.key(**where)
        for family in PLAN.families_for(alpha_key):
            found = (
                ALPHA_FAMILIES[family](counts, "interval", SENTIMENT_VALUES)
                if family in ALPHA_FAMILIES
                else variants.alpha_distances(counts, SENTIMENT_VALUES)
            )
            variant_table += variant_rows(alpha_key, family, found, own=OWN[family])
        half_row = keys.HALF_WIDTH.row(
            half, **where, note="half the width of the bootstrap interval of alpha_interval (the paper's +-)"
        )
        if interval is not None:
            half_row.update(scheme=interval.scheme, undefined_draws=interval.undefined_draws)
        rows.append(half_row)
        table.append(
            {
                "dataset": display_name(dataset),
                "kind": kind,
                "units": counts.shape[0],
                "pairable labels": measures["pairable"],
                **{measure: measures[measure] for measure in ("acc_within_one", "acc", "f1_polar")},
                "alpha_interval": measures["alpha_interval"],
                "ci_low": interval.low if interval is not None else float("nan"),
                "ci_high": interval.high if interval is not None else float("nan"),
                "undefined_draws": interval.undefined_draws if interval is not None else float("nan"),
                "half_width": half,
                "alpha_nominal": measures["alpha_nominal"],
                "scheme": interval.scheme if interval is not None else "",
            }
        )
    rows.append(keys.SELF_MINUS_INTER.row(difference(alpha["self"], alpha["inter"]), dataset=dataset))
    return RuleOutputs(values=rows, variants=variant_table, frames={"rows": pd.DataFrame(table)})


def tabulate_agreement(rows: Sequence[pd.DataFrame], inputs: Sequence[str | Path]) -> RuleOutputs:
    """Table 4 from the per-dataset ``rows`` (already in the paper's dataset order: the three
    Ser/Cro/Bos languages after the joint set), as the table ``table``; ``inputs``: the
    language files (their sha256 go into the provenance)."""
    return RuleOutputs(
        tables={
            "table": Table(
                pd.concat(list(rows), ignore_index=True),
                "Mozetič et al. (2016) Table 4: self- and inter-annotator agreement",
                provenance(
                    inputs,
                    units="self: (tweet, annotator) with 2+ labels; "
                    "inter: tweets with 2+ annotators, each annotator's first label",
                    alpha="Alpha_int, values -1, 0, +1; interval: bootstrap over units",
                ),
            )
        }
    )
