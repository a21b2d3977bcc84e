"""Writing an audit's files: audit.json, audit.txt, items.csv (the disputed items, to
adjudicate), the tables (TSV and Markdown, with provenance), coefficients.png and, where
they apply, raters.png (leave-one-rater-out), pairs.png (fixed raters' heatmap) and
confusion.png, each written atomically (``reagree.pipeline.tables``)."""

from __future__ import annotations

from pathlib import Path

from reagree.audit.render import items_table, provenance, render_text, result_tables, to_json
from reagree.pipeline.tables import write_table, write_text_atomic

__all__ = ["write_outputs"]


def write_outputs(result: dict, folder: str | Path, title: str = "") -> dict[str, Path]:
    """audit.json, audit.txt, items.csv, the tables (TSV + Markdown) and the figures in
    ``folder``; a figure that does not apply to this audit is removed if an earlier one left it."""
    from reagree.audit.figure import coefficient_figure, confusion_figure, pairs_figure, raters_figure

    folder = Path(folder)
    written = {"json": folder / "audit.json", "text": folder / "audit.txt"}
    write_text_atomic(written["json"], to_json(result))
    write_text_atomic(written["text"], render_text(result, max_ties=10**9, max_pairs=10**9))
    about = provenance(result)
    titles = {
        "design": "Design",
        "coefficients": "Coefficients with bootstrap intervals",
        "per_category": "Per category: Fleiss kappa_j and specific agreement",
        "pairwise": "Pairs: agreement, Cohen's kappa, the copy-a-rater ceiling",
        "ties": f"Tied units and their labels (tie rule {result['ties']['rule']})",
        "raters": "Per rater: agreement with the rest, label bias, alpha and kappa without the rater",
        "category_pairs": "Category pairs: ordered pairs of ratings on the same unit",
    }
    for name, frame in result_tables(result).items():
        path = folder / "tables" / f"{name}.tsv"
        write_table(frame, path, f"{title or result['source']}: {titles[name]}", about)
        written[name] = path
    written["items"] = folder / "items.csv"
    write_text_atomic(written["items"], items_table(result).to_csv(index=False, lineterminator="\n"))
    written["figure"] = folder / "coefficients.png"
    coefficient_figure(result, written["figure"], title or Path(result["source"]).name)
    for name, draw in (
        ("raters_figure", raters_figure),
        ("pairs_figure", pairs_figure),
        ("confusion_figure", confusion_figure),
    ):
        path = folder / f"{name.split('_')[0]}.png"
        if draw(result, path):
            written[name] = path
        else:  # a figure that no longer applies (the design changed) must not outlive its audit
            path.unlink(missing_ok=True)
    return written
