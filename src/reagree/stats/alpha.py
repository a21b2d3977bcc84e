"""Krippendorff's alpha at the four measurement levels.

What this module decides:

- **Input.** A ``Ratings`` (units x raters) or a per-unit count matrix (n_units x K,
  entry (i, k) = how many ratings of unit i fall in category k). Alpha depends on the
  ratings only through these counts, so a long table of 1.6 million labels on 200,000
  units never needs a dense units x raters matrix. Counts are finite non-negative whole
  numbers, else ValueError.
- **Orientation.** The ``krippendorff`` package reads coders x units; reagree reads
  units x raters. Feeding the package units x coders silently computes a different,
  meaningless number (on the "Agreement Before Accuracy" fixture -0.0021 instead of
  0.63). Nothing here calls the package; the tests compare against it, transposing there.
- **Levels.** Always explicit: nominal, ordinal, interval or ratio. Nominal and ordinal
  read the categories in their declared (column) order; interval and ratio need a number
  per category: a ``Ratings``' categories themselves, or ``values`` (required for counts).
  Ratio values must be non-negative (a ratio scale has a true zero).
- **Pairable values.** A unit with fewer than two ratings contributes nothing: not to
  the coincidence matrix, and not to the marginals the ordinal metric counts between two
  categories. (``ordinal_marginals="all"`` counts every labelled value instead; that is
  the variant a careless implementation computes, kept to measure the difference.)
- **Coincidence matrix.** o_ck = sum_u (number of c-k pairs in unit u) / (m_u - 1);
  n_c = sum_k o_ck; n = sum_c n_c.
- **Degenerate input** (no pairable unit; fewer than two distinct pairable values; zero
  expected disagreement) is ``Undefined``.

alpha = 1 - D_o / D_e, D_o = (1/n) sum_ck o_ck delta_ck, D_e = 1/(n(n-1)) sum_ck n_c n_k delta_ck,
with delta_ck: nominal [c != k]; ordinal (sum_{g=c..k} n_g - (n_c + n_k)/2)^2; interval
(v_c - v_k)^2; ratio ((v_c - v_k) / (v_c + v_k))^2; circular sin^2(pi (v_c - v_k) / U), U =
v_max - v_min + 1 (Gwet's convention for the number of points on the circle); bipolar
(v_c - v_k)^2 / ((v_c + v_k - 2 v_min)(2 v_max - v_c - v_k)) (``reagree.stats.weights``).
Ordered levels on a ``Ratings`` whose text labels were sorted as text (``Ratings.ordered``
False) are refused: alphabetical order is no order.

Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
Communication, University of Pennsylvania; Krippendorff, K. (2019). Content Analysis, 4th
ed., ch. 12.
"""

from __future__ import annotations

import numpy as np

from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.ratings import Ratings, check_unit_counts
from reagree.stats.rows import unique_rows
from reagree.stats.undefined import Undefined
from reagree.stats.weights import distance

__all__ = [
    "LEVELS",
    "METRICS",
    "alpha_expected_over_n_squared",
    "alpha_from_coincidences",
    "alpha_statistic",
    "alpha_without_each_unit",
    "coincidence_matrix",
    "krippendorff_alpha",
]

LEVELS = ("nominal", "ordinal", "interval", "ratio")
# Krippendorff's (2011) further metrics, for values on a circle (angles, hours) or a bipolar
# scale (-3..+3 with both ends extreme): they read numbers like interval (reagree.stats.weights).
METRICS = (*LEVELS, "circular", "bipolar")


def _check_level(level: str) -> None:
    if level not in METRICS:
        raise ValueError(f"level_of_measurement must be one of {METRICS}, got {level!r}")


def _refuse_unordered(data, level: str) -> None:
    """Ordered levels need a declared order: text labels sorted as text have none."""
    if level != "nominal" and isinstance(data, Ratings) and not data.ordered:
        raise ValueError(
            f"{level} alpha needs ordered categories, and these labels {list(data.categories)} were "
            "sorted as text, which is no order: declare it (Ratings.from_labels(..., categories=[...] "
            "in order)), as the krippendorff package refuses text without a value_domain"
        )


