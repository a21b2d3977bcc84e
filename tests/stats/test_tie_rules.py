"""Tie rules on a hand-made six-rater vote table, every answer worked out here.

The table (six raters, three classes; declared order negative, neutral, positive):

    unit 0  neg neg neg neu neu neu   3-3 negative/neutral
    unit 1  neu neu neu pos pos pos   3-3 neutral/positive
    unit 2  neg neg neg pos pos pos   3-3 negative/positive (no neutral side)
    unit 3  neg neg neu neu pos pos   2-2-2
    unit 4  pos pos pos pos neu neg   positive, untied
    unit 5  neg neg neg neg neu neu   negative, untied
    unit 6  (nobody rated it)

and a tool labelling units 0..6: neu neu pos neu pos neg neu.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from reagree.stats.majority import (
    label_counts,
    majority_vote,
    random_majorities,
    tie_kinds,
    tie_table,
    tied_units,
    ties_resolved_away_from,
)
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.reference import (
    kappa_against_many,
    kappa_statistic,
    range_over,
    ranking,
    ranking_table,
    share_reordered,
    spread,
    swaps,
)

SENTIMENT = ("negative", "neutral", "positive")


def kappa_against(ratings, rater, reference):
    """Cohen's kappa of one rater against one reference labelling, as the rules compute it."""
    return kappa_statistic(ratings, rater, reference).value()


NEG, NEU, POS, M = 0, 1, 2, MISSING
VOTES = [
    ["negative"] * 3 + ["neutral"] * 3,
    ["neutral"] * 3 + ["positive"] * 3,
    ["negative"] * 3 + ["positive"] * 3,
    ["negative", "negative", "neutral", "neutral", "positive", "positive"],
    ["positive"] * 4 + ["neutral", "negative"],
    ["negative"] * 4 + ["neutral"] * 2,
    [None] * 6,
]
TOOL = ["neutral", "neutral", "positive", "neutral", "positive", "negative", "neutral"]


@pytest.fixture
def votes():
    return Ratings.from_labels(np.array(VOTES, dtype=object), categories=SENTIMENT, units_by_raters=True)


@pytest.fixture
def with_tool():
    return Ratings.from_labels(np.array([TOOL], dtype=object).T, categories=SENTIMENT, raters=["tool"])


def test_which_units_tie_and_how(votes):
    assert tied_units(votes).tolist() == [True, True, True, True, False, False, False]
    assert tie_kinds(votes) == {
        "negative_neutral": 1,
        "negative_positive": 1,
        "neutral_positive": 1,
        "negative_neutral_positive": 1,
    }
    table = tie_table(votes, {"polar": np.array(SENTIMENT + ("", ""), dtype=object)[majority_vote(votes, "polar")]})
    assert table["row"].tolist() == [0, 1, 2, 3]
    assert table["votes_neutral"].tolist() == [3, 3, 0, 2]
    assert table["tie"].tolist() == [
        "negative_neutral",
        "neutral_positive",
        "negative_positive",
        "negative_neutral_positive",
    ]
    assert table["polar"].tolist() == ["negative", "positive", "neutral", "neutral"]


def test_neutral_sends_every_tie_to_the_middle(votes):
    # 3-3 with neutral -> neutral; negative/positive -> neutral (between them); 2-2-2 -> neutral
    assert majority_vote(votes, "neutral").tolist() == [NEU, NEU, NEU, NEU, POS, NEG, M]


def test_polar_sends_a_neutral_tie_to_its_polar_side(votes):
    # neg/neu -> negative; neu/pos -> positive; neg/pos and 2-2-2 have no single polar side -> neutral
    assert majority_vote(votes, "polar").tolist() == [NEG, POS, NEU, NEU, POS, NEG, M]


def test_drop_leaves_every_tie_out(votes):
    assert majority_vote(votes, "drop").tolist() == [M, M, M, M, POS, NEG, M]


