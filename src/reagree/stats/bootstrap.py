"""Coefficients in sufficient-statistic form, and the unit bootstrap that evaluates them.

What this module decides:

- **One definition per coefficient.** Every coefficient reagree computes is a function of
  *sums over units* of a per-unit sufficient statistic (category counts for Fleiss,
  coincidence contributions for alpha, the pair's cell for Cohen). A ``UnitStatistic``
  holds those per-unit rows and the ``finish`` that turns sums into the coefficient. The
  coefficient's value (``UnitStatistic.value()``) and its bootstrap draws come from this
  one object, so a printed value and its interval cannot drift apart.
- **What is resampled.** Units (tweets, items), with replacement, n out of n. Raters are
  fixed. A weighted two-rater table enters as its cells repeated by their counts, in
  row-major cell order; a table of proportions has a value but no bootstrap.
- **The draws.** ``rng = numpy.random.default_rng(seed)``, then for each draw one call
  ``rng.integers(0, n, size=n)``. They depend only on the number of units, the seed and
  the number of draws: never on which statistics are bootstrapped together, so a
  coefficient's interval is the same alone or in company, and statistics bootstrapped
  together see the same resamples (paired). The indices are generated in blocks of
  draws, ``rng.integers(0, n, size=(block, n))``, which yields exactly the same stream as
  ``block`` calls of size n (numpy's bit generator keeps its state between calls; a test
  holds this for odd and even n).
- **Why it is fast.** Units with the same per-unit row are interchangeable, so each
  statistic pools its units into patterns; per block of draws one ``bincount`` counts the
  patterns in every draw and one matrix product gives every draw's sums; one vectorised
  ``finish`` gives every draw's value. No Python loop over draws. Blocks hold about four
  million indices, whatever the number of units or draws.
- **Intervals** (``Interval``), by scheme:

  - ``"percentile"`` (reagree's default): the order statistics ceil(B' a/2) and
    ceil(B' (1 - a/2)) of the B' defined draws; with 2,000 draws and a = 0.05 the 50th and
    1,950th smallest values.
  - ``"numpy"``: the same draws, ends from ``numpy.percentile(values, [100 a/2,
    100 (1 - a/2)])`` (linear interpolation), reproducing a write-up that drew
    ``idx = rng.integers(0, n, size=n)`` per draw and printed ``np.percentile(values,
    [2.5, 97.5])``.

  Draws on which the coefficient is undefined (NaN: a resample with one category, say)
  are left out and counted in ``Interval.undefined_draws``.
- **Too many undefined draws: no interval.** When more than ``MAX_UNDEFINED_SHARE``
  (5%) of the draws are undefined, the interval is refused: its ends are ``Undefined``
  with a reason that gives the count ("731 of 2000 bootstrap draws are undefined ...").
  An interval read off the remaining draws would describe only the resamples on which
  the coefficient exists (those in which a rare category turns up, say), and would look
  narrower and more certain than the data are. Up to 5% are left out, counted, and the
  interval is read off the rest. ``max_undefined_share=`` overrides the share per call
  (1.0 keeps every interval that has a defined draw).
- **A paper's own resamples.** ``evaluate_indices`` takes explicit (draws, n) unit
  indices, for a write-up that resampled with its own generator; ``interval_from_draws``
  then names that scheme in the interval's text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from reagree.stats.undefined import Undefined

SCHEMES = ("percentile", "numpy")
# Indices per block of draws: bounds memory (a few tens of MB) for any n and any B.
BLOCK_CELLS = 4_000_000
# More undefined draws than this share and the interval is refused (module docstring).
MAX_UNDEFINED_SHARE = 0.05


@dataclass(frozen=True, eq=False)
class UnitStatistic:
    """A coefficient as sums over units of per-unit rows, finished into a value.

    - ``per_unit``: (g, d) rows; one per unit, or one per distinct kind of unit with
      ``units`` saying which row each unit has.
    - ``finish``: maps a (b, d) array of column sums to b values (NaN where undefined).
    - ``why_undefined``: given the sample's sums (a (d,) array), says why the value is
      undefined; ``value()`` attaches it to the ``Undefined`` it returns.
    - ``units``: for each unit of the sample, in order, its row of ``per_unit``
      (default: row i is unit i).
    - ``weights``: instead of ``units``, how often each row occurs in the sample (a
      two-rater table's cells). Whole numbers make the rows resamplable units (each
      row repeated by its weight, in row order); fractions (a table of proportions)
      give a value but no bootstrap.
    """

    name: str
    per_unit: np.ndarray
    finish: Callable[[np.ndarray], np.ndarray]
    why_undefined: Callable[[np.ndarray], str] | None = None
    units: np.ndarray | None = None
    weights: np.ndarray | None = None
    _pooled: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        per_unit = np.asarray(self.per_unit, dtype=float)
        if per_unit.ndim != 2:
            raise ValueError(f"{self.name}: per_unit must be 2-D (rows x sums), got shape {per_unit.shape}")
        object.__setattr__(self, "per_unit", per_unit)
        if self.units is not None and self.weights is not None:
            raise ValueError(f"{self.name}: give units or weights, not both")
        if self.units is not None:
            units = np.asarray(self.units, dtype=np.int64).reshape(-1)
            if units.size and (units.min() < 0 or units.max() >= per_unit.shape[0]):
                raise ValueError(f"{self.name}: units must index rows 0..{per_unit.shape[0] - 1}")
            object.__setattr__(self, "units", units)
        if self.weights is not None:
            weights = np.asarray(self.weights, dtype=float).reshape(-1)
            if weights.shape != (per_unit.shape[0],):
                raise ValueError(f"{self.name}: need one weight per row ({per_unit.shape[0]}), got {weights.shape}")
            if not np.isfinite(weights).all() or (weights < 0).any():
                raise ValueError(f"{self.name}: weights must be finite and non-negative")
            object.__setattr__(self, "weights", weights)

    # ------------------------------------------------------------------ the sample

    def row_weights(self) -> np.ndarray:
        """How often each row of ``per_unit`` occurs in the sample."""
        if self.weights is not None:
            return self.weights
        if self.units is not None:
            return np.bincount(self.units, minlength=self.per_unit.shape[0]).astype(float)
        return np.ones(self.per_unit.shape[0])

    def unit_rows(self) -> np.ndarray:
        """The row of ``per_unit`` of every unit of the sample, in order (what a resample
        index picks). ValueError for rows weighted by fractions."""
        if self.units is not None:
            return self.units
        if self.weights is None:
            return np.arange(self.per_unit.shape[0])
        whole = np.round(self.weights)
        if not np.array_equal(whole, self.weights):
            raise ValueError(f"{self.name}: rows weighted by fractions (a table of proportions) are not units "
                             "and cannot be resampled; pass counts")
        return np.repeat(np.arange(self.per_unit.shape[0]), whole.astype(np.int64))

    @property
    def n_units(self) -> int:
        """Number of units a resample draws (n)."""
        return int(self.unit_rows().size)

    def totals(self) -> np.ndarray:
        """The sample's column sums, shape (d,)."""
        return self.row_weights() @ self.per_unit

    # ------------------------------------------------------------------ values

    def finish_totals(self, totals: np.ndarray) -> np.ndarray:
        """Values for a (b, d) array of sums; NaN where undefined (never inf)."""
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            values = np.asarray(self.finish(np.asarray(totals, dtype=float)), dtype=float).reshape(-1)
        return np.where(np.isfinite(values), values, np.nan)

    def value(self) -> float:
        """The coefficient on the sample: a float, or ``Undefined`` with the reason."""
        totals = self.totals()
        value = float(self.finish_totals(totals[None, :])[0])
        if math.isfinite(value):
            return value
        reason = self.why_undefined(totals) if self.why_undefined is not None else ""
        return Undefined(reason or f"{self.name} is undefined on this sample")

    def estimate(self) -> float:
        """Alias of ``value()`` (the name older callers use)."""
        return self.value()

    def evaluate(self, unit_weights: np.ndarray) -> np.ndarray:
        """Values for a (b, n) matrix of per-unit resample counts or weights over the n
        units of the sample (a row of ones is the sample itself)."""
        unit_weights = np.atleast_2d(np.asarray(unit_weights, dtype=float))
        rows = self.unit_rows()
        b, n = unit_weights.shape
        if n != rows.size:
            raise ValueError(f"{self.name}: need one weight per unit ({rows.size}), got {n}")
        g = self.per_unit.shape[0]
        offsets = (np.arange(b) * g)[:, None]
        row_weights = np.bincount((rows[None, :] + offsets).ravel(), weights=unit_weights.ravel(),
                                  minlength=b * g).reshape(b, g)
        return self.finish_totals(row_weights @ self.per_unit)

    # ------------------------------------------------------------------ pooled form

    def pooled(self) -> tuple[np.ndarray, np.ndarray]:
        """(patterns, unit_pattern): the distinct per-unit rows and each unit's pattern."""
        if "patterns" not in self._pooled:
            patterns, inverse = np.unique(self.per_unit, axis=0, return_inverse=True)
            self._pooled["patterns"] = patterns
            self._pooled["unit_pattern"] = inverse.reshape(-1)[self.unit_rows()]
        return self._pooled["patterns"], self._pooled["unit_pattern"]


