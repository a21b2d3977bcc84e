"""Figures of values that come with intervals: a dot plot of series across categorical
conditions with one condition drawn as a shaded band, and forest plots. Matplotlib, Agg backend, no
timestamps (``reagree.plots``), so the same inputs give the same bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from reagree.plots import plain_text, plt, save_figure

__all__ = ["COLOURS", "dots_with_band", "forest"]

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")


@plain_text
def dots_with_band(
    frame: pd.DataFrame,
    conditions: Sequence[str],
    band: str,
    panels: Sequence[str],
    series: Sequence[str],
    path: str | Path,
    title: str,
    ylabel: str,
    labels: dict[str, str] | None = None,
    xlabel: str = "tie rule",
):
    """A dot plot: one panel per ``panel`` value, one marker per ``series`` value at each of
    the ``conditions`` (categories on the x axis, in order; the series side by side, never
    joined by lines: the conditions are not a scale), and the ``band`` condition as a
    shaded horizontal band per series (its low to high) with its value dashed. Returns
    the (closed) figure, so tests can read what was drawn.

    ``frame`` is long: columns panel, condition, series, value, low, high.
    """
    figure, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 4.6), sharey=True, constrained_layout=True)
    axes = np.atleast_1d(axes)
    x = np.arange(len(conditions))
    step = 0.6 / max(len(series), 1)
    for axis, panel in zip(axes, panels):
        here = frame[frame["panel"] == panel]
        for k, (colour, name) in enumerate(zip(COLOURS, series)):
            line = here[here["series"] == name].set_index("condition")
            shown = [c for c in conditions if c in line.index]
            offset = (k - (len(series) - 1) / 2) * step
            axis.plot(
                [conditions.index(c) + offset for c in shown],
                line.loc[shown, "value"],
                marker="o",
                linestyle="none",
                markersize=7,
                color=colour,
                label=(labels or {}).get(name, name),
            )
            if band in line.index:
                low, high, value = line.loc[band, ["low", "high", "value"]]
                axis.axhspan(low, high, color=colour, alpha=0.15, linewidth=0)
                axis.axhline(value, color=colour, linestyle="--", linewidth=0.8, alpha=0.8)
        for boundary in x[:-1] + 0.5:  # categories, not a scale: a rule between them
            axis.axvline(boundary, color="0.85", linewidth=0.8)
        axis.set_xticks(x, conditions)
        axis.set_xlim(-0.5, len(conditions) - 0.5)
        axis.set_title(panel)
        axis.set_xlabel(xlabel)
        axis.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel(ylabel)
    handles, names = axes[0].get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncol=len(series), frameon=False)
    figure.suptitle(title)
    save_figure(figure, path)
    return figure


@plain_text
def forest(
    frame: pd.DataFrame,
    panels: Sequence[str],
    path: str | Path,
    title: str,
    xlabel: str | dict[str, str],
    groups: Sequence[str] | None = None,
    columns: int = 2,
    reference: float | None = 0.0,
    shared: Sequence[str] = (),
    annotate: Sequence[str] = (),
    kinds: Mapping[str, str] | None = None,
):
    """Forest plot: one panel per ``panel`` value, one row per ``label`` (top to bottom in
    frame order), a point at ``value`` and a bar from ``low`` to ``high``, coloured by
    ``group``. A row whose ``kind`` is "spread" (a spread over tie breaks, not a sampling
    interval) is drawn so that it cannot pass for an interval: a hollow diamond on a
    dotted line with end ticks. ``kinds`` names each kind drawn ("interval", "spread") in
    a legend under the panels. ``reference`` draws a vertical line
    where a panel's bars reach it (None: never); the ``shared`` panels get one x range;
    the ``annotate`` panels print "value (low to high)" in a column right of the panel; every
    other panel's x range is its data's range. ``xlabel`` is one label for every panel or a
    {panel: label} mapping. Returns the (closed) figure, so tests can read what was drawn.

    ``frame`` columns: panel, label, value, low, high, and optionally group, kind.
    """
    rows_needed = int(np.ceil(len(panels) / columns))
    heights = [
        max(len(frame[frame["panel"] == p]) for p in panels[r * columns : (r + 1) * columns])
        for r in range(rows_needed)
    ]
    figure, axes = plt.subplots(
        rows_needed,
        columns,
        figsize=(6.4 * columns, 0.3 * sum(heights) + 1.7 * rows_needed),
        gridspec_kw={"height_ratios": heights},
        constrained_layout=True,
        squeeze=False,
    )
    groups = list(groups) if groups is not None else list(dict.fromkeys(frame.get("group", pd.Series(dtype=str))))
    colour_of = {g: COLOURS[i % len(COLOURS)] for i, g in enumerate(groups)}
    in_shared = frame[frame["panel"].isin(list(shared))]
    if len(in_shared):
        margin = 0.04 * (in_shared["high"].max() - in_shared["low"].min())
        shared_range = (in_shared["low"].min() - margin, in_shared["high"].max() + margin)
    for axis, panel in zip(axes.ravel(), panels):
        here = frame[frame["panel"] == panel].reset_index(drop=True)
        y = np.arange(len(here))[::-1]
        for position, row in zip(y, here.itertuples(index=False)):
            colour = colour_of.get(getattr(row, "group", None), COLOURS[0])
            _draw_row(axis, row, position, colour, getattr(row, "kind", "") == "spread")
            if panel in annotate:  # printed in a column right of the panel, so its x range fits the data
                axis.annotate(
                    f"{row.value:.3f} ({row.low:.3f} to {row.high:.3f})",
                    (1.0, position),
                    xycoords=("axes fraction", "data"),
                    xytext=(6, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=8,
                    annotation_clip=False,
                )
        axis.set_yticks(y, here["label"], fontsize=8)
        axis.set_ylim(-0.7, len(here) - 0.3)
        if reference is not None and here["low"].min() <= reference <= here["high"].max():
            axis.axvline(reference, color="grey", linewidth=0.8)
        if panel in shared:
            axis.set_xlim(*shared_range)
        else:  # the data's range with 6% margins, nothing beyond it
            low, high = here["low"].min(), here["high"].max()
            axis.set_xlim(low - 0.06 * (high - low), high + 0.06 * (high - low))
        axis.set_title(panel, fontsize=10)
        axis.set_xlabel(xlabel.get(panel, "") if isinstance(xlabel, dict) else xlabel)
        axis.grid(axis="x", alpha=0.3)
    for axis in axes.ravel()[len(panels) :]:
        axis.set_visible(False)
    drawn_kinds = set(frame["kind"]) if "kind" in frame else {"interval"}
    shown = [(kind, words) for kind, words in (kinds or {}).items() if kind in drawn_kinds]
    if shown:
        handles = [_row_handle(kind == "spread") for kind, _ in shown]
        figure.legend(
            handles,
            [words for _, words in shown],
            loc="outside lower center",
            ncol=len(shown),
            frameon=False,
            fontsize=9,
        )
    figure.suptitle(title)
    save_figure(figure, path)
    return figure


def _draw_row(axis, row, position: float, colour: str, spread: bool) -> None:
    """One row of a forest plot: an interval as a solid bar with a filled point, a spread
    as a dotted line with end ticks and a hollow diamond (``forest``)."""
    if spread:
        axis.plot([row.low, row.high], [position, position], color=colour, linewidth=1.4, linestyle=(0, (1, 1.5)))
        axis.plot([row.low, row.high], [position, position], "|", color=colour, markersize=9, markeredgewidth=1.4)
        axis.plot(row.value, position, "D", color=colour, markerfacecolor="white", markersize=6)
    else:
        axis.plot([row.low, row.high], [position, position], color=colour, linewidth=2.2, solid_capstyle="butt")
        axis.plot(row.value, position, "o", color=colour)


def _row_handle(spread: bool):
    """A legend entry drawn as ``_draw_row`` draws that kind of row, in grey."""
    from matplotlib.lines import Line2D

    if spread:
        return Line2D(
            [],
            [],
            color="0.3",
            linewidth=1.4,
            linestyle=(0, (1, 1.5)),
            marker="D",
            markerfacecolor="white",
            markersize=6,
        )
    return Line2D([], [], color="0.3", linewidth=2.2, marker="o", markersize=6)
