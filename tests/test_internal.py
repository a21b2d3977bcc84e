"""Printed numbers checked against one another (reagree.pipeline.internal): relations over
other claims' printed texts, diffed like any claim; a failing one is a mismatch."""
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
PRINTED = [claim("count.labels.facebook.negative", "8750"), claim("count.labels.facebook.neutral", "7898"),
           claim("count.labels.facebook.positive", "2994"), claim("count.labels.facebook", "19642"),
           claim("count.self_repeats.facebook", "640", where="Table 3"),
           claim("alpha.inter.facebook", "0.673", where="Table 4"),
           claim("alpha.inter.facebook", "0.671", where="Results text"),
           claim("alpha_gain.a", "0.193"), claim("alpha_gain.b", "0.200"), claim("alpha_gain.c", "0.174")]
RELATIONS = [
    relate(PERCENT, "count.self_repeats.facebook", "count.labels.facebook", kind="self", dataset="facebook"),
    relate(TOTAL, *(f"count.labels.facebook.{c}" for c in ("negative", "neutral", "positive")), dataset="facebook"),
    relate(SCORE, *(f"count.labels.facebook.{c}" for c in ("negative", "neutral", "positive")),
           options={"scores": (-1, 0, 1)}, dataset="facebook"),
    relate(AVERAGE, "alpha_gain.a", "alpha_gain.b", "alpha_gain.c"),
    relate(SAME, Printed("alpha.inter.facebook", where="Table 4"), dataset="facebook"),
]
# The internal claims: each printed number held against the others.
INTERNAL = [claim("percent.self_repeats.facebook.from_printed", "3.2", where="Table 3, %", source="internal"),
            claim("count.labels.facebook.from_printed", "19642", where="Table 1, Total", source="internal"),
            claim("sentiment_score.facebook.from_printed", "-0.293", where="Table 2", source="internal"),
            claim("alpha_gain.average.from_printed", "0.189", where="Table 5, Average", source="internal"),
            claim("alpha.inter.facebook.from_printed", "0.671", where="Results text", source="internal")]


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
    assert row["note"] == "percentage(640 [count.self_repeats.facebook], 19642 [count.labels.facebook]) of printed numbers"


def test_an_internal_claim_that_fails_is_a_mismatch():
    values = pd.DataFrame(evaluate(RELATIONS, PRINTED + INTERNAL))
    table = diff_claims(INTERNAL, values).set_index("key")
    # 3.26% printed as 3.2; 0.673 in Table 4 printed as 0.671 in the text: findings
    assert table.loc["percent.self_repeats.facebook.from_printed", "status"] == "mismatch"
    assert table.loc["alpha.inter.facebook.from_printed", "status"] == "mismatch"
    # the row sums to its total; the score is the distribution's mean; the average is not (0.189)
    assert table.loc["count.labels.facebook.from_printed", "status"] == "match"
    assert table.loc["sentiment_score.facebook.from_printed", "status"] == "match"
    assert table.loc["alpha_gain.average.from_printed", "status"] == "match"
    assert (table["source"] == "internal").all()


def test_an_operand_must_name_one_printed_number():
    with pytest.raises(ValueError, match="no claim count.self_repeats.forum"):
        evaluate([relate(PERCENT, "count.self_repeats.forum", "count.labels.facebook", kind="self",
                         dataset="forum")], PRINTED)
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


@pytest.mark.parametrize("function, args, expected", [
    (internal.difference, (0.613, 0.516), 0.097), (internal.ratio, (0.482, 0.438), 0.482 / 0.438),
    (internal.minimum, (0.7, 0.6, 0.9), 0.6), (internal.maximum, (0.126, 0.121), 0.126),
    (internal.share, (1, 4), 0.25), (internal.difference, (23608, 996, 2718), 19894)])
def test_the_arithmetic_by_hand(function, args, expected):
    assert function(*args) == pytest.approx(expected)


def test_a_constant_the_text_writes_is_an_operand():
    complement = checked.family("alpha_gain.complement.from_printed", internal.difference)
    row = evaluate([relate(complement, 1, "alpha_gain.a")], PRINTED)[0]
    assert row["value"] == pytest.approx(1 - 0.193) and row["note"] == "difference(1, 0.193 [alpha_gain.a]) of printed numbers"
