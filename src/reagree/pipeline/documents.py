"""A paper's documents: the texts whose printed numbers its ledger accounts for, fetched like data.

What it decides:

- **Two places declare documents.** ``documents:`` in paper.yaml, entries shaped like
  ``sources:`` (a ``name``, a ``url`` pinned to a commit or a local ``path``, an optional
  ``sha256``, ``licence``, ``expand``), for documents anyone can fetch (the authors'
  repository files a claim quotes); and the config's top-level ``documents:``, which maps a
  paper id to a list of local paths (or entries) for documents that travel with a machine
  rather than with the paper (a publisher's text a user saved; the seed texts of
  ``../shared/documents.yaml``). A path's document is named by its file name.
- **Fetched like sources, never run.** Each document lands at
  ``data/<paper>/documents/<name>`` through the same fetch rule and pins as a source
  (``reagree.pipeline.pins``): checked against its sha256, or pinned on first use (its
  sha256 recorded in ``data/<paper>.sha256`` as ``documents/<name>``), copied from the
  offline mirror when one is set, written atomically. A document is read as text, never
  imported or executed.
- **A repository document** is one whose URL holds a 40-hex commit followed by a path
  (``.../<commit>/reproduce.py``): the claims whose source is ``repository:
  reproduce.py@<commit>`` are held against it (``repository_of``).
- Two documents of a paper with one name, or a document named like a source, are errors
  naming the paper; a config ``documents:`` key that is not a paper folder is an error
  naming it. Documents of papers this run does not build are ignored.
- ``reagree accept`` takes a document's name as it takes a source's
  (``documents/<name>``): paper.yaml's under any setting, and any single file name
  under ``documents/`` for the config's (which ``accept`` does not read).
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path, PurePosixPath

from reagree.pipeline.settings import paper_folders
from reagree.pipeline.sources import SourceError, SourceNames, expand_entry, expand_sources, origin, source_names

__all__ = [
    "FOLDER",
    "document_entries",
    "document_name",
    "document_params",
    "expand_documents",
    "paper_documents",
    "repository_of",
    "with_documents",
]

FOLDER = "documents"
_REPOSITORY_URL = re.compile(r"/(?P<commit>[0-9a-f]{40})/(?P<path>[^?#]+)$")


def _entries(paper_id: str, paper: dict, config: dict) -> list[dict]:
    """Every document entry of a paper: paper.yaml's, then the config's."""
    entries = [dict(entry) for entry in paper.get("documents") or []]
    for item in (config.get("documents") or {}).get(paper_id) or []:
        if isinstance(item, str):
            entries.append({"name": PurePosixPath(item.replace(os.sep, "/")).name, "path": item})
        else:
            entries.append(dict(item))
    return entries


def document_entries(paper_id: str, paper: dict, config: dict) -> list[dict]:
    """The paper's document entries as fetch entries: names under ``documents/``."""
    return [dict(entry, name=f"{FOLDER}/{entry['name']}") for entry in _entries(paper_id, paper, config)]


def expand_documents(paper_id: str, paper: dict, config: dict, sources: list[dict] | None = None) -> list[dict]:
    """Every document file of a paper under its settings, each carrying ``entry`` (its
    index in ``document_entries``): one fetch job per entry, as for sources."""
    settings = config.get(paper_id) or {}
    files, seen = [], {source["name"]: "a source" for source in sources or []}
    for index, entry in enumerate(document_entries(paper_id, paper, config)):
        where = f"paper {paper_id}, documents[{index}] ({entry['name'][len(FOLDER) + 1 :]})"
        for item in expand_entry(entry, settings, where):
            if item["name"] in seen:
                raise SourceError(
                    f"{where}: the name {document_name(item)!r} is also {seen[item['name']]}'s; give "
                    "each document a name of its own"
                )
            seen[item["name"]] = f"documents entry {index}"
            files.append(dict(item, entry=index))
    return files


def paper_documents(papers: dict[str, dict], config: dict, workflow_dir: str | Path | None = None) -> dict:
    """``{paper id: [document files]}`` for the enabled papers; a config ``documents:`` key
    that names no paper folder is an error."""
    if workflow_dir is not None:
        known = paper_folders(workflow_dir)
        unknown = sorted(set(config.get("documents") or {}) - set(known))
        if unknown:
            raise ValueError(f"config key 'documents': {unknown} are not paper folders (papers: {known})")
    return {
        paper_id: expand_documents(paper_id, paper, config, expand_sources(paper, config.get(paper_id) or {}))
        for paper_id, paper in papers.items()
    }


def document_name(item: dict) -> str:
    """The name a ledger and the summary use for a document file: without ``documents/``."""
    return item["name"][len(FOLDER) + 1 :] if item["name"].startswith(f"{FOLDER}/") else item["name"]


def repository_of(url: str | None) -> tuple[str, str] | None:
    """(path, commit) of a document fetched from a repository at a commit, else None."""
    found = _REPOSITORY_URL.search(url or "")
    return (found["path"], found["commit"]) if found else None


def document_params(files: list[dict], data: str = "data", paper_id: str = "") -> list[dict]:
    """What the ledger rule needs of each document: its name, where it landed, where it
    came from, and the repository file it is (or None)."""
    return [
        {
            "name": document_name(item),
            "path": f"{data}/{paper_id}/{item['name']}",
            "origin": origin(item),
            "repository": list(repository_of(item.get("url")) or []) or None,
        }
        for item in files
    ]


def with_documents(names: SourceNames, paper_id: str, paper: dict, settings_schema: dict | None = None) -> SourceNames:
    """``names`` (the paper's source names) and its documents' names (module docstring)."""
    documents = source_names(
        {"id": paper_id, "sources": document_entries(paper_id, paper, {})}, settings_schema, names.paper_yaml
    )
    return dataclasses.replace(
        names,
        templates=names.templates + documents.templates,
        patterns=names.patterns + documents.patterns + (re.compile(rf"{FOLDER}/[A-Za-z0-9][A-Za-z0-9._-]*"),),
    )
