"""The variant catalogue (reagree.stats.variants) and the coefficients it added
(multirater.conger_kappa, multirater.randolph_kappa, alpha.alpha_expected_over_n_squared).

Each variant is held against a published worked example where one exists (Krippendorff
2011; R's irr on the anxiety data; Randolph's calculator; Mozetič et al. 2016 printed
figures on the released labels), an independent library (irrCAC, statsmodels, the
krippendorff package), or a small case worked out by hand in the test.
"""

from __future__ import annotations

import inspect
import re

import krippendorff
import numpy as np
import pandas as pd
import pytest
from irrCAC.raw import CAC
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from reagree.io.annotations import read_annotations
from reagree.pipeline import printed
from reagree.pipeline.reproduce import search
from reagree.stats import alpha, multirater, variants
from reagree.stats.labels import Annotations
from reagree.stats.ratings import Ratings
from mozetic2016 import selfagreement
from test_published_examples import (
    ANXIETY_RATER2,
    ANXIETY_RATER3,
    FLEISS_1971,
    KRIPPENDORFF_2011,
    KRIPPENDORFF_2011_ALPHA,
    krippendorff_2011,
)


def two_raters_table(table) -> Ratings:
    """Two raters' labels (0/1) with the given 2 x 2 table of counts."""
    table = np.asarray(table)
    cells = [(i, j) for i in range(2) for j in range(2) for _ in range(table[i, j])]
    return Ratings.from_labels(pd.DataFrame(cells, columns=["a", "b"]), categories=(0, 1))


# Three raters, four units, two categories, worked by hand below.
THREE_RATERS = pd.DataFrame({"r1": [0, 0, 1, 0], "r2": [0, 0, 1, 1], "r3": [0, 1, 1, 1]})


def three_raters() -> Ratings:
    return Ratings.from_labels(THREE_RATERS, categories=(0, 1))


# --- the added coefficients ----------------------------------------------------------------


def test_conger_kappa_by_hand():
    # P_o: units (0,0,0) and (1,1,1) agree fully, (0,0,1) and (0,1,1) in 2 of 6 ordered
    # pairs: P_o = (1 + 1/3 + 1 + 1/3) / 4 = 2/3. Rater marginals of category 0: 3/4, 1/2,
    # 1/4. Chance per pair: (r1, r2) 3/8 + 1/8 = 1/2; (r1, r3) 3/16 + 3/16 = 3/8; (r2, r3)
    # 1/8 + 3/8 = 1/2; mean 11/24. Conger = (2/3 - 11/24) / (13/24) = 5/13.
    assert multirater.conger_kappa(three_raters()) == pytest.approx(5 / 13, abs=1e-12)


@pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")
@pytest.mark.parametrize(
    "table, categories", [(KRIPPENDORFF_2011.T, (1.0, 2.0, 3.0, 4.0, 5.0)), (FLEISS_1971, (1, 2, 3, 4, 5))]
)
def test_conger_kappa_equals_irrcac(table, categories):
    # Krippendorff (2011) has missing ratings: each rater's marginals are over what it rated.
    ratings = Ratings.from_labels(pd.DataFrame(table), categories=categories)
    expected = CAC(pd.DataFrame(table)).conger()["est"]["coefficient_value"]  # irrCAC rounds to 5 digits
    assert round(multirater.conger_kappa(ratings), 5) == pytest.approx(expected, abs=1e-12)


def test_conger_kappa_of_two_raters_is_cohens_kappa_irr_anxiety():
    # R irr's kappa2 on the anxiety data, raters 2 and 3, prints -0.006289308 (unweighted).
    ratings = Ratings.from_labels(
        pd.DataFrame({"rater2": ANXIETY_RATER2, "rater3": ANXIETY_RATER3}), categories=(1, 2, 3, 4, 6)
    )
    assert round(multirater.conger_kappa(ratings), 9) == -0.006289308


