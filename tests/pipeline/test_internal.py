"""Printed numbers checked against one another (reagree.pipeline.internal): relations over
other claims' printed texts, each printed input the interval its digits allow; a relation
is consistent or inconsistent, never a match."""

import pandas as pd
import pytest

from reagree.pipeline import internal
from reagree.pipeline.claims import diff_claims
from reagree.pipeline.internal import Printed, evaluate, relate
from reagree.pipeline.keys import KeyGrammar
from reagree.pipeline.paperspec import PrintedNumber

KEYS = KeyGrammar("demo", slots={"dataset": ["facebook", "forum"], "kind": ["self", "inter"]})
checked = KEYS.rule("check_demo_printed")
PERCENT = checked.family("percent.{kind}_repeats.{dataset}.from_printed", internal.percentage)
TOTAL = checked.family("count.labels.{dataset}.from_printed", internal.total)
SCORE = checked.family("sentiment_score.{dataset}.from_printed", internal.weighted_mean)
AVERAGE = checked.family("alpha_gain.average.from_printed", internal.mean)
SAME = checked.family("alpha.inter.{dataset}.from_printed", internal.same)


def claim(key, published, where="Table 1", source="paper", **extra):
    return {"key": key, "where": where, "source": source, "published": PrintedNumber(published), **extra}


# A small paper whose labels were never released: its Table 1 (counts), Table 3 (a count of
# posts labelled twice and its share), a text figure and an average.
PRINTED = [
    claim("count.labels.facebook.negative", "8750"),
    claim("count.labels.facebook.neutral", "7898"),
    claim("count.labels.facebook.positive", "2994"),
    claim("count.labels.facebook", "19642"),
    claim("count.self_repeats.facebook", "640", where="Table 3"),
    claim("alpha.inter.facebook", "0.673", where="Table 4"),
    claim("alpha.inter.facebook", "0.671", where="Results text"),
    claim("alpha_gain.a", "0.193"),
    claim("alpha_gain.b", "0.200"),
    claim("alpha_gain.c", "0.174"),
]
RELATIONS = [
    relate(PERCENT, "count.self_repeats.facebook", "count.labels.facebook", kind="self", dataset="facebook"),
    relate(TOTAL, *(f"count.labels.facebook.{c}" for c in ("negative", "neutral", "positive")), dataset="facebook"),
    relate(
        SCORE,
        *(f"count.labels.facebook.{c}" for c in ("negative", "neutral", "positive")),
        options={"scores": (-1, 0, 1)},
        dataset="facebook",
    ),
    relate(AVERAGE, "alpha_gain.a", "alpha_gain.b", "alpha_gain.c"),
    relate(SAME, Printed("alpha.inter.facebook", where="Table 4"), dataset="facebook"),
]
# The internal claims: each printed number held against the others.
INTERNAL = [
    claim("percent.self_repeats.facebook.from_printed", "3.2", where="Table 3, %", source="internal"),
    claim("count.labels.facebook.from_printed", "19642", where="Table 1, Total", source="internal"),
    claim("sentiment_score.facebook.from_printed", "-0.293", where="Table 2", source="internal"),
    claim("alpha_gain.average.from_printed", "0.189", where="Table 5, Average", source="internal"),
    claim("alpha.inter.facebook.from_printed", "0.671", where="Results text", source="internal"),
]


def test_relations_compute_from_the_printed_texts_by_hand():
    values = {row["key"]: row for row in evaluate(RELATIONS, PRINTED + INTERNAL)}
    # 640 / 19642 = 0.032583...: 3.26%, by hand
    assert values["percent.self_repeats.facebook.from_printed"]["value"] == pytest.approx(3.258324, abs=1e-6)
    assert values["count.labels.facebook.from_printed"]["value"] == 8750 + 7898 + 2994
    assert values["sentiment_score.facebook.from_printed"]["value"] == pytest.approx((2994 - 8750) / 19642)
    assert values["alpha_gain.average.from_printed"]["value"] == pytest.approx((0.193 + 0.200 + 0.174) / 3)
    assert values["alpha.inter.facebook.from_printed"]["value"] == 0.673
    row = values["percent.self_repeats.facebook.from_printed"]
    assert row["rule"] == "check_demo_printed" and row["function"] == "reagree.pipeline.internal.percentage"
    assert (
        row["note"] == "percentage(640 [count.self_repeats.facebook], 19642 [count.labels.facebook]) of printed numbers"
    )


