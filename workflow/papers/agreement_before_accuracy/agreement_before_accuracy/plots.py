"""The two figures of "Agreement Before Accuracy", recomputed: kappa, PABAK and AC1 against
prevalence, and bootstrap interval width against the number of items. Each names the
document and marks its x axis at the values the document used. No statistic is computed
here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reagree.plots import lines

SOURCE = '"Agreement Before Accuracy"'


def prevalence_sweep(sweep: pd.DataFrame, path: str | Path):
    """``sweep``: columns prevalence, agreement, kappa, pabak, ac1 (one row per prevalence)."""
    agreement = sweep["agreement"].iloc[0]
    return lines(
        sweep,
        "prevalence",
        ["kappa", "pabak", "ac1"],
        path,
        f"{SOURCE}: prevalence sweep, two coders, observed agreement\n"
        f"held at {agreement:.3f}; recomputed from the expected 2x2 tables",
        "prevalence of the rare class (log scale)",
        "coefficient",
        logx=True,
        labels={"kappa": "Cohen's kappa", "pabak": "PABAK", "ac1": "Gwet's AC1"},
    )


def interval_widths(widths: pd.DataFrame, draws: int, path: str | Path):
    """``widths``: columns n, kappa_width, alpha_width (one row per number of items)."""
    return lines(
        widths,
        "n",
        ["kappa_width", "alpha_width"],
        path,
        f"{SOURCE}: interval width against items, recomputed\n"
        f"from its fixture; 95% percentile bootstrap, {draws:,} draws (its own scheme)",
        "items (log scale)",
        "width of the 95% interval",
        logx=True,
        labels={"kappa_width": "Cohen's kappa, 2 coders", "alpha_width": "nominal alpha, 3 coders"},
    )
