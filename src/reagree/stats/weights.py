"""Agreement weights and distances between ordered categories.

What this module decides:

- **Category values.** Each scheme reads one number per category: the categories
  themselves when they are numbers, else their positions 1..K in the declared order (as
  Gwet 2014 and irrCAC do). Text categories in no declared order have no distances: the
  caller refuses them (``reagree.stats.alpha``, ``reagree.audit``).
- **Weights** (Gwet 2014, ch. 3; irrCAC's ``Weights``): w_kl in [0, 1], 1 on the diagonal,
  with x_k the category values, x_min and x_max their ends:

  - identity: [k == l] (no credit for a near miss: the unweighted coefficients);
  - linear: 1 - |x_k - x_l| / (x_max - x_min);
  - quadratic: 1 - (x_k - x_l)^2 / (x_max - x_min)^2;
  - radical: 1 - |x_k - x_l|^(1/2) / (x_max - x_min)^(1/2);
  - ordinal: 1 - M_kl / max M, M_kl = n_kl (n_kl - 1) / 2 with n_kl = |k - l| + 1 (ranks only);
  - ratio: 1 - d_kl / max d, d_kl = ((x_k - x_l) / (x_k + x_l))^2;
  - circular: 1 - d_kl / max d, d_kl = sin^2(pi (x_k - x_l) / U), U = x_max - x_min + 1;
  - bipolar: 1 - d_kl / max d, d_kl = (x_k - x_l)^2 / ((x_k + x_l - 2 x_min)(2 x_max - x_k - x_l)).

- **Distances** are the same schemes as disagreements, d = 1 - w up to a scale (Krippendorff's
  alpha is unchanged by scaling its metric, so ``distance`` returns d un-normalised, with
  0/0 read as 0: two equal values at an end of a bipolar scale do not disagree).

Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., Advanced Analytics,
ch. 3 (weights); Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability,
(circular and bipolar metrics).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = ["SCHEMES", "agreement_weights", "category_values", "distance"]

SCHEMES = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")


def category_values(categories: Sequence) -> np.ndarray:
    """The categories as numbers when every one is a number, else their positions 1..K."""
    try:
        values = np.array([float(c) for c in categories])
    except (TypeError, ValueError):
        return np.arange(1, len(categories) + 1, dtype=float)
    return values if np.isfinite(values).all() else np.arange(1, len(categories) + 1, dtype=float)


def _check(scheme: str, values) -> np.ndarray:
    if scheme not in SCHEMES:
        raise ValueError(f"weights must be one of {SCHEMES}, got {scheme!r}")
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or not np.isfinite(values).all():
        raise ValueError(f"category values must be finite numbers, got {values.tolist()}")
    if scheme == "ratio" and (values < 0).any():
        raise ValueError(f"ratio weights need non-negative category values, got {values.tolist()}")
    return values


def distance(scheme: str, values) -> np.ndarray:
    """K x K disagreement d_kl of ``scheme`` between categories of the given values
    (module docstring), 0 on the diagonal; identity is [k != l]."""
    values = _check(scheme, values)
    k = values.size
    difference = np.subtract.outer(values, values)
    low, high = (values.min(), values.max()) if k else (0.0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if scheme == "identity":
            found = (difference != 0).astype(float)
        elif scheme == "linear":
            found = np.abs(difference)
        elif scheme == "quadratic":
            found = difference**2
        elif scheme == "radical":
            found = np.sqrt(np.abs(difference))
        elif scheme == "ordinal":
            steps = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) + 1.0
            found = steps * (steps - 1) / 2
        elif scheme == "ratio":
            found = (difference / np.add.outer(values, values)) ** 2
        elif scheme == "circular":
            found = np.sin(np.pi * difference / (high - low + 1)) ** 2
        else:  # bipolar
            sums = np.add.outer(values, values)
            found = difference**2 / ((sums - 2 * low) * (2 * high - sums))
    found = np.where(np.isfinite(found), found, 0.0)
    np.fill_diagonal(found, 0.0)
    return found


def agreement_weights(scheme: str, values) -> np.ndarray:
    """K x K agreement weights w_kl of ``scheme`` (module docstring): 1 - d_kl / max d
    (linear, quadratic and radical divided by the range, which is the same thing)."""
    found = distance(scheme, values)
    if scheme == "identity":
        return 1.0 - found
    largest = found.max() if found.size else 0.0
    return 1.0 - found / largest if largest > 0 else np.ones_like(found)
