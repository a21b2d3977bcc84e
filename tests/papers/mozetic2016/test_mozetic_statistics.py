"""Self- and inter-annotator agreement the way Mozetič et al. (2016) compute it, on a tiny
CLARIN-format file whose Tables 1, 3, 4, 5 and gold sizes are worked out by hand below,
and the coincidence-matrix alpha against the krippendorff package."""

from fractions import Fraction as F

import krippendorff
import numpy as np
import pytest

from reagree.stats.alpha import coincidence_matrix, krippendorff_alpha
from reagree.stats.bootstrap import bootstrap_interval, half_width

from mozetic2016 import release, selfagreement

read_dataset, read_language = release.read_dataset, release.read_language

# negative, neutral, positive in this order throughout; values -1, 0, +1
T1, T2, T3, T4 = "12345678901234567", "123456789012345678", "1234567890123456789", "1234567890123456790"
T5, T6, T7, T8 = "8876543210987654321", "5555555555555555555", "5555555555555555556", "1111111111111111111"
TINY = (
    "\r\n".join(
        [
            "TweetID,HandLabel,AnnotatorID",  # 1
            f"{T1},Positive,1",  # 2  t1: a 17-digit id
            f"{T2},Negative,1",  # 3  t2
            f"{T2},Neutral,1",  # 4  t2: annotator 1 again, a different label
            f"{T3},Negative,1",  # 5  t3
            f"{T4},Neutral,1",  # 6  t4
            f"{T3},Positive,1",  # 7  t3
            f"{T1},Positive,1",  # 8  t1: a duplicate of line 2, not adjacent
            f"{T4},Positive,2",  # 9  t4: a second annotator
            f"{T5},Negative,2",  # 10 t5
            f"{T3},Negative,1",  # 11 t3: labelled a third time by annotator 1
            f"{T5},Negative,1",  # 12 t5
            f"{T6},Neutral,2",  # 13 t6
            f"{T7},Positive,2",  # 14 t7
            f"{T8},Neutral,1",  # 15 t8
            f"{T8},Neutral,2",  # 16 t8
        ]
    )
    + "\r\n"
)


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "Albanian_Twitter_sentiment.csv"
    path.write_bytes(TINY.encode())
    return read_language(path)


def test_table1_and_gold_sizes(tiny):
    # Negative: lines 3, 5, 10, 11, 12; Neutral: 4, 6, 13, 15, 16; Positive: 2, 7, 8, 9, 14
    assert tiny.label_counts().tolist() == [5, 5, 5]
    assert tiny.n_labels == 15 and tiny.n_units == 8
    assert tiny.unit_ids.tolist() == [T1, T2, T3, T4, T5, T6, T7, T8]
    # Gold, sign of the sum: t1 +,+ -> +; t2 -,0 -> -; t3 -,+,- (sum -1) -> -; t4 0,+ -> +;
    # t5 -,- -> -; t6 0; t7 +; t8 0,0 -> 0. Negative t2 t3 t5, neutral t6 t8, positive t1 t4 t7.
    assert selfagreement.gold_counts(tiny, "all").tolist() == [3, 2, 3]
    # On distinct labels t3 is {-, +} -> neutral: the only tweet where the readings differ
    assert selfagreement.gold_counts(tiny, "distinct").tolist() == [2, 3, 3]
    assert selfagreement.merge_readings_differ(tiny) == 1
    assert selfagreement.tweets_labelled_at_least(tiny, 3) == 1


def test_table3_posts_and_pairs(tiny):
    counts = selfagreement.repeat_counts(tiny)
    # self units (tweet, annotator 1): t1 (2 labels), t2 (2), t3 (3): 3 posts, 1 + 1 + 3 = 5 pairs
    # inter units (two annotators): t4, t5, t8: 3 posts, 3 pairs
    assert (counts.annotators, counts.labels, counts.tweets) == (2, 15, 8)
    assert (counts.self_posts, counts.self_pairs, counts.inter_posts, counts.inter_pairs) == (3, 5, 3, 3)
    assert counts.both_posts == 0
    assert counts.percent(counts.self_posts) == pytest.approx(100 * 3 / 15)
    assert counts.percent(counts.self_pairs) == pytest.approx(100 * 5 / 15)


