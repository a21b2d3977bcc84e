"""docs/adding-a-paper.md, run as written: its files, put into a folder scaffolded from the
replication write-up's text (`new-paper --document`), build the statuses its table shows from
the released data (offline mirror; skipped without), its ledger rows locate its claims in the
text and the summary counts what it shows, and the claim-to-function trace it shows is what
the shipped paper declares."""

from __future__ import annotations

import re

import pandas as pd
import pytest
import yaml

from reagree.cli import main
from reagree.pipeline.claims import read_claims
from reagree.pipeline.keys import resolve_function
from reagree.pipeline.paper import paper_code

from conftest import ROOT, project_copy, run_snakemake

pytestmark = pytest.mark.e2e
DOC = ROOT / "docs" / "adding-a-paper.md"
PAPER = "sentiment_humans"
#: The replication write-up the page saves as sentiment_humans.txt (offline: this seed text).
WRITEUP = ROOT.parent / "shared" / "seeds" / "000_bf7d41fdc7212778.txt"


def doc_files() -> dict[str, str]:
    """The code blocks the page marks with <!-- file: PATH -->."""
    text = DOC.read_text(encoding="utf-8")
    return {path: body for path, body in re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S)}


@pytest.fixture(scope="module")
def built(tmp_path_factory, mirror):
    work = project_copy(tmp_path_factory, "doc_paper")
    if not WRITEUP.is_file():
        pytest.skip(f"{WRITEUP} is not here (the seed texts sit in ../shared/seeds beside the checkout)")
    text = DOC.read_text(encoding="utf-8")
    assert f"cp ../shared/seeds/{WRITEUP.name}\nsentiment_humans.txt" in text
    (work / "sentiment_humans.txt").write_bytes(WRITEUP.read_bytes())
    assert main(["new-paper", PAPER, "--root", str(work), "--document", str(work / "sentiment_humans.txt")]) == 0
    files = doc_files()
    assert sorted(files) == sorted(
        f"workflow/papers/{PAPER}/{name}"
        for name in (
            "paper.yaml",
            "claims/paper.tsv",
            f"{PAPER}/release.py",
            f"{PAPER}/keys.py",
            f"{PAPER}/agreement.py",
            f"{PAPER}/variants.py",
            f"{PAPER}/internal.py",
        )
    )
    for path, body in files.items():
        assert (work / path).is_file(), f"{path}: the scaffold writes it, the page fills it in"
        (work / path).write_text(body, encoding="utf-8")
    # the page's ledger rows, in place of the scaffold's unreviewed rows at the same places
    marked = re.search(r"<!-- ledger rows -->\n```tsv\n(.*?)```", text, flags=re.S).group(1).splitlines()
    ledger = work / "workflow" / "papers" / PAPER / "ledger.tsv"
    places = {tuple(row.split("\t")[:3]) for row in marked}
    kept = [
        line for line in ledger.read_text(encoding="utf-8").splitlines() if tuple(line.split("\t")[:3]) not in places
    ]
    ledger.write_text("\n".join(kept + marked) + "\n", encoding="utf-8")
    (work / "doc.yaml").write_text(yaml.safe_dump({"papers": [PAPER], "mirror": str(mirror), "datasets": {}}))
    run_snakemake(work, configfile="doc.yaml")
    return work


def test_the_walkthrough_gives_the_statuses_it_shows(built):
    claims = read_claims(built / "results" / PAPER / "claims.tsv")
    rows = {(r.key, r.end, r.where): r for r in claims.itertuples(index=False)}
    text = DOC.read_text(encoding="utf-8")
    table = re.findall(
        r"^\| (\S+?)(?: \((ci_low|ci_high)\))? \| (.+?) \| (\S+) \|\s*(\S*)\s*\| (\w+(?: \w+)?) \|$",
        text[text.index("## 8. Read the claims") :],
        flags=re.M,
    )[1:]  # the header row first
    assert len(table) == 12
    assert {row[-1] for row in table} == {"match", "within tolerance", "mismatch", "uncheckable"}
    for key, end, where, published, computed, status in table:
        row = rows[(key, end, where)]
        assert row.status == status, (key, row.status, row.reason)
        assert row.published == published
        if computed:
            assert float(row.computed) == pytest.approx(float(computed), abs=5e-13)
    assert (claims["status"] != "missing").all()
    ties = claims[claims["key"] == "count.ties.humans"]  # the paper's 0 and the write-up's 11
    assert len(ties) == 2 and set(zip(ties["rule"], ties["function"])) == {
        ("compute_sentiment_humans_values", "reagree.stats.majority.tied_units")
    }
    summary = (built / "results" / "summary.md").read_text()
    shown = re.search(r"```\n(- \*\*sentiment_humans\*\*.*?)\n```", text, flags=re.S).group(1)
    assert shown in summary
    counts = re.search(r"<!-- ledger summary -->\n```\n(.*?)\n```", text, flags=re.S).group(1)
    cells = dict(part.split(": ") for part in counts.split(", "))
    row = (
        "| "
        + " | ".join(
            cells[name]
            for name in (
                "paper",
                "document",
                "printed",
                "claimed",
                "dismissed",
                "unreviewed",
                "unaccounted",
                "claimed in words",
            )
        )
        + " |"
    )
    assert row in summary
    # summary.tsv carries the paper's totals of the same counts
    totals = pd.read_csv(built / "results" / "summary.tsv", sep="\t").set_index("paper").loc["sentiment_humans"]
    assert [int(totals[f"numbers_{name}"]) for name in ("printed", "claimed", "dismissed", "unaccounted")] == [
        int(cells[name]) for name in ("printed", "claimed", "dismissed", "unaccounted")
    ]
    assert (totals["documents"], totals["documents_checked"]) == (1, 1)


