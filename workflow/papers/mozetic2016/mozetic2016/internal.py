"""Mozetič et al. (2016): printed numbers held against one another (``reagree.pipeline.internal``).

The four application datasets (Facebook(it), DJIA30, Environment, Emojis) and every
classifier result were never released, so their printed numbers can only be checked
against each other: Table 1's class counts against its totals, Table 2's sentiment scores
against the class counts they summarise, Table 3's percentages against its counts and
Table 1's totals, Table 5's Average* against its rows, Table 6's sizes against Tables 1
and 3, and the text's figures against the tables they repeat. The claims are in
``claims/internal.tsv`` (``source: internal``); the rule ``check_mozetic2016_printed``
writes these values.

Operands name the claims whose printed text they read (their keys, from the paper's
claim tables); where one key is printed differently in two places, ``Printed(key,
where)`` picks the table.
"""

from reagree.pipeline import internal
from reagree.pipeline.internal import Printed, alternative, relate

from mozetic2016 import keys
from mozetic2016.release import APPLICATIONS, CLASSIFIED_APPLICATIONS, JOINT, PAPER_DATASETS, TABLE_DATASETS

CLASSES = ("negative", "neutral", "positive")
SCORES = {"scores": (-1, 0, 1)}  # the sentiment score: the mean of the distribution over -1, 0, +1
# Table 5's Average*: every row but the low-quality Albanian and Spanish and the subsumed Emojis.
AVERAGED = [dataset for dataset in TABLE_DATASETS if dataset not in ("albanian", "spanish", "emojis")]
RATIOS = ("negative_neutral", "neutral_positive")
# Table 6's datasets (Emojis has no classifier) but the text's exceptions to 0.4-0.6, Albanian and Spanish.
TYPICAL_CLASSIFIERS = [d for d in TABLE_DATASETS if d not in ("albanian", "spanish", "emojis")]


def table(key: str, number: str) -> Printed:
    """A claim printed in Table ``number`` (its key is printed elsewhere too)."""
    return Printed(key, where=f"Table {number}")


def repeat_share(kind: str, dataset: str):
    """Table 3's percentage of posts annotated twice: its count over Table 1's total; for
    Facebook(it), also over the text's round "about 20,000" labelled (another base)."""
    variants = (
        [
            alternative(
                "base.text_about_20000",
                internal.percentage,
                f"count.{kind}_repeats.{dataset}.posts",
                "count.labels.facebook_it.as_printed",
                about="as a percentage of the text's 'a sample of about 20,000' instead of Table 1's total",
            )
        ]
        if dataset == "facebook_it"
        else []
    )
    return relate(
        keys.REPEAT_SHARE,
        f"count.{kind}_repeats.{dataset}.posts",
        table(f"count.labels.{dataset}", 1),
        variants=variants,
        kind=kind,
        table_dataset=dataset,
    )


def training_score(dataset: str):
    """Table 2's training sentiment score: the mean over Table 1's class counts (scores -1,
    0, +1); tried too: the score over the polar labels alone, (positive - negative) /
    (positive + negative)."""
    counts = [f"count.labels.{dataset}.{c}" for c in CLASSES]
    polar = alternative(
        "score.polar_labels_only",
        internal.weighted_mean,
        counts[0],
        counts[2],
        options={"scores": (-1, 1)},
        about="the mean over the negative and positive labels only",
    )
    return relate(keys.SCORE, *counts, options=SCORES, variants=[polar], classified=dataset)


def pooled_repeats():
    """The share of posts annotated twice (self and inter) over all labels, the 13 language
    datasets pooled (Table 3's counts over Table 1's totals); tried too: over the distinct
    tweets (Table 6's sizes: one gold label per tweet), and with the three application
    datasets that are not a subset of the language datasets added."""

    def posts(rows):
        return [f"count.{kind}_repeats.{d}.posts" for kind in ("self", "inter") for d in rows]

    parts = posts(PAPER_DATASETS)
    with_applications = [*PAPER_DATASETS, *CLASSIFIED_APPLICATIONS]
    variants = [
        alternative(
            "base.distinct_tweets",
            internal.pooled_percentage,
            *parts,
            *(table(f"count.gold.{d}", 6) for d in PAPER_DATASETS),
            options={"parts": len(parts)},
            about="as a percentage of the distinct tweets (Table 6's sizes) instead of all labels",
        ),
        alternative(
            "rows.with_applications",
            internal.pooled_percentage,
            *posts(with_applications),
            *(table(f"count.labels.{d}", 1) for d in with_applications),
            options={"parts": 2 * len(with_applications)},
            about="over the language datasets and Facebook(it), DJIA30 and Environment",
        ),
    ]
    return relate(
        keys.POOLED_REPEATS_PRINTED,
        *parts,
        *(table(f"count.labels.{d}", 1) for d in PAPER_DATASETS),
        options={"parts": len(parts)},
        variants=variants,
    )


