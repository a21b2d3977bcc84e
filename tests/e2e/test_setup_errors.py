"""A new user's first hour (issue 18): each wrong turn ends in one line that says what is
wrong and what to do, asserted on the text the user sees.

- a config file that is not there (``make all CONFIG=../shared/offline.yaml`` without
  ../shared);
- ``make lint`` and ``snakemake --lint`` need neither the data nor the network, and
  ``make lint`` reads CONFIG;
- an optional part switched on without its packages or weights stops before any job, and
  a run that fails leaves no summary from an earlier run standing as current.

None of them needs the papers' data: they use the demo paper's fixture mirror or none.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from reagree.pipeline.requirements import Requirement, unmet, weights_problem

from conftest import FIXTURES, ROOT, project_copy, run_snakemake

VENV = Path(sys.prefix)


def said(result) -> str:
    return result.stdout + result.stderr


def make(work: Path, *args: str) -> subprocess.CompletedProcess:
    """``make ARGS`` in ``work`` with this interpreter's environment as the Makefile's .venv
    (``-o`` keeps make from rebuilding it); pyproject.toml beside it configures lint's ruff and snakefmt."""
    shutil.copy2(ROOT / "Makefile", work / "Makefile")
    shutil.copy2(ROOT / "pyproject.toml", work / "pyproject.toml")
    return subprocess.run(
        ["make", *args, f"VENV={VENV}", "-o", f"{VENV}/.installed", "CORES=1"], cwd=work, capture_output=True, text=True
    )


def demo_copy(tmp_path_factory, name: str, **config) -> Path:
    work = project_copy(tmp_path_factory, name)
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    (work / "demo.yaml").write_text(yaml.safe_dump({"papers": ["demo"], "datasets": {}, **config}))
    return work


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


# ------------------------------------------------------------ 1. a config file that is not there

MISSING = (
    "reagree: config file ../shared/offline.yaml does not exist (seen from {work}). A config file lays its "
    "settings over config.yaml (make all CONFIG=FILE, snakemake --configfile FILE); an offline one names the "
    "mirror to copy the sources from (mirror: /path/to/mirror). Fix the path, or leave CONFIG out to download "
    "the sources\n"
)


@needs_make
def test_make_all_with_a_config_file_that_is_not_there_says_so_in_one_line(tmp_path_factory):
    work = project_copy(tmp_path_factory, "noshared")
    assert not (work.parent / "shared").exists()
    result = make(work, "all", "CONFIG=../shared/offline.yaml")
    assert result.returncode != 0
    assert "Traceback" not in said(result) and "FileNotFoundError" not in said(result)
    assert result.stderr.splitlines(keepends=True)[0] == MISSING.format(work=work)
    assert not (work / "results").exists() and not (work / ".snakemake").exists()


@needs_make
def test_make_lint_and_make_report_check_their_config_file_the_same_way(tmp_path_factory):
    work = project_copy(tmp_path_factory, "noshared_lint")
    for target in ("lint", "report"):
        result = make(work, target, "CONFIG=../shared/offline.yaml")
        assert result.returncode != 0 and "Traceback" not in said(result)
        assert result.stderr.splitlines(keepends=True)[0] == MISSING.format(work=work), target


def test_the_reagree_command_names_a_config_file_that_is_not_there(tmp_path, capsys):
    from reagree.cli import main

    code = main(
        ["mirror", str(tmp_path / "mirror"), "--root", str(ROOT), "--configfile", str(tmp_path / "offline.yaml")]
    )
    assert code != 0
    err = capsys.readouterr().err
    assert f"config file {tmp_path / 'offline.yaml'} does not exist" in err and "Traceback" not in err


def test_the_no_network_message_suggests_the_shared_offline_config_only_where_it_exists(tmp_path, monkeypatch):
    from reagree.pipeline.fetch import offline_message

    monkeypatch.chdir(tmp_path)
    assert "offline.yaml" not in offline_message(["example.org"], 3)
    assert "--config mirror=/path/to/mirror" in offline_message(["example.org"], 3)
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "offline.yaml").write_text("mirror: mirror\n")
    (tmp_path / "checkout").mkdir()
    monkeypatch.chdir(tmp_path / "checkout")
    assert "make all CONFIG=../shared/offline.yaml" in offline_message(["example.org"], 3)


# ------------------------------------------------------------ 2. lint needs neither data nor network


def offline_demo(tmp_path_factory, name: str) -> Path:
    """The demo paper with no data, no mirror, and sources on a port nothing listens on."""
    work = demo_copy(tmp_path_factory, name, mirror=None)
    paper = work / "workflow" / "papers" / "demo" / "paper.yaml"
    paper.write_text(paper.read_text().replace("https://example.org/", "http://127.0.0.1:9/"))
    return work