def _counts_and_values(data, level: str, values) -> tuple[np.ndarray, np.ndarray]:
    """The unit x category counts and one number per category (ranks for nominal/ordinal)."""
    if isinstance(data, Ratings):
        _refuse_unordered(data, level)
        counts, categories = data.unit_counts().astype(float), data.categories
    else:
        counts, categories = check_unit_counts(data), None
    return counts, _category_values(level, counts.shape[1], values, categories)


def _category_values(level: str, k: int, values, categories=None) -> np.ndarray:
    """One number per category: ranks 0..K-1 for nominal and ordinal; ``values`` (else the
    categories themselves) for interval, ratio, circular and bipolar."""
    if level in ("nominal", "ordinal"):
        return np.arange(k, dtype=float)
    if values is None and categories is None:
        raise ValueError(f"{level} alpha on a count matrix needs values= (one number per category column)")
    source = values if values is not None else categories
    try:
        numbers = np.array([float(v) for v in source])
    except (TypeError, ValueError):
        raise ValueError(f"{level} alpha needs numeric categories, got {list(source)}") from None
    if numbers.shape != (k,) or not np.isfinite(numbers).all():
        raise ValueError(f"{level} alpha needs {k} finite category values, got {list(source)}")
    if level == "ratio" and (numbers < 0).any():
        raise ValueError(
            f"ratio alpha needs non-negative values (a ratio scale has a true zero), got {numbers.tolist()}"
        )
    return numbers


def _coincidences(rows: np.ndarray) -> np.ndarray:
    """Per-row coincidence contributions, shape (g, K, K); zero for unpairable rows."""
    k = rows.shape[1]
    m = rows.sum(axis=1)
    pairs = rows[:, :, None] * rows[:, None, :]
    pairs[:, np.arange(k), np.arange(k)] -= rows
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(m >= 2, 1.0 / (m - 1), 0.0)
    return pairs * scale[:, None, None]


def coincidence_matrix(data) -> np.ndarray:
    """Krippendorff's K x K coincidence matrix o_ck over pairable units of a ``Ratings``
    or a unit x category count matrix."""
    counts, _ = _counts_and_values(data, "nominal", None)
    rows, _, inverse = unique_rows(counts)
    multiplicity = np.bincount(inverse, minlength=rows.shape[0]).astype(float)
    return np.einsum("g,gij->ij", multiplicity, _coincidences(rows))


def _delta(level: str, values: np.ndarray, marginals: np.ndarray) -> np.ndarray:
    """delta^2 for each draw: shape (b, K, K) (ordinal depends on the draw's marginals)."""
    k = values.size
    if level == "nominal":
        return np.broadcast_to(1.0 - np.eye(k), (marginals.shape[0], k, k))
    if level == "interval":
        return np.broadcast_to(np.subtract.outer(values, values) ** 2, (marginals.shape[0], k, k))
    if level in ("circular", "bipolar"):
        return np.broadcast_to(distance(level, values), (marginals.shape[0], k, k))
    if level == "ratio":
        sums = np.add.outer(values, values)
        # 0 and 0 are the same value: their distance is 0, not 0/0 (as in the krippendorff package).
        ratio = np.divide(np.subtract.outer(values, values), sums, out=np.zeros((k, k)), where=sums != 0)
        return np.broadcast_to(ratio**2, (marginals.shape[0], k, k))
    low = np.minimum.outer(np.arange(k), np.arange(k))
    high = np.maximum.outer(np.arange(k), np.arange(k))
    cumulative = np.concatenate([np.zeros((marginals.shape[0], 1)), np.cumsum(marginals, axis=1)], axis=1)
    between = cumulative[:, high + 1] - cumulative[:, low]
    ends = (marginals[:, low] + marginals[:, high]) / 2
    return np.where(low == high, 0.0, (between - ends) ** 2)


