"""`reagree new-paper`: the scaffold writes the one paper pattern (the same parts and
claims header as every paper of the checkout), registers nothing, and once its source and
claims are filled in, builds a small shipped dataset into one match and one mismatch.

With `--document` the paper starts from its text: the scaffold declares the document,
writes a ledger with every number it prints unreviewed and a draft claim for each that
looks like a result; the build lists what is left to review, strict_ledger refuses the
unreviewed rows and passes once every row is claimed or dismissed (a misquoted claim, a
moved number and a missing row: tests/pipeline/test_ledger.py). The document is written here; its numbers are counted by hand: "Two"
(raters), 4 (units), 2026 (a year), 0.75 (agreement), Table 1's 1, and 0.60 (kappa).

The dataset (tests/fixtures/tiny_mirror/example.org/tiny/v1/labels.tsv) is four units
labelled by two raters, worked out by hand below; it is served from that mirror folder
and pinned by its sha256, as a real source is.
"""

from __future__ import annotations

import hashlib

import pandas as pd
import pytest
import yaml

from reagree.cli import main
from reagree.pipeline.claims import read_claims
from reagree.pipeline.keys import paper_keys, resolve_function
from reagree.pipeline.ledger import read_ledger
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
TEXT = "Two raters labelled 4 units in 2026. They agreed on 0.75 of them (Table 1),\nand Cohen's kappa was 0.60.\n"


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    work = project_copy(tmp_path_factory, "scaffold")
    (work / "tiny.txt").write_text(TEXT, encoding="utf-8")
    assert main(["new-paper", "tiny", "--root", str(work), "--title", "A tiny paper", "--document",
                 str(work / "tiny.txt")]) == 0
    return work


def test_the_scaffold_writes_the_one_paper_pattern(scaffolded):
    assert main(["new-paper", "plain", "--root", str(scaffolded)]) == 0  # without a document
    plain = scaffolded / "workflow" / "papers" / "plain"
    assert {p.name.replace("plain", "<id>") if p.name == "plain" else p.name for p in plain.iterdir()} == PARTS
    assert load_paper(plain / "paper.yaml")["documents"] == []
    folder = scaffolded / "workflow" / "papers" / "tiny"
    parts = {p.name.replace("tiny", "<id>") if p.name == "tiny" else p.name for p in folder.iterdir()}
    assert parts == PARTS | {"ledger.tsv", "draft_claims.tsv"}
    assert PACKAGE <= {p.name for p in (folder / "tiny").iterdir()}
    paper = load_paper(folder / "paper.yaml")  # valid as written: no sources, no claims yet
    assert paper["id"] == "tiny" and paper["sources"] == [] and paper["claims"] == [] and paper["title"] == "A tiny paper"
    assert paper["documents"] == [{"name": "tiny.txt", "path": "tiny.txt"}]
    rows = read_ledger(folder / "ledger.tsv")
    assert [(r.line, r.printed, r.status) for r in rows] == [
        (1, "Two", "unreviewed"), (1, "4", "unreviewed"), (1, "2026", "unreviewed"), (1, "0.75", "unreviewed"),
        (1, "1", "unreviewed"), (2, "0.60", "unreviewed")]
    assert [r.column for r in rows] == [TEXT.find("Two") + 1, TEXT.find("4") + 1, TEXT.find("2026") + 1,
                                        TEXT.find("0.75") + 1, TEXT.find("1)") + 1,
                                        TEXT.split("\n")[1].find("0.60") + 1]
    drafts = [line.split("\t") for line in (folder / "draft_claims.tsv").read_text().splitlines()
              if not line.startswith("#")]
    assert tuple(drafts[0]) == CLAIM_HEADER
    # the year and the table number are no results: four drafts, their printed text as published
    assert [d[CLAIM_HEADER.index("published")] for d in drafts[1:]] == ["2", "4", "0.75", "0.60"]
    header = [line for line in (folder / "claims" / "paper.tsv").read_text().splitlines() if not line.startswith("#")]
    assert header == ["\t".join(CLAIM_HEADER)]
    for name in ("paper.yaml", "rules.smk", "scripts/compute_values.py", "tiny/release.py", "tiny/keys.py"):
        assert "TODO" in (folder / name).read_text(), name
    assert "sha256" in (folder / "paper.yaml").read_text() and "uncheckable" in (folder / "claims" / "paper.tsv").read_text()
    rules = (folder / "rules.smk").read_text()
    assert "rule compute_tiny_values:" in rules and 'registry().paper("tiny")' in rules


