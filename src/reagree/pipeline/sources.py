"""A paper's sources as files to fetch: templated entries expanded over the settings.

What it decides:

- **One entry, many files.** A source entry whose ``name`` and ``url`` hold ``{field}``
  placeholders expands over ``expand``: each field maps to a literal list or to
  ``{setting: NAME}``, a list among the paper's settings (``config[<paper id>][NAME]``).
  Files are the product of the lists in the order the fields are declared, so
  ``{text}/{reader}_run{n}.json`` over 3 texts x 3 readers x 10 runs is 90 files, and
  ``{language}_labels.csv`` over the configured languages is only those.
- **Names are relative paths** under ``data/<paper>/``: segments of letters, digits,
  ``.``, ``_`` and ``-`` that start with a letter or digit, so no name climbs out of
  its folder.
- **Pins.** ``sha256`` is one hex digest for a plain entry, or a mapping from expanded
  name to digest for a templated one (a file without a known upstream digest is not
  pinned; its hash is recorded when fetched).
- **A local file is a source too.** An entry gives either ``url`` (http or https) or
  ``path``: a file on this machine (unpublished data, a colleague's export), absolute,
  ``~/...``, or relative to the checkout (the folder the workflow runs in). It is copied
  into ``data/<paper>/<name>`` and checked exactly like a download: against its pin, or
  pinned on first use (``reagree.pipeline.pins``). It needs no network and no mirror.
- Every placeholder must be an ``expand`` field and every field a placeholder, and two
  entries may not produce the same name: each is an error naming the paper and entry.
- **The names a paper can produce** (``source_names``) are its entries' names with each
  field filled by a value of its list, or of its setting's ``enum`` in the paper's
  settings schema (any text where there is none): the only names ``reagree accept``
  takes, whatever the current settings.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import string
from pathlib import Path

__all__ = [
    "NAME_PATTERN",
    "NAME_SEGMENT",
    "SourceError",
    "SourceNames",
    "check_name",
    "expand_entry",
    "expand_sources",
    "expansion_values",
    "is_name",
    "local_path",
    "origin",
    "pinned_names",
    "source_names",
]

NAME_SEGMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
#: The Snakemake wildcard pattern of a source name (the same rule, with subfolders).
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)*"


class SourceError(ValueError):
    """A source entry that cannot be expanded as written."""


def _fields(template: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]


def _lists(entry: dict, settings: dict, where: str) -> dict[str, list]:
    lists = {}
    for field, spec in (entry.get("expand") or {}).items():
        if isinstance(spec, dict):
            setting = spec.get("setting")
            if setting not in settings:
                raise SourceError(
                    f"{where}: expand field {field!r} reads setting {setting!r}, "
                    f"which the paper's settings do not have (settings: {sorted(settings)})"
                )
            values = settings[setting]
            if not isinstance(values, list):
                raise SourceError(f"{where}: setting {setting!r} must be a list to expand {field!r}")
        else:
            values = spec
        lists[field] = list(values)
    return lists


def is_name(name: str) -> bool:
    """Whether ``name`` is a relative path of allowed segments (it cannot leave its folder)."""
    return isinstance(name, str) and all(NAME_SEGMENT.match(segment) for segment in name.split("/"))


def check_name(name: str, where: str) -> None:
    if not is_name(name):
        raise SourceError(
            f"{where}: source name {name!r} must be a relative path of segments made of "
            "letters, digits, '.', '_' and '-' (no '..', no leading '/')"
        )


def expand_entry(entry: dict, settings: dict, where: str) -> list[dict]:
    """The files one source entry stands for, each ``{name, url, path, sha256, licence,
    values}``: ``url`` for a download, ``path`` (and ``url`` None) for a local file."""
    template = entry["name"]
    if ("url" in entry) == ("path" in entry):
        raise SourceError(
            f"{where}: a source gives either url (a download) or path (a file on this machine), "
            "not both and not neither"
        )
    origin = "url" if "url" in entry else "path"
    location = entry[origin]
    lists = _lists(entry, settings, where)
    placeholders = set(_fields(template)) | set(_fields(location))
    if placeholders != set(lists):
        raise SourceError(
            f"{where}: placeholders {sorted(placeholders)} in name/{origin} must equal the expand "
            f"fields {sorted(lists)}"
        )
    pins = entry.get("sha256")
    files = []
    for combination in itertools.product(*lists.values()):
        values = dict(zip(lists, combination))
        # a YAML number keeps its printed text ("1", not "1.0")
        text = {field: getattr(value, "text", None) or str(value) for field, value in values.items()}
        name = template.format(**text)
        check_name(name, where)
        sha256 = pins.get(name) if isinstance(pins, dict) else pins
        where_from = {"url": None, "path": None, origin: location.format(**text)}
        files.append(
            {"name": name, **where_from, "sha256": sha256, "licence": entry.get("licence", ""), "values": values}
        )
    return files


def expand_sources(paper: dict, settings: dict | None = None) -> list[dict]:
    """Every file a paper fetches under its current settings, in declaration order; each
    carries ``entry``, the index of its entry in ``sources`` (one fetch job per entry)."""
    settings = settings or {}
    files, seen = [], {}
    for index, entry in enumerate(paper.get("sources") or []):
        where = f"paper {paper.get('id', '?')}, sources[{index}] ({entry.get('name')})"
        for item in expand_entry(entry, settings, where):
            if item["name"] in seen:
                raise SourceError(f"{where}: name {item['name']!r} is also produced by {seen[item['name']]}")
            seen[item["name"]] = where
            files.append(dict(item, entry=index))
    return files


def expansion_values(paper: dict, settings: dict | None = None) -> dict[str, dict]:
    """For each expand field: the values built under these settings, and the setting that
    chooses them (None for a literal list): ``{field: {"values": [...], "setting": name}}``."""
    settings = settings or {}
    out: dict[str, dict] = {}
    for entry in paper.get("sources") or []:
        for field, spec in (entry.get("expand") or {}).items():
            setting = spec.get("setting") if isinstance(spec, dict) else None
            values = settings.get(setting, []) if setting else list(spec)
            slot = out.setdefault(field, {"values": [], "setting": setting})
            slot["values"] += [v for v in values if v not in slot["values"]]
            slot["setting"] = slot["setting"] or setting
    return out


def pinned_names(paper: dict) -> dict[str, str]:
    """Every name any setting could produce that carries a pin: ``{name: sha256}`` (for a
    mapping of pins only the names it lists). ``reagree accept`` refuses these."""
    pins = {}
    for entry in paper.get("sources") or []:
        value = entry.get("sha256")
        if isinstance(value, dict):
            pins.update(value)
        elif value:
            pins[entry["name"]] = value
    return pins


@dataclasses.dataclass(frozen=True)
class SourceNames:
    """Every name a paper's sources can produce under any of its settings: a plain
    entry's name, and a templated entry's name with each field filled by a value of its
    literal list, or of its setting (the values the setting's schema lists as its items'
    ``enum``; any text where the schema lists none). ``reagree accept`` takes only these."""

    paper_id: str
    paper_yaml: str
    templates: tuple[str, ...]
    patterns: tuple[re.Pattern, ...]  # one per entry

    def __contains__(self, name: str) -> bool:
        return is_name(name) and any(pattern.fullmatch(name) for pattern in self.patterns)

    def check(self, name: str) -> None:
        """Raise SourceError unless ``name`` is one of these names."""
        check_name(name, self.paper_id)
        if name not in self:
            raise SourceError(
                f"{self.paper_id}: no source in {self.paper_yaml} produces {name!r} under any setting; "
                f"its sources produce: {sorted(self.templates)}"
            )


def _setting_values(settings_schema: dict | None, setting: str) -> list | None:
    spec = ((settings_schema or {}).get("properties") or {}).get(setting) or {}
    values = (spec.get("items") or {}).get("enum")
    return list(values) if isinstance(values, list) else None


def source_names(paper: dict, settings_schema: dict | None = None, paper_yaml: str = "paper.yaml") -> SourceNames:
    """The names ``paper``'s sources can produce (``SourceNames``); ``settings_schema`` is
    the paper's settings.schema.yaml, read for the values a setting may hold."""
    patterns = []
    for entry in paper.get("sources") or []:
        lists = {}
        for field, spec in (entry.get("expand") or {}).items():
            values = _setting_values(settings_schema, spec.get("setting")) if isinstance(spec, dict) else spec
            lists[field] = None if values is None else [getattr(v, "text", None) or str(v) for v in values]
        parts, groups = [], {}
        for literal, field, _, _ in string.Formatter().parse(entry["name"]):
            parts.append(re.escape(literal))
            if field is None:
                continue
            if field in groups:  # the same field twice holds the same value
                parts.append(f"(?P={groups[field]})")
                continue
            groups[field] = f"g{len(groups)}"
            values = lists.get(field)
            choice = ".+" if values is None else "|".join(re.escape(v) for v in values)
            parts.append(f"(?P<{groups[field]}>{choice})")
        patterns.append(re.compile("".join(parts)))
    return SourceNames(
        str(paper.get("id", "?")),
        paper_yaml,
        tuple(dict.fromkeys(e["name"] for e in paper.get("sources") or [])),
        tuple(patterns),
    )


def local_path(source: dict, root: str | os.PathLike = ".") -> Path | None:
    """Where a local source's file is (``~`` expanded, relative paths from ``root``, the
    checkout), or None for a download."""
    if not source.get("path"):
        return None
    path = Path(source["path"]).expanduser()
    return path if path.is_absolute() else Path(root) / path


def origin(source: dict, root: str | os.PathLike = ".") -> str:
    """Where a source comes from, for messages: its URL, or "local file PATH"."""
    local = local_path(source, root)
    return source["url"] if local is None else f"local file {local}"
