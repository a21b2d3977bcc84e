"""Majority vote over raters, with the tie rule stated instead of implied.

A unit is *tied* when two or more categories share the highest vote count (six raters
on three classes can split 3-3; five can split 2-2-1). The tie rule decides what such a
unit's majority label is:

- ``"drop"``: no label (``MISSING``); the unit leaves any comparison against the majority.
- ``"prefer:<category>"``: the named category wins a tie it takes part in; a tie it is
  not part of stays unresolved (``MISSING``), never silently broken some other way.

Units nobody rated are ``MISSING`` under every rule. Tie rules are strings so that they
can be a Snakemake wildcard.
"""

from __future__ import annotations

import numpy as np

from reagree.ratings import MISSING, Ratings


def tied_units(ratings: Ratings) -> np.ndarray:
    """Boolean per unit: the top vote count is shared by two or more categories."""
    counts = ratings.unit_counts()
    top = counts.max(axis=1, initial=0)
    return (top > 0) & ((counts == top[:, None]).sum(axis=1) >= 2)


def majority_vote(ratings: Ratings, tie_rule: str = "drop") -> np.ndarray:
    """Majority category code per unit under ``tie_rule`` (see the module docstring)."""
    counts = ratings.unit_counts()
    top = counts.max(axis=1, initial=0)
    leaders = (counts == top[:, None]) & (top[:, None] > 0)
    winner = np.where(top > 0, counts.argmax(axis=1), MISSING)
    tied = leaders.sum(axis=1) >= 2
    if tie_rule == "drop":
        return np.where(tied, MISSING, winner)
    if tie_rule.startswith("prefer:"):
        preferred = tie_rule.split(":", 1)[1]
        names = [str(c) for c in ratings.categories]  # a wildcard is text: "prefer:2" names category 2
        if preferred not in names:
            raise ValueError(f"tie rule {tie_rule!r}: {preferred!r} is not one of {names}")
        code = names.index(preferred)
        return np.where(tied, np.where(leaders[:, code], code, MISSING), winner)
    raise ValueError(f"unknown tie rule {tie_rule!r}: use 'drop' or 'prefer:<category>'")
