"""The "Agreement Before Accuracy" figures, straight from the library (no workflow, no data),
and its ledger held against the seed text.

Every number asserted here is printed in ../shared/seeds/001_ed4d21bbea36bdcb.txt.
"""

import numpy as np
import pandas as pd
import pytest

from reagree.pipeline.ledger import check_paper
from reagree.pipeline.paperspec import load_paper

from reagree.stats import bootstrap, multirater, pairwise
from reagree.stats.alpha import alpha_statistic, krippendorff_alpha
from reagree.stats.ratings import MISSING, Ratings


from agreement_before_accuracy import fixture as _fixture
from conftest import ROOT

CODERS, LABELS, complete_round, flip_rate_for_agreement, intent_round = (
    _fixture.CODERS,
    _fixture.LABELS,
    _fixture.complete_round,
    _fixture.flip_rate_for_agreement,
    _fixture.intent_round,
)
resample_indices, severity_round, two_coder_table = (
    _fixture.resample_indices,
    _fixture.severity_round,
    _fixture.two_coder_table,
)


@pytest.fixture(scope="module")
def intent():
    units, truth = intent_round()
    return Ratings.from_labels(pd.DataFrame(units, columns=list(CODERS)), categories=LABELS), truth


def test_the_fixture_is_the_documents(intent):
    ratings, truth = intent
    assert round(100 * (ratings.codes == MISSING).mean(), 1) == 6.5
    accuracy = [np.mean(ratings.codes[:, i] == np.array([LABELS.index(t) for t in truth])) for i in range(3)]
    # 189/240 = 0.7875 exactly; the document's "%.3f" prints the binary float below it as 0.787
    assert [f"{a:.3f}" for a in accuracy] == ["0.858", "0.783", "0.787"]


@pytest.mark.parametrize(
    "a, b, n, agreement, chance, kappa",
    [
        ("A", "B", 211, 0.7915, 0.3504, 0.6790),
        ("A", "C", 212, 0.7642, 0.3645, 0.6289),
        ("B", "C", 210, 0.7429, 0.3745, 0.5889),
    ],
)
def test_pairwise_rows(intent, a, b, n, agreement, chance, kappa):
    reading = pairwise.table_coefficients(pairwise.contingency_table(intent[0], a, b))
    assert reading["n"] == n
    assert reading["agreement"] == pytest.approx(agreement, abs=5e-5)
    assert reading["chance"] == pytest.approx(chance, abs=5e-5)
    assert reading["kappa"] == pytest.approx(kappa, abs=5e-5)


def test_fleiss_and_alpha(intent):
    ratings = intent[0]
    complete = ratings.complete()
    assert complete.n_units == 200
    fleiss = multirater.fleiss_kappa(complete.unit_counts())
    assert fleiss == pytest.approx(0.634913, abs=5e-7)
    assert krippendorff_alpha(ratings, "nominal") == pytest.approx(0.631529, abs=5e-7)
    assert krippendorff_alpha(complete, "nominal") - fleiss == pytest.approx(6.08e-4, abs=5e-7)


def test_severity_levels_and_the_ordinal_marginals_note():
    severity = Ratings.from_labels(pd.DataFrame(severity_round(), columns=list(CODERS)), categories=(1, 2, 3))
    ordinal = krippendorff_alpha(severity, "ordinal")
    assert ordinal == pytest.approx(0.751008, abs=5e-7)
    assert krippendorff_alpha(severity, "nominal") == pytest.approx(0.594901, abs=5e-7)
    shift = alpha_statistic(severity, "ordinal", ordinal_marginals="all").estimate() - ordinal
    assert abs(shift) == pytest.approx(1.4e-5, abs=5e-7)


def test_prevalence_sweep_ends_and_counted_table():
    q = flip_rate_for_agreement(0.900)
    assert q == pytest.approx(0.0527864, abs=5e-8)
    rare = pairwise.table_coefficients(two_coder_table(0.01, q))
    assert (round(rare["chance"], 4), round(rare["kappa"], 3), round(rare["pabak"], 3), round(rare["ac1"], 3)) == (
        0.8842,
        0.137,
        0.800,
        0.887,
    )
    balanced = pairwise.table_coefficients(two_coder_table(0.50, q))
    assert round(balanced["kappa"], 3) == round(balanced["ac1"], 3) == 0.800
    counted = pairwise.table_coefficients([[1, 0], [9, 230]])
    assert (counted["agreement"], round(counted["kappa"], 3), counted["pabak"], round(counted["ac1"], 3)) == (
        0.9625,
        0.176,
        0.925,
        0.961,
    )
    assert [round(s, 3) for s in counted["specific"]] == [0.182, 0.981]


def test_bootstrap_row_n100_with_the_documents_resampling():
    two = Ratings.from_labels(pd.DataFrame(complete_round(100, 100, ("A", "B"))), categories=LABELS)
    statistic = pairwise.cohen_statistic(two, "A", "B")
    low, high = bootstrap.percentile_interval(
        bootstrap.evaluate_indices([statistic], np.array(resample_indices(100, 2000)))[0], 0.95
    )
    assert (round(statistic.estimate(), 3), round(low, 3), round(high, 3), round(high - low, 3)) == (
        0.736,
        0.618,
        0.840,
        0.223,
    )


def test_the_sweep_gives_six_different_kappas_and_a_constant_pabak():
    """The document's block 2 output prints six prevalences with kappas 0.137, 0.239, 0.432,
    0.590, 0.750, 0.800 (six different values) and PABAK 0.800 in every row; its heading
    says "five different kappas" (the paper's one finding, count.distinct_kappas.prevalence_sweep)."""
    q = flip_rate_for_agreement(0.900)
    readings = [pairwise.table_coefficients(two_coder_table(p, q)) for p in _fixture.PREVALENCES]
    kappas = [round(r["kappa"], 3) for r in readings]
    assert kappas == [0.137, 0.239, 0.432, 0.590, 0.750, 0.800] and len(np.unique(kappas)) == 6
    assert {round(r["pabak"], 3) for r in readings} == {0.800}
    assert {round(r["agreement"], 3) for r in readings} == {0.900}


SEED = ROOT.parent / "shared" / "seeds" / "001_ed4d21bbea36bdcb.txt"
PAPER = ROOT / "workflow" / "papers" / "agreement_before_accuracy"


def test_the_ledger_accounts_for_every_number_the_document_prints():
    """reagree scan finds 498 numbers in the seed (test_scan's SEED_COUNTS); the ledger claims
    or dismisses each, with nothing unreviewed, and every claim is located at its number."""
    if not SEED.is_file():
        pytest.skip(f"{SEED} is not here (the seed texts sit in ../shared/seeds beside the checkout)")
    claims = load_paper(PAPER / "paper.yaml")["claims"]
    table, counts = check_paper(
        "agreement_before_accuracy", claims, [{"name": SEED.name, "path": SEED}], PAPER / "ledger.tsv", strict=True
    )
    count = counts.iloc[0]
    assert (
        count["printed"],
        count["claimed"],
        count["dismissed"],
        count["unaccounted"],
        count["claimed_in_words"],
    ) == (498, 206, 292, 0, 1)
    by_place = table.set_index(["line", "column"])
    # the heading's "five different kappas" is the finding's claim; the code's hard-coded flip
    # rate is a result; its PO = 0.900 a setting
    assert by_place.loc[(221, 43), "claims"] == "count.distinct_kappas.prevalence_sweep"
    assert by_place.loc[(229, 5), "claims"] == "flip_rate.prevalence_sweep"
    assert by_place.loc[(228, 6), ["status", "reason"]].tolist() == ["dismissed", "setting"]
