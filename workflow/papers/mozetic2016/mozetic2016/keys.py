"""The value keys of mozetic2016, declared once (``reagree.pipeline.keys``).

Grammar: ``<measure>.<kind>.<dataset>[.<qualifier>]`` for agreement (kinds ``self``,
``inter``, ``union``: self and inter units together) and ``count.<what>.<dataset>[...]``
for counts. Datasets: every language in lower case and ``ser_cro_bos`` (the paper's
joint Serbian + Croatian + Bosnian set); qualifiers: a class (``negative``, ...), a
pair of classes (``negative_neutral``), ``posts`` / ``pairs`` (Table 3's two readings),
an annotator named in the text (``main_annotator``, ``annotator_a``, ``annotator_b``).
Each family below names the rule that writes it and the one function that computes it.
"""

from reagree.methods import snowflake
from reagree.pipeline import internal
from reagree.pipeline.keys import KeyGrammar
from reagree.stats.bootstrap import half_width
from reagree.stats.labels import Annotations
from reagree.stats.undefined import difference

from mozetic2016 import selfagreement
from mozetic2016.release import (
    APPLICATIONS,
    CATEGORIES,
    CLASSIFIED_APPLICATIONS,
    LANGUAGES,
    TABLE_DATASETS,
    datasets,
    read_language,
)

KEYS = KeyGrammar(
    "mozetic2016",
    slots={
        "dataset": datasets(LANGUAGES),
        "language": [language.lower() for language in LANGUAGES],
        "category": [category.lower() for category in CATEGORIES],
        "kind": ["self", "inter"],
        "reading": ["posts", "pairs"],
        "measure": ["acc_within_one", "acc", "f1_polar", "alpha_nominal"],
        "classes": ["negative_neutral", "neutral_positive", "negative_positive"],
        "ratio": ["negative_neutral", "neutral_positive"],
        "named": ["main_annotator", "annotator_a", "annotator_b"],
        "end": ["first_post", "last_post"],
        # the rows of the paper's tables (13 datasets and four applications), and the
        # application rows alone: internal checks of printed numbers (check_mozetic2016_printed)
        "table_dataset": TABLE_DATASETS,
        "application": APPLICATIONS,
        "classified": CLASSIFIED_APPLICATIONS,
        "classifier_row": [dataset for dataset in TABLE_DATASETS if dataset != "emojis"]
        + ["environment.english_model"],
        "no_merge": ["facebook_it", "djia30"],
        "pair": ["polish_minus_slovenian", "slovenian_minus_bulgarian"],
    },
)

labels = KEYS.rule("count_mozetic2016_labels")
LABELS = labels.family("count.labels.{dataset}", Annotations.n_labels)
TWEETS = labels.family("count.tweets.{dataset}", Annotations.n_units)
GOLD = labels.family("count.gold.{dataset}", selfagreement.gold_counts)
TWEETS_THREE_LABELS = labels.family(
    "count.tweets.{dataset}.three_or_more_labels", selfagreement.tweets_labelled_at_least
)
GOLD_READINGS_DIFFER = labels.family("count.gold_readings_differ.{dataset}", selfagreement.merge_readings_differ)
CLASS_LABELS = labels.family("count.labels.{dataset}.{category}", Annotations.label_counts)
CLASS_GOLD = labels.family("count.gold.{dataset}.{category}", selfagreement.gold_counts)
CLASS_GOLD_DISTINCT = labels.family("count.gold.{dataset}.distinct_reading.{category}", selfagreement.gold_counts)
POSTING_MONTH = labels.family("month.{end}.{dataset}", snowflake.posting_months)
ALL_LABELS = labels.family("count.labels.all_languages", Annotations.n_labels)
ALL_POSTING_MONTH = labels.family("month.{end}.all_languages", snowflake.posting_months)

repeats = KEYS.rule("count_mozetic2016_repeats")
ANNOTATORS = repeats.family("count.annotators.{dataset}", selfagreement.repeat_counts)
REPEATS = repeats.family("count.{kind}_repeats.{dataset}.{reading}", selfagreement.repeat_counts)
REPEATS_PERCENT = repeats.family("percent.{kind}_repeats.{dataset}.{reading}", selfagreement.RepeatCounts.percent)
BOTH_REPEATS = repeats.family("count.both_repeats.{dataset}", selfagreement.repeat_counts)
ALL_ANNOTATORS = repeats.family("count.annotators.all_languages", read_language)
# "a fraction of tweets (about 15%) was intentionally duplicated": the 15 files' posts labelled twice,
# pooled, as a percentage of all their labels (Table 3's share, over every language at once)
ALL_REPEATS_PERCENT = repeats.family("percent.repeats.all_languages.posts", selfagreement.repeated_share)

