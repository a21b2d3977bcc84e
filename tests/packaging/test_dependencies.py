"""The run-time dependencies pyproject.toml declares are exactly the third-party packages
imported at run time: by src/reagree, the workflow's .smk files and rule scripts, and the
papers' own packages (tests and benchmarks import more; those are the test extra)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from conftest import ROOT

# Imported only behind a setting that is off by default (jayanetti2026 rerun_roberta),
# each named in the module that imports it.
# irrCAC: the audit's reference columns (reagree.stats.registry), installed from the lock
# and skipped with a reason where absent; not in pyproject.toml because its metadata pins
# scipy==1.12.0 and pandas<3 (requirements.lock says so).
OPTIONAL = {"transformers", "torch", "irrCAC"}


def run_time_modules() -> set[str]:
    found = set()
    papers = {p.name for p in (ROOT / "workflow" / "papers").iterdir()}
    python = [*(ROOT / "src").rglob("*.py"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "workflow").rglob("*.py")]
    for path in python:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    for path in [ROOT / "Snakefile", *(ROOT / "workflow").rglob("*.smk")]:
        found |= set(re.findall(r"^\s*(?:from|import) ([A-Za-z_][A-Za-z0-9_]*)", path.read_text(), flags=re.M))
    local = {"reagree", *papers}
    return {m for m in found if m not in local and m not in sys.stdlib_module_names}


def names(specs) -> set[str]:
    return {re.split(r"[<>=!~ \[]", spec, maxsplit=1)[0].lower() for spec in specs}


def declared() -> set[str]:
    """The library's own dependencies and its extra ``tools`` (what a paper's rules rerun)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return names(project["dependencies"]) | names(project["optional-dependencies"]["tools"])


def test_declared_run_time_dependencies_are_the_ones_imported():
    distributions = packages_distributions()
    imported = {
        dist.lower() for module in run_time_modules() - OPTIONAL for dist in distributions.get(module, [module])
    }
    assert imported == declared(), {
        "imported, not declared": imported - declared(),
        "declared, not imported": declared() - imported,
    }


def test_the_library_does_not_depend_on_the_rerun_tools_and_the_lock_still_installs_them():
    """TextBlob and VADER are one paper's tool rerun, not the library's: they are the extra
    ``tools``, which the lock (make all, make test) installs and which jayanetti2026's
    rules.smk requires by name, so a user without it gets one line naming the extra."""
    from jayanetti2026.toolrerun import TOOL_PACKAGES, TOOLS_EXTRA

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    tools = names(project["optional-dependencies"][TOOLS_EXTRA])
    assert tools == {"textblob", "vadersentiment"} == {name.lower() for name in TOOL_PACKAGES.values()}
    assert not tools & names(project["dependencies"])
    lock = {
        line.split("==")[0].lower()
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert tools <= lock
    assert f"'.[test,cluster,{TOOLS_EXTRA}]'" in (ROOT / "Makefile").read_text()  # make lock keeps them locked
    # only a paper's package imports them: no module of the library does
    for path in (ROOT / "src").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import) (textblob|vaderSentiment)\b", text, flags=re.M), path


def test_the_test_only_libraries_are_a_test_extra_and_the_reference_libraries_run_time():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    test = {re.split(r"[<>=!~ ]", spec, maxsplit=1)[0].lower() for spec in project["optional-dependencies"]["test"]}
    assert {"pytest", "hypothesis"} <= test
    # The field's libraries stand beside every estimate at run time (reagree.stats.references).
    assert {"krippendorff", "scikit-learn", "statsmodels"} <= declared()