def test_the_pooled_share_of_posts_labelled_twice(tiny):
    # the tiny file: 3 self + 3 inter posts of 15 labels and 8 tweets; a second dataset by hand:
    # 1 self + 0 inter posts of 5 labels and 4 tweets. Pooled: 7 of 20 labels (35%), 7 of 12
    # tweets; the mean of the two datasets' shares (40% and 20%) would be 30%.
    other = selfagreement.RepeatCounts(
        labels=5, annotators=1, tweets=4, self_posts=1, self_pairs=1, inter_posts=0, inter_pairs=0, both_posts=0
    )
    both = [selfagreement.repeat_counts(tiny), other]
    assert selfagreement.repeated_share(both) == pytest.approx(100 * 7 / 20)
    assert selfagreement.repeated_share(both, base="tweets") == pytest.approx(100 * 7 / 12)
    assert "no labels" in selfagreement.repeated_share([]).reason
    with pytest.raises(ValueError, match="base must be 'labels' or 'tweets'"):
        selfagreement.repeated_share(both, base="pairs")


def test_table4_self_and_inter(tiny):
    units = selfagreement.agreement_counts(tiny)
    # t1 [0, 0, 2], t2 [1, 1, 0], t3 [2, 0, 1]
    assert units["self"].tolist() == [[0, 0, 2], [1, 1, 0], [2, 0, 1]]
    # Self coincidences: t1 adds o(+,+) = 2; t2 adds o(-,0) = o(0,-) = 1; t3 (m = 3, weight 1/2)
    # adds o(-,-) = 2*1/2 = 1 and o(-,+) = o(+,-) = 2*1/2 = 1.
    assert coincidence_matrix(units["self"]).tolist() == [[1, 1, 1], [1, 0, 0], [1, 0, 2]]
    own = selfagreement.agreement_measures(units["self"])
    # N = 7, diagonal 1 + 0 + 2 = 3: Acc = 3/7; only o(-,+) + o(+,-) = 2 are two steps apart: Acc+-1 = 5/7
    assert own["acc"] == pytest.approx(3 / 7) and own["acc_within_one"] == pytest.approx(5 / 7)
    # F1(-) = o(-,-)/n(-) = 1/3, F1(+) = o(+,+)/n(+) = 2/3: mean 1/2
    assert own["f1_polar"] == pytest.approx(1 / 2)
    # n_c = (3, 1, 3), n = 7. Interval: observed sum o delta^2 = 1 + 1 + 4 + 4 = 10; expected
    # sum n_c n_k delta^2 = 2 (3*1*1 + 3*3*4 + 1*3*1) = 84; alpha = 1 - 6 * 10 / 84 = 2/7
    assert own["alpha_interval"] == pytest.approx(2 / 7)
    # Nominal: off-diagonal 4; n^2 - sum n_c^2 = 49 - 19 = 30; alpha = 1 - 6 * 4 / 30 = 1/5
    assert own["alpha_nominal"] == pytest.approx(1 / 5)

    # Inter units t4 [0, 1, 1], t5 [2, 0, 0], t8 [0, 2, 0]: o(0,+) = o(+,0) = 1, o(-,-) = 2, o(0,0) = 2
    inter = selfagreement.agreement_measures(units["inter"])
    assert coincidence_matrix(units["inter"]).tolist() == [[2, 0, 0], [0, 2, 1], [0, 1, 0]]
    # N = 6: Acc = 4/6, no -/+ pair: Acc+-1 = 1; F1(-) = 2/2, F1(+) = 0/1: mean 1/2
    assert inter["acc"] == pytest.approx(2 / 3) and inter["acc_within_one"] == 1
    assert inter["f1_polar"] == pytest.approx(1 / 2)
    # n_c = (2, 3, 1): interval observed 2, expected 2 (2*3*1 + 2*1*4 + 3*1*1) = 34, alpha = 1 - 5*2/34 = 12/17
    assert inter["alpha_interval"] == pytest.approx(12 / 17)
    # nominal: off-diagonal 2, 36 - 14 = 22, alpha = 1 - 5*2/22 = 6/11
    assert inter["alpha_nominal"] == pytest.approx(6 / 11)
    # an interval around the value, as the paper prints (bootstrap over the 3 self units)
    interval = bootstrap_interval(selfagreement.interval_alpha_statistic(units["self"]), 200, 0, 0.95)
    assert interval.scheme == "percentile; draws=200; seed=0; level=0.95"
    assert half_width(interval) == pytest.approx((interval.high - interval.low) / 2)


