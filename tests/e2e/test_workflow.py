"""End to end: the Snakemake workflow, run in a copy of the project.

The papers' data are built once per session from the offline mirror (``offline_build`` of
conftest.py; skipped, saying how to enable it, where none is found; CI always has one);
the tests of a deleted input and of a rebuild's bytes work in copies of that build. The
synthetic paper alone (no data at all), the demo paper (tests/fixtures: templated sources,
settings, `needs`), the config checks, the no-network message and the lint need no data
and always run.
"""

import hashlib
import shutil
from pathlib import Path

import pandas as pd
import pytest
import yaml

from reagree.pipeline.claims import read_claims
from reagree.pipeline.tables import read_values

from conftest import DEMO, FIXTURES, OFFLINE, ROOT, copy_build, project_copy, run_snakemake

pytestmark = pytest.mark.e2e


def claims(work, paper):
    return read_claims(work / "results" / paper / "claims.tsv")


@pytest.fixture(scope="module")
def synthetic_only(tmp_path_factory):
    """A project configured for the paper that needs no download (agreement_before_accuracy),
    not built: the configuration tests below plan or lint it; the session's demo build
    builds that paper."""
    work = project_copy(tmp_path_factory, "synthetic")
    (work / "synthetic.yaml").write_text("papers: [agreement_before_accuracy]\n")
    return work


@pytest.fixture(scope="module")
def work(offline_build):
    """config.yaml's papers built from the offline mirror (the session's build: read only)."""
    return offline_build


@pytest.fixture(scope="module")
def demo(demo_build, tmp_path_factory):
    """The demo paper with only parts a and c configured, from the fixture mirror (a copy
    of the session's build, which the tests below change)."""
    return copy_build(demo_build, tmp_path_factory, "demo")


def test_jayanetti_keeps_its_claim_statuses(work):
    table = claims(work, "jayanetti2026")
    assert (table["status"] != "missing").all()
    mismatches = table[table["status"] == "mismatch"]
    assert mismatches[["key", "source", "published"]].values.tolist() == [["count.ties.three_class", "paper", "0"]]
    assert float(mismatches["computed"].iloc[0]) == 11
    # the 7 internal claims (the LLMs' printed scores against each other) are consistent, never a match;
    # the two data claims on the posting window ("January 2022 to December 2024") hold: May 2022 and
    # October 2024 lie inside it
    assert table["status"].value_counts().to_dict() == {
        "match": 85,
        "consistent": 7,
        "holds": 2,
        "mismatch": 1,
        "uncheckable": 14,
        "not built": 4,
    }
    assert (table.loc[table["status"].isin(["uncheckable", "not built"]), "reason"] != "").all()
    released = table[table["end"] == ""].set_index(["key", "source"])
    assert float(released.loc[("fleiss.humans.three_class", "replication"), "computed"]) == pytest.approx(
        0.385, abs=5e-4
    )
    assert float(released.loc[("kappa.roberta.vs_majority.pos_vs_rest", "paper"), "computed"]) == pytest.approx(
        0.61, abs=5e-3
    )


# The document's figures that are not a number the fixture reproduces at its printed digits:
# "roughly plus or minus 0.025" reads block 3's printed width (half of 0.051 is 0.02525 to
# 0.02575, which meets 0.025's rounding at 0.0255: consistent), "roughly a factor of ten"
# (11.4, 5 to 15 by the approximate-words rule: within tolerance) and "equal to twelve
# decimal places" (a bound the library comparison keeps: holds); and the one finding, the
# heading's "five different kappas" over a sweep that prints six prevalences, each with its
# own kappa (0.137, 0.239, 0.432, 0.590, 0.750, 0.800): mismatch.
ABA_NOT_MATCHED = {
    "half_width.kappa.a_b.width_study.n2000.from_printed": "consistent",
    "ratio.alpha_minus_fleiss.intent.complete_units.n240_per_n2400": "within tolerance",
    "max_abs_difference.alpha.vs_krippendorff_library": "holds",
    "count.distinct_kappas.prevalence_sweep": "mismatch",
}


def aba_statuses_hold(table):
    others = table[~table["key"].isin(list(ABA_NOT_MATCHED))]
    assert others["status"].eq("match").all(), others[others["status"] != "match"].to_string()
    assert table.set_index("key").loc[list(ABA_NOT_MATCHED), "status"].to_dict() == ABA_NOT_MATCHED