def test_the_trace_it_shows_is_the_shipped_papers_declaration():
    text = DOC.read_text(encoding="utf-8")
    row = re.search(r"^(fleiss\.humans\.three_class) .*? (\S+) +(\S+)$", text, flags=re.M)
    key, rule, function = row.groups()
    family = paper_code("jayanetti2026").keys.family_of(key)
    assert (family.rule, family.function) == (rule, function)
    resolve_function(function)
    rules = (ROOT / "workflow" / "papers" / "jayanetti2026" / "rules.smk").read_text()
    assert re.search(rf'^rule {rule}:\n(?:.*\n)*?    script:\n        "scripts/score_released.py"', rules, flags=re.M)
    assert 'FLEISS = released.family("fleiss.{group}.{framing}", multirater.fleiss_kappa)' in text
    assert (
        'FLEISS = released.family("fleiss.{group}.{framing}", multirater.fleiss_kappa)'
        in (ROOT / "workflow" / "papers" / "jayanetti2026" / "jayanetti2026" / "keys.py").read_text()
    )


def test_the_local_file_variant_it_shows_builds_the_same_claims(built, mirror):
    """The page's "local file" sources, put in place of the URL: the file is copied from the
    checkout, checked against the same sha256, and every claim keeps its status."""
    from reagree.pipeline.fetch import mirror_path

    text = DOC.read_text(encoding="utf-8")
    block = yaml.safe_load(re.search(r"<!-- local source -->\n```yaml\n(.*?)```", text, flags=re.S).group(1))
    paper_yaml = built / "workflow" / "papers" / PAPER / "paper.yaml"
    paper = yaml.safe_load(paper_yaml.read_text(encoding="utf-8"))
    url = paper["sources"][0]["url"]
    assert block["sources"][0]["sha256"] == paper["sources"][0]["sha256"]
    (built / "exports").mkdir()
    assert "cp /tmp/majorityvote.tsv exports/majorityvote.tsv" in text
    (built / block["sources"][0]["path"]).write_bytes(mirror_path(url, mirror).read_bytes())
    before = read_claims(built / "results" / PAPER / "claims.tsv")
    paper_yaml.write_text(yaml.safe_dump({**paper, "sources": block["sources"]}, sort_keys=False), encoding="utf-8")
    (built / "data" / PAPER / "labels.tsv").unlink()
    (built / "local.yaml").write_text(yaml.safe_dump({"papers": [PAPER], "mirror": None, "datasets": {}}))
    run_snakemake(built, configfile="local.yaml")
    assert (
        "copying local file exports/majorityvote.tsv" in (built / "logs" / "fetch" / PAPER / "source_1.log").read_text()
    )
    after = read_claims(built / "results" / PAPER / "claims.tsv")
    assert list(after["status"]) == list(before["status"])


def test_the_walkthrough_shows_what_the_variants_find(built):
    claims = read_claims(built / "results" / PAPER / "claims.tsv").set_index(["key", "where"])
    shown = re.search(
        r'Here the printed 0.39 is matched by Fleiss\' kappa and "also\s+(.*?)"\.',
        DOC.read_text(encoding="utf-8"),
        flags=re.S,
    ).group(1)
    assert " ".join(shown.split()) in claims.loc[("fleiss.humans", "Table 1"), "explained_by"]


#: Whether the pipeline writes the check rule of a paper whose PAPER has relations (branch wpc).
CHECK_RULE_GENERATED = any(
    "check_printed.py" in path.read_text() for path in (ROOT / "workflow" / "rules").glob("*.smk")
)