def test_conger_kappa_undefined_cases():
    one_rater = Ratings.from_labels(pd.DataFrame({"a": [0, 1, 1]}), categories=(0, 1))
    assert "fewer than two raters" in multirater.conger_kappa(one_rater).reason
    silent = Ratings.from_labels(
        pd.DataFrame({"a": [0, 1, 1], "b": [0, 1, 0], "c": [None, None, None]}), categories=(0, 1)
    )
    assert "c rated no unit" in multirater.conger_kappa(silent).reason
    same = Ratings.from_labels(pd.DataFrame({"a": [0, 0], "b": [0, 0]}), categories=(0, 1))
    assert "chance agreement is 1" in multirater.conger_kappa(same).reason


def test_randolph_kappa_as_randolphs_calculator_prints_it():
    # Randolph's online kappa calculator (as statsmodels' test suite quotes it): two units,
    # seven raters, (7, 1) and (3, 5) -> overall agreement 0.607143, fixed-marginal
    # kappa 0.161905, free-marginal kappa 0.214286.
    counts = np.array([[7, 1], [3, 5]])
    assert round(multirater.randolph_kappa(counts), 6) == 0.214286
    assert round(multirater.fleiss_kappa(counts), 6) == 0.161905
    assert round(multirater.percent_agreement(counts), 6) == 0.607143
    counts = Ratings.from_labels(FLEISS_1971, categories=(1, 2, 3, 4, 5)).unit_counts()
    assert multirater.randolph_kappa(counts) == pytest.approx(statsmodels_fleiss(counts, method="randolph"), abs=1e-12)


def test_alpha_over_n_squared_by_hand():
    # Units (0, 0) and (0, 1), nominal: o_00 = 2, o_01 = o_10 = 1; n = 4, n_0 = 3, n_1 = 1.
    # D_o = 2/4; D_e = 2 * 3 * 1 / (4 * 3) = 1/2 -> alpha = 0; over n^2: 6/16 -> 1 - (1/2)/(3/8) = -1/3.
    counts = np.array([[2, 0], [1, 1]])
    assert alpha.krippendorff_alpha(counts, "nominal") == pytest.approx(0.0, abs=1e-12)
    assert alpha.alpha_expected_over_n_squared(counts, "nominal") == pytest.approx(-1 / 3, abs=1e-12)
    assert np.isnan(alpha.alpha_expected_over_n_squared(np.array([[2, 0], [2, 0]]), "nominal"))


@pytest.mark.parametrize("level", list(KRIPPENDORFF_2011_ALPHA))
def test_alpha_over_n_squared_is_alpha_moved_by_one_over_n_minus_one(level):
    # On Krippendorff (2011), n = 40 pairable values: alpha' = 1 - (1 - alpha) 40 / 39.
    ratings = krippendorff_2011()
    expected = 1 - (1 - KRIPPENDORFF_2011_ALPHA[level]) * 40 / 39
    assert alpha.alpha_expected_over_n_squared(ratings, level) == pytest.approx(expected, abs=2e-3)
    assert alpha.alpha_expected_over_n_squared(ratings, level) < alpha.krippendorff_alpha(ratings, level)


# --- the families ----------------------------------------------------------------------------


def test_chance_models_on_two_raters_by_hand():
    # Table [[20, 5], [10, 15]]: P_o = 35/50 = 0.7. Marginals: rater a (0.5, 0.5), rater b
    # (0.6, 0.4). Cohen: P_e = 0.5 -> 0.4. Scott: pooled (0.55, 0.45), P_e = 0.505 ->
    # 0.195 / 0.495 = 13/33. Randolph: P_e = 1/2 -> 0.4. Fleiss = Scott, Conger = Light = Cohen.
    values = variants.chance_models(two_raters_table([[20, 5], [10, 15]]))
    assert list(values) == list(variants.FAMILIES["chance_model"].variants)
    expected = {
        "kappa.fleiss": 13 / 33,
        "kappa.conger": 0.4,
        "kappa.randolph": 0.4,
        "kappa.light": 0.4,
        "kappa.scott": 13 / 33,
        "kappa.cohen": 0.4,
    }
    assert values == pytest.approx(expected, abs=1e-12)


