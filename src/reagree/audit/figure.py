"""The audit's figure: every coefficient with its bootstrap interval, per category and
per pair beside it, on one shared scale with Krippendorff's bands shaded (a convention,
labelled as one). Matplotlib, Agg backend, no timestamps (``reagree.plots``), so the same
audit gives the same bytes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reagree.audit.render import coefficient_rows
from reagree.plots import plt, save_figure
from reagree.plots.intervals import COLOURS


def _rows(result: dict) -> dict[str, list[tuple[str, float | None, list | None, str]]]:
    """Panel -> rows of (label, value, [low, high] or None, series)."""
    panels: dict[str, list] = {"Coefficients": [], "Per category": [], "Pairs (Cohen's kappa)": []}
    for row in coefficient_rows(result):
        label = row["what"].split(" (")[0].replace("Krippendorff's alpha, ", "alpha, ")
        if row["coefficient"] == f"krippendorff_alpha.{result['level']}":
            label += " (chosen level)"
        ends = [row["ci_low"], row["ci_high"]] if row["ci_low"] is not None else None
        panels["Coefficients"].append((label, row["value"], ends, "coefficient"))
    for category, entry in result["per_category"].items():
        panels["Per category"].append((f"{category}: Fleiss kappa_j", entry.get("fleiss_kappa"),
                                       entry.get("fleiss_kappa_ci"), "kappa_j"))
        panels["Per category"].append((f"{category}: specific agreement", entry.get("specific_agreement"),
                                       entry.get("specific_agreement_ci"), "specific"))
    for pair in result["pairwise"]:
        panels["Pairs (Cohen's kappa)"].append((f"{pair['a']}-{pair['b']} (n={pair['n']})", pair["cohen_kappa"],
                                                pair.get("cohen_kappa_ci"), "pair"))
    return {name: rows for name, rows in panels.items() if rows}


def coefficient_figure(result: dict, path: str | Path, title: str) -> None:
    """One panel per group (coefficients, per category, pairs): a point per value and a
    bar for its interval; undefined values are listed as such, not drawn."""
    panels = _rows(result)
    heights = [len(rows) for rows in panels.values()]
    figure, axes = plt.subplots(len(panels), 1, figsize=(7.2, 0.32 * sum(heights) + 1.1 * len(panels) + 0.8),
                                gridspec_kw={"height_ratios": heights}, constrained_layout=True, squeeze=False)
    colour = {"coefficient": COLOURS[0], "kappa_j": COLOURS[1], "specific": COLOURS[2], "pair": COLOURS[3]}
    drawn = [end for rows in panels.values() for _, value, ends, _ in rows
             for end in [value, *(ends or [])] if end is not None]
    left = min(-0.2, min(drawn) - 0.05) if drawn else -0.2
    for index, (axis, (name, rows)) in enumerate(zip(axes[:, 0], panels.items())):
        y = np.arange(len(rows))[::-1]
        if index == 0:
            axis.axvspan(0.667, 0.800, color="#E69F00", alpha=0.14, linewidth=0)
            axis.axvspan(0.800, 1.0, color="#009E73", alpha=0.14, linewidth=0)
        axis.axvline(0.0, color="grey", linewidth=0.8)
        labels = []
        for position, (label, value, ends, series) in zip(y, rows):
            if value is None:
                labels.append(f"{label} (undefined)")
                continue
            labels.append(label)
            if ends and ends[0] is not None and ends[1] is not None:
                axis.plot(ends, [position, position], color=colour[series], linewidth=2.2, solid_capstyle="butt")
            axis.plot(value, position, "o", color=colour[series])
            axis.annotate(f"{value:.3f}", (value, position), xytext=(0, 5), textcoords="offset points",
                          ha="center", fontsize=7)
        axis.set_yticks(y, labels, fontsize=8)
        axis.set_ylim(-0.7, len(rows) - 0.3)
        axis.set_xlim(left, 1.02)
        axis.set_title(name, fontsize=10, loc="left")
        axis.grid(axis="x", alpha=0.3)
    bootstrap = result["settings"]["bootstrap"]
    axes[-1, 0].set_xlabel(f"value, with its {100 * bootstrap['level']:g}% bootstrap interval "
                           f"({bootstrap['draws']} resamples of the units)" if result["ci"].get("resampled")
                           else "value (no intervals)")
    axes[0, 0].text(0.7335, 1.01, "tentative", transform=axes[0, 0].get_xaxis_transform(), ha="center", fontsize=7,
                    color="#8a5a00")
    axes[0, 0].text(0.9, 1.01, "reliable", transform=axes[0, 0].get_xaxis_transform(), ha="center", fontsize=7,
                    color="#006b4f")
    figure.suptitle(f"{title}\nshaded: Krippendorff's bands for alpha (a convention, not a test)", fontsize=10)
    save_figure(figure, path)
