"""Claims: printed precision, statuses, the summary."""
import numpy as np
import pandas as pd
import pytest

from reagree.claims import diff_claims, summarise
from reagree.paperspec import PrintedNumber, load_paper, load_yaml, printed_tolerance

from conftest import ROOT

SCHEMA = ROOT / "workflow" / "schemas" / "paper.schema.yaml"


@pytest.mark.parametrize("text, tolerance", [("0.40", 0.005), ("0.4", 0.05), ("44", 0.5), ("6.08e-04", 5e-07),
                                             ("+0.176", 0.0005), ("-0.0021", 5e-05), ("1.4e-05", 5e-07)])
def test_tolerance_is_half_the_last_printed_digit(text, tolerance):
    assert printed_tolerance(PrintedNumber(text)) == pytest.approx(tolerance)


def test_yaml_keeps_printed_precision(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 0.40\nb: 44\nc: +6.08e-04\n")
    loaded = load_yaml(path)
    assert loaded["a"].text == "0.40" and loaded["a"] == 0.4
    assert loaded["b"].text == "44" and printed_tolerance(loaded["b"]) == 0.5
    assert printed_tolerance(loaded["c"]) == pytest.approx(5e-7)


def claim(key, published, **extra):
    return {"key": key, "where": "T1", "source": "paper", "published": PrintedNumber(published), **extra}


def test_statuses():
    values = pd.DataFrame({"key": ["a", "b", "c", "d"], "value": [0.396, 0.41, 11.0, np.nan]})
    table = diff_claims([claim("a", "0.40"), claim("b", "0.40"), claim("c", "0"), claim("d", "1"),
                         claim("e", "0.5"), claim("f", "0.48", uncheckable="labels never released")], values)
    assert table["status"].tolist() == ["match", "mismatch", "mismatch", "missing", "missing", "uncheckable"]
    assert table.loc[5, "reason"] == "labels never released"
    assert table.loc[1, "difference"] == pytest.approx(0.01)


def test_boundary_of_rounding_matches_and_own_tolerance_wins():
    values = pd.DataFrame({"key": ["a", "b"], "value": [0.3955, 0.30]})
    table = diff_claims([claim("a", "0.40"), claim("b", "0.312", tolerance=0.02)], values)
    assert table["status"].tolist() == ["match", "match"]
    assert diff_claims([claim("b", "0.312")], values)["status"].tolist() == ["mismatch"]


def test_abs_comparison():
    values = pd.DataFrame({"key": ["s"], "value": [-1.371e-05]})
    assert diff_claims([claim("s", "1.4e-05", compare="abs")], values)["status"].tolist() == ["match"]
    assert diff_claims([claim("s", "1.4e-05")], values)["status"].tolist() == ["mismatch"]


def test_summary_counts_and_lists_findings():
    values = pd.DataFrame({"key": ["a", "b"], "value": [0.396, 3.0]})
    tables = {"p": diff_claims([claim("a", "0.40"), claim("b", "0", note="three ties"), claim("z", "1")], values)}
    summary, markdown = summarise(tables)
    assert summary.iloc[0][["match", "mismatch", "uncheckable", "missing", "total"]].tolist() == [1, 1, 0, 1, 3]
    assert "three ties" in markdown and "| z |" in markdown and "defects" in markdown


def test_every_shipped_paper_yaml_is_valid():
    for path in sorted((ROOT / "workflow" / "papers").glob("*/paper.yaml")):
        paper = load_paper(path, SCHEMA)
        assert paper["claims"], path


def test_bad_paper_yaml_names_the_field(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "paper.yaml").write_text(
        "id: demo\ntitle: t\ncite: c\nclaims:\n  - {key: a.b, where: T1, source: paper, published: 'high'}\n")
    with pytest.raises(ValueError, match=r"paper.yaml: field claims/0/published"):
        load_paper(folder / "paper.yaml", SCHEMA)
    (folder / "paper.yaml").write_text("id: other\ntitle: t\ncite: c\nclaims: []\n")
    with pytest.raises(ValueError, match="folder name"):
        load_paper(folder / "paper.yaml", SCHEMA)
