"""Scoring a rater against a panel of raters without first reducing the panel to a
majority: Cohen's kappa against each panel member and their mean, and the cross-entropy
of the rater's label under the panel's per-unit label distribution.

What this module decides:

- **The panel's distribution.** Unit i's distribution over the K declared categories is
  additively smoothed: p_i(k) = (c_ik + a) / (m_i + K a), c_ik the panel's votes for k,
  m_i the panel members who labelled unit i, a the smoothing (always given: 1 is Laplace's
  add-one). Without smoothing, a label no panel member chose would have probability 0
  and an infinite loss; with a = 1, six raters and three classes, it has 1/9.
- **Cross-entropy** of a rater against the panel: H = -(1/N) sum_i ln p_i(y_i), in nats,
  over the N units the rater labelled and at least one panel member labelled; y_i is
  the rater's label. Lower is closer to the panel. A rater who always picks the panel's
  most frequent label still pays for the panel's disagreement on split units, which is
  the point: split units count instead of being hidden by a tie rule.
- **Mean Cohen's kappa** against the panel: the unweighted mean over panel members of
  ``reagree.stats.pairwise.cohen_statistic`` (each on the units both labelled). It is
  undefined when any member's kappa is.
- **One definition.** Both are ``UnitStatistic``s, so a value and its bootstrap
  interval (``reagree.stats.bootstrap``) come from the same object; resampling draws units
  (over the ratings' rows, ``Ratings.rating_rows``), and all panel members' kappas in a
  draw see the same units.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import MISSING, Ratings

__all__ = ["cross_entropy", "cross_entropy_statistic", "label_distribution", "mean_cohen_kappa", "mean_kappa_statistic"]


def label_distribution(counts: np.ndarray, smoothing: float) -> np.ndarray:
    """Per-unit smoothed label distribution (n, K): (c_ik + a) / (m_i + K a)."""
    if smoothing <= 0:
        raise ValueError(
            f"smoothing must be positive (a label nobody chose would cost an infinite loss), got {smoothing}"
        )
    counts = np.asarray(counts, dtype=float)
    return (counts + smoothing) / (counts.sum(axis=1, keepdims=True) + counts.shape[1] * smoothing)


def cross_entropy_statistic(ratings: Ratings, rater: str, panel: Sequence[str], smoothing: float) -> UnitStatistic:
    """The cross-entropy of ``rater``'s labels under ``panel``'s smoothed label
    distribution, as sums over units: [scored, -ln p_i(y_i)] (module docstring)."""
    counts = ratings.select(list(panel)).unit_counts()
    labels = ratings.codes[:, ratings.raters.index(rater)]
    scored = (labels != MISSING) & (counts.sum(axis=1) > 0)
    probability = label_distribution(counts, smoothing)[np.arange(ratings.n_units), np.where(scored, labels, 0)]
    per_unit = np.column_stack([scored, np.where(scored, -np.log(probability), 0.0)]).astype(float)

    def why(totals: np.ndarray) -> str:
        return f"no unit labelled by {rater} and by the panel"

    return UnitStatistic(
        f"cross_entropy[{rater}|{','.join(panel)}]",
        per_unit,
        lambda totals: totals[:, 1] / totals[:, 0],
        why,
        rating_rows=lambda: ratings.rating_rows,
    )


def cross_entropy(ratings: Ratings, rater: str, panel: Sequence[str], smoothing: float) -> float:
    """Cross-entropy (nats) of a rater's labels under a panel's smoothed per-unit label
    distribution: H = -(1/N) sum_i ln((c_i,y_i + a) / (m_i + K a)).

    The soft-label evaluation of a single labeller against several annotators; see
    Uma, Fornaciari, Hovy, Paun, Plank, Poesio (2021), Learning from disagreement: a
    survey, JAIR 72, 1385-1470 (cross-entropy against the annotators' distribution),
    and Peterson et al. (2019), Human uncertainty makes classification more robust, ICCV.
    """
    return cross_entropy_statistic(ratings, rater, panel, smoothing).value()


def mean_kappa_statistic(ratings: Ratings, rater: str, panel: Sequence[str]) -> UnitStatistic:
    """The mean over panel members of Cohen's kappa of ``rater`` with each, as one
    statistic: the members' per-unit rows side by side, the finish averaging theirs."""
    members = [cohen_statistic(ratings, rater, member) for member in panel]
    rows = [member.per_unit[member.unit_rows()] for member in members]
    bounds = np.cumsum([0, *(r.shape[1] for r in rows)])

    def finish(totals: np.ndarray) -> np.ndarray:
        return np.mean(
            [
                member.finish_totals(totals[:, start:stop])
                for member, start, stop in zip(members, bounds[:-1], bounds[1:])
            ],
            axis=0,
        )

    def why(totals: np.ndarray) -> str:
        undefined = [
            name
            for name, member, start, stop in zip(panel, members, bounds[:-1], bounds[1:])
            if not np.isfinite(member.finish_totals(totals[None, start:stop])[0])
        ]
        return f"Cohen's kappa of {rater} with {', '.join(undefined)} is undefined"

    return UnitStatistic(
        f"mean_cohen_kappa[{rater}|{','.join(panel)}]",
        np.hstack(rows),
        finish,
        why,
        rating_rows=lambda: ratings.rating_rows,
    )


def mean_cohen_kappa(ratings: Ratings, rater: str, panel: Sequence[str]) -> float:
    """Unweighted mean of Cohen's kappa between ``rater`` and each panel member,
    (1/J) sum_j kappa(rater, member_j), kappa as ``reagree.stats.pairwise.cohen_kappa``.

    Cohen, J. (1960), Educational and Psychological Measurement 20, 37-46; averaging
    pairwise kappas as in Light, R. J. (1971), Psychological Bulletin 76(5), 365-377.
    """
    return mean_kappa_statistic(ratings, rater, panel).value()
