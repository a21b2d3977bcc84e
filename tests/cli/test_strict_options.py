"""Options and files reagree refuses in one line instead of a traceback or a silent
misreading (issue 22, items 9, 10 and 17): YAML nested too deep, the YAML merge key,
`--encoding` naming a codec that is not a text encoding, `--repeats` with a wide table,
and a claims.tsv that is not UTF-8 in `reagree explain`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reagree.cli import main
from reagree.pipeline.explain import explain
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.runs import main as runs_main
from reagree.pipeline.settings import check_config_files
from reagree.pipeline.yamlio import MAX_DEPTH, YamlError, load_yaml

from conftest import ROOT


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text[-2000:]
    return lines[0]


# ------------------------------------------------------------------ item 9: nesting depth


def deep(levels: int) -> str:
    return "papers: " + "[" * levels + "]" * levels + "\n"


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 50_000])
def test_yaml_nested_deeper_than_the_bound_is_one_line_naming_file_and_line(tmp_path, levels):
    path = tmp_path / "deep.yaml"
    path.write_text("mirror: null\n" + deep(levels))
    with pytest.raises(YamlError) as info:
        load_yaml(path)
    assert str(info.value) == (
        f"{path}, line 2: YAML nested more than {MAX_DEPTH} levels deep; reagree refuses files nested this deep"
    )


def test_nesting_up_to_the_bound_is_read(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("papers: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n")
    value = load_yaml(path)["papers"]
    depth = 1
    while value:
        value, depth = value[0], depth + 1
    assert depth == MAX_DEPTH - 1


def test_a_deep_config_file_in_make_all_and_a_deep_paper_yaml_are_one_line(tmp_path, capsys):
    """make all's first step (python -m reagree.pipeline.runs CONFIG) and the paper reader."""
    config = tmp_path / "mirror.yaml"
    config.write_text(deep(50_000))
    assert runs_main([str(config)]) == 2
    assert one_line(capsys.readouterr().err).startswith(f"reagree: {config}, line 1: YAML nested more than")
    with pytest.raises(ValueError, match="YAML nested more than"):
        check_config_files([config])
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "paper.yaml").write_text("id: p\ntitle: t\ncite: c\nsources: " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(ValueError) as info:
        load_paper(folder / "paper.yaml")
    assert one_line(str(info.value)).startswith(f"{folder / 'paper.yaml'}, line 4: YAML nested more than")


# ------------------------------------------------------------------ item 17: the merge key


def test_the_yaml_merge_key_is_supported_and_an_own_key_wins(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text(
        "base: &base {format: wide, unit: ticket}\n"
        "datasets:\n  a:\n    <<: *base\n    path: a.csv\n  b:\n    <<: *base\n    unit: id\n"
    )
    data = load_yaml(path)
    assert data["datasets"]["a"] == {"format": "wide", "unit": "ticket", "path": "a.csv"}
    assert data["datasets"]["b"] == {"format": "wide", "unit": "id"}  # the mapping's own key overrides the merged one


def test_a_key_repeated_beside_a_merge_key_is_still_refused(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("base: &base {unit: ticket}\nd:\n  <<: *base\n  path: a.csv\n  path: b.csv\n")
    with pytest.raises(YamlError, match=r"line 5: key 'path' appears twice in one mapping \(first on line 4\)"):
        load_yaml(path)


# ------------------------------------------------------------------ item 10: text encodings only


def write_table(path: Path) -> Path:
    path.write_text("unit,rater,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("codec", ["rot13", "base64", "hex", "zlib", "bz2", "uu", "quopri"])
def test_an_encoding_that_is_not_a_text_encoding_is_refused_in_one_line(codec, tmp_path, capsys):
    path = write_table(tmp_path / "t.csv")
    assert main(["audit", str(path), "--bootstrap", "0", "--encoding", codec]) == 2
    assert one_line(capsys.readouterr().err) == (
        f"reagree audit: --encoding {codec}: not a text encoding (it turns bytes into bytes); name the file's text "
        "encoding (e.g. utf-8, latin-1, cp1252, utf-16)"
    )


def test_a_text_encoding_still_reads(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_bytes("unit,rater,label\n1,a,é\n1,b,é\n2,a,x\n2,b,é\n".encode("cp1252"))
    assert (
        main(["audit", str(path), "--bootstrap", "0", "--encoding", "cp1252", "--json", str(tmp_path / "a.json")]) == 0
    )
    assert json.loads((tmp_path / "a.json").read_text())["label_distribution"] == {"é": 3, "x": 1}


# ------------------------------------------------------------------ item 17: --repeats with a wide table


def test_repeats_with_a_wide_table_is_refused_not_ignored(tmp_path, capsys):
    path = tmp_path / "w.csv"
    path.write_text("item,a,b\n1,x,y\n2,x,x\n")
    for rule in ("first", "last", "drop"):
        assert main(["audit", str(path), "--format", "wide", "--unit", "item", "--repeats", rule]) == 2
        assert one_line(capsys.readouterr().err) == (
            f"reagree audit: --repeats {rule} applies to the long format (a rater's several labels on one unit); "
            "a wide table has one cell per rater and unit, so there is nothing to choose: leave --repeats out"
        )
    assert main(["audit", str(path), "--format", "wide", "--unit", "item", "--bootstrap", "0"]) == 0


def test_repeats_in_a_wide_dataset_of_the_config_is_refused_too(tmp_path):
    from reagree.audit import read_table

    path = tmp_path / "w.csv"
    path.write_text("item,a,b\n1,x,y\n2,x,x\n")
    with pytest.raises(ValueError, match="repeats first applies to the long format"):
        read_table(path, layout="wide", unit="item", repeats="first")
    assert read_table(path, layout="wide", unit="item").n_units == 2


# ------------------------------------------------------------------ item 17: explain on a claims.tsv that is not UTF-8


def test_explain_names_a_claims_file_that_is_not_utf8(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "claims.tsv").write_bytes(
        "key\tpublished\tcomputed\tstatus\nkappa.caf\xe9\t0.5\t0.5\tmatch\n".encode("latin-1")
    )
    with pytest.raises(ValueError) as info:
        explain("kappa.x", tmp_path, "p")
    assert one_line(str(info.value)) == (
        f"{folder / 'claims.tsv'}, line 2: not UTF-8 text (invalid continuation "
        "byte at byte 10 of the line); it is written by reagree: rebuild it "
        "(make all)"
    )


def test_the_readme_lists_what_these_refusals_say():
    readme = (ROOT / "README.md").read_text()
    for phrase in ("nested more than", "merge key", "not a text encoding", "--repeats"):
        assert phrase in readme, phrase
