"""End to end: the Snakemake workflow, run in a copy of the project.

The build of every paper reads the released data from the offline mirror and is skipped
(saying how to enable it) where none is found; CI always has one. The synthetic paper,
the config checks and the lint need no data and always run.
"""
import hashlib
import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from reagree.claims import read_claims

from conftest import ROOT

pytestmark = pytest.mark.e2e
PROJECT = ["Snakefile", "config.yaml", "workflow", "scripts", "envs", "src"]


def snakemake(work, *args, check=True, configfile="offline.yaml"):
    result = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", configfile, *args],
                            cwd=work, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def project_copy(tmp_path_factory, name):
    work = tmp_path_factory.mktemp(name)
    for entry in PROJECT:
        source = ROOT / entry
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, work / entry)
    return work


@pytest.fixture(scope="module")
def synthetic_only(tmp_path_factory):
    """A build of the paper that needs no download: agreement_before_accuracy."""
    work = project_copy(tmp_path_factory, "synthetic")
    (work / "synthetic.yaml").write_text("papers: [agreement_before_accuracy]\n")
    snakemake(work, configfile="synthetic.yaml")
    return work


@pytest.fixture(scope="module")
def work(tmp_path_factory, mirror):
    work = project_copy(tmp_path_factory, "reagree")
    offline = yaml.safe_load((mirror.parent / "offline.yaml").read_text()) if (mirror.parent / "offline.yaml").exists() else {}
    offline["mirror"] = str(mirror)
    (work / "offline.yaml").write_text(yaml.safe_dump(offline))
    snakemake(work)
    return work


def claims(work, paper):
    return read_claims(work / "results" / paper / "claims.tsv")


def test_jayanetti_every_checkable_claim_matches_but_no_ties(work):
    table = claims(work, "jayanetti2026")
    assert (table["status"] != "missing").all()
    mismatches = table[table["status"] == "mismatch"]
    assert mismatches[["key", "source", "published"]].values.tolist() == [["ties.three_class", "paper", "0"]]
    assert float(mismatches["computed"].iloc[0]) == 11
    uncheckable = table[table["status"] == "uncheckable"]
    assert len(uncheckable) == 12 and (uncheckable["reason"] != "").all()
    assert uncheckable["key"].str.contains("qwen|llama|llm|rerun").all()
    released = table.set_index(["key", "source"])
    assert float(released.loc[("fleiss.humans.three_class", "replication"), "computed"]) == pytest.approx(0.385, abs=5e-4)
    assert float(released.loc[("kappa.roberta.vs_majority.pos_vs_rest", "paper"), "computed"]) == pytest.approx(0.61, abs=5e-3)


def test_agreement_before_accuracy_every_printed_figure_matches(work):
    table = claims(work, "agreement_before_accuracy")
    assert len(table) >= 130
    assert table["status"].eq("match").all(), table[table["status"] != "match"].to_string()


def test_summary_says_it_in_plain_words(work):
    summary = pd.read_csv(work / "results" / "summary.tsv", sep="\t").set_index("paper")
    assert summary["missing"].sum() == 0
    assert summary.loc["jayanetti2026", "mismatch"] == 1
    markdown = (work / "results" / "summary.md").read_text()
    assert "No claim is missing" in markdown
    assert "ties.three_class" in markdown and "3-3" in markdown


def test_tables_and_figures_exist_with_provenance(work):
    results = work / "results"
    for path in ["jayanetti2026/figures/pairwise_kappa.png", "agreement_before_accuracy/figures/prevalence_sweep.png",
                 "agreement_before_accuracy/figures/interval_width.png"]:
        assert (results / path).stat().st_size > 10_000, path
    pairs = pd.read_csv(results / "jayanetti2026/tables/pairwise_kappa.tsv", sep="\t")
    assert len(pairs) == 3 * 36
    assert "e74bb77" in (results / "jayanetti2026/tables/pairwise_kappa.md").read_text()


def test_second_run_does_nothing(work):
    assert "Nothing to be done" in snakemake(work, "-n").stdout


def test_deleting_one_input_refetches_only_that_file(work):
    (work / "data" / "jayanetti2026" / "LICENSE").unlink()
    plan = snakemake(work, "-n").stdout
    assert plan.count("rule fetch_source:") == 1 and "data/jayanetti2026/LICENSE" in plan
    snakemake(work)
    assert (work / "data" / "jayanetti2026" / "LICENSE").exists()
    assert "Nothing to be done" in snakemake(work, "-n").stdout


def test_same_config_same_bytes(work):
    outputs = ["results/jayanetti2026/values.tsv", "results/jayanetti2026/figures/pairwise_kappa.png",
               "results/agreement_before_accuracy/values.tsv"]
    before = {p: hashlib.sha256((work / p).read_bytes()).hexdigest() for p in outputs}
    snakemake(work, "--forceall")
    after = {p: hashlib.sha256((work / p).read_bytes()).hexdigest() for p in outputs}
    assert before == after


def test_synthetic_paper_builds_without_any_data(synthetic_only):
    table = claims(synthetic_only, "agreement_before_accuracy")
    assert len(table) >= 130 and table["status"].eq("match").all()
    assert not (synthetic_only / "data").exists()
    assert "No claim is missing" in (synthetic_only / "results" / "summary.md").read_text()
    assert "Nothing to be done" in snakemake(synthetic_only, "-n", configfile="synthetic.yaml").stdout


def test_unknown_paper_stops_the_run_naming_the_key(synthetic_only):
    result = snakemake(synthetic_only, "-n", "--config", "papers=[jayanetti2026,nosuchpaper]", check=False,
                       configfile="synthetic.yaml")
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "config key 'papers'" in said and "nosuchpaper" in said


def test_wrong_type_stops_the_run_naming_the_key(synthetic_only):
    result = snakemake(synthetic_only, "-n", "--config", "bootstrap={'draws': 'many', 'seed': 0}", check=False,
                       configfile="synthetic.yaml")
    assert result.returncode != 0
    assert "draws" in result.stdout + result.stderr


def test_lint_is_clean(synthetic_only):
    result = subprocess.run([sys.executable, "-m", "snakemake", "--lint"], cwd=synthetic_only,
                            capture_output=True, text=True)
    assert result.returncode == 0
    assert "good condition" in result.stdout + result.stderr