def test_the_printed_rule_returns_the_relations_values_and_their_variants_at_once():
    """check_printed is what scripts/check_printed.py writes: the same claims read once (a
    generator of claims too) for the values and for the variants."""
    outputs = internal.check_printed(RELATIONS, iter(PRINTED + INTERNAL))
    values = {row["key"]: row["value"] for row in outputs.values}
    assert values["count.labels.facebook.from_printed"] == 8750 + 7898 + 2994  # by hand, as above
    assert len(outputs.values) == len(RELATIONS)
    assert outputs.variants == []  # these relations declare no alternative


def test_an_internal_claim_that_fails_is_inconsistent_and_one_that_holds_is_consistent():
    values = pd.DataFrame(evaluate(RELATIONS, PRINTED + INTERNAL))
    table = diff_claims(INTERNAL, values).set_index("key")
    # 3.26% printed as 3.2; 0.673 in Table 4 printed as 0.671 in the text: findings
    assert table.loc["percent.self_repeats.facebook.from_printed", "status"] == "inconsistent"
    assert table.loc["alpha.inter.facebook.from_printed", "status"] == "inconsistent"
    # the row sums to its total; the score is the distribution's mean; the average is 0.189
    assert table.loc["count.labels.facebook.from_printed", "status"] == "consistent"
    assert table.loc["sentiment_score.facebook.from_printed", "status"] == "consistent"
    assert table.loc["alpha_gain.average.from_printed", "status"] == "consistent"
    assert (table["source"] == "internal").all()


# --- the cases, from the printed tables of Mozetič et al. (2016), worked by hand -----

MOZETIC = KeyGrammar("moz", slots={"ratio": ["neutral_positive"]})
moz = MOZETIC.rule("check_moz_printed")
AVERAGE_RATIO = moz.family("alpha_ratio.average.{ratio}.from_printed", internal.mean)
ENV_SCORE = moz.family("sentiment_score.environment.from_printed", internal.weighted_mean)
FB_SHARE = moz.family("percent.self_repeats.facebook.from_printed", internal.percentage)
# Table 5's Alpha_int(0,+) / Alpha_int(-,+) column: the 14 rows its Average* averages
TABLE5 = {
    "bulgarian": "0.547",
    "english": "0.647",
    "german": "0.513",
    "hungarian": "0.665",
    "polish": "0.592",
    "portuguese": "0.476",
    "russian": "0.854",
    "ser_cro_bos": "0.635",
    "slovak": "0.956",
    "slovenian": "0.595",
    "swedish": "0.788",
    "facebook": "0.715",
    "djia30": "0.687",
    "environment": "0.440",
}


def _printed(pairs, where="Table"):
    return [claim(key, text, where=where) for key, text in pairs.items()]


def test_table_5_average_0_650_is_consistent_with_its_14_rounded_rows():
    # the rows sum to 9.110, mean 0.650714...; each row +-0.0005, so the mean lies in
    # [0.650714 - 0.0005, 0.650714 + 0.0005] = [0.650214, 0.651214], which meets 0.650's rounding
    # (0.6495 to 0.6505): consistent, though 0.650714 itself prints as 0.651
    printed = _printed({f"alpha_ratio.{d}": v for d, v in TABLE5.items()})
    relation = relate(AVERAGE_RATIO, *(f"alpha_ratio.{d}" for d in TABLE5), ratio="neutral_positive")
    row = evaluate([relation], printed)[0]
    assert row["value"] == pytest.approx(9.110 / 14)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((9.110 / 14 - 0.0005, 9.110 / 14 + 0.0005))
    table = diff_claims([claim(relation.key, "0.650", source="internal")], pd.DataFrame([row]))
    assert table.loc[0, "status"] == "consistent"


