"""Shared fixtures: where the project and the offline mirror are, how to run the workflow in
a throwaway copy of the project, and the two builds the end-to-end tests share.

How an end-to-end test gets a build (read this before adding one)
-----------------------------------------------------------------
Building the papers is what makes the suite slow, so each configuration is built once per
session, in a temporary folder, and every test that only reads results asserts on it:

- ``offline_build``: ``config.yaml`` as shipped (the four papers, the example audit and the
  report) merged with ``offline.yaml`` (``OFFLINE``): every source copied from the offline
  mirror, mozetic2016 for Bosnian, Croatian and Serbian. Skipped, saying how to enable it,
  where there is no mirror (see ``mirror``). ::

      def test_something(offline_build):
          claims = read_claims(offline_build / "results" / "jayanetti2026" / "claims.tsv")
          assert "Nothing to be done" in run_snakemake(offline_build, "-n", configfile=OFFLINE).stdout

- ``gudea_build``: shvets2026 alone on one myth (``GUDEA``: ``shvets2026: {myths: [gudea]}``)
  from the offline mirror; skipped like ``offline_build`` where there is no mirror.

- ``demo_build``: no download and no mirror needed: the synthetic paper
  (agreement_before_accuracy), the demo paper of tests/fixtures (templated sources from
  its own small mirror, parts a and c; ``DEMO``) and the example audit.

Never change a shared build: no file written, removed or touched in it, no Snakemake run
other than a dry run (``-n``). A test whose subject is a change or a rebuild works
elsewhere, on the smallest input that shows the behaviour:

- ``copy_build(build, tmp_path_factory, name)``: a copy of a shared build with Snakemake's
  records, so that a run in it does only what the change calls for (a deleted input fetched
  again, the jobs whose settings changed, a removed folder rebuilt);
- ``project_copy(tmp_path_factory, name)`` and ``run_snakemake``: a project of its own,
  built from a config naming only what the test needs (one paper, one myth, a tiny mirror).

At the end of the session each shared build is checked unchanged (every file under
results/ and data/, by size and modification time); a test that changed one fails there,
with the files it changed.

The unit tests run first and the end-to-end tests after them; the shared builds the
selected tests need start in the background with the first test, so they overlap the
unit tests (``-m "not e2e"`` starts none). Under pytest-xdist (``make test`` runs
``-n auto``) the builds live in the folder the workers share and are made once, by the
first worker that needs them; the others wait for their exit status.
"""

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
# Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
# Bulletin 76(5), 378-382, Table 1: 30 patients, 6 psychiatrists each, 5 diagnoses
# (1 depression, 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other); the paper
# prints kappa = .430. Data as statsmodels' test suite holds them
# (statsmodels/stats/tests/test_inter_rater.py, `diagnoses`), with R irr's
# kappam.fleiss(diagnoses) = 0.4302445 beside it. Read by tests/stats and tests/audit.
FLEISS_1971 = np.array(
    [
        [4, 4, 4, 4, 4, 4],
        [2, 2, 2, 5, 5, 5],
        [2, 3, 3, 3, 3, 5],
        [5, 5, 5, 5, 5, 5],
        [2, 2, 2, 4, 4, 4],
        [1, 1, 3, 3, 3, 3],
        [3, 3, 3, 3, 5, 5],
        [1, 1, 3, 3, 3, 4],
        [1, 1, 4, 4, 4, 4],
        [5, 5, 5, 5, 5, 5],
        [1, 4, 4, 4, 4, 4],
        [1, 2, 4, 4, 4, 4],
        [2, 2, 2, 3, 3, 3],
        [1, 4, 4, 4, 4, 4],
        [2, 2, 4, 4, 4, 5],
        [3, 3, 3, 3, 3, 5],
        [1, 1, 1, 4, 5, 5],
        [1, 1, 1, 1, 1, 2],
        [2, 2, 4, 4, 4, 4],
        [1, 3, 3, 5, 5, 5],
        [5, 5, 5, 5, 5, 5],
        [2, 4, 4, 4, 4, 4],
        [2, 2, 4, 5, 5, 5],
        [1, 1, 4, 4, 4, 4],
        [1, 4, 4, 4, 4, 5],
        [2, 2, 2, 2, 2, 4],
        [1, 1, 1, 1, 5, 5],
        [2, 2, 4, 4, 4, 4],
        [1, 3, 3, 3, 3, 3],
        [5, 5, 5, 5, 5, 5],
    ]
)
# Every paper of the checkout, found from its folder (a fifth paper needs no test edited).
PAPERS_DIR = ROOT / "workflow" / "papers"
PAPERS = sorted(p.name for p in PAPERS_DIR.iterdir() if (p / "paper.yaml").is_file())
FIXTURES = ROOT / "tests" / "fixtures"
# Each paper's package, imported as rule scripts import it (``from shvets2026 import plots``).
for _paper_folder in sorted((ROOT / "workflow" / "papers").iterdir()):
    if (_paper_folder / _paper_folder.name / "__init__.py").is_file():
        sys.path.insert(0, str(_paper_folder))
