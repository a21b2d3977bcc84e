"""Majority vote over raters, with the tie rule stated instead of implied.

A unit is *tied* when two or more categories share the highest vote count (six raters
on three classes can split 3-3 or 2-2-2; five can split 2-2-1). Its *sides* are the
categories sharing that count. The tie rule decides what a tied unit's majority label
is; an untied unit's label is its plurality category under every rule, and a unit nobody
rated is ``MISSING`` under every rule. Tie rules are strings, so that they can be a
Snakemake wildcard:

- ``"drop"``: no label (``MISSING``); the unit leaves any comparison against the majority.
- ``"prefer:<category>"``: the named category wins a tie it takes part in; a tie it is
  not part of stays unresolved (``MISSING``), never silently broken some other way.
- ``"neutral"`` (a three-category bipolar scale, its middle category neutral: the
  declared order is negative, neutral, positive): every tie goes to the middle. A tie
  between the middle and one side goes to the middle; a tie between the two polar sides
  (and a three-way tie) goes to the middle too, the only label between them.
- ``"polar"`` (same scale): a tie between the middle and one polar side goes to that
  polar side; a tie with no single polar side (the two polar sides, or all three) goes
  to the middle, as under ``"neutral"``.
- ``"random"``: each tie is broken by a uniform draw among its sides (a 3-3 split between
  two sides is a fair coin). ``random_majorities`` draws R such labellings at once: one
  ``numpy.random.default_rng(seed)`` and one ``integers(0, sides, size=(R, tied units))``
  call, tied units in row order, so repetition r is row r and the same seed gives the
  same labellings. ``majority_vote(..., "random", seed=s)`` is its row 0.

``"released"`` is not a rule of this module: a paper's released majority column is data,
read as it is.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

import numpy as np
import pandas as pd

from reagree.stats.ratings import MISSING, Ratings

__all__ = [
    "DETERMINISTIC_RULES",
    "TIE_RULES",
    "differing_units",
    "disagreements_on_untied",
    "label_counts",
    "majority_vote",
    "percent_tied",
    "random_majorities",
    "tie_kinds",
    "tie_resolutions",
    "tie_sides",
    "tie_table",
    "tied_units",
    "ties_resolved_away_from",
]

DETERMINISTIC_RULES = ("drop", "neutral", "polar")  # plus "prefer:<category>"
TIE_RULES = (*DETERMINISTIC_RULES, "random")


def _votes(ratings: Ratings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(leaders, winner, tied): which categories share the top count (n, K), the first
    of them (MISSING for a unit nobody rated) and whether there are two or more."""
    counts = ratings.unit_counts()
    top = counts.max(axis=1, initial=0)
    leaders = (counts == top[:, None]) & (top[:, None] > 0)
    winner = np.where(top > 0, counts.argmax(axis=1), MISSING)
    return leaders, winner, leaders.sum(axis=1) >= 2


def tied_units(ratings: Ratings) -> np.ndarray:
    """Boolean per unit: the top vote count is shared by two or more categories."""
    return _votes(ratings)[2]


def _middle(ratings: Ratings, tie_rule: str) -> int:
    if ratings.n_categories != 3:
        raise ValueError(
            f"tie rule {tie_rule!r} needs a three-category bipolar scale (negative, neutral, "
            f"positive in that order); got categories {list(ratings.categories)}"
        )
    return 1


def majority_vote(ratings: Ratings, tie_rule: str, *, seed: int | None = None) -> np.ndarray:
    """Majority category code per unit under ``tie_rule`` (see the module docstring).

    ``seed`` is required by ``"random"`` and ignored by the other rules.
    """
    leaders, winner, tied = _votes(ratings)
    if tie_rule == "drop":
        return np.where(tied, MISSING, winner)
    if tie_rule.startswith("prefer:"):
        preferred = tie_rule.split(":", 1)[1]
        names = [str(c) for c in ratings.categories]  # a wildcard is text: "prefer:2" names category 2
        if preferred not in names:
            raise ValueError(f"tie rule {tie_rule!r}: {preferred!r} is not one of {names}")
        code = names.index(preferred)
        return np.where(tied, np.where(leaders[:, code], code, MISSING), winner)
    if tie_rule == "neutral":
        return np.where(tied, _middle(ratings, tie_rule), winner)
    if tie_rule == "polar":
        middle = _middle(ratings, tie_rule)
        polar = leaders.copy()
        polar[:, middle] = False
        one_side = polar.sum(axis=1) == 1
        return np.where(tied, np.where(one_side, polar.argmax(axis=1), middle), winner)
    if tie_rule == "random":
        if seed is None:
            raise ValueError("tie rule 'random' needs a seed")
        return random_majorities(ratings, 1, seed)[0]
    raise ValueError(f"unknown tie rule {tie_rule!r}: use one of {list(TIE_RULES)} or 'prefer:<category>'")


def random_majorities(ratings: Ratings, repetitions: int, seed: int) -> np.ndarray:
    """``repetitions`` majority labellings with every tie broken by a seeded uniform draw
    among its sides: shape (repetitions, n_units). Untied units carry their plurality
    label in every row. One generator, one draw for all rows (module docstring)."""
    if repetitions < 1:
        raise ValueError(f"repetitions must be at least 1, got {repetitions}")
    leaders, winner, tied = _votes(ratings)
    labellings = np.repeat(winner[None, :], repetitions, axis=0)
    tied_leaders = leaders[tied]
    sides = tied_leaders.sum(axis=1)
    pick = np.random.default_rng(seed).integers(0, sides, size=(repetitions, sides.size))
    # the pick-th side (0-based) in category order: the first k whose running count exceeds pick
    running = tied_leaders.cumsum(axis=1)
    labellings[:, tied] = (running[None, :, :] > pick[:, :, None]).argmax(axis=2)
    return labellings


