"""`reagree new-paper ID --document FILE`: the paper starts from its text. The scaffold
declares the document, writes a ledger with every number it prints unreviewed and a draft
claim for each that looks like a result; filled in, the paper builds, the summary counts what
is left to review, strict_ledger refuses the unreviewed rows, and once every row is claimed
or dismissed the strict build passes with nothing unaccounted.

The document is written here; its numbers are counted by hand: "Two" (raters), 4 (units),
2026 (a year), 0.75 (agreement), Table 1's 1, and 0.60 (kappa). The data is
tests/fixtures/tiny_mirror's four units (test_scaffold.py works its kappa out by hand).
"""

from __future__ import annotations

import hashlib

import pandas as pd
import pytest
import yaml

from reagree.cli import main
from reagree.pipeline.ledger import read_ledger
from reagree.pipeline.paperspec import CLAIM_HEADER, load_paper

from conftest import project_copy, run_snakemake
from test_scaffold import DATA, MIRROR, URL

pytestmark = pytest.mark.e2e
TEXT = "Two raters labelled 4 units in 2026. They agreed on 0.75 of them (Table 1),\nand Cohen's kappa was 0.60.\n"


def claim_row(key, published, where):
    return "\t".join({"key": key, "where": where, "source": "paper", "published": published}.get(c, "")
                     for c in CLAIM_HEADER)


def test_a_paper_started_from_its_document_builds_and_lists_what_is_left(tmp_path_factory):
    work = project_copy(tmp_path_factory, "from_document")
    (work / "tiny.txt").write_text(TEXT, encoding="utf-8")
    assert main(["new-paper", "tiny", "--root", str(work), "--document", str(work / "tiny.txt")]) == 0
    folder = work / "workflow" / "papers" / "tiny"
    paper = load_paper(folder / "paper.yaml")
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

    spec = yaml.safe_load((folder / "paper.yaml").read_text())
    spec["sources"] = [{"name": "labels.tsv", "url": URL, "sha256": hashlib.sha256(DATA.read_bytes()).hexdigest()}]
    (folder / "paper.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    claims = folder / "claims" / "paper.tsv"
    claims.write_text(claims.read_text() + claim_row("agreement.raters", "0.75", "Table 1") + "\n"
                      + claim_row("kappa.r1_r2", "0.60", "text") + "\n")
    ledger = folder / "ledger.tsv"
    text = ledger.read_text()
    text = text.replace("0.75\tcoefficient\tunreviewed\t\t", "0.75\tcoefficient\tclaimed\tagreement.raters\t")
    text = text.replace("0.60\tcoefficient\tunreviewed\t\t", "0.60\tcoefficient\tclaimed\tkappa.r1_r2\t")
    ledger.write_text(text)
    (work / "tiny.yaml").write_text(yaml.safe_dump({"papers": ["tiny"], "mirror": str(MIRROR), "datasets": {},
                                                    "bootstrap": {"draws": 200}}))
    run_snakemake(work, configfile="tiny.yaml")
    counts = pd.read_csv(work / "results" / "tiny" / "ledger_counts.tsv", sep="\t", keep_default_na=False)
    assert counts[["document", "printed", "claimed", "dismissed", "unreviewed", "unaccounted"]].values.tolist() == [
        ["tiny.txt", 6, 2, 0, 4, 4]]
    assert "| tiny | tiny.txt | 6 | 2 | 0 | 4 | 4 | 0 |" in (work / "results" / "summary.md").read_text()
    assert (work / "data" / "tiny" / "documents" / "tiny.txt").read_text() == TEXT
    assert "documents/tiny.txt" in (work / "data" / "tiny.sha256").read_text()  # pinned on first use

    strict = run_snakemake(work, "--config", "strict_ledger=true", configfile="tiny.yaml", check=False)
    assert strict.returncode != 0
    assert "4 numbers of tiny.txt are unreviewed, and strict_ledger is on (the first: line 1, column 1, 'Two')" \
        in strict.stdout + strict.stderr

    reasons = {"Two": "design", "4": "design", "2026": "date", "1": "reference"}
    lines = []
    for line in ledger.read_text().split("\n"):
        cells = line.split("\t")
        if len(cells) > 5 and cells[3] in reasons:
            cells[5:8] = ["dismissed", "", reasons[cells[3]]]
        lines.append("\t".join(cells))
    text = "\n".join(lines)
    ledger.write_text(text)
    run_snakemake(work, "--config", "strict_ledger=true", configfile="tiny.yaml")
    counts = pd.read_csv(work / "results" / "tiny" / "ledger_counts.tsv", sep="\t", keep_default_na=False)
    assert counts[["printed", "claimed", "dismissed", "unreviewed", "unaccounted"]].values.tolist() == [[6, 2, 4, 0, 0]]

    # a misquoted claim stops the build, naming the document, the line and the printed text
    claims.write_text(claims.read_text().replace("\t0.60\t", "\t0.6\t"))
    failed = run_snakemake(work, configfile="tiny.yaml", check=False)
    assert failed.returncode != 0
    column = TEXT.split("\n")[1].find("0.60") + 1
    assert f"tiny.txt, line 2, column {column}: '0.60' is claimed by kappa.r1_r2, which publishes 0.6" \
        in failed.stdout + failed.stderr
