"""Never a finding from changed input: unpinned sources are pinned on first use, a changed
input stops the run, `reagree accept` takes a new version; and the run itself is safe
(one run per folder, a dry run changes nothing, make all clears only a dead run's lock).

The shvets2026 build reads a copy of the offline mirror (skipped, saying how, where none
is found; CI always has one); everything else uses the demo paper's fixture mirror or
no data at all.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from reagree.cli import main as reagree
from reagree.pipeline.claims import read_claims
from reagree.pipeline.fetch import FetchError, mirror_path
from reagree.pipeline.pins import InputChanged, fetch_entry, inspect_inputs, read_record, verify_read_inputs

from conftest import FIXTURES, ROOT, copy_build, prepare_gudea, project_copy, run_snakemake


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def said(result) -> str:
    return result.stdout + result.stderr


# ================================================================ unit: the record, the fetch rule, the claims check

ENTRY = {"name": "{part}.tsv", "url": "https://example.org/p/{part}.tsv", "expand": {"part": ["a", "b"]}}


@pytest.fixture
def small(tmp_path):
    mirror = tmp_path / "mirror"
    for part in "ab":
        path = mirror_path(f"https://example.org/p/{part}.tsv", mirror)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"item\tA\n1\t{part}\n")
    return tmp_path, mirror


def fetch_small(tmp_path, mirror, outputs, entry=ENTRY):
    return fetch_entry(
        "p",
        entry,
        {},
        [str(tmp_path / "data" / "p" / o) for o in outputs],
        mirror=str(mirror),
        timeout=5,
        retries=1,
        log=lambda s: None,
        data=tmp_path / "data",
    )


def test_the_first_fetch_records_the_sha256_of_unpinned_files(small):
    tmp_path, mirror = small
    digests = fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"])
    a, b = (sha(f"item\tA\n1\t{p}\n".encode()) for p in "ab")
    assert digests == {"a.tsv": a, "b.tsv": b}
    assert (tmp_path / "data" / "p.sha256").read_text() == f"{a}  p/a.tsv\n{b}  p/b.tsv\n"
    # `sha256sum -c` reads it from data/
    check = subprocess.run(["sha256sum", "-c", "p.sha256"], cwd=tmp_path / "data", capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_later_fetch_of_other_bytes_is_refused_naming_both_hashes_and_the_accept_command(small):
    tmp_path, mirror = small
    fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"])
    record = (tmp_path / "data" / "p.sha256").read_text()
    old = sha(b"item\tA\n1\tb\n")
    source = mirror_path("https://example.org/p/b.tsv", mirror)
    source.write_text("item\tA\n1\tB\n")
    new = sha(b"item\tA\n1\tB\n")
    (tmp_path / "data" / "p" / "b.tsv").unlink()
    with pytest.raises(InputChanged) as info:
        fetch_small(tmp_path, mirror, ["b.tsv"])
    data = tmp_path / "data"
    assert str(info.value) == (
        f"{data}/p/b.tsv: its source now has sha256 {new}, not the {old} recorded when it was first fetched "
        f"({data}/p.sha256); source: https://example.org/p/b.tsv (mirror file {source}). reagree does not compute "
        f"from a changed input. To take the new version: reagree accept p b.tsv {new}"
    )
    assert not (data / "p" / "b.tsv").exists()
    assert (data / "p.sha256").read_text() == record
    assert not [p for p in (data / "p").iterdir() if ".part" in p.name]


def test_a_pinned_file_is_held_to_its_pin_and_not_recorded(small):
    tmp_path, mirror = small
    entry = dict(ENTRY, sha256={"a.tsv": "0" * 64})
    with pytest.raises(FetchError) as info:
        fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"], entry)
    source = mirror_path("https://example.org/p/a.tsv", mirror)
    assert str(info.value) == (
        f"sha256 mismatch for https://example.org/p/a.tsv (mirror file {source}): "
        f"expected {'0' * 64}, got {sha(source.read_bytes())}"
    )
    assert not (tmp_path / "data" / "p" / "b.tsv").exists()  # the entry lands whole or not at all
    assert read_record("p", tmp_path / "data") == {}


def test_a_file_changed_on_disk_is_a_problem_and_a_dry_inspection_changes_nothing(small):
    tmp_path, mirror = small
    fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"])
    data = tmp_path / "data"
    (data / "p" / "a.tsv").write_text("edited\n")
    sources = [
        {"name": "a.tsv", "url": "https://example.org/p/a.tsv", "sha256": None},
        {"name": "b.tsv", "url": "https://example.org/p/b.tsv", "sha256": sha(b"item\tA\n1\tb\n")[::-1]},
    ]
    before = {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    found = inspect_inputs("p", sources, act=False, data=data)
    assert {p: p.read_bytes() for p in data.rglob("*") if p.is_file()} == before
    old, new = sha(b"item\tA\n1\ta\n"), sha(b"edited\n")
    assert found.message() == (
        f"{data}/p/a.tsv changed since it was first fetched: its sha256 is {new}, the one recorded in "
        f"{data}/p.sha256 is {old}. reagree does not compute from a changed input. To use the file as it is now: "
        f"reagree accept p a.tsv {new} (to get the recorded version back instead: delete {data}/p/a.tsv and run "
        "again)"
    )
    actual_b = sha(b"item\tA\n1\tb\n")
    pin = actual_b[::-1]
    assert found.notes == [
        f"{data}/p/b.tsv changed since it was fetched: sha256 {actual_b}, its "
        f"pinned sha256 is {pin}; a run fetches it again (this dry run changes nothing)"
    ]
    inspect_inputs("p", sources, act=True, data=data)
    assert not (data / "p" / "b.tsv").exists() and (data / "p" / "a.tsv").read_text() == "edited\n"


def test_files_fetched_before_the_record_existed_are_moved_into_it(tmp_path):
    """reagree's older records beside the files are moved into the record; a file with
    no record at all is fetched again (tests/guarantees/test_what_reagree_refuses.py), never recorded as it is."""
    data = tmp_path / "data"
    (data / "p").mkdir(parents=True)
    (data / "p" / "a.tsv").write_text("edited\n")
    (data / "p" / ".a.tsv.sha256").write_text(sha(b"original\n") + "\n")  # reagree's older record
    (data / "p" / "b.tsv").write_text("b\n")
    (data / "p" / ".b.tsv.sha256").write_text(sha(b"b\n") + "\n")
    (data / "p" / "c.tsv").write_text("c\n")
    sources = [{"name": f"{part}.tsv", "url": f"https://example.org/p/{part}.tsv", "sha256": None} for part in "abc"]
    found = inspect_inputs("p", sources, act=True, data=data)
    assert "a.tsv changed since it was first fetched" in found.message()
    assert read_record("p", data) == {"b.tsv": sha(b"b\n")}
    assert not (data / "p" / ".b.tsv.sha256").exists() and not (data / "p" / "c.tsv").exists()


def test_the_claims_rule_refuses_inputs_whose_hash_is_not_the_recorded_one(small):
    tmp_path, mirror = small
    fetch_small(tmp_path, mirror, ["a.tsv", "b.tsv"])
    data = tmp_path / "data"
    recorded = read_record("p", data)
    read = tmp_path / "inputs.sha256"
    read.write_text(f"{recorded['a.tsv']}  {data}/p/a.tsv\n{'1' * 64}  {data}/p/b.tsv\n")
    with pytest.raises(InputChanged) as info:
        verify_read_inputs("p", read, {}, data)
    assert str(info.value) == (
        f"p: no claim is written from inputs whose bytes are not the pinned or recorded ones ({read}):\n"
        f"- {data}/p/b.tsv changed since it was first fetched: its sha256 is {'1' * 64}, the one recorded in "
        f"{data}/p.sha256 is {recorded['b.tsv']}. reagree does not compute from a changed input. To use the file as "
        f"it is now: reagree accept p b.tsv {'1' * 64} (to get the recorded version back instead: delete "
        f"{data}/p/b.tsv and run again)"
    )
    read.write_text(f"{recorded['a.tsv']}  {data}/p/a.tsv\n{recorded['b.tsv']}  {data}/p/b.tsv\n")
    verify_read_inputs("p", read, {}, data)  # the recorded bytes: no complaint
    with pytest.raises(InputChanged, match=r"a.tsv was read with sha256 \w+, but its pinned sha256 is 0{64}"):
        verify_read_inputs("p", read, {"a.tsv": "0" * 64}, data)


def test_the_claims_rule_checks_the_inputs_before_writing():
    """The wiring: rule diff_claims takes results/<paper>/inputs.sha256, its script checks it first."""
    rule = (ROOT / "workflow" / "rules" / "claims.smk").read_text()
    assert 'inputs=lambda wildcards: [f"results/{wildcards.paper}/inputs.sha256"]' in rule
    script = (ROOT / "scripts" / "diff_claims.py").read_text()
    assert script.index("verify_read_inputs(") < script.index("write_tsv(")


def test_reagree_accept_records_the_new_version_and_refuses_a_pinned_file(tmp_path, capsys):
    root = tmp_path
    shutil.copytree(FIXTURES / "demo_paper", root / "workflow" / "papers" / "demo")
    (root / "data" / "demo" / "notes").mkdir(parents=True)
    notes = root / "data" / "demo" / "notes" / "README.txt"
    notes.write_text("as it is now\n")
    (root / "data" / "demo.sha256").write_text(f"{'a' * 64}  demo/notes/README.txt\n")
    os.utime(notes, (1, 1))
    assert reagree(["accept", "demo", "notes/README.txt", "--root", str(root)]) == 0
    accepted = sha(b"as it is now\n")
    assert capsys.readouterr().out == (
        f"{notes}: recorded sha256 {accepted} (the file as it is); what read it is rebuilt by the next run\n"
    )
    assert read_record("demo", root / "data") == {"notes/README.txt": sha(b"as it is now\n")}
    assert notes.stat().st_mtime > 1  # newer than everything that read it
    assert reagree(["accept", "demo", "notes/README.txt", "b" * 64, "--root", str(root)]) == 0
    assert not notes.exists()  # other bytes than the accepted ones: fetched again by the next run
    assert reagree(["accept", "demo", "parts/part_a.tsv", "--root", str(root)]) == 2
    assert "demo/parts/part_a.tsv is pinned in paper.yaml" in capsys.readouterr().err


# ================================================================ end to end: shvets2026 on a copy of the mirror

RUN_FILE = "gudea/opus_run1.json"
# The claims and, as in the default target, the inputs (a deleted input is fetched again
# only when it is a target); figures and report are not the point. The targets go before
# --configfile, which would take them for config files.
GUDEA_FINDINGS = {"gap_difference.human_minus_gemini.gudea", "rank.gap.human.gudea", "median_segments.all.gudea"}
GUDEA = ("results/shvets2026/claims.tsv", f"data/shvets2026/{RUN_FILE}", "--configfile", "gudea.yaml")
RUN_URL = (
    "https://raw.githubusercontent.com/Malificenta883/intra-annotator-dynamics/"
    "5241a8bc2cb91b3ad39c0b79f26679427fd75491/data/gudea/opus_run1.json"
)


@pytest.fixture(scope="module")
def gudea(gudea_build, tmp_path_factory, mirror):
    """shvets2026 on its smallest input (one myth): a copy of the session's build, reading a
    copy of the mirror that the tests change (the mirror is no param of a fetch job, so
    pointing at the copy reruns nothing)."""
    work = copy_build(gudea_build, tmp_path_factory, "tofu")
    copy = work / "mirror"
    shutil.copytree(mirror, copy)
    prepare_gudea(work, copy)
    assert "Nothing to be done" in run_snakemake(work, "-n", *GUDEA).stdout
    table = read_claims(work / "results" / "shvets2026" / "claims.tsv").set_index("key")
    assert table.loc["kappa_boundary.opus.gudea", "status"] == "match"
    return work


def test_a_run_file_edited_on_disk_stops_the_run_naming_both_hashes(gudea):
    run = gudea / "data" / "shvets2026" / "gudea" / "human1_run2.json"
    original = run.read_bytes()
    run.write_bytes(original + b"\n")
    try:
        result = run_snakemake(gudea, "-n", *GUDEA, check=False)
        assert result.returncode != 0
        new, old = sha(original + b"\n"), sha(original)
        assert (
            f"reagree: data/shvets2026/gudea/human1_run2.json changed since it was first fetched: its sha256 is "
            f"{new}, the one recorded in data/shvets2026.sha256 is {old}. reagree does not compute from a changed "
            f"input. To use the file as it is now: reagree accept shvets2026 gudea/human1_run2.json {new} (to get "
            "the recorded version back instead: delete data/shvets2026/gudea/human1_run2.json and run again)"
        ) in said(result)
        assert run.read_bytes() == original + b"\n"  # nothing removed, nothing fetched
    finally:
        run.write_bytes(original)


def test_a_source_changed_upstream_stops_the_run_instead_of_making_findings(gudea):
    """The issue's case: one byte of an unpinned run file changes at its source (line_start
    10 -> 11), the data file is deleted, the build runs again."""
    source = mirror_path(RUN_URL, gudea / "mirror")
    original = source.read_bytes()
    assert original.count(b'"line_start": 10,') == 1
    source.write_bytes(original.replace(b'"line_start": 10,', b'"line_start": 11,'))
    data_file = gudea / "data" / "shvets2026" / RUN_FILE
    old = sha(data_file.read_bytes())
    data_file.unlink()
    claims_before = (gudea / "results" / "shvets2026" / "claims.tsv").read_bytes()
    result = run_snakemake(gudea, *GUDEA, check=False)
    assert result.returncode != 0
    new = sha(source.read_bytes())
    assert (
        f"reagree: data/shvets2026/{RUN_FILE}: its source now has sha256 {new}, not the {old} recorded when it "
        f"was first fetched (data/shvets2026.sha256); source: {RUN_URL} (mirror file {source}). reagree does not "
        f"compute from a changed input. To take the new version: reagree accept shvets2026 {RUN_FILE} {new}"
    ) in said(result)
    assert not data_file.exists()
    assert (gudea / "results" / "shvets2026" / "claims.tsv").read_bytes() == claims_before
    table = read_claims(gudea / "results" / "shvets2026" / "claims.tsv")
    # only the replication's own Gudea findings (tests/papers/shvets2026/test_shvets_build.py FINDINGS), none from the change
    assert set(table.loc[table["status"] == "mismatch", "key"]) == GUDEA_FINDINGS


def test_accepting_the_new_version_rebuilds_everything_that_read_it(gudea, capsys):
    source = mirror_path(RUN_URL, gudea / "mirror")
    # The change of the test above, made here when that test ran on another pytest-xdist
    # worker (each worker builds its own module-scoped ``gudea``): the source changed, the
    # data file gone.
    if b'"line_start": 10,' in source.read_bytes():
        source.write_bytes(source.read_bytes().replace(b'"line_start": 10,', b'"line_start": 11,'))
        (gudea / "data" / "shvets2026" / RUN_FILE).unlink()
    new = sha(source.read_bytes())
    assert reagree(["accept", "shvets2026", RUN_FILE, new, "--root", str(gudea)]) == 0
    assert read_record("shvets2026", gudea / "data")[RUN_FILE] == new
    result = run_snakemake(gudea, *GUDEA)
    assert "localrule pair_shvets2026_runs:" in said(result)
    assert sha((gudea / "data" / "shvets2026" / RUN_FILE).read_bytes()) == new
    table = read_claims(gudea / "results" / "shvets2026" / "claims.tsv").set_index("key")
    # the changed line moves one boundary: the accepted input is what the numbers now come from
    assert table.loc["kappa_boundary.opus.gudea", "computed"] == pytest.approx(0.676438, abs=1e-6)
    assert "Nothing to be done" in run_snakemake(gudea, "-n", *GUDEA).stdout


# ================================================================ end to end: the demo paper (no mirror needed)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    work = project_copy(tmp_path_factory, "safety-demo")
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    (work / "demo.yaml").write_text(
        yaml.safe_dump(
            {"papers": ["demo"], "mirror": str(FIXTURES / "demo_mirror"), "datasets": {}, "demo": {"parts": ["a", "c"]}}
        )
    )
    plan = run_snakemake(work, "-n", configfile="demo.yaml").stdout
    # one fetch job per source entry of paper.yaml: the templated parts, then the notes
    assert plan.count("rule fetch_source_") == 2
    assert "output: data/demo/parts/part_a.tsv, data/demo/parts/part_c.tsv" in plan
    assert "output: data/demo/notes/README.txt" in plan
    run_snakemake(work, configfile="demo.yaml")
    return work


def tree(work: Path) -> dict[str, tuple[int, int, str]]:
    """Every file under data/, results/ and logs/: size, mtime, sha256."""
    return {
        str(p.relative_to(work)): (p.stat().st_size, p.stat().st_mtime_ns, sha(p.read_bytes()))
        for folder in ("data", "results", "logs")
        for p in (work / folder).rglob("*")
        if p.is_file()
    }


def test_deleting_one_file_of_an_entry_fetches_only_that_file(demo):
    (demo / "data" / "demo" / "parts" / "part_c.tsv").unlink()
    plan = run_snakemake(demo, "-n", configfile="demo.yaml").stdout
    assert plan.count("rule fetch_source_") == 1 and "output: data/demo/parts/part_c.tsv\n" in plan
    assert "compute_demo_values" in plan and "part=a" not in plan  # only what read part c
    run_snakemake(demo, configfile="demo.yaml")
    plan = run_snakemake(demo, "-n", "--config", "demo={parts: [a, b, c]}", configfile="demo.yaml").stdout
    assert plan.count("rule fetch_source_") == 1 and "output: data/demo/parts/part_b.tsv\n" in plan
    assert "Nothing to be done" in run_snakemake(demo, "-n", configfile="demo.yaml").stdout


def test_a_dry_run_and_an_unlock_change_nothing_on_disk(demo):
    part = demo / "data" / "demo" / "parts" / "part_a.tsv"
    original = part.read_bytes()
    part.write_bytes(original + b"3\tpos\tneg\n")
    stale = demo / "data" / "demo" / "parts" / ".part_c.tsv.part-abc123"
    stale.write_text("half a file")
    before = tree(demo)
    dry = run_snakemake(demo, "-n", configfile="demo.yaml")
    pin = "68d0ffaa23e8f100a079e36128d9014dcc431f5fb76ba1f8aa7fb8912c7d7b9f"
    changed = sha(original + b"3\tpos\tneg\n")
    assert (
        f"reagree: data/demo/parts/part_a.tsv changed since it was fetched: sha256 "
        f"{changed}, its pinned sha256 is {pin}; a run fetches it again (this dry run "
        "changes nothing)"
    ) in said(dry)
    assert f"reagree: a run removes {stale.relative_to(demo)}, left by an interrupted fetch" in said(dry)
    assert tree(demo) == before
    run_snakemake(demo, "--unlock", configfile="demo.yaml")
    assert tree(demo) == before
    # a run does what the dry run said
    result = run_snakemake(demo, configfile="demo.yaml")
    assert "changed since it was fetched" in said(result) and "fetching it again" in said(result)
    assert part.read_bytes() == original and not stale.exists()


def hold_run_lock(work: Path) -> subprocess.Popen:
    """A process that holds the folder's run lock, as a run in progress does."""
    code = (
        "import sys, time; from reagree.pipeline.runs import RunLock; RunLock().acquire(); "
        "print('held', flush=True); time.sleep(120)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=work,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_a_second_run_stops_before_touching_anything_while_one_is_alive(demo):
    stale = demo / "data" / "demo" / "parts" / ".part_a.tsv.part-xyz"  # what a live fetch is writing
    stale.write_text("being written")
    holder = hold_run_lock(demo)
    try:
        result = run_snakemake(demo, check=False, configfile="demo.yaml")
        assert result.returncode != 0
        assert (f"reagree: another run of this folder is alive (pid {holder.pid}, started ") in said(result)
        assert "wait for it to finish (or stop it) before starting this run" in said(result)
        assert stale.exists()
    finally:
        holder.kill()
        holder.wait()
        stale.unlink()


def test_the_make_all_step_clears_only_a_dead_runs_lock(demo, capsys):
    from reagree.pipeline.runs import main as prepare

    locks = demo / ".snakemake" / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    (locks / "0.input.lock").write_text("data/demo/parts/part_a.tsv\n")  # as an interrupted run leaves it
    holder = hold_run_lock(demo)
    alive = (demo / ".snakemake" / "reagree-run.lock").read_text().strip()  # "pid N, started T"
    assert alive.startswith(f"pid {holder.pid}, started ")
    cwd = os.getcwd()
    os.chdir(demo)
    try:
        assert prepare(["demo.yaml"]) == 1
        assert capsys.readouterr().err == (
            f"reagree: another run of this folder is alive ({alive}); wait for it "
            "to finish (or stop it) before starting this make all\n"
        )
        assert (locks / "0.input.lock").exists()
        holder.kill()
        holder.wait()
        assert prepare(["demo.yaml"]) == 0
        assert capsys.readouterr().err == (
            f"reagree: the last run ({alive}) ended without finishing and no run of "
            "this folder is alive: cleared the lock it left (as snakemake --unlock "
            "does)\n"
        )
        assert not locks.exists()
        assert prepare(["demo.yaml"]) == 0 and capsys.readouterr().err == ""  # nothing left to clear
    finally:
        os.chdir(cwd)
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def _make(work: Path, config: str):
    venv = Path(sys.prefix)
    if not (venv / ".installed").exists():
        pytest.skip("needs the project's .venv made by `make setup` (run the tests with `make test`)")
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy2(ROOT / name, work / name)
    return subprocess.run(
        ["make", "-o", f"{venv}/.installed", "all", f"VENV={venv}", f"CONFIG={config}", "CORES=2"],
        cwd=work,
        capture_output=True,
        text=True,
    )


def test_make_all_shows_that_a_pinned_input_changed_and_fetches_it_again(demo):
    part = demo / "data" / "demo" / "parts" / "part_a.tsv"
    original = part.read_bytes()
    part.write_bytes(original[:-1])
    result = _make(demo, "demo.yaml")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (
        f"reagree: data/demo/parts/part_a.tsv changed since it was fetched: sha256 {sha(original[:-1])}, its "
        "pinned sha256 is 68d0ffaa23e8f100a079e36128d9014dcc431f5fb76ba1f8aa7fb8912c7d7b9f; fetching it again"
    ) in said(result)
    assert part.read_bytes() == original


def test_make_all_refuses_a_config_file_that_is_not_utf8_in_one_line(demo):
    (demo / "latin1.yaml").write_bytes("papers: [demo]\n# d\xe9mo\n".encode("latin-1"))
    result = _make(demo, "latin1.yaml")
    assert result.returncode != 0
    assert "reagree: latin1.yaml: not UTF-8 text (invalid continuation byte at byte 18)" in said(result)
    assert "Traceback" not in result.stdout + result.stderr