def test_a_draft_claim_declares_the_approximate_word_printed_before_its_number(scaffolded):
    # the one approximate-words rule (docs/claims.md) reads a claim's approximate column, so a draft of
    # "about 20,000" carries it; by hand: four results (the year is none), three after such a word
    text = ("We labelled about 20,000 tweets, roughly a factor of ten more than in 2014,\n"
            "and kappa was 0.41 (roughly plus or minus 0.025).\n")
    (scaffolded / "approx.txt").write_text(text, encoding="utf-8")
    assert main(["new-paper", "approx", "--root", str(scaffolded), "--document", str(scaffolded / "approx.txt")]) == 0
    drafts = [line.split("\t") for line in (scaffolded / "workflow" / "papers" / "approx" / "draft_claims.tsv")
              .read_text().splitlines() if not line.startswith("#")]
    published, approximate = CLAIM_HEADER.index("published"), CLAIM_HEADER.index("approximate")
    assert [(d[published], d[approximate]) for d in drafts[1:]] == [
        ("20,000", "about"), ("10", "a factor of"), ("0.41", ""), ("0.025", "roughly")]


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


def _review(ledger, statuses: dict[str, tuple[str, str, str]]) -> None:
    """Set the status, claims and reason of the ledger rows printing each text."""
    lines = []
    for line in ledger.read_text().split("\n"):
        cells = line.split("\t")
        if len(cells) > 5 and cells[3] in statuses:
            cells[5:8] = statuses[cells[3]]
        lines.append("\t".join(cells))
    ledger.write_text("\n".join(lines))


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
    ledger = folder / "ledger.tsv"
    _review(ledger, {"0.75": ("claimed", "agreement.raters", ""), "0.60": ("claimed", "kappa.r1_r2", "")})
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

    # the document's ledger: what is left to review, refused under strict_ledger until reviewed
    counts = pd.read_csv(scaffolded / "results" / "tiny" / "ledger_counts.tsv", sep="\t", keep_default_na=False)
    assert counts[["document", "printed", "claimed", "dismissed", "unreviewed", "unaccounted"]].values.tolist() == [
        ["tiny.txt", 6, 2, 0, 4, 4]]
    assert "| tiny | tiny.txt | 6 | 2 | 0 | 4 | 4 | 0 |" in (scaffolded / "results" / "summary.md").read_text()
    assert (scaffolded / "data" / "tiny" / "documents" / "tiny.txt").read_text() == TEXT
    assert "documents/tiny.txt" in (scaffolded / "data" / "tiny.sha256").read_text()  # pinned on first use
    # claims.tsv is written only after the ledger check (a misquote stops the run first): forcing it reruns the diff
    assert "rule diff_claims:" in run_snakemake(scaffolded, "-n", "--forcerun", "check_ledger",
                                                configfile="tiny.yaml").stdout
    strict = run_snakemake(scaffolded, "--config", "strict_ledger=true", configfile="tiny.yaml", check=False)
    assert strict.returncode != 0
    assert "4 numbers of tiny.txt are unreviewed, and strict_ledger is on (the first: line 1, column 1, 'Two')" \
        in strict.stdout + strict.stderr
    _review(ledger, {"Two": ("dismissed", "", "design"), "4": ("dismissed", "", "design"),
                     "2026": ("dismissed", "", "date"), "1": ("dismissed", "", "reference")})
    run_snakemake(scaffolded, "--config", "strict_ledger=true", configfile="tiny.yaml")
    counts = pd.read_csv(scaffolded / "results" / "tiny" / "ledger_counts.tsv", sep="\t", keep_default_na=False)
    assert counts[["printed", "claimed", "dismissed", "unreviewed", "unaccounted"]].values.tolist() == [[6, 2, 4, 0, 0]]
