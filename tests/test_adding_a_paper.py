"""docs/adding-a-paper.md, run as written: its files, scaffolded and filled in, build the
statuses its table shows from the released data (offline mirror; skipped without)."""

from __future__ import annotations

import re

import pytest
import yaml

from reagree.pipeline.claims import read_claims
from reagree.cli import main

from conftest import ROOT, project_copy, run_snakemake

pytestmark = pytest.mark.e2e
DOC = ROOT / "docs" / "adding-a-paper.md"
PAPER = "khayelitsha_humans"


def doc_files() -> dict[str, str]:
    """The code blocks the page marks with <!-- file: PATH -->."""
    text = DOC.read_text(encoding="utf-8")
    return {path: body for path, body in
            re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", text, flags=re.S)}


@pytest.fixture(scope="module")
def built(tmp_path_factory, mirror):
    work = project_copy(tmp_path_factory, "doc_paper")
    assert main(["new-paper", PAPER, "--root", str(work)]) == 0
    files = doc_files()
    assert sorted(files) == sorted(f"workflow/papers/{PAPER}/{name}"
                                   for name in ("paper.yaml", "rules.smk", "scripts/compute_values.py"))
    for path, body in files.items():
        (work / path).write_text(body, encoding="utf-8")
    (work / "doc.yaml").write_text(yaml.safe_dump({"papers": [PAPER], "mirror": str(mirror), "datasets": {}}))
    run_snakemake(work, configfile="doc.yaml")
    return work


def test_the_walkthrough_gives_the_statuses_it_shows(built):
    claims = read_claims(built / "results" / PAPER / "claims.tsv")
    rows = {(r.key, r.end, r.where): r for r in claims.itertuples(index=False)}
    text = DOC.read_text(encoding="utf-8")
    table = re.findall(r"^\| (\S+?)(?: \((ci_low|ci_high)\))? \| (.+?) \| (\S+) \|\s*(\S*)\s*\| (\w+) \|$", text,
                       flags=re.M)[1:]  # the header row first
    assert len(table) == 7 and {row[-1] for row in table} == {"match", "mismatch", "uncheckable"}
    for key, end, where, published, computed, status in table:
        matching = [r for (k, e, w), r in rows.items() if k == key and e == end and w.startswith(where.split(":")[0])]
        assert matching, key
        row = matching[0]
        assert row.status == status, (key, row.status, row.reason)
        assert row.published == published
        if computed:
            assert float(row.computed) == pytest.approx(float(computed), abs=5e-7)
    assert (claims["status"] != "missing").all()
