"""The workflow's view of the papers: which are enabled, what they fetch.

Used by the Snakefile at parse time. A paper id in ``config["papers"]`` must be a folder
``workflow/papers/<id>/`` holding ``paper.yaml`` and ``rules.smk``; anything else stops
the run with a message naming the ``papers`` key and the ids that do exist.
"""

from __future__ import annotations

from pathlib import Path

from reagree.paperspec import load_paper


def load_enabled_papers(paper_ids: list[str], workflow_dir: str | Path) -> dict[str, dict]:
    workflow_dir = Path(workflow_dir)
    known = sorted(p.name for p in (workflow_dir / "papers").iterdir() if (p / "paper.yaml").is_file())
    unknown = [p for p in paper_ids if p not in known]
    if unknown:
        raise ValueError(f"config key 'papers': unknown paper id(s) {unknown}; known papers: {known}")
    schema = workflow_dir / "schemas" / "paper.schema.yaml"
    papers = {}
    for paper_id in paper_ids:
        folder = workflow_dir / "papers" / paper_id
        if not (folder / "rules.smk").is_file():
            raise ValueError(f"{folder}: a paper folder needs a rules.smk")
        papers[paper_id] = load_paper(folder / "paper.yaml", schema)
    return papers


def source_of(papers: dict[str, dict], paper_id: str, name: str) -> dict:
    """The source entry ``name`` of ``paper_id`` (KeyError naming both if absent)."""
    for source in papers[paper_id].get("sources", []):
        if source["name"] == name:
            return source
    declared = [s["name"] for s in papers[paper_id].get("sources", [])]
    raise KeyError(f"data/{paper_id}/{name} is not a source of {paper_id}; its paper.yaml declares {declared}")