def test_agreement_before_accuracy_every_printed_figure_matches(work):
    table = claims(work, "agreement_before_accuracy")
    assert len(table) >= 130
    aba_statuses_hold(table)
    half = table.set_index("key").loc["half_width.kappa.a_b.width_study.n2000.from_printed"]
    assert (float(half["computed_low"]), float(half["computed_high"])) == pytest.approx((0.02525, 0.02575))


def test_summary_says_it_in_plain_words(work):
    summary = pd.read_csv(work / "results" / "summary.tsv", sep="\t").set_index("paper")
    assert summary["missing"].sum() == 0
    assert summary.loc["jayanetti2026", "mismatch"] == 1
    markdown = (work / "results" / "summary.md").read_text()
    assert "No claim is missing" in markdown
    assert "count.ties.three_class" in markdown and "3-3" in markdown


PAPERS = ["jayanetti2026", "agreement_before_accuracy", "shvets2026", "mozetic2016"]


def test_every_field_library_value_agrees_with_reagrees(work):
    summary = pd.read_csv(work / "results" / "summary.tsv", sep="\t").set_index("paper")
    assert (summary.loc[PAPERS, "reference_checked"] > 0).all() and (summary["reference_differs"] == 0).all()
    assert "No field library disagrees" in (work / "results" / "summary.md").read_text()
    for paper in PAPERS:
        values = read_values(work / "results" / paper / "values.tsv")
        held = values[values["reference"] != ""]
        assert len(held) == summary.loc[paper, "reference_checked"], paper
        assert held["reference"].str.match(r"(krippendorff|statsmodels|scikit-learn) ").all(), paper
        finite = held["value"].notna()
        assert ((held.loc[finite, "value"] - held.loc[finite, "reference_value"]).abs() <= 1e-9).all(), paper


def test_every_finding_names_the_variant_that_reproduces_it_or_none_of_n(work):
    for paper in PAPERS:
        table = claims(work, paper)
        findings = table[table["status"].isin(["mismatch", "inconsistent"])]
        # a variant that reproduces it, none of the N tried, none declared, or a printed bound
        # (held as printed); never a rounding reading (a note in its own column)
        assert (
            findings["explained_by"]
            .str.match(
                r"reproduced by |none of \d+ variants? tried|no variant tried \(none declared for this "
                r"(key\); reagree's value does not reproduce|relation\))|a printed bound"
            )
            .all()
        ), paper
        assert not findings["explained_by"].str.contains("truncation|rounding up").any(), paper
        assert not findings["cause"].str.contains("truncation|rounding up").any(), paper
        assert (findings["reason"] != "").all(), paper
    summary = (work / "results" / "summary.md").read_text()
    assert (
        "- jayanetti2026: `count.ties.three_class` (printed 0, mismatch 11): none of 2 variants tried reproduces 0"
        in summary
    )


def test_explain_prints_every_variant_tried_for_a_claim(work):
    import subprocess
    import sys

    reagree = Path(sys.executable).parent / "reagree"
    result = subprocess.run(
        [str(reagree), "explain", "alpha_interval.self.serbian", "--results", str(work / "results")],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0] == "mozetic2016: alpha_interval.self.serbian"
    assert lines[2].split()[:2] == ["printed", "0.205"]
    assert lines[3].split()[:4] == ["reagree", "0.207528", "status:", "mismatch;"]
    by_variant = {line.split()[1]: line for line in lines if line.startswith("    alpha_")}
    assert "yes, at printed precision" in by_variant["alpha.expected_n_squared"]
    assert "0.205345" in by_variant["alpha.expected_n_squared"]
    assert " no " in by_variant["alpha.ordinal"] and "not applicable" in by_variant["alpha.ratio"]
    # 182 leave-one-unit-out values in one line: 12 of them print as 0.205 too
    assert "12 of 182 reproduce 0.205" in by_variant["182"]
    assert (
        "  explained reproduced by alpha.expected_n_squared (0.205345); 12 of 182 alpha_leave_one_unit_out "
        "variants (0.204633): 13 candidates, none singled out"
    ) in lines


def test_values_name_the_rule_that_wrote_them(work):
    for paper in ("jayanetti2026", "agreement_before_accuracy"):
        values = read_values(work / "results" / paper / "values.tsv")
        assert (values["rule"] != "").all(), paper
        table = claims(work, paper)
        checked = table[table["status"].isin(["match", "mismatch", "holds", "consistent"])]
        assert (checked["rule"] != "").all(), paper