def tie_sides(ratings: Ratings) -> list[tuple]:
    """Per unit, the categories of its tie in declared order (an empty tuple if untied)."""
    leaders, _, tied = _votes(ratings)
    sides: list[tuple] = [()] * len(tied)
    for row in np.flatnonzero(tied):  # only the tied units: a million untied ones cost nothing here
        sides[row] = tuple(c for c, lead in zip(ratings.categories, leaders[row]) if lead)
    return sides


def tie_kinds(ratings: Ratings) -> dict[str, int]:
    """How many units tie on each combination of two or more categories, keyed by the
    categories joined with "_" in declared order ("negative_neutral"); every
    combination is listed, zero or not."""
    found = pd.Series([s for s in tie_sides(ratings) if s], dtype=object).value_counts()
    kinds = [combo for size in range(2, ratings.n_categories + 1) for combo in combinations(ratings.categories, size)]
    return {"_".join(str(c) for c in combo): int(found.get(combo, 0)) for combo in kinds}


def label_counts(labels: np.ndarray, categories) -> np.ndarray:
    """How many units carry each category: (K,) for one labelling (n,), (R, K) for R
    labellings (R, n). ``MISSING`` counts nowhere."""
    labels = np.asarray(labels)
    many = np.atleast_2d(labels)
    k = len(categories)
    offsets = (np.arange(many.shape[0]) * k)[:, None]
    flat = (many + offsets)[many != MISSING]
    counts = np.bincount(flat, minlength=many.shape[0] * k).reshape(many.shape[0], k)
    return counts if labels.ndim == 2 else counts[0]


def ties_resolved_away_from(ratings: Ratings, labels: np.ndarray, category) -> int:
    """Number of tied units a given labelling labelled, but not ``category`` (how many
    of a release's ties went to a polar side rather than to "neutral")."""
    tied = tied_units(ratings)
    labels = np.asarray(labels)
    code = list(ratings.categories).index(category)
    return int((tied & (labels != MISSING) & (labels != code)).sum())


def percent_tied(ratings: Ratings) -> float:
    """Percent of the units whose top vote count is shared (``tied_units``)."""
    return 100.0 * float(tied_units(ratings).mean()) if ratings.n_units else float("nan")


def tie_resolutions(ratings: Ratings, labels: np.ndarray, by_kind: bool = True) -> pd.DataFrame:
    """Where a labelling put each tie: one row per (tie kind, label given) with its count
    and its first and last row (``by_kind=False``: one row per label given, over every
    kind, ``tie`` reading "all"). Every combination of a kind that occurs with every
    category is listed, zero or not (first and last row -1 for none); a tied unit the
    labelling left without a label counts under ``label`` "missing"."""
    sides = tie_sides(ratings)
    tied = np.flatnonzero([bool(s) for s in sides])
    labels = np.asarray(labels)
    given = ["missing" if labels[row] == MISSING else ratings.categories[labels[row]] for row in tied]
    kinds = ["_".join(str(c) for c in sides[row]) if by_kind else "all" for row in tied]
    found = pd.DataFrame({"tie": kinds, "label": given, "row": tied})
    every = [
        (kind, label)
        for kind in dict.fromkeys(kinds or (["all"] if not by_kind else []))
        for label in [*ratings.categories, *(["missing"] if "missing" in given else [])]
    ]
    rows = []
    for kind, label in every:
        chosen = found.loc[(found["tie"] == kind) & (found["label"] == label), "row"]
        rows.append(
            {
                "tie": kind,
                "label": label,
                "count": int(chosen.size),
                "first_row": int(chosen.min()) if chosen.size else -1,
                "last_row": int(chosen.max()) if chosen.size else -1,
            }
        )
    return pd.DataFrame(rows, columns=["tie", "label", "count", "first_row", "last_row"])


def differing_units(labels_a: np.ndarray, labels_b: np.ndarray) -> np.ndarray:
    """Rows on which two labellings of the same units both give a label, and differ (a
    released binary majority against the recoding of the released three-class one)."""
    a, b = np.asarray(labels_a), np.asarray(labels_b)
    return np.flatnonzero((a != MISSING) & (b != MISSING) & (a != b))


def disagreements_on_untied(ratings: Ratings, labels: np.ndarray) -> np.ndarray:
    """Rows of the untied units whose given label is not their plurality category (a
    released majority column that is not the recomputed majority)."""
    leaders, winner, tied = _votes(ratings)
    return np.flatnonzero(~tied & (np.asarray(labels) != winner))


def tie_table(ratings: Ratings, labellings: dict[str, Sequence] | None = None) -> pd.DataFrame:
    """One row per tied unit: its row, its votes per category, its sides ("negative_neutral")
    and, for each named labelling (one label per unit: a released column, a tie rule's
    majority), the label it gave the unit."""
    counts = ratings.unit_counts()
    sides = tie_sides(ratings)
    rows = np.flatnonzero([bool(s) for s in sides])
    table = pd.DataFrame({"row": rows})
    for code, category in enumerate(ratings.categories):
        table[f"votes_{category}"] = counts[rows, code]
    table["tie"] = ["_".join(str(c) for c in sides[r]) for r in rows]
    for name, labels in (labellings or {}).items():
        table[name] = np.asarray(labels, dtype=object)[rows]
    return table
