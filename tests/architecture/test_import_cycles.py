"""The library's modules import one another without a circle (an import anywhere in a
module counts, deferred ones included). (No library module imports a paper or the
workflow, and the layers import downwards: tests/architecture/test_library_is_general.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

SRC = ROOT / "src"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in (SRC / "reagree").rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom) and node.module:
                # `from package import module` imports that module; any other name, the package
                targets = [
                    f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules else node.module
                    for alias in node.names
                ]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            found |= {t for t in targets if t in modules and t != name}
        graph[name] = found
    return graph


def test_no_import_circle_in_the_library():
    graph = import_graph()
    state: dict[str, str] = {}
    circles = []

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                circles.append(path[path.index(nxt) :] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not circles, circles


def test_the_audit_modules_import_downwards():
    graph = import_graph()
    assert graph["reagree.audit.figure"] & {"reagree.audit", "reagree.audit.write", "reagree.audit.compute"} == set()
    assert "reagree.audit.figure" in graph["reagree.audit.write"]
    assert graph["reagree.audit.read"] <= {m for m in graph if m.startswith(("reagree.stats", "reagree.io"))}
    assert not {m for m in graph["reagree.audit.render"] if m.startswith("reagree.audit")}


def test_stats_reads_no_file_and_io_computes_no_coefficient():
    """stats <- io: the statistics import no file-parsing module (arrays in, numbers out);
    reading tables (reagree.io) imports only the statistics' data model and the bounded
    read of a file. A parser moved back into stats, or a coefficient into io, fails here."""
    graph = import_graph()
    for name, imported in graph.items():
        if name.startswith("reagree.stats"):
            assert not {
                m
                for m in imported
                if m.startswith(("reagree.io", "reagree.pipeline", "reagree.audit", "reagree.report", "reagree.cli"))
            }, (name, imported)
            path = SRC / (name.replace(".", "/") + ".py")
            tree = ast.parse(path.read_text(encoding="utf-8") if path.is_file() else "")
            stdlib = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
            stdlib |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
            assert not stdlib & {"csv", "codecs", "io"}, (name, stdlib & {"csv", "codecs", "io"})
        if name.startswith("reagree.io"):  # reagree.files: the bounded read of a regular file
            assert all(
                m.startswith(("reagree.io", "reagree.stats.labels")) or m == "reagree.files" for m in imported
            ), (name, imported)