def test_chance_models_on_three_raters_by_hand():
    # As in test_conger_kappa_by_hand: P_o = 2/3. Fleiss: pooled share of 0 is 6/12,
    # P_e = 1/2 -> 1/3; Randolph (K = 2) also 1/3; Conger 5/13. Light: pairwise Cohen
    # (r1, r2) (3/4 - 1/2) / (1/2) = 1/2, (r1, r3) (1/2 - 3/8) / (5/8) = 1/5, (r2, r3) 1/2: mean 0.4.
    values = variants.chance_models(three_raters())
    assert values["kappa.fleiss"] == pytest.approx(1 / 3, abs=1e-12)
    assert values["kappa.randolph"] == pytest.approx(1 / 3, abs=1e-12)
    assert values["kappa.conger"] == pytest.approx(5 / 13, abs=1e-12)
    assert values["kappa.light"] == pytest.approx(0.4, abs=1e-12)
    assert "two-rater coefficient" in values["kappa.scott"].reason
    assert "two-rater coefficient" in values["kappa.cohen"].reason


def test_fleiss_with_missing_ratings_is_not_applicable_not_a_crash():
    values = variants.chance_models(krippendorff_2011())
    assert "same number of ratings" in values["kappa.fleiss"].reason
    assert np.isfinite(values["kappa.conger"])


def test_alpha_distances_are_krippendorffs_printed_alphas():
    values = variants.alpha_distances(krippendorff_2011())
    assert {name: round(value, 3) for name, value in values.items()} == {
        f"alpha.{level}": printed for level, printed in KRIPPENDORFF_2011_ALPHA.items()
    }
    signed = variants.alpha_distances(np.array([[2, 0, 0], [1, 1, 0], [0, 1, 1]]), values=(-1, 0, 1))
    assert "non-negative" in signed["alpha.ratio"].reason


def test_kappa_weights_are_irr_anxiety_values():
    # R irr, kappa2(anxiety[, 2:3], weight = c("unweighted", "equal", "squared")).
    ratings = Ratings.from_labels(
        pd.DataFrame({"rater2": ANXIETY_RATER2, "rater3": ANXIETY_RATER3}), categories=(1, 2, 3, 4, 6)
    )
    values = variants.kappa_weights(ratings)
    assert round(values["weights.none"], 9) == -0.006289308
    assert round(values["weights.linear"], 7) == 0.1459075
    assert round(values["weights.quadratic"], 7) == 0.2520325


def test_missing_ratings_listwise_against_the_krippendorff_package():
    # Krippendorff (2011): units 2-9 are the only ones all four observers coded. Pairwise is
    # the printed nominal alpha 0.743; listwise is alpha on those eight columns, which the
    # krippendorff package computes from the sliced printed table.
    values = variants.missing_ratings(krippendorff_2011(), lambda r: alpha.krippendorff_alpha(r, "nominal"))
    assert round(values["missing.pairwise"], 3) == 0.743
    sliced = KRIPPENDORFF_2011[:, 1:9]
    assert not np.isnan(sliced).any()
    expected = krippendorff.alpha(reliability_data=sliced, level_of_measurement="nominal")
    assert values["missing.listwise"] == pytest.approx(expected, abs=1e-12)


