"""`reagree new-paper`: the scaffold registers nothing, and once filled with a tiny
dataset and two claims the workflow builds it into one match and one mismatch.

The tiny dataset is four units labelled by two raters, worked out by hand below; it is
served from a mirror folder made in the test, pinned by its sha256, as a real source is.
"""

from __future__ import annotations

import hashlib

import pytest
import yaml

from reagree.pipeline.claims import read_claims
from reagree.cli import main
from reagree.pipeline.paperspec import load_paper

from conftest import project_copy, run_snakemake

pytestmark = pytest.mark.e2e

# Units: (x, x), (x, y), (y, y), (y, y). Agreement 3/4 = 0.75. Cohen's kappa: rater r1
# says x twice and y twice, r2 says x once and y three times, so p_e = (2/4)(1/4) + (2/4)(3/4)
# = 0.5 and kappa = (0.75 - 0.5) / (1 - 0.5) = 0.5. The "paper" printed 0.75 (a match) and
# 0.60 (a mismatch).
TINY = "unit\tr1\tr2\nu1\tx\tx\nu2\tx\ty\nu3\ty\ty\nu4\ty\ty\n"
URL = "https://example.org/tiny/v1/labels.tsv"


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    work = project_copy(tmp_path_factory, "scaffold")
    assert main(["new-paper", "tiny", "--root", str(work), "--title", "A tiny paper"]) == 0
    return work


def test_the_scaffold_writes_three_files_that_say_what_to_fill_in(scaffolded):
    folder = scaffolded / "workflow" / "papers" / "tiny"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "paper.yaml", "rules.smk", "scripts/compute_values.py"]
    paper = load_paper(folder / "paper.yaml")  # valid against the paper schema as written
    assert paper["id"] == "tiny" and paper["sources"] == [] and paper["title"] == "A tiny paper"
    for name in ("paper.yaml", "rules.smk", "scripts/compute_values.py"):
        assert "TODO" in (folder / name).read_text() or name == "paper.yaml"
    assert "sha256" in (folder / "paper.yaml").read_text() and "uncheckable" in (folder / "paper.yaml").read_text()


def test_the_scaffold_registers_nothing(scaffolded):
    (scaffolded / "only_synthetic.yaml").write_text("papers: [agreement_before_accuracy]\ndatasets: {}\n")
    plan = run_snakemake(scaffolded, "-n", configfile="only_synthetic.yaml")
    assert "tiny" not in plan.stdout + plan.stderr
    assert "papers:" in (scaffolded / "config.yaml").read_text() and "tiny" not in (scaffolded / "config.yaml").read_text()


def test_an_existing_folder_or_a_bad_id_is_refused(scaffolded, capsys):
    assert main(["new-paper", "tiny", "--root", str(scaffolded)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["new-paper", "Tiny-Paper", "--root", str(scaffolded)]) == 2
    assert "lowercase" in capsys.readouterr().err


def test_filled_in_it_builds_one_match_and_one_mismatch(scaffolded):
    mirror = scaffolded / "tiny_mirror"
    (mirror / "example.org" / "tiny" / "v1").mkdir(parents=True)
    (mirror / "example.org" / "tiny" / "v1" / "labels.tsv").write_text(TINY)
    paper_yaml = scaffolded / "workflow" / "papers" / "tiny" / "paper.yaml"
    paper = yaml.safe_load(paper_yaml.read_text())
    paper["sources"] = [{"name": "labels.tsv", "url": URL, "sha256": hashlib.sha256(TINY.encode()).hexdigest(),
                         "licence": "CC0"}]
    paper["claims"] = [
        {"key": "agreement.raters", "where": "Table 1", "source": "paper", "published": 0.75},
        {"key": "kappa.r1_r2", "where": "Table 1", "source": "paper", "published": 0.60,
         "note": "by hand the four units give 0.5"},
    ]
    paper_yaml.write_text(yaml.safe_dump(paper, sort_keys=False))
    (scaffolded / "tiny.yaml").write_text(yaml.safe_dump({"papers": ["tiny"], "mirror": str(mirror),
                                                          "datasets": {}, "bootstrap": {"draws": 200}}))
    run_snakemake(scaffolded, configfile="tiny.yaml")
    claims = read_claims(scaffolded / "results" / "tiny" / "claims.tsv").set_index("key")
    assert claims.loc["agreement.raters", "status"] == "match"
    assert claims.loc["agreement.raters", "computed"] == pytest.approx(0.75, abs=1e-12)
    assert claims.loc["kappa.r1_r2", "status"] == "mismatch"
    assert claims.loc["kappa.r1_r2", "computed"] == pytest.approx(0.5, abs=1e-12)
    assert claims.loc["kappa.r1_r2", "rule"] == "compute_tiny_values"
    assert (scaffolded / "results" / "report.html").is_file()
    lint = run_snakemake(scaffolded, "--lint", configfile="tiny.yaml", check=False)
    assert lint.returncode == 0, lint.stdout + lint.stderr