agreement = KEYS.rule("score_mozetic2016_agreement")
UNITS = agreement.family("count.units.{kind}.{dataset}", selfagreement.agreement_counts)
PAIRABLE = agreement.family("count.pairable.{kind}.{dataset}", selfagreement.agreement_measures)
MEASURE = agreement.family("{measure}.{kind}.{dataset}", selfagreement.agreement_measures)
ALPHA_INTERVAL = agreement.family("alpha_interval.{kind}.{dataset}", selfagreement.interval_alpha_statistic)
HALF_WIDTH = agreement.family("alpha_interval_half_width.{kind}.{dataset}", half_width)
SELF_MINUS_INTER = agreement.family("alpha_interval.self_minus_inter.{dataset}", difference)

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
ANNOTATOR_REPEATS = annotators.family(
    "count.self_repeats.{language}.{named}.{reading}", selfagreement.annotator_self_agreement
)
ANNOTATOR_LABELS = annotators.family("percent.labels.{language}.{named}", selfagreement.annotator_self_agreement)
TOP_ANNOTATORS_LABELS = annotators.family(
    "percent.labels.{language}.two_main_annotators", Annotations.top_raters_percent
)

# Printed numbers held against one another where the data were never released, or where the
# text repeats a table (source: internal; the relations are in mozetic2016/internal.py).
printed = KEYS.rule("check_mozetic2016_printed")
ROW_TOTAL = printed.family("count.labels.{table_dataset}.from_printed", internal.total)
PREDICTED_TOTAL = printed.family("count.predicted.{classified}.from_printed", internal.total)
SCORE = printed.family("sentiment_score.labels.{classified}.from_printed", internal.weighted_mean)
PREDICTED_SCORE = printed.family("sentiment_score.predicted.{classified}.from_printed", internal.weighted_mean)
REPEAT_SHARE = printed.family("percent.{kind}_repeats.{table_dataset}.from_printed", internal.percentage)
JOINT_LABELS = printed.family("count.labels.ser_cro_bos.from_printed_languages", internal.total)
JOINT_ANNOTATORS = printed.family("count.annotators.ser_cro_bos.from_printed_languages", internal.total)
JOINT_SELF_REPEATS = printed.family("count.self_repeats.ser_cro_bos.from_printed_languages", internal.total)
LANGUAGE_LABELS_PRINTED = printed.family("count.labels.language_datasets.from_printed", internal.total)
ALL_ANNOTATORS_PRINTED = printed.family("count.annotators.all_languages.from_printed", internal.total)
EMOJIS_ANNOTATORS_PRINTED = printed.family("count.annotators.emojis.from_printed", internal.total)
POOLED_REPEATS_PRINTED = printed.family("percent.repeats.language_datasets.from_printed", internal.pooled_percentage)
GOLD_UNMERGED = printed.family("count.gold.{no_merge}.from_printed", internal.same)
GOLD_MERGED = printed.family("count.gold.environment.from_printed", internal.difference)
LABELS_AS_PRINTED = printed.family("count.labels.{application}.as_printed", internal.same)
PREDICTED_AS_PRINTED = printed.family("count.predicted.{classified}.as_printed", internal.same)
GOLD_AS_PRINTED = printed.family("count.gold.environment.as_printed", internal.same)
ALPHA_AS_PRINTED = printed.family("alpha_interval.{kind}.{application}.as_printed", internal.same)
SELF_SHARE_AS_PRINTED = printed.family("percent.self_repeats.{classified}.as_printed", internal.same)
CLASSIFIER_AS_PRINTED = printed.family("alpha_interval.classifier.{classifier_row}.as_printed", internal.same)
CLASSIFIER_ACC_AS_PRINTED = printed.family("acc.classifier.{classifier_row}.as_printed", internal.same)
TYPICAL_CLASSIFIER_MINIMUM = printed.family("alpha_interval.classifier.typical.minimum.from_printed", internal.minimum)
TYPICAL_CLASSIFIER_MAXIMUM = printed.family("alpha_interval.classifier.typical.maximum.from_printed", internal.maximum)
GAIN_AS_PRINTED = printed.family("alpha_gain.union.{application}.as_printed", internal.same)
RATIO_AS_PRINTED = printed.family("alpha_ratio.union.{application}.{ratio}.as_printed", internal.same)
AVERAGE_GAIN_PRINTED = printed.family("alpha_gain.union.average.from_printed", internal.mean)
AVERAGE_RATIO_PRINTED = printed.family("alpha_ratio.union.average.{ratio}.from_printed", internal.mean)
DIFFICULTY_PRINTED = printed.family("alpha_ratio_complement.union.average.{ratio}.from_printed", internal.difference)
SELF_MINUS_INTER_PRINTED = printed.family(
    "alpha_interval.self_minus_inter.{application}.from_printed", internal.difference
)
CLASSIFIER_MINUS_INTER_PRINTED = printed.family(
    "alpha_interval.classifier_minus_inter.djia30.from_printed", internal.difference
)
ENGLISH_GAP_PRINTED = printed.family("alpha_gap.classifier.english.from_printed", internal.difference)
SECOND_PERIOD_GAIN_PRINTED = printed.family(
    "alpha_interval.inter.djia30.second_period_minus_first.from_printed", internal.difference
)
INTER_DIFFERENCE_PRINTED = printed.family("alpha_interval.inter.{pair}.from_printed", internal.difference)
MONTH_AS_PRINTED = printed.family("month.{end}.djia30.as_printed", internal.same)
FIRST_PERIOD_REPEATS_PRINTED = printed.family("count.repeats.djia30.first_period.from_printed", internal.total)
