"""The audit's figure: every coefficient with its bootstrap interval, per category and
per pair beside it, on one shared scale. Krippendorff's bands (a convention, labelled as
one) are shaded behind the alpha rows only: percent agreement, Fleiss' kappa, AC1, PABAK
and the kappas have no such bands, and shading behind them would invite reading them
against alpha's. The title says what the figure shows and where its numbers come from
(the file, its sha256, the bootstrap). Matplotlib, Agg backend, no timestamps
(``reagree.plots``), so the same audit gives the same bytes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.patches import Patch, Rectangle

from reagree.audit.render import coefficient_rows
from reagree.plots import lower_triangle, plain_text, plt, save_figure
from reagree.plots.intervals import COLOURS

__all__ = [
    "MAX_PAIRS_DRAWN",
    "MAX_RATERS_DRAWN",
    "SERIES_WORDS",
    "coefficient_figure",
    "confusion_figure",
    "pairs_figure",
    "raters_figure",
]

# Pairs drawn one row each, at most (the terminal lists as many); beyond, pairwise.tsv has them.
MAX_PAIRS_DRAWN = 45
TENTATIVE, RELIABLE = 0.667, 0.800
_BANDS = (
    (TENTATIVE, RELIABLE, "#E69F00", "alpha 0.667 to 0.800: tentative"),
    (RELIABLE, 1.0, "#009E73", "alpha 0.800 and up: reliable"),
)


def _rows(result: dict) -> dict[str, list[tuple[str, float | None, list | None, str]]]:
    """Panel -> rows of (label, value, [low, high] or None, series); the per-category
    panel has two rows per category (its label twice), drawn on one line (``_positions``)."""
    panels: dict[str, list] = {
        "Coefficients": [],
        "Per category": [],
        "Pairs: Cohen's kappa on the units both labelled": [],
    }
    names = list(panels)
    for row in coefficient_rows(result):
        label = row["label"].replace("Krippendorff's alpha, ", "alpha, ")
        if row["coefficient"] == f"krippendorff_alpha.{result['level']}":
            label += " (chosen level)"
        ends = [row["ci_low"], row["ci_high"]] if row["ci_low"] is not None else None
        series = "alpha" if row["coefficient"].startswith("krippendorff_alpha.") else "coefficient"
        panels[names[0]].append((label, row["value"], ends, series))
    for category, entry in result["per_category"].items():  # one row per category, its two measures side by side
        panels[names[1]].append((category, entry.get("fleiss_kappa"), entry.get("fleiss_kappa_ci"), "kappa_j"))
        panels[names[1]].append(
            (category, entry.get("specific_agreement"), entry.get("specific_agreement_ci"), "specific")
        )
    if len(result["pairwise"]) <= MAX_PAIRS_DRAWN and result.get("design", {}).get("raters", "fixed") == "fixed":
        for pair in result["pairwise"]:
            panels[names[2]].append(
                (f"{pair['a']}-{pair['b']} (n={pair['n']})", pair["cohen_kappa"], pair.get("cohen_kappa_ci"), "pair")
            )
    return {name: rows for name, rows in panels.items() if rows}


#: The per-category measures, named in the panel's legend.
SERIES_WORDS = {"kappa_j": "Fleiss' kappa_j (complete units)", "specific": "specific agreement (pairable units)"}
# How far a category's two measures sit above and below its line.
_PAIR_OFFSET = 0.2


def _positions(rows: list) -> tuple[np.ndarray, dict[str, float]]:
    """Each row's y and each label's line (top to bottom): one line per label; a label
    with two rows (a category's two measures) has them just above and below its line."""
    labels = list(dict.fromkeys(label for label, *_ in rows))
    line = {label: float(len(labels) - 1 - k) for k, label in enumerate(labels)}
    seen: dict[str, int] = {}
    y = []
    for label, *_ in rows:
        count = sum(1 for other, *_ in rows if other == label)
        k = seen.get(label, 0)
        seen[label] = k + 1
        y.append(line[label] + (_PAIR_OFFSET * (1 - 2 * k) if count == 2 else 0.0))
    return np.array(y), line


def _caption(result: dict, title: str) -> str:
    """What the figure shows and where its numbers come from, wrapped for the title."""
    bootstrap = result["settings"]["bootstrap"]
    sha = result.get("sha256")
    source = f"{Path(result['source']).name}" + (f" (sha256 {sha[:12]}...)" if sha else "")
    named = "" if title == Path(result["source"]).name else f"{title}: "
    said = [
        f"{named}{'a' if named else 'A'}greement coefficients computed by reagree {result['reagree_version']} "
        f"audit from {source}: {result['n_units']:,} units, {result['n_raters']:,} raters, "
        f"{result['n_ratings']:,} ratings."
    ]
    if result["ci"].get("resampled"):
        said.append(
            f"Bars: {100 * bootstrap['level']:g}% bootstrap intervals ({bootstrap['draws']:,} resamples of "
            f"the units, {bootstrap['scheme']} scheme, seed {bootstrap['seed']})."
        )
    else:
        said.append("No intervals (no bootstrap).")
    said.append(
        "Shaded behind Krippendorff's alpha only: his bands (0.667 to 0.800 tentative, 0.800 and up "
        "reliable), a convention, not a test; the other coefficients are not read against them."
    )
    pairs = result["pairwise"]
    if len(pairs) > MAX_PAIRS_DRAWN:
        said.append(f"The {len(pairs):,} pairs of raters are not drawn: pairwise.tsv lists them.")
    return "\n".join(textwrap.wrap(" ".join(said), width=110))


@plain_text
def coefficient_figure(result: dict, path: str | Path, title: str) -> None:
    """One panel per group (coefficients, per category, pairs): a point per value and a
    bar for its interval; undefined values are listed as such, not drawn."""
    panels = _rows(result)
    heights = [len(rows) for rows in panels.values()]  # a category's two measures take two rows' room
    caption = _caption(result, title)
    figure, axes = plt.subplots(
        len(panels),
        1,
        figsize=(8.0, 0.32 * sum(heights) + 1.1 * len(panels) + 0.18 * caption.count("\n") + 1.0),
        gridspec_kw={"height_ratios": heights},
        constrained_layout=True,
        squeeze=False,
    )
    colour = {
        "coefficient": COLOURS[0],
        "alpha": COLOURS[0],
        "kappa_j": COLOURS[1],
        "specific": COLOURS[2],
        "pair": COLOURS[3],
    }
    drawn = [
        end
        for rows in panels.values()
        for _, value, ends, _ in rows
        for end in [value, *(ends or [])]
        if end is not None
    ]
    left = min(-0.2, min(drawn) - 0.05) if drawn else -0.2
    resampled = bool(result["ci"].get("resampled"))
    for axis, (name, rows) in zip(axes[:, 0], panels.items()):
        y, lines = _positions(rows)
        alpha_rows = [position for position, row in zip(y, rows) if row[3] == "alpha"]
        if alpha_rows:
            low, high = min(alpha_rows) - 0.45, max(alpha_rows) + 0.45
            for start, stop, shade, _ in _BANDS:
                axis.add_patch(
                    Rectangle((start, low), stop - start, high - low, color=shade, alpha=0.16, linewidth=0, zorder=0)
                )
            axis.legend(
                handles=[Patch(color=shade, alpha=0.3, label=label) for _, _, shade, label in _BANDS],
                loc="lower right",
                bbox_to_anchor=(1.0, 1.0),
                ncol=2,
                fontsize=7,
                frameon=False,
                borderaxespad=0.2,
            )
        axis.axvline(0.0, color="grey", linewidth=0.8)
        labels = dict.fromkeys((label for label, *_ in rows), "")
        paired = len(lines) < len(rows)
        for position, (label, value, ends, series) in zip(y, rows):
            said = f"{SERIES_WORDS[series]}: " if paired else ""
            if value is None:
                labels[label] += f" ({said}undefined)"
                continue
            bounded = bool(ends) and ends[0] is not None and ends[1] is not None
            # a lone point must not pass for a zero-width interval
            if not bounded and resampled:
                labels[label] += f" ({said}no interval)"
            if bounded:
                axis.plot(ends, [position, position], color=colour[series], linewidth=2.2, solid_capstyle="butt")
            axis.plot(value, position, "o", color=colour[series], label=SERIES_WORDS.get(series) if paired else None)
            if paired:  # beside the interval's right end, clear of the other measure's line
                right = ends[1] if bounded else value
                axis.annotate(
                    f"{value:.3f}",
                    (right, position),
                    xytext=(4, 0),
                    textcoords="offset points",
                    ha="left",
                    va="center",
                    fontsize=7,
                    annotation_clip=False,
                )
            else:
                axis.annotate(
                    f"{value:.3f}",
                    (value, position),
                    xytext=(0, 5),
                    textcoords="offset points",
                    ha="center",
                    fontsize=7,
                )
        axis.set_yticks(list(lines.values()), [label + labels[label] for label in lines], fontsize=8)
        axis.set_ylim(-0.6, len(lines) - 0.4)
        if paired:  # each measure named once, above the panel
            handles, names_drawn = axis.get_legend_handles_labels()
            shown = dict(zip(names_drawn, handles))
            axis.legend(
                shown.values(),
                shown.keys(),
                loc="lower right",
                bbox_to_anchor=(1.0, 1.0),
                ncol=2,
                fontsize=7.5,
                frameon=False,
                borderaxespad=0.2,
            )
        axis.set_xlim(left, 1.02)
        axis.set_title(name, fontsize=10, loc="left")
        axis.grid(axis="x", alpha=0.3)
    bootstrap = result["settings"]["bootstrap"]
    axes[-1, 0].set_xlabel(
        f"value, with its {100 * bootstrap['level']:g}% bootstrap interval"
        if result["ci"].get("resampled")
        else "value (no intervals)"
    )
    figure.suptitle(caption, fontsize=8.5, x=0.01, ha="left")
    save_figure(figure, path)


# --- the figures a team reads: raters, pairs, confusions --------------------------------------
# Drawn 7 inches wide at 120 dpi (840 px) with 10-point text: at the report's width (about
# 900 px) the text stays at its printed size.
_WIDTH = 7.0
# Raters drawn in the leave-one-out plot and the heatmap, at most.
MAX_RATERS_DRAWN = 40


@plain_text
def raters_figure(result: dict, path: str | Path) -> bool:
    """The change in alpha without each rater, with its bootstrap interval (a forest plot),
    the rater who lowers agreement most on top. False (nothing drawn) without raters."""
    rows = [r for r in result.get("per_rater", [])[:MAX_RATERS_DRAWN] if r["without_alpha"]["change"] is not None]
    if not rows:
        return False
    level = result["level"]
    figure, axis = plt.subplots(figsize=(_WIDTH, 0.34 * len(rows) + 1.6), constrained_layout=True)
    y = np.arange(len(rows))[::-1]
    for position, row in zip(y, rows):
        change = row["without_alpha"]
        ends = change.get("change_ci")
        if ends and None not in ends:
            axis.plot(ends, [position, position], color=COLOURS[0], linewidth=2.2, solid_capstyle="butt")
        axis.plot(change["change"], position, "o", color=COLOURS[0])
    axis.axvline(0.0, color="grey", linewidth=0.8)
    axis.set_yticks(y, [f"{r['rater']} ({r['units']:,} units)" for r in rows], fontsize=10)
    axis.tick_params(axis="x", labelsize=10)
    axis.set_xlabel(
        f"{level} alpha without the rater minus with all"
        + (" (bar: bootstrap interval)" if result["ci"].get("resampled") else ""),
        fontsize=10,
    )
    total = len(result.get("per_rater", []))
    shown = f"\nthe {len(rows)} of {total:,} raters whose removal raises alpha most" if len(rows) < total else ""
    axis.set_title(
        f"Leave one rater out (alpha {_alpha_text(result)}): right of 0 lowers agreement{shown}",
        fontsize=11,
        loc="left",
    )
    axis.grid(axis="x", alpha=0.3)
    save_figure(figure, path)
    return True


def _alpha_text(result: dict) -> str:
    value = result["coefficients"].get("krippendorff_alpha", {}).get(result["level"])
    return "undefined" if value is None else f"{value:.3f}"


@plain_text
def pairs_figure(result: dict, path: str | Path) -> bool:
    """Fixed raters: the rater-by-rater heatmap of Cohen's kappa (units both labelled), each
    pair once, below the diagonal. False when no pair is listed (interchangeable raters,
    or too many)."""
    pairs = result.get("pairwise") or []
    named = sorted({p["a"] for p in pairs} | {p["b"] for p in pairs}, key=result["raters"].index)
    if not pairs or len(named) > MAX_RATERS_DRAWN:
        return False
    index = {name: i for i, name in enumerate(named)}
    grid = np.full((len(named), len(named)), np.nan)
    for p in pairs:
        if p["cohen_kappa"] is not None:
            grid[index[p["a"]], index[p["b"]]] = grid[index[p["b"]], index[p["a"]]] = p["cohen_kappa"]
    low = min(0.0, np.nanmin(grid)) if np.isfinite(grid).any() else 0.0
    figure, axis = _heatmap(
        lower_triangle(grid),
        named,
        "viridis",
        (low, 1.0),
        "Cohen's kappa",
        lambda x: f"{x:.2f}",
        lambda x: x < 0.6,
        rotation=90,
        lower=True,
    )
    axis.set_title("Pairs of raters: Cohen's kappa on the units both labelled", fontsize=11, loc="left")
    save_figure(figure, path)
    return True


@plain_text
def _heatmap(
    grid: np.ndarray,
    names: list[str],
    cmap: str,
    limits: tuple[float, float],
    bar: str,
    text,
    dark,
    rotation: int = 45,
    lower: bool = False,
):
    """A square heatmap of ``grid`` with ``names`` on both axes, each cell written by
    ``text`` (white where ``dark``) when there are at most 12 names, and a colour bar.
    ``lower``: only the cells below the diagonal hold values (``reagree.plots.lower_triangle``),
    so the first row and the last column are left out."""
    side = max(4.0, min(_WIDTH, 0.6 * len(names) + 2.5))
    figure, axis = plt.subplots(figsize=(side + 1.2, side), constrained_layout=True)
    image = axis.imshow(grid, cmap=cmap, vmin=limits[0], vmax=limits[1])
    axis.set_xticks(
        range(len(names)), names, rotation=rotation, ha="right" if rotation != 90 else "center", fontsize=10
    )
    axis.set_yticks(range(len(names)), names, fontsize=10)
    if len(names) <= 12:
        for (i, j), value in np.ndenumerate(grid):
            if np.isfinite(value):
                axis.text(
                    j, i, text(value), ha="center", va="center", fontsize=9, color="white" if dark(value) else "black"
                )
    if lower:
        axis.set_xticks(
            range(len(names) - 1),
            names[:-1],
            rotation=rotation,
            ha="right" if rotation != 90 else "center",
            fontsize=10,
        )
        axis.set_yticks(range(1, len(names)), names[1:], fontsize=10)
        axis.set_xlim(-0.5, len(names) - 1.5)
        axis.set_ylim(len(names) - 0.5, 0.5)
        for spine in ("top", "right"):
            axis.spines[spine].set_visible(False)
    figure.colorbar(image, ax=axis, label=bar)
    return figure, axis


@plain_text
def confusion_figure(result: dict, path: str | Path) -> bool:
    """The category confusion table: for a rating in the row's category, the share of the
    other ratings of its unit in each column's category."""
    pooled = result.get("category_pairs")
    if not pooled or len(pooled["categories"]) < 2:
        return False
    categories = pooled["categories"]
    shares = np.array([[np.nan if x is None else x for x in row] for row in pooled["row_shares"]], dtype=float)
    figure, axis = _heatmap(
        shares,
        categories,
        "Blues",
        (0.0, 1.0),
        "share of the other ratings",
        lambda x: f"{100 * x:.0f}%",
        lambda x: x > 0.6,
    )
    axis.set_xlabel("the other ratings of the unit", fontsize=10)
    axis.set_ylabel("a rating", fontsize=10)
    axis.set_title("Category confusions (the diagonal: specific agreement)", fontsize=11, loc="left")
    save_figure(figure, path)
    return True
