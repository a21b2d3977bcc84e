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
- **Numbers are finite.** ``.nan`` and ``.inf`` pass JSON Schema's bounds (every
  comparison with NaN is false), so any non-finite number is refused first, naming its
  key (``timeout: .nan`` would otherwise reach the socket layer, ``level: .nan`` an
  interval).
- **Config files are read strictly before Snakemake merges them** (``check_config_files``,
  called from the Snakefile before its ``configfile:`` line, and by ``make all`` and the
  ``reagree`` command): reagree's YAML reader refuses alias bombs, repeated keys (naming
  both lines) and text that is not UTF-8, in one line. Snakemake's own loader shares an
  alias's object instead of copying it, so reading a bomb costs nothing until something
  walks it; Snakemake's merge of config files walks mappings, and the Snakefile's check
  runs before that merge. (A file that is not UTF-8 fails inside Snakemake's command-line
  parser, before any of reagree runs; ``make all`` and ``reagree`` name it in one line.)
- **A config file that is not there is one line** naming it, the folder it was looked
  for from, and what a config file is for. ``make all`` and ``make lint`` check CONFIG
  that way before Snakemake starts; plain ``snakemake --configfile missing.yaml`` fails
  inside Snakemake's command-line parser with its own traceback, before the Snakefile
  (and so any of reagree) is read.
