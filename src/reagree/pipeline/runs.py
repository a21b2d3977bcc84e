"""One run of the workflow per folder, and what kind of run this is.

What it decides:

- **A run holds a lock for its whole life.** A Snakemake run that will execute jobs takes
  an exclusive ``flock`` on ``.snakemake/reagree-run.lock`` while its Snakefile is read,
  before it touches ``data/``, and writes its process id and start time into the file.
  The kernel releases the lock when the process ends, however it ends (SIGKILL
  included), so a lock that can be taken means no run of this folder is alive; a stale
  process id never blocks anything. A second run stops at once naming the first one's
  process id, before it sweeps, deletes or records anything.
- **A run is alive while any of its jobs is.** Snakemake runs each rule script as a
  process of its own (``python .snakemake/scripts/tmp....py``), and killing only
  Snakemake's main process leaves those jobs running and writing results, while the
  kernel has already released the run lock. Taking the lock therefore also looks for
  such orphaned jobs of this folder (``orphaned_jobs``: processes whose working folder is
  this one and whose command runs a script under ``.snakemake/scripts/``, read from
  ``/proc``; none are found where there is no ``/proc``) and stops naming their process
  ids, as it does for a live run.
- **A dry run during a live run says so** (``RunLock.check``): ``snakemake -n`` while a
  run (or an orphaned job) is alive stops with the same line instead of Snakemake's
  IncompleteFilesException on the live run's half-done outputs; it takes no lock and
  writes nothing.
- **Snakemake's own lock is cleared only when no run is alive** (``make all`` calls
  ``python -m reagree.pipeline.runs CONFIG``, which first checks the config files and
  names a missing one in one line; ``make lint`` calls it with ``--check``, which only
  checks them): holding the run lock, it clears the lock an
  interrupted run left (as ``snakemake --unlock`` does) and says so; with a run alive it
  stops naming that run and clears nothing.
- **What kind of invocation reads the Snakefile** (``invocation``): ``run`` executes jobs;
  ``dry-run`` (``-n``) plans them; ``other`` is every command that neither plans nor runs
  (``--unlock``, ``--lint``, ``--summary``, ``--dag``, ...); ``job`` is a job's own
  process. Only a ``run`` changes anything on disk; a ``dry-run`` reports what a run
  would do.
- **No stale verdict outlives a failed run** (``withdraw_verdicts``, called when a run
  starts its first job): the summary (``results/summary.tsv``, ``summary.md``), the
  report and each paper's ``claims.tsv`` that this run will rebuild are removed before
  any job starts, not when their own job finally runs. A run that fails, or is killed,
  on the way leaves none of them behind to be read as current: what is there was written
  by a run that built everything it depends on. (Marking them instead, or writing the
  run's inputs into them, would leave the old numbers readable beside a warning that is
  easy to miss; a rerun after the fix rebuilds them.) Verdicts this run does not rebuild
  (a target that does not need them) stay.
"""

from __future__ import annotations

import datetime
import errno
import fcntl
import os
import shutil
import sys
from pathlib import Path

__all__ = [
    "JOB_SCRIPTS",
    "NO_RUN_OPTIONS",
    "RUN_LOCK",
    "RunAlive",
    "RunLock",
    "clear_stale_lock",
    "invocation",
    "main",
    "orphaned_jobs",
    "planned_outputs",
    "snakemake_locks",
    "verdict_files",
    "withdraw_verdicts",
]

RUN_LOCK = Path(".snakemake") / "reagree-run.lock"

#: Snakemake options under which it reads the Snakefile but neither plans nor runs jobs.
NO_RUN_OPTIONS = (
    "unlock",
    "lint",
    "summary",
    "detailed_summary",
    "list_changes",
    "list_input_changes",
    "list_params_changes",
    "list_untracked",
    "list_rules",
    "list_target_rules",
    "list_resources",
    "dag",
    "rulegraph",
    "filegraph",
    "d3dag",
    "touch",
    "cleanup_metadata",
    "cleanup_shadow",
    "list_conda_envs",
    "conda_create_envs_only",
    "conda_cleanup_envs",
    "container_cleanup_images",
    "delete_all_output",
    "delete_temp_output",
    "archive",
    "containerize",
    "generate_unit_tests",
    "report",
    "print_compilation",
    "export_cwl",
)


