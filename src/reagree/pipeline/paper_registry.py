"""The workflow's view of the papers: which are enabled, with which settings, what they fetch.

Used by the Snakefile at parse time and by the ``reagree`` command. A paper id in
``config["papers"]`` must be a folder ``workflow/papers/<id>/`` holding ``paper.yaml`` and
``rules.smk``; anything else stops the run with a message naming the ``papers`` key and
the ids that do exist. A paper's sources are expanded under its settings
(``reagree.pipeline.sources``), so only the files the configuration needs are fetched.
"""

from __future__ import annotations

from pathlib import Path

from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.settings import paper_folders
from reagree.pipeline.sources import expand_sources, expansion_values


def load_enabled_papers(paper_ids: list[str], workflow_dir: str | Path) -> dict[str, dict]:
    workflow_dir = Path(workflow_dir)
    known = paper_folders(workflow_dir)
    unknown = [p for p in paper_ids if p not in known]
    if unknown:
        raise ValueError(f"config key 'papers': unknown paper id(s) {unknown}; known papers: {known}")
    papers = {}
    for paper_id in paper_ids:
        folder = workflow_dir / "papers" / paper_id
        if not (folder / "rules.smk").is_file():
            raise ValueError(f"{folder}: a paper folder needs a rules.smk")
        papers[paper_id] = load_paper(folder / "paper.yaml")
    return papers


def paper_files(papers: dict[str, dict], config: dict) -> dict[str, list[dict]]:
    """Expanded sources of every enabled paper under its settings in ``config``."""
    return {paper_id: expand_sources(paper, config.get(paper_id) or {}) for paper_id, paper in papers.items()}


def paper_expansions(papers: dict[str, dict], config: dict) -> dict[str, dict]:
    return {paper_id: expansion_values(paper, config.get(paper_id) or {}) for paper_id, paper in papers.items()}


def source_of(files: dict[str, list[dict]], paper_id: str, name: str) -> dict:
    """The expanded source ``name`` of ``paper_id`` (KeyError naming both if absent)."""
    for source in files.get(paper_id, []):
        if source["name"] == name:
            return source
    declared = [s["name"] for s in files.get(paper_id, [])]
    shown = declared if len(declared) <= 12 else declared[:12] + [f"... {len(declared) - 12} more"]
    raise KeyError(f"data/{paper_id}/{name} is not a source of {paper_id} under this configuration; "
                   f"it fetches {shown}")