# ---------------------------------------------------------------------- the interval

@dataclass(frozen=True)
class Interval:
    """A bootstrap interval and how it was drawn.

    ``scheme`` is the text "<name>; draws=<B>; seed=<s>; level=<l>" (e.g.
    "percentile; draws=2000; seed=0; level=0.95") that values.tsv carries and claims
    compare. ``undefined_draws`` counts draws left out because the coefficient was
    undefined on them. Ends are ``Undefined`` (with the count in the reason) when more
    than ``MAX_UNDEFINED_SHARE`` of the draws were undefined, or none was defined.
    """

    low: float
    high: float
    level: float
    draws: int
    undefined_draws: int
    scheme: str
    seed: int | str | None = None

    @property
    def ends(self) -> tuple[float, float]:
        return self.low, self.high

    @property
    def width(self) -> float:
        """high - low (NaN when the interval is undefined)."""
        return self.high - self.low

    def contains(self, value: float) -> bool:
        return bool(self.low <= value <= self.high)


def scheme_text(name: str, draws: int, seed: object, level: float) -> str:
    """The exact scheme text claims parse: "<name>; draws=<B>; seed=<s>; level=<l>"."""
    return f"{name}; draws={draws}; seed={seed}; level={level:g}"


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")


def _order_statistic_ends(defined: np.ndarray, level: float) -> tuple[float, float]:
    ordered = np.sort(defined)
    tail = (1.0 - level) / 2.0
    # ceil(B*q)-th smallest value, 1-based; the guard keeps 2000 * 0.025 = 50.000000000000007
    # from rounding up to the 51st.
    low_rank = max(1, int(np.ceil(ordered.size * tail - 1e-9)))
    high_rank = max(1, int(np.ceil(ordered.size * (1.0 - tail) - 1e-9)))
    return float(ordered[low_rank - 1]), float(ordered[high_rank - 1])


