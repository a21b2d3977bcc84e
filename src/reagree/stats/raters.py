"""Per-rater and per-unit readings of a table of ratings: which rater to retrain, which
items to adjudicate first, which categories are confused.

What this module decides:

- **Input.** The ratings as long arrays, one entry per rating: its unit, its rater and its
  category code (an ``AnnotationView``'s ``label_unit``, ``label_column``, ``label_code``),
  with the units' category counts. Nothing builds a units x raters matrix; every reading
  is one pass over the ratings (``numpy.bincount``), or one pass per rater for the
  leave-one-out statistics.
- **Agreement with the rest** (``agreement_with_rest``): of all pairs (rater g's rating,
  another rater's rating) on the units g labelled, the share that agree:
  sum_i (c_i,l - 1) / sum_i (r_i - 1) over g's ratings l on units with r_i >= 2 (the pairwise
  mean agreement of g with every other rater, weighted by the units they share).
- **Agreement with the leave-one-out majority**: each rating against the majority of the
  *other* ratings of its unit; a tie among the others' top categories counts 1/t when the
  rating is one of the t tied ones (the expected agreement with a random tie break).
  Units where g is the only rater take no part.
- **Label bias** (``label_bias``): rater g's label counts against the counts expected from
  the other raters' labels on the same units, Pearson's chi-square on K - 1 degrees of
  freedom (categories the others never used on those units are left out, and said). A
  small p says g uses the categories differently from the raters g shares units with.
- **Leave one rater out** (``leave_one_out``): a coefficient of counts (alpha, Fleiss'
  kappa in Gwet's form) recomputed without rater g subtracts g's ratings from the counts
  of the units g labelled. Units are pooled by their count row (and g's label there), so
  rater g costs one pass over g's own ratings: all raters together, one pass over the
  ratings. Its change, (without g) - (with everyone), is one ``UnitStatistic`` (per-unit
  rows of both), so its bootstrap interval resamples units and pairs the two values on
  every draw.
- **Disputed units** (``disputed_units``): per unit with two or more ratings, the share of
  rater pairs that disagree, 1 - sum_k c_k (c_k - 1) / (r (r - 1)), and the entropy (bits) of
  its labels; ranked by the share, then the entropy, then the number of ratings.
- **Category pairs** (``category_pairs``): the pooled K x K table of ordered pairs of
  ratings on the same unit, c_k c_l off the diagonal and c_k (c_k - 1) on it; its row k
  divided by its sum is, for a rating k, the share of the other ratings of its unit in
  each category (the diagonal share is k's specific agreement).
"""

from __future__ import annotations

from typing import Callable, Iterator

import numpy as np
from scipy import stats as scipy_stats

from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.rows import unique_rows

__all__ = ["agreement_with_rest", "category_pairs", "disputed_units", "label_bias", "leave_one_out"]


