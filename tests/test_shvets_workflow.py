"""End to end: shvets2026, built from the offline mirror (the session's ``offline_build``;
one myth alone in a project of its own; an edited script in a copy of the build).

Every claim of the paper (Tables 1, 2 and 4) and of its replication must match; the
fetched files' digests are recorded; the malformed inputs of the release are flagged in
the diagnostics tables, not repaired silently; a change to Table 4's rule does not rerun
the run-triple enumeration.
"""
import hashlib

import pandas as pd
import pytest

from reagree.pipeline.claims import read_claims
from reagree.pipeline.tables import read_values

from conftest import OFFLINE, copy_build, project_copy, run_snakemake

pytestmark = pytest.mark.e2e
RESULTS = "results/shvets2026"


@pytest.fixture(scope="module")
def work(offline_build):
    """The session's build of every paper (read only)."""
    return offline_build


def test_every_claim_matches(work):
    table = read_claims(work / RESULTS / "claims.tsv")
    assert len(table) >= 145
    assert table["status"].eq("match").all(), table[table["status"] != "match"].to_string()
    assert set(table["source"]) == {"paper", "replication"}
    assert (table["rule"] != "").all()  # every number traces to the rule that computed it


def test_inputs_are_recorded_by_sha256(work):
    lines = (work / RESULTS / "inputs.sha256").read_text().splitlines()
    assert len(lines) == 99 + 3 + 3
    for line in lines:
        digest, path = line.split("  ", 1)
        assert hashlib.sha256((work / path).read_bytes()).hexdigest() == digest


def test_malformed_inputs_are_flagged_not_silently_repaired(work):
    gudea = pd.read_csv(work / RESULTS / "tables" / "diagnostics_gudea.tsv", sep="\t")
    dates = gudea[gudea["issue"] == "annotated_date"]
    assert dates[["reader", "run"]].values.tolist() == [["human1", 2]]
    assert "2026-08_07" in dates["detail"].iloc[0] and "2026-08-07" in dates["detail"].iloc[0]
    assert sorted(gudea.loc[gudea["issue"] == "duplicate segment_id", "segment"]) == ["id='13'", "id='15'"]
    descent = pd.read_csv(work / RESULTS / "tables" / "diagnostics_inanna_descent.tsv", sep="\t")
    read = descent[descent["issue"] == "line number read"]
    assert sorted(set(read["run"])) == [5, 7, 8, 9] and set(read["reader"]) == {"opus"}
    values = read_values(work / RESULTS / "values.tsv").set_index("key")
    assert values.at["count.flagged_dates.gudea", "value"] == 1
    assert values.at["count.line_numbers_read.inanna_descent", "value"] == 8
    assert "2026-08_07" in values.at["interval_days.human.gudea.run1_run2", "note"]


def test_tables_and_figures_are_written(work):
    for name in ("gap_by_reader", "triple_gaps", "human_pairs"):
        assert (work / RESULTS / "figures" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    triples = pd.read_csv(work / RESULTS / "tables" / "triples.tsv", sep="\t")
    assert len(triples) == 3 * 3 * 120
    table4 = pd.read_csv(work / RESULTS / "tables" / "table4.tsv", sep="\t")
    assert table4["myth"].tolist() == ["inanna_enki", "inanna_descent", "gudea"]


def test_a_change_to_table4_does_not_rerun_the_triples(offline_build, tmp_path_factory):
    work = copy_build(offline_build, tmp_path_factory, "shvets2026_edited")
    script = work / "workflow" / "papers" / "shvets2026" / "scripts" / "compute_phase_shift.py"
    script.write_text(script.read_text() + "\n# edited\n")
    plan = run_snakemake(work, "--dry-run", configfile=OFFLINE).stdout
    assert "compute_shvets2026_phase_shift" in plan
    assert "enumerate_shvets2026_triples" not in plan
    assert "pair_shvets2026_runs" not in plan


def test_a_subset_of_myths_builds_and_pooled_claims_read_not_built(tmp_path_factory, mirror):
    work = project_copy(tmp_path_factory, "shvets2026_gudea")
    (work / "gudea.yaml").write_text(f"papers: [shvets2026]\nmirror: {mirror}\nshvets2026: {{myths: [gudea]}}\n"
                                     "datasets: {}\n")
    run_snakemake(work, configfile="gudea.yaml")
    table = read_claims(work / RESULTS / "claims.tsv").set_index("key")
    assert not (table["status"] == "missing").any(), table[table["status"] == "missing"].to_string()
    assert not (table["status"] == "mismatch").any()
    pooled = table.loc[["share.triples_reach_all_myths.qwen.at_0", "margin.kappa_label.lowest_model_triple_vs_human"]]
    assert pooled["status"].eq("not built").all()
    assert pooled["reason"].str.contains("inanna_enki").all()
    assert table.loc["count.triples_reach.gemini.gudea.human_gap", "status"] == "match"
    assert not list((work / "data" / "shvets2026").glob("inanna_enki/*.json"))
