"""Install and run like a well-kept tool: pinned environments, a package that works outside
the checkout, plain help, and `reagree mirror`."""

import filecmp
import os
import re
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT

# in the lock for make setup, not needed by the rules a conda environment runs
NOT_IN_CONDA = {
    "pytest",
    "hypothesis",
    "irrcac",
    "iniconfig",
    "pluggy",
    "sortedcontainers",
    "coverage",
    "pytest-xdist",
    "execnet",
    "ruff",
    "snakefmt",
    "black",
    "mypy-extensions",
    "pathspec",
    "pytokens",
    "shfmt-py",
    "snakemake-executor-plugin-slurm",
    "snakemake-executor-plugin-slurm-jobstep",
}


def pins(lines):
    out = {}
    for line in lines:
        line = line.strip()
        if line and not line.startswith("#"):
            name, version = line.split("==")
            out[name.lower().replace("_", "-")] = version
    return out


def test_the_conda_environment_pins_the_lock_files_versions():
    lock = pins((ROOT / "requirements.lock").read_text().splitlines())
    env = yaml.safe_load((ROOT / "envs" / "reagree.yaml").read_text())
    pip_section = next(item["pip"] for item in env["dependencies"] if isinstance(item, dict))
    conda_pins = pins(pip_section)
    assert conda_pins == {name: version for name, version in lock.items() if name not in NOT_IN_CONDA}


def test_the_lock_pins_every_dependency_of_pyproject():
    lock = pins((ROOT / "requirements.lock").read_text().splitlines())
    text = (ROOT / "pyproject.toml").read_text()
    declared = re.findall(r'^\s+"([A-Za-z0-9_.-]+)[<>=!~ ]', text, flags=re.M)
    missing = [name for name in declared if name.lower().replace("_", "-") not in lock]
    assert declared and not missing, missing


def test_help_is_plain_text_for_every_subcommand():
    for command in ([], ["fetch"], ["claims"], ["mirror"]):
        result = subprocess.run(
            [sys.executable, "-m", "reagree.cli", *command, "--help"], capture_output=True, text=True, cwd=ROOT
        )
        assert result.returncode == 0
        assert "``" not in result.stdout and ":func:" not in result.stdout
    mirror_help = subprocess.run(
        [sys.executable, "-m", "reagree.cli", "mirror", "--help"], capture_output=True, text=True
    ).stdout
    assert "--mirror SRC" in mirror_help and "sha256" in mirror_help


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """reagree installed (not editable) into a folder of its own, outside the checkout."""
    place = tmp_path_factory.mktemp("installed")
    wheel_dir = place / "wheel"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheel_dir), str(ROOT)],
        capture_output=True,
        text=True,
    )
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here (pip needs setuptools from the package index): {build.stderr[-300:]}")
    target = place / "site"
    wheel = next(wheel_dir.glob("reagree-*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    return target


def run_installed(target, *args, cwd):
    # The installed copy first on the path, then this environment's dependencies; never the checkout.
    env = dict(os.environ, PYTHONPATH=str(target))
    code = (
        "import sys; sys.path = [p for p in sys.path if 'src' not in p]; from reagree.cli import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_an_installed_reagree_finds_its_schemas_from_any_folder(installed, tmp_path):
    assert (installed / "reagree" / "schemas" / "paper.schema.yaml").is_file()
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "paper.yaml").write_text("id: demo\ntitle: t\ncite: c\nsources: []\nclaim_tables: [claims/t.tsv]\n")
    (folder / "claims").mkdir()
    (folder / "claims" / "t.tsv").write_text(
        "key\tend\twhere\tsource\tpublished\ttolerance\tcompare\tneeds\tunder\t"
        "uncheckable\tnot_recomputed\tnote\ttolerance_reason\tcause\tapproximate\tfigure\nkappa.a_b\t\tT1\tpaper\t0.40\n"
    )
    (tmp_path / "values.tsv").write_text("key\tvalue\nkappa.a_b\t0.396\n")
    result = run_installed(installed, "claims", str(folder / "paper.yaml"), str(tmp_path / "values.tsv"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\tmatch\t" in result.stdout
    located = subprocess.run(
        [sys.executable, "-c", "import reagree.pipeline.settings as s; print(s.schema_path('config'))"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(installed)),
    )
    assert str(installed) in located.stdout


def test_reagree_mirror_reproduces_the_offline_mirror_of_both_papers(mirror, tmp_path):
    offline = mirror.parent / "offline.yaml"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "reagree.cli",
            "mirror",
            str(tmp_path / "copy"),
            "--root",
            str(ROOT),
            "--mirror",
            str(mirror),
            "--papers",
            "jayanetti2026,agreement_before_accuracy",
            *(["--configfile", str(offline)] if offline.exists() else []),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    made = [p for p in (tmp_path / "copy").rglob("*") if p.is_file()]
    assert len(made) == 7
    for path in made:
        assert filecmp.cmp(path, mirror / path.relative_to(tmp_path / "copy"), shallow=False), path
    assert result.stdout.count("pinned") == 7