RELATIONS = [
    # Table 1: each row's classes against its total
    *[relate(keys.ROW_TOTAL, *(f"count.labels.{d}.{c}" for c in CLASSES), table_dataset=d) for d in TABLE_DATASETS],
    # Table 2: each row's classes against its total; both sentiment scores against their class counts
    *[
        relate(keys.PREDICTED_TOTAL, *(f"count.predicted.{d}.{c}" for c in CLASSES), classified=d)
        for d in CLASSIFIED_APPLICATIONS
    ],
    *[training_score(d) for d in CLASSIFIED_APPLICATIONS],
    *[
        relate(keys.PREDICTED_SCORE, *(f"count.predicted.{d}.{c}" for c in CLASSES), options=SCORES, classified=d)
        for d in CLASSIFIED_APPLICATIONS
    ],
    # Table 3: each percentage against its count and the row's total labels in Table 1
    *[repeat_share(kind, d) for d in TABLE_DATASETS for kind in ("self", "inter")],
    # the Ser/Cro/Bos row against the text's Serbian, Croatian and Bosnian figures
    relate(keys.JOINT_LABELS, *(f"count.labels.{language.lower()}" for language in JOINT)),
    relate(keys.JOINT_ANNOTATORS, *(f"count.annotators.{language.lower()}" for language in JOINT)),
    relate(keys.JOINT_SELF_REPEATS, *(f"count.self_repeats.{language.lower()}.posts" for language in JOINT)),
    # "13 language datasets, with over 1.6 million annotated tweets": Table 1's 13 totals
    relate(keys.LANGUAGE_LABELS_PRINTED, *(table(f"count.labels.{d}", 1) for d in PAPER_DATASETS)),
    # "83 native speakers": Table 3's annotators over the 13 language datasets; and Table 3's Emojis
    # row, a subset of their tweets, has at most as many annotators as they have
    relate(keys.ALL_ANNOTATORS_PRINTED, *(f"count.annotators.{d}" for d in PAPER_DATASETS)),
    relate(keys.EMOJIS_ANNOTATORS_PRINTED, *(f"count.annotators.{d}" for d in PAPER_DATASETS)),
    # "a fraction of tweets (about 15%) was intentionally duplicated": Table 3's posts annotated
    # twice over Table 1's labels, pooled over the 13 language datasets
    pooled_repeats(),
    # Table 6's sizes: Facebook(it) and DJIA30 were not merged (its caption); Environment
    # loses one label per post annotated twice
    *[relate(keys.GOLD_UNMERGED, table(f"count.labels.{d}", 1), no_merge=d) for d in ("facebook_it", "djia30")],
    relate(
        keys.GOLD_MERGED,
        table("count.labels.environment", 1),
        "count.self_repeats.environment.posts",
        "count.inter_repeats.environment.posts",
    ),
    # the text's figures against the tables they repeat or bound
    *[relate(keys.LABELS_AS_PRINTED, table(f"count.labels.{d}", 1), application=d) for d in APPLICATIONS],
    *[
        relate(keys.PREDICTED_AS_PRINTED, table(f"count.predicted.{d}", 2), classified=d)
        for d in CLASSIFIED_APPLICATIONS
    ],
    relate(keys.GOLD_AS_PRINTED, table("count.gold.environment", 6)),
    *[
        relate(keys.ALPHA_AS_PRINTED, table(f"alpha_interval.{kind}.{d}", 4), kind=kind, application=d)
        for d in APPLICATIONS
        for kind in ("self", "inter")
    ],
    *[
        relate(keys.SELF_SHARE_AS_PRINTED, "percent.self_repeats.{}.posts".format(d), classified=d)
        for d in CLASSIFIED_APPLICATIONS
    ],
    *[
        relate(keys.CLASSIFIER_AS_PRINTED, table(f"alpha_interval.classifier.{d}", 6), classifier_row=d)
        for d in [*(d for d in TABLE_DATASETS if d != "emojis"), "environment.english_model"]
    ],
    *[
        relate(keys.CLASSIFIER_ACC_AS_PRINTED, table(f"acc.classifier.{d}", 6), classifier_row=d)
        for d in ("environment", "environment.english_model")
    ],
    # "The classifier performance is typically in the range between 0.4-0.6. Notable exceptions are
    # Albanian and Spanish": the smallest and the largest Alpha of Table 6's other datasets
    *[
        relate(family, *(table(f"alpha_interval.classifier.{d}", 6) for d in TYPICAL_CLASSIFIERS))
        for family in (keys.TYPICAL_CLASSIFIER_MINIMUM, keys.TYPICAL_CLASSIFIER_MAXIMUM)
    ],
    *[relate(keys.GAIN_AS_PRINTED, f"alpha_gain.union.{d}", application=d) for d in APPLICATIONS],
    *[
        relate(keys.RATIO_AS_PRINTED, f"alpha_ratio.union.{d}.{r}", application=d, ratio=r)
        for d in APPLICATIONS
        for r in RATIOS
    ],
    # Table 5's Average* against the 14 rows it averages, and the text's "27% (1-0.73)", "35% (1-0.65)"
    relate(keys.AVERAGE_GAIN_PRINTED, *(f"alpha_gain.union.{d}" for d in AVERAGED)),
    *[relate(keys.AVERAGE_RATIO_PRINTED, *(f"alpha_ratio.union.{d}.{r}" for d in AVERAGED), ratio=r) for r in RATIOS],
    *[relate(keys.DIFFICULTY_PRINTED, 1, f"alpha_ratio.union.average.{r}", ratio=r) for r in RATIOS],
    # differences the text states between printed Alphas
    *[
        relate(
            keys.SELF_MINUS_INTER_PRINTED,
            table(f"alpha_interval.self.{d}", 4),
            table(f"alpha_interval.inter.{d}", 4),
            application=d,
        )
        for d in APPLICATIONS
    ],
    relate(
        keys.CLASSIFIER_MINUS_INTER_PRINTED,
        table("alpha_interval.classifier.djia30", 6),
        table("alpha_interval.inter.djia30", 4),
    ),
    relate(
        keys.ENGLISH_GAP_PRINTED,
        table("alpha_interval.inter.english", 4),
        table("alpha_interval.classifier.english", 6),
    ),
    relate(
        keys.SECOND_PERIOD_GAIN_PRINTED,
        "alpha_interval.inter.djia30.second_period",
        table("alpha_interval.inter.djia30", 4),
        variants=[
            alternative(
                "change.relative",
                internal.relative_change,
                "alpha_interval.inter.djia30.second_period",
                table("alpha_interval.inter.djia30", 4),
                about="a change relative to the first period's Alpha, 0.482 / 0.438 - 1",
            )
        ],
    ),
    # "in the period from June 2013 to September 2014, ... annotated twice (5,934)": Table 3's
    # DJIA30 row (Table 1's period: June 2013 to Sep. 2014), self plus inter
    relate(keys.FIRST_PERIOD_REPEATS_PRINTED, "count.self_repeats.djia30.posts", "count.inter_repeats.djia30.posts"),
    relate(
        keys.INTER_DIFFERENCE_PRINTED,
        table("alpha_interval.inter.polish", 4),
        table("alpha_interval.inter.slovenian", 4),
        pair="polish_minus_slovenian",
    ),
    relate(
        keys.INTER_DIFFERENCE_PRINTED,
        table("alpha_interval.inter.slovenian", 4),
        table("alpha_interval.inter.bulgarian", 4),
        pair="slovenian_minus_bulgarian",
    ),
    # DJIA30's first annotation period in the text against Table 1's time period
    *[relate(keys.MONTH_AS_PRINTED, table(f"month.{end}.djia30", 1), end=end) for end in ("first_post", "last_post")],
]
