"""The prevalence sweep of "Agreement Before Accuracy" (rule
compute_agreement_before_accuracy_prevalence_sweep: ``compute_prevalence_sweep``): kappa,
PABAK and AC1 at fixed 0.900 agreement as the prevalence moves (each reading's lowest and
highest value over the sweep, and how many different kappas it gives), and the counted
2x2 table a=1 b=0 / c=9 d=230. Each kappa carries statsmodels' value on the same table (reference);
the counted table's chance-model and category-set variants are returned for the claims
diff. The statistics are reagree's; this module composes them.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.pipeline.variantplan import variant_rows
from reagree.stats import multirater, pairwise, variants
from reagree.stats.ratings import Ratings
from reagree.stats.references import cohen_reference

from agreement_before_accuracy import keys
from agreement_before_accuracy.fixture import (
    OBSERVED_AGREEMENT,
    PREVALENCES,
    flip_rate_for_agreement,
    prevalence_tag,
    two_coder_table,
)
from agreement_before_accuracy.variants import PLAN

COUNTED = [[1, 0], [9, 230]]  # rows coder 1 (rare, common), columns coder 2
PROVENANCE = {
    "paper": "agreement_before_accuracy",
    "source": "expected two-coder tables (independent flips) and the document's counted table",
}


def compute_prevalence_sweep(log: logging.Logger | None = None) -> RuleOutputs:
    """The sweep's and the counted table's values and variants, and the tables ``sweep``
    (coefficients by prevalence) and ``counted`` (the counted table read six ways)."""
    log = log or logging.getLogger(__name__)
    flip_rate = flip_rate_for_agreement(OBSERVED_AGREEMENT)
    values = [keys.FLIP_RATE.row(flip_rate)]
    rows = []
    for prevalence in PREVALENCES:
        reading = pairwise.table_coefficients(two_coder_table(prevalence, flip_rate))
        row = {
            "prevalence": prevalence,
            "agreement": reading["agreement"],
            "chance": reading["chance"],
            "kappa": reading["kappa"],
            "pabak": reading["pabak"],
            "ac1": reading["ac1"],
        }
        rows.append(row)
        table = two_coder_table(prevalence, flip_rate)
        for field in ("agreement", "chance", "kappa", "pabak", "ac1"):
            values.append(
                keys.SWEEP_READING.row(
                    row[field],
                    reading=field,
                    prevalence=prevalence_tag(prevalence),
                    reference=cohen_reference(table) if field == "kappa" else None,
                )
            )

    # each reading's extremes over the sweep, and how many different kappas it gives
    for field in ("agreement", "chance", "kappa", "pabak", "ac1"):
        column = np.array([row[field] for row in rows])
        values += [
            keys.SWEEP_EXTREME.row(column.min(), reading=field, extreme="min"),
            keys.SWEEP_EXTREME.row(column.max(), reading=field, extreme="max"),
        ]
    values.append(
        keys.DISTINCT_KAPPAS.row(
            len(np.unique([row["kappa"] for row in rows])), note=f"distinct kappas over the {len(rows)} prevalences"
        )
    )

    counted = pairwise.table_coefficients(COUNTED)
    counted_ratings = Ratings.from_table(COUNTED, categories=("rare", "common"))
    found = []
    for field in ("n", "agreement", "kappa", "pabak", "ac1"):
        values.append(
            keys.COUNTED_READING.row(
                counted[field], reading=field, reference=cohen_reference(COUNTED) if field == "kappa" else None
            )
        )
        key = keys.COUNTED_READING.key(reading=field)
        own = {"kappa": "kappa.cohen", "pabak": "kappa.randolph"}
        coefficients = {"pabak": multirater.randolph_kappa, "ac1": multirater.gwet_ac1}
        for name in PLAN.families_for(key):
            if name == "chance_model":
                found += variant_rows(key, name, variants.chance_models(counted_ratings), own=own[field])
            else:
                found += variant_rows(
                    key,
                    name,
                    variants.category_sets(counted_ratings.unit_counts(), coefficients[field]),
                    own="categories.declared",
                )
    values += [
        keys.COUNTED_SPECIFIC.row(counted["specific"][0], category="rare"),
        keys.COUNTED_SPECIFIC.row(counted["specific"][1], category="common"),
    ]
    counted_row = {k: v for k, v in counted.items() if k != "specific"}
    counted_row.update(specific_rare=counted["specific"][0], specific_common=counted["specific"][1])
    log.info("flip rate %.7f; %d prevalences", flip_rate, len(rows))
    return RuleOutputs(
        values=values,
        variants=found,
        tables={
            "sweep": Table(
                pd.DataFrame(rows),
                f"Fixed observed agreement {OBSERVED_AGREEMENT}, flip rate {flip_rate:.7f}: coefficients by prevalence",
                PROVENANCE,
            ),
            "counted": Table(
                pd.DataFrame([counted_row]), "The counted 2x2 table a=1 b=0 / c=9 d=230 read six ways", PROVENANCE
            ),
        },
    )
