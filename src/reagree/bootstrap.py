"""Bootstrap over units, all draws in one matrix product.

What this module decides:

- **What is resampled.** Units (tweets, items), with replacement, n out of n. Raters are
  fixed. A draw is therefore a vector of counts: how often each unit was picked.
- **Why it is fast.** Every coefficient reagree bootstraps is a function of *sums over
  units* of a per-unit sufficient statistic (category counts for Fleiss, coincidence
  contributions for alpha, the pair's cell for Cohen). A draw's sums are
  ``counts @ per_unit``, so B draws are one (B x n) @ (n x d) product followed by a
  vectorised ``finish`` that turns sums into coefficients. No Python loop over draws
  runs anywhere. No library offers this, hence the hand-written engine.
- **Identical units are pooled.** Units with the same per-unit statistic are
  interchangeable, so the engine works on distinct patterns (a 3-coder, 4-category table
  has at most 125) and draws the pattern counts directly from
  Multinomial(n, pattern_size / n): the exact distribution of a unit resample, at a cost
  that does not grow with n.
- **Determinism.** ``numpy.random.default_rng(seed)``; one multinomial call of shape
  (draws, patterns) in a fixed pattern order (numpy's sorted unique rows). The same data,
  draws and seed give the same bytes.
- **Index draws.** ``evaluate_indices`` takes explicit resample indices (B x n), for a
  paper's own resampling scheme and for checking against a naive loop.
- **Intervals.** Percentile intervals from the order statistics ceil(B*a/2) and
  ceil(B*(1-a/2)): with 2,000 draws and a = 0.05, the 50th and 1,950th smallest values.
  Draws on which a coefficient is undefined (NaN) are left out of the interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np


@dataclass(frozen=True)
class UnitStatistic:
    """A coefficient in sufficient-statistic form.

    ``per_unit`` has one row per unit; ``finish`` maps a (b, d) array of column sums
    (weighted by resample counts) to b coefficient values.
    """

    name: str
    per_unit: np.ndarray
    finish: Callable[[np.ndarray], np.ndarray]

    def estimate(self) -> float:
        """The coefficient on the original sample (every unit counted once)."""
        return float(self.evaluate(np.ones((1, self.per_unit.shape[0])))[0])

    def evaluate(self, counts: np.ndarray) -> np.ndarray:
        """Values for a (b, n) matrix of per-unit resample counts or weights."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return self.finish(np.asarray(counts, dtype=float) @ self.per_unit)


def _patterns(statistics: Sequence[UnitStatistic]) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    sizes = {s.per_unit.shape[0] for s in statistics}
    if len(sizes) != 1:
        raise ValueError(f"statistics bootstrapped together must share their units, got sizes {sorted(sizes)}")
    widths = [s.per_unit.shape[1] for s in statistics]
    stacked = np.hstack([s.per_unit for s in statistics]).astype(float)
    patterns, inverse, pattern_sizes = np.unique(stacked, axis=0, return_inverse=True, return_counts=True)
    return patterns, inverse.reshape(-1), pattern_sizes, widths


def _finish_all(statistics: Sequence[UnitStatistic], totals: np.ndarray, widths: list[int]) -> np.ndarray:
    out, start = [], 0
    with np.errstate(divide="ignore", invalid="ignore"):
        for statistic, width in zip(statistics, widths):
            out.append(statistic.finish(totals[:, start:start + width]))
            start += width
    return np.vstack(out)


@dataclass(frozen=True)
class PatternDraws:
    """Resamples as counts of unit patterns: ``counts[b, g]`` units of pattern g in draw b."""

    unit_pattern: np.ndarray
    counts: np.ndarray

    def unit_indices(self) -> np.ndarray:
        """One concrete unit resample per draw with exactly these pattern counts, shape
        (draws, n): for checking the engine against a naive per-draw loop."""
        n_patterns = self.counts.shape[1]
        first = np.full(n_patterns, -1)
        first[self.unit_pattern[::-1]] = np.arange(self.unit_pattern.size)[::-1]
        draws = self.counts.shape[0]
        return np.repeat(np.tile(first, draws), self.counts.ravel()).reshape(draws, self.unit_pattern.size)


def _multinomial(pattern_sizes: np.ndarray, draws: int, seed: int) -> np.ndarray:
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    n_units = int(pattern_sizes.sum())
    return np.random.default_rng(seed).multinomial(n_units, pattern_sizes / n_units, size=draws)


def draw_patterns(statistics: Sequence[UnitStatistic], draws: int, seed: int) -> PatternDraws:
    """The draws ``bootstrap`` uses: Multinomial(n, pattern sizes / n), ``draws`` times."""
    _, inverse, pattern_sizes, _ = _patterns(statistics)
    return PatternDraws(inverse, _multinomial(pattern_sizes, draws, seed))


def bootstrap(statistics: Sequence[UnitStatistic], draws: int, seed: int) -> np.ndarray:
    """Values of each statistic on ``draws`` unit resamples: shape (len(statistics), draws).

    All statistics see the same draws, so differences between rows are paired.
    """
    patterns, _, pattern_sizes, widths = _patterns(statistics)
    return _finish_all(statistics, _multinomial(pattern_sizes, draws, seed) @ patterns, widths)


def evaluate_indices(statistics: Sequence[UnitStatistic], indices: np.ndarray, block: int | None = None) -> np.ndarray:
    """Values of each statistic on explicit resamples: ``indices`` is (draws, n) unit indices.

    Counted per pattern in blocks of draws (one bincount and one product per block), so
    memory stays near a million cells whatever the number of draws.
    """
    indices = np.asarray(indices)
    patterns, inverse, _, widths = _patterns(statistics)
    n_patterns = patterns.shape[0]
    draws, n = indices.shape
    block = block or max(1, 1_000_000 // max(n, 1))
    totals = np.empty((draws, patterns.shape[1]))
    for start in range(0, draws, block):
        chunk = inverse[indices[start:start + block]]
        rows = chunk.shape[0]
        offsets = (np.arange(rows) * n_patterns)[:, None]
        counts = np.bincount((chunk + offsets).ravel(), minlength=rows * n_patterns).reshape(rows, n_patterns)
        totals[start:start + rows] = counts @ patterns
    return _finish_all(statistics, totals, widths)


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval, order statistics B*a/2 and B*(1-a/2); NaN draws dropped."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return float("nan"), float("nan")
    ordered = np.sort(values)
    tail = (1.0 - level) / 2.0
    # ceil(B*q)-th smallest value, 1-based; the guard keeps 2000 * 0.025 = 50.000000000000007
    # from rounding up to the 51st.
    low_rank = max(1, int(np.ceil(ordered.size * tail - 1e-9)))
    high_rank = max(1, int(np.ceil(ordered.size * (1.0 - tail) - 1e-9)))
    return float(ordered[low_rank - 1]), float(ordered[high_rank - 1])


def paired_difference(statistic_a: UnitStatistic, statistic_b: UnitStatistic, draws: int, seed: int,
                      level: float = 0.95) -> tuple[float, float, float]:
    """b minus a on the original sample, and its percentile interval over the same draws."""
    values = bootstrap([statistic_a, statistic_b], draws, seed)
    low, high = percentile_interval(values[1] - values[0], level)
    return statistic_b.estimate() - statistic_a.estimate(), low, high
