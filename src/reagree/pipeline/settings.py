"""The configuration a run is made of: config.yaml, its schema, and each paper's settings.

What it decides:

- **Schemas ship with the package.** ``workflow/schemas/*.yaml`` are installed as the
  package data ``reagree.schemas`` (see pyproject.toml), so an installed ``reagree``
  finds them from any folder; in a checkout they are read where they are.
- **Unknown keys stop the run.** The global schema lists every top-level key; a key
  named after a paper folder (``workflow/papers/<id>/``) is that paper's settings,
  validated by ``workflow/papers/<id>/settings.schema.yaml`` with its defaults filled in.
  A misspelt key (``mirorr:``) is an error that suggests the key meant.
- **Command-line values are typed by the schema.** Snakemake reads
  ``--config bootstrap='{draws: 500, seed: 0}'`` with YAML's base loader, so every
  scalar arrives as a string; a string where the schema wants an integer, a number or a
  boolean is converted when it spells one exactly (``"500"`` -> 500), and left for the
  schema to reject otherwise (``"many"``).
- **A whole number written as a float in a file is that integer.** JSON Schema counts
  ``2000.0`` as an integer, so it passes validation, but ``range`` and numpy refuse a
  float count; where the schema wants an integer (and not any number), a YAML float that
  is a whole number becomes the int (``draws: 2000.0`` -> 2000). ``2000.5`` is left for
  the schema to reject. (On the command line, where values arrive as text, ``"2000.0"``
  is not an integer's spelling and the schema rejects it.)
- **Defaults live in the schemas** (``default:``), not in code.
"""

from __future__ import annotations

import copy
import difflib
import importlib.resources
import json
import math
from pathlib import Path

import jsonschema

from reagree.pipeline.yamlio import load_yaml, load_yaml_text

PAPER_SETTINGS_SCHEMA = "settings.schema.yaml"


def schema_path(name: str) -> Path:
    """``<name>.schema.yaml`` as installed with the package (``reagree.schemas``, which is
    the checkout's ``workflow/schemas`` under an editable install)."""
    filename = f"{name}.schema.yaml"
    installed = importlib.resources.files("reagree.schemas") / filename
    if not installed.is_file():
        raise FileNotFoundError(f"reagree's schema {filename} is not installed with the package "
                                "(reinstall reagree: pip install -e .)")
    return Path(str(installed))


def load_schema(path: str | Path) -> dict:
    schema = load_yaml(path)
    if not isinstance(schema, dict):
        raise ValueError(f"{path}: a schema must be a mapping")
    return schema


def paper_folders(workflow_dir: str | Path) -> list[str]:
    """Ids of the paper folders under ``workflow/papers`` (a folder with a paper.yaml)."""
    papers = Path(workflow_dir) / "papers"
    return sorted(p.name for p in papers.iterdir() if (p / "paper.yaml").is_file()) if papers.is_dir() else []


def _types(schema: dict) -> list[str]:
    declared = schema.get("type", [])
    return [declared] if isinstance(declared, str) else list(declared)


def _convert(text: str, types: list[str]) -> object:
    try:
        value = load_yaml_text(text)
    except ValueError:
        return text
    if isinstance(value, bool):
        return value if "boolean" in types else text
    if isinstance(value, int) and ("integer" in types or "number" in types):
        return value
    if isinstance(value, float) and "number" in types:
        return value
    if value is None and "null" in types:
        return None
    return text


def _integral_float(value: float, types: list[str]) -> bool:
    """A float that is a whole number where the schema wants an integer, not any number."""
    return "integer" in types and "number" not in types and math.isfinite(value) and value.is_integer()