def _pair_shares(counts: np.ndarray, unit: np.ndarray, code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per rating: agreeing other ratings (c_i,l - 1) and other ratings (r_i - 1) of its unit."""
    per_unit = counts.sum(axis=1)
    return counts[unit, code] - 1.0, per_unit[unit] - 1.0


def agreement_with_rest(
    counts: np.ndarray, unit: np.ndarray, rater: np.ndarray, code: np.ndarray, n_raters: int
) -> dict[str, np.ndarray]:
    """Per rater: units labelled, units shared with another rater, the pairwise agreement
    with the rest and the agreement with the leave-one-out majority (module docstring);
    NaN where a rater shares no unit."""
    agreeing, others = _pair_shares(counts, unit, code)
    shared = others > 0
    pairs = np.bincount(rater, weights=others, minlength=n_raters)
    with np.errstate(divide="ignore", invalid="ignore"):
        pairwise = np.bincount(rater, weights=agreeing, minlength=n_raters) / pairs
    rest = counts[unit].astype(float)
    rest[np.arange(unit.size), code] -= 1
    top = rest.max(axis=1, keepdims=True)
    tied = (rest == top).sum(axis=1)
    hits = np.where(shared & (rest[np.arange(unit.size), code] == top[:, 0]), 1.0 / tied, 0.0)
    compared = np.bincount(rater, weights=shared.astype(float), minlength=n_raters)
    with np.errstate(divide="ignore", invalid="ignore"):
        majority = np.bincount(rater, weights=hits, minlength=n_raters) / compared
    return {
        "units": np.bincount(rater, minlength=n_raters),
        "units_shared": compared.astype(np.int64),
        "pairwise_agreement": pairwise,
        "majority_agreement": majority,
    }


def label_bias(
    counts: np.ndarray, unit: np.ndarray, rater: np.ndarray, code: np.ndarray, n_raters: int
) -> dict[str, np.ndarray]:
    """Per rater: label counts (R x K), the counts expected from the others' labels on the
    same units, Pearson's chi-square, its degrees of freedom and p (module docstring)."""
    k = counts.shape[1]
    observed = np.bincount(rater * k + code, minlength=n_raters * k).reshape(n_raters, k).astype(float)
    rest = counts[unit].astype(float)
    rest[np.arange(unit.size), code] -= 1
    others = np.zeros((n_raters, k))
    np.add.at(others, rater, rest)
    shared = observed.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = others / others.sum(axis=1, keepdims=True) * shared[:, None]
        usable = expected > 0
        chi2 = np.where(usable, (observed - expected) ** 2 / np.where(usable, expected, 1), 0.0).sum(axis=1)
    df = usable.sum(axis=1) - 1
    p = np.where(df > 0, scipy_stats.chi2.sf(chi2, np.maximum(df, 1)), np.nan)
    unseen = (~usable & (observed > 0)).sum(axis=1)
    return {
        "observed": observed,
        "expected": np.nan_to_num(expected),
        "chi2": np.where(df > 0, chi2, np.nan),
        "df": df,
        "p": p,
        "categories_others_never_used": unseen,
    }


def leave_one_out(
    counts: np.ndarray,
    unit: np.ndarray,
    rater: np.ndarray,
    code: np.ndarray,
    n_raters: int,
    make: Callable[[np.ndarray], UnitStatistic],
) -> Iterator[UnitStatistic]:
    """Per rater g in turn, the change (without g) - (with everyone) of the coefficient
    ``make`` builds from counts, as one ``UnitStatistic`` (module docstring), made when
    asked for. ``make`` must give a statistic of sums over units whose ``per_unit`` row of
    a unit depends on that unit's count row alone (every count-based statistic here).

    Cost: the units' distinct count rows are found once; rater g then costs one pass over
    g's own ratings (the other units keep their rows, so they enter as those rows with
    their multiplicities), never a pass over every unit."""
    k = counts.shape[1]
    patterns, _, pattern_of = unique_rows(counts)
    full = make(patterns)
    full_sums = full.per_unit[full.unit_rows()]  # (P, d): the statistic's sums of each count row
    width = full_sums.shape[1]
    multiplicity = np.bincount(pattern_of, minlength=patterns.shape[0]).astype(float)
    order = np.argsort(rater, kind="stable")
    bounds = np.searchsorted(rater[order], np.arange(n_raters + 1))
    for g in range(n_raters):
        mine = order[bounds[g] : bounds[g + 1]]
        # g's units, grouped by (count row, g's label): the units of one group lose the same rating
        groups, group_of = np.unique(pattern_of[unit[mine]] * k + code[mine], return_inverse=True)
        group_size = np.bincount(group_of.reshape(-1), minlength=groups.size).astype(float)
        group_pattern, group_code = groups // k, groups % k
        without = patterns[group_pattern].copy()
        without[np.arange(groups.size), group_code] -= 1
        reduced = make(without)
        reduced_sums = reduced.per_unit[reduced.unit_rows()]
        untouched = multiplicity - np.bincount(group_pattern, weights=group_size, minlength=multiplicity.size)
        per_unit = np.vstack([np.hstack([full_sums, full_sums]), np.hstack([full_sums[group_pattern], reduced_sums])])

        def finish(totals: np.ndarray, full=full, reduced=reduced) -> np.ndarray:
            return reduced.finish(totals[:, width:]) - full.finish(totals[:, :width])

        def why(totals: np.ndarray, full=full, reduced=reduced) -> str:
            for part, statistic in ((totals[width:], reduced), (totals[:width], full)):
                if not np.isfinite(statistic.finish(part[None])[0]) and statistic.why_undefined:
                    return statistic.why_undefined(part)
            return "undefined"

        yield UnitStatistic(
            f"leave_one_out[{g}]", per_unit, finish, why, weights=np.concatenate([untouched, group_size])
        )


def disputed_units(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Per unit: ratings, the share of rater pairs that disagree (NaN with fewer than two
    ratings), the entropy of its labels in bits, and the ranking order (module docstring)."""
    counts = np.asarray(counts, dtype=float)
    r = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        disagree = np.where(r >= 2, 1 - (counts * (counts - 1)).sum(axis=1) / (r * (r - 1)), np.nan)
        shares = counts / r[:, None]
        entropy = -np.where(shares > 0, shares * np.log2(np.where(shares > 0, shares, 1)), 0.0).sum(axis=1)
    order = np.lexsort((-r, -entropy, -np.nan_to_num(disagree, nan=-1.0)))
    return {"ratings": r.astype(np.int64), "disagreeing_pairs": disagree, "entropy": entropy, "order": order}


def category_pairs(counts: np.ndarray) -> np.ndarray:
    """The pooled K x K table of ordered pairs of ratings on the same unit (module docstring)."""
    counts = np.asarray(counts, dtype=float)
    pairs = counts.T @ counts
    pairs[np.diag_indices_from(pairs)] -= counts.sum(axis=0)
    return pairs