@pytest.mark.skipif(
    not CHECK_RULE_GENERATED,
    reason="the pipeline does not yet write the check rule of a paper with "
    "relations (branch wpc); LEAD: this test runs by itself once it does",
)
def test_the_internal_claim_it_shows_is_consistent(built, tmp_path_factory):
    from conftest import copy_build

    work = copy_build(built, tmp_path_factory, "doc_internal")
    claim, ledger_row = (
        re.search(r"<!-- internal claim -->\n```tsv\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
        .group(1)
        .splitlines()
    )
    folder = work / "workflow" / "papers" / PAPER
    (folder / "claims" / "paper.tsv").write_text((folder / "claims" / "paper.tsv").read_text() + claim + "\n")
    ledger = folder / "ledger.tsv"
    place = tuple(ledger_row.split("\t")[:3])
    kept = [line for line in ledger.read_text().splitlines() if tuple(line.split("\t")[:3]) != place]
    ledger.write_text("\n".join([*kept, ledger_row]) + "\n")
    run_snakemake(work, configfile="doc.yaml")
    row = read_claims(work / "results" / PAPER / "claims.tsv").set_index("key").loc["percent.ties.humans.from_printed"]
    assert row["status"] == "consistent" and float(row["computed"]) == pytest.approx(11.0, abs=1e-12)
    # the range the page shows: 10.5 / 100.5 to 11.5 / 99.5, in percent
    assert (round(float(row["computed_low"]), 1), round(float(row["computed_high"]), 1)) == (10.4, 11.6)


def test_the_alpha_walkthrough_reproduces_krippendorff_2011_at_all_four_levels(tmp_path_factory):
    """Section 10, run as written: a local table of labels with spaces, all four alpha levels.
    Krippendorff (2011), section C, prints 0.743, 0.815, 0.849 and 0.797; the krippendorff
    package (coders x units, its own implementation) computes them too; the label counts
    are counted by hand from the page's table."""
    import krippendorff
    import numpy as np

    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 10. ") : text.index("## Checklist")]
    work = project_copy(tmp_path_factory, "doc_alpha")
    paper = "reliability_data"
    assert main(["new-paper", paper, "--root", str(work), "--design", "fixed"]) == 0
    files = dict(re.findall(r"<!-- alpha file: (\S+) -->\n```\w*\n(.*?)```", section, flags=re.S))
    assert sorted(files) == sorted(
        [
            f"exports/{paper}.tsv",
            f"workflow/papers/{paper}/paper.yaml",
            f"workflow/papers/{paper}/{paper}/internal.py",
            f"workflow/papers/{paper}/claims/paper.tsv",
        ]
    )
    for path, body in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(body, encoding="utf-8")
    path, lines = re.search(r"<!-- alpha lines: (\S+) -->\n```python\n(.*?)```", section, flags=re.S).groups()
    release = (work / path).read_text(encoding="utf-8").splitlines()
    for line in lines.splitlines():
        name = line.split(" = ")[0]
        (at,) = [i for i, old in enumerate(release) if old.startswith(f"{name} = ")]
        release[at] = line
    (work / path).write_text("\n".join(release) + "\n", encoding="utf-8")
    (work / "alpha.yaml").write_text(yaml.safe_dump({"papers": [paper], "mirror": None, "datasets": {}}))
    run_snakemake(work, configfile="alpha.yaml")

    claims = read_claims(work / "results" / paper / "claims.tsv").set_index("key")
    table = pd.read_csv(work / f"exports/{paper}.tsv", sep="\t", keep_default_na=False)
    numbers = {"very low": 1, "low": 2, "mid": 3, "high": 4, "very high": 5}
    coders = np.array([[numbers.get(label, np.nan) for label in table[c]] for c in "ABCD"], dtype=float)
    for level, printed in (("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)):
        row = claims.loc[f"alpha_{level}.raters"]
        assert row["status"] == "match", (level, row["status"])
        assert float(row["computed"]) == pytest.approx(
            krippendorff.alpha(reliability_data=coders, level_of_measurement=level), abs=1e-12
        )
        assert round(float(row["computed"]), 3) == printed
    values = pd.read_csv(work / "results" / paper / "values.tsv", sep="\t").set_index("key")["value"]
    shown = re.search(r"<!-- alpha counts -->\n```\n(.*?)```", section, flags=re.S).group(1).splitlines()
    assert {line.split()[0]: int(line.split()[1]) for line in shown} == {
        key: int(values[key]) for key in values.index if key.startswith("count.labels.")
    }
    # by hand from the table: "very low" 9 times, 41 labels in all (48 cells, 7 empty)
    assert (values["count.labels.very_low"], values["count.labels.raters"]) == (9, 41)