def test_random_draws_between_the_sides_as_documented(votes):
    labellings = random_majorities(votes, 5, seed=7)
    # The module's promise: one default_rng(seed), integers(0, sides, size=(R, tied units)),
    # the k-th side in declared order. Tied units 0..3 have 2, 2, 2 and 3 sides.
    sides = [[NEG, NEU], [NEU, POS], [NEG, POS], [NEG, NEU, POS]]
    picks = np.random.default_rng(7).integers(0, [2, 2, 2, 3], size=(5, 4))
    expected = [[sides[u][picks[r, u]] for u in range(4)] + [POS, NEG, M] for r in range(5)]
    assert labellings.tolist() == expected
    assert majority_vote(votes, "random", seed=7).tolist() == expected[0]
    assert (random_majorities(votes, 5, seed=7) == labellings).all()  # same seed, same labellings


def test_random_is_fair_between_the_sides(votes):
    labellings = random_majorities(votes, 20_000, seed=1)
    # binomial standard error sqrt(1/4 / 20000) = 0.0035; 0.02 is more than five of them
    assert (labellings[:, 0] == NEG).mean() == pytest.approx(1 / 2, abs=0.02)
    assert (labellings[:, 1] == POS).mean() == pytest.approx(1 / 2, abs=0.02)
    assert set(np.unique(labellings[:, 2])) == {NEG, POS}
    assert [(labellings[:, 3] == c).mean() for c in (NEG, NEU, POS)] == pytest.approx([1 / 3] * 3, abs=0.02)
    assert (labellings[:, 4] == POS).all() and (labellings[:, 5] == NEG).all() and (labellings[:, 6] == M).all()


def test_rule_errors(votes):
    with pytest.raises(ValueError, match="unknown tie rule"):
        majority_vote(votes, "released")  # a released column is data, not a rule
    with pytest.raises(ValueError, match="needs a seed"):
        majority_vote(votes, "random")
    two = Ratings(np.array([[0, 1]]), ("no", "yes"), ("a", "b"))
    with pytest.raises(ValueError, match="three-category bipolar scale"):
        majority_vote(two, "polar")


def test_label_counts_and_ties_resolved(votes):
    assert label_counts(majority_vote(votes, "neutral"), SENTIMENT).tolist() == [1, 4, 1]
    assert label_counts(majority_vote(votes, "polar"), SENTIMENT).tolist() == [2, 2, 2]
    assert label_counts(np.array([[NEG, M], [POS, POS]]), SENTIMENT).tolist() == [[1, 0, 0], [0, 0, 2]]
    # polar resolves units 0 and 1 away from neutral, units 2 and 3 to neutral
    assert ties_resolved_away_from(votes, majority_vote(votes, "polar"), "neutral") == 2


def test_kappa_against_each_rule_worked_by_hand(votes, with_tool):
    # tool on units 0..5: neu neu pos neu pos neg (unit 6 has no majority under any rule)
    # neutral majority  neu neu neu neu pos neg: agreement 5/6; marginals tool (1,3,2), majority (1,4,1)
    #   p_e = (1*1 + 3*4 + 2*1)/36 = 5/12, kappa = (5/6 - 5/12) / (1 - 5/12) = 5/7
    assert kappa_against(with_tool, "tool", majority_vote(votes, "neutral")) == pytest.approx(5 / 7)
    # polar majority    neg pos neu neu pos neg: agreement 3/6; marginals tool (1,3,2), majority (2,2,2)
    #   p_e = 12/36 = 1/3, kappa = (1/2 - 1/3) / (2/3) = 1/4
    assert kappa_against(with_tool, "tool", majority_vote(votes, "polar")) == pytest.approx(1 / 4)
    # drop: only units 4 and 5 (pos, neg), both agree; p_e = 1/2, kappa = 1
    assert kappa_against(with_tool, "tool", majority_vote(votes, "drop")) == pytest.approx(1.0)
    # polar recoded to positive vs rest: majority  non pos non non pos non; tool non non pos non pos non
    #   agreement 4/6, both mark 2 of 6 positive: p_e = (4/6)^2 + (2/6)^2 = 5/9, kappa = (2/3 - 5/9)/(4/9) = 1/4
    rest = {"negative": "rest", "neutral": "rest", "positive": "positive"}
    both = with_tool.with_column("polar", majority_vote(votes, "polar")).recode(rest, ("rest", "positive"))
    assert kappa_against(both, "tool", both.codes[:, 1]) == pytest.approx(1 / 4)


