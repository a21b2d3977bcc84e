"""The line between the library and the papers, read from the code's imports (``ast``: no
paper is imported here, and an import anywhere in a module counts, deferred ones too).

- No module of ``src/reagree`` imports a paper's package or anything under ``workflow/``.
- The library's layers import downwards only (../shared/layout.md, "Layers, bottom up"):
  stats <- io, methods <- pipeline, audit <- report, cli; a module imports its own layer
  or a lower one.
- No library module is used by one paper alone: counted over the library itself, the shared
  rule scripts (``scripts/``), the workflow's own rules and Snakefile, every paper folder
  (``workflow/papers/<id>/``: its package, scripts and rules.smk) and the paper that
  ``reagree new-paper`` writes (the template of every paper to come). Tests do not count.
  A module one paper alone imports is that paper's code and belongs in its package.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from reagree.pipeline.scaffold import scaffold_paper

from conftest import ROOT

SRC = ROOT / "src"
PAPERS_DIR = ROOT / "workflow" / "papers"

# Bottom up. reagree.files (bounded reads of a regular file, atomic writes) imports nothing of
# reagree and sits with the bottom layer; reagree.plots (matplotlib helpers) beside io and
# methods. The root package ``reagree`` holds only the version and may be imported anywhere.
LAYERS = (
    ("reagree.stats", "reagree.files"),
    ("reagree.io", "reagree.methods", "reagree.plots"),
    ("reagree.pipeline", "reagree.audit"),
    ("reagree.report", "reagree.cli"),
)
# Imports that climb, each with the change that will remove it (none today).
CLIMBS: dict[tuple[str, str], str] = {}
# General methods kept in the library that one paper alone uses today, each with why it is
# general. A module added here needs a reason of the same kind: it takes every label, column
# and convention as a parameter, and another design than its one user's could call it.
GENERAL_WITH_ONE_USER = {
    "reagree.methods.runtriples": "Cohen's kappa over every pair and every triple of repeated runs of any "
    "segmentation; grouping columns are parameters",
    "reagree.methods.phaseshift": "boundary placement, onset lags against rotations and B2 over any "
    "segmentation; windows, largest lag and labels are parameters",
    "reagree.stats.reference": "Cohen's kappa of raters against one or many reference labellings, and "
    "rankings across references",
    "reagree.stats.softlabel": "a rater scored against a panel's label distribution (cross-entropy, mean kappa)",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


LIBRARY = {module_name(path): path for path in (SRC / "reagree").rglob("*.py")}


def imported_names(tree: ast.AST) -> set[str]:
    """Every module name an import of ``tree`` names: ``from a.b import c`` gives a.b.c when
    that is a library module (a module imported from its package), else a.b."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in LIBRARY else node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def smk_imports(text: str) -> set[str]:
    """The imports of a Snakemake file (Python statements inside another grammar)."""
    code = "\n".join(
        line for line in text.splitlines() if re.match(r"\s*(from \S+ import |import )", line) and "(" not in line
    )
    return imported_names(ast.parse(code))


def library_imports() -> dict[str, set[str]]:
    """Library module -> the library modules it imports."""
    return {
        name: {m for m in imported_names(ast.parse(path.read_text(encoding="utf-8"))) if m in LIBRARY}
        for name, path in LIBRARY.items()
    }


def layer_of(module: str) -> int | None:
    for index, packages in enumerate(LAYERS):
        if any(module == package or module.startswith(package + ".") for package in packages):
            return index
    return None


def test_every_library_module_has_a_layer():
    unplaced = sorted(m for m in LIBRARY if m != "reagree" and layer_of(m) is None)
    assert not unplaced, f"modules in no layer of LAYERS: {unplaced}"


def test_no_library_module_imports_a_paper_or_the_workflow():
    # every name importable from workflow/: the top-level folder, and what each paper folder
    # puts on sys.path (its package, its scripts folder, ...)
    forbidden = {"workflow"} | {
        child.stem
        for folder in PAPERS_DIR.iterdir()
        if folder.is_dir()
        for child in folder.iterdir()
        if child.is_dir() or child.suffix == ".py"
    }
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for name, path in LIBRARY.items()
        for name in imported_names(ast.parse(path.read_text(encoding="utf-8")))
        if name.split(".")[0] in forbidden
    ]
    assert not found, found


def test_the_layers_import_downwards():
    climbs = [
        f"{module} -> {target}"
        for module, targets in library_imports().items()
        for target in sorted(targets)
        if target != "reagree" and layer_of(target) > layer_of(module) and (module, target) not in CLIMBS
    ]
    assert not climbs, f"imports from a lower layer to a higher one (../shared/layout.md): {climbs}"


def test_the_statistics_import_nothing_above_them():
    """stats is the bottom layer: arrays in, numbers out; no io, methods, pipeline, audit,
    report or cli. Named apart from the layer test so a climb out of it reads as what it is."""
    climbing = {
        module: sorted(t for t in targets if (layer_of(t) or 0) > 0 and (module, t) not in CLIMBS)
        for module, targets in library_imports().items()
        if module.startswith("reagree.stats")
    }
    assert not any(climbing.values()), {m: t for m, t in climbing.items() if t}


@pytest.fixture(scope="module")
def users(tmp_path_factory) -> dict[str, set[str]]:
    """Library module -> who imports it: "library", "scripts" (the shared rule scripts),
    "workflow" (its rules and Snakefile), a paper id, or "scaffold" (the paper
    ``reagree new-paper`` writes)."""
    scaffolded = tmp_path_factory.mktemp("scaffold")
    (scaffolded / "workflow" / "papers").mkdir(parents=True)
    scaffold_paper(scaffolded, "scaffolded")
    sources = [(path, "library") for path in LIBRARY.values()]
    sources += [(path, "scripts") for path in (ROOT / "scripts").glob("*.py")]
    sources += [(path, "workflow") for path in [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")]]
    sources += [
        (path, folder.name)
        for folder in PAPERS_DIR.iterdir()
        if folder.is_dir()
        for path in folder.rglob("*")
        if path.suffix in (".py", ".smk")
    ]
    sources += [(path, "scaffold") for path in (scaffolded / "workflow").rglob("*") if path.suffix in (".py", ".smk")]
    found: dict[str, set[str]] = {name: set() for name in LIBRARY}
    for path, user in sources:
        text = path.read_text(encoding="utf-8")
        names = imported_names(ast.parse(text)) if path.suffix == ".py" else smk_imports(text)
        for name in names & set(LIBRARY):
            if not (user == "library" and LIBRARY[name] == path):
                found[name].add(user)
    return found


def test_no_library_module_is_used_by_one_paper_alone(users):
    papers = {folder.name for folder in PAPERS_DIR.iterdir() if folder.is_dir()}
    alone = {
        name: sorted(who)
        for name, who in users.items()
        if len(who) == 1 and who <= papers and name not in GENERAL_WITH_ONE_USER
    }
    assert not alone, f"library modules only one paper imports (move each into that paper's package): {alone}"


def test_the_general_modules_with_one_user_are_still_library_modules():
    assert set(GENERAL_WITH_ONE_USER) <= set(LIBRARY)


def test_the_user_count_sees_a_module_used_by_one_paper(users):
    """The count itself, on what it must find: the scaffold's reader is imported by the
    scaffolded paper and by jayanetti2026; a method the library's own modules import is
    the library's."""
    assert {"jayanetti2026", "scaffold"} <= users["reagree.pipeline.readers"]
    assert "library" in users["reagree.stats.pairwise"]
    assert users["reagree.methods.runtriples"] == {"shvets2026"}