def _numpy_ends(defined: np.ndarray, level: float) -> tuple[float, float]:
    # Rounded so that level 0.95 asks numpy for exactly [2.5, 97.5], as a write-up does.
    tail = round(100.0 * (1.0 - level) / 2.0, 10)
    low, high = np.percentile(defined, [tail, round(100.0 - tail, 10)])
    return float(low), float(high)


def _check_share(max_undefined_share: float) -> None:
    if not 0 <= max_undefined_share <= 1:
        raise ValueError(f"max_undefined_share must lie in [0, 1], got {max_undefined_share}")


def interval_from_draws(values: np.ndarray, level: float = 0.95, scheme: str = "percentile", *,
                        seed: int | str | None, name: str | None = None,
                        max_undefined_share: float = MAX_UNDEFINED_SHARE) -> Interval:
    """The interval of bootstrap ``values`` (NaN = undefined draw) under ``scheme``
    ("percentile": order statistics; "numpy": ``numpy.percentile``'s linear
    interpolation). ``name`` replaces the scheme's name in the scheme text, for draws a
    paper made with its own generator (e.g. "python-random(100000+d)").

    Undefined draws are left out and counted; when more than ``max_undefined_share`` of
    them are undefined (default ``MAX_UNDEFINED_SHARE``), the ends are ``Undefined`` with
    a reason that gives the count (module docstring)."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
    _check_level(level)
    _check_share(max_undefined_share)
    values = np.asarray(values, dtype=float).reshape(-1)
    defined = values[np.isfinite(values)]
    text = scheme_text(name or scheme, values.size, seed, level)
    undefined = int(values.size - defined.size)
    if defined.size == 0:
        reason = Undefined(f"every one of the {values.size} bootstrap draws is undefined")
        return Interval(reason, reason, level, int(values.size), undefined, text, seed)
    if undefined > max_undefined_share * values.size:
        reason = Undefined(
            f"{undefined} of {values.size} bootstrap draws are undefined ({undefined / values.size:.1%}, more than "
            f"the {max_undefined_share:.0%} allowed): an interval from the other {defined.size} would describe "
            "only the resamples on which the coefficient exists")
        return Interval(reason, reason, level, int(values.size), undefined, text, seed)
    low, high = (_order_statistic_ends if scheme == "percentile" else _numpy_ends)(defined, level)
    return Interval(low, high, level, int(values.size), undefined, text, seed)


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """(low, high) of the "percentile" scheme: order statistics ceil(B a/2) and
    ceil(B (1 - a/2)) of the defined draws; (NaN, NaN) if none is defined."""
    values = np.asarray(values, dtype=float).reshape(-1)
    defined = values[np.isfinite(values)]
    if defined.size == 0:
        return float("nan"), float("nan")
    return _order_statistic_ends(defined, level)


# ---------------------------------------------------------------------- the draws

def _block_size(n_units: int) -> int:
    return max(1, BLOCK_CELLS // max(n_units, 1))


def _index_blocks(n_units: int, draws: int, seed: int) -> Iterator[np.ndarray]:
    """The resamples, ``block`` draws at a time: the same stream as one
    ``rng.integers(0, n, size=n)`` call per draw."""
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    if n_units < 1:
        raise ValueError("cannot resample a sample of no units")
    rng = np.random.default_rng(seed)
    block = _block_size(n_units)
    for start in range(0, draws, block):
        yield rng.integers(0, n_units, size=(min(block, draws - start), n_units))


def draw_indices(n_units: int, draws: int, seed: int) -> np.ndarray:
    """The (draws, n) unit indices ``bootstrap`` resamples with, written out (for checks
    against a per-draw loop; the engine itself never holds them all)."""
    return np.vstack(list(_index_blocks(n_units, draws, seed)))


def _shared_units(statistics: Sequence[UnitStatistic]) -> int:
    if not statistics:
        raise ValueError("no statistics to bootstrap")
    sizes = {s.n_units for s in statistics}
    if len(sizes) != 1:
        raise ValueError(f"statistics bootstrapped together must share their units, got sizes {sorted(sizes)}")
    return sizes.pop()


def _evaluate_blocks(statistics: Sequence[UnitStatistic], blocks: Iterator[np.ndarray], draws: int) -> np.ndarray:
    """Each statistic on each resample; each statistic's row depends on it and the
    indices alone."""
    pooled = [s.pooled() for s in statistics]
    totals = [np.empty((draws, patterns.shape[1])) for patterns, _ in pooled]
    start = 0
    for indices in blocks:
        rows = indices.shape[0]
        for (patterns, unit_pattern), out in zip(pooled, totals):
            n_patterns = patterns.shape[0]
            chosen = unit_pattern[indices]
            chosen += (np.arange(rows) * n_patterns)[:, None]
            counts = np.bincount(chosen.ravel(), minlength=rows * n_patterns).reshape(rows, n_patterns)
            out[start:start + rows] = counts @ patterns
        start += rows
    return np.vstack([s.finish_totals(t) for s, t in zip(statistics, totals)])


def bootstrap(statistics: Sequence[UnitStatistic], draws: int, seed: int) -> np.ndarray:
    """Values of each statistic on ``draws`` unit resamples: shape (len(statistics), draws).

    Resample b is the b-th ``rng.integers(0, n, size=n)`` of ``default_rng(seed)``; all
    statistics see the same resamples, so differences between rows are paired, and each
    row is what the statistic gives bootstrapped alone. NaN marks an undefined draw.
    """
    n_units = _shared_units(statistics)
    return _evaluate_blocks(statistics, _index_blocks(n_units, draws, seed), draws)


def evaluate_indices(statistics: Sequence[UnitStatistic], indices: np.ndarray, block: int | None = None) -> np.ndarray:
    """Values of each statistic on explicit resamples: ``indices`` is (draws, n) unit
    indices (a paper's own resampling scheme). Counted in blocks of ``block`` draws."""
    indices = np.asarray(indices)
    if indices.ndim != 2 or not np.issubdtype(indices.dtype, np.integer):
        raise ValueError(f"indices must be a 2-D integer array (draws x units), got {indices.dtype} {indices.shape}")
    n_units = _shared_units(statistics)
    draws, n = indices.shape
    if n != n_units or (indices.size and (indices.min() < 0 or indices.max() >= n_units)):
        raise ValueError(f"each resample must hold {n_units} indices in 0..{n_units - 1}")
    block = block or _block_size(n)
    blocks = (indices[start:start + block] for start in range(0, draws, block))
    return _evaluate_blocks(statistics, blocks, draws)


def bootstrap_intervals(statistics: Sequence[UnitStatistic], draws: int, seed: int, level: float = 0.95,
                        scheme: str = "percentile", *,
                        max_undefined_share: float = MAX_UNDEFINED_SHARE) -> list[Interval]:
    """One ``Interval`` per statistic, all from the same resamples (one pass)."""
    _check_share(max_undefined_share)
    values = bootstrap(statistics, draws, seed)
    return [interval_from_draws(row, level, scheme, seed=seed, max_undefined_share=max_undefined_share)
            for row in values]


def bootstrap_interval(statistic: UnitStatistic, draws: int, seed: int, level: float = 0.95,
                       scheme: str = "percentile", *, max_undefined_share: float = MAX_UNDEFINED_SHARE) -> Interval:
    """The bootstrap interval of one statistic."""
    return bootstrap_intervals([statistic], draws, seed, level, scheme, max_undefined_share=max_undefined_share)[0]


def paired_difference(statistic_a: UnitStatistic, statistic_b: UnitStatistic, draws: int, seed: int,
                      level: float = 0.95, scheme: str = "percentile", *,
                      max_undefined_share: float = MAX_UNDEFINED_SHARE) -> tuple[float, Interval]:
    """b minus a on the sample, and the interval of b - a over the same resamples (a draw
    is undefined when either value is).

    The estimate is ``Undefined`` (with both reasons) when either value is."""
    _check_share(max_undefined_share)
    values = bootstrap([statistic_a, statistic_b], draws, seed)
    a, b = statistic_a.value(), statistic_b.value()
    if math.isnan(a) or math.isnan(b):
        reasons = "; ".join(getattr(v, "reason", "") for v in (a, b) if math.isnan(v))
        estimate = Undefined(f"difference undefined: {reasons}")
    else:
        estimate = b - a
    return estimate, interval_from_draws(values[1] - values[0], level, scheme, seed=seed,
                                         max_undefined_share=max_undefined_share)
