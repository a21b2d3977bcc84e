"""The value keys of jayanetti2026, declared once (``reagree.pipeline.keys``).

Grammar: ``<measure>.<who>[.<against>][.<framing>][.<qualifier>]``. Who: a rater (six
humans ``rater1`` .. ``rater6``, three tools), a group (``humans``, ``tools``), a tool
rerun (``<tool>_rerun``), the released majority (``majority``) or the tweets themselves
(``tweets``: how many, how many were machine-translated). Against: the released
majority columns (``vs_majority``), a tie rule's re-voted majority
(``vs_majority_ties_<rule>``), one human rater (``vs_rater<i>``), all of them
(``vs_raters``, ``vs_rater_distribution``) or every deterministic tie rule at once
(``vs_majority_tie_rules``). Framings: ``three_class``, ``neg_vs_rest``,
``pos_vs_rest``. Each family below names the rule that writes it and the one function
that computes it.
"""

from reagree.methods import snowflake
from reagree.pipeline import internal
from reagree.pipeline.keys import KeyGrammar
from reagree.stats import bootstrap, majority, multirater, pairwise, reference, softlabel
from reagree.stats.ratings import Ratings

from jayanetti2026 import toolrerun
from jayanetti2026.release import (
    FRAMINGS,
    HUMANS,
    MAJORITY,
    RATERS,
    SENTIMENT,
    TIE_RULES,
    TOOLS,
    against,
    majority_name,
)

DETERMINISTIC = [rule for rule in TIE_RULES if rule != "random"]

KEYS = KeyGrammar(
    "jayanetti2026",
    slots={
        "framing": FRAMINGS,
        "binary": [framing for framing in FRAMINGS if framing != "three_class"],
        "rater": RATERS,
        "human": HUMANS,
        "tool": TOOLS,
        "group": ["humans", "tools"],
        "scored": [*TOOLS, MAJORITY],
        "category": dict.fromkeys(c for _, categories, _ in FRAMINGS.values() for c in categories),
        "sentiment": SENTIMENT,
        "tie_kind": ["negative_neutral", "negative_positive", "neutral_positive", "negative_neutral_positive"],
        "against": [against(rule) for rule in DETERMINISTIC],
        "against_rule": [against(rule) for rule in TIE_RULES if rule != "released"],
        "keeps_every_tweet": [against(rule) for rule in ("neutral", "polar")],
        "majority": [majority_name(rule) for rule in TIE_RULES],
        "rerun_tool": ["textblob", "vader"],
        "model_rerun_tool": ["roberta"],
        "position": ["first", "last"],
        "end": ["first_post", "last_post"],
    },
)

released = KEYS.rule("score_jayanetti2026_released")
TWEETS = released.family("count.tweets", Ratings.n_units)
FLEISS = released.family("fleiss.{group}.{framing}", multirater.fleiss_kappa)
TIES = released.family("count.ties.{framing}", majority.tied_units)
FLEISS_CATEGORY = released.family("fleiss_category.humans.{category}", multirater.fleiss_category_kappas)
LABEL_SHARE = released.family("percent.humans.{category}", Ratings.category_shares)
TOOL_LABELS = released.family("count.{tool}.three_class.{category}", majority.label_counts)
TIE_KINDS = released.family("count.ties.three_class.{tie_kind}", majority.tie_kinds)
TIES_RESOLVED_POLAR = released.family("count.ties.three_class.resolved_polar", majority.ties_resolved_away_from)
MAJORITY_DIFFERS_ON_UNTIED = released.family(
    "count.majority.released_differs_on_untied", majority.disagreements_on_untied
)
BINARY_CONTRADICTS = released.family("count.majority.binary_contradicts_three_class", majority.differing_units)
BINARY_CONTRADICTS_ROW = released.family(
    "row.majority.binary_contradicts_three_class.{position}", majority.differing_units
)
TIES_RESOLVED = released.family("count.ties.{framing}.resolved_{category}", majority.tie_resolutions)
TIE_KIND_RESOLVED = released.family("count.ties.three_class.{tie_kind}.resolved_{category}", majority.tie_resolutions)
TIE_KIND_RESOLVED_ROW = released.family(
    "row.ties.three_class.{tie_kind}.resolved_{category}.{position}", majority.tie_resolutions
)
PERCENT_TIED = released.family("percent.ties.{framing}", majority.percent_tied)
CATEGORY_MEAN = released.family("fleiss_category_mean.humans.three_class", multirater.fleiss_category_weighted_mean)
POSTING_MONTH = released.family("month.{end}.tweets", snowflake.posting_months)
FLEISS_GAIN = released.family("fleiss_gain.humans.{binary}", bootstrap.paired_difference)
KAPPA_GAIN = released.family("kappa_gain.roberta.vs_majority.pos_vs_rest", bootstrap.paired_difference)
KAPPA_WRITEUP_INTERVAL = released.family(
    "kappa.roberta.vs_majority.pos_vs_rest.scheme_numpy", reference.kappa_statistic
)

