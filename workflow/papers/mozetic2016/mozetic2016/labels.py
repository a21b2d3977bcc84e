"""Table 1 and Table 6's sizes of Mozetič et al. (2016), per built dataset (rule
count_mozetic2016_labels: ``count_labels``): labels per class, and one gold label per tweet
after merging repeated labels by the paper's rule.

Gold labels by the sign of the sum of a tweet's values (neutral + negative -> negative,
neutral + positive -> positive, negative + positive -> neutral; three or more labels: the
sign of their sum), and by the same rule on the tweet's distinct labels, with the number
of tweets on which the two readings differ (``mozetic2016.selfagreement``). Table 1's time
period: the first and last month a dataset's tweets were posted, read from the tweet ids
(``reagree.methods.snowflake``). With all 15 languages built, the labels and the posting
period of the whole release (the text's "over 1.6 million", "April 2013 and February
2015").
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree.methods.snowflake import posting_months
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.stats.labels import Annotations

from mozetic2016 import keys, selfagreement
from mozetic2016.release import CATEGORIES, LANGUAGES, dataset_paths, display_name, provenance, read_dataset

CLASSES = [c.lower() for c in CATEGORIES]


def count_labels(
    datasets: Sequence[str], inputs: Sequence[str | Path], log: logging.Logger | None = None
) -> RuleOutputs:
    """The label, tweet, gold-label and posting-month values of each of ``datasets`` (in
    table order), and of the whole release when all 15 languages are among them; the table
    ``table``. ``inputs``: the language files read (their sha256 go into the provenance)."""
    log = log or logging.getLogger(__name__)
    rows, table, languages = [], [], {}
    for dataset in datasets:
        annotations = read_dataset(dataset_paths(dataset), dataset)
        languages[dataset] = annotations
        labels = annotations.label_counts()
        gold = selfagreement.gold_counts(annotations, "all")
        gold_distinct = selfagreement.gold_counts(annotations, "distinct")
        differ = selfagreement.merge_readings_differ(annotations)
        three = selfagreement.tweets_labelled_at_least(annotations, 3)
        log.info("%s: %d labels on %d tweets", dataset, annotations.n_labels, annotations.n_units)
        rows.append(keys.LABELS.row(annotations.n_labels, dataset=dataset))
        rows.append(keys.TWEETS.row(annotations.n_units, dataset=dataset))
        rows.append(
            keys.GOLD.row(
                int(gold.sum()), dataset=dataset, note="one gold label per tweet: the number of distinct tweet ids"
            )
        )
        rows.append(keys.TWEETS_THREE_LABELS.row(three, dataset=dataset))
        months = dict(zip(("first_post", "last_post"), posting_months(annotations.unit_ids)))
        rows += [
            keys.POSTING_MONTH.row(month, end=end, dataset=dataset, note="YYYYMM, UTC, from the tweet ids")
            for end, month in months.items()
        ]
        rows.append(
            keys.GOLD_READINGS_DIFFER.row(
                differ,
                dataset=dataset,
                note="tweets whose gold label differs between the sign of all labels and of the distinct labels",
            )
        )
        for index, name in enumerate(CLASSES):
            rows.append(keys.CLASS_LABELS.row(int(labels[index]), dataset=dataset, category=name))
            rows.append(
                keys.CLASS_GOLD.row(
                    int(gold[index]),
                    dataset=dataset,
                    category=name,
                    note="gold label: sign of the sum of the tweet's values",
                )
            )
            rows.append(
                keys.CLASS_GOLD_DISTINCT.row(
                    int(gold_distinct[index]),
                    dataset=dataset,
                    category=name,
                    note="gold label: sign of the sum of the tweet's distinct values",
                )
            )
        table.append(
            {
                "dataset": display_name(dataset),
                **{name: int(labels[i]) for i, name in enumerate(CLASSES)},
                "total": annotations.n_labels,
                "tweets": annotations.n_units,
                "tweets with 3+ labels": three,
                **{f"gold {name}": int(gold[i]) for i, name in enumerate(CLASSES)},
                "gold size": int(gold.sum()),
                **{f"gold {name} (distinct)": int(gold_distinct[i]) for i, name in enumerate(CLASSES)},
                "readings differ": differ,
                "first month": months["first_post"],
                "last month": months["last_post"],
            }
        )
    every_language = [language.lower() for language in LANGUAGES]
    if all(language in languages for language in every_language):
        release = Annotations.concat([languages[language] for language in every_language], source="all languages")
        rows.append(keys.ALL_LABELS.row(release.n_labels, note="labels in the 15 language files"))
        rows += [
            keys.ALL_POSTING_MONTH.row(month, end=end, note="YYYYMM, UTC, from the tweet ids of the 15 files")
            for end, month in zip(("first_post", "last_post"), posting_months(release.unit_ids))
        ]
    return RuleOutputs(
        values=rows,
        tables={
            "table": Table(
                pd.DataFrame(table),
                "Mozetič et al. (2016) Table 1 and Table 6 sizes: labels per class, tweets, gold labels after merging",
                provenance(
                    inputs,
                    merge_rule="gold = sign of the sum of the tweet's values (-1, 0, +1); "
                    "'distinct': the same on its distinct values",
                ),
            )
        },
    )