#: What a copy of the project needs to run the workflow.
PROJECT = ["Snakefile", "config.yaml", "workflow", "scripts", "envs", "src", "examples"]
#: The config files of the shared builds, in their folders.
OFFLINE = "offline.yaml"
DEMO = "demo.yaml"
GUDEA = "gudea.yaml"
#: The languages of mozetic2016 the offline mirror holds.
MOZETIC_LANGUAGES = ["Bosnian", "Croatian", "Serbian"]


def find_mirror() -> Path | None:
    """REAGREE_MIRROR, else ../shared/mirror beside the checkout (CI always has it)."""
    candidates = [os.environ.get("REAGREE_MIRROR"), ROOT.parent / "shared" / "mirror"]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate).resolve()
    return None


@pytest.fixture(scope="session")
def mirror() -> Path:
    found = find_mirror()
    if found is None:
        pytest.skip(
            "no offline mirror of the papers' data: set REAGREE_MIRROR=/path/to/mirror "
            "or put the shared/ folder (with mirror/) beside this checkout to run the end-to-end tests"
        )
    return found


def project_copy(tmp_path_factory, name: str) -> Path:
    """A copy of the project's workflow in a fresh folder (no data, no results)."""
    work = tmp_path_factory.mktemp(name)
    _copy_project(work)
    return work