def test_missing_ratings_by_hand():
    # A fifth unit (0, 0, missing) joins the three raters: listwise drops it (Conger 5/13 as
    # above); Fleiss' kappa cannot take it pairwise (two ratings beside three) and says so.
    table = pd.concat([THREE_RATERS, pd.DataFrame({"r1": [0], "r2": [0], "r3": [None]})], ignore_index=True)
    ratings = Ratings.from_labels(table, categories=(0, 1))
    conger = variants.missing_ratings(ratings, multirater.conger_kappa)
    assert conger["missing.listwise"] == pytest.approx(5 / 13, abs=1e-12)
    assert conger["missing.pairwise"] != pytest.approx(5 / 13, abs=1e-6)
    fleiss = variants.missing_ratings(ratings, lambda r: multirater.fleiss_kappa(r.unit_counts()))
    assert fleiss["missing.listwise"] == pytest.approx(1 / 3, abs=1e-12)
    assert "same number of ratings" in fleiss["missing.pairwise"].reason
    nobody = Ratings.from_labels(pd.DataFrame({"a": [0, None], "b": [None, 1]}), categories=(0, 1))
    assert "no unit was labelled by every rater" in variants.listwise(nobody, multirater.conger_kappa).reason


def test_category_sets_by_hand():
    # Two raters, three units (0, 0), (0, 1), (1, 1); category 2 is declared but unused.
    # P_o = 2/3. Brennan-Prediger: K = 3 -> (2/3 - 1/3) / (2/3) = 1/2; K = 2 -> 1/3.
    counts = np.array([[2, 0, 0], [1, 1, 0], [0, 2, 0]])
    values = variants.category_sets(counts, multirater.brennan_prediger)
    assert values == pytest.approx({"categories.declared": 0.5, "categories.observed": 1 / 3}, abs=1e-12)
    fleiss = variants.category_sets(counts, multirater.fleiss_kappa)
    assert fleiss["categories.declared"] == pytest.approx(fleiss["categories.observed"], abs=1e-12)


def test_counting_by_hand():
    # Labels per item 1, 2, 3, 2, 0: items labelled twice or more 3; pairs 0+1+3+1 = 5;
    # labels beyond the first 0+1+2+1 = 4.
    assert variants.counting([1, 2, 3, 2, 0]) == {"count.items": 3, "count.label_pairs": 5, "count.repeat_labels": 4}
    with pytest.raises(ValueError, match="non-negative whole numbers"):
        variants.count_items([1.5, 2])


def test_percentage_bases_by_hand():
    assert variants.percentage_bases(3, all_labels=12, all_items=6) == {"base.all_labels": 25.0, "base.all_items": 50.0}
    assert "zero" in variants.percentage(3, 0).reason


def test_tie_rules_by_hand():
    # Four raters, three classes. Unit 0: 2 negative, 2 neutral (a tie); unit 1: 2 neutral,
    # 2 positive (a tie); unit 2: 3 positive, 1 negative (no tie).
    ratings = Ratings.from_labels(
        pd.DataFrame(
            {
                "a": ["negative", "neutral", "positive"],
                "b": ["negative", "neutral", "positive"],
                "c": ["neutral", "positive", "positive"],
                "d": ["neutral", "positive", "negative"],
            }
        ),
        categories=("negative", "neutral", "positive"),
    )
    unlabelled = variants.tie_rules(ratings, variants.unlabelled_units)
    assert unlabelled == {
        "tie.drop": 2,
        "tie.prefer:negative": 1,
        "tie.prefer:neutral": 0,
        "tie.prefer:positive": 1,
        "tie.neutral": 0,
        "tie.polar": 0,
    }

    def neutral_count(labels):
        return (np.asarray(labels) == 1).sum(axis=-1)

    counted = variants.tie_rules(ratings, neutral_count, seed=3, repetitions=4000)
    assert (counted["tie.neutral"], counted["tie.polar"], counted["tie.drop"]) == (2, 0, 0)
    # Each tie is a fair coin between neutral and its other side: one neutral expected.
    assert counted["tie.random"] == pytest.approx(1.0, abs=0.05)
    with pytest.raises(ValueError, match="one value per labelling"):
        variants.tie_rules(ratings, lambda labels: 1.0, repetitions=3)


# --- the catalogue -----------------------------------------------------------------------------


