"""The value keys of mozetic2016, declared once (``reagree.pipeline.keys``).

Grammar: ``<measure>.<kind>.<dataset>[.<qualifier>]`` for agreement (kinds ``self``,
``inter``, ``union``: self and inter units together) and ``count.<what>.<dataset>[...]``
for counts. Datasets: every language in lower case and ``ser_cro_bos`` (the paper's
joint Serbian + Croatian + Bosnian set); qualifiers: a class (``negative``, ...), a
pair of classes (``negative_neutral``), ``posts`` / ``pairs`` (Table 3's two readings),
an annotator named in the text (``main_annotator``, ``annotator_a``, ``annotator_b``).
Each family below names the rule that writes it and the one function that computes it.
"""
from reagree.pipeline.keys import KeyGrammar
from reagree.stats import selfagreement
from reagree.stats.annotations import Annotations

from mozetic2016.release import CATEGORIES, LANGUAGES, datasets, read_language

KEYS = KeyGrammar("mozetic2016", slots={
    "dataset": datasets(LANGUAGES),
    "language": [language.lower() for language in LANGUAGES],
    "category": [category.lower() for category in CATEGORIES],
    "kind": ["self", "inter"],
    "reading": ["posts", "pairs"],
    "measure": ["acc_within_one", "acc", "f1_polar", "alpha_nominal"],
    "classes": ["negative_neutral", "neutral_positive", "negative_positive"],
    "ratio": ["negative_neutral", "neutral_positive"],
    "named": ["main_annotator", "annotator_a", "annotator_b"],
})

labels = KEYS.rule("count_mozetic2016_labels")
LABELS = labels.family("count.labels.{dataset}", Annotations.n_labels)
TWEETS = labels.family("count.tweets.{dataset}", Annotations.n_units)
GOLD = labels.family("count.gold.{dataset}", selfagreement.gold_counts)
TWEETS_THREE_LABELS = labels.family("count.tweets.{dataset}.three_or_more_labels", selfagreement.tweets_labelled_at_least)
GOLD_READINGS_DIFFER = labels.family("count.gold_readings_differ.{dataset}", selfagreement.merge_readings_differ)
CLASS_LABELS = labels.family("count.labels.{dataset}.{category}", Annotations.label_counts)
CLASS_GOLD = labels.family("count.gold.{dataset}.{category}", selfagreement.gold_counts)
CLASS_GOLD_DISTINCT = labels.family("count.gold.{dataset}.distinct_reading.{category}", selfagreement.gold_counts)

repeats = KEYS.rule("count_mozetic2016_repeats")
ANNOTATORS = repeats.family("count.annotators.{dataset}", selfagreement.repeat_counts)
REPEATS = repeats.family("count.{kind}_repeats.{dataset}.{reading}", selfagreement.repeat_counts)
REPEATS_PERCENT = repeats.family("percent.{kind}_repeats.{dataset}.{reading}", selfagreement.RepeatCounts.percent)
BOTH_REPEATS = repeats.family("count.both_repeats.{dataset}", selfagreement.repeat_counts)
ALL_ANNOTATORS = repeats.family("count.annotators.all_languages", read_language)

agreement = KEYS.rule("score_mozetic2016_agreement")
UNITS = agreement.family("count.units.{kind}.{dataset}", selfagreement.agreement_counts)
PAIRABLE = agreement.family("count.pairable.{kind}.{dataset}", selfagreement.agreement_measures)
MEASURE = agreement.family("{measure}.{kind}.{dataset}", selfagreement.agreement_measures)
ALPHA_INTERVAL = agreement.family("alpha_interval.{kind}.{dataset}", selfagreement.interval_alpha_statistic)
HALF_WIDTH = agreement.family("alpha_interval_half_width.{kind}.{dataset}", selfagreement.half_width)

ordering = KEYS.rule("score_mozetic2016_ordering")
GAIN = ordering.family("alpha_gain.union.{dataset}", selfagreement.ordering_evidence)
UNION_ALPHA_INTERVAL = ordering.family("alpha_interval.union.{dataset}", selfagreement.agreement_measures)
UNION_ALPHA_NOMINAL = ordering.family("alpha_nominal.union.{dataset}", selfagreement.agreement_measures)
RATIO = ordering.family("alpha_ratio.union.{dataset}.{ratio}", selfagreement.ordering_evidence)
TWO_CLASS_ALPHA = ordering.family("alpha_interval.union.{dataset}.{classes}", selfagreement.ordering_evidence)
AVERAGE_GAIN = ordering.family("alpha_gain.union.average_built", selfagreement.average_evidence)
AVERAGE_RATIO = ordering.family("alpha_ratio.union.average_built.{ratio}", selfagreement.average_evidence)

annotators = KEYS.rule("score_mozetic2016_annotators")
ANNOTATOR_ALPHA = annotators.family("alpha_interval.self.{language}.{named}", selfagreement.annotator_self_agreement)
ANNOTATOR_REPEATS = annotators.family("count.self_repeats.{language}.{named}.{reading}",
                                      selfagreement.annotator_self_agreement)
ANNOTATOR_LABELS = annotators.family("percent.labels.{language}.{named}", selfagreement.annotator_self_agreement)