def test_table5_on_the_union(tiny):
    union = selfagreement.agreement_counts(tiny)["union"]
    # self + inter matrices: [[3, 1, 1], [1, 2, 1], [1, 1, 2]], n_c = (5, 4, 4), n = 13
    assert coincidence_matrix(union).tolist() == [[3, 1, 1], [1, 2, 1], [1, 1, 2]]
    evidence = selfagreement.ordering_evidence(union)
    # Alpha_int: observed 2 (1 + 4 + 1) = 12, expected 2 (5*4*1 + 5*4*4 + 4*4*1) = 232:
    # 1 - 12*12/232 = 11/29. Alpha_nom: off-diagonal 6, 169 - 57 = 112: 1 - 12*6/112 = 5/14.
    # gain = (11/29 - 5/14) / (5/14) = 9/145
    assert evidence["gain"] == pytest.approx(float(F(9, 145)))
    # (-,0) sub-matrix [[3, 1], [1, 2]]: n_c (4, 3), 1 - 6*2/24 = 1/2; (-,+) is the same matrix: 1/2;
    # (0,+) sub-matrix [[2, 1], [1, 2]]: n_c (3, 3), 1 - 5*2/18 = 4/9
    assert evidence["alpha_interval.negative_neutral"] == pytest.approx(1 / 2)
    assert evidence["alpha_interval.negative_positive"] == pytest.approx(1 / 2)
    assert evidence["alpha_interval.neutral_positive"] == pytest.approx(4 / 9)
    assert evidence["negative_neutral"] == pytest.approx(1.0)
    assert evidence["neutral_positive"] == pytest.approx(8 / 9)


def test_per_annotator_self_agreement(tiny):
    rows = {row["annotator"]: row for row in selfagreement.annotator_self_agreement(tiny)}
    # annotator 1 gave lines 2-8, 11, 12, 15 (10 labels) and all three self units: alpha 2/7
    assert (rows["1"]["labels"], rows["1"]["self_posts"], rows["1"]["self_pairs"]) == (10, 3, 5)
    assert rows["1"]["alpha_interval"] == pytest.approx(2 / 7)
    assert rows["2"]["labels"] == 5 and np.isnan(rows["2"]["alpha_interval"])


def test_concatenated_languages_match_ids_as_text(tmp_path, tiny):
    other = tmp_path / "Croatian_Twitter_sentiment.csv"
    other.write_text(f"TweetID,HandLabel,AnnotatorID\n{T6},Negative,3\n43210987654321098,Positive,3\n")
    (tmp_path / "first.csv").write_bytes(TINY.encode())
    joint = read_dataset([tmp_path / "first.csv", other], "ser_cro_bos")
    # T6 occurs in both files: one tweet, now with two annotators (2 and 3); 8 + 1 new = 9 tweets,
    # 15 + 2 = 17 labels; inter units t4, t5, t8 and now T6
    assert joint.n_units == 9 and joint.n_labels == 17
    assert selfagreement.repeat_counts(joint).inter_posts == 4


def test_malformed_clarin_rows_stop_with_file_and_line(tmp_path):
    path = tmp_path / "Serbian_Twitter_sentiment.csv"
    path.write_text(TINY.replace(f"{T5},Negative,2", "1.23457E+18,Negative,2"))
    with pytest.raises(ValueError, match=r"Serbian_Twitter_sentiment\.csv: line 10: unit id '1\.23457E\+18'"):
        read_language(path)
    path.write_text(TINY.replace(f"{T6},Neutral,2", f"{T6},neutral,2"))
    with pytest.raises(ValueError, match=r"line 13: label 'neutral' is not one of the categories"):
        read_language(path)
    path.write_text(TINY.replace(f"{T7},Positive,2", f"{T7},Positive,2,extra"))
    with pytest.raises(ValueError, match=r"line 14: 4 fields where the header has 3"):
        read_language(path)


