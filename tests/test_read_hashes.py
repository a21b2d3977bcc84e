"""Never a finding from an input that moved during the run (issue 22, item 3).

A computing rule hashes each data file in the same read it parses it
(``reagree.io.reads``) and writes those hashes beside its values (``<values>.reads``);
the claims rule holds them against ``inputs.sha256`` and the pins and the record, and the
next run computes again what was computed from moved bytes. Before this, an edit between
``hash_inputs`` and a computing rule gave exit 0, false mismatches and a summary.
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
import time

import pandas as pd
import pytest

from reagree.audit import audit_file
from reagree.io import reads
from reagree.methods import segments
from reagree.pipeline.claims import read_claims
from reagree.pipeline.pins import InputChanged, Inspection, inspect_rule_reads, update_record, verify_rule_reads
from reagree.pipeline.readers import read_label_table
from reagree.pipeline.tables import value_row, write_checksums, write_values
from reagree.stats.annotations import read_annotations

from conftest import GUDEA, OFFLINE, copy_build, run_snakemake


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ================================================================ unit: what a job read

def test_every_reader_remembers_the_sha256_of_the_bytes_it_parsed(tmp_path):
    table = tmp_path / "labels.tsv"
    table.write_text("a\tb\nx\ty\n")
    run = tmp_path / "run.json"
    run.write_text('{"segments": [{"line_start": 1, "line_end": 2, "label": "x"}]}')
    long = tmp_path / "long.csv"
    long.write_text("unit,rater,label\n1,a,x\n1,b,y\n")
    with reads.recording() as ledger:
        read_label_table(table, ["a", "b"])
        segments.read_run(run)
        read_annotations(long, "unit", "rater", "label")
    assert ledger == {str(p): sha(p.read_bytes()) for p in (table, run, long)}


def test_the_values_file_carries_what_its_job_read_and_nothing_outside_a_job(tmp_path):
    data = tmp_path / "data" / "p" / "t.tsv"
    data.parent.mkdir(parents=True)
    data.write_text("a\tb\nx\ty\n")
    values = tmp_path / "values.tsv"
    with reads.recording():
        read_label_table(data, ["a"])
        write_values([value_row("count.a", 1)], values)
    assert (tmp_path / "values.tsv.reads").read_text() == f"{sha(data.read_bytes())}  {data}\n"
    write_values([value_row("count.a", 1)], values)  # outside a job: nothing read, no .reads
    assert not (tmp_path / "values.tsv.reads").exists()


def test_a_file_that_changes_between_two_reads_of_one_job_is_an_error(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("a\tb\nx\ty\n")
    with reads.recording():
        before = reads.sha256_read(path)
        path.write_text("a\tb\nx\tx\n")
        with pytest.raises(reads.ReadChanged, match=f"changed while this job read it: sha256 {before} on its first"):
            read_label_table(path, ["a"])


def test_an_audit_records_the_sha256_of_the_bytes_it_read_and_can_be_run_again_after_an_edit(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("unit,rater,label\n1,a,x\n1,b,y\n2,a,x\n2,b,x\n")
    assert audit_file(path, draws=0, show_progress=False)["sha256"] == sha(path.read_bytes())
    path.write_text("unit,rater,label\n1,a,x\n1,b,x\n2,a,x\n2,b,x\n")
    assert audit_file(path, draws=0, show_progress=False)["sha256"] == sha(path.read_bytes())


# ================================================================ unit: the claims rule and the next start

@pytest.fixture
def moved(tmp_path):
    """The issue's state: hash_inputs and the record saw the old bytes, the computing rule
    read the new ones."""
    data = tmp_path / "data"
    path = data / "p" / "run.tsv"
    path.parent.mkdir(parents=True)
    path.write_text("a\tb\nx\ty\n")
    old = sha(path.read_bytes())
    update_record("p", {"run.tsv": old}, data)
    checksums = tmp_path / "inputs.sha256"
    write_checksums([path], checksums)
    path.write_text("a\tb\nx\tx\n")
    new = sha(path.read_bytes())
    values = tmp_path / "results" / "p" / "values" / "v.tsv"
    with reads.recording():
        read_label_table(path, ["a"])
        write_values([value_row("count.a", 1)], values)
    return tmp_path, data, path, values, checksums, old, new


def test_the_claims_rule_refuses_numbers_computed_from_bytes_that_moved(moved):
    tmp_path, data, path, values, checksums, old, new = moved
    with pytest.raises(InputChanged) as info:
        verify_rule_reads("p", [str(values)], checksums, {}, data)
    assert str(info.value) == (
        "p: no claim is written from numbers computed from bytes that are not the pinned or recorded ones:\n"
        f"- {path}: {values} was computed from its bytes with sha256 {new}, but the sha256 recorded in "
        f"{data / 'p.sha256'} is {old}: the file changed while the run read it. Run again (make all): the start of "
        f"the run checks {path} against its pin or record and computes {values} again")
    # a pin is held the same way; and what hash_inputs saw, when no pin or record says otherwise
    with pytest.raises(InputChanged, match=f"but its pinned sha256 \\(paper.yaml\\) is {old}"):
        verify_rule_reads("p", [str(values)], checksums, {"run.tsv": old}, data)
    (data / "p.sha256").unlink()
    with pytest.raises(InputChanged, match=f"but hash_inputs hashed it as {old}"):
        verify_rule_reads("p", [str(values)], checksums, {}, data)
    verify_rule_reads("p", [str(values)], None, {}, data)  # nothing says what the bytes should be


def test_the_next_start_computes_again_what_read_moved_bytes(moved):
    """Once the file has its recorded bytes again it is touched, so what read it reruns."""
    tmp_path, data, path, values, checksums, old, new = moved
    found = inspect_rule_reads("p", [{"name": "run.tsv"}], act=True, results=tmp_path / "results", data=data)
    assert found.notes == []  # the file still differs: inspect_inputs stops the run, nothing is touched here
    path.write_text("a\tb\nx\ty\n")
    os.utime(path, (1, 1))
    found = inspect_rule_reads("p", [{"name": "run.tsv"}], act=False, results=tmp_path / "results", data=data)
    assert found.notes == [f"{values} was computed from {path} with sha256 {new}, but the sha256 recorded in "
                           f"{data / 'p.sha256'} is {old}; a run computes again what read it (this dry run changes "
                           "nothing)"]
    assert path.stat().st_mtime == 1
    found = inspect_rule_reads("p", [{"name": "run.tsv"}], act=True, results=tmp_path / "results", data=data,
                               found=Inspection())
    assert found.notes[0].endswith("; computing again what read it") and not found.problems
    assert path.stat().st_mtime > values.stat().st_mtime - 1  # newer than what read it


def test_a_values_file_lost_after_gathering_is_refused(moved):
    tmp_path, data, path, values, checksums, old, new = moved
    values.unlink()
    with pytest.raises(InputChanged, match="v.tsv is missing: the numbers it gave values.tsv cannot be traced"):
        verify_rule_reads("p", [str(values)], checksums, {}, data)


# ================================================================ end to end: an edit while the run is under way

RUN = "data/shvets2026/gudea/opus_run1.json"


def edit_after(work, trigger, path, data, started, done):
    """Write ``data`` to ``path`` as soon as ``trigger`` is written after ``started``."""
    deadline = time.time() + 300
    while time.time() < deadline:
        if (work / trigger).exists() and (work / trigger).stat().st_mtime > started:
            (work / path).write_bytes(data)
            done.set()
            return
        time.sleep(0.01)


def test_an_input_edited_between_hash_inputs_and_a_computing_rule_gives_no_finding(gudea_build, tmp_path_factory):
    """The issue's case on its smallest input: one run file of the one-myth shvets2026 build
    is edited right after hash_inputs hashed it and before pair_shvets2026_runs reads it
    (--cores 1, hash_inputs first, a job at most every 3 s). Before: exit 0 with false
    mismatches, inputs.sha256 holding the old hash. Now: the claims rule refuses naming the
    file, no summary stands, and the next runs stop at the changed file, then (its bytes put
    back, modification time and all) compute again what read the moved bytes."""
    work = copy_build(gudea_build, tmp_path_factory, "moved")
    claims_before = read_claims(work / "results" / "shvets2026" / "claims.tsv")
    run = work / RUN
    original, stat = run.read_bytes(), run.stat()
    assert original.count(b'"line_start": 10,') == 1
    edited = original.replace(b'"line_start": 10,', b'"line_start": 11,')
    done = threading.Event()
    watcher = threading.Thread(target=edit_after, args=(work, "results/shvets2026/inputs.sha256", RUN, edited,
                                                        time.time(), done))
    watcher.start()
    result = run_snakemake(work, "--forcerun", "hash_inputs", "pair_shvets2026_runs", "--prioritize",
                           "results/shvets2026/inputs.sha256", "--max-jobs-per-timespan", "1/3s", check=False,
                           configfile=GUDEA, cores=1)
    watcher.join()
    said = result.stdout + result.stderr
    assert done.is_set(), said[-3000:]
    assert result.returncode != 0, said[-3000:]
    old, new = sha(original), sha(edited)
    assert f"{old}  {RUN}" in (work / "results" / "shvets2026" / "inputs.sha256").read_text()  # hashed before the edit
    assert (f"- {RUN}: results/shvets2026/values/pairs_gudea.tsv was computed from its bytes with sha256 {new}, but "
            f"the sha256 recorded in data/shvets2026.sha256 is {old}: the file changed while the run read it") in said
    for verdict in ("summary.md", "summary.tsv", "shvets2026/claims.tsv"):
        assert not (work / "results" / verdict).exists(), verdict

    # the next run stops at the changed file, before any job
    result = run_snakemake(work, check=False, configfile=GUDEA)
    assert result.returncode != 0
    assert f"reagree: {RUN} changed since it was first fetched: its sha256 is {new}" in result.stdout + result.stderr

    # its bytes put back as they were, modification time included: what read the moved bytes is computed again
    run.write_bytes(original)
    os.utime(run, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    result = run_snakemake(work, configfile=GUDEA)
    said = result.stdout + result.stderr
    assert ("reagree: results/shvets2026/values/pairs_gudea.tsv was computed from data/shvets2026/gudea/opus_run1.json"
            f" with sha256 {new}, but the sha256 recorded in data/shvets2026.sha256 is {old}; computing again what "
            "read it") in said
    assert "pair_shvets2026_runs" in said
    after = read_claims(work / "results" / "shvets2026" / "claims.tsv")
    pd.testing.assert_frame_equal(after, claims_before)
    assert (work / "results" / "summary.md").is_file()


# ================================================================ every read of a paper is covered

def planned_jobs(work) -> list[dict[str, list[str]]]:
    """Every job of a build as a dry run with --forceall plans it: its inputs and outputs."""
    plan = run_snakemake(work, "-n", "--forceall", configfile=OFFLINE).stdout
    jobs = []
    for block in re.split(r"\n(?=(?:local)?rule \w+:\n)", plan):
        fields = dict(re.findall(r"^    (input|output): (.*)$", block, flags=re.M))
        if fields:
            jobs.append({name: fields.get(name, "").split(", ") for name in ("input", "output")})
    return jobs


def test_every_job_lists_each_data_file_it_computed_from_with_the_hash_it_read(offline_build):
    """Every job that reads a paper's data and writes values or variants goes through the
    one reader that hashes what it parses: its .reads names exactly its data inputs, each
    with the sha256 hash_inputs recorded; no job reads data it does not declare."""
    hashed = {}
    for checksums in (offline_build / "results").glob("*/inputs.sha256"):
        hashed.update({line.split("  ")[1]: line.split("  ")[0] for line in checksums.read_text().splitlines()})
    checked = 0
    for job in planned_jobs(offline_build):
        data = {path for path in job["input"] if path.startswith("data/")}
        computed = [path for path in job["output"] if re.search(r"/(values|variants)(/[^/]+)?\.tsv$", path)]
        for output in computed:
            sidecar = offline_build / f"{output}.reads"
            read = reads.load_reads(sidecar) if sidecar.is_file() else {}
            assert set(read) == data, (output, sorted(set(read) ^ data)[:5])
            assert all(hashed[path] == digest for path, digest in read.items()), output
            checked += bool(data)
    assert checked >= 10  # every paper's computing jobs (pairs, scores, counts, variants), not a vacuous pass
