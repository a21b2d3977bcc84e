"""Shared fixtures: where the project and the offline mirror are, and how to run the
workflow in a throwaway copy of the project."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
#: What a copy of the project needs to run the workflow.
# Each paper's package, imported as rule scripts import it (``from shvets2026 import plots``).
for _paper_folder in sorted((ROOT / "workflow" / "papers").iterdir()):
    if (_paper_folder / _paper_folder.name / "__init__.py").is_file():
        sys.path.insert(0, str(_paper_folder))
PROJECT = ["Snakefile", "config.yaml", "workflow", "scripts", "envs", "src", "examples"]


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
        pytest.skip("no offline mirror of the papers' data: set REAGREE_MIRROR=/path/to/mirror "
                    "or put the shared/ folder (with mirror/) beside this checkout to run the end-to-end tests")
    return found


def project_copy(tmp_path_factory, name: str) -> Path:
    """A copy of the project's workflow in a fresh folder (no data, no results)."""
    work = tmp_path_factory.mktemp(name)
    for entry in PROJECT:
        source = ROOT / entry
        if source.is_dir():
            shutil.copytree(source, work / entry, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, work / entry)
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
