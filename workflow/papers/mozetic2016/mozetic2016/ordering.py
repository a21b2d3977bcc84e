"""Table 5 of Mozetič et al. (2016), per built dataset, on the union of its self- and
inter-agreement units (rule score_mozetic2016_ordering: ``score_ordering``):
(Alpha_int - Alpha_nom) / Alpha_nom, and Alpha_int(-,0) / Alpha_int(-,+), Alpha_int(0,+) /
Alpha_int(-,+) from two-class sub-matrices (``mozetic2016.selfagreement.ordering_evidence``);
the average over the built paper datasets except Albanian and Spanish (the paper's
Average* also holds three application datasets, so it is not this number).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.stats.references import krippendorff_reference

from mozetic2016 import keys, selfagreement
from mozetic2016.release import AVERAGE_EXCLUDES, PAPER_DATASETS, dataset_paths, display_name, provenance, read_dataset
from mozetic2016.selfagreement import SENTIMENT_VALUES

RATIOS = ("negative_neutral", "neutral_positive")


def score_ordering(datasets: Sequence[str], inputs: Sequence[str | Path]) -> RuleOutputs:
    """Table 5's values for each of ``datasets`` (in table order) and their average, and the
    table ``table``; ``inputs``: the language files (their sha256 go into the provenance)."""
    rows, table, averaged = [], [], []
    for dataset in datasets:
        annotations = read_dataset(dataset_paths(dataset), dataset)
        union = selfagreement.agreement_counts(annotations)["union"]
        evidence = selfagreement.ordering_evidence(union)
        measures = selfagreement.agreement_measures(union)
        rows.append(keys.GAIN.row(evidence["gain"], dataset=dataset))
        rows.append(
            keys.UNION_ALPHA_INTERVAL.row(
                measures["alpha_interval"],
                dataset=dataset,
                reference=krippendorff_reference(union, "interval", SENTIMENT_VALUES) if len(union) else None,
            )
        )
        rows.append(
            keys.UNION_ALPHA_NOMINAL.row(
                measures["alpha_nominal"],
                dataset=dataset,
                reference=krippendorff_reference(union, "nominal") if len(union) else None,
            )
        )
        for ratio in RATIOS:
            rows.append(keys.RATIO.row(evidence[ratio], dataset=dataset, ratio=ratio))
        for pair in ("negative_neutral", "neutral_positive", "negative_positive"):
            rows.append(
                keys.TWO_CLASS_ALPHA.row(
                    evidence[f"alpha_interval.{pair}"],
                    dataset=dataset,
                    classes=pair,
                    note="alpha of the two-class sub-matrix",
                )
            )
        table.append(
            {
                "dataset": display_name(dataset),
                "alpha_interval": measures["alpha_interval"],
                "alpha_nominal": measures["alpha_nominal"],
                "gain": evidence["gain"],
                "alpha(-,0)": evidence["alpha_interval.negative_neutral"],
                "alpha(0,+)": evidence["alpha_interval.neutral_positive"],
                "alpha(-,+)": evidence["alpha_interval.negative_positive"],
                "(-,0)/(-,+)": evidence["negative_neutral"],
                "(0,+)/(-,+)": evidence["neutral_positive"],
            }
        )
        if dataset in PAPER_DATASETS and dataset not in AVERAGE_EXCLUDES:
            averaged.append(evidence)
    if averaged:
        average = selfagreement.average_evidence(averaged)
        note = f"mean over the {len(averaged)} built paper dataset(s) other than Albanian and Spanish"
        rows.append(keys.AVERAGE_GAIN.row(average["gain"], note=note))
        for ratio in RATIOS:
            rows.append(keys.AVERAGE_RATIO.row(average[ratio], ratio=ratio, note=note))
        table.append(
            {
                "dataset": f"average of {len(averaged)} built",
                "gain": average["gain"],
                "(-,0)/(-,+)": average["negative_neutral"],
                "(0,+)/(-,+)": average["neutral_positive"],
            }
        )
    return RuleOutputs(
        values=rows,
        tables={
            "table": Table(
                pd.DataFrame(table),
                "Mozetič et al. (2016) Table 5: ordering of the sentiment classes (union of self and inter units)",
                provenance(inputs, two_class="alpha of the 2 x 2 sub-matrix of the union coincidence matrix"),
            )
        },
    )
