"""profiles/slurm: the same workflow on a Slurm cluster through Snakemake's executor plugin.

A dry run with the profile needs the plugin (snakemake-executor-plugin-slurm) but no
cluster: Snakemake plans the jobs with their resources and submits nothing. Where the
plugin is not installed, that test is skipped saying so; the profile is still checked to
parse, with the local executor in place of slurm. And every rule declares `threads:`.
"""

from __future__ import annotations

import importlib.util
import re

import pytest
import yaml

from conftest import ROOT, project_copy, run_snakemake

pytestmark = pytest.mark.e2e
PROFILE = ROOT / "profiles" / "slurm" / "config.yaml"


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    work = project_copy(tmp_path_factory, "profiles")
    (work / "profiles").mkdir()
    (work / "profiles" / "slurm").mkdir()
    (work / "profiles" / "slurm" / "config.yaml").write_text(PROFILE.read_text())
    (work / "synthetic.yaml").write_text("papers: [agreement_before_accuracy]\n")
    return work


def test_the_profile_names_the_slurm_executor_and_default_resources():
    profile = yaml.safe_load(PROFILE.read_text())
    assert profile["executor"] == "slurm"
    resources = dict(item.split("=", 1) for item in profile["default-resources"])
    assert {"mem_mb", "runtime"} <= set(resources)


def test_the_profile_parses_with_the_local_executor(work):
    plan = run_snakemake(work, "-n", "--profile", "profiles/slurm", "--executor", "local", configfile="synthetic.yaml")
    said = plan.stdout + plan.stderr
    assert "render_report" in said and "audit_dataset" in said
    assert "runtime=30" in said  # the profile's default resources reached the jobs


def test_a_dry_run_with_the_slurm_profile(work):
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        pytest.skip("snakemake-executor-plugin-slurm is not installed (pip install snakemake-executor-plugin-slurm)")
    plan = run_snakemake(work, "-n", "--profile", "profiles/slurm", configfile="synthetic.yaml")
    said = plan.stdout + plan.stderr
    assert "This was a dry-run" in said
    assert re.search(r"render_report\s+1", said) and "mem_mb=2000" in said


def _rule_blocks(text: str):
    """(name, body) of every `rule name:` block of a Snakemake file."""
    for match in re.finditer(r"^rule (\w+):\n((?:[ \t]+.*\n|\n)*)", text, flags=re.M):
        yield match.group(1), match.group(2)


def test_every_rule_declares_threads():
    files = [ROOT / "Snakefile", *sorted((ROOT / "workflow").rglob("*.smk"))]
    missing = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name, body in _rule_blocks(path.read_text())
        if name != "all" and not re.search(r"^\s+threads:", body, flags=re.M)
    ]
    assert missing == []