"""

from __future__ import annotations

import copy
import difflib
import importlib.resources
import json
import math
from pathlib import Path

import jsonschema

from reagree.pipeline import yamlio
from reagree.pipeline.yamlio import MAX_EXPANDED_VALUES, load_yaml, load_yaml_text

__all__ = [
    "PAPER_SETTINGS_SCHEMA",
    "check_config_files",
    "check_finite",
    "coerce_strings",
    "expanded_size",
    "fill_defaults",
    "load_schema",
    "missing_config_file",
    "paper_folders",
    "paper_settings_schema",
    "resolve_config",
    "schema_error",
    "schema_path",
    "schema_validator",
    "split_paper_settings",
    "validate",
]

PAPER_SETTINGS_SCHEMA = "settings.schema.yaml"


def schema_path(name: str) -> Path:
    """``<name>.schema.yaml`` as installed with the package (``reagree.schemas``, which is
    the checkout's ``workflow/schemas`` under an editable install)."""
    filename = f"{name}.schema.yaml"
    installed = importlib.resources.files("reagree.schemas") / filename
    if not installed.is_file():
        raise FileNotFoundError(
            f"reagree's schema {filename} is not installed with the package (reinstall reagree: pip install -e .)"
        )
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
    clash = sorted(set(known_papers) & set(global_keys))
    if clash:
        raise ValueError(
            f"{Path(workflow_dir) / 'papers' / clash[0]}: a paper folder may not be named as a key of "
            f"config.yaml ({clash[0]!r}); rename it"
        )
    settings = {key: config.pop(key) for key in list(config) if key in known_papers}
    unknown = [key for key in config if key not in global_keys]
    if unknown:
        hints = []
        for key in unknown:
            close = difflib.get_close_matches(str(key), global_keys + known_papers, n=1)
            hints.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise ValueError(
            f"config: unknown key(s) {', '.join(hints)}. Known keys: {global_keys}; "
            f"paper settings keys (one per paper folder): {known_papers}"
        )
    return settings


def fill_defaults(data: dict, schema: dict) -> dict:
    """Defaults of ``schema`` filled into ``data`` (recursively, for nested objects)."""
    for key, sub in schema.get("properties", {}).items():
        if key not in data and "default" in sub:
            data[key] = copy.deepcopy(sub["default"])  # a copy: filling it in below leaves the schema's default as is
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


def _non_finite(data: object, path: tuple = ()) -> tuple[tuple, float] | None:
    """The first number in ``data`` that is NaN or infinite, with its key path."""
    if isinstance(data, float) and not math.isfinite(data):
        return path, data
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found = _non_finite(value, (*path, key))
        if found:
            return found
    return None


def check_finite(data: object, where: str) -> None:
    """Refuse ``.nan`` and ``.inf`` anywhere in ``data``, naming the key."""
    found = _non_finite(data)
    if found:
        path, value = found
        field = ".".join(str(p) for p in path) or "(top level)"
        raise ValueError(f"{where}: key {field}: {value} is not a finite number")


def expanded_size(data: object) -> int:
    """How many values loaded ``data`` stands for with every shared list or mapping counted
    each time it is referenced (``yamlio.expanded_size`` over lists and mappings), so a
    YAML bomb loaded elsewhere (shared objects) is measured without being expanded."""
    return yamlio.expanded_size(data, yamlio.data_children)


def check_config_files(paths, merged: object | None = None) -> None:
    """Read every config file with reagree's strict YAML reader (alias bombs, repeated
    keys, text that is not UTF-8, non-finite numbers: one line naming the file and key),
    and refuse a merged configuration (``--config`` values) that expands past
    ``MAX_EXPANDED_VALUES``. A file that does not exist is refused in one line saying what
    a config file is for (``missing_config_file``). Raises ValueError."""
    for path in map(Path, paths):
        if not path.is_file():
            raise ValueError(missing_config_file(path))
        data = load_yaml(path)
        if data is not None and not isinstance(data, dict):
            raise ValueError(f"{path}: a config file is a mapping of keys to values")
        check_finite(data, str(path))
    if merged is not None and expanded_size(merged) > MAX_EXPANDED_VALUES:
        raise ValueError(
            f"config: the configuration expands to more than {MAX_EXPANDED_VALUES:,} values "
            "(YAML aliases?); reagree refuses it"
        )


def _did_you_mean(error: jsonschema.ValidationError) -> str | None:
    """A schema error in words with the nearest allowed name (difflib): an unknown key
    (``additionalProperties``) or a value outside an ``enum``; None for other errors."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = list(error.schema.get("properties", {}))
        unknown = [key for key in error.instance if key not in known]
        if not unknown:
            return None
        hints = []
        for key in unknown:
            close = difflib.get_close_matches(str(key), known, n=1)
            hints.append(f"{key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        return f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(hints)}; known keys: {known}"
    if error.validator == "enum":
        allowed = [str(v) for v in error.validator_value]
        close = difflib.get_close_matches(str(error.instance), allowed, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{error.instance!r} is not one of {list(error.validator_value)}{hint}"
    return None


def missing_config_file(path: str | Path) -> str:
    """One line for a config file that is not there: which file, seen from where, what a
    config file is for, and the ways on (``make all`` and ``make lint`` check their CONFIG
    with ``python -m reagree.pipeline.runs`` before Snakemake reads it)."""
    path = Path(path)
    if path.name == "config.yaml" and not path.parent.joinpath("Snakefile").is_file():
        return (
            f"config file {path} does not exist (seen from {Path.cwd()}): run reagree from the checkout, "
            "the folder holding the Snakefile and config.yaml"
        )
    what = "is a folder, not a config file" if path.is_dir() else "does not exist"
    return (
        f"config file {path} {what} (seen from {Path.cwd()}). A config file lays its settings over "
        "config.yaml (make all CONFIG=FILE, snakemake --configfile FILE); an offline one names the mirror to "
        "copy the sources from (mirror: /path/to/mirror). Fix the path, or leave CONFIG out to download the "
        "sources"
    )


def validate(data: object, schema: dict, where: str) -> None:
    """jsonschema validation with an error that names ``where`` and the field; a number
    that is not finite is refused first (JSON Schema's bounds let NaN through). An
    unknown key or a value outside a list of choices gets the nearest allowed one
    ("did you mean 'languages'?")."""
    check_finite(data, where)
    error = schema_error(data, schema)
    if error is not None:
        field = ".".join(str(p) for p in error.absolute_path)
        hint = _did_you_mean(error)
        if hint and error.validator == "additionalProperties":
            raise ValueError(f"{where}: {hint}" if not field else f"{where}: key {field}: {hint}")
        raise ValueError(f"{where}: key {field or '(top level)'}: {hint or error.message}")


def paper_settings_schema(workflow_dir: str | Path, paper_id: str) -> Path | None:
    path = Path(workflow_dir) / "papers" / paper_id / PAPER_SETTINGS_SCHEMA
    return path if path.is_file() else None


def resolve_config(config: dict, workflow_dir: str | Path) -> dict:
    """The whole configuration checked and completed, outside Snakemake (the ``reagree``
    command uses it; the Snakefile does the same steps with Snakemake's ``validate``)."""
    if expanded_size(config) > MAX_EXPANDED_VALUES:
        raise ValueError(
            f"config: the configuration expands to more than {MAX_EXPANDED_VALUES:,} values "
            "(YAML aliases?); reagree refuses it"
        )
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