def test_every_variant_is_a_documented_function_citing_its_source():
    for variant in variants.VARIANTS.values():
        doc = inspect.getdoc(variant.function) or ""
        assert doc, variant.name
        assert variant.family in variants.FAMILIES
        assert variant.name in (variants.FAMILIES[variant.family].variants or ())
    for family in variants.FAMILIES.values():
        assert inspect.getdoc(family.evaluate), family.name
    # the coefficients' docstrings cite a source with its year
    for function in (multirater.conger_kappa, multirater.randolph_kappa, alpha.alpha_expected_over_n_squared):
        assert re.search(r"\(\d{4}\)", inspect.getdoc(function)), function.__name__
    assert variants.describe("base.all_labels") == "as a percentage of all labels"
    assert variants.describe("tie.neutral") == "majority with tie rule neutral"
    with pytest.raises(ValueError, match="no variant"):
        variants.describe("kappa.nonsense")


# --- Mozetič et al. (2016) on the released labels: the printed figures the variants reproduce ----

CLARIN = "www.clarin.si/repository/xmlui/bitstream/handle/11356/1054"


def _language(mirror, language) -> Annotations:
    path = mirror / CLARIN / f"{language}_Twitter_sentiment.csv"
    if not path.is_file():
        pytest.skip(f"the mirror has no {language} file")
    return read_annotations(path, "TweetID", "AnnotatorID", "HandLabel", categories=("Negative", "Neutral", "Positive"))


def test_serbian_self_agreement_0_205_is_reproduced_by_the_n_squared_variant(mirror):
    # Results (Fig 7 text): Serbian self-agreement Alpha = 0.205 (182 self units).
    own = _language(mirror, "Serbian").self_agreement()
    assert own.n_units == 182
    found = search(
        "0.205",
        variants.alpha_expected_pairs(own.counts, "interval", selfagreement.SENTIMENT_VALUES),
        reference="alpha.expected_n_minus_1",
    )
    assert found.status == "mismatch"
    assert [t.name for t in found.reproducing] == ["alpha.expected_n_squared"]
    assert selfagreement.alpha_variant_n_squared(own.counts) == alpha.alpha_expected_over_n_squared(
        own.counts, "interval", selfagreement.SENTIMENT_VALUES
    )


def test_bosnian_6519_counts_label_pairs(mirror):
    # Results (Fig 7 text): "6,519 annotated twice" by the Bosnian annotator.
    own = _language(mirror, "Bosnian").self_agreement()
    counts = variants.counting(own.labels_per_unit())
    assert counts["count.label_pairs"] == selfagreement.label_pairs(own)
    found = search("6,519", counts, reference="count.items")
    assert found.status == "mismatch"
    assert [t.name for t in found.reproducing] == ["count.label_pairs"]


def test_ser_cro_bos_self_agreement_share_9_3_percent(mirror):
    # Table 3, Ser/Cro/Bos: 19,991 posts annotated twice by the same annotator, 9.3% (of all labels).
    joint = Annotations.concat(
        [_language(mirror, language) for language in ("Serbian", "Croatian", "Bosnian")], source="Ser/Cro/Bos"
    )
    counts = variants.counting(joint.self_agreement().labels_per_unit())
    assert [name for name, value in counts.items() if printed.matches("19,991", value)] == ["count.label_pairs"]
    shares = {
        f"{count}|{base}": value
        for count in counts
        for base, value in variants.percentage_bases(
            counts[count], all_labels=joint.n_labels, all_items=joint.n_units
        ).items()
    }
    found = search("9.3%", shares, reference="count.items|base.all_labels")
    assert found.status == "mismatch"
    # 19,991 pairs / 215,657 labels = 9.27% and 19,950 repeated labels = 9.25% both print as
    # 9.3%; 19,909 items = 9.23% only rounds up to it (a note, not a candidate). The share
    # alone cannot tell the two apart; the count 19,991 can (above).
    assert [t.words() for t in found.reproducing] == [
        "count.label_pairs|base.all_labels (9.26981)",
        "count.repeat_labels|base.all_labels (9.2508)",
    ]
