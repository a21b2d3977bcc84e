"""The audit's new readings (issue 26): design, per rater, per item, category pairs, the
analytic inference and the weighted family, each held against an independent library or
a case worked by hand.

Cited cases: Fleiss (1971) Table 1 (statsmodels' test suite, ``diagnoses``); irrCAC's
``raw_5observers`` (Gwet 2014, Table 2.13: five observers, many ratings missing, so only
one unit every observer rated); the krippendorff package recomputed without each rater;
scipy's ``chisquare`` for the bias test.
"""

from __future__ import annotations

import csv
import json
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest
from irrCAC.datasets import raw_5observers
from irrCAC.raw import CAC
from scipy import stats
from statsmodels.stats.tests.test_inter_rater import diagnoses

from reagree.audit import audit, read_table, render_text, write_outputs
from reagree.cli import main


def _fleiss_file(tmp_path):
    path = tmp_path / "fleiss.csv"
    frame = pd.DataFrame(diagnoses, columns=[f"psy{i + 1}" for i in range(6)])
    frame.insert(0, "patient", range(1, 31))
    frame.to_csv(path, index=False)
    return path


def _observers_file(tmp_path):
    path = tmp_path / "observers.csv"
    frame = raw_5observers().reset_index()
    frame.columns = ["unit", *frame.columns[1:]]
    frame.astype(object).where(frame.notna(), "").map(lambda v: str(int(v)) if v != "" else "").to_csv(
        path, index=False
    )
    return path


def test_interchangeable_raters_get_no_pairs_and_say_why(tmp_path):
    table = read_table(_fleiss_file(tmp_path), layout="wide", unit="patient")
    fixed = audit(table, draws=0)
    assert fixed["design"] == {**fixed["design"], "raters": "fixed", "inferred": True}
    assert len(fixed["pairwise"]) == 15 and "conger_kappa" in fixed["coefficients"]
    interchangeable = audit(table, draws=0, design="interchangeable")
    assert interchangeable["pairwise"] == [] and "conger_kappa" not in interchangeable["coefficients"]
    assert "interchangeable" in interchangeable["pairwise_plan"]["why"]
    text = render_text(interchangeable)
    assert "a pair of columns has no Cohen's kappa" in text
    assert interchangeable["schema"] == "reagree.audit/2"


def test_per_category_kappa_carries_its_null_se_z_and_p(tmp_path):
    """Fleiss (1971): 30 complete units of 6 ratings, se_0 = sqrt(1 / 450) for every kappa_j;
    p two-sided normal (scipy)."""
    result = audit(read_table(_fleiss_file(tmp_path), layout="wide", unit="patient"), draws=0)
    for entry in result["per_category"].values():
        assert entry["fleiss_kappa_se_null"] == pytest.approx((1 / 450) ** 0.5)
        z = entry["fleiss_kappa"] / (1 / 450) ** 0.5
        assert entry["fleiss_kappa_z"] == pytest.approx(z)
        assert entry["fleiss_kappa_p"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9, abs=1e-300)
    assert "Fleiss, Nee & Landis 1979" in render_text(result)


def test_fleiss_design_written_long_with_each_patients_psychiatrists_is_interchangeable(tmp_path):
    """Fleiss (1971): each patient saw six psychiatrists of their own. Written long with
    those per-patient rater ids, 6 of 180 raters rate a unit (3% of the cells): the design
    is inferred interchangeable, no pairs and no Conger, and Fleiss' kappa reads the units
    with six ratings (every unit here; R irr's ``kappam.fleiss`` 0.4302445). Written wide (psy1..psy6), every
    cell is filled and nothing in the counts tells a column is not one person: it is
    inferred fixed, and the text names --design interchangeable."""
    path = tmp_path / "fleiss_long.csv"
    rows = [
        (patient + 1, f"p{patient + 1}-r{j + 1}", label)
        for patient, row in enumerate(diagnoses)
        for j, label in enumerate(row)
    ]
    pd.DataFrame(rows, columns=["unit", "rater", "label"]).to_csv(path, index=False)
    result = audit(read_table(path), draws=0)
    assert result["design"]["raters"] == "interchangeable" and result["design"]["inferred"]
    assert result["n_raters"] == 180 and result["pairwise"] == [] and "conger_kappa" not in result["coefficients"]
    assert "not a fixed panel" in render_text(result)
    # Fleiss' kappa reads the units with the most ratings (all 30 have 6): R irr's 0.4302445, and Gwet's form agrees
    assert result["units_complete"] == 30 and result["complete_means"] == "units with 6 ratings, the most any unit has"
    assert result["coefficients"]["fleiss_kappa"] == pytest.approx(0.4302445, abs=1e-7)
    assert result["coefficients"]["fleiss_kappa_gwet"] == pytest.approx(0.4302445, abs=1e-7)
    wide = audit(read_table(_fleiss_file(tmp_path), layout="wide", unit="patient"), draws=0)
    assert wide["design"]["raters"] == "fixed" and "say --design interchangeable" in render_text(wide)


