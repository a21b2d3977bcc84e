"""Figures. Matplotlib with the Agg backend and no timestamps, so reruns give the same bytes.

Labels are text, never markup: every function that draws a figure (here, in the audit and
in the papers' packages) is decorated with ``plain_text``, which draws it with
matplotlib's mathtext and TeX off, so a label, a rater or a title holding ``$`` (``$\\frac{$``
from a user's table) is drawn as written instead of stopping the figure
(``tests/test_figure_labels.py`` finds every such function).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable, Sequence, TypeVar

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from reagree.files import atomic_output  # noqa: E402

_PNG_METADATA = {"Software": None}
#: Text drawn as written: no mathtext between dollar signs, no TeX.
PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}
F = TypeVar("F", bound=Callable)


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


@plain_text
def pairwise_heatmaps(pairs: pd.DataFrame, raters: Sequence[str], panels: Sequence[str], path: str | Path,
                      title: str) -> None:
    """One heatmap of pairwise Cohen's kappa per panel; ``pairs`` has columns
    panel, rater_a, rater_b, kappa (each unordered pair once)."""
    figure, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.8), constrained_layout=True)
    axes = np.atleast_1d(axes)
    index = {r: i for i, r in enumerate(raters)}
    image = None
    for axis, panel in zip(axes, panels):
        grid = np.eye(len(raters))
        for row in pairs[pairs["panel"] == panel].itertuples(index=False):
            grid[index[row.rater_a], index[row.rater_b]] = grid[index[row.rater_b], index[row.rater_a]] = row.kappa
        image = axis.imshow(grid, vmin=-0.2, vmax=1.0, cmap="viridis")
        for i in range(len(raters)):
            for j in range(len(raters)):
                if i != j:
                    axis.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7,
                              color="white" if grid[i, j] < 0.5 else "black")
        axis.set_xticks(range(len(raters)), raters, rotation=60, ha="right", fontsize=8)
        axis.set_yticks(range(len(raters)), raters, fontsize=8)
        axis.set_title(panel)
    figure.colorbar(image, ax=list(axes), shrink=0.8, label="Cohen's kappa")
    figure.suptitle(title)
    save_figure(figure, path)


@plain_text
def lines(frame: pd.DataFrame, x: str, series: Sequence[str], path: str | Path, title: str, xlabel: str,
          ylabel: str, logx: bool = False, labels: dict[str, str] | None = None, tick_format: str = "{:g}"):
    """Line chart of several columns against ``x``; ``labels`` names them in the legend.
    The x axis is marked at exactly the x values drawn (written with ``tick_format``), so a
    log axis shows the values used, not only its powers of ten. Returns the (closed) figure."""
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
    axis.set_title(title, fontsize=10)
    axis.grid(alpha=0.3)
    axis.legend()
    save_figure(figure, path)
    return figure
