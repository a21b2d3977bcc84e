"""Table 3 of Mozetič et al. (2016), per built dataset (rule count_mozetic2016_repeats:
``count_repeats``): annotators, and the posts labelled more than once by the same / by
different annotators, counted as posts (units) and as label pairs (sum of m(m-1)/2), each
also as a share of all labels (``mozetic2016.selfagreement.repeat_counts``). Also the
distinct annotators over all 15 files when all are built (the paper's "83 native
speakers"), and then the posts labelled twice of all 15 files pooled, as a share of their
labels (the text's "about 15%"; over their tweets as a variant). The paper's reading is posts; the counting and percentage-base variants of it
(mozetic2016/variants.py) are returned for the claims diff.
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

from mozetic2016 import keys, selfagreement
from mozetic2016.release import LANGUAGES, dataset_paths, display_name, provenance, read_dataset, read_language
from mozetic2016.variants import PLAN


def count_repeats(
    datasets: Sequence[str], languages: Sequence[str], inputs: Sequence[str | Path], log: logging.Logger | None = None
) -> RuleOutputs:
    """Table 3's values and variants for each of ``datasets`` (in table order), and the
    distinct annotators of the release when ``languages`` are all 15 (read from
    ``inputs``, the language files); the table ``table``."""
    log = log or logging.getLogger(__name__)
    rows, table, variant_table, per_language = [], [], [], []
    for dataset in datasets:
        annotations = read_dataset(dataset_paths(dataset), dataset)
        counts = selfagreement.repeat_counts(annotations)
        if dataset in {language.lower() for language in LANGUAGES}:
            per_language.append(counts)
        log.info("%s: %s", dataset, counts)
        rows.append(keys.ANNOTATORS.row(counts.annotators, dataset=dataset))
        entry = {
            "dataset": display_name(dataset),
            "annotators": counts.annotators,
            "labels": counts.labels,
            "tweets": counts.tweets,
        }
        views = {"self": annotations.self_agreement(), "inter": annotations.inter(repeats="first")}
        for kind in ("self", "inter"):
            for reading in ("posts", "pairs"):
                count = getattr(counts, f"{kind}_{reading}")
                rows.append(keys.REPEATS.row(count, kind=kind, dataset=dataset, reading=reading))
                rows.append(
                    keys.REPEATS_PERCENT.row(
                        counts.percent(count), kind=kind, dataset=dataset, reading=reading, note="percent of all labels"
                    )
                )
                entry[f"{kind} {reading}"] = count
                entry[f"{kind} {reading} %"] = counts.percent(count)
            # the variants of the paper's reading (posts), for the claims diff
            counted = variants.counting(views[kind].labels_per_unit())
            where = {"kind": kind, "dataset": dataset, "reading": "posts"}
            for family in keys.REPEATS, keys.REPEATS_PERCENT:
                key = family.key(**where)
                for name in PLAN.families_for(key):
                    if name == "counting":
                        found = (
                            counted
                            if family is keys.REPEATS
                            else {variant: counts.percent(count) for variant, count in counted.items()}
                        )
                        variant_table += variant_rows(key, name, found, own="count.items")
                    else:
                        found = variants.percentage_bases(
                            counted["count.items"], all_labels=counts.labels, all_tweets=counts.tweets
                        )
                        variant_table += variant_rows(key, name, found, own="base.all_labels")
        rows.append(
            keys.BOTH_REPEATS.row(
                counts.both_posts, dataset=dataset, note="tweets with a same-annotator repeat and a second annotator"
            )
        )
        entry["tweets of both kinds"] = counts.both_posts
        table.append(entry)
    if set(languages) == set(LANGUAGES):
        annotators = set()
        for path in inputs:
            annotators.update(read_language(path).rater_ids)
        rows.append(keys.ALL_ANNOTATORS.row(len(annotators), note="distinct annotator ids over the 15 language files"))
        pooled = keys.ALL_REPEATS_PERCENT.key()
        rows.append(
            keys.ALL_REPEATS_PERCENT.row(
                selfagreement.repeated_share(per_language),
                note="self and inter posts of the 15 files over all their labels",
            )
        )
        for name in PLAN.families_for(pooled):
            found = {
                "base.all_labels": selfagreement.repeated_share(per_language, base="labels"),
                "base.all_tweets": selfagreement.repeated_share(per_language, base="tweets"),
            }
            variant_table += variant_rows(pooled, name, found, own="base.all_labels")
    return RuleOutputs(
        values=rows,
        variants=variant_table,
        tables={
            "table": Table(
                pd.DataFrame(table),
                "Mozetič et al. (2016) Table 3: posts labelled twice by the same / by different annotators",
                provenance(
                    inputs,
                    posts="units: (tweet, annotator) with 2+ labels; tweets with 2+ annotators",
                    pairs="sum over units of m (m - 1) / 2",
                    share="percent of all labels",
                ),
            )
        },
    )
