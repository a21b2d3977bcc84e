"""`reagree new-paper`: the scaffold writes the one paper pattern (the same parts and
claims header as every paper of the checkout), registers nothing, and once its source and
claims are filled in, builds a small shipped dataset into one match and one mismatch.

The dataset (tests/fixtures/tiny_mirror/example.org/tiny/v1/labels.tsv) is four units
labelled by two raters, worked out by hand below; it is served from that mirror folder
and pinned by its sha256, as a real source is.
"""

from __future__ import annotations

import hashlib

import pytest
import yaml

from reagree.cli import main
from reagree.pipeline.claims import read_claims
from reagree.pipeline.keys import paper_keys, resolve_function
from reagree.pipeline.paperspec import CLAIM_HEADER, load_paper

from conftest import FIXTURES, project_copy, run_snakemake
from test_paper_pattern import PACKAGE, PARTS

pytestmark = pytest.mark.e2e

# Units: (x, x), (x, y), (y, y), (y, y). Agreement 3/4 = 0.75. Cohen's kappa: rater r1
# says x twice and y twice, r2 says x once and y three times, so p_e = (2/4)(1/4) + (2/4)(3/4)
# = 0.5 and kappa = (0.75 - 0.5) / (1 - 0.5) = 0.5. The "paper" printed 0.75 (a match) and
# 0.60 (a mismatch).
MIRROR = FIXTURES / "tiny_mirror"
DATA = MIRROR / "example.org" / "tiny" / "v1" / "labels.tsv"
URL = "https://example.org/tiny/v1/labels.tsv"


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    work = project_copy(tmp_path_factory, "scaffold")
    assert main(["new-paper", "tiny", "--root", str(work), "--title", "A tiny paper"]) == 0
    return work


def test_the_scaffold_writes_the_one_paper_pattern(scaffolded):
    folder = scaffolded / "workflow" / "papers" / "tiny"
    parts = {p.name.replace("tiny", "<id>") if p.name == "tiny" else p.name for p in folder.iterdir()}
    assert parts == PARTS
    assert PACKAGE <= {p.name for p in (folder / "tiny").iterdir()}
    paper = load_paper(folder / "paper.yaml")  # valid as written: no sources, no claims yet
    assert paper["id"] == "tiny" and paper["sources"] == [] and paper["claims"] == [] and paper["title"] == "A tiny paper"
    header = [line for line in (folder / "claims" / "paper.tsv").read_text().splitlines() if not line.startswith("#")]
    assert header == ["\t".join(CLAIM_HEADER)]
    for name in ("paper.yaml", "rules.smk", "scripts/compute_values.py", "tiny/release.py", "tiny/keys.py"):
        assert "TODO" in (folder / name).read_text(), name
    assert "sha256" in (folder / "paper.yaml").read_text() and "uncheckable" in (folder / "claims" / "paper.tsv").read_text()
    rules = (folder / "rules.smk").read_text()
    assert "rule compute_tiny_values:" in rules and 'registry().paper("tiny")' in rules


def test_the_scaffold_declares_its_keys_with_rule_and_function(scaffolded, monkeypatch):
    monkeypatch.syspath_prepend(str(scaffolded / "workflow" / "papers" / "tiny"))
    keys = paper_keys("tiny")
    assert [f.pattern for f in keys.families] == ["count.units.raters", "agreement.raters", "fleiss.raters",
                                                  "alpha_nominal.raters", "kappa.{a:rater}_{b:rater}"]
    assert {f.rule for f in keys.families} == {"compute_tiny_values"}
    for family in keys.families:
        resolve_function(family.function)


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
    folder = scaffolded / "workflow" / "papers" / "tiny"
    paper = yaml.safe_load((folder / "paper.yaml").read_text())
    paper["sources"] = [{"name": "labels.tsv", "url": URL, "sha256": hashlib.sha256(DATA.read_bytes()).hexdigest(),
                         "licence": "CC0"}]
    (folder / "paper.yaml").write_text(yaml.safe_dump(paper, sort_keys=False))
    claims = folder / "claims" / "paper.tsv"
    row = lambda key, published, note="": "\t".join(  # noqa: E731
        {"key": key, "where": "Table 1", "source": "paper", "published": published, "note": note}.get(c, "")
        for c in CLAIM_HEADER)
    claims.write_text(claims.read_text() + row("agreement.raters", "0.75") + "\n"
                      + row("kappa.r1_r2", "0.60", "by hand the four units give 0.5") + "\n")
    (scaffolded / "tiny.yaml").write_text(yaml.safe_dump({"papers": ["tiny"], "mirror": str(MIRROR),
                                                          "datasets": {}, "bootstrap": {"draws": 200}}))
    run_snakemake(scaffolded, configfile="tiny.yaml")
    table = read_claims(scaffolded / "results" / "tiny" / "claims.tsv").set_index("key")
    assert table.loc["agreement.raters", "status"] == "match"
    assert table.loc["agreement.raters", "computed"] == pytest.approx(0.75, abs=1e-12)
    assert table.loc["kappa.r1_r2", "status"] == "mismatch"
    assert table.loc["kappa.r1_r2", "computed"] == pytest.approx(0.5, abs=1e-12)
    assert table.loc["kappa.r1_r2", "rule"] == "compute_tiny_values"
    assert table.loc["kappa.r1_r2", "function"] == "reagree.stats.pairwise.cohen_statistic"
    assert (scaffolded / "results" / "tiny" / "tables" / "pairwise.md").is_file()
    assert (scaffolded / "results" / "report.html").is_file()
    lint = run_snakemake(scaffolded, "--lint", configfile="tiny.yaml", check=False)
    assert lint.returncode == 0, lint.stdout + lint.stderr
