"""A run is alive while any of its jobs is (issue 22, item 16): `snakemake -n` during a
live run says so in one line (it raised IncompleteFilesException on the live run's
half-done outputs), and after only Snakemake's own process was killed, the jobs it
started and left running (rule scripts, `.snakemake/scripts/...`, still writing results)
keep `make all` and a new run from starting, naming their process ids.

The live run is a process holding the folder's run lock, as in tests/guarantees/test_pinned_inputs.py;
the orphaned job is a process running a script from `.snakemake/scripts/` in the folder,
as Snakemake starts a rule script.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import yaml

from reagree.pipeline.runs import RunAlive, RunLock, main as prepare, orphaned_jobs

from conftest import ROOT, project_copy, run_snakemake

CONFIG = "plan.yaml"


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """The project with the paper that needs no data; nothing is built, only planned."""
    work = project_copy(tmp_path_factory, "orphans")
    (work / CONFIG).write_text(
        yaml.safe_dump({"papers": ["agreement_before_accuracy"], "mirror": None, "datasets": {}})
    )
    return work


def start(command: list[str], work) -> subprocess.Popen:
    process = subprocess.Popen(
        command,
        cwd=work,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert process.stdout.readline().strip() == "ready"
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()


def test_a_dry_run_during_a_live_run_says_a_run_is_alive(work):
    holder = start(
        [
            sys.executable,
            "-c",
            "import time; from reagree.pipeline.runs import RunLock; "
            "RunLock().acquire(); print('ready', flush=True); time.sleep(120)",
        ],
        work,
    )
    try:
        held = (work / ".snakemake" / "reagree-run.lock").read_text().strip()
        result = run_snakemake(work, "-n", check=False, configfile=CONFIG)
        said = result.stdout + result.stderr
        assert result.returncode != 0
        assert (
            f"reagree: another run of this folder is alive ({held}); wait for it to finish (or stop it) before "
            "starting this dry run"
        ) in said
        assert "IncompleteFilesException" not in said and "Traceback" not in said
        assert (work / ".snakemake" / "reagree-run.lock").read_text().strip() == held  # the dry run wrote nothing
    finally:
        stop(holder)


def orphan(work) -> subprocess.Popen:
    """A rule script that goes on after its run's main process was killed."""
    script = work / ".snakemake" / "scripts" / "tmpq1w2e3.compute_fixture.py"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text("import time\nprint('ready', flush=True)\ntime.sleep(120)\n")
    return start([sys.executable, ".snakemake/scripts/tmpq1w2e3.compute_fixture.py"], work)


def test_jobs_left_running_by_a_killed_run_keep_make_all_and_a_new_run_from_starting(work, capsys):
    locks = work / ".snakemake" / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    (locks / "0.output.lock").write_text("results/agreement_before_accuracy/values/fixture.tsv\n")  # the killed run's
    job = orphan(work)
    cwd = os.getcwd()
    try:
        assert [pid for pid, _ in orphaned_jobs(work)] == [job.pid]
        os.chdir(work)
        assert prepare([CONFIG]) == 1
        said = capsys.readouterr().err
        assert said == (
            f"reagree: a job of an earlier run of this folder is still running though that run ended "
            f"(pid {job.pid}: {sys.executable} .snakemake/scripts/tmpq1w2e3.compute_fixture.py); wait "
            f"for it to finish or stop it (kill {job.pid}) before starting this make all\n"
        )
        assert (locks / "0.output.lock").exists()  # nothing cleared
        with pytest.raises(RunAlive, match=f"pid {job.pid}"):
            RunLock().acquire()
        result = run_snakemake(work, check=False, configfile=CONFIG)
        assert result.returncode != 0
        assert (
            f"reagree: a job of an earlier run of this folder is still running though that run ended (pid {job.pid}"
            in result.stdout + result.stderr
        )
        assert not (work / "results").exists()
        stop(job)
        assert orphaned_jobs(work) == []
        assert prepare([CONFIG]) == 0 and "cleared the lock it left" in capsys.readouterr().err
        assert not locks.exists()
    finally:
        os.chdir(cwd)
        stop(job)


def test_a_job_of_another_folder_is_not_an_orphan_of_this_one(work, tmp_path):
    other = tmp_path / "elsewhere"
    (other / ".snakemake" / "scripts").mkdir(parents=True)
    job = orphan(other)
    try:
        time.sleep(0.1)
        assert orphaned_jobs(work) == [] and [pid for pid, _ in orphaned_jobs(other)] == [job.pid]
    finally:
        stop(job)
