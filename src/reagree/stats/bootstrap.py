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
- **Rating rows.** Units with the same full row of labels (their row of rater codes, or
  their category counts when only counts were given; a table's cell) are
  interchangeable for every statistic of those units. A statistic knows its units'
  rows (``UnitStatistic.rows()``: the distinct rows numbered in order of first
  appearance, each one's number of units s_r and first unit): from a ``Ratings``, the rows
  of rater codes (``Ratings.rating_rows``; 3 raters and 4 categories with missing cells
  allow at most 5^3 = 125); from counts, the count rows; from a table, its cells. Every
  statistic built from the same ratings has the same rows.
- **The draws, by scheme.**

  - ``"percentile"`` (reagree's default). A resample is summarised by how many of its n
    units fall in each row, and that vector is drawn directly: with
    ``rng = numpy.random.default_rng(seed)``, draw b is ``rng.multinomial(n, s / n)`` (the
    distribution of the row counts of n units drawn with replacement). Every statistic
    then finishes from its sums, (row counts) @ (the statistic's sums per row): no draw
    touches a unit. The draws depend only on the rows' sizes, the seed and the number of
    draws, so a statistic's interval is the same alone or bundled with any others;
    statistics of the same rows see the same draws (paired), while statistics of different
    rows each draw their own from the same seed (``paired_difference`` draws two of them
    over the rows both distinguish). When the rows number more than
    ``MULTINOMIAL_MAX_ROW_SHARE`` (a quarter) of the units, a multinomial costs more than drawing
    the units, and the row counts of draw b are those of the ``numpy`` scheme's resample
    b instead (the same distribution; still a function of the rows, seed and draws only).
    Ends: the order statistics ceil(B' a/2) and ceil(B' (1 - a/2)) of the B' defined
    draws; with 2,000 draws and a = 0.05 the 50th and 1,950th smallest values.
  - ``"numpy"``: the resamples of a write-up's loop, ``rng = numpy.random.default_rng(seed)``
    and one ``rng.integers(0, n, size=n)`` per draw; ends ``numpy.percentile(values,
    [100 a/2, 100 (1 - a/2)])`` (linear interpolation). It replays a write-up that drew
    ``idx = rng.integers(0, n, size=n)`` per draw and printed ``np.percentile(values,
    [2.5, 97.5])``. The indices come in blocks of draws, ``rng.integers(0, n, size=(block,
    n))``, the same stream as ``block`` calls of size n (a test holds this); each block's
    units are counted per distinct per-unit row by one ``bincount`` and finished by one
    matrix product. All statistics bootstrapped together see the same resamples.

  Earlier versions drew the default scheme from the ``numpy`` scheme's unit indices;
  default-scheme interval ends therefore differ from theirs by Monte Carlo error.
  ``numpy``-scheme intervals did not change.
- **Cost.** Neither scheme loops over draws in Python. The default scheme costs one
  multinomial of R rows per draw (about ten microseconds for 125 rows) and one (B x R) @ (R
  x d) product, whatever the number of units; the ``numpy`` scheme draws and counts n
  indices per draw. Blocks hold about four million indices or counts. One rule measures
  the work of both (``bootstrap_work``): the cells drawn and counted, draws times n units
  where unit indices are drawn, draws times R rows for a multinomial; ``bootstrap`` reports
  it block by block to a ``progress`` callback, and the audit refuses a bootstrap past
  ``MAX_BOOTSTRAP_CELLS`` (about five minutes) in one line naming the draws that fit.
- **Undefined draws.** Draws on which the coefficient is undefined (NaN: a resample with
  one category, say) are left out and counted in ``Interval.undefined_draws``.
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

Efron, B., Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 6 and 13 (the
nonparametric bootstrap and percentile intervals); the row counts of n draws with
replacement from units in rows of sizes s are Multinomial(n, s / n).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from reagree.stats.rows import row_ids
from reagree.stats.undefined import Undefined

__all__ = [
    "BLOCK_CELLS",
    "MAX_BOOTSTRAP_CELLS",
    "MAX_UNDEFINED_SHARE",
    "MULTINOMIAL_MAX_ROW_SHARE",
    "SCHEMES",
    "Interval",
    "RatingRows",
    "UnitStatistic",
    "bootstrap",
    "bootstrap_interval",
    "bootstrap_intervals",
    "bootstrap_work",
    "draw_cells",
    "draw_indices",
    "draw_rows",
    "evaluate_indices",
    "half_width",
    "interval_from_draws",
    "paired_difference",
    "percentile_interval",
    "resample_indices",
    "scheme_text",
]

SCHEMES = ("percentile", "numpy")
# Indices (or row counts) per block of draws: bounds memory (a few tens of MB) for any n and any B.
BLOCK_CELLS = 4_000_000
# More undefined draws than this share and the interval is refused (module docstring).
MAX_UNDEFINED_SHARE = 0.05
# The most cells a bootstrap may draw and count, summed over its statistics (``bootstrap_work``):
# unit indices for the numpy scheme (and the default scheme over too many rows), row counts
# for a multinomial. Measured on the project's 2-core machine: about 6e7 cells a second under
# the numpy scheme (indices drawn, looked up and counted: an audit of 15 values on 50,000
# units, 2,000 draws, is 1.5e9 cells in 24 s), so the cap is about five minutes of work; the
# default scheme's multinomial rarely comes near it (100,000 draws over 125 rows is 1.25e7
# cells a statistic).
MAX_BOOTSTRAP_CELLS = 20_000_000_000
# Above this many rows per unit, drawing n unit indices is cheaper than a multinomial over
# the rows (numpy, measured: 100-300 ns per row against 40-130 ns per index drawn and counted).
MULTINOMIAL_MAX_ROW_SHARE = 1 / 4


@dataclass(frozen=True, eq=False)
class RatingRows:
    """How the units of a sample fall into distinct rating rows (module docstring), the
    rows numbered in order of first appearance.

    - ``sizes``: (R,) units in each row (s_r).
    - ``first``: (R,) index of each row's first unit.
    - ``statistic_row``: (R,) the row of the statistic's ``per_unit`` that every unit of
      the rating row has.
    - ``ids``: (n,) each unit's rating row, or None for a table's cells (the units of
      row r are then the s_r consecutive units from ``first[r]``).
    """

    sizes: np.ndarray
    first: np.ndarray
    statistic_row: np.ndarray
    ids: np.ndarray | None = None

    @property
    def n_units(self) -> int:
        return int(self.sizes.sum())

    @property
    def n_rows(self) -> int:
        return int(self.sizes.size)

    def unit_ids(self) -> np.ndarray:
        """(n,) each unit's rating row (written out for a table's cells)."""
        if self.ids is not None:
            return self.ids
        return np.repeat(np.arange(self.n_rows), self.sizes)

    def drawn_by_multinomial(self) -> bool:
        """Whether the default scheme draws these rows' counts by a multinomial (module
        docstring), rather than counting the ``numpy`` scheme's unit indices."""
        return self.n_rows <= MULTINOMIAL_MAX_ROW_SHARE * self.n_units


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
    - ``rating_rows``: for each unit, a number for its full row of labels (equal numbers
      for equal rows), when the statistic reads less than the whole row (Cohen's kappa
      of two raters of many, say): the default scheme then draws over these rows, and
      every statistic of the same ratings sees the same draws. Units of one rating row
      must have the same ``per_unit`` row. Default: the unit's row of ``units`` (with
      ``units``), its cell (with ``weights``), else its ``per_unit`` row's values. A
      function returning them defers the work to the first bootstrap (a value alone
      never needs them).
    """

    name: str
    per_unit: np.ndarray
    finish: Callable[[np.ndarray], np.ndarray]
    why_undefined: Callable[[np.ndarray], str] | None = None
    units: np.ndarray | None = None
    weights: np.ndarray | None = None
    rating_rows: np.ndarray | Callable[[], np.ndarray] | None = None
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
        if self.rating_rows is not None:
            if self.weights is not None:
                raise ValueError(f"{self.name}: a table's units are its cells; rating_rows go with units")
            if not callable(self.rating_rows):
                object.__setattr__(self, "rating_rows", self._checked_rating_rows(self.rating_rows))

    def _checked_rating_rows(self, rating_rows) -> np.ndarray:
        rating_rows = np.asarray(rating_rows).reshape(-1)
        expected = self.units.size if self.units is not None else self.per_unit.shape[0]
        if rating_rows.size != expected:
            raise ValueError(f"{self.name}: need one rating row per unit ({expected}), got {rating_rows.size}")
        return rating_rows

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
        return np.repeat(np.arange(self.per_unit.shape[0]), self._whole_weights())

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
        row_weights = np.bincount(
            (rows[None, :] + offsets).ravel(), weights=unit_weights.ravel(), minlength=b * g
        ).reshape(b, g)
        return self.finish_totals(row_weights @ self.per_unit)

    # ------------------------------------------------------------------ pooled form

    def pooled(self) -> tuple[np.ndarray, np.ndarray]:
        """(patterns, unit_pattern): the distinct per-unit rows and each unit's pattern
        (what the ``numpy`` scheme counts)."""
        if "patterns" not in self._pooled:
            patterns, inverse = np.unique(self.per_unit, axis=0, return_inverse=True)
            self._pooled["patterns"] = patterns
            self._pooled["unit_pattern"] = inverse.reshape(-1)[self.unit_rows()]
        return self._pooled["patterns"], self._pooled["unit_pattern"]

    def forget_rows(self) -> None:
        """Drop the cached rating rows and patterns (an id per unit: memory only a bootstrap
        needs); the next bootstrap finds them again."""
        self._pooled.clear()

    def rows(self) -> RatingRows:
        """The units' distinct rating rows, what the default scheme draws over (module
        docstring). ValueError if units of one rating row have different ``per_unit`` rows."""
        if "rows" not in self._pooled:
            self._pooled["rows"] = self._rating_rows()
        return self._pooled["rows"]

    def _rating_rows(self) -> RatingRows:
        if self.weights is not None:
            counts = self._whole_weights()
            present = np.flatnonzero(counts > 0)
            first = (np.cumsum(counts) - counts)[present]
            return RatingRows(counts[present], first, present, None)
        unit_rows = self.unit_rows()
        rating_rows = self.rating_rows() if callable(self.rating_rows) else self.rating_rows
        if rating_rows is not None:
            source = self._checked_rating_rows(rating_rows)[:, None]
        elif self.units is not None:
            source = unit_rows[:, None]
        else:
            source = self.per_unit
        ids, first = row_ids(source)
        statistic_row = unit_rows[first]
        if rating_rows is not None:
            self._check_rows_determine_sums(ids, statistic_row, unit_rows)
        return RatingRows(np.bincount(ids, minlength=first.size), first, statistic_row, ids)

    def _check_rows_determine_sums(self, ids: np.ndarray, statistic_row: np.ndarray, unit_rows: np.ndarray) -> None:
        other = np.flatnonzero(statistic_row[ids] != unit_rows)
        if other.size and not np.array_equal(self.per_unit[unit_rows[other]], self.per_unit[statistic_row[ids[other]]]):
            raise ValueError(
                f"{self.name}: units with the same rating row have different per-unit sums; "
                "rating_rows must number each unit's full row of labels"
            )

    def _whole_weights(self) -> np.ndarray:
        """The rows' weights as whole numbers of units (ValueError for fractions)."""
        whole = np.round(self.weights)
        if not np.array_equal(whole, self.weights):
            raise ValueError(
                f"{self.name}: rows weighted by fractions (a table of proportions) are not units "
                "and cannot be resampled; pass counts"
            )
        return whole.astype(np.int64)


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


def half_width(interval: Interval) -> float:
    """(high - low) / 2: the "+-" printed after an estimate ("0.53 +- 0.02"); Undefined
    when an end of the interval is."""
    if not np.isfinite(interval.low) or not np.isfinite(interval.high):
        return Undefined("the interval is undefined")
    return float(interval.width / 2)


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


def interval_from_draws(
    values: np.ndarray,
    level: float,
    scheme: str = "percentile",
    *,
    seed: int | str | None,
    name: str | None = None,
    max_undefined_share: float = MAX_UNDEFINED_SHARE,
) -> Interval:
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
            "only the resamples on which the coefficient exists"
        )
        return Interval(reason, reason, level, int(values.size), undefined, text, seed)
    low, high = (_order_statistic_ends if scheme == "percentile" else _numpy_ends)(defined, level)
    return Interval(low, high, level, int(values.size), undefined, text, seed)


def percentile_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """(low, high) of the "percentile" scheme: order statistics ceil(B a/2) and
    ceil(B (1 - a/2)) of the defined draws; (NaN, NaN) if none is defined."""
    values = np.asarray(values, dtype=float).reshape(-1)
    defined = values[np.isfinite(values)]
    if defined.size == 0:
        return float("nan"), float("nan")
    return _order_statistic_ends(defined, level)


# ---------------------------------------------------------------------- the draws


def _check_scheme(scheme: str) -> None:
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")


def _block_size(n_units: int) -> int:
    return max(1, BLOCK_CELLS // max(n_units, 1))


def _check_draws(n_units: int, draws: int) -> None:
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    if n_units < 1:
        raise ValueError("cannot resample a sample of no units")


def _index_blocks(n_units: int, draws: int, seed: int) -> Iterator[np.ndarray]:
    """The ``numpy`` scheme's resamples, ``block`` draws at a time: the same stream as one
    ``rng.integers(0, n, size=n)`` call per draw."""
    _check_draws(n_units, draws)
    rng = np.random.default_rng(seed)
    block = _block_size(n_units)
    for start in range(0, draws, block):
        yield rng.integers(0, n_units, size=(min(block, draws - start), n_units))


def draw_indices(n_units: int, draws: int, seed: int) -> np.ndarray:
    """The (draws, n) unit indices of the ``numpy`` scheme, written out (for checks
    against a per-draw loop; the engine itself never holds them all)."""
    return np.vstack(list(_index_blocks(n_units, draws, seed)))


def _row_count_blocks(rows: RatingRows, draws: int, seed: int) -> Iterator[np.ndarray]:
    """The default scheme's draws, ``block`` at a time: (block, R) counts of units per
    rating row. One ``rng.multinomial(n, s / n)`` per draw (blocks of draws give the same
    stream), or the row counts of the ``numpy`` scheme's resamples when the rows are
    too many for that (module docstring)."""
    n_units = rows.n_units
    _check_draws(n_units, draws)
    if not rows.drawn_by_multinomial():
        ids = rows.unit_ids()
        for indices in _index_blocks(n_units, draws, seed):
            block = indices.shape[0]
            chosen = ids[indices] + (np.arange(block) * rows.n_rows)[:, None]
            yield np.bincount(chosen.ravel(), minlength=block * rows.n_rows).reshape(block, rows.n_rows)
        return
    rng = np.random.default_rng(seed)
    shares = rows.sizes / n_units
    block = _block_size(rows.n_rows)
    for start in range(0, draws, block):
        yield rng.multinomial(n_units, shares, size=min(block, draws - start))


def draw_rows(statistic: UnitStatistic, draws: int, seed: int) -> tuple[RatingRows, np.ndarray]:
    """(rows, counts): the statistic's rating rows and the default scheme's (draws, R)
    counts of units per row, written out (for checks against a per-draw loop)."""
    rows = statistic.rows()
    return rows, np.vstack(list(_row_count_blocks(rows, draws, seed)))


def resample_indices(statistic: UnitStatistic, draws: int, seed: int) -> np.ndarray:
    """The default scheme's resamples as (draws, n) unit indices: in draw b, row r's first
    unit repeated by the row's count. Every unit of a row has the statistic's sums, so a
    per-draw loop over these indices computes what the engine computes."""
    rows, counts = draw_rows(statistic, draws, seed)
    return np.vstack([np.repeat(rows.first, row) for row in counts])


def _shared_units(statistics: Sequence[UnitStatistic]) -> int:
    if not statistics:
        raise ValueError("no statistics to bootstrap")
    sizes = {s.n_units for s in statistics}
    if len(sizes) != 1:
        raise ValueError(f"statistics bootstrapped together must share their units, got sizes {sorted(sizes)}")
    return sizes.pop()


def _evaluate_blocks(
    statistics: Sequence[UnitStatistic],
    blocks: Iterator[np.ndarray],
    draws: int,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Each statistic on each resample of unit indices; each statistic's row depends on it
    and the indices alone."""
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
            out[start : start + rows] = counts @ patterns
        start += rows
        if progress is not None:
            progress(rows * indices.shape[1] * len(statistics))
    return np.vstack([s.finish_totals(t) for s, t in zip(statistics, totals)])


def _draw_key(rows: RatingRows) -> tuple:
    """Rows with equal keys get equal draws: for a multinomial the sizes decide them, for
    drawn indices the unit-to-row map does."""
    if rows.drawn_by_multinomial():
        return "multinomial", rows.sizes.tobytes()
    return "indices", hashlib.blake2b(np.ascontiguousarray(rows.unit_ids()).tobytes()).hexdigest()


def _evaluate_rows(
    statistics: Sequence[UnitStatistic], draws: int, seed: int, progress: Callable[[int], None] | None = None
) -> np.ndarray:
    """Each statistic on the default scheme's draws over its own rating rows. Statistics
    whose rows draw alike share one pass over the draws."""
    groups: dict[tuple, list[int]] = {}
    for i, statistic in enumerate(statistics):
        groups.setdefault(_draw_key(statistic.rows()), []).append(i)
    values = np.empty((len(statistics), draws))
    for members in groups.values():
        sums = [statistics[i].per_unit[statistics[i].rows().statistic_row] for i in members]
        totals = [np.empty((draws, table.shape[1])) for table in sums]
        start = 0
        for counts in _row_count_blocks(statistics[members[0]].rows(), draws, seed):
            weights = counts.astype(float)
            for table, out in zip(sums, totals):
                out[start : start + weights.shape[0]] = weights @ table
            start += weights.shape[0]
            if progress is not None:
                progress(weights.shape[0] * draw_cells(statistics[members[0]]) * len(members))
        for i, total in zip(members, totals):
            values[i] = statistics[i].finish_totals(total)
    return values


def draw_cells(statistic: UnitStatistic, scheme: str = "percentile") -> int:
    """Cells the scheme draws and counts per draw for ``statistic``: its n units where unit
    indices are drawn (the ``numpy`` scheme; the default scheme over rows too many for a
    multinomial), its R rating rows for a multinomial."""
    _check_scheme(scheme)
    if scheme == "numpy":
        return statistic.n_units
    rows = statistic.rows()
    return rows.n_rows if rows.drawn_by_multinomial() else rows.n_units


def bootstrap_work(statistics: Sequence[UnitStatistic], draws: int, scheme: str = "percentile") -> int:
    """The cells a bootstrap of ``statistics`` draws and counts: ``draws`` times each one's
    ``draw_cells``, summed. One rule for both schemes; what ``bootstrap``'s ``progress``
    counts up to, and what a caller caps (``MAX_BOOTSTRAP_CELLS``)."""
    return sum(int(draws) * draw_cells(statistic, scheme) for statistic in statistics)


def bootstrap(
    statistics: Sequence[UnitStatistic],
    draws: int,
    seed: int,
    scheme: str = "percentile",
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Values of each statistic on ``draws`` unit resamples: shape (len(statistics), draws).

    ``scheme`` picks the draws (module docstring): ``"percentile"``, multinomial row
    counts over each statistic's rating rows; ``"numpy"``, the b-th
    ``rng.integers(0, n, size=n)`` of ``default_rng(seed)`` for every statistic. Either
    way each row is what the statistic gives bootstrapped alone, and statistics that see
    the same resamples are paired. NaN marks an undefined draw.

    ``progress``, if given, is called after each block of draws with the cells that block
    drew and counted (``bootstrap_work`` in all), for a progress bar on a long bootstrap.
    """
    _check_scheme(scheme)
    n_units = _shared_units(statistics)
    if scheme == "numpy":
        return _evaluate_blocks(statistics, _index_blocks(n_units, draws, seed), draws, progress)
    _check_draws(n_units, draws)
    return _evaluate_rows(statistics, draws, seed, progress)


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
    blocks = (indices[start : start + block] for start in range(0, draws, block))
    return _evaluate_blocks(statistics, blocks, draws)


def bootstrap_intervals(
    statistics: Sequence[UnitStatistic],
    draws: int,
    seed: int,
    level: float,
    scheme: str = "percentile",
    *,
    max_undefined_share: float = MAX_UNDEFINED_SHARE,
) -> list[Interval]:
    """One ``Interval`` per statistic, each as it is alone (one pass over the draws)."""
    _check_share(max_undefined_share)
    values = bootstrap(statistics, draws, seed, scheme)
    return [
        interval_from_draws(row, level, scheme, seed=seed, max_undefined_share=max_undefined_share) for row in values
    ]


def bootstrap_interval(
    statistic: UnitStatistic,
    draws: int,
    seed: int,
    level: float,
    scheme: str = "percentile",
    *,
    max_undefined_share: float = MAX_UNDEFINED_SHARE,
) -> Interval:
    """The bootstrap interval of one statistic."""
    return bootstrap_intervals([statistic], draws, seed, level, scheme, max_undefined_share=max_undefined_share)[0]


def _on_common_rows(statistic_a: UnitStatistic, statistic_b: UnitStatistic) -> list[UnitStatistic]:
    """The two statistics over the rating rows both distinguish (each one's row and the
    other's, together), so that the default scheme draws them paired."""
    ids_a, ids_b = statistic_a.rows().unit_ids(), statistic_b.rows().unit_ids()
    if np.array_equal(ids_a, ids_b):
        return [statistic_a, statistic_b]
    common = row_ids(np.column_stack([ids_a, ids_b]))[0]
    return [
        UnitStatistic(s.name, s.per_unit, s.finish, s.why_undefined, units=s.unit_rows(), rating_rows=common)
        for s in (statistic_a, statistic_b)
    ]


def paired_difference(
    statistic_a: UnitStatistic,
    statistic_b: UnitStatistic,
    draws: int,
    seed: int,
    level: float,
    scheme: str = "percentile",
    *,
    max_undefined_share: float = MAX_UNDEFINED_SHARE,
) -> tuple[float, Interval]:
    """b minus a on the sample, and the interval of b - a over the same resamples (a draw
    is undefined when either value is). Under the default scheme both are drawn over the
    rating rows that either distinguishes, so each draw resamples the same units for both.

    The estimate is ``Undefined`` (with both reasons) when either value is."""
    _check_share(max_undefined_share)
    _check_scheme(scheme)
    _shared_units([statistic_a, statistic_b])
    paired = [statistic_a, statistic_b] if scheme == "numpy" else _on_common_rows(statistic_a, statistic_b)
    values = bootstrap(paired, draws, seed, scheme)
    a, b = statistic_a.value(), statistic_b.value()
    if math.isnan(a) or math.isnan(b):
        reasons = "; ".join(getattr(v, "reason", "") for v in (a, b) if math.isnan(v))
        estimate = Undefined(f"difference undefined: {reasons}")
    else:
        estimate = b - a
    return estimate, interval_from_draws(
        values[1] - values[0], level, scheme, seed=seed, max_undefined_share=max_undefined_share
    )
