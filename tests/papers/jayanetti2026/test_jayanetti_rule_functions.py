"""The functions behind jayanetti2026's rules (released, tie_rules, soft_labels, reruns,
variant_values, plots.draw_figures), which the thin rule scripts call, on a six-tweet
release in the released file's layout. Expected values: scikit-learn's and statsmodels'
kappas on the same labels, and counts, shares and cross-entropies worked out by hand from
the table below."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from jayanetti2026 import keys, reruns, variant_values
from jayanetti2026.release import FRAMINGS, HUMANS, MAJORITY_COLUMN, TOOLS, read_release
from jayanetti2026.released import score_released
from jayanetti2026.soft_labels import score_soft_labels
from jayanetti2026.tie_rules import compare_tie_rules, score_tie_rule

NEG, NEU, POS = "negative", "neutral", "positive"
# six humans per tweet: t0 all positive; t1 a 3-3 negative/neutral tie; t2 a 3-3
# negative/positive tie; t3 4 neutral 2 positive; t4 a 2-2-2 tie; t5 5 negative 1 positive
HUMAN_LABELS = [
    [POS] * 6,
    [NEG] * 3 + [NEU] * 3,
    [POS] * 3 + [NEG] * 3,
    [NEU] * 4 + [POS] * 2,
    [NEG, NEG, NEU, NEU, POS, POS],
    [NEG] * 5 + [POS],
]
RELEASED_MAJORITY = [POS, NEU, POS, NEU, NEU, NEG]  # the release broke t2 toward positive
TOOL_LABELS = {
    "textblob": [POS, NEG, NEU, NEU, POS, NEG],
    "vader": [POS, NEU, POS, POS, NEU, NEG],
    "roberta": [NEU, NEU, POS, NEU, NEU, NEG],
}
TWEETS = ["good day", "meh", "awful or great", "fine", "mixed", "bad"]
TRANSLATED = ["good day", "meh indeed", "Error in translation", "fine", "mixed", "bad"]
# snowflake ids: 2020-02-27 (twitter-snowflake-to-date's README example) and later ones
STATUS = [
    "1233161576649121792",
    "1233161576649121793",
    "1300000000000000000",
    "1300000000000000001",
    "1350000000000000000",
    "1350000000000000001",
]
BOOTSTRAP = {"draws": 20, "seed": 0, "level": 0.95}


def recode(label: str, framing: str) -> str:
    return FRAMINGS[framing][2][label]


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    columns = {
        "tweetID": ["1.23E+18"] * 6,
        "tweet": TWEETS,
        "tweet_translated": TRANSLATED,
        "tweetURL": [f"https://x.com/u/status/{s}" for s in STATUS],
    }
    labels = {
        **{column: [row[i] for row in HUMAN_LABELS] for i, column in enumerate(HUMANS.values())},
        **{TOOLS[tool]: tool_labels for tool, tool_labels in TOOL_LABELS.items()},
        MAJORITY_COLUMN: RELEASED_MAJORITY,
    }
    for framing, (suffix, _, _) in FRAMINGS.items():
        columns.update(
            {column + suffix: [recode(label, framing) for label in values] for column, values in labels.items()}
        )
    path = tmp_path_factory.mktemp("release") / "majorityvote.tsv"
    pd.DataFrame(columns).to_csv(path, sep="\t", index=False)
    return read_release(path)


def values_of(outputs) -> dict[str, float]:
    return {row["key"]: row["value"] for row in outputs.values}


def humans(framing: str) -> list[list[str]]:
    return [[recode(label, framing) for label in row] for row in HUMAN_LABELS]


def fleiss_of(rows: list[list[str]]) -> float:
    return fleiss_kappa(aggregate_raters(np.array(rows))[0])


def test_the_released_labels_before_any_tie_rule(release):
    outputs = score_released(release, BOOTSTRAP, 10)
    values = values_of(outputs)
    assert values[keys.FLEISS.key(group="humans", framing="three_class")] == pytest.approx(
        fleiss_of(HUMAN_LABELS), abs=1e-12
    )
    assert values[keys.FLEISS.key(group="humans", framing="neg_vs_rest")] == pytest.approx(
        fleiss_of(humans("neg_vs_rest")), abs=1e-12
    )
    # shared top counts: three-class t1, t2, t4; negative vs rest t1, t2 (3-3); positive vs rest t2
    assert [values[keys.TIES.key(framing=f)] for f in FRAMINGS] == [3, 2, 1]
    assert [
        values[keys.TIE_KINDS.key(tie_kind=k)]
        for k in ("negative_neutral", "negative_positive", "neutral_positive", "negative_neutral_positive")
    ] == [1, 1, 0, 1]
    assert values[keys.TIES_RESOLVED_POLAR.key()] == 1  # only t2 went to a polar label
    # 13 negative of the 36 human labels (t1 3, t2 3, t4 2, t5 5)
    assert values[keys.LABEL_SHARE.key(category="negative")] == pytest.approx(100 * 13 / 36)
    pairs = outputs.tables["pairwise"].frame
    assert len(pairs) == 3 * 36  # every pair of the nine raters, per framing
    textblob_vader = pairs[
        (pairs["framing"] == "three_class") & (pairs["rater_a"] == "textblob") & (pairs["rater_b"] == "vader")
    ]
    assert textblob_vader["kappa"].iloc[0] == pytest.approx(
        cohen_kappa_score(TOOL_LABELS["textblob"], TOOL_LABELS["vader"]), abs=1e-12
    )
    ties = outputs.tables["ties"].frame
    assert ties["row"].tolist() == [1, 2, 4]
    assert ties["text_scored"].tolist() == ["meh indeed", "Error in t...", "mixed"]  # cut at 10 characters
    first = datetime.fromtimestamp(((int(STATUS[0]) >> 22) + 1288834974657) / 1000, tz=timezone.utc)
    assert values[keys.POSTING_MONTH.key(end="first_post")] == first.year * 100 + first.month == 202002


def test_one_tie_rule_re_votes_the_humans(release):
    settings = {"random_tie_seeds": 5, "random_tie_seed": 0}
    values = values_of(score_tie_rule(release, "neutral", settings, BOOTSTRAP))
    neutral = [POS, NEU, NEU, NEU, NEU, NEG]  # every tie goes to the middle
    kappa = cohen_kappa_score(TOOL_LABELS["textblob"], neutral)
    assert values[
        keys.KAPPA.key(rater="textblob", against="vs_majority_ties_neutral", framing="three_class")
    ] == pytest.approx(kappa, abs=1e-12)
    change = kappa - cohen_kappa_score(TOOL_LABELS["textblob"], RELEASED_MAJORITY)
    assert values[
        keys.KAPPA_CHANGE.key(tool="textblob", keeps_every_tweet="vs_majority_ties_neutral", framing="three_class")
    ] == pytest.approx(change, abs=1e-12)
    assert [
        values[keys.MAJORITY_LABELS.key(majority="majority_ties_neutral", framing="three_class", category=c)]
        for c in (NEG, NEU, POS)
    ] == [1, 4, 1]
    dropped = values_of(score_tie_rule(release, "drop", settings, BOOTSTRAP))
    assert dropped[keys.TWEETS_SCORED.key(against="vs_majority_ties_drop")] == 3  # t0, t3, t5
    randomly = score_tie_rule(release, "random", settings, BOOTSTRAP)
    assert len(randomly.frames["draws"]) == 5 * 3 * 3  # tie breaks x framings x tools
    assert keys.KAPPA_RANDOM.key(rater="vader", framing="neg_vs_rest") in values_of(randomly)


def test_the_tools_side_by_side_across_tie_rules(release):
    def table(rule, kappas):
        return pd.DataFrame(
            {"tie_rule": rule, "framing": "three_class", "rater": list(kappas), "kappa": list(kappas.values())}
        )

    tables = [
        table("released", {"textblob": 0.5, "vader": 0.3, "roberta": 0.1, "rater1": 0.9}),
        table("neutral", {"textblob": 0.2, "vader": 0.3, "roberta": 0.1}),
        table("random", {"textblob": 0.5, "vader": 0.3, "roberta": 0.1}),
    ]
    # four random tie breaks; vader passes textblob in the second only
    draws = [
        pd.DataFrame(columns=["draw", "framing", "rater", "kappa"]),
        pd.DataFrame(columns=["draw", "framing", "rater", "kappa"]),
        pd.DataFrame(
            {
                "draw": [0, 1, 2, 3] * 3,
                "framing": "three_class",
                "rater": ["textblob"] * 4 + ["vader"] * 4 + ["roberta"] * 4,
                "kappa": [0.5, 0.2, 0.5, 0.5, 0.3, 0.3, 0.3, 0.3, 0.1, 0.1, 0.1, 0.1],
            }
        ),
    ]
    outputs = compare_tie_rules(release, tables, ["released", "neutral", "random"], draws)
    values = values_of(outputs)
    assert values[keys.TOOL_PAIRS_SWAPPED.key(against_rule="vs_majority_ties_neutral", framing="three_class")] == 1
    assert values[keys.SHARE_REORDERED.key(framing="three_class")] == 0.25
    assert values[keys.KAPPA_MIN.key(tool="textblob", framing="three_class")] == 0.2  # random is not deterministic
    assert values[keys.KAPPA_MAX.key(tool="textblob", framing="three_class")] == 0.5
    assert "rater1" not in outputs.tables["table"].frame.columns  # the tools only


def test_the_tools_against_the_six_raters_themselves(release):
    values = values_of(score_soft_labels(release, 1.0, BOOTSTRAP))
    tool = TOOL_LABELS["vader"]
    each = [cohen_kappa_score(tool, [row[i] for row in HUMAN_LABELS]) for i in range(6)]
    assert values[keys.KAPPA_MEAN.key(scored="vader", framing="three_class")] == pytest.approx(np.mean(each))
    # add-one: p_i(y) = (votes for vader's label + 1) / (6 + 3)
    votes = [row.count(label) for row, label in zip(HUMAN_LABELS, tool)]
    entropy = -np.mean([math.log((v + 1) / 9) for v in votes])
    assert values[keys.CROSS_ENTROPY.key(scored="vader", framing="three_class")] == pytest.approx(entropy)


def test_the_reruns_against_the_released_tool_labels(release, monkeypatch):
    rerun = {"textblob": [POS, NEG, NEG, NEU, POS, NEG], "vader": [POS, NEU, POS, POS, NEU, NEG]}
    monkeypatch.setattr(reruns, "rerun", lambda tool, texts, **options: rerun[tool])
    outputs = reruns.rerun_tools(
        release,
        ["textblob", "vader"],
        keys.RERUNS["rerun_jayanetti2026_tools"],
        {"excerpt_characters": 60, "roberta_model": "unused"},
        BOOTSTRAP,
        show_read=True,
    )
    values = values_of(outputs)
    assert values["count.textblob_rerun.same_as_released"] == 5  # all but t2
    assert values["count.textblob_rerun.differs_from_released.translated"] == 1  # t2 is a translated row
    assert values["count.vader_rerun.same_as_released"] == 6
    assert values[keys.TRANSLATED.key()] == 2 and values[keys.TRANSLATION_ERRORS.key()] == 1
    assert values["kappa.textblob_rerun.vs_majority.three_class"] == pytest.approx(
        cohen_kappa_score(rerun["textblob"], RELEASED_MAJORITY), abs=1e-12
    )
    assert outputs.tables["translated"].frame["row"].tolist() == [1, 2]
    assert outputs.tables["labels"].frame["textblob_same"].tolist() == [True, True, False, True, True, True]
    without = reruns.rerun_tools(
        release,
        ["vader"],
        keys.RERUNS["rerun_jayanetti2026_tools"],
        {"excerpt_characters": 60, "roberta_model": "unused"},
        BOOTSTRAP,
        show_read=False,
    )
    assert set(without.tables) == {"labels"}


def test_the_variant_families_on_the_data_behind_a_key(release, tmp_path):
    reruns_file = tmp_path / "tool_reruns.tsv"
    pd.DataFrame({"row": range(6), "textblob_rerun": TOOL_LABELS["textblob"]}).to_csv(
        reruns_file, sep="\t", index=False
    )
    rerun_ratings = variant_values.read_reruns([reruns_file])
    assert rerun_ratings.raters == ("textblob_rerun",)
    found, own = variant_values.evaluate(
        release, rerun_ratings, keys.FLEISS.key(group="humans", framing="neg_vs_rest"), "chance_model", {}
    )
    assert own == "kappa.fleiss" and found["kappa.fleiss"] == pytest.approx(fleiss_of(humans("neg_vs_rest")))
    ties, own = variant_values.evaluate(
        release, rerun_ratings, keys.TIES.key(framing="three_class"), "tie_definition", {}
    )
    # shared top t1, t2, t4; an even two-way split t1, t2; no strict majority t1, t2, t4
    assert (own, ties) == (
        "ties.shared_top",
        {"ties.shared_top": 3, "ties.even_split": 2, "ties.no_strict_majority": 3},
    )
    shares, own = variant_values.evaluate(
        release, rerun_ratings, keys.LABEL_SHARE.key(category="negative"), "percentage_base", {}
    )
    # 13 negative human labels of 36, of the nine raters' 54
    assert shares == pytest.approx({"base.human_labels": 100 * 13 / 36, "base.nine_raters_labels": 100 * 13 / 54})
    assert variant_values.compute_variants(release, rerun_ratings, [], {}, {}) == []
    with pytest.raises(ValueError, match="no evaluation of family counting"):
        variant_values.evaluate(release, rerun_ratings, keys.TIES.key(framing="three_class"), "counting", {})


def test_the_three_figures_are_drawn_from_the_tools_rows(monkeypatch, tmp_path):
    import jayanetti2026.plots as plots

    drawn = {}
    monkeypatch.setattr(plots, "pairwise", lambda pairs, path: drawn.setdefault("pairwise", path))
    monkeypatch.setattr(plots, "tie_rules", lambda scores, rules, path: drawn.setdefault("tie_rules", scores))
    monkeypatch.setattr(
        plots, "intervals", lambda scores, rules, writeup, labels, path: drawn.setdefault("forest", labels)
    )
    rows = pd.DataFrame(
        {"tie_rule": "released", "framing": "three_class", "rater": ["rater1", "vader"], "kappa": [0.9, 0.3]}
    )
    plots.draw_figures(
        pd.DataFrame(),
        [rows, rows.assign(tie_rule="drop")],
        ["released", "drop"],
        pd.DataFrame(),
        {"pairwise": "p.png", "tie_rules": "t.png", "forest": "f.png"},
    )
    assert drawn["pairwise"] == "p.png"
    assert drawn["tie_rules"]["rater"].tolist() == ["vader", "vader"]
    assert len(drawn["forest"]) == 5  # the write-up's five intervals
