"""Reading a run's results for the report: the summary, each paper's claims, figures,
captions and tables, each audited dataset, and which papers failed or were left out.

Files are read in sorted order (or in the order the workflow lists them), so the same
results give the same page.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import pandas as pd

from reagree.pipeline.claims import read_claims
from reagree.pipeline.failures import error_path, read_failure

__all__ = ["AuditResults", "PaperResults", "RunScope", "figure_captions", "load_audits", "load_papers", "load_summary"]


@dataclass
class PaperResults:
    paper_id: str
    title: str
    cite: str
    claims: pd.DataFrame
    figures: list[Path] = field(default_factory=list)
    tables: list[Path] = field(default_factory=list)
    captions: dict[str, str] = field(default_factory=dict)  # figure file name -> caption text
    failed: str = ""  # why its claims could not be diffed (reagree.pipeline.failures); "" when they were


@dataclass
class AuditResults:
    name: str
    result: dict
    figure: Path | None
    folder: Path


@dataclass
class RunScope:
    """Which papers this run built, and which paper folders it left out (``config papers``)."""

    built: list[str]
    left_out: list[str] = field(default_factory=list)


def figure_captions(figures: Sequence[str | Path], workflow_dir: str | Path) -> dict[str, str]:
    """Each figure's caption: ``results/<paper>/figures/<name>.png`` is captioned by
    ``<workflow_dir>/papers/<paper>/report/<name>.rst`` (the file its rule gives
    Snakemake's ``report()``), when that file exists."""
    captions = {}
    for figure in figures:
        figure = Path(figure)
        if figure.suffix != ".png" or len(figure.parts) < 3 or figure.parent.name != "figures":
            continue
        caption = Path(workflow_dir) / "papers" / figure.parts[-3] / "report" / f"{figure.stem}.rst"
        if caption.is_file():
            captions[str(figure)] = caption.read_text(encoding="utf-8").strip()
    return captions


def load_papers(
    results: Path, papers: dict[str, dict], figures: Sequence[str | Path] = (), captions: dict[str, str] | None = None
) -> list[PaperResults]:
    """Each paper's claims, figures (the given PNGs under results/<paper>/ in the given
    order, else every PNG in results/<paper>/figures) with their ``captions`` (keyed by
    figure path), tables (results/<paper>/tables/*.tsv) and, when its claims could not be
    diffed, the recorded error."""
    loaded = []
    for paper_id, meta in papers.items():
        folder = results / paper_id
        claims = read_claims(folder / "claims.tsv")
        # in the order the paper's rules list them (its reading order), else sorted
        mine = list(dict.fromkeys(Path(f) for f in figures if Path(f).suffix == ".png" and paper_id in Path(f).parts))
        if not mine and (folder / "figures").is_dir():
            mine = sorted((folder / "figures").glob("*.png"))
        tables = sorted((folder / "tables").glob("*.tsv")) if (folder / "tables").is_dir() else []
        mine_captions = {
            Path(f).name: text
            for f, text in (captions or {}).items()
            if Path(f).suffix == ".png" and paper_id in Path(f).parts
        }
        loaded.append(
            PaperResults(
                paper_id,
                meta.get("title", paper_id),
                meta.get("cite", ""),
                claims,
                mine,
                tables,
                mine_captions,
                read_failure(error_path(results, paper_id)),
            )
        )
    return loaded


def load_audits(results: Path, names: Sequence[str]) -> list[AuditResults]:
    audits = []
    for name in names:
        folder = results / "audit" / name
        figure = folder / "coefficients.png"
        audits.append(
            AuditResults(
                name,
                json.loads((folder / "audit.json").read_text(encoding="utf-8")),
                figure if figure.is_file() else None,
                folder,
            )
        )
    return audits


def load_summary(results: Path) -> pd.DataFrame:
    """results/summary.tsv (``reagree.pipeline.summary``); its ``failed`` column as text."""
    return pd.read_csv(results / "summary.tsv", sep="\t", dtype={"failed": str}, keep_default_na=False)