def test_random_kappas_equal_a_per_labelling_loop(votes, with_tool):
    labellings = random_majorities(votes, 200, seed=3)
    kappas = kappa_against_many(with_tool, "tool", labellings)
    tool = with_tool.codes[:6, 0]
    expected = [cohen_kappa_score(tool, row[:6]) for row in labellings]  # unit 6 has no majority
    assert kappas == pytest.approx(expected, abs=1e-12)
    median, interval = spread(kappas, 0.95, seed=3)
    assert median == pytest.approx(np.median(expected))
    assert (interval.low, interval.high) == pytest.approx(tuple(np.percentile(expected, [2.5, 97.5])))
    assert interval.scheme == "random-ties; draws=200; seed=3; level=0.95"


def test_rankings_and_swaps():
    assert ranking({"a": 0.5, "b": 0.4, "c": 0.7}) == "c > a > b"
    assert ranking({"a": 0.5, "b": 0.5}) == "a = b"
    assert swaps({"a": 0.5, "b": 0.4, "c": 0.7}, {"a": 0.4, "b": 0.5, "c": 0.7}) == [("a", "b")]
    # draw 1 keeps a above b, draw 2 puts b above a
    assert share_reordered({"a": np.array([0.5, 0.3]), "b": np.array([0.4, 0.4])}, {"a": 0.6, "b": 0.5}) == 0.5


def test_ranking_table_marks_the_swaps_against_the_baseline():
    kappas = pd.DataFrame(
        {
            "framing": ["f"] * 6,
            "reference": ["released"] * 3 + ["neutral"] * 3,
            "rater": ["a", "b", "c"] * 2,
            "kappa": [0.4, 0.5, 0.9, 0.6, 0.5, 0.8],
        }
    )
    draws = {
        ("f", "neutral"): {
            "a": np.array([0.6, 0.4, 0.3, 0.7]),
            "b": np.array([0.5, 0.5, 0.5, 0.5]),
            "c": np.array([0.8, 0.8, 0.8, 0.8]),
        }
    }
    table = ranking_table(kappas, "released", draws).set_index("reference")
    assert table.loc["released", "ranking"] == "c > b > a" and table.loc["released", "swaps_vs_released"] == 0
    assert table.loc["neutral", "ranking"] == "c > a > b"
    assert table.loc["neutral", "swapped_vs_released"] == "a/b"
    # draws 1 and 4 put a above b (a swap against released's b > a): 2 of 4
    assert table.loc["neutral", "share_of_draws_reordered"] == 0.5
    ranges = range_over(kappas, ["released", "neutral"]).set_index("rater")
    assert (ranges.loc["a", "low"], ranges.loc["a", "low_under"]) == (0.4, "released")
    assert (ranges.loc["c", "high"], ranges.loc["c", "high_under"]) == (0.9, "released")


def test_where_a_labelling_put_each_tie_by_hand():
    """Four raters, three categories: rows 0 and 2 tie negative-neutral, row 1 neutral-positive,
    row 3 is untied. A release that sends row 0 to negative, row 2 to neutral and row 1 to positive."""
    from reagree.stats.majority import percent_tied, tie_resolutions

    ratings = Ratings.from_labels(
        pd.DataFrame(
            {
                "a": ["negative", "neutral", "negative", "positive"],
                "b": ["negative", "neutral", "negative", "positive"],
                "c": ["neutral", "positive", "neutral", "positive"],
                "d": ["neutral", "positive", "neutral", "neutral"],
            }
        ),
        categories=("negative", "neutral", "positive"),
    )
    released = np.array([0, 2, 1, 2])
    table = tie_resolutions(ratings, released).set_index(["tie", "label"])
    assert table.loc[("negative_neutral", "negative"), ["count", "first_row", "last_row"]].tolist() == [1, 0, 0]
    assert table.loc[("negative_neutral", "neutral"), ["count", "first_row", "last_row"]].tolist() == [1, 2, 2]
    assert table.loc[("neutral_positive", "positive"), "count"] == 1
    assert table.loc[("neutral_positive", "neutral"), ["count", "first_row"]].tolist() == [0, -1]
    overall = tie_resolutions(ratings, released, by_kind=False).set_index("label")["count"]
    assert overall.to_dict() == {"negative": 1, "neutral": 1, "positive": 1}
    assert percent_tied(ratings) == 75.0
