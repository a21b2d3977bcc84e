"""Every module of src/reagree declares its public names in ``__all__``, and each name there exists.

``__all__`` is read from the source (a literal list or tuple of strings at the module's top
level) and checked against the imported module: a name is there when the module has it as
an attribute or, for a package, when it is one of the package's submodules. The checker is
tried first on a small package written in the test, so a checker that found nothing wrong
in anything could not pass.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SRC = ROOT / "src"


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def declared_all(path: Path) -> list[str] | None:
    """The literal ``__all__`` of a module's source, or None when it has none."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            return list(ast.literal_eval(node.value))
    return None


def api_problems(root: Path, package: str) -> list[str]:
    """One line per module under ``root/package`` without ``__all__`` or naming what it lacks."""
    problems = []
    for path in sorted((root / package).rglob("*.py")):
        name = module_name(path, root)
        names = declared_all(path)
        if names is None:
            problems.append(f"{name}: no __all__")
            continue
        if len(set(names)) != len(names):
            problems.append(f"{name}: __all__ repeats a name")
        module = importlib.import_module(name)
        is_package = path.name == "__init__.py"
        for item in names:
            if not isinstance(item, str):
                problems.append(f"{name}: __all__ holds {item!r}, not a name")
            elif not hasattr(module, item) and not (is_package and importlib.util.find_spec(f"{name}.{item}")):
                problems.append(f"{name}: __all__ names {item}, which it lacks")
    return problems


def test_the_checker_finds_a_missing_all_and_a_name_the_module_lacks(tmp_path, monkeypatch):
    package = tmp_path / "apicheck_demo"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text('__all__ = ["good", "sub"]\n')
    (package / "good.py").write_text('__all__ = ["f"]\n\ndef f():\n    return 1\n')
    (package / "lacking.py").write_text('__all__ = ["f", "gone"]\n\ndef f():\n    return 1\n')
    (package / "bare.py").write_text("def f():\n    return 1\n")
    (package / "sub" / "__init__.py").write_text("__all__ = []\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert api_problems(tmp_path, "apicheck_demo") == [
            "apicheck_demo.bare: no __all__",
            "apicheck_demo.lacking: __all__ names gone, which it lacks",
        ]
    finally:
        for name in [name for name in sys.modules if name.startswith("apicheck_demo")]:
            del sys.modules[name]


def test_every_reagree_module_declares_all_and_has_every_name_in_it():
    problems = api_problems(SRC, "reagree")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "package", ["reagree.stats", "reagree.pipeline", "reagree.io", "reagree.methods", "reagree.report.sections"]
)
def test_a_package_of_modules_lists_every_module(package):
    """Packages whose ``__all__`` lists their modules (rather than re-exporting names) list them all."""
    folder = SRC.joinpath(*package.split("."))
    modules = sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")
    modules += sorted(path.name for path in folder.iterdir() if (path / "__init__.py").exists())
    assert sorted(declared_all(folder / "__init__.py")) == sorted(modules)
