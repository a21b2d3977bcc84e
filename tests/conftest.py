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


def paper_module(paper_id: str, name: str):
    """A paper-only module from ``workflow/papers/<paper_id>/scripts/<name>.py`` (rule
    scripts import it from their own folder; tests load it by path)."""
    import importlib.util

    path = ROOT / "workflow" / "papers" / paper_id / "scripts" / f"{name}.py"
    module_name = f"{paper_id}_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module