def _alpha_of_coincidences(
    observed: np.ndarray, level: str, numbers: np.ndarray, marginals: np.ndarray | None = None
) -> np.ndarray:
    """alpha = 1 - D_o / D_e for a stack of coincidence matrices, shape (b, K, K); the
    ordinal metric's marginals are the matrices' own unless given (shape (b, K))."""
    n_c = observed.sum(axis=2)
    n = n_c.sum(axis=1)
    delta = _delta(level, numbers, n_c if marginals is None else marginals)
    with np.errstate(divide="ignore", invalid="ignore"):
        disagreement_observed = (observed * delta).sum(axis=(1, 2)) / n
        disagreement_expected = np.einsum("bi,bj,bij->b", n_c, n_c, delta) / (n * (n - 1))
        return 1 - disagreement_observed / disagreement_expected


def _why_undefined(matrix: np.ndarray, level: str) -> str:
    n_c = matrix.sum(axis=1)
    if n_c.sum() == 0:
        return "no unit has two or more ratings"
    if (n_c > 0).sum() < 2:
        return "only one value among the pairable ratings (fewer than two distinct values): no expected disagreement"
    return f"expected disagreement is zero at the {level} level"


def alpha_from_coincidences(matrix, level_of_measurement: str, values=None) -> float:
    """Krippendorff's alpha read from a K x K coincidence matrix o_ck (``coincidence_matrix``).

    The same number as ``krippendorff_alpha`` on the units the matrix came from, by the
    same formula (module docstring); taking the matrix is what lets a sub-matrix have an
    alpha (two classes of three: how well they are told apart). ``values`` gives each
    category's number for interval and ratio. Undefined when nothing is pairable or only
    one value occurs.
    """
    _check_level(level_of_measurement)
    matrix = np.asarray(matrix, dtype=float)
    k = matrix.shape[0] if matrix.ndim == 2 else -1
    if matrix.shape != (k, k):
        raise ValueError(f"a coincidence matrix is K x K, got shape {matrix.shape}")
    if not np.isfinite(matrix).all() or (matrix < 0).any():
        raise ValueError("a coincidence matrix holds finite, non-negative weights")
    numbers = _category_values(level_of_measurement, k, values)
    value = float(_alpha_of_coincidences(matrix[None], level_of_measurement, numbers)[0])
    return value if np.isfinite(value) else Undefined(_why_undefined(matrix, level_of_measurement))


def alpha_statistic(
    data, level_of_measurement: str, values=None, *, ordinal_marginals: str = "pairable"
) -> UnitStatistic:
    """``krippendorff_alpha`` as sums over units of coincidence contributions.

    Units are pooled by their count row (a row's contribution depends on nothing else),
    so memory grows with the number of distinct rows, not of units. From a ``Ratings``
    the bootstrap draws over its rows of codes (``Ratings.rating_rows``), like every
    other statistic of those ratings.
    """
    _check_level(level_of_measurement)
    if ordinal_marginals not in ("pairable", "all"):
        raise ValueError(f"ordinal_marginals must be 'pairable' or 'all', got {ordinal_marginals!r}")
    counts, numbers = _counts_and_values(data, level_of_measurement, values)
    k = counts.shape[1]
    rows, _, inverse = unique_rows(counts)
    parts = [_coincidences(rows).reshape(rows.shape[0], k * k)]
    if ordinal_marginals == "all":
        parts.append(rows)

    def finish(totals: np.ndarray) -> np.ndarray:
        observed = totals[:, : k * k].reshape(-1, k, k)
        marginals = totals[:, k * k :] if ordinal_marginals == "all" else None
        return _alpha_of_coincidences(observed, level_of_measurement, numbers, marginals)

    def why(totals: np.ndarray) -> str:
        return _why_undefined(totals[: k * k].reshape(k, k), level_of_measurement)

    name = f"krippendorff_alpha[{level_of_measurement}]"
    rating_rows = (lambda: data.rating_rows) if isinstance(data, Ratings) else None
    return UnitStatistic(name, np.hstack(parts), finish, why, units=inverse, rating_rows=rating_rows)


