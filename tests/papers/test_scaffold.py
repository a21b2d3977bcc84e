"""`reagree new-paper`: the scaffold writes the one paper pattern (the same parts and
claims header as every paper of the checkout), registers nothing, and once its source and
claims are filled in, builds a small shipped dataset into one match and one mismatch.

With `--document` the paper starts from its text: the scaffold declares the document,
writes a ledger with every number it prints unreviewed and a draft claim for each that
looks like a result; the build lists what is left to review, strict_ledger refuses the
unreviewed rows and passes once every row is claimed or dismissed (a misquoted claim, a
moved number and a missing row: tests/pipeline/test_ledger.py). The document is written here; its numbers are counted by hand: "Two"
(raters), 4 (units), 2026 (a year), 0.75 (agreement), Table 1's 1, 0.60 (kappa), and 8 (labels), 3
(labels x) and 37.5% (their share).

Every part a paper has is written with one working example (keys, variants, relations,
plots and their caption, claims, the ledger, PAPER), and the filled-in paper builds beside
the four papers' folders: its claims match, its variants are searched, its figure is
drawn. Fixed raters get every pair's Cohen's kappa, interchangeable ones none.

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
from reagree.pipeline.keys import resolve_function
from reagree.pipeline.ledger import read_ledger
from reagree.pipeline.paper import paper_code
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
TEXT = (
    "Two raters labelled 4 units in 2026. They agreed on 0.75 of them (Table 1),\nand Cohen's kappa was 0.60.\n"
    "Of their 8 labels, 3 (37.5%) were x.\n"
)
# By hand, the labels: r1 x, x, y, y and r2 x, y, y, y: 3 of the 8 are x, 37.5%.
# Whether the pipeline writes the check rule of a paper with relations (the generated rule of
# reagree.pipeline.paper): until it does, the internal claim of the example is not built.


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    work = project_copy(tmp_path_factory, "scaffold")
    (work / "tiny.txt").write_text(TEXT, encoding="utf-8")
    assert (
        main(
            ["new-paper", "tiny", "--root", str(work), "--title", "A tiny paper", "--document", str(work / "tiny.txt")]
        )
        == 0
    )
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
    assert (
        paper["id"] == "tiny" and paper["sources"] == [] and paper["claims"] == [] and paper["title"] == "A tiny paper"
    )
    assert paper["documents"] == [{"name": "tiny.txt", "path": "tiny.txt"}]
    rows = read_ledger(folder / "ledger.tsv")
    assert [(r.line, r.printed, r.status) for r in rows] == [
        (1, "Two", "unreviewed"),
        (1, "4", "unreviewed"),
        (1, "2026", "unreviewed"),
        (1, "0.75", "unreviewed"),
        (1, "1", "unreviewed"),
        (2, "0.60", "unreviewed"),
        (3, "8", "unreviewed"),
        (3, "3", "unreviewed"),
        (3, "37.5%", "unreviewed"),
    ]
    third = TEXT.split("\n")[2]
    assert [r.column for r in rows] == [
        TEXT.find("Two") + 1,
        TEXT.find("4") + 1,
        TEXT.find("2026") + 1,
        TEXT.find("0.75") + 1,
        TEXT.find("1)") + 1,
        TEXT.split("\n")[1].find("0.60") + 1,
        third.find("8") + 1,
        third.find("3") + 1,
        third.find("37.5%") + 1,
    ]
    drafts = [
        line.split("\t") for line in (folder / "draft_claims.tsv").read_text().splitlines() if not line.startswith("#")
    ]
    assert tuple(drafts[0]) == CLAIM_HEADER
    # the year and the table number are no results: four drafts, their printed text as published
    assert [d[CLAIM_HEADER.index("published")] for d in drafts[1:]] == ["2", "4", "0.75", "0.60", "8", "3", "37.5%"]
    header = [line for line in (folder / "claims" / "paper.tsv").read_text().splitlines() if not line.startswith("#")]
    assert header == ["\t".join(CLAIM_HEADER)]
    for name in (
        "paper.yaml",
        "rules.smk",
        "tiny/agreement.py",
        "tiny/release.py",
        "tiny/keys.py",
        "tiny/variants.py",
        "tiny/internal.py",
        "tiny/plots.py",
        "report/agreement.rst",
    ):
        assert "TODO" in (folder / name).read_text(), name
    assert {p.name for p in (folder / "tiny").iterdir()} == {
        "__init__.py",
        "release.py",
        "keys.py",
        "agreement.py",
        "variants.py",
        "internal.py",
        "plots.py",
    }
    assert {p.name for p in (folder / "report").iterdir()} == {"agreement.rst", "pairwise.rst"}
    assert (
        "sha256" in (folder / "paper.yaml").read_text()
        and "uncheckable" in (folder / "claims" / "paper.tsv").read_text()
    )
    rules = (folder / "rules.smk").read_text()
    assert "rule compute_tiny_values:" in rules and 'registry().paper("tiny")' in rules
    assert "rule plot_tiny_agreement:" in rules and 'caption="report/agreement.rst"' in rules
    assert "check_" not in rules  # the check rule of a paper with relations is the pipeline's, not the paper's


def test_a_draft_claim_declares_the_approximate_word_printed_before_its_number(scaffolded):
    # the one approximate-words rule (docs/claims.md) reads a claim's approximate column, so a draft of
    # "about 20,000" carries it; by hand: four results (the year is none), three after such a word
    text = (
        "We labelled about 20,000 tweets, roughly a factor of ten more than in 2014,\n"
        "and kappa was 0.41 (roughly plus or minus 0.025).\n"
    )
    (scaffolded / "approx.txt").write_text(text, encoding="utf-8")
    assert main(["new-paper", "approx", "--root", str(scaffolded), "--document", str(scaffolded / "approx.txt")]) == 0
    drafts = [
        line.split("\t")
        for line in (scaffolded / "workflow" / "papers" / "approx" / "draft_claims.tsv").read_text().splitlines()
        if not line.startswith("#")
    ]
    published, approximate = CLAIM_HEADER.index("published"), CLAIM_HEADER.index("approximate")
    assert [(d[published], d[approximate]) for d in drafts[1:]] == [
        ("20,000", "about"),
        ("10", "a factor of"),
        ("0.41", ""),
        ("0.025", "roughly"),
    ]


def test_the_scaffold_declares_its_keys_with_rule_and_function(scaffolded, monkeypatch):
    monkeypatch.syspath_prepend(str(scaffolded / "workflow" / "papers" / "tiny"))
    keys = paper_code("tiny").keys
    assert [f.pattern for f in keys.families] == [
        "count.units.raters",
        "agreement.raters",
        "fleiss.raters",
        "alpha_{level}.raters",
        "count.labels.{category}",
        "count.labels.raters",
        "kappa.{a:rater}_{b:rater}",
        "percent.labels.{category}.from_printed",
    ]
    assert {f.rule for f in keys.families} == {"compute_tiny_values", "check_tiny_printed"}
    for family in keys.families:
        resolve_function(family.function)
    # the one object the pipeline reads: keys, one variant family, one relation
    paper = paper_code("tiny")
    assert paper.keys is keys
    assert paper.variants.applies == {"chance_model": ("fleiss.raters", "kappa.*_*")}
    assert [(r.key, [o.key for o in r.operands]) for r in paper.relations] == [
        ("percent.labels.x.from_printed", ["count.labels.x", "count.labels.raters"])
    ]
    # all four alpha levels are keys; a level is refused where the labels cannot carry it
    assert [
        keys.family_of(f"alpha_{level}.raters").pattern for level in ("nominal", "ordinal", "interval", "ratio")
    ] == ["alpha_{level}.raters"] * 4


def test_interchangeable_raters_get_no_pairs(scaffolded, monkeypatch):
    assert main(["new-paper", "pool", "--root", str(scaffolded), "--design", "interchangeable"]) == 0
    folder = scaffolded / "workflow" / "papers" / "pool"
    assert not (folder / "report" / "pairwise.rst").exists()
    assert "pairwise" not in (folder / "rules.smk").read_text()
    assert "combinations" not in (folder / "scripts" / "compute_values.py").read_text()
    assert "interchangeable" in (folder / "pool" / "release.py").read_text()
    monkeypatch.syspath_prepend(str(folder))
    keys = paper_code("pool").keys
    assert not [f for f in keys.families if f.pattern.startswith("kappa.")]
    assert paper_code("pool").variants.applies == {"chance_model": ("fleiss.raters",)}


def test_the_scaffold_registers_nothing(scaffolded):
    (scaffolded / "only_synthetic.yaml").write_text("papers: [agreement_before_accuracy]\ndatasets: {}\n")
    plan = run_snakemake(scaffolded, "-n", configfile="only_synthetic.yaml")
    assert "tiny" not in plan.stdout + plan.stderr
    assert (
        "papers:" in (scaffolded / "config.yaml").read_text() and "tiny" not in (scaffolded / "config.yaml").read_text()
    )


def test_an_existing_folder_or_a_bad_id_is_refused(scaffolded, capsys):
    assert main(["new-paper", "tiny", "--root", str(scaffolded)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["new-paper", "Tiny-Paper", "--root", str(scaffolded)]) == 2
    assert "lowercase" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse refuses a design it does not know
        main(["new-paper", "other", "--root", str(scaffolded), "--design", "pooled"])
    assert not (scaffolded / "workflow" / "papers" / "other").exists()


def _review(ledger, statuses: dict[str, tuple[str, str, str]]) -> None:
    """Set the status, claims and reason of the ledger rows printing each text."""
    lines = []
    for line in ledger.read_text().split("\n"):
        cells = line.split("\t")
        if len(cells) > 5 and cells[3] in statuses:
            cells[5:8] = statuses[cells[3]]
        lines.append("\t".join(cells))
    ledger.write_text("\n".join(lines))


def test_filled_in_it_builds_every_part_beside_the_four_papers(scaffolded):
    folder = scaffolded / "workflow" / "papers" / "tiny"
    paper = yaml.safe_load((folder / "paper.yaml").read_text())
    paper["sources"] = [
        {"name": "labels.tsv", "url": URL, "sha256": hashlib.sha256(DATA.read_bytes()).hexdigest(), "licence": "CC0"}
    ]
    (folder / "paper.yaml").write_text(yaml.safe_dump(paper, sort_keys=False))
    claims = folder / "claims" / "paper.tsv"
    row = lambda key, published, note="": "\t".join(  # noqa: E731
        {"key": key, "where": "Table 1", "source": "paper", "published": published, "note": note}.get(c, "")
        for c in CLAIM_HEADER
    )
    claims.write_text(
        claims.read_text()
        + row("agreement.raters", "0.75")
        + "\n"
        + row("kappa.r1_r2", "0.60", "by hand the four units give 0.5")
        + "\n"
        + row("count.labels.raters", "8")
        + "\n"
        + row("count.labels.x", "3")
        + "\n"
    )
    ledger = folder / "ledger.tsv"
    _review(
        ledger,
        {
            "0.75": ("claimed", "agreement.raters", ""),
            "0.60": ("claimed", "kappa.r1_r2", ""),
            "8": ("claimed", "count.labels.raters", ""),
            "3": ("claimed", "count.labels.x", ""),
        },
    )
    (scaffolded / "tiny.yaml").write_text(
        yaml.safe_dump({"papers": ["tiny"], "mirror": str(MIRROR), "datasets": {}, "bootstrap": {"draws": 200}})
    )
    run_snakemake(scaffolded, configfile="tiny.yaml")
    table = read_claims(scaffolded / "results" / "tiny" / "claims.tsv").set_index("key")
    assert table.loc["agreement.raters", "status"] == "match"
    assert table.loc["agreement.raters", "computed"] == pytest.approx(0.75, abs=1e-12)
    assert table.loc["kappa.r1_r2", "status"] == "mismatch"
    assert table.loc["kappa.r1_r2", "computed"] == pytest.approx(0.5, abs=1e-12)
    assert table.loc["kappa.r1_r2", "rule"] == "compute_tiny_values"
    assert table.loc["kappa.r1_r2", "function"] == "reagree.stats.pairwise.cohen_statistic"
    # the variants (chance models) were searched: by hand none gives 0.60 (Cohen, Conger, Randolph and Light 0.5;
    # Scott and Fleiss (0.75 - 34/64) / (30/64) = 0.467)
    assert table.loc["kappa.r1_r2", "explained_by"].startswith("none of")
    for key, printed in (("count.labels.raters", 8), ("count.labels.x", 3)):
        assert table.loc[key, "status"] == "match" and table.loc[key, "computed"] == printed
    variants = pd.read_csv(scaffolded / "results" / "tiny" / "variants" / "agreement.tsv", sep="\t")
    own = variants[variants["own"] == "yes"].set_index("key")["variant"].to_dict()
    assert own == {"fleiss.raters": "kappa.fleiss", "kappa.r1_r2": "kappa.cohen"}
    values = pd.read_csv(scaffolded / "results" / "tiny" / "values.tsv", sep="\t").set_index("key")
    assert values.loc["fleiss.raters", "value"] == pytest.approx((0.75 - 34 / 64) / (30 / 64), abs=1e-12)
    assert (scaffolded / "results" / "tiny" / "tables" / "pairwise.md").is_file()
    assert (scaffolded / "results" / "tiny" / "figures" / "agreement.png").stat().st_size > 1000
    assert (scaffolded / "results" / "report.html").is_file()
    lint = run_snakemake(scaffolded, "--lint", configfile="tiny.yaml", check=False)
    assert lint.returncode == 0, lint.stdout + lint.stderr

    # the document's ledger: what is left to review, refused under strict_ledger until reviewed
    counts = pd.read_csv(scaffolded / "results" / "tiny" / "ledger_counts.tsv", sep="\t", keep_default_na=False)
    assert counts[["document", "printed", "claimed", "dismissed", "unreviewed", "unaccounted"]].values.tolist() == [
        ["tiny.txt", 9, 4, 0, 5, 5]
    ]
    assert "| tiny | tiny.txt | 9 | 4 | 0 | 5 | 5 | 0 |" in (scaffolded / "results" / "summary.md").read_text()
    assert (scaffolded / "data" / "tiny" / "documents" / "tiny.txt").read_text() == TEXT
    assert "documents/tiny.txt" in (scaffolded / "data" / "tiny.sha256").read_text()  # pinned on first use
    # claims.tsv is written only after the ledger check (a misquote stops the run first): forcing it reruns the diff
    assert (
        "rule diff_claims:"
        in run_snakemake(scaffolded, "-n", "--forcerun", "check_ledger", configfile="tiny.yaml").stdout
    )
    strict = run_snakemake(scaffolded, "--config", "strict_ledger=true", configfile="tiny.yaml", check=False)
    assert strict.returncode != 0
    assert (
        "5 numbers of tiny.txt are unreviewed, and strict_ledger is on (the first: line 1, column 1, 'Two')"
        in strict.stdout + strict.stderr
    )
    _review(
        ledger,
        {
            "Two": ("dismissed", "", "design"),
            "4": ("dismissed", "", "design"),
            "2026": ("dismissed", "", "date"),
            "1": ("dismissed", "", "reference"),
        },
    )
    # the scaffold's relation (internal.py): the printed 37.5% against the printed 3 and 8, consistent
    # (by hand 3 / 8 = 37.5%), computed by the pipeline's generic rule check_tiny_printed
    cells = {"key": "percent.labels.x.from_printed", "where": "the labels", "source": "internal", "published": "37.5"}
    claims.write_text(claims.read_text() + "\t".join(cells.get(c, "") for c in CLAIM_HEADER) + "\n")
    _review(ledger, {"37.5%": ("claimed", "percent.labels.x.from_printed", "")})
    run_snakemake(scaffolded, "--config", "strict_ledger=true", configfile="tiny.yaml")
    table = read_claims(scaffolded / "results" / "tiny" / "claims.tsv").set_index("key")
    assert table.loc["percent.labels.x.from_printed", "status"] == "consistent"
    assert table.loc["percent.labels.x.from_printed", "computed"] == pytest.approx(37.5, abs=1e-12)
    assert table.loc["percent.labels.x.from_printed", "rule"] == "check_tiny_printed"
    counts = pd.read_csv(scaffolded / "results" / "tiny" / "ledger_counts.tsv", sep="\t", keep_default_na=False)
    assert counts[["printed", "claimed", "dismissed", "unreviewed", "unaccounted"]].values.tolist() == [[9, 5, 4, 0, 0]]
