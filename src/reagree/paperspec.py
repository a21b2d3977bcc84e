"""Reading a paper's ``paper.yaml`` without losing how its numbers were printed.

What it decides: a published value's precision is part of the claim. "0.40" printed
with two decimals matches 0.396 and not 0.41; YAML would turn it into the float 0.4 and
forget the second decimal. The loader here keeps every number's printed text, so the
default tolerance is half a unit of the last printed digit (``0.40`` -> 0.005,
``6.08e-04`` -> 5e-07, ``44`` -> 0.5). The file is validated against
``workflow/schemas/paper.schema.yaml``; errors name the file and the field.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import jsonschema
import yaml


class PrintedNumber(float):
    """A float that remembers the text it was printed as."""

    text: str

    def __new__(cls, text: str) -> "PrintedNumber":
        value = super().__new__(cls, float(text))
        value.text = text
        return value


def printed_tolerance(value: float | int | str) -> float:
    """Half a unit of the last printed digit of ``value`` (plus float slack is the caller's)."""
    text = getattr(value, "text", None) or (value if isinstance(value, str) else repr(value))
    exponent = Decimal(text.strip().lstrip("+")).as_tuple().exponent
    return 0.5 * 10.0 ** exponent


class _PrecisionLoader(yaml.SafeLoader):
    pass


def _number(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> PrintedNumber:
    return PrintedNumber(loader.construct_scalar(node))


_PrecisionLoader.add_constructor("tag:yaml.org,2002:float", _number)
_PrecisionLoader.add_constructor("tag:yaml.org,2002:int", _number)


def load_yaml(path: str | Path) -> object:
    """YAML with every number a ``PrintedNumber``."""
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_PrecisionLoader)


def _plain(value: object) -> object:
    """PrintedNumbers as plain floats (for the JSON-schema validator)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, PrintedNumber):
        return float(value)
    return value


def load_paper(path: str | Path, schema_path: str | Path) -> dict:
    """Load and validate one paper.yaml; the folder name must equal its ``id``."""
    path = Path(path)
    paper = load_yaml(path)
    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    try:
        jsonschema.validate(_plain(paper), schema)
    except jsonschema.ValidationError as error:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise ValueError(f"{path}: field {where}: {error.message}") from None
    if paper["id"] != path.parent.name:
        raise ValueError(f"{path}: id {paper['id']!r} differs from its folder name {path.parent.name!r}")
    # One value may be printed more than once (a table and the prose, a paper and its
    # replication); the same key, source and place twice is a copy-paste slip.
    keys = [(claim["key"], claim["source"], claim["where"]) for claim in paper.get("claims", [])]
    duplicated = sorted({k for k in keys if keys.count(k) > 1})
    if duplicated:
        raise ValueError(f"{path}: claims repeat (key, source, where) {duplicated}")
    names = [source["name"] for source in paper.get("sources", [])]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: two sources share a name")
    return paper
