"""Krippendorff's alpha at the four measurement levels.

What this module decides:

- **Orientation.** reagree's ``Ratings`` are units x raters. The ``krippendorff``
  package reads coders x units; ``krippendorff_alpha`` transposes in this one place.
  Feeding it units x coders silently computes a different, meaningless number (on the
  "Agreement Before Accuracy" fixture -0.0021 instead of 0.63).
- **Levels.** Always explicit: nominal, ordinal, interval or ratio. Nominal and ordinal
  use the category codes 0..K-1 in the declared order; interval and ratio use the
  category values themselves, which must then be numbers.
- **Pairable values.** A unit with fewer than two ratings contributes nothing: not to
  the coincidence matrix, and not to the marginals the ordinal metric counts between two
  categories. (``ordinal_marginals="all"`` counts every labelled value instead; that is
  the variant a careless implementation computes, kept to measure the difference.)
- **Coincidence matrix.** o_ck = sum_u (number of c-k pairs in unit u) / (m_u - 1);
  n_c = sum_k o_ck; n = sum_c n_c.
- **Degenerate input** (no pairable unit; fewer than two distinct pairable values) is
  ``Undefined``.

alpha = 1 - D_o / D_e, D_o = (1/n) sum_ck o_ck delta_ck, D_e = 1/(n(n-1)) sum_ck n_c n_k delta_ck,
with delta_ck: nominal [c != k]; ordinal (sum_{g=c..k} n_g - (n_c + n_k)/2)^2; interval
(v_c - v_k)^2; ratio ((v_c - v_k) / (v_c + v_k))^2.

Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
Communication, University of Pennsylvania; Krippendorff, K. (2019). Content Analysis, 4th
ed., ch. 12.
"""

from __future__ import annotations

import krippendorff
import numpy as np

from reagree.bootstrap import UnitStatistic
from reagree.ratings import MISSING, Ratings
from reagree.undefined import Undefined

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level_of_measurement must be one of {LEVELS}, got {level!r}")


def _numeric_values(ratings: Ratings, level: str) -> np.ndarray:
    if level in ("nominal", "ordinal"):
        return np.arange(ratings.n_categories, dtype=float)
    try:
        values = np.array([float(c) for c in ratings.categories])
    except (TypeError, ValueError):
        raise ValueError(
            f"{level} alpha needs numeric categories, got {list(ratings.categories)}"
        ) from None
    if level == "ratio" and (values < 0).any():
        raise ValueError(f"ratio alpha needs non-negative values (a ratio scale has a true zero), got {values.tolist()}")
    return values


def unit_coincidences(ratings: Ratings) -> np.ndarray:
    """Per-unit coincidence contributions, shape (n_units, K, K); zero for unpairable units."""
    counts = ratings.unit_counts().astype(float)
    m = counts.sum(axis=1)
    pairs = counts[:, :, None] * counts[:, None, :]
    pairs[:, np.arange(ratings.n_categories), np.arange(ratings.n_categories)] -= counts
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(m >= 2, 1.0 / (m - 1), 0.0)
    return pairs * scale[:, None, None]


def coincidence_matrix(ratings: Ratings) -> np.ndarray:
    """Krippendorff's K x K coincidence matrix o_ck over pairable units."""
    return unit_coincidences(ratings).sum(axis=0)


def _why_undefined(ratings: Ratings) -> str | None:
    pairable = (ratings.codes != MISSING).sum(axis=1) >= 2
    if not pairable.any():
        return "no unit has two or more ratings"
    values = ratings.codes[pairable]
    if np.unique(values[values != MISSING]).size < 2:
        return "fewer than two distinct values among pairable ratings"
    return None


def krippendorff_alpha(ratings: Ratings, level_of_measurement: str) -> float:
    """Krippendorff's alpha of a units x raters ``Ratings`` at the given level.

    Computed by the ``krippendorff`` package (coders x units, transposed here, with the
    level always passed). See the module docstring for the formula and conventions.
    """
    _check_level(level_of_measurement)
    reason = _why_undefined(ratings)
    if reason:
        return Undefined(reason)
    values = _numeric_values(ratings, level_of_measurement)
    coded = np.where(ratings.codes == MISSING, np.nan, values[np.maximum(ratings.codes, 0)])
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(krippendorff.alpha(
            reliability_data=coded.T,  # the package reads coders x units
            value_domain=values,
            level_of_measurement=level_of_measurement,
        ))
    return value if np.isfinite(value) else Undefined("expected disagreement is zero at this level")


def _delta(level: str, values: np.ndarray, marginals: np.ndarray) -> np.ndarray:
    """delta^2 for each draw: shape (b, K, K) (ordinal depends on the draw's marginals)."""
    k = values.size
    if level == "nominal":
        return np.broadcast_to(1.0 - np.eye(k), (marginals.shape[0], k, k))
    if level == "interval":
        return np.broadcast_to(np.subtract.outer(values, values) ** 2, (marginals.shape[0], k, k))
    if level == "ratio":
        sums = np.add.outer(values, values)
        # 0 and 0 are the same value: their distance is 0, not 0/0 (as in the krippendorff package).
        ratio = np.divide(np.subtract.outer(values, values), sums, out=np.zeros((k, k)), where=sums != 0)
        return np.broadcast_to(ratio ** 2, (marginals.shape[0], k, k))
    low = np.minimum.outer(np.arange(k), np.arange(k))
    high = np.maximum.outer(np.arange(k), np.arange(k))
    cumulative = np.concatenate([np.zeros((marginals.shape[0], 1)), np.cumsum(marginals, axis=1)], axis=1)
    between = cumulative[:, high + 1] - cumulative[:, low]
    ends = (marginals[:, low] + marginals[:, high]) / 2
    return np.where(low == high, 0.0, (between - ends) ** 2)


def alpha_statistic(ratings: Ratings, level_of_measurement: str, ordinal_marginals: str = "pairable") -> UnitStatistic:
    """Krippendorff's alpha as sums over units of coincidence contributions.

    Hand-written (no library evaluates alpha on many resamples at once); equal to
    ``krippendorff_alpha`` on the original sample, and tested against it.
    """
    _check_level(level_of_measurement)
    if ordinal_marginals not in ("pairable", "all"):
        raise ValueError(f"ordinal_marginals must be 'pairable' or 'all', got {ordinal_marginals!r}")
    k = ratings.n_categories
    values = _numeric_values(ratings, level_of_measurement)
    parts = [unit_coincidences(ratings).reshape(ratings.n_units, k * k)]
    if ordinal_marginals == "all":
        parts.append(ratings.unit_counts().astype(float))

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, : k * k].reshape(-1, k, k)
        n_c = observed.sum(axis=2)
        n = n_c.sum(axis=1)
        marginals = totals[:, k * k:] if ordinal_marginals == "all" else n_c
        delta = _delta(level_of_measurement, values, marginals)
        disagreement_observed = (observed * delta).sum(axis=(1, 2)) / n
        disagreement_expected = np.einsum("bi,bj,bij->b", n_c, n_c, delta) / (n * (n - 1))
        return 1 - disagreement_observed / disagreement_expected

    name = f"krippendorff_alpha[{level_of_measurement}]"
    return UnitStatistic(name, np.hstack(parts), finish)
