"""Scoring raters against a reference labelling (a majority under a tie rule), one
labelling or a thousand at once, and what a change of reference does to a ranking.

What this module decides:

- **The reference** is a labelling of the units in the ratings' categories. A unit the
  reference leaves ``MISSING`` (a tie dropped under ``"drop"``) is not a unit of the
  comparison: it is neither scored nor resampled. A unit the rater left blank is not
  scored either.
- **Cohen's kappa against it** is ``reagree.stats.pairwise.cohen_statistic`` on the rater and
  the reference, so the value and its bootstrap interval are one definition.
- **Many references at once** (random tie breaks, shape (R, n)): every (unit, reference
  label) pair that occurs in any of the R labellings becomes one row of an expanded
  table; labelling r is a 0/1 weighting of those rows. Cohen's kappa is a function of
  sums over rows, so the R kappas are one (R x rows) weighting evaluated by the same
  statistic: no Python loop computes a kappa per labelling.
- **Spread over labellings**: the median, and the interval between the numpy.percentile
  (linear interpolation) quantiles (1 - level)/2 and (1 + level)/2: for level 0.95 the
  2.5 and 97.5 percentiles. Its scheme text names the draw ("random-ties"), the number
  of labellings and the seed.
- **Rankings**: raters are ordered by kappa, highest first; two raters swap between two
  references when the sign of their difference flips (an exact tie under one reference
  and an order under the other is a change too).
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

import numpy as np
import pandas as pd

from reagree.stats.bootstrap import Interval, UnitStatistic, interval_from_draws
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import MISSING, Ratings

__all__ = [
    "REFERENCE",
    "kappa_against_many",
    "kappa_statistic",
    "range_over",
    "ranking",
    "ranking_table",
    "share_reordered",
    "spread",
    "swaps",
]

REFERENCE = "reference"


def kappa_statistic(ratings: Ratings, rater: str, reference: np.ndarray) -> UnitStatistic:
    """Cohen's kappa of ``rater`` against ``reference`` (one label per unit), over the
    units the reference labels: the value and the bootstrap read this one statistic."""
    reference = np.asarray(reference)
    labelled = reference != MISSING
    paired = ratings.select([rater]).with_column(REFERENCE, reference).subset(labelled)
    return cohen_statistic(paired, rater, REFERENCE)


def kappa_against_many(ratings: Ratings, rater: str, references: np.ndarray) -> np.ndarray:
    """Cohen's kappa of ``rater`` against each row of ``references`` (R, n): shape (R,),
    NaN where undefined. One weighted evaluation of one statistic (module docstring)."""
    references = np.atleast_2d(np.asarray(references))
    repetitions, n_units = references.shape
    if n_units != ratings.n_units:
        raise ValueError(f"references label {n_units} units, the ratings hold {ratings.n_units}")
    width = ratings.n_categories + 1
    pairs = np.arange(n_units)[None, :] * width + (references + 1)  # (unit, label); MISSING -> 0
    distinct, which = np.unique(pairs, return_inverse=True)
    units, labels = distinct // width, distinct % width - 1
    expanded = ratings.select([rater]).subset(units).with_column(REFERENCE, labels)
    statistic = cohen_statistic(expanded, rater, REFERENCE)
    offsets = (np.arange(repetitions) * distinct.size)[:, None]
    weights = np.bincount(
        (which.reshape(repetitions, n_units) + offsets).ravel(), minlength=repetitions * distinct.size
    ).reshape(repetitions, distinct.size)
    return statistic.evaluate(weights)


def spread(
    values: np.ndarray, level: float, *, seed: int | None = None, name: str = "random-ties"
) -> tuple[float, Interval]:
    """(median, interval) of values over labellings; NaN values are left out and counted
    as undefined draws. The interval's scheme text is "<name>; draws=R; seed=s; level=l"."""
    values = np.asarray(values, dtype=float)
    defined = values[np.isfinite(values)]
    median = float(np.median(defined)) if defined.size else float("nan")
    return median, interval_from_draws(values, level, "numpy", seed=seed, name=name)


def ranking(kappas: dict[str, float]) -> str:
    """Raters by kappa, highest first: "model_a > model_b > model_c" ("=" for exact ties)."""
    ordered = sorted(kappas.items(), key=lambda item: (-item[1], item[0]))
    text = ordered[0][0] if ordered else ""
    for (_, previous), (name, value) in zip(ordered, ordered[1:]):
        text += f" {'=' if value == previous else '>'} {name}"
    return text


def swaps(kappas: dict[str, float], baseline: dict[str, float]) -> list[tuple[str, str]]:
    """Pairs of raters whose order differs from their order under ``baseline``."""
    names = sorted(set(kappas) & set(baseline))
    return [
        (a, b)
        for a, b in combinations(names, 2)
        if np.sign(kappas[a] - kappas[b]) != np.sign(baseline[a] - baseline[b])
    ]


def share_reordered(draws: dict[str, np.ndarray], baseline: dict[str, float]) -> float:
    """Share of labellings (columns of ``draws``: rater -> (R,) kappas) under which at
    least one pair of raters is ordered differently from ``baseline``."""
    names = sorted(set(draws) & set(baseline))
    changed = np.zeros(len(next(iter(draws.values()))), dtype=bool)
    for a, b in combinations(names, 2):
        changed |= np.sign(draws[a] - draws[b]) != np.sign(baseline[a] - baseline[b])
    return float(changed.mean())


def ranking_table(kappas: pd.DataFrame, baseline: str, draws: dict | None = None) -> pd.DataFrame:
    """One row per (framing, reference): the raters' kappas, their ranking, how many and
    which pairs swap against the ``baseline`` reference, and (where ``draws`` gives a reference's
    per-labelling kappas, {(framing, reference): {rater: (R,) array}}) the share of its
    labellings that reorder anyone.

    ``kappas`` is long: columns framing, reference, rater, kappa.
    """
    rows = []
    wide = kappas.pivot_table(index=["framing", "reference"], columns="rater", values="kappa", sort=False)
    for (framing, reference), row in wide.iterrows():
        scores = row.dropna().to_dict()
        base = wide.loc[(framing, baseline)].dropna().to_dict()
        swapped = swaps(scores, base)
        record = {
            "framing": framing,
            "reference": reference,
            **scores,
            "ranking": ranking(scores),
            "swaps_vs_" + baseline: len(swapped),
            "swapped_vs_" + baseline: "; ".join(f"{a}/{b}" for a, b in swapped) or "-",
        }
        per_draw = (draws or {}).get((framing, reference))
        record["share_of_draws_reordered"] = share_reordered(per_draw, base) if per_draw else np.nan
        rows.append(record)
    return pd.DataFrame(rows)


def range_over(kappas: pd.DataFrame, references: Sequence[str]) -> pd.DataFrame:
    """Per (framing, rater): the lowest and highest kappa over the named references and
    which reference gave each. ``kappas`` is long: framing, reference, rater, kappa."""
    chosen = kappas[kappas["reference"].isin(list(references))]
    rows = []
    for (framing, rater), group in chosen.groupby(["framing", "rater"], sort=False):
        low, high = group.loc[group["kappa"].idxmin()], group.loc[group["kappa"].idxmax()]
        rows.append(
            {
                "framing": framing,
                "rater": rater,
                "low": float(low["kappa"]),
                "low_under": low["reference"],
                "high": float(high["kappa"]),
                "high_under": high["reference"],
            }
        )
    return pd.DataFrame(rows)