def test_snakemake_lint_runs_without_data_and_without_network(tmp_path_factory):
    work = offline_demo(tmp_path_factory, "lint_offline")
    result = run_snakemake(work, "--lint", configfile="demo.yaml", check=False)
    assert result.returncode == 0, said(result)
    assert "good condition" in said(result)
    assert "cannot download" not in said(result)
    assert not (work / "data").exists() and not (work / "results").exists()


@needs_make
def test_make_lint_reads_config_and_needs_neither_data_nor_network(tmp_path_factory):
    work = offline_demo(tmp_path_factory, "make_lint_offline")
    result = make(work, "lint", "CONFIG=demo.yaml")
    assert result.returncode == 0, said(result)
    assert "--configfile demo.yaml --lint" in result.stdout
    assert "good condition" in said(result) and "cannot download" not in said(result)
    assert not (work / "data").exists()
    # CONFIG is read: a misspelt key in it is named, with the key meant
    (work / "typo.yaml").write_text("mirorr: null\n")
    result = make(work, "lint", "CONFIG=typo.yaml")
    assert result.returncode != 0
    assert "'mirorr' (did you mean 'mirror'?)" in said(result)


# ------------------------------------------------------------ 3. optional parts, and stale summaries


def test_a_missing_package_is_named_with_the_command_that_installs_it():
    line = unmet(
        Requirement(
            "paper_x",
            "rerun_model",
            {"reagree_no_such_module_a": "no-such-a", "reagree_no_such_module_b": "no-such-b", "json": "json"},
        )
    )
    python = os.path.relpath(sys.executable) if not os.path.relpath(sys.executable).startswith("..") else sys.executable
    assert line == (
        f"paper_x: rerun_model: true needs the Python packages no-such-a and no-such-b (not installed). "
        f"To get them: {python} -m pip install no-such-a no-such-b. "
        "Or leave that part out: paper_x: {rerun_model: false}"
    )
    assert unmet(Requirement("paper_x", "rerun_model", {"json": "json"})) is None


def test_a_part_no_setting_switches_names_the_extra_that_installs_its_packages():
    """jayanetti2026's TextBlob/VADER rerun runs in every build; its packages are reagree's
    extra ``tools`` (not the library's dependencies): a user without it is told the extra."""
    from reagree.pipeline.paper_registry import PaperBuild

    python = os.path.relpath(sys.executable) if not os.path.relpath(sys.executable).startswith("..") else sys.executable
    missing = Requirement(
        "paper_x",
        None,
        {"reagree_no_such_module_a": "no-such-a", "json": "json"},
        extra="tools",
        part="the rerun of A (rule rerun_paper_x_tools)",
    )
    assert unmet(missing) == (
        "paper_x: the rerun of A (rule rerun_paper_x_tools) needs the Python package no-such-a (not installed; "
        f"reagree's optional extra 'tools' holds it). To get it: {python} -m pip install -e '.[tools]' (in the "
        "checkout; or pip install no-such-a)."
    )
    build = PaperBuild("paper_x", {}, {"rerun_model": False}, [], {})
    build.require("rerun_model", packages={"a": "a"})
    build.require(None, packages={"json": "json"}, extra="tools", part="its rerun")
    assert [(r.setting, r.extra) for r in build.requirements] == [(None, "tools")]  # recorded with no setting on
    assert unmet(build.requirements[0]) is None