def test_tables_and_figures_exist_with_provenance(work):
    results = work / "results"
    for path in [
        "jayanetti2026/figures/pairwise_kappa.png",
        "agreement_before_accuracy/figures/prevalence_sweep.png",
        "agreement_before_accuracy/figures/interval_width.png",
    ]:
        assert (results / path).stat().st_size > 10_000, path
    assert "e74bb77" in (results / "jayanetti2026/tables/pairwise_kappa.md").read_text()


def test_results_and_data_are_readable_by_others(work):
    for path in [
        work / "results" / "summary.tsv",
        work / "results" / "summary.md",
        work / "results" / "jayanetti2026" / "values.tsv",
        work / "data" / "jayanetti2026" / "LICENSE",
    ]:
        assert path.stat().st_mode & 0o044 == 0o044, f"{path} is {oct(path.stat().st_mode)}"


def test_second_run_does_nothing(work):
    assert "Nothing to be done" in run_snakemake(work, "-n", configfile=OFFLINE).stdout


def test_deleting_one_input_refetches_only_that_file(offline_build, tmp_path_factory):
    work = copy_build(offline_build, tmp_path_factory, "deleted_input")
    assert "Nothing to be done" in run_snakemake(work, "-n", configfile=OFFLINE).stdout  # the copy is complete
    (work / "data" / "jayanetti2026" / "LICENSE").unlink()
    plan = run_snakemake(work, "-n", configfile=OFFLINE).stdout
    assert plan.count("rule fetch_source_") == 1 and "data/jayanetti2026/LICENSE" in plan
    run_snakemake(work, configfile=OFFLINE)
    assert (work / "data" / "jayanetti2026" / "LICENSE").exists()
    assert "Nothing to be done" in run_snakemake(work, "-n", configfile=OFFLINE).stdout