class RunAlive(RuntimeError):
    """Another run of this folder holds the run lock."""


def invocation(workflow, argv: list[str] | None = None) -> str:
    """``run``, ``dry-run``, ``other`` or ``job`` (see the module docstring)."""
    if not workflow.is_main_process:
        return "job"
    if getattr(workflow.output_settings, "dryrun", False):
        return "dry-run"
    # Snakemake reads the Snakefile before it decides what to do with it, and the decision
    # is not on the workflow object yet: read it from the command line with Snakemake's own
    # parser (already built in this process, so this is cheap). Called through the API
    # instead of the command line, nothing matches and the invocation counts as a run.
    try:
        from snakemake.cli import get_argument_parser

        args, _ = get_argument_parser().parse_known_args((sys.argv if argv is None else argv)[1:])
    except (Exception, SystemExit):
        return "run"
    if any(getattr(args, option, None) for option in NO_RUN_OPTIONS):
        return "other"
    return "run"


def verdict_files(papers) -> list[str]:
    """The files that state verdicts: the summary, the report, each paper's claims and the
    record of whether they could be diffed (``reagree.pipeline.failures``)."""
    return [
        "results/summary.tsv",
        "results/summary.md",
        "results/report.html",
        *(f"results/{paper}/{name}" for paper in papers for name in ("claims.tsv", "claims_error.txt")),
    ]


def planned_outputs(workflow) -> set[str] | None:
    """The outputs of every job this run will execute (None when Snakemake does not say)."""
    try:
        return {str(path) for job in workflow.dag.needrun_jobs() for path in job.output}
    except (AttributeError, TypeError):
        return None


def withdraw_verdicts(verdicts: list[str], rebuilt: set[str] | None) -> list[str]:
    """Remove the verdict files that this run rebuilds (module docstring); return them."""
    if rebuilt is None:
        return []
    removed = []
    for path in verdicts:
        if path in rebuilt and Path(path).is_file():
            Path(path).unlink()
            removed.append(path)
    return removed


#: Where Snakemake writes the rule scripts its jobs run (``python .snakemake/scripts/tmpXXX.name.py``).
JOB_SCRIPTS = ".snakemake/scripts/"


def orphaned_jobs(folder: str | os.PathLike = ".") -> list[tuple[int, str]]:
    """(process id, command) of every process, other than this one, running a Snakemake
    job's script of ``folder`` (module docstring); empty where there is no ``/proc``."""
    here, proc = Path(folder).resolve(), Path("/proc")
    found = []
    for entry in proc.iterdir() if proc.is_dir() else []:
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if Path(os.readlink(entry / "cwd")) != here:
                continue
            words = [word.decode(errors="replace") for word in (entry / "cmdline").read_bytes().split(b"\0") if word]
        except OSError:  # gone meanwhile, or another user's
            continue
        if any(JOB_SCRIPTS in word for word in words) and not any(
            word.endswith(("/sh", "/bash")) for word in words[:1]
        ):
            found.append((int(entry.name), " ".join(words)))
    return sorted(found)


def _orphans_message(orphans: list[tuple[int, str]], what: str) -> str:
    shown = "; ".join(f"pid {pid}: {command}" for pid, command in orphans[:3])
    more = f"; and {len(orphans) - 3} more" if len(orphans) > 3 else ""
    one = len(orphans) == 1
    return (
        f"{'a job' if one else f'{len(orphans)} jobs'} of an earlier run of this folder {'is' if one else 'are'} "
        f"still running though that run ended ({shown}{more}); wait for {'it' if one else 'them'} to finish or "
        f"stop {'it' if one else 'them'} (kill {' '.join(str(pid) for pid, _ in orphans)}) before starting this "
        f"{what}"
    )


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError:
        return ""
    return f" ({text})" if text else ""