def test_environment_minus_0_137_is_inconsistent_with_table_1_s_counts():
    # (3,145 - 6,246) / 23,608 = -0.131354; the counts +-0.5 move it by at most 4.5e-05. By hand,
    # the lowest corner takes the fewest positives, the most negatives and the fewest neutrals:
    # (3144.5 - 6246.5) / (6246.5 + 14216.5 + 3144.5) = -3102 / 23607.5 = -0.131399; the highest
    # the opposite: -3100 / 23608.5 = -0.131309. Nowhere near -0.137 +- 0.0005
    printed = _printed({"n": "6,246", "z": "14,217", "p": "3,145"})
    relation = relate(ENV_SCORE, "n", "z", "p", options={"scores": (-1, 0, 1)})
    row = evaluate([relation], printed)[0]
    assert row["value"] == pytest.approx(-3101 / 23608)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-3102 / 23607.5, -3100 / 23608.5))
    table = diff_claims([claim(relation.key, "-0.137", source="internal")], pd.DataFrame([row]))
    assert table.loc[0, "status"] == "inconsistent"


def test_facebook_3_2_percent_is_inconsistent_with_640_of_19_642():
    # 100 * 640 / 19,642 = 3.2583%; the inputs allow 100 * 639.5 / 19642.5 = 3.2557 to
    # 100 * 640.5 / 19641.5 = 3.2610; 3.2 allows 3.15 to 3.25: no overlap, inconsistent
    printed = _printed({"posts": "640", "labels": "19,642"})
    row = evaluate([relate(FB_SHARE, "posts", "labels")], printed)[0]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((100 * 639.5 / 19642.5, 100 * 640.5 / 19641.5))
    table = diff_claims([claim(FB_SHARE.key(), "3.2", source="internal")], pd.DataFrame([row]))
    assert table.loc[0, "status"] == "inconsistent"
    assert table.loc[0, "rounding"].startswith(
        "truncation of the value from the printed numbers (3.25832) would give 3.2"
    )
    assert table.loc[0, "explained_by"] == "no variant tried (none declared for this relation)"


@pytest.mark.parametrize(
    "function, ranges, options, expected",
    [
        (internal.total, ((1.5, 2.5), (9.5, 10.5)), {}, (11, 13)),
        (internal.mean, ((0.5, 1.5), (2.5, 3.5)), {}, (1.5, 2.5)),
        (internal.difference, ((0.4815, 0.4825), (0.4375, 0.4385)), {}, (0.043, 0.045)),
        (internal.ratio, ((1.5, 2.5), (-4.5, -3.5)), {}, (2.5 / -3.5, 1.5 / -4.5)),
        (internal.percentage, ((639.5, 640.5), (19641.5, 19642.5)), {}, (100 * 639.5 / 19642.5, 100 * 640.5 / 19641.5)),
        (
            internal.relative_change,
            ((0.4815, 0.4825), (0.4375, 0.4385)),
            {},
            (0.4815 / 0.4385 - 1, 0.4825 / 0.4375 - 1),
        ),
        (internal.minimum, ((0.1, 0.3), (0.2, 0.25)), {}, (0.1, 0.25)),
        (internal.maximum, ((0.1, 0.3), (0.2, 0.25)), {}, (0.2, 0.3)),
        (internal.same, ((4.15, 4.25),), {}, (4.15, 4.25)),
        # 0.2975-0.2985 against 0.2905-0.2915 and 0.0645-0.0655: surely the largest
        (internal.rank, ((0.2975, 0.2985), (0.2905, 0.2915), (0.0645, 0.0655)), {}, (1, 1)),
        # overlapping with one: rank 1 or 2
        (internal.rank, ((0.29, 0.30), (0.295, 0.296)), {}, (1, 2)),
        # a weighted mean is not monotone in every count; its corners: (1*1 + 1*3)/4 = 1 ... by hand
        (internal.weighted_mean, ((0, 2), (1, 1)), {"scores": (0, 1)}, (1 / 3, 1.0)),
        # two counts (1.5-2.5, 3.5-4.5: sum 5-7) over two bases (9.5-10.5, 19.5-20.5: sum 29-31): 500/31 to 700/29
        (
            internal.pooled_percentage,
            ((1.5, 2.5), (3.5, 4.5), (9.5, 10.5), (19.5, 20.5)),
            {"parts": 2},
            (500 / 31, 700 / 29),
        ),
    ],
)
def test_a_range_over_printed_intervals_by_hand(function, ranges, options, expected):
    assert internal.value_range(function, ranges, options) == pytest.approx(expected)