def run_snakemake(work: Path, *args, check: bool = True, configfile: str | None = None, cores: int = 2):
    """``python -m snakemake`` in ``work``; on failure the assertion shows its output."""
    command = [sys.executable, "-m", "snakemake", "--cores", str(cores)]
    if configfile:
        command += ["--configfile", configfile]
    result = subprocess.run([*command, *args], cwd=work, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def copy_build(build: Path, tmp_path_factory, name: str) -> Path:
    """A copy of a shared build (results, data, Snakemake's records, modification times
    kept): a run in it redoes only what a change calls for."""
    work = tmp_path_factory.mktemp(name) / build.name
    shutil.copytree(build, work, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    return work


def file_states(work: Path) -> dict[str, tuple[int, int]]:
    """(size, modification time) of every file under results/ and data/ of ``work``."""
    return {
        str(path.relative_to(work)): (path.stat().st_size, path.stat().st_mtime_ns)
        for folder in ("results", "data")
        if (work / folder).is_dir()
        for path in sorted((work / folder).rglob("*"))
        if path.is_file()
    }


def _shared(work: Path):
    """Yield ``work``; then fail if a test changed a file of it."""
    before = file_states(work)
    yield work
    after = file_states(work)
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    assert not changed, f"a test changed the shared build {work} (use copy_build or a build of its own): {changed[:20]}"


def pytest_collection_modifyitems(config, items):
    """Unit tests first, end-to-end tests after them, each in their collected order."""
    items[:] = sorted(items, key=lambda item: item.get_closest_marker("e2e") is not None)


#: The shared builds this process started: name -> the Snakemake process.
_STARTED: dict[str, subprocess.Popen] = {}
#: Where the shared builds live: the session's temporary folder, or, with pytest-xdist
#: (``make test`` runs ``-n auto``), the folder all workers' temporary folders share, so
#: that each build is made once for the whole run whichever worker needs it first.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")


def _builds_root(tmp_path_factory) -> Path:
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if _WORKER else base) / "shared-builds"
    root.mkdir(exist_ok=True)
    return root


def _prepare_offline(work: Path, mirror: Path) -> None:
    shared = mirror.parent / "offline.yaml"
    offline = yaml.safe_load(shared.read_text()) if shared.is_file() else {}
    offline["mirror"] = str(mirror)
    offline["mozetic2016"] = dict(offline.get("mozetic2016") or {}, languages=MOZETIC_LANGUAGES)
    # The papers' documents (../shared/documents.yaml, paths from a checkout beside shared/) and
    # a strict ledger: every number they print must be claimed or dismissed, as CI's build checks.
    documents = mirror.parent / "documents.yaml"
    if documents.is_file():
        beside = mirror.parent.parent / "checkout"
        offline["documents"] = {
            paper: [str((beside / path).resolve()) for path in paths]
            for paper, paths in (yaml.safe_load(documents.read_text())["documents"]).items()
        }
        offline["strict_ledger"] = True
    (work / OFFLINE).write_text(yaml.safe_dump(offline))


def prepare_gudea(work: Path, mirror: Path) -> None:
    """The config file ``GUDEA`` of ``gudea_build``: shvets2026 on one myth, from ``mirror``."""
    (work / GUDEA).write_text(
        yaml.safe_dump(
            {"papers": ["shvets2026"], "mirror": str(mirror), "datasets": {}, "shvets2026": {"myths": ["gudea"]}}
        )
    )


def _prepare_demo(work: Path) -> None:
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    (work / DEMO).write_text(
        yaml.safe_dump(
            {
                "papers": ["agreement_before_accuracy", "demo"],
                "mirror": str(FIXTURES / "demo_mirror"),
                "demo": {"parts": ["a", "c"]},
            }
        )
    )


def _copy_project(work: Path) -> None:
    for entry in PROJECT:
        source = ROOT / entry
        if source.is_dir():
            shutil.copytree(source, work / entry, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, work / entry)


def _start(root: Path, name: str, configfile: str, prepare) -> None:
    """Start the build ``name`` in ``root/name`` unless a worker already has: under a lock,
    the first to come copies the project and starts Snakemake, which writes its exit status
    to ``root/name.rc`` when it ends."""
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        work = root / name
        if work.exists():
            return
        work.mkdir()
        rc, output = root / f"{name}.rc", root / f"{name}.out"
        try:
            _copy_project(work)
            prepare(work)
        except Exception as error:  # the workers waiting for it learn why, instead of waiting forever
            output.write_text(f"preparing {work} failed: {error!r}\n")
            rc.write_text("1\n")
            raise
        # The status is written to a temporary name and renamed, so a reader never sees half of it.
        script = '"$@" > "$OUT" 2>&1; echo $? > "$RC.part"; mv "$RC.part" "$RC"'
        _STARTED[name] = subprocess.Popen(
            [
                "sh",
                "-c",
                script,
                "build",
                sys.executable,
                "-m",
                "snakemake",
                "--cores",
                "2",
                "--configfile",
                configfile,
            ],
            cwd=work,
            env={**os.environ, "OUT": str(output), "RC": str(rc)},
            start_new_session=True,
        )


@pytest.fixture(scope="session", autouse=True)
def _start_shared_builds(request, tmp_path_factory):
    """Start, with the session's first test, the shared builds its selected tests use."""
    used = {name for item in request.session.items for name in item.fixturenames}
    mirror = find_mirror()
    builds = {
        "offline_build": (OFFLINE, (lambda work: _prepare_offline(work, mirror)) if mirror else None),
        "demo_build": (DEMO, _prepare_demo),
        "gudea_build": (GUDEA, (lambda work: prepare_gudea(work, mirror)) if mirror else None),
    }
    root = _builds_root(tmp_path_factory) if used & builds.keys() else None
    for name, (configfile, prepare) in builds.items():
        if name in used and prepare is not None:
            _start(root, name, configfile, prepare)
    yield
    for process in _STARTED.values():
        if process.poll() is None:
            if _WORKER:  # another worker may still need it: let it finish
                process.wait()
            else:  # the session ended early: stop the build it started
                os.killpg(process.pid, signal.SIGTERM)
                process.wait()


def _finished(name: str, tmp_path_factory) -> Path:
    """The folder of a shared build, once it has succeeded (waiting for it if it runs)."""
    root = _builds_root(tmp_path_factory)
    rc = root / f"{name}.rc"
    while not rc.is_file():
        time.sleep(0.2)
    if rc.read_text().strip() != "0":
        said = (root / f"{name}.out").read_text(errors="replace")
        raise AssertionError(
            f"the shared build {name} failed (snakemake output in {root / f'{name}.out'}):\n{said[-3000:]}"
        )
    return root / name


@pytest.fixture(scope="session")
def offline_build(mirror, _start_shared_builds, tmp_path_factory):
    """config.yaml's papers, audit and report, built once from the offline mirror."""
    yield from _shared(_finished("offline_build", tmp_path_factory))


@pytest.fixture(scope="session")
def demo_build(_start_shared_builds, tmp_path_factory):
    """The synthetic paper, the demo paper (parts a and c, from tests/fixtures/demo_mirror)
    and the example audit, built once without any download."""
    yield from _shared(_finished("demo_build", tmp_path_factory))


@pytest.fixture(scope="session")
def gudea_build(mirror, _start_shared_builds, tmp_path_factory):
    """shvets2026 on its smallest input, one myth (gudea), built once from the offline mirror."""
    yield from _shared(_finished("gudea_build", tmp_path_factory))
