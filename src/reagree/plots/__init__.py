"""Figures. Matplotlib with the Agg backend and no timestamps, so reruns give the same bytes.

Labels are text, never markup: every function that draws a figure (here, in the audit and
in the papers' packages) is decorated with ``plain_text``, which draws it with
matplotlib's mathtext and TeX off, so a label, a rater or a title holding ``$`` (``$\\frac{$``
from a user's table) is drawn as written instead of stopping the figure
(``tests/plots/test_figure_labels.py`` finds every such function).
"""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path
from typing import Callable, Mapping, Sequence, TypeVar

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from reagree.files import atomic_output  # noqa: E402

# plt is re-exported: figure modules import pyplot from here, so the Agg backend is set first.
__all__ = [
    "PLAIN_TEXT",
    "TITLE_CHARACTERS",
    "lines",
    "lower_triangle",
    "pairwise_heatmaps",
    "plain_text",
    "plt",
    "save_figure",
]

_PNG_METADATA = {"Software": None}
#: Text drawn as written: no mathtext between dollar signs, no TeX.
PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}
F = TypeVar("F", bound=Callable)
#: The most characters of a 10-point title line over a 6.4-inch line chart (``lines``).
TITLE_CHARACTERS = 62


def plain_text(draw: F) -> F:
    """Run a figure-drawing function (saving included) with ``PLAIN_TEXT``: every text it
    creates keeps ``$`` and backslashes as characters (module docstring)."""

    @functools.wraps(draw)
    def drawing(*args, **kwargs):
        with matplotlib.rc_context(PLAIN_TEXT):
            return draw(*args, **kwargs)

    return drawing  # type: ignore[return-value]


def save_figure(figure, path: str | Path) -> None:
    """Write a figure as PNG atomically (``reagree.files``: only over a regular file or a
    new path), without the metadata that would change its bytes."""
    try:
        with atomic_output(path) as handle:
            figure.savefig(handle, format="png", dpi=120, metadata=_PNG_METADATA)
    finally:
        plt.close(figure)


def lower_triangle(grid: np.ndarray) -> np.ndarray:
    """A symmetric pairs-by-pairs grid with only its lower triangle kept: each pair drawn
    once, the diagonal (a rater against itself, 1 by definition) and the upper triangle NaN,
    which a heatmap leaves blank."""
    kept = np.array(grid, dtype=float)
    kept[np.triu_indices_from(kept)] = np.nan
    return kept


@plain_text
def pairwise_heatmaps(
    pairs: pd.DataFrame,
    raters: Sequence[str],
    panels: Sequence[str],
    path: str | Path,
    title: str,
    titles: Mapping[str, str] | None = None,
):
    """One heatmap of pairwise Cohen's kappa per panel; ``pairs`` has columns
    panel, rater_a, rater_b, kappa (each unordered pair once). Each pair is drawn once,
    below the diagonal, with its value written in the cell; the diagonal is blank (a
    rater against itself says nothing). ``titles`` names the panels in words (default:
    the panel's own name). Returns the (closed) figure."""
    # Sized so that three panels of nine raters fit a 1,280 px page with their 8-point text
    # at 10 px or more (13.4 inches at 120 dpi, shown 1,224 px wide).
    side = max(3.2, 0.36 * len(raters) + 0.9)
    figure, axes = plt.subplots(1, len(panels), figsize=(side * len(panels) + 0.9, side + 0.8), constrained_layout=True)
    axes = np.atleast_1d(axes)
    index = {r: i for i, r in enumerate(raters)}
    image = None
    for axis, panel in zip(axes, panels):
        grid = np.full((len(raters), len(raters)), np.nan)
        for row in pairs[pairs["panel"] == panel].itertuples(index=False):
            grid[index[row.rater_a], index[row.rater_b]] = grid[index[row.rater_b], index[row.rater_a]] = row.kappa
        grid = lower_triangle(grid)
        image = axis.imshow(grid, vmin=-0.2, vmax=1.0, cmap="viridis")
        for (i, j), value in np.ndenumerate(grid):
            if np.isfinite(value):
                axis.text(
                    j,
                    i,
                    f"{value:.2f}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if value < 0.5 else "black",
                )
        # the first row and the last column hold no pair below the diagonal
        axis.set_xticks(range(len(raters) - 1), raters[:-1], rotation=60, ha="right", fontsize=9)
        axis.set_yticks(range(1, len(raters)), raters[1:], fontsize=9)
        axis.set_xlim(-0.5, len(raters) - 1.5)
        axis.set_ylim(len(raters) - 0.5, 0.5)
        for spine in ("top", "right"):
            axis.spines[spine].set_visible(False)
        axis.set_title((titles or {}).get(panel, panel), fontsize=11)
    figure.colorbar(image, ax=list(axes), shrink=0.8, label="Cohen's kappa")
    figure.suptitle(title, fontsize=11)
    save_figure(figure, path)
    return figure


@plain_text
def lines(
    frame: pd.DataFrame,
    x: str,
    series: Sequence[str],
    path: str | Path,
    title: str,
    xlabel: str,
    ylabel: str,
    logx: bool = False,
    labels: dict[str, str] | None = None,
    tick_format: str = "{:g}",
):
    """Line chart of several columns against ``x``; ``labels`` names them in the legend.
    The x axis is marked at exactly the x values drawn (written with ``tick_format``), so a
    log axis shows the values used, not only its powers of ten. The title is wrapped to
    the figure's width (``TITLE_CHARACTERS`` a line), so no line of it reaches the edge.
    Returns the (closed) figure."""
    figure, axis = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    for name in series:
        axis.plot(frame[x], frame[name], marker="o", label=(labels or {}).get(name, name))
    if logx:
        axis.set_xscale("log")
    values = list(dict.fromkeys(frame[x]))
    axis.set_xticks(values, [tick_format.format(v) for v in values])
    axis.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_title(textwrap.fill(" ".join(title.split()), TITLE_CHARACTERS), fontsize=10)
    axis.grid(alpha=0.3)
    axis.legend()
    save_figure(figure, path)
    return figure