def test_model_weights_are_found_in_the_hub_cache_or_named_with_the_way_to_get_them(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    requirement = Requirement("paper_x", "rerun_model", {}, "org/model-name", "model")
    assert unmet(requirement) == (
        f"paper_x: rerun_model: true needs the weights of org/model-name (not in the Hugging Face cache "
        f"{tmp_path / 'hub'}, and downloads are off (HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE)). To get it: run this "
        "once on a machine with network (the weights land in the Hugging Face cache; copy it over), or set "
        "paper_x: {model: /path/to/model}, a folder holding them. Or leave that part out: "
        "paper_x: {rerun_model: false}"
    )
    snapshot = tmp_path / "hub" / "models--org--model-name" / "snapshots" / "0123abc"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    assert unmet(requirement) is None
    # a local folder of weights
    assert weights_problem(str(tmp_path / "weights")) == f"the folder {tmp_path / 'weights'} holds no config.json"
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "config.json").write_text("{}")
    assert weights_problem(str(tmp_path / "weights")) is None
    # the hub host cannot be reached (a port nothing listens on)
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    assert weights_problem("org/other-model") == (
        f"not in the Hugging Face cache {tmp_path / 'hub'}, and 127.0.0.1:9 cannot be reached"
    )


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) for m in ("transformers", "torch")),
    reason="transformers or torch is installed: the message would name only what is missing",
)
def test_the_roberta_rerun_switched_on_without_its_packages_stops_before_any_job(tmp_path_factory, monkeypatch):
    work = project_copy(tmp_path_factory, "roberta")
    mirror = work / "empty_mirror"
    mirror.mkdir()
    (work / "roberta.yaml").write_text(
        yaml.safe_dump(
            {
                "papers": ["jayanetti2026"],
                "mirror": str(mirror),
                "datasets": {},
                "jayanetti2026": {"rerun_roberta": True},
            }
        )
    )
    env_hub = work / "hub"
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "1", "--configfile", "roberta.yaml"],
        cwd=work,
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_CACHE": str(env_hub), "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode != 0
    lines = [line for line in said(result).splitlines() if line.startswith("reagree: jayanetti2026")]
    assert len(lines) == 1, said(result)
    assert lines[0].startswith(
        "reagree: jayanetti2026: rerun_roberta: true needs the Python packages transformers "
        "and torch (not installed) and the weights of cardiffnlp/twitter-roberta-base-sentiment"
    )
    assert "-m pip install transformers torch" in lines[0]
    assert lines[0].endswith("Or leave that part out: jayanetti2026: {rerun_roberta: false}")
    assert "message: None" not in said(result)
    assert not (work / "logs").exists() and not (work / "data").exists()  # no job ran, nothing was fetched


def test_a_failed_run_leaves_no_summary_from_an_earlier_run(tmp_path_factory):
    work = demo_copy(tmp_path_factory, "stale", mirror=str(FIXTURES / "demo_mirror"), demo={"parts": ["a", "c"]})
    run_snakemake(work, configfile="demo.yaml", cores=1)
    verdicts = [work / "results" / name for name in ("summary.tsv", "summary.md", "report.html", "demo/claims.tsv")]
    assert all(path.is_file() for path in verdicts)
    # a change that reruns every value job, and makes them fail
    script = work / "workflow" / "papers" / "demo" / "scripts" / "compute_values.py"
    script.write_text(script.read_text() + "\nraise SystemExit('this run fails')\n")
    result = run_snakemake(work, configfile="demo.yaml", check=False, cores=1)
    assert result.returncode != 0
    assert not any(path.exists() for path in verdicts), [p for p in verdicts if p.exists()]
    assert (
        "reagree: this run failed before rebuilding results/summary.tsv, results/summary.md, "
        "results/report.html, results/demo/claims.tsv, results/demo/claims_error.txt; they were removed when it started, so no summary from "
        "an earlier run stands as current. Fix the error above and run again."
    ) in result.stderr
    # a run that rebuilds nothing of the summary leaves it alone
    script.write_text(script.read_text().replace("\nraise SystemExit('this run fails')\n", ""))
    run_snakemake(work, configfile="demo.yaml", cores=1)
    assert all(path.is_file() for path in verdicts)
    before = {path: path.stat().st_mtime_ns for path in verdicts}
    (work / "results" / "demo" / "values" / "part_a.tsv").unlink()
    run_snakemake(work, "results/demo/values/part_a.tsv", "--configfile", "demo.yaml", cores=1)
    assert {path: path.stat().st_mtime_ns for path in verdicts} == before


# ------------------------------------------------------------ 7. a local file as a source

LOCAL_SOURCES = """\
id: demo
title: "A demo paper whose labels are files on this machine"
cite: "reagree tests"
sources:
  - name: "parts/part_{part}.tsv"
    path: "exports/part_{part}.tsv"
    expand:
      part: {setting: parts}
    sha256:
      parts/part_a.tsv: 68d0ffaa23e8f100a079e36128d9014dcc431f5fb76ba1f8aa7fb8912c7d7b9f
claim_tables:
  - claims/demo.tsv
"""


@pytest.fixture
def local_demo(tmp_path_factory):
    """The demo paper with its parts read from exports/ in the checkout: no URL, no mirror."""
    work = demo_copy(tmp_path_factory, "local_sources", mirror=None, demo={"parts": ["a", "c"]})
    (work / "workflow" / "papers" / "demo" / "paper.yaml").write_text(LOCAL_SOURCES)
    (work / "exports").mkdir()
    for part in "ac":
        shutil.copy2(FIXTURES / "demo_mirror" / "example.org" / "demo" / "v1" / f"part_{part}.tsv", work / "exports")
    return work


