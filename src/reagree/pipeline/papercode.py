"""The one place reagree imports a module by its name: reagree's own modules, the field's
reference libraries it depends on, and a paper's own package (``workflow/papers/<id>/<id>/``),
never anything a run fetched or read.

A paper's package (``<id>``, whose ``PAPER`` ``reagree.pipeline.paper.paper_code`` reads)
and the ``module.qualified_name`` a values table names in its ``function`` column are
resolved here. A name that is not ``reagree.<...>`` or
``<reference library>.<...>`` or ``<paper id>.<module>`` is refused before anything is imported, so a values or claims
file cannot make reagree import a module of its choosing.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from types import ModuleType

__all__ = ["import_code", "resolve_function"]

# the field's reference libraries, which a key may name as the function behind it
REFERENCE_LIBRARIES = ("reagree", "krippendorff", "statsmodels", "sklearn", "scipy", "numpy")
_PAPER_ID = re.compile(r"[a-z][a-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _allowed(module: str) -> bool:
    parts = module.split(".")
    if not all(_MODULE.fullmatch(part) for part in parts):
        return False
    if parts[0] in REFERENCE_LIBRARIES:
        return True
    # a paper's package: its folder workflow/papers/<id>/ is on sys.path in the workflow
    # and the tests; its modules are the paper's readers, keys, variants and figures
    return bool(_PAPER_ID.fullmatch(parts[0]))


def import_code(module: str) -> ModuleType:
    """Import ``module`` when it is reagree's own, a reference library's or a paper package's (ValueError otherwise)."""
    if not _allowed(module):
        raise ValueError(
            f"{module!r}: reagree imports only its own modules, its reference libraries and a paper's package"
        )
    root = module.split(".")[0]
    if root not in REFERENCE_LIBRARIES:
        # where the paper's package would come from, found without running any of it
        spec = importlib.util.find_spec(root)
        origin = (spec.origin or "") if spec else ""
        if spec is None:
            raise ModuleNotFoundError(f"No module named {root!r}", name=root)
        if "papers" not in re.split(r"[\\/]", origin):
            raise ValueError(
                f"{module!r} is not a paper's package (found at {origin or 'no file'}); "
                "a paper's package lives in workflow/papers/<id>/<id>/"
            )
    found = importlib.import_module(module)
    return found


def resolve_function(name: str) -> object:
    """The object a ``module.qualified_name`` names (ValueError when nothing has it)."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            found: object = import_code(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attribute in parts[split:]:
                found = getattr(found, attribute)
        except AttributeError:
            break
        return found
    raise ValueError(f"{name}: no module holds this function")
