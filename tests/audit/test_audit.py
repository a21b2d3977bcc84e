"""`reagree audit` on published worked examples, entered as files in long and in wide form.

Every expected number is printed in the cited source or counted by hand in the test;
none is reagree's own output pasted back.
"""

from __future__ import annotations

import json
import subprocess
from itertools import combinations
import sys
from pathlib import Path

import pytest

from reagree.audit import audit, read_table, to_json, value_rows
from reagree.cli import main

from conftest import FLEISS_1971, ROOT

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

# Fleiss, J. L. (1971), Table 1 (FLEISS_1971, in conftest): the paper prints kappa = .430 and
# the category kappas .245, .245, .520, .471, .566.
FLEISS_1971_CATEGORY = {"1": 0.245, "2": 0.245, "3": 0.520, "4": 0.471, "5": 0.566}

# Wikipedia, "Krippendorff's alpha", and the krippendorff package's `alpha` docstring: 3
# coders x 15 units (units 2 and 14 rated by nobody); printed nominal 0.691358, interval
# 0.810845.
WIKIPEDIA = {
    "c1": [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
    "c2": [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
    "c3": [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
}

REQUIRED_KEYS = [
    "n_units",
    "n_raters",
    "n_ratings",
    "categories",
    "missing_share",
    "coefficients.percent_agreement",
    "coefficients.fleiss_kappa",
    "coefficients.fleiss_n_units",
    "coefficients.krippendorff_alpha.nominal",
    "coefficients.gwet_ac1",
    "coefficients.pabak",
    "coefficients.mean_pairwise_cohen",
    "pairwise",
    "ties.count",
    "ties.rule",
    "ci.method",
]


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
    # --full: the pairs and their ceiling are past the one-screen default
    code, result, printed = run_audit(
        [str(path), *layout, "--level", "interval", "--bootstrap", "200", "--full"], tmp_path, capsys
    )
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
    assert "a model that copies rater a scores the pair's agreement against rater b" in printed  # said once
    assert "Krippendorff's convention (a convention, not a test)" in printed


def test_ordered_words_need_the_order_and_then_give_the_published_ordinal_alpha(tmp_path, capsys):
    path = write_wide(tmp_path / "words.csv", KRIPPENDORFF_2011, relabel=WORDS.get)
    code, result, printed = run_audit(
        [
            str(path),
            "--format",
            "wide",
            "--level",
            "ordinal",
            "--order",
            "very low,low,mid,high,very high",
            "--bootstrap",
            "0",
        ],
        tmp_path,
        capsys,
    )
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
    columns = {f"psychiatrist{j + 1}": FLEISS_1971[:, j].tolist() for j in range(6)}
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


@pytest.mark.parametrize(
    "text, problem",
    [
        ("unit,rater,label\n1,a,x\n2,a,y\n3,a,x\n", "only one rater"),
        ("unit,rater,label\n1,a,x\n1,b,x\n2,a,x\n2,b,x\n", "only 1 category in use"),
        ("unit,rater,label\n1,a,x\n2,b,y\n3,c,x\n", "no unit has two or more ratings"),
    ],
)
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
    code, result, printed = run_audit(
        [
            str(path),
            "--format",
            "wide",
            "--majority",
            "gold",
            "--tie-rule",
            "prefer:neu",
            "--order",
            "neg,neu,pos",
            "--bootstrap",
            "0",
            "--full",
        ],
        tmp_path,
        capsys,
    )  # --full: the ties are past the one-screen default
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

    code, dropped, _ = run_audit(
        [str(path), "--format", "wide", "--majority", "gold", "--bootstrap", "0"], tmp_path, capsys
    )
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
    for name in ("percent_agreement", "fleiss_kappa_gwet", "gwet_ac1", "pabak", "mean_pairwise_cohen"):
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
    for name in (
        "audit.json",
        "audit.txt",
        "coefficients.png",
        "tables/coefficients.tsv",
        "tables/coefficients.md",
        "tables/pairwise.tsv",
        "tables/per_category.tsv",
        "tables/ties.tsv",
        "tables/design.tsv",
    ):
        assert (out / name).is_file(), name
    assert "sha256" in (out / "tables" / "coefficients.md").read_text()


def test_piped_output_has_no_progress_bar(tmp_path):
    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)
    done = subprocess.run(
        [sys.executable, "-m", "reagree.cli", "audit", str(path), "--format", "wide", "--bootstrap", "500"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "\r" not in done.stdout
    # the most important line first (alpha and the rater who lowers it most), then what was read
    assert done.stdout.startswith("nominal alpha 0.74") and done.stdout.splitlines()[1].startswith("reagree audit: ")


# ----------------------------------------------------------------------------- a paper's released table


def test_jayanetti2026_release_audited_gives_the_replication_numbers(mirror, tmp_path, capsys):
    """The six human raters of Jayanetti et al. (2026), as released (majorityvote.tsv), with
    the released majority column: the replication write-up (seed 000) prints Fleiss 0.385,
    per-category kappas 0.454 / 0.257 / 0.484, 11 3-3 ties (7 negative-neutral, 4
    neutral-positive), the release breaking all 7 of the first toward negative and 3 of the
    4 others toward positive."""
    path = (
        mirror / "raw.githubusercontent.com/himarshaj/hard-to-reach-environments/"
        "e74bb77504f534fa11707103f6e5c098017064d2/sentiment_analysis_tools/"
        "sampled_tweets100_translated-majorityvote.tsv"
    )
    raters = ",".join(f"sentiment_Rater{i}" for i in range(1, 7))
    code, result, _ = run_audit(
        [
            str(path),
            "--format",
            "wide",
            "--unit",
            "tweetURL",
            "--raters",
            raters,
            "--majority",
            "majority_sentiment_human_raters",
            "--order",
            "negative,neutral,positive",
            "--bootstrap",
            "0",
        ],
        tmp_path,
        capsys,
    )
    assert code == 0
    assert round(result["coefficients"]["fleiss_kappa"], 3) == 0.385
    assert {c: round(v["fleiss_kappa"], 3) for c, v in result["per_category"].items()} == {
        "negative": 0.454,
        "neutral": 0.257,
        "positive": 0.484,
    }
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
    path = write_wide(
        tmp_path / "light.csv", {"A": ["x", "x", "y", "y"], "B": ["x", "y", "y", "y"], "C": ["x", "x", "x", "y"]}
    )
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


# ----------------------------------------------------------------------------- wrong turns get one line


def one_line(said: str) -> str:
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1, said
    return lines[0]


@pytest.mark.parametrize(
    "option, expected",
    [
        (
            ["--bootstrap", "100001"],
            "reagree audit: --bootstrap 100001: give 0 (no intervals) to 100,000 resamples, the cap "
            "config.yaml's bootstrap.draws has too (time and memory grow with the draws)",
        ),
        (
            ["--bootstrap", "1000000000"],
            "reagree audit: --bootstrap 1000000000: give 0 (no intervals) to 100,000 "
            "resamples, the cap config.yaml's bootstrap.draws has too (time and memory grow "
            "with the draws)",
        ),
        (["--seed", "-1"], "reagree audit: --seed -1: a seed is a whole number 0 or more"),
        (
            ["--ci-level", "95"],
            "reagree audit: --ci-level 95: an interval level lies strictly between 0 and 1 (e.g. 0.95)",
        ),
    ],
)
def test_bootstrap_options_out_of_range_name_the_option_in_one_line(option, expected, tmp_path, capsys):
    path = write_long(tmp_path / "k.csv", KRIPPENDORFF_2011)
    code, result, said = run_audit([str(path), *option], tmp_path, capsys)
    assert code == 2 and result is None
    assert one_line(said) == expected
    # the same cap as config.yaml's bootstrap.draws (the schema the pipeline validates against)
    from reagree.pipeline.settings import load_schema, schema_path

    assert load_schema(schema_path("config"))["properties"]["bootstrap"]["properties"]["draws"]["maximum"] == 100_000
    with pytest.raises(ValueError, match="bootstrap draws must be 0 \\(none\\) to 100,000, got 100,001"):
        audit(read_table(path), draws=100_001)


def test_a_latin1_file_says_to_name_its_encoding_and_reads_with_it(tmp_path, capsys):
    path = tmp_path / "latin1.csv"
    path.write_bytes("unit,rater,label\n1,a,café\n1,b,thé\n2,a,café\n2,b,café\n".encode("latin-1"))
    code, result, said = run_audit([str(path), "--bootstrap", "0"], tmp_path, capsys)
    assert code == 2 and result is None
    assert one_line(said) == (
        f"reagree audit: {path}: line 2: not UTF-8 text (invalid continuation byte at byte 8 of "
        "the line); "
        "if the file is in another encoding, name it with --encoding (e.g. --encoding latin-1, "
        "or --encoding cp1252 for a file saved on Windows)"
    )
    code, result, _ = run_audit([str(path), "--bootstrap", "0", "--encoding", "latin-1"], tmp_path, capsys)
    assert code == 0
    assert result["label_distribution"] == {"café": 3, "thé": 1}  # counted by hand
    assert result["settings"]["encoding"] == "latin-1"
    code, _, said = run_audit([str(path), "--encoding", "klingon"], tmp_path, capsys)
    assert code == 2 and one_line(said) == (
        f"reagree audit: {path}: unknown encoding 'klingon' (e.g. utf-8, latin-1, cp1252, utf-16)"
    )


def test_a_wide_table_read_as_long_says_it_looks_wide_and_how_to_read_it(tmp_path, capsys):
    path = write_wide(tmp_path / "wide.csv", KRIPPENDORFF_2011, unit="item")
    code, result, said = run_audit([str(path), "--bootstrap", "0"], tmp_path, capsys)
    assert code == 2 and result is None
    assert one_line(said) == (
        f"reagree audit: {path}: missing column(s) ['unit', 'rater', 'label']; found ['item', "
        "'A', 'B', 'C', 'D']: this looks like a wide table (one row per unit, one column per "
        "rater); read it with --format wide --unit item"
    )
    code, result, _ = run_audit([str(path), "--bootstrap", "0", "--format", "wide", "--unit", "item"], tmp_path, capsys)
    assert code == 0 and round(result["coefficients"]["krippendorff_alpha"]["nominal"], 3) == 0.743
    # a long table with misnamed columns is not called wide
    long = tmp_path / "labels.csv"
    long.write_text("item,coder,code\n1,a,x\n1,b,x\n2,a,x\n2,b,y\n")
    code, _, said = run_audit([str(long)], tmp_path, capsys)
    assert code == 2 and "looks like a wide table" not in said


# Unit 1: rater a says x, then y; rater b says y. Units 2 (x, x) and 3 (y, y) agree.
REPEATED = "unit,rater,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n1,a,y\n3,a,y\n3,b,y\n"


@pytest.mark.parametrize(
    "rule, agreement, pairable, applied",
    [
        ("first", 2 / 3, 3, "each rater's first label on a unit (in file order) counts"),  # unit 1: x against y
        ("last", 1.0, 3, "each rater's last label on a unit (in file order) counts"),  # unit 1: y against y
        ("drop", 1.0, 2, "a rater's labels on a unit where they differ are all left out"),  # unit 1: b alone
    ],
)
def test_a_rater_labelling_a_unit_twice_differently_names_the_rule_and_the_others(
    rule, agreement, pairable, applied, tmp_path, capsys
):
    path = tmp_path / "repeated.csv"
    path.write_text(REPEATED)
    args = [str(path), "--bootstrap", "0"] + ([] if rule == "first" else ["--repeats", rule])
    code, result, printed = run_audit(args, tmp_path, capsys)
    assert code == 0
    others = " or ".join(f"--repeats {r}" for r in ("first", "last", "drop") if r != rule)
    left_out = 2 if rule == "drop" else 1
    note = (
        f"1 unit(s) labelled more than once by the same rater, 1 of them with different labels (e.g. unit '1', "
        f"rater 'a': x then y); rule applied: --repeats {rule}, {applied} ({left_out} label(s) left out); "
        f"{others} chooses another"
    )
    assert note in result["notes"] and f"  note: {note}" in printed
    assert result["coefficients"]["percent_agreement"] == pytest.approx(agreement, abs=1e-12)
    assert result["units_pairable"] == pairable and result["settings"]["repeats"] == rule


# ----------------------------------------------------------------------------- the field's libraries agree


def test_values_equal_krippendorff_statsmodels_and_sklearn(tmp_path):
    """Every coefficient those libraries compute, on Krippendorff's (2011) table: the same
    value to 1e-12 (alpha at four levels, Fleiss on the complete units, each pair's Cohen
    and their mean)."""
    import krippendorff
    import numpy as np
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    path = write_long(tmp_path / "k.csv", KRIPPENDORFF_2011)
    result = audit(read_table(path), level="interval", draws=0)
    data = np.array([[np.nan if v is None else v for v in KRIPPENDORFF_2011[r]] for r in "ABCD"], dtype=float)
    for level in ("nominal", "ordinal", "interval", "ratio"):
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        assert abs(result["coefficients"]["krippendorff_alpha"][level] - expected) <= 1e-12, level
    complete = data[:, ~np.isnan(data).any(axis=0)].T.astype(int)
    counts, _ = aggregate_raters(complete, n_cat=6)
    assert result["coefficients"]["fleiss_n_units"] == complete.shape[0]
    # fewer than ten complete units: no number from the complete-units form (statsmodels
    # would read it off those units), Gwet's form over every unit instead, equal to irrCAC
    assert complete.shape[0] < 10 and result["coefficients"]["fleiss_kappa"] is None
    assert "fewer than the minimum of 10" in result["undefined"]["coefficients.fleiss_kappa"]
    assert not np.isnan(fleiss_kappa(counts, method="fleiss"))
    assert result["references"]["fleiss_kappa_gwet"]["library"].startswith("irrCAC")
    assert (
        abs(result["coefficients"]["fleiss_kappa_gwet"] - result["references"]["fleiss_kappa_gwet"]["value"]) <= 1e-12
    )
    kappas = []
    for pair in result["pairwise"]:
        a, b = data["ABCD".index(pair["a"])], data["ABCD".index(pair["b"])]
        both = ~np.isnan(a) & ~np.isnan(b)
        kappas.append(cohen_kappa_score(a[both], b[both]))
        assert pair["n"] == both.sum() and abs(pair["cohen_kappa"] - kappas[-1]) <= 1e-12
    assert len(kappas) == 6
    assert abs(result["coefficients"]["mean_pairwise_cohen"] - np.mean(kappas)) <= 1e-12


# ----------------------------------------------------------------------------- many raters


def many_raters_file(tmp_path: Path, n_raters: int = 25, n_units: int = 400) -> tuple[Path, dict]:
    """Each unit labelled by 3 of ``n_raters`` raters (seeded); the labels per rater."""
    import numpy as np

    rng = np.random.default_rng(5)
    labels: dict = {f"r{i:02d}": [None] * n_units for i in range(n_raters)}
    truth = rng.integers(0, 3, n_units)
    for unit in range(n_units):
        for rater in rng.choice(n_raters, size=3, replace=False):
            label = truth[unit] if rng.random() < 0.7 else rng.integers(0, 3)
            labels[f"r{rater:02d}"][unit] = "abc"[label]
    return write_long(tmp_path / "many.csv", labels), labels


def test_beyond_twenty_raters_the_pairs_are_summarised_not_each_bootstrapped(tmp_path, capsys):
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    path, labels = many_raters_file(tmp_path)
    # named crowd raters: each labelled few units (the design infers interchangeable), so
    # the pairs by name are asked for with --design fixed
    code, result, printed = run_audit(
        [str(path), "--bootstrap", "200", "--design", "fixed", "--full"], tmp_path, capsys
    )  # --full: the pairs are past the one-screen default
    assert code == 0
    plan = result["pairwise_plan"]
    assert plan["mode"] == "summarised" and plan["rater_pairs"] == 25 * 24 // 2 and plan["intervals"] is False
    sharing = {
        (a, b)
        for a, b in combinations(sorted(labels), 2)
        if any(x is not None and y is not None for x, y in zip(labels[a], labels[b]))
    }
    assert {(p["a"], p["b"]) for p in result["pairwise"]} == sharing  # values for those, no interval for any
    assert not any("cohen_kappa_ci" in p for p in result["pairwise"])
    assert not any(key.startswith("pairwise.") for key in result["ci"]["undefined_draws"])
    assert "mean_pairwise_cohen" not in result["ci"] and result["ci"]["krippendorff_alpha"]["nominal"]
    for pair in result["pairwise"][:20]:
        both = [(x, y) for x, y in zip(labels[pair["a"]], labels[pair["b"]]) if x is not None and y is not None]
        if len({v for xy in both for v in xy}) > 1:
            assert abs(pair["cohen_kappa"] - cohen_kappa_score(*zip(*both))) <= 1e-12
    # the terminal summarises: one line of counts and at most ten pairs, not 300
    assert f"Pairs (units both labelled): 25 raters make 300 pairs; {len(sharing)} share a unit" in printed
    assert "  summarised: more than 20 raters: the pairs that share a unit get values without intervals" in printed
    pair_lines = [line for line in printed.splitlines() if line.startswith("  r") and "-r" in line.split()[0]]
    assert len(pair_lines) == 10
    kappas = [p["cohen_kappa"] for p in result["pairwise"] if p["cohen_kappa"] is not None]
    assert result["pairwise_plan"]["summary"]["cohen_kappa"]["median"] == pytest.approx(np.median(kappas), abs=1e-12)


def test_beyond_the_pair_limit_no_pairs_are_tabulated_and_the_audit_says_why(tmp_path, capsys, monkeypatch):
    import reagree.audit.compute as compute

    monkeypatch.setattr(compute, "MAX_RATER_PAIRS", 100)
    path, _ = many_raters_file(tmp_path)
    code, result, printed = run_audit(
        [str(path), "--bootstrap", "50", "--design", "fixed", "--full"], tmp_path, capsys
    )  # --full: the pairs are past the one-screen default
    assert code == 0
    why = "25 raters make 300 pairs, more than the 100 the audit tabulates; audit a table filtered to fewer raters"
    assert result["pairwise"] == [] and result["pairwise_plan"]["mode"] == "none"
    assert result["undefined"]["coefficients.mean_pairwise_cohen"] == f"not computed: {why}"
    assert f"  not computed: {why}" in printed
    assert result["coefficients"]["krippendorff_alpha"]["nominal"] is not None


# ----------------------------------------------------------------------------- the figure


def test_figure_shades_alpha_bands_behind_alpha_only_and_names_its_source(tmp_path, monkeypatch):
    from matplotlib.patches import Rectangle

    import reagree.audit.figure as figure_module

    drawn = {}
    monkeypatch.setattr(figure_module, "save_figure", lambda figure, path: drawn.update(figure=figure))
    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)
    result = audit(read_table(path, layout="wide"), level="ordinal", draws=100)
    result["sha256"] = "ab" * 32
    figure_module.coefficient_figure(result, tmp_path / "coefficients.png", title="k.csv")
    figure = drawn["figure"]
    coefficients = figure.axes[0]
    ticks = {label.get_text(): y for label, y in zip(coefficients.get_yticklabels(), coefficients.get_yticks())}
    alpha_rows = [y for text, y in ticks.items() if text.startswith("alpha, ")]
    other_rows = [y for text, y in ticks.items() if not text.startswith("alpha, ")]
    assert len(alpha_rows) == 4 and {"percent agreement", "Gwet's AC1"} <= set(ticks)
    bands = [p for p in coefficients.patches if isinstance(p, Rectangle) and p.get_zorder() == 0]
    assert sorted(round(b.get_x(), 3) for b in bands) == [0.667, 0.8]
    for band in bands:
        low, high = band.get_y(), band.get_y() + band.get_height()
        assert all(low < y < high for y in alpha_rows)
        assert not any(low < y < high for y in other_rows)
    for axis in figure.axes[1:]:  # per category, pairs: no bands
        assert not [p for p in axis.patches if isinstance(p, Rectangle) and p.get_zorder() == 0]
    caption = " ".join(figure._suptitle.get_text().split())
    assert "from k.csv (sha256 abababababab...): 12 units, 4 raters, 41 ratings." in caption
    assert "95% bootstrap intervals (100 resamples of the units, percentile scheme, seed 0)" in caption
    assert "Shaded behind Krippendorff's alpha only" in caption


def test_figure_gives_each_category_one_line_with_its_two_measures_and_each_pair_one_cell(tmp_path, monkeypatch):
    import reagree.audit.figure as figure_module

    drawn = []
    monkeypatch.setattr(figure_module, "save_figure", lambda figure, path: drawn.append(figure))
    # the example of config.yaml: 4 raters, 80 tickets, 50 complete, so both measures are defined
    table = read_table(
        ROOT / "examples" / "triage_wide.csv",
        layout="wide",
        unit="ticket",
        majority="lead",
        order="low,medium,high,urgent",
    )
    result = audit(table, level="ordinal", draws=50)
    figure_module.coefficient_figure(result, tmp_path / "coefficients.png", title="triage")
    (panel,) = [axis for axis in drawn[0].axes if axis.get_title(loc="left") == "Per category"]
    # one line per category (four), not eight rows interleaving two measures
    assert [t.get_text() for t in panel.get_yticklabels()] == ["low", "medium", "high", "urgent"]
    assert [t.get_text() for t in panel.get_legend().get_texts()] == [
        "Fleiss' kappa_j (complete units)",
        "specific agreement (pairable units)",
    ]
    points = [line for line in panel.get_lines() if line.get_marker() == "o"]
    ticks = panel.get_yticks()
    for tick in ticks:  # each category's two points sit just above and below its line
        near = sorted(y for line in points for y in line.get_ydata() if abs(y - tick) < 0.5)
        assert len(near) <= 2 and all(abs(y - tick) == pytest.approx(0.2) for y in near)
    # the pairs heatmap: each pair of the four raters once, below a blank diagonal
    figure_module.pairs_figure(result, tmp_path / "pairs.png")
    texts = [t.get_text() for t in drawn[-1].axes[0].texts]
    assert len(texts) == len(result["pairwise"]) == 6


def test_the_report_lists_at_most_45_pairs_and_says_where_the_rest_are(tmp_path):
    from reagree.report import AuditResults, audit_section

    path, _ = many_raters_file(tmp_path)
    result = audit(read_table(path), draws=0, design="fixed")
    html = audit_section(AuditResults("many", result, None, tmp_path), tmp_path)
    pairs = html[html.index("<h3>Pairs</h3>") : html.index("<h3>Majority vote")]
    listed = pairs.count("a model that copies")
    assert listed == 45 and len(result["pairwise"]) > 45
    assert f"... and {len(result['pairwise']) - 45:,} more pairs: every pair is in pairwise.tsv and audit.json" in pairs
    assert "more than 20 raters: the pairs that share a unit get values without intervals" in pairs
    assert "r00, r01, r02, r03, r04, ...)" in html  # 25 raters are not all named in the design line


def test_numpy_scheme_intervals_are_a_plain_numpy_loop_over_krippendorff(tmp_path):
    """--ci-scheme numpy: one rng.integers(0, n, n) per draw and numpy.percentile's ends,
    as a write-up that bootstrapped with numpy did; the audit's interval is that loop's."""
    import krippendorff
    import numpy as np

    path = write_wide(tmp_path / "k.csv", KRIPPENDORFF_2011)  # units in file order, as the loop's columns
    result = audit(read_table(path, layout="wide"), draws=300, seed=11, ci_scheme="numpy")
    data = np.array([[np.nan if v is None else v for v in KRIPPENDORFF_2011[r]] for r in "ABCD"], dtype=float)
    rng = np.random.default_rng(11)
    values = [
        krippendorff.alpha(
            reliability_data=data[:, rng.integers(0, 12, size=12)],
            level_of_measurement="nominal",
            value_domain=[1.0, 2.0, 3.0, 4.0, 5.0],
        )
        for _ in range(300)
    ]
    expected = np.percentile(np.array(values)[np.isfinite(values)], [2.5, 97.5])
    np.testing.assert_allclose(result["ci"]["krippendorff_alpha"]["nominal"], expected, rtol=0, atol=1e-12)
    assert result["settings"]["bootstrap"]["scheme"] == "numpy"