def status(work: Path, key: str) -> str:
    from reagree.pipeline.claims import read_claims

    return read_claims(work / "results" / "demo" / "claims.tsv").set_index("key").loc[key, "status"]


def test_a_local_file_is_copied_pinned_on_first_use_and_an_edit_stops_the_run(local_demo, monkeypatch):
    from reagree.pipeline.pins import read_record
    from reagree.pipeline.tables import sha256_of

    run_snakemake(local_demo, configfile="demo.yaml", cores=1)
    part_c = local_demo / "exports" / "part_c.tsv"
    assert (local_demo / "data" / "demo" / "parts" / "part_c.tsv").read_bytes() == part_c.read_bytes()
    assert read_record("demo", local_demo / "data") == {"parts/part_c.tsv": sha256_of(part_c)}  # part_a is pinned
    assert status(local_demo, "agreement.a_b.part_a") == "match"
    assert status(local_demo, "agreement.a_b.part_c") == "mismatch"
    assert (
        "copying local file exports/part_c.tsv" in (local_demo / "logs" / "fetch" / "demo" / "source_1.log").read_text()
    )

    # edited after its first use: the run stops until the new version is accepted
    from reagree.cli import main

    recorded = sha256_of(part_c)
    part_c.write_text(part_c.read_text().replace("4\tpos\tneg", "4\tneg\tneg"))  # now 4 of 4 agree
    edited = sha256_of(part_c)
    result = run_snakemake(local_demo, configfile="demo.yaml", check=False, cores=1)
    assert result.returncode != 0
    assert (
        f"reagree: data/demo/parts/part_c.tsv: its source now has sha256 {edited}, not the {recorded} recorded "
        "when it was first fetched (data/demo.sha256); source: local file exports/part_c.tsv. reagree does not "
        f"compute from a changed input. To take the new version: reagree accept demo parts/part_c.tsv {edited}"
    ) in said(result)
    monkeypatch.chdir(local_demo)
    assert main(["accept", "demo", "parts/part_c.tsv", edited]) == 0
    run_snakemake(local_demo, configfile="demo.yaml", cores=1)
    assert (local_demo / "data" / "demo" / "parts" / "part_c.tsv").read_bytes() == part_c.read_bytes()
    assert status(local_demo, "agreement.a_b.part_c") == "mismatch"  # 1.0 against the printed 0.70


def test_a_pinned_local_file_that_changed_or_went_missing_is_named_in_one_line(local_demo):
    from reagree.pipeline.tables import sha256_of

    part_a = local_demo / "exports" / "part_a.tsv"
    original = part_a.read_bytes()
    part_a.write_bytes(original + b"9\tneg\tneg\n")
    result = run_snakemake(local_demo, configfile="demo.yaml", check=False, cores=1)
    assert result.returncode != 0
    assert (
        f"reagree: exports/part_a.tsv, the local source of data/demo/parts/part_a.tsv, has sha256 "
        f"{sha256_of(part_a)}, not the 68d0ffaa23e8f100a079e36128d9014dcc431f5fb76ba1f8aa7fb8912c7d7b9f pinned "
        "in workflow/papers/demo/paper.yaml. reagree does not compute from a changed input. To use the file as "
        "it is now, put its new sha256 there"
    ) in said(result)
    part_a.unlink()
    result = run_snakemake(local_demo, configfile="demo.yaml", check=False, cores=1)
    assert result.returncode != 0
    assert (
        f"reagree: data/demo/parts/part_a.tsv: its local source file exports/part_a.tsv does not exist (seen "
        f"from {local_demo}); fix its path under sources in workflow/papers/demo/paper.yaml"
    ) in said(result)
    assert not (local_demo / "data" / "demo" / "parts" / "part_a.tsv").exists()


def test_a_source_with_both_a_url_and_a_path_is_refused_naming_it(tmp_path):
    from reagree.pipeline.paperspec import load_paper

    folder = tmp_path / "demo"
    shutil.copytree(FIXTURES / "demo_paper", folder)
    (folder / "paper.yaml").write_text(
        LOCAL_SOURCES.replace(
            '    path: "exports/part_{part}.tsv"\n',
            '    path: "exports/part_{part}.tsv"\n    url: "https://example.org/{part}.tsv"\n',
        )
    )
    with pytest.raises(ValueError) as raised:
        load_paper(folder / "paper.yaml")
    assert str(raised.value) == (
        f"{folder / 'paper.yaml'}: sources[0] (parts/part_{{part}}.tsv): give either url "
        "(a download) or path (a file on this machine), not both and not neither"
    )