def test_a_denominator_whose_interval_holds_zero_is_undefined_with_its_reason():
    found = internal.value_range(internal.ratio, ((1.5, 2.5), (-0.5, 0.5)))
    assert found != found and "holds 0" in found.reason


def test_an_operand_must_name_one_printed_number():
    with pytest.raises(ValueError, match="no claim count.self_repeats.forum"):
        evaluate(
            [relate(PERCENT, "count.self_repeats.forum", "count.labels.facebook", kind="self", dataset="forum")],
            PRINTED,
        )
    with pytest.raises(ValueError, match=r"printed as \['0.671', '0.673'\].*name the place"):
        evaluate([relate(SAME, "alpha.inter.facebook", dataset="facebook")], PRINTED)
    with pytest.raises(ValueError, match="declared twice"):
        evaluate(RELATIONS[:1] * 2, PRINTED)


def test_a_relation_s_family_names_one_of_the_module_s_functions():
    other = checked.family("count.other.{dataset}", "reagree.stats.multirater.fleiss_kappa")
    with pytest.raises(ValueError, match="is not one of reagree.pipeline.internal's"):
        relate(other, "count.labels.facebook", dataset="facebook")
    with pytest.raises(ValueError, match="not a declared dataset"):
        relate(TOTAL, "count.labels.facebook", dataset="twitter")


def test_a_printed_zero_base_is_undefined_with_its_reason():
    zero = [claim("count.self_repeats.facebook", "0"), claim("count.labels.facebook", "0")]
    row = evaluate(RELATIONS[:1], zero)[0]
    assert row["value"] != row["value"] and "the base is 0" in row["note"]


@pytest.mark.parametrize(
    "function, args, expected",
    [
        (internal.difference, (0.613, 0.516), 0.097),
        (internal.ratio, (0.482, 0.438), 0.482 / 0.438),
        (internal.minimum, (0.7, 0.6, 0.9), 0.6),
        (internal.maximum, (0.126, 0.121), 0.126),
        (internal.share, (1, 4), 0.25),
        (internal.difference, (23608, 996, 2718), 19894),
    ],
)
def test_the_arithmetic_by_hand(function, args, expected):
    assert function(*args) == pytest.approx(expected)


def test_a_constant_the_text_writes_is_an_operand():
    complement = checked.family("alpha_gain.complement.from_printed", internal.difference)
    row = evaluate([relate(complement, 1, "alpha_gain.a")], PRINTED)[0]
    assert (
        row["value"] == pytest.approx(1 - 0.193)
        and row["note"] == "difference(1, 0.193 [alpha_gain.a]) of printed numbers"
    )


def test_a_pooled_percentage_adds_the_rows_up_before_dividing():
    # rows 1 of 10 (10%) and 4 of 20 (20%): pooled, 5 of 30 is 16.7%, not the mean of the rows' 15%
    assert internal.pooled_percentage(1, 4, 10, 20, parts=2) == pytest.approx(100 * 5 / 30)
    assert "the bases sum to 0" in internal.pooled_percentage(1, 0, parts=1).reason
    with pytest.raises(ValueError, match="parts=2 must leave at least one count and one base of 2 operands"):
        internal.pooled_percentage(1, 4, parts=2)