def krippendorff_alpha(data, level_of_measurement: str, values=None) -> float:
    """Krippendorff's alpha at the given level (nominal, ordinal, interval, ratio).

    ``data`` is a ``Ratings`` (units x raters) or a unit x category count matrix; for
    interval and ratio on counts, ``values`` gives each category column's number (on a
    ``Ratings`` it overrides the categories). alpha = 1 - D_o / D_e over the coincidence
    matrix; see the module docstring for the formula and conventions. Equals the
    ``krippendorff`` package's ``alpha`` (which reads coders x units) at all four levels.

    Parameters
    ----------
    data : Ratings or array_like, shape (n_units, K)
        The ratings, or each unit's count of ratings in each category.
    level_of_measurement : {"nominal", "ordinal", "interval", "ratio"}
        The metric of the disagreement (no default: the level is always said).
    values : sequence of float, optional
        Each category's number, for interval and ratio.

    Returns
    -------
    float or Undefined

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School
    for Communication, University of Pennsylvania.

    Examples
    --------
    Krippendorff (2011), section C: 4 observers, 12 units, values 1 to 5 with missing
    values; it prints nominal alpha 0.743, ordinal 0.815, interval 0.849 and ratio 0.797
    (the ``krippendorff`` package gives the same on these data):

    >>> import numpy as np, pandas as pd
    >>> from reagree.stats.ratings import Ratings
    >>> nan = np.nan
    >>> observers_by_units = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...                       [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...                       [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...                       [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> ratings = Ratings.from_labels(pd.DataFrame(observers_by_units).T, categories=(1, 2, 3, 4, 5))
    >>> [round(krippendorff_alpha(ratings, level), 3) for level in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    return alpha_statistic(data, level_of_measurement, values).value()


def alpha_expected_over_n_squared(data, level_of_measurement: str, values=None) -> float:
    """Krippendorff's alpha with the expected disagreement averaged over all n^2 ordered
    pairs of pairable values instead of the n(n - 1) pairs of distinct values.

    D_e' = (1/n^2) sum_ck n_c n_k delta_ck = D_e (n - 1) / n, so
    alpha' = 1 - D_o / D_e' = 1 - (1 - alpha) n / (n - 1): below alpha by (1 - alpha) / (n - 1),
    negligible for large n. It is the expected disagreement of pairs drawn *with*
    replacement (a value paired with itself included), where Krippendorff's D_e pairs the
    n pairable values without replacement, n(n - 1) pairs. Same input and
    levels as ``krippendorff_alpha``; Undefined where alpha is (and with fewer than two
    pairable values). Kept as a variant because it reproduces a printed number alpha does
    not (Mozetič et al. 2016, a self-agreement on 182 units).

    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School
    for Communication, University of Pennsylvania.
    """
    _check_level(level_of_measurement)
    counts, numbers = _counts_and_values(data, level_of_measurement, values)
    matrix = coincidence_matrix(counts)
    alpha = alpha_from_coincidences(matrix, level_of_measurement, numbers)
    if np.isnan(alpha):
        return alpha
    n = matrix.sum()
    return float(1.0 - (1.0 - alpha) * n / (n - 1))


def alpha_without_each_unit(data, level_of_measurement: str, values=None) -> np.ndarray:
    """Krippendorff's alpha with each unit left out in turn: element u is alpha over every
    unit but u (units in the order of ``data``'s rows).

    A unit's coincidence contribution does not depend on the other units, so leaving one
    out subtracts its contribution from the total matrix (one stack of U matrices, no loop
    over units); the expected disagreement follows the remaining marginals. How far one
    unit moves alpha: what a printed value that a single unit's coding would explain
    is held against (a jackknife; Quenouille 1949, Tukey 1958). NaN where leaving a unit
    out leaves nothing pairable or one value only.

    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School
    for Communication, University of Pennsylvania.
    """
    _check_level(level_of_measurement)
    counts, numbers = _counts_and_values(data, level_of_measurement, values)
    contributions = _coincidences(counts)
    remaining = contributions.sum(axis=0)[None] - contributions
    return _alpha_of_coincidences(remaining, level_of_measurement, numbers)
