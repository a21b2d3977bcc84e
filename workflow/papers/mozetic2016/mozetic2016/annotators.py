"""Per annotator of each built language (rule score_mozetic2016_annotators:
``score_annotators``): labels, share, tweets labelled twice and self-agreement Alpha_int
(``mozetic2016.selfagreement``); the text's main annotator (most labels) and, where two
annotators carry most labels, the paper's German-style A (lower self-agreement) and B; the
share of labels the two busiest annotators gave (the text's "two of them account for over
40%").
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.stats.references import krippendorff_reference

from mozetic2016 import keys, selfagreement
from mozetic2016.release import provenance, read_language
from mozetic2016.selfagreement import SENTIMENT_VALUES


def score_annotators(languages: Sequence[str], inputs: Sequence[str | Path]) -> RuleOutputs:
    """The named annotators' values of each of ``languages`` (read from ``inputs``, its
    file, in the same order), and the table ``table`` of every annotator."""
    rows, table = [], []
    for language, path in zip(languages, inputs):
        dataset = language.lower()
        annotations = read_language(path)
        own = annotations.self_agreement()
        annotators = selfagreement.annotator_self_agreement(annotations)
        rows.append(
            keys.TOP_ANNOTATORS_LABELS.row(
                annotations.top_raters_percent(2),
                language=dataset,
                note="percent of the labels given by the two annotators with the most",
            )
        )
        by_labels = sorted(annotators, key=lambda row: (-row["labels"], row["annotator"]))
        named = {"main_annotator": by_labels[0]}
        defined = [row for row in by_labels[:2] if row["alpha_interval"] == row["alpha_interval"]]  # not NaN
        if len(defined) == 2:
            first, second = defined
            lower_first = first["alpha_interval"] <= second["alpha_interval"]
            named["annotator_a"], named["annotator_b"] = (first, second) if lower_first else (second, first)
        for name, row in named.items():
            who = {"language": dataset, "named": name, "note": f"annotator {row['annotator']}"}
            mine = selfagreement.annotator_units(own, row["annotator"])
            reference = krippendorff_reference(mine.counts, "interval", SENTIMENT_VALUES) if mine.n_units else None
            rows.append(keys.ANNOTATOR_ALPHA.row(row["alpha_interval"], **who, reference=reference))
            rows.append(keys.ANNOTATOR_REPEATS.row(row["self_posts"], reading="posts", **who))
            rows.append(keys.ANNOTATOR_REPEATS.row(row["self_pairs"], reading="pairs", **who))
            rows.append(keys.ANNOTATOR_LABELS.row(row["percent_labels"], **who))
        table += [
            {"language": language, **row, "named": ", ".join(n for n, r in named.items() if r is row)}
            for row in by_labels
        ]
    return RuleOutputs(
        values=rows,
        tables={
            "table": Table(
                pd.DataFrame(table),
                "Mozetič et al. (2016): annotators per language and their self-agreement",
                provenance(
                    inputs,
                    main_annotator="most labels",
                    annotator_a_b="the two with most labels; A has the lower self-agreement",
                ),
            )
        },
    )