# --- alpha from a coincidence matrix --------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_alpha_from_coincidences_equals_the_krippendorff_package(seed):
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(rng.integers(0, 5), [0.3, 0.3, 0.4], size=40)
    matrix = coincidence_matrix(counts)
    for level, values in (("nominal", None), ("interval", [-1, 0, 1])):
        expected = krippendorff.alpha(value_counts=counts, level_of_measurement=level, value_domain=[-1, 0, 1])
        assert selfagreement.alpha_from_coincidences(matrix, level, values) == pytest.approx(expected, abs=1e-12)
        assert krippendorff_alpha(counts, level, [-1, 0, 1]) == pytest.approx(expected, abs=1e-12)


def test_two_class_alpha_and_degenerate_cases():
    # two classes, 3 agreeing pairs each and 2 disagreeing (o = [[6, 2], [2, 6]], n_c = (8, 8), n = 16):
    # alpha = 1 - 15 * 4 / (2 * 8 * 8) = 1 - 60/128 = 17/32; with values -1, +1 the same
    matrix = np.array([[6, 2, 9], [2, 6, 9], [9, 9, 9]])
    assert selfagreement.two_class_alpha(matrix, 0, 1, "nominal") == pytest.approx(17 / 32)
    assert selfagreement.two_class_alpha(matrix, 0, 1, "interval", [-1, 1, 0]) == pytest.approx(17 / 32)
    assert np.isnan(selfagreement.alpha_from_coincidences(np.zeros((3, 3)), "nominal"))
    only_one = selfagreement.alpha_from_coincidences(np.diag([4.0, 0, 0]), "nominal")
    assert np.isnan(only_one) and "one value" in only_one.reason
    empty = selfagreement.agreement_measures(np.zeros((0, 3)))
    assert all(np.isnan(empty[m]) for m in ("acc", "acc_within_one", "f1_polar", "alpha_interval"))


def test_gold_rule_cases():
    # rows: [neg, neu, pos] counts
    counts = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1], [2, 0, 1], [1, 1, 1], [0, 3, 0], [0, 0, 0]])
    # -,0 -> -; 0,+ -> +; -,+ -> 0; -,-,+ -> - (sum -1) or 0 (distinct); -,0,+ -> 0; 0,0,0 -> 0; none -> -1
    assert selfagreement.gold_labels(counts).tolist() == [0, 2, 1, 0, 1, 1, -1]
    assert selfagreement.gold_labels(counts, reading="distinct").tolist() == [0, 2, 1, 1, 1, 1, -1]


def test_joint_claims_need_all_three_languages():
    from conftest import ROOT
    from reagree.pipeline.claims import unmet_need
    from reagree.pipeline.paperspec import load_paper

    paper = load_paper(ROOT / "workflow" / "papers" / "mozetic2016" / "paper.yaml")
    claim = next(c for c in paper["claims"] if c["key"] == "alpha_interval.self.ser_cro_bos")
    assert claim["needs"] == {"language": ["Serbian", "Croatian", "Bosnian"]}
    expansions = {"language": {"values": ["Bosnian", "Serbian"], "setting": "languages"}}
    reason = unmet_need(claim["needs"], "mozetic2016", {}, expansions)
    assert reason == "language Croatian was not built (add it to config mozetic2016.languages)"
    expansions["language"]["values"].append("Croatian")
    assert unmet_need(claim["needs"], "mozetic2016", {}, expansions) == ""


def test_the_n_squared_variant_differs_from_alpha_by_one_minus_alpha_over_n():
    # Two units, values -1/0 and 1/1 (interval): pairable values n = 4. By hand: o has
    # (-1,0) and (0,-1) with weight 1 each, (1,1) weight 2. n_c = [1, 1, 2];
    # D_o = sum o delta = 1 + 1 = 2 (delta(-1,0) = 1); sum n_c n_k delta over ordered pairs
    # = 2 * (1*1*1 + 1*2*4 + 1*2*1) = 22; alpha = 1 - 3 * 2 / 22 = 8/11;
    # the n^2 variant: 1 - 4 * 2 / 22 = 7/11 (alpha minus (1 - alpha) / (n - 1)).
    from mozetic2016.selfagreement import alpha_from_coincidences, alpha_variant_n_squared

    counts = np.array([[1, 1, 0], [0, 0, 2]])
    assert alpha_variant_n_squared(counts) == pytest.approx(7 / 11, abs=1e-12)
    matrix = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 2]])
    assert alpha_from_coincidences(matrix, "interval", [-1, 0, 1]) == pytest.approx(8 / 11, abs=1e-12)
