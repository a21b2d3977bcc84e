"""The functions behind agreement_before_accuracy's rules (intent_round, prevalence_sweep,
bootstrap_widths), which the thin rule scripts call. Expected values: the field's libraries
on the same ratings (krippendorff, statsmodels, scikit-learn) and small cases by hand."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa

from agreement_before_accuracy import bootstrap_widths, intent_round, prevalence_sweep
from agreement_before_accuracy.fixture import LABELS, complete_round
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import Ratings


def values_of(outputs) -> dict[str, float]:
    return {row["key"]: row["value"] for row in outputs.values}


@pytest.fixture(scope="module")
def fixture_block():
    return intent_round.compute_fixture()


@pytest.fixture(scope="module")
def widths():
    return bootstrap_widths.compute_bootstrap_widths()


def small_ratings() -> Ratings:
    # 4 units x 3 coders, every cell labelled: Fleiss' table [[3,0],[2,1],[0,3],[1,2]]
    return Ratings.from_labels(
        pd.DataFrame({"A": ["x", "x", "y", "y"], "B": ["x", "x", "y", "x"], "C": ["x", "y", "y", "y"]}),
        categories=("x", "y"),
    )


def test_the_coefficients_of_the_gap_agree_with_the_field_libraries():
    ratings = small_ratings()
    table = np.array([[3, 0], [2, 1], [0, 3], [1, 2]])
    assert intent_round.fleiss_of(ratings) == pytest.approx(fleiss_kappa(table), abs=1e-12)
    coded = ratings.codes.T.astype(float)  # krippendorff: coders x units
    expected_alpha = krippendorff.alpha(reliability_data=coded, level_of_measurement="nominal")
    assert intent_round.alpha_of(ratings) == pytest.approx(expected_alpha, abs=1e-12)
    assert intent_round.alpha_minus_fleiss(ratings) == pytest.approx(expected_alpha - fleiss_kappa(table), abs=1e-12)


def test_the_intent_round_is_240_messages_of_three_coders():
    ratings, truth = intent_round.intent_ratings()
    assert (ratings.n_units, ratings.raters, len(truth)) == (240, ("A", "B", "C"), 240)
    smaller, _ = intent_round.intent_ratings(n_items=10)
    assert smaller.n_units == 10


def test_block_one_holds_the_field_libraries_values(fixture_block):
    values = values_of(fixture_block)
    ratings, _ = intent_round.intent_ratings()
    complete = ratings.complete()
    assert values["count.items.intent"] == 240 and values["count.annotators.intent"] == 3
    assert values["count.complete_units.intent"] == complete.n_units
    assert values["fleiss.intent.complete_units"] == pytest.approx(fleiss_kappa(complete.unit_counts()), abs=1e-12)
    missing = np.where(ratings.codes < 0, np.nan, ratings.codes).T.astype(float)
    assert values["alpha_nominal.intent.all_units"] == pytest.approx(
        krippendorff.alpha(reliability_data=missing, level_of_measurement="nominal"), abs=1e-12
    )
    labels = ratings.labels()
    both = labels["A"].notna() & labels["B"].notna()
    assert values["kappa.a_b.intent"] == pytest.approx(
        cohen_kappa_score(labels["A"][both], labels["B"][both]), abs=1e-12
    )
    # the gap at 240 items is the block's own alpha minus Fleiss on complete units
    assert values["alpha_minus_fleiss.intent.complete_units.n240"] == pytest.approx(
        values["alpha_minus_fleiss.intent.complete_units"], abs=1e-12
    )
    assert set(fixture_block.tables) == {"pairs", "gap", "fixture"}
    assert fixture_block.tables["gap"].frame["items"].tolist() == [240, 2400, 24000]
    assert len(fixture_block.tables["fixture"].frame) == 240


def test_block_one_marks_reagree_s_own_reading_among_its_variants(fixture_block):
    variants = pd.DataFrame(fixture_block.variants)
    fleiss = variants[variants["key"] == "fleiss.intent.complete_units"]
    assert set(fleiss["family"]) == {"missing_ratings", "chance_model"}
    own = fleiss[fleiss["own"] == "yes"].set_index("family")["variant"].to_dict()
    assert own == {"missing_ratings": "missing.listwise", "chance_model": "kappa.fleiss"}
    # the listwise reading is Fleiss' kappa on the complete units, as statsmodels computes it
    ratings, _ = intent_round.intent_ratings()
    listwise = fleiss.loc[fleiss["variant"] == "missing.listwise", "value"].iloc[0]
    assert listwise == pytest.approx(fleiss_kappa(ratings.complete().unit_counts()), abs=1e-12)


def test_the_counted_table_read_by_hand():
    outputs = prevalence_sweep.compute_prevalence_sweep()
    values = values_of(outputs)
    # a=1 b=0 / c=9 d=230: p_o = 231/240; p_e = (1*10 + 239*230) / 240^2
    p_o, p_e = 231 / 240, (1 * 10 + 239 * 230) / 240**2
    assert values["kappa.table2x2"] == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-12)
    assert values["kappa.table2x2"] == pytest.approx(cohens_kappa(np.array([[1, 0], [9, 230]])).kappa, abs=1e-12)
    assert values["pabak.table2x2"] == pytest.approx(2 * p_o - 1, abs=1e-12)
    assert values["n.table2x2"] == 240
    # every prevalence holds the agreement it was built for
    sweep = outputs.tables["sweep"].frame
    assert sweep["agreement"].to_numpy() == pytest.approx(np.full(6, 0.9), abs=1e-12)
    counted = outputs.tables["counted"].frame
    assert (counted["specific_rare"].iloc[0], counted["n"].iloc[0]) == (pytest.approx(2 / 11), 240)  # 2a/(2a+b+c)


def test_the_percentile_interval_on_the_documents_draws_by_hand():
    two = Ratings.from_labels(
        pd.DataFrame({"A": ["x", "x", "y", "y"], "B": ["x", "y", "y", "y"]}), categories=("x", "y")
    )
    statistic = cohen_statistic(two, "A", "B")
    # draw 1: units (0, 0, 3, 3) -> x,x / x,x / y,y / y,y: kappa 1; draw 2: units (1, 1, 2, 2):
    # A x,x,y,y vs B y,y,y,y: p_o = 1/2, p_e = 1/2 * 0 + 1/2 * 1 = 1/2 -> kappa 0
    interval = bootstrap_widths.percentile_interval(statistic, np.array([[0, 0, 3, 3], [1, 1, 2, 2]]))
    assert (interval.low, interval.high) == (0.0, 1.0)
    assert interval.scheme == "python-random(100000+d); draws=2; seed=100000; level=0.95"


def test_the_width_study_by_sample_size(widths):
    values = values_of(widths)
    two = pd.DataFrame(complete_round(100, 100, ("A", "B")))
    assert values["kappa.a_b.width_study.n100"] == pytest.approx(cohen_kappa_score(two["A"], two["B"]), abs=1e-12)
    table = widths.tables["widths"].frame
    assert table["n"].tolist() == [50, 100, 200, 400, 800, 2000]
    width = dict(zip(table["n"], table["kappa_width"]))
    assert values["half_width.kappa.a_b.width_study.n100"] == pytest.approx(width[100] / 2, abs=1e-15)
    assert values["ratio.width.kappa.a_b.width_study.n400_per_n100"] == pytest.approx(width[400] / width[100])
    assert {row["variant"] for row in widths.variants if row["own"] == "yes"} == {"kappa.cohen"}
    assert set(LABELS) >= set(two["A"])
