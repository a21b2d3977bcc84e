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
from shvets2026 import segments
from reagree.pipeline.claims import read_claims
from reagree.pipeline.pins import InputChanged, Inspection, inspect_rule_reads, update_record, verify_rule_reads
from reagree.pipeline.readers import read_label_table
from reagree.pipeline.tables import value_row, write_checksums, write_values
from reagree.io.annotations import read_annotations

from conftest import DEMO, OFFLINE, copy_build, run_snakemake


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
        segments.read_run(run, "line")
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
        f"the run checks {path} against its pin or record and computes {values} again"
    )
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
    assert found.notes == [
        f"{values} was computed from {path} with sha256 {new}, but the sha256 recorded in "
        f"{data / 'p.sha256'} is {old}; a run computes again what read it (this dry run changes "
        "nothing)"
    ]
    assert path.stat().st_mtime == 1
    found = inspect_rule_reads(
        "p", [{"name": "run.tsv"}], act=True, results=tmp_path / "results", data=data, found=Inspection()
    )
    assert found.notes[0].endswith("; computing again what read it") and not found.problems
    assert path.stat().st_mtime > values.stat().st_mtime - 1  # newer than what read it


def test_a_values_file_lost_after_gathering_is_refused(moved):
    tmp_path, data, path, values, checksums, old, new = moved
    values.unlink()
    with pytest.raises(InputChanged, match="v.tsv is missing: the numbers it gave values.tsv cannot be traced"):
        verify_rule_reads("p", [str(values)], checksums, {}, data)


# ================================================================ end to end: an edit while the run is under way

PART = "data/demo/parts/part_c.tsv"  # unpinned: recorded at its first fetch
CLAIMS = "results/demo/claims.tsv"


def edit_after(work, trigger, path, data, started, done, stop):
    """Write ``data`` to ``path`` as soon as ``trigger`` is written after ``started``."""
    while not stop.is_set():
        if (work / trigger).exists() and (work / trigger).stat().st_mtime > started:
            (work / path).write_bytes(data)
            done.set()
            return
        time.sleep(0.01)


def test_an_input_edited_between_hash_inputs_and_a_computing_rule_gives_no_finding(demo_build, tmp_path_factory):
    """The issue's case (212 match and 6 false mismatches on shvets2026, exit 0) on the
    smallest build: part c of the demo paper is edited right after hash_inputs hashed it
    and before compute_demo_values reads it (--cores 1, hash_inputs first, a job at most
    every second). Before: exit 0, claims from the edited part, inputs.sha256 with the old
    hash. Now: the claims rule refuses naming the file, and no claims stand; with its
    bytes put back (modification time and all) the next run computes again what read the
    moved bytes, and the claims are the build's."""
    work = copy_build(demo_build, tmp_path_factory, "moved")
    claims_before = read_claims(work / CLAIMS)
    summary_before = (work / "results" / "summary.md").read_bytes()
    part = work / PART
    original, stat = part.read_bytes(), part.stat()
    edited = original.replace(b"4\tpos\tneg", b"4\tpos\tpos")
    assert edited != original
    done, stop = threading.Event(), threading.Event()
    watcher = threading.Thread(
        target=edit_after, args=(work, "results/demo/inputs.sha256", PART, edited, time.time(), done, stop)
    )
    watcher.start()
    try:  # the target last, after an option of one value (--forcerun and --prioritize take several)
        result = run_snakemake(
            work,
            "--forcerun",
            "hash_inputs",
            "compute_demo_values",
            "--prioritize",
            "results/demo/inputs.sha256",
            "--max-jobs-per-timespan",
            "1/1s",
            CLAIMS,
            check=False,
            configfile=DEMO,
            cores=1,
        )
    finally:
        stop.set()
        watcher.join()
    said = result.stdout + result.stderr
    assert done.is_set(), said[-3000:]
    assert result.returncode != 0, said[-3000:]
    old, new = sha(original), sha(edited)
    assert f"{old}  {PART}" in (work / "results" / "demo" / "inputs.sha256").read_text()  # hashed before the edit
    assert (
        f"- {PART}: results/demo/values/part_c.tsv was computed from its bytes with sha256 {new}, but the sha256 "
        f"recorded in data/demo.sha256 is {old}: the file changed while the run read it"
    ) in said
    assert not (work / CLAIMS).exists()  # withdrawn when the run started, and not written from the moved bytes
    assert (work / "results" / "summary.md").read_bytes() == summary_before  # the build's, not rebuilt

    # (the next run stops at the changed file before any job: tests/guarantees/test_pinned_inputs.py) its bytes put back as they were, modification time included: what read the moved bytes is computed again
    part.write_bytes(original)
    os.utime(part, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    result = run_snakemake(work, "--cores", "2", CLAIMS, configfile=DEMO)
    said = result.stdout + result.stderr
    assert (
        f"reagree: results/demo/values/part_c.tsv was computed from {PART} with sha256 {new}, but the sha256 "
        f"recorded in data/demo.sha256 is {old}; computing again what read it"
    ) in said
    assert "rule compute_demo_values" in said
    pd.testing.assert_frame_equal(read_claims(work / CLAIMS), claims_before)


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