def coerce_strings(data: object, schema: dict) -> object:
    """``data`` with command-line strings converted to the types ``schema`` asks for, and
    whole-number floats to ints where it asks for an integer."""
    types = _types(schema)
    if isinstance(data, str) and "string" not in types and types:
        return _convert(data, types)
    if isinstance(data, float) and not isinstance(data, bool) and _integral_float(data, types):
        return int(data)
    if isinstance(data, str) and types == ["string", "null"] and data in ("null", "~"):
        return None
    if isinstance(data, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        out = {}
        for key, value in data.items():
            sub = properties.get(key, extra if isinstance(extra, dict) else {})
            out[key] = coerce_strings(value, sub)
        return out
    if isinstance(data, list) and isinstance(schema.get("items"), dict):
        return [coerce_strings(item, schema["items"]) for item in data]
    return data


def split_paper_settings(config: dict, workflow_dir: str | Path, schema: dict) -> dict:
    """Remove and return the keys of ``config`` that are paper settings; raise naming any
    key that is neither a global key nor a paper folder (with the likely key meant)."""
    known_papers = paper_folders(workflow_dir)
    global_keys = list(schema.get("properties", {}))
    settings = {key: config.pop(key) for key in list(config) if key in known_papers}
    unknown = [key for key in config if key not in global_keys]
    if unknown:
        hints = []
        for key in unknown:
            close = difflib.get_close_matches(str(key), global_keys + known_papers, n=1)
            hints.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise ValueError(f"config: unknown key(s) {', '.join(hints)}. Known keys: {global_keys}; "
                         f"paper settings keys (one per paper folder): {known_papers}")
    return settings


def fill_defaults(data: dict, schema: dict) -> dict:
    """Defaults of ``schema`` filled into ``data`` (recursively, for nested objects)."""
    for key, sub in schema.get("properties", {}).items():
        if key not in data and "default" in sub:
            data[key] = sub["default"]
        if isinstance(data.get(key), dict) and sub.get("type") == "object":
            fill_defaults(data[key], sub)
    return data


_VALIDATORS: dict[str, jsonschema.protocols.Validator] = {}


def schema_validator(schema: dict) -> jsonschema.protocols.Validator:
    """The validator of ``schema``, built (and the schema checked against its metaschema)
    once per process: ``jsonschema.validate`` redoes both on every call, which made loading
    a paper's hundreds of claim rows, and so every Snakemake start, take seconds."""
    key = json.dumps(schema, default=repr)  # a schema's content, in its own key order
    validator = _VALIDATORS.get(key)
    if validator is None:
        schema = copy.deepcopy(schema)  # a caller changing its dict later changes nothing here
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validator = _VALIDATORS[key] = cls(schema)
    return validator


def schema_error(data: object, schema: dict | jsonschema.protocols.Validator) -> jsonschema.ValidationError | None:
    """The error ``jsonschema.validate(data, schema)`` would raise (its best match), or None."""
    validator = schema if isinstance(schema, jsonschema.protocols.Validator) else schema_validator(schema)
    return jsonschema.exceptions.best_match(validator.iter_errors(data))


def validate(data: object, schema: dict, where: str) -> None:
    """jsonschema validation with an error that names ``where`` and the field."""
    error = schema_error(data, schema)
    if error is not None:
        field = ".".join(str(p) for p in error.absolute_path) or "(top level)"
        raise ValueError(f"{where}: key {field}: {error.message}")


def paper_settings_schema(workflow_dir: str | Path, paper_id: str) -> Path | None:
    path = Path(workflow_dir) / "papers" / paper_id / PAPER_SETTINGS_SCHEMA
    return path if path.is_file() else None


def resolve_config(config: dict, workflow_dir: str | Path) -> dict:
    """The whole configuration checked and completed, outside Snakemake (the ``reagree``
    command uses it; the Snakefile does the same steps with Snakemake's ``validate``)."""
    config = dict(config)
    schema = load_schema(schema_path("config"))
    config = coerce_strings(config, schema)
    settings = split_paper_settings(config, workflow_dir, schema)
    fill_defaults(config, schema)
    validate(config, schema, "config")
    for paper_id in paper_folders(workflow_dir):
        path = paper_settings_schema(workflow_dir, paper_id)
        if path is None:
            continue
        paper_schema = load_schema(path)
        values = coerce_strings(settings.get(paper_id) or {}, paper_schema)
        fill_defaults(values, paper_schema)
        validate(values, paper_schema, f"config key {paper_id!r} ({path})")
        settings[paper_id] = values
    config.update(settings)
    return config