tie_rule = KEYS.rule("score_jayanetti2026_tie_rule")
KAPPA = tie_rule.family("kappa.{rater}.{against}.{framing}", reference.kappa_statistic)
KAPPA_RANDOM = tie_rule.family("kappa.{rater}.vs_majority_ties_random.{framing}", reference.kappa_against_many)
TWEETS_SCORED = tie_rule.family("count.tweets_scored.{against}", reference.kappa_statistic)
KAPPA_CHANGE = tie_rule.family("kappa_change.{tool}.{keeps_every_tweet}.{framing}", bootstrap.paired_difference)
MAJORITY_LABELS = tie_rule.family("count.{majority}.{framing}.{category}", majority.label_counts)

tie_rules = KEYS.rule("compare_jayanetti2026_tie_rules")
KAPPA_MIN = tie_rules.family("kappa_min.{tool}.vs_majority_tie_rules.{framing}", reference.range_over)
KAPPA_MAX = tie_rules.family("kappa_max.{tool}.vs_majority_tie_rules.{framing}", reference.range_over)
TOOL_PAIRS_SWAPPED = tie_rules.family("count.tool_pairs_swapped.{against_rule}.{framing}", reference.ranking_table)
SHARE_REORDERED = tie_rules.family(
    "share.tie_breaks_reordering_tools.vs_majority_ties_random.{framing}", reference.ranking_table
)

soft_labels = KEYS.rule("score_jayanetti2026_soft_labels")
KAPPA_VS_RATER = soft_labels.family("kappa.{scored}.vs_{human}.{framing}", pairwise.cohen_statistic)
KAPPA_MEAN = soft_labels.family("kappa_mean.{scored}.vs_raters.{framing}", softlabel.mean_kappa_statistic)
CROSS_ENTROPY = soft_labels.family(
    "cross_entropy.{scored}.vs_rater_distribution.{framing}", softlabel.cross_entropy_statistic
)


class Reruns:
    """The keys of one rerun rule (the tools' own, or RoBERTa's behind its setting)."""

    def __init__(self, rule: str, slot: str):
        families = KEYS.rule(rule)
        self.same = families.family(f"count.{{tool:{slot}}}_rerun.same_as_released", toolrerun.same_label_count)
        self.differs = families.family(f"count.{{tool:{slot}}}_rerun.differs_from_released", toolrerun.differing_rows)
        self.differs_translated = families.family(
            f"count.{{tool:{slot}}}_rerun.differs_from_released.translated", toolrerun.differing_rows
        )
        self.kappa = families.family(f"kappa.{{tool:{slot}}}_rerun.vs_majority.{{framing}}", reference.kappa_statistic)


RERUNS = {
    "rerun_jayanetti2026_tools": Reruns("rerun_jayanetti2026_tools", "rerun_tool"),
    "rerun_jayanetti2026_roberta": Reruns("rerun_jayanetti2026_roberta", "model_rerun_tool"),
}
read = KEYS.rule("rerun_jayanetti2026_tools")
TRANSLATED = read.family("count.tweets.translated", toolrerun.changed_texts)
TRANSLATION_ERRORS = read.family("count.tweets.translation_error", toolrerun.rows_with_text)
TRANSLATED_SHARE = read.family("percent.tweets.translated", toolrerun.changed_texts)
TRANSLATION_ERROR_VOTES = read.family("count.humans.translation_error.{sentiment}", toolrerun.votes_on_rows)

# Printed numbers held against one another where the LLM labels were never released
# (source: internal; the relations are in jayanetti2026/internal.py).
printed = KEYS.rule("check_jayanetti2026_printed")
ZERO_SHOT_GAIN = printed.family(
    "kappa_gain.qwen3_32b.zero_shot_minus_one_shot.{framing}.from_printed", internal.difference
)
LLAMA_MINUS_ROBERTA = printed.family(
    "kappa_difference.llama4_maverick_minus_roberta.{against}.pos_vs_rest.from_printed", internal.difference
)
ROBERTA_MINUS_BEST_LLM = printed.family(
    "kappa_difference.roberta_minus_best_llm.vs_majority.neg_vs_rest.from_printed", internal.difference
)
