"""Config files and claims that could fool or exhaust a run: YAML alias bombs, repeated
keys, text that is not UTF-8, non-finite numbers, a tolerance that is not a number >= 0.

Config files pass reagree's strict YAML reader before Snakemake merges them (the
Snakefile's first include), so plain `snakemake --configfile X` is protected against
bombs, repeated keys and non-finite numbers. A file that is not UTF-8 fails inside
Snakemake's own command-line parser before the Snakefile is read; `make all` and the
`reagree` command check it first and say so in one line.
"""

from __future__ import annotations


import pytest

from reagree.cli import main as reagree
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.settings import check_config_files, resolve_config

from conftest import ROOT, project_copy, run_snakemake


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """The project with the paper that needs no data; nothing is built, only planned."""
    return project_copy(tmp_path_factory, "config-safety")


BASE = "papers: [agreement_before_accuracy]\nmirror: null\n"


def bomb(levels: int) -> str:
    """A list that doubles at every level: 2 * (levels - 1) aliases stand for about 2**levels values."""
    chain = ", ".join(["&l0 [x, x]"] + [f"&l{i} [*l{i - 1}, *l{i - 1}]" for i in range(1, levels)])
    return BASE + f"datasets:\n  bomb:\n    path: examples/triage_wide.csv\n    order: [{chain}]\n"


def plan(work, name: str, text: str | bytes, *args):
    path = work / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = run_snakemake(work, "-n", *args, check=False, configfile=name)
    return result.returncode, result.stdout + result.stderr


def test_an_alias_bomb_through_snakemake_configfile_is_refused_before_it_expands(work):
    code, said = plan(work, "bomb.yaml", bomb(17))  # 2**17 values from 34 aliases
    assert code != 0
    assert (
        "bomb.yaml: its YAML aliases expand to more than 100,000 values; reagree refuses files that expand "
        "aliases this much"
    ) in said
    assert len(said) < 5000  # one line, not the expanded document


def test_a_repeated_key_in_a_config_file_names_both_lines(work):
    code, said = plan(work, "dup.yaml", BASE + "mirror: /somewhere/else\n")
    assert code != 0
    assert (
        "dup.yaml, line 3: key 'mirror' appears twice in one mapping (first on line 2); YAML would silently "
        "keep only the last one"
    ) in said


@pytest.mark.parametrize(
    "setting, key",
    [
        ("fetch: {timeout: .nan}", "fetch.timeout"),
        ("bootstrap: {draws: 100, seed: 0, level: .nan}", "bootstrap.level"),
        ("fetch: {timeout: .inf}", "fetch.timeout"),
    ],
)
def test_a_number_that_is_not_finite_is_refused_naming_the_key(work, setting, key):
    code, said = plan(work, "nan.yaml", BASE + setting + "\n")
    assert code != 0
    value = "inf" if ".inf" in setting else "nan"
    assert f"nan.yaml: key {key}: {value} is not a finite number" in said


def test_a_non_finite_number_on_the_command_line_is_refused_naming_the_key(work):
    code, said = plan(work, "ok.yaml", BASE, "--config", "bootstrap={draws: 100, seed: 0, level: .nan}")
    assert code != 0
    assert "config: key bootstrap.level: nan is not a finite number" in said


def test_a_config_file_that_is_not_utf8_is_one_line_for_reagree(tmp_path, capsys):
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes("papers: [jayanetti2026]\n# \xe9\n".encode("latin-1"))
    assert reagree(["mirror", str(tmp_path / "m"), "--configfile", str(latin1), "--root", str(ROOT)]) == 2
    assert (
        capsys.readouterr().err == f"reagree mirror: {latin1}: not UTF-8 text (invalid continuation byte at byte 26)\n"
    )


def test_what_plain_snakemake_does_with_a_config_file_that_is_not_utf8(work):
    """Snakemake reads --configfile in its own command-line parser, before any of reagree
    runs: the run stops, with Snakemake's traceback (make all and reagree say it in one
    line, see tests/guarantees/test_pinned_inputs.py and above). Nothing is planned or built."""
    code, said = plan(work, "latin1.yaml", "papers: [agreement_before_accuracy]\n# \xe9\n".encode("latin-1"))
    assert code != 0 and "UnicodeDecodeError" in said
    assert not (work / "results").exists()


def test_check_config_files_refuses_a_merged_configuration_that_expands_too_far():
    shared = ["x"] * 1000
    merged = {"papers": [], "anchors": [shared] * 200}  # 200,000 values, shared as an alias would be
    with pytest.raises(ValueError, match="expands to more than 100,000 values"):
        check_config_files([], merged)
    with pytest.raises(ValueError, match="expands to more than 100,000 values"):
        resolve_config(merged, ROOT / "workflow")


# ----------------------------------------------------------------- a claim's tolerance

HEADER = (
    "key\tend\twhere\tsource\tpublished\ttolerance\tcompare\tneeds\tunder\tuncheckable\tnot_recomputed\tnote\t"
    "tolerance_reason\tcause\tapproximate\tfigure\n"
)


def claim_line(key: str, published: str, tolerance: str) -> str:
    return f"{key}\t\tTable 1\tpaper\t{published}\t{tolerance}\t\t\t\t\t\n"


def paper_folder(tmp_path, table: str = "") -> tuple:
    folder = tmp_path / "papers" / "p"
    folder.mkdir(parents=True)
    text = "id: p\ntitle: t\ncite: c\nsources: []\n" + ("claim_tables: [claims/t.tsv]\n" if table else "")
    (folder / "paper.yaml").write_text(text)
    if table:
        (folder / "claims").mkdir()
        (folder / "claims" / "t.tsv").write_text(table)
    return folder / "paper.yaml", folder / "claims" / "t.tsv"


@pytest.mark.parametrize("tolerance", ["nan", "inf", "-0.5"])
def test_a_tolerance_in_a_claims_table_must_be_a_finite_number_at_least_zero(tmp_path, tolerance):
    path, table = paper_folder(tmp_path, table=HEADER + claim_line("kappa.a_b", "6.5", tolerance))
    with pytest.raises(ValueError) as info:
        load_paper(path)
    assert str(info.value) == f"{table}, line 2: claim kappa.a_b: tolerance {tolerance} must be a finite number >= 0"


def test_a_tolerance_of_zero_asks_for_the_exact_number(tmp_path):
    path, _ = paper_folder(tmp_path, table=HEADER + claim_line("count.a", "12", "0"))
    assert float(load_paper(path)["claims"][0]["tolerance"]) == 0.0