class RunLock:
    """The run lock of the folder the workflow runs in, held until ``release`` or exit."""

    def __init__(self, path: str | os.PathLike = RUN_LOCK):
        self.path = Path(path)
        self.fd: int | None = None
        self.previous = ""  # what the last holder wrote: "pid N, started T"

    def acquire(self, what: str = "run") -> "RunLock":
        """Take the lock or raise RunAlive naming the run that holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise RunAlive(
                    f"another run of this folder is alive{_holder(self.path)}; "
                    f"wait for it to finish (or stop it) before starting this {what}"
                ) from None
            raise
        orphans = orphaned_jobs(self.path.parent.parent)
        if orphans:
            os.close(fd)
            raise RunAlive(_orphans_message(orphans, what))
        self.previous = _holder(self.path).strip(" ()")
        started = datetime.datetime.now().isoformat(timespec="seconds")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}, started {started}\n".encode(), 0)
        self.fd = fd
        return self

    def check(self, what: str = "dry run") -> None:
        """Raise RunAlive as ``acquire`` would, without taking the lock or writing anything
        (a dry run)."""
        if not self.path.is_file():
            orphans = orphaned_jobs(self.path.parent.parent)
            if orphans:
                raise RunAlive(_orphans_message(orphans, what))
            return
        fd = os.open(self.path, os.O_RDONLY)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                if error.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise RunAlive(
                        f"another run of this folder is alive{_holder(self.path)}; wait for it to "
                        f"finish (or stop it) before starting this {what}"
                    ) from None
                raise
        finally:
            os.close(fd)  # releases the lock if it was taken
        orphans = orphaned_jobs(self.path.parent.parent)
        if orphans:
            raise RunAlive(_orphans_message(orphans, what))

    def release(self) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = None


def snakemake_locks(folder: str | os.PathLike = ".snakemake") -> list[Path]:
    """The lock files Snakemake keeps for a running (or interrupted) run."""
    locks = Path(folder) / "locks"
    return sorted(p for p in locks.iterdir() if p.is_file()) if locks.is_dir() else []


def clear_stale_lock(configfiles: list[str], folder: str | os.PathLike = ".snakemake") -> str:
    """What ``make all`` does before its run: check the config files strictly, then, when
    Snakemake's lock is left over and no run of this folder is alive, clear it. Returns
    what was done ("" for nothing); raises RunAlive or ValueError (a config file reagree
    refuses).

    Clearing is what ``snakemake --unlock`` does (it removes ``.snakemake/locks``), done
    here while holding the run lock, so no run can start in between."""
    from reagree.pipeline.settings import check_config_files

    check_config_files(["config.yaml", *configfiles])
    if not snakemake_locks(folder):
        return ""
    lock = RunLock(Path(folder) / RUN_LOCK.name).acquire("make all")
    try:
        shutil.rmtree(Path(folder) / "locks")
    finally:
        lock.release()
    last = f"the last run ({lock.previous})" if lock.previous else "the last run"
    return (
        f"reagree: {last} ended without finishing and no run of this folder is alive: "
        "cleared the lock it left (as snakemake --unlock does)"
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m reagree.pipeline.runs [CONFIGFILE ...]``: what ``make all`` runs first.
    With ``--check``, only the config files are checked, nothing is cleared (``make lint``)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--check"]:
        from reagree.pipeline.settings import check_config_files

        try:
            check_config_files(["config.yaml", *args[1:]])
        except ValueError as error:
            print(f"reagree: {error}", file=sys.stderr)
            return 2
        return 0
    try:
        said = clear_stale_lock(args)
    except RunAlive as error:
        print(f"reagree: {error}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"reagree: {error}", file=sys.stderr)
        return 2
    if said:
        print(said, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
