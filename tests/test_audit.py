"""`reagree audit` on published worked examples, entered as files in long and in wide form.

Every expected number is printed in the cited source or counted by hand in the test;
none is reagree's own output pasted back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reagree.audit import audit, read_table, to_json, value_rows
from reagree.cli import main

# Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
# Communication, University of Pennsylvania, section C: 4 observers (A-D) x 12 units, values
# 1-5, missing values. Printed: alpha nominal 0.743, ordinal 0.815, interval 0.849, ratio
# 0.797 (the krippendorff package's `alpha` docstring prints the nominal, ordinal and ratio
# values on the same data). Gwet, K. L. (2014), Handbook of Inter-Rater Reliability, 4th ed.,
# uses the same reliability data (irrCAC's `raw_4raters`); irrCAC's documentation prints
# AC1 = 0.77544 and percent agreement pa = 0.81818.
KRIPPENDORFF_2011 = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
}
KRIPPENDORFF_2011_ALPHA = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
# The krippendorff package's docstring writes the same data as words, ordinal 0.815 with
# value_domain ["very low", "low", "mid", "high", "very high"], and nominal 0.743.
WORDS = {1: "very low", 2: "low", 3: "mid", 4: "high", 5: "very high"}

# Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
# Bulletin 76(5), 378-382, Table 1: 30 patients, 6 psychiatrists each, 5 diagnoses. The
# paper prints kappa = .430 and the category kappas .245, .245, .520, .471, .566 (data as
# statsmodels' test suite holds them, `diagnoses`).
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]
FLEISS_1971_CATEGORY = {"1": 0.245, "2": 0.245, "3": 0.520, "4": 0.471, "5": 0.566}

# Wikipedia, "Krippendorff's alpha", and the krippendorff package's `alpha` docstring: 3
# coders x 15 units (units 2 and 14 rated by nobody); printed nominal 0.691358, interval
# 0.810845.
WIKIPEDIA = {
    "c1": [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
    "c2": [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
    "c3": [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
}

REQUIRED_KEYS = ["n_units", "n_raters", "n_ratings", "categories", "missing_share", "coefficients.percent_agreement",
                 "coefficients.fleiss_kappa", "coefficients.fleiss_n_units", "coefficients.krippendorff_alpha.nominal",
                 "coefficients.gwet_ac1", "coefficients.pabak", "coefficients.mean_pairwise_cohen", "pairwise",
                 "ties.count", "ties.rule", "ci.method"]


def write_wide(path: Path, columns: dict, sep: str = ",", unit: str = "unit", relabel=None) -> Path:
    raters = list(columns)
    lines = [sep.join([unit, *raters])]
    for i in range(len(next(iter(columns.values())))):
        cells = [columns[r][i] for r in raters]
        lines.append(sep.join([f"u{i + 1}", *("" if c is None else str(relabel(c) if relabel else c) for c in cells)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_long(path: Path, columns: dict, sep: str = ",", header=("unit", "rater", "label"), relabel=None) -> Path:
    lines = [sep.join(header)]
    for rater, labels in columns.items():  # rater by rater: the file order of a long table is free
        for i, label in enumerate(labels):
            if label is not None:
                lines.append(sep.join([f"u{i + 1}", rater, str(relabel(label) if relabel else label)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_audit(args: list[str], tmp_path: Path, capsys) -> tuple[int, dict | None, str]:
    out = tmp_path / "audit.json"
    code = main(["audit", *args, "--json", str(out)])
    printed = capsys.readouterr()
    result = json.loads(out.read_text()) if out.exists() else None
    return code, result, printed.out + printed.err


def dig(result: dict, dotted: str):
    value = result
    for part in dotted.split("."):
        value = value[part]
    return value


# ----------------------------------------------------------------------------- Krippendorff (2011)

@pytest.fixture(params=["long", "wide"])
def krippendorff_file(request, tmp_path):
    if request.param == "long":
        path = write_long(tmp_path / "k2011_long.csv", KRIPPENDORFF_2011)
        return path, []
    return write_wide(tmp_path / "k2011_wide.tsv", KRIPPENDORFF_2011, sep="\t"), ["--format", "wide"]


def test_krippendorff_2011_published_alphas_long_and_wide(krippendorff_file, tmp_path, capsys):
    path, layout = krippendorff_file
    code, result, printed = run_audit([str(path), *layout, "--level", "interval", "--bootstrap", "200"],
                                      tmp_path, capsys)
    assert code == 0
    for key in REQUIRED_KEYS:
        dig(result, key)
    alpha = result["coefficients"]["krippendorff_alpha"]
    assert {level: round(alpha[level], 3) for level in alpha} == KRIPPENDORFF_2011_ALPHA
    assert round(result["coefficients"]["gwet_ac1"], 5) == 0.77544
    assert round(result["coefficients"]["percent_agreement"], 5) == 0.81818
    # counted by hand: 41 ratings in 12 x 4 cells; units 1-9 are the ones A and B both rated,
    # and they differ only on unit 6 (1 against 2)
    assert (result["n_units"], result["n_raters"], result["n_ratings"]) == (12, 4, 41)
    assert result["missing_share"] == pytest.approx(7 / 48, abs=1e-12)
    assert result["categories"] == ["1", "2", "3", "4", "5"]
    pair = next(p for p in result["pairwise"] if (p["a"], p["b"]) == ("A", "B"))
    assert pair["n"] == 9 and pair["percent_agreement"] == pytest.approx(8 / 9, abs=1e-12)
    assert pair["copy_a_scores_against_b"] == pytest.approx(8 / 9, abs=1e-12)
    # units 1, 3, 4, 5, 6, 7, 8, 9 carry all four ratings
    assert result["coefficients"]["fleiss_n_units"] == 8
    assert "a model that copies A scores 0.8889 against B" in printed
    assert "Krippendorff's convention (a convention, not a test)" in printed


def test_ordered_words_need_the_order_and_then_give_the_published_ordinal_alpha(tmp_path, capsys):
    path = write_wide(tmp_path / "words.csv", KRIPPENDORFF_2011, relabel=WORDS.get)
    code, result, printed = run_audit([str(path), "--format", "wide", "--level", "ordinal", "--order",
                                       "very low,low,mid,high,very high", "--bootstrap", "0"], tmp_path, capsys)
    assert code == 0
    assert round(result["coefficients"]["krippendorff_alpha"]["ordinal"], 3) == 0.815
    assert round(result["coefficients"]["krippendorff_alpha"]["nominal"], 3) == 0.743
    assert "interval" not in result["coefficients"]["krippendorff_alpha"]  # words are not numbers
    assert result["ci"]["method"].startswith("none")
    # without the order, words have none: the ordinal level is refused with a hint
    code, _, said = run_audit([str(path), "--format", "wide", "--level", "ordinal"], tmp_path, capsys)
    assert code == 2 and "--order" in said


# ----------------------------------------------------------------------------- Fleiss (1971)

@pytest.mark.parametrize("layout", ["long", "wide"])
def test_fleiss_1971_published_kappa_and_category_kappas(layout, tmp_path, capsys):
    columns = {f"psychiatrist{j + 1}": [row[j] for row in FLEISS_1971] for j in range(6)}
    if layout == "long":
        path = write_long(tmp_path / "fleiss.tsv", columns, sep="\t", header=("patient", "rater", "diagnosis"))
        args = [str(path), "--unit", "patient", "--label", "diagnosis"]
    else:
        path = write_wide(tmp_path / "fleiss.csv", columns, unit="patient")
        args = [str(path), "--format", "wide", "--unit", "patient"]
    code, result, _ = run_audit([*args, "--bootstrap", "100"], tmp_path, capsys)
    assert code == 0
    assert round(result["coefficients"]["fleiss_kappa"], 3) == 0.430
    assert result["coefficients"]["fleiss_n_units"] == 30
    assert {c: round(v["fleiss_kappa"], 3) for c, v in result["per_category"].items()} == FLEISS_1971_CATEGORY
    assert (result["n_units"], result["n_raters"], result["n_ratings"], result["missing_share"]) == (30, 6, 180, 0)
    assert len(result["pairwise"]) == 15


def test_wikipedia_alpha_example_with_units_nobody_rated(tmp_path, capsys):
    path = write_wide(tmp_path / "wiki.csv", WIKIPEDIA)
    code, result, printed = run_audit([str(path), "--format", "wide", "--bootstrap", "0"], tmp_path, capsys)
    assert code == 0
    alpha = result["coefficients"]["krippendorff_alpha"]
    assert round(alpha["nominal"], 6) == 0.691358 and round(alpha["interval"], 6) == 0.810845
    assert result["units_without_rating"] == 2 and result["n_units"] == 13
    assert "2 unit(s) without any rating left out" in printed


# ----------------------------------------------------------------------------- reading the table

def test_numbers_are_ordered_as_numbers_and_labels_are_stripped(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("unit,rater,label\n1,a, 10\n1,b,2\n2,a,9 \n2,b,10\n3,a,2\n3,b,2\n")
    table = read_table(path)
    assert table.ratings.categories == ("2", "9", "10")
    result = audit(table, level="interval", draws=0)
    assert set(result["levels"]) == {"nominal", "ordinal", "interval", "ratio"}
    assert result["n_ratings"] == 6


def test_a_missing_column_names_the_columns_found(tmp_path, capsys):
    path = tmp_path / "labels.csv"
    path.write_text("item,coder,code\n1,a,x\n1,b,x\n")
    code, result, said = run_audit([str(path)], tmp_path, capsys)
    assert code == 2 and result is None
    assert "missing column(s) ['unit', 'rater', 'label']" in said and "found ['item', 'coder', 'code']" in said
    assert run_audit([str(path), "--unit", "item", "--rater", "coder", "--label", "code"], tmp_path, capsys)[0] == 0


def test_an_unreadable_table_exits_non_zero(tmp_path, capsys):
    code, _, said = run_audit([str(tmp_path / "nothing.csv")], tmp_path, capsys)
    assert code == 2 and "nothing.csv" in said
    path = tmp_path / "broken.csv"
    path.write_text("unit,rater,label\n1,a,x,extra\n")
    code, _, said = run_audit([str(path)], tmp_path, capsys)
    assert code == 2 and "line 2" in said


def test_the_majority_column_needs_the_wide_format(tmp_path, capsys):
    path = write_long(tmp_path / "k.csv", KRIPPENDORFF_2011)
    code, _, said = run_audit([str(path), "--majority", "gold"], tmp_path, capsys)
    assert code == 2 and "--format wide" in said


# ----------------------------------------------------------------------------- degenerate tables

@pytest.mark.parametrize("text, problem", [
    ("unit,rater,label\n1,a,x\n2,a,y\n3,a,x\n", "only one rater"),
    ("unit,rater,label\n1,a,x\n1,b,x\n2,a,x\n2,b,x\n", "only 1 category in use"),
    ("unit,rater,label\n1,a,x\n2,b,y\n3,c,x\n", "no unit has two or more ratings"),
])
def test_undefined_numbers_say_why_and_exit_zero(text, problem, tmp_path, capsys):
    path = tmp_path / "table.csv"
    path.write_text(text)
    code, result, printed = run_audit([str(path), "--bootstrap", "50"], tmp_path, capsys)
    assert code == 0
    assert any(problem in p for p in result["problems"]) and problem in printed
    assert result["coefficients"]["fleiss_kappa"] is None
    assert result["coefficients"]["krippendorff_alpha"]["nominal"] is None
    assert result["undefined"]["coefficients.fleiss_kappa"]
    assert result["undefined"]["coefficients.krippendorff_alpha.nominal"]
    json.loads(to_json(result))  # strict JSON: no NaN


def test_one_category_keeps_percent_agreement_which_is_defined(tmp_path):
    path = tmp_path / "same.csv"
    path.write_text("unit,rater,label\n1,a,x\n1,b,x\n2,a,x\n2,b,x\n")
    result = audit(read_table(path), draws=0)
    assert result["coefficients"]["percent_agreement"] == 1.0  # every pair agrees: by hand


# ----------------------------------------------------------------------------- ties

TIES = """unit,r1,r2,r3,r4,gold
t1,neg,neg,neu,neu,neg
t2,neu,neu,pos,pos,pos
t3,neg,neg,neg,pos,neg
t4,neu,pos,neu,pos,neu
t5,neg,neu,,,neu
t6,pos,pos,pos,neu,neu
"""


def test_ties_the_rule_and_the_majority_column_counted_by_hand(tmp_path, capsys):
    path = tmp_path / "ties.csv"
    path.write_text(TIES)
    code, result, printed = run_audit([str(path), "--format", "wide", "--majority", "gold", "--tie-rule",
                                       "prefer:neu", "--order", "neg,neu,pos", "--bootstrap", "0"], tmp_path, capsys)
    assert code == 0
    ties = result["ties"]
    # t1 neg-neu 2-2, t2 neu-pos 2-2, t4 neu-pos 2-2, t5 neg-neu 1-1: four ties
    assert ties["count"] == 4 and ties["rule"] == "prefer:neu"
    assert ties["kinds"] == {"neu vs pos": 2, "neg vs neu": 2}
    assert ties["rule_gave"] == {"neu": 4}
    assert ties["column_gave"] == {"neg": 1, "neu": 2, "pos": 1}
    # t6 is untied (pos 3, neu 1) and the column says neu
    assert ties["column_differs_on_untied"] == 1 and ties["column_differs_on_untied_units"] == ["t6"]
    assert [u["unit"] for u in ties["units"]] == ["t1", "t2", "t4", "t5"]
    assert result["n_raters"] == 4  # the majority column is not a rater
    assert "the column 'gold' gave them: neg 1, neu 2, pos 1" in printed

    code, dropped, _ = run_audit([str(path), "--format", "wide", "--majority", "gold", "--bootstrap", "0"],
                                 tmp_path, capsys)
    assert dropped["ties"]["rule_gave"] == {"no label": 4}


def test_random_tie_rule_is_seeded(tmp_path):
    path = tmp_path / "ties.csv"
    path.write_text(TIES)
    table = read_table(path, layout="wide", majority="gold")
    first = audit(table, tie_rule="random", seed=3, draws=0)["ties"]
    again = audit(table, tie_rule="random", seed=3, draws=0)["ties"]
    assert first == again and first["rule"] == "random"
    assert sum(first["rule_gave"].values()) == 4 and "no label" not in first["rule_gave"]


# ----------------------------------------------------------------------------- intervals and output

def test_intervals_are_named_and_reproducible(tmp_path):
    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)
    table = read_table(path, layout="wide")
    result = audit(table, level="ordinal", draws=300, seed=7)
    assert result["ci"]["method"] == "percentile; draws=300; seed=7; level=0.95"
    for name in ("percent_agreement", "fleiss_kappa", "gwet_ac1", "pabak", "mean_pairwise_cohen"):
        low, high = result["ci"][name]
        assert low <= high
    assert set(result["ci"]["krippendorff_alpha"]) == {"nominal", "ordinal", "interval", "ratio"}
    assert audit(table, level="ordinal", draws=300, seed=7)["ci"] == result["ci"]
    assert "ordinal alpha = 0.815" in result["reading"]


def test_value_rows_follow_the_key_grammar(tmp_path):
    import re

    from reagree.pipeline.tables import write_values, read_values

    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)
    result = audit(read_table(path, layout="wide"), draws=100)
    rows = value_rows(result, who="coders")
    write_values(rows, tmp_path / "values.tsv", rule="test")
    values = read_values(tmp_path / "values.tsv").set_index("key")
    assert all(re.match(r"^[a-z0-9_]+(\.[a-z0-9_+-]+)*$", key) for key in values.index)
    assert round(values.loc["alpha_nominal.coders", "value"], 3) == 0.743
    assert values.loc["alpha_nominal.coders", "scheme"] == "percentile; draws=100; seed=0; level=0.95"
    assert values.loc["kappa.a_b", "note"] == "9 units both labelled"


def test_out_writes_json_text_tables_and_figure(tmp_path, capsys):
    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)
    assert main(["audit", str(path), "--format", "wide", "--bootstrap", "100", "--out", str(tmp_path / "out")]) == 0
    out = tmp_path / "out"
    for name in ("audit.json", "audit.txt", "coefficients.png", "tables/coefficients.tsv", "tables/coefficients.md",
                 "tables/pairwise.tsv", "tables/per_category.tsv", "tables/ties.tsv", "tables/design.tsv"):
        assert (out / name).is_file(), name
    assert "sha256" in (out / "tables" / "coefficients.md").read_text()


def test_piped_output_has_no_progress_bar(tmp_path):
    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)
    done = subprocess.run([sys.executable, "-m", "reagree.cli", "audit", str(path), "--format", "wide",
                           "--bootstrap", "500"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "\r" not in done.stdout
    assert done.stdout.startswith("reagree audit: ")


# ----------------------------------------------------------------------------- a paper's released table

def test_jayanetti2026_release_audited_gives_the_replication_numbers(mirror, tmp_path, capsys):
    """The six human raters of Jayanetti et al. (2026), as released (majorityvote.tsv), with
    the released majority column: the replication write-up (seed 000) prints Fleiss 0.385,
    per-category kappas 0.454 / 0.257 / 0.484, 11 3-3 ties (7 negative-neutral, 4
    neutral-positive), the release breaking all 7 of the first toward negative and 3 of the
    4 others toward positive."""
    path = (mirror / "raw.githubusercontent.com/himarshaj/hard-to-reach-environments/"
            "e74bb77504f534fa11707103f6e5c098017064d2/sentiment_analysis_tools/"
            "sampled_tweets100_translated-majorityvote.tsv")
    raters = ",".join(f"sentiment_Rater{i}" for i in range(1, 7))
    code, result, _ = run_audit([str(path), "--format", "wide", "--unit", "tweetURL", "--raters", raters,
                                 "--majority", "majority_sentiment_human_raters", "--order",
                                 "negative,neutral,positive", "--bootstrap", "0"], tmp_path, capsys)
    assert code == 0
    assert round(result["coefficients"]["fleiss_kappa"], 3) == 0.385
    assert {c: round(v["fleiss_kappa"], 3) for c, v in result["per_category"].items()} == {
        "negative": 0.454, "neutral": 0.257, "positive": 0.484}
    ties = result["ties"]
    assert ties["count"] == 11 and ties["kinds"] == {"negative vs neutral": 7, "neutral vs positive": 4}
    assert ties["column_gave"] == {"negative": 7, "neutral": 1, "positive": 3}


# ----------------------------------------------------------------------------- Light's kappa

def test_mean_pairwise_cohen_worked_by_hand(tmp_path, monkeypatch):
    # Units (A, B, C): (x, x, x), (x, y, x), (y, y, x), (y, y, y).
    # A-B: p_o = 3/4, p_e = (2/4)(1/4) + (2/4)(3/4) = 1/2, kappa = 1/2.
    # A-C: p_o = 3/4, p_e = (2/4)(3/4) + (2/4)(1/4) = 1/2, kappa = 1/2.
    # B-C: p_o = 2/4, p_e = (1/4)(3/4) + (3/4)(1/4) = 3/8, kappa = (1/2 - 3/8) / (5/8) = 1/5.
    # Light's kappa = (1/2 + 1/2 + 1/5) / 3 = 0.4.
    path = write_wide(tmp_path / "light.csv", {"A": ["x", "x", "y", "y"], "B": ["x", "y", "y", "y"],
                                               "C": ["x", "x", "x", "y"]})
    table = read_table(path, layout="wide")
    result = audit(table, draws=50)
    assert result["coefficients"]["mean_pairwise_cohen"] == pytest.approx(0.4, abs=1e-12)
    assert [round(p["cohen_kappa"], 12) for p in result["pairwise"]] == [0.5, 0.5, 0.2]
    # most of 50 resamples of four units are defined, but more than 5% are not
    # (reagree.stats.bootstrap.MAX_UNDEFINED_SHARE): the interval is refused and the count kept
    assert result["ci"]["mean_pairwise_cohen"] == [None, None]
    assert result["ci"]["undefined_draws"]["mean_pairwise_cohen"] > 0.05 * 50
    # a table too wide for the joint statistic averages the pairs' own values: the same number
    import reagree.stats.meanpairwise as meanpairwise

    monkeypatch.setattr(meanpairwise, "MAX_CELLS", 0)
    wide = audit(table, draws=50)
    assert wide["coefficients"]["mean_pairwise_cohen"] == pytest.approx(0.4, abs=1e-12)
    assert "mean_pairwise_cohen" not in wide["ci"]