def digests(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_same_config_same_bytes(offline_build, tmp_path_factory):
    """jayanetti2026 (random tie breaks and bootstrap intervals) rebuilt from nothing, with the
    summary and the report over all four papers: every file of results/ is the session
    build's, byte for byte. (The synthetic and demo papers: the two builds of
    tests/guarantees/test_what_reagree_guarantees.py.)"""
    work = copy_build(offline_build, tmp_path_factory, "same_bytes")
    rebuilt = ["results/jayanetti2026"]
    for folder in rebuilt:
        shutil.rmtree(work / folder)
    for name in ("summary.tsv", "summary.md", "report.html"):
        (work / "results" / name).unlink()
    run_snakemake(work, configfile=OFFLINE)
    before, after = digests(offline_build / "results"), digests(work / "results")
    outputs = ["jayanetti2026/values.tsv", "jayanetti2026/figures/pairwise_kappa.png", "summary.md", "report.html"]
    assert set(outputs) <= set(after)
    assert sorted(after) == sorted(before)
    differ = [name for name in before if before[name] != after[name]]
    assert not differ, f"not byte-identical after rebuilding {rebuilt} from nothing: {differ}"


def test_synthetic_paper_builds_without_any_data(demo_build, synthetic_only):
    table = claims(demo_build, "agreement_before_accuracy")
    assert len(table) >= 130
    aba_statuses_hold(table)
    assert not (demo_build / "data" / "agreement_before_accuracy").exists()
    assert "No claim is missing" in (demo_build / "results" / "summary.md").read_text()
    assert "Nothing to be done" in run_snakemake(demo_build, "-n", configfile=DEMO).stdout
    # alone, it plans no fetch at all
    plan = run_snakemake(synthetic_only, "-n", configfile="synthetic.yaml").stdout
    assert "rule compute_agreement_before_accuracy_fixture" in plan and "fetch_source" not in plan


# ----------------------------------------------------------------- templated sources, settings, needs


def test_a_templated_source_builds_only_the_configured_subset(demo):
    fetched = sorted(
        str(p.relative_to(demo / "data" / "demo"))
        for p in (demo / "data" / "demo").rglob("*")
        if p.is_file() and not p.name.startswith(".")
    )
    assert fetched == ["notes/README.txt", "parts/part_a.tsv", "parts/part_c.tsv"]
    table = claims(demo, "demo").set_index("key")
    assert table.loc["agreement.a_b.part_a", "status"] == "match"
    assert table.loc["agreement.a_b.part_c", "status"] == "mismatch"
    assert table.loc["agreement.a_b.part_b", "status"] == "not built"
    assert "demo.parts" in table.loc["agreement.a_b.part_b", "reason"]
    assert table.loc["agreement.a_b.part_a", "rule"] == "compute_demo_values"


def test_adding_a_part_to_the_settings_builds_it(demo):
    plan = run_snakemake(demo, "-n", "--config", "demo={parts: [a, b, c]}", configfile=DEMO).stdout
    assert plan.count("rule fetch_source_") == 1 and "output: data/demo/parts/part_b.tsv" in plan


def test_a_wrong_pin_stops_the_fetch_naming_both_hashes(tmp_path_factory):
    work = project_copy(tmp_path_factory, "badpin")
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    paper = work / "workflow" / "papers" / "demo" / "paper.yaml"
    paper.write_text(paper.read_text().replace("68d0ffaa", "00d0ffaa"))
    (work / "demo.yaml").write_text(yaml.safe_dump({"papers": ["demo"], "mirror": str(FIXTURES / "demo_mirror")}))
    result = run_snakemake(work, check=False, configfile="demo.yaml")
    assert result.returncode != 0
    assert "sha256 mismatch" in result.stdout + result.stderr
    assert not (work / "data" / "demo" / "parts" / "part_a.tsv").exists()


# ----------------------------------------------------------------- configuration errors


def test_unknown_paper_stops_the_run_naming_the_key(synthetic_only):
    result = run_snakemake(
        synthetic_only, "-n", "--config", "papers=[jayanetti2026,nosuchpaper]", check=False, configfile="synthetic.yaml"
    )
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "config key 'papers'" in said and "nosuchpaper" in said


def test_wrong_type_stops_the_run_naming_the_key(synthetic_only):
    result = run_snakemake(
        synthetic_only, "-n", "--config", "bootstrap={draws: many, seed: 0}", check=False, configfile="synthetic.yaml"
    )
    assert result.returncode != 0
    assert "bootstrap.draws: 'many' is not of type 'integer'" in result.stdout + result.stderr


def test_a_misspelt_key_is_an_error_that_suggests_the_right_one(synthetic_only):
    result = run_snakemake(synthetic_only, "-n", "--config", "mirorr=/tmp", check=False, configfile="synthetic.yaml")
    assert result.returncode != 0
    assert "'mirorr' (did you mean 'mirror'?)" in result.stdout + result.stderr


def test_command_line_numbers_work(synthetic_only):
    result = run_snakemake(
        synthetic_only, "-n", "--config", "bootstrap={draws: 500, seed: 0}", configfile="synthetic.yaml"
    )
    assert result.returncode == 0


def test_no_network_and_no_mirror_ends_in_one_clear_message(tmp_path_factory):
    work = project_copy(tmp_path_factory, "offline")
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    paper = work / "workflow" / "papers" / "demo" / "paper.yaml"
    # a port on this machine that nothing listens on: the same as having no network
    paper.write_text(paper.read_text().replace("https://example.org/", "http://127.0.0.1:9/"))
    (work / "demo.yaml").write_text("papers: [demo]\nmirror: null\n")
    result = run_snakemake(work, check=False, configfile="demo.yaml")
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert said.count("cannot download") == 1 and "Traceback" not in said
    assert "--config mirror=" in said and "reagree mirror" in said
    # the message is the last thing printed: no Snakemake trailer naming a rule file's line
    assert 'File "' not in said and "common.smk" not in said
    assert result.stderr.rstrip().splitlines()[-1].lstrip().startswith("make one:")
    assert not (work / "data").exists()


def test_lint_is_clean(synthetic_only):
    result = run_snakemake(synthetic_only, "--lint", configfile="synthetic.yaml", check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "good condition" in result.stdout + result.stderr


# ----------------------------------------------------------------- inputs checked at use


def test_a_pinned_input_changed_after_fetching_is_fetched_again(demo):
    part = demo / "data" / "demo" / "parts" / "part_a.tsv"
    original = part.read_bytes()
    part.write_bytes(original.splitlines(keepends=True)[0])  # truncated to its header
    result = run_snakemake(demo, configfile=DEMO)
    assert "changed since it was fetched" in result.stderr and "fetching it again" in result.stderr
    assert part.read_bytes() == original
    assert claims(demo, "demo").set_index("key").loc["agreement.a_b.part_a", "status"] == "match"


def test_an_unpinned_input_changed_after_fetching_stops_the_run(demo):
    """Pinned on first use (reagree.pipeline.pins): the run stops, naming the accept command;
    deleting the file fetches the recorded version back."""
    notes = demo / "data" / "demo" / "notes" / "README.txt"
    original = notes.read_bytes()
    notes.write_text("edited by hand\n")
    result = run_snakemake(demo, check=False, configfile=DEMO)
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "data/demo/notes/README.txt changed since it was first fetched" in said
    assert "reagree accept demo notes/README.txt" in said
    assert notes.read_text() == "edited by hand\n"
    notes.unlink()
    run_snakemake(demo, configfile=DEMO)
    assert notes.read_bytes() == original


def test_partial_files_left_by_a_killed_fetch_are_swept(demo):
    stale = demo / "data" / "demo" / "parts" / ".part_a.tsv.part-abc123"
    stale.write_text("half a file")
    result = run_snakemake(demo, "-n", configfile=DEMO)
    assert stale.exists() and "a run removes" in result.stderr  # a dry run changes nothing
    result = run_snakemake(demo, configfile=DEMO)
    assert not stale.exists() and "left by an interrupted fetch" in result.stderr


def test_a_bad_label_is_one_line_naming_file_and_line_without_a_traceback(tmp_path_factory):
    work = project_copy(tmp_path_factory, "badlabel")
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    mirror = work / "mirror"
    shutil.copytree(FIXTURES / "demo_mirror", mirror)
    # part b is not pinned; a blank line before the bad row must not shift its line number
    (mirror / "example.org/demo/v1/part_b.tsv").write_text("item\tA\tB\n1\tpos\tneg\n\n2\tmaybe\tneg\n")
    (work / "demo.yaml").write_text(
        yaml.safe_dump({"papers": ["demo"], "mirror": str(mirror), "demo": {"parts": ["b"]}})
    )
    result = run_snakemake(work, check=False, configfile="demo.yaml")
    assert result.returncode != 0
    said = result.stdout + result.stderr
    assert "part_b.tsv: line 4, column 'A': label 'maybe' is not one of ['neg', 'pos']" in said
    assert "Traceback" not in said
    assert "Traceback" in (work / "logs" / "demo" / "part_b.log").read_text()
    assert not (work / "results" / "demo" / "values" / "part_b.tsv").exists()


def test_make_all_recovers_from_a_killed_run(tmp_path_factory):
    """SIGKILL mid-build leaves Snakemake's lock (and incomplete markers); a plain rerun
    refuses, `make all` clears what is safe to clear and finishes."""
    import os
    import signal
    import subprocess
    import sys
    import time

    venv = Path(sys.prefix)
    if not (venv / ".installed").exists():
        pytest.skip("needs the project's .venv made by `make setup` (run the tests with `make test`)")
    work = project_copy(tmp_path_factory, "killed")
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy2(ROOT / name, work / name)
    # the smallest build that shows it: the demo paper, one part, from the fixture mirror
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    (work / "demo.yaml").write_text(
        yaml.safe_dump(
            {"papers": ["demo"], "datasets": {}, "demo": {"parts": ["a"]}, "mirror": str(FIXTURES / "demo_mirror")}
        )
    )
    build = subprocess.Popen(
        [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "demo.yaml"],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    for _ in range(600):  # until a job has started (its log exists), at most 60 s
        if list((work / "logs").rglob("*.log")) if (work / "logs").exists() else []:
            break
        time.sleep(0.1)
    os.killpg(build.pid, signal.SIGKILL)
    build.wait()
    plain = run_snakemake(work, check=False, configfile="demo.yaml")
    said = (plain.stdout + plain.stderr).lower()
    assert plain.returncode != 0 and ("lock" in said or "incomplete" in said)
    # -o: the environment is this one, ready; make must not reinstall the package from the copy
    recovered = subprocess.run(
        ["make", "-o", f"{venv}/.installed", "all", f"VENV={venv}", "CONFIG=demo.yaml", "CORES=2"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert "pip install" not in recovered.stdout
    assert recovered.returncode == 0, recovered.stdout[-2000:] + recovered.stderr[-2000:]
    assert claims(work, "demo").set_index("key").loc["agreement.a_b.part_a", "status"] == "match"