def test_fleiss_on_one_complete_unit_says_so_and_gwet_form_equals_irrcac(tmp_path):
    result = audit(read_table(_observers_file(tmp_path), layout="wide"), draws=0)
    assert result["units_complete"] == 1 and result["coefficients"]["fleiss_kappa"] is None
    assert "1 complete unit(s), fewer than the minimum of 10" in result["undefined"]["coefficients.fleiss_kappa"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = CAC(raw_5observers(), categories=[0.0, 1.0, 2.0, 3.0], digits=15).fleiss()["est"]
    assert result["coefficients"]["fleiss_kappa_gwet"] == pytest.approx(expected["coefficient_value"], abs=1e-12)
    assert result["inference"]["fleiss_kappa_gwet"]["se"] == pytest.approx(expected["se"], abs=1e-12)
    assert result["references"]["fleiss_kappa_gwet"]["se"] == pytest.approx(expected["se"], abs=1e-12)


def test_leave_one_rater_out_equals_krippendorff_without_the_rater(tmp_path):
    result = audit(read_table(_fleiss_file(tmp_path), layout="wide", unit="patient"), draws=100)
    data = diagnoses.T.astype(float)
    everyone = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    for row in result["per_rater"]:
        g = int(row["rater"][3:]) - 1
        without = krippendorff.alpha(reliability_data=np.delete(data, g, axis=0), level_of_measurement="nominal")
        assert row["without_alpha"]["change"] == pytest.approx(without - everyone, abs=1e-12)
        low, high = row["without_alpha"]["change_ci"]
        assert low <= row["without_alpha"]["change"] <= high
    changes = [row["without_alpha"]["change"] for row in result["per_rater"]]
    assert changes == sorted(changes, reverse=True)  # the rater who lowers agreement most first
    top = result["per_rater"][0]
    assert render_text(result).splitlines()[0] == (
        f"nominal alpha {everyone:.2f} [{result['ci']['krippendorff_alpha']['nominal'][0]:.2f}, "
        f"{result['ci']['krippendorff_alpha']['nominal'][1]:.2f}]; without rater {top['rater']}: "
        f"{everyone + top['without_alpha']['change']:.2f}"
    )


def test_per_rater_agreement_and_bias_by_hand(tmp_path):
    """Three units, raters a, b, c: u1 a=x b=x c=y; u2 a=x b=y c=y; u3 a=x b=x (c blank).
    Rater a: pairs with the others u1 (x,x) (x,y), u2 (x,y) (x,y), u3 (x,x): 2 of 5 agree.
    Leave-one-out majority for a: u1 others {x, y} tie -> 1/2; u2 others {y, y} -> 0; u3 {x} -> 1:
    1.5 / 3. Bias: a's labels (x 3, y 0) against the others' labels on a's units (x 2, y 3),
    expected (1.2, 1.8): chi-square 4.5 on 1 degree of freedom (scipy's chisquare)."""
    path = tmp_path / "hand.csv"
    path.write_text("unit,a,b,c\nu1,x,x,y\nu2,x,y,y\nu3,x,x,\n")
    result = audit(read_table(path, layout="wide"), draws=0)
    a = next(row for row in result["per_rater"] if row["rater"] == "a")
    assert a["pairwise_agreement"] == pytest.approx(2 / 5)
    assert a["majority_agreement"] == pytest.approx(1.5 / 3)
    expected = stats.chisquare([3, 0], [1.2, 1.8])
    assert a["bias"]["chi2"] == pytest.approx(expected.statistic) and a["bias"]["p"] == pytest.approx(expected.pvalue)


def test_items_are_ranked_written_to_csv_and_topped_in_the_text(tmp_path, capsys):
    path = tmp_path / "hand.csv"
    path.write_text("unit,a,b,c\nu1,x,x,y\nu2,x,y,z\nu3,x,x,x\nu4,y,y,\n")
    result = audit(read_table(path, layout="wide"), draws=0)
    units = result["items"]["units"]
    # u2: all three pairs disagree; u1: two of three; u3 and u4 agree (not disputed)
    assert [u["unit"] for u in units] == ["u2", "u1"]
    assert units[1]["disagreeing_pairs"] == pytest.approx(2 / 3)
    assert units[0]["entropy_bits"] == pytest.approx(np.log2(3))
    written = write_outputs(result, tmp_path / "out")
    rows = list(csv.DictReader(written["items"].open()))
    assert [r["unit"] for r in rows] == ["u2", "u1"] and rows[1]["votes_x"] == "2"
    assert main(["audit", str(path), "--format", "wide", "--bootstrap", "0", "--top", "1"]) == 0
    printed = capsys.readouterr().out
    assert "  u2" in printed and "  u1 " not in printed


def test_a_figure_that_no_longer_applies_is_removed(tmp_path):
    """Fixed raters draw pairs.png; the same folder audited again as interchangeable raters
    (no pairs) must not keep the old heatmap beside the new audit."""
    table = read_table(_fleiss_file(tmp_path), layout="wide", unit="patient")
    out = tmp_path / "out"
    assert "pairs_figure" in write_outputs(audit(table, draws=0), out) and (out / "pairs.png").is_file()
    written = write_outputs(audit(table, draws=0, design="interchangeable"), out)
    assert "pairs_figure" not in written and not (out / "pairs.png").exists()


def test_value_rows_carry_gwet_conger_and_standard_errors_with_irrcac_beside(tmp_path):
    """values.tsv rows (``reagree.audit.value_rows``): Fleiss' kappa in Gwet's form, Conger's
    kappa and each analytic standard error, with irrCAC's own value and se computed live on
    the same ratings (Fleiss 1971's table, categories passed explicitly) in the reference
    columns."""
    from reagree.audit import value_rows
    from reagree.pipeline.tables import read_values, write_values

    result = audit(read_table(_fleiss_file(tmp_path), layout="wide", unit="patient"), draws=0)
    write_values(value_rows(result), tmp_path / "values.tsv", rule="test")
    values = read_values(tmp_path / "values.tsv").set_index("key")
    frame = pd.DataFrame(diagnoses.astype(float))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = CAC(frame, categories=[1.0, 2.0, 3.0, 4.0, 5.0], digits=15)
        fleiss, conger = cac.fleiss()["est"], cac.conger()["est"]
    assert values.loc["ac1.raters", "reference"].startswith("irrCAC")  # the older rows read the registry too
    assert values.loc["fleiss.raters", "reference_value"] == pytest.approx(0.4302445, abs=1e-7)  # statsmodels
    for key, expected in (
        ("fleiss_gwet.raters", fleiss["coefficient_value"]),
        ("conger.raters", conger["coefficient_value"]),
        ("se.fleiss_kappa_gwet.raters", fleiss["se"]),
        ("se.conger_kappa.raters", conger["se"]),
    ):
        assert values.loc[key, "value"] == pytest.approx(expected, abs=1e-12), key
        assert values.loc[key, "reference_value"] == pytest.approx(expected, abs=1e-12), key
        assert values.loc[key, "reference"].startswith("irrCAC"), key


def test_category_pairs_by_hand(tmp_path):
    """u1 (x, x, y): ordered pairs x-x 2, x-y 2, y-x 2; u2 (x, y): x-y 1, y-x 1.
    Row x: x-x 2, x-y 3; its diagonal share 2/5 is x's specific agreement."""
    path = tmp_path / "hand.csv"
    path.write_text("unit,a,b,c\nu1,x,x,y\nu2,x,y,\n")
    result = audit(read_table(path, layout="wide"), draws=0)
    assert result["category_pairs"]["pairs"] == [[2, 3], [3, 0]]
    assert result["category_pairs"]["row_shares"][0][0] == pytest.approx(
        result["per_category"]["x"]["specific_agreement"]
    )


def test_weighted_family_and_json_for_ordered_labels(tmp_path):
    table = read_table(
        "examples/triage_wide.csv", layout="wide", unit="ticket", majority="lead", order="low,medium,high,urgent"
    )
    result = audit(table, level="ordinal", draws=0)
    frame = pd.read_csv("examples/triage_wide.csv")[["A", "B", "C", "D"]]
    coded = frame.replace({"low": 1.0, "medium": 2.0, "high": 3.0, "urgent": 4.0}).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = CAC(coded, weights="quadratic", categories=[1.0, 2.0, 3.0, 4.0], digits=15)
        ac2, conger = cac.gwet()["est"], cac.conger()["est"]
    block = result["weighted"]["quadratic"]
    assert block["gwet_ac1"] == pytest.approx(ac2["coefficient_value"], abs=1e-12)
    assert block["inference"]["gwet_ac1"]["se"] == pytest.approx(ac2["se"], abs=1e-12)
    assert block["conger_kappa"] == pytest.approx(conger["coefficient_value"], abs=1e-12)
    assert set(result["weighted"]) == {"linear", "quadratic"}
    json.dumps(result, allow_nan=False)  # every number JSON can hold
    with pytest.raises(ValueError, match="weighted coefficients need ordered labels"):
        audit(
            read_table(
                tmp_path.joinpath("t.csv")
                if tmp_path.joinpath("t.csv").write_text("unit,a,b\nu1,x,y\nu2,y,y\n")
                else None,
                layout="wide",
            ),
            weights=["linear"],
        )
