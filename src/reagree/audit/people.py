"""The audit's readings of raters, items and category confusions, and the design that
decides which of them mean something (``reagree.audit``'s module docstring).

What it decides:

- **Design.** ``fixed``: the same named raters labelled the units, so a rater's column is a
  person, pairs of raters have a Cohen's kappa and Conger's kappa applies.
  ``interchangeable``: any rater may have labelled any unit under any column (Fleiss'
  1971 patients each saw six different psychiatrists), so per-pair tables and Conger's
  kappa are not computed, and the text says why. Without ``design`` the audit infers
  ``fixed`` when at least half of the units x raters cells hold a rating (the same named
  raters on most units), else ``interchangeable``, and says it inferred. A long table with
  each unit's own rater ids (Fleiss' design written out) fills a few cells per rater:
  interchangeable. A wide table of that design fills every cell and looks fixed: the text
  says so and names ``--design interchangeable``; no count can tell whether a column is
  one person.
- **Per rater** (``reagree.stats.raters``): units labelled, agreement with the rest
  (pairwise) and with the leave-one-out majority, the label-bias test, and the change in
  alpha (at the audit's level) and in Fleiss' kappa (Gwet's form) without the rater, each
  change with a bootstrap interval over units. Sorted so that the rater whose removal
  raises alpha most (who lowers agreement most) comes first.
- **Per item**: units ranked by the share of disagreeing rater pairs (then entropy), the
  ``MAX_ITEMS`` most disputed listed with their votes and the majority label.
- **Category pairs**: the pooled category-by-category table of pairs of ratings on a unit.
"""

from __future__ import annotations

import math

import numpy as np

from reagree.stats import gwet
from reagree.stats.alpha import alpha_statistic
from reagree.stats.bootstrap import bootstrap_interval
from reagree.stats.raters import agreement_with_rest, category_pairs, disputed_units, label_bias, leave_one_out
from reagree.stats.undefined import reason_of

__all__ = ["DESIGNS", "MAX_ITEMS", "confusion", "design_of", "items", "per_rater"]

DESIGNS = ("fixed", "interchangeable")
# Units listed per audit, most disputed first (the CSV and the JSON hold these).
MAX_ITEMS = 10_000


def design_of(n_units: int, n_raters: int, n_ratings: int, design: str | None, layout: str = "long") -> dict:
    """The raters' design (module docstring): given, or inferred from the filled share of
    the units x raters cells. What the inference cannot see is said with the option that
    overrides it: in a wide table, whether a column is one person on every unit."""
    filled = n_ratings / (n_units * n_raters) if n_units and n_raters else 0.0
    if design is not None:
        if design not in DESIGNS:
            raise ValueError(f"design must be one of {DESIGNS}, got {design!r}")
        return {"raters": design, "inferred": False, "filled_share": filled, "why": f"given (--design {design})"}
    chosen = "fixed" if filled >= 0.5 else "interchangeable"
    seen = f"inferred: {100 * filled:.0f}% of the units x raters cells hold a rating, so "
    if chosen == "fixed":
        unseen = (
            "a column is not the same person on every unit (as in Fleiss' 1971 table, where each patient "
            "saw other psychiatrists)"
            if layout == "wide"
            else "a rater id does not name one person throughout"
        )
        why = f"{seen}the same raters labelled most units; if {unseen}, say --design interchangeable"
    else:
        why = (
            f"{seen}each unit's raters are a few of the {n_raters:,}, not a fixed panel; say --design fixed for the "
            "pairs of raters by name and Conger's kappa"
        )
    return {"raters": chosen, "inferred": True, "filled_share": filled, "why": why}


def _defined(value) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def per_rater(
    view,
    counts: np.ndarray,
    raters: list[str],
    categories: list[str],
    level: str,
    values,
    draws: int,
    seed: int,
    ci_level: float,
    scheme: str,
) -> list[dict]:
    """One row per rater (module docstring), the rater who lowers agreement most first."""
    unit, rater, code = view.label_unit, view.label_column, view.label_code
    n_raters = len(raters)
    agreement = agreement_with_rest(counts, unit, rater, code, n_raters)
    bias = label_bias(counts, unit, rater, code, n_raters)
    numeric = level in ("interval", "ratio")
    changes = {
        "alpha": leave_one_out(
            counts, unit, rater, code, n_raters, lambda c: alpha_statistic(c, level, values=values if numeric else None)
        ),
        "fleiss_kappa_gwet": leave_one_out(
            counts, unit, rater, code, n_raters, lambda c: gwet.weighted_statistic(c, "fleiss")
        ),
    }
    rows = []
    for g, name in enumerate(raters):
        row = {
            "rater": name,
            "units": int(agreement["units"][g]),
            "units_shared": int(agreement["units_shared"][g]),
            "pairwise_agreement": _defined(agreement["pairwise_agreement"][g]),
            "majority_agreement": _defined(agreement["majority_agreement"][g]),
            "bias": {
                "chi2": _defined(bias["chi2"][g]),
                "df": int(bias["df"][g]),
                "p": _defined(bias["p"][g]),
                "categories_others_never_used": int(bias["categories_others_never_used"][g]),
            },
            "labels": {c: int(n) for c, n in zip(categories, bias["observed"][g])},
            "labels_expected": {c: _defined(n) for c, n in zip(categories, bias["expected"][g])},
        }
        for what, found in changes.items():
            statistic = next(found)  # this rater's, made now and dropped after
            value = statistic.value()
            entry = {"change": _defined(value)}
            if reason_of(value):
                entry["undefined"] = reason_of(value)
            if draws:
                interval = bootstrap_interval(statistic, draws, seed, level=ci_level, scheme=scheme)
                entry["change_ci"] = [_defined(interval.low), _defined(interval.high)]
            row[f"without_{what}"] = entry
        rows.append(row)
    order = sorted(
        range(n_raters),
        key=lambda g: (
            -(rows[g]["without_alpha"]["change"] if rows[g]["without_alpha"]["change"] is not None else -math.inf),
            rows[g]["rater"],
        ),
    )
    return [rows[g] for g in order]


def items(counts: np.ndarray, unit_ids: np.ndarray, categories: list[str], majority: np.ndarray) -> dict:
    """The disputed units, most disputed first (module docstring)."""
    found = disputed_units(counts)
    disputed = found["order"][np.nan_to_num(found["disagreeing_pairs"][found["order"]], nan=0.0) > 0]
    listed = disputed[:MAX_ITEMS]
    units = []
    for row in listed:
        votes = {c: int(n) for c, n in zip(categories, counts[row]) if n}
        units.append(
            {
                "unit": str(unit_ids[row]),
                "ratings": int(found["ratings"][row]),
                "disagreeing_pairs": float(found["disagreeing_pairs"][row]),
                "entropy_bits": float(found["entropy"][row]),
                "votes": votes,
                "majority": None if majority[row] < 0 else categories[majority[row]],
            }
        )
    pairable = found["ratings"] >= 2
    return {
        "ranked_by": "share of rater pairs that disagree, then entropy (bits), then ratings",
        "units_pairable": int(pairable.sum()),
        "units_disputed": int(disputed.size),
        "listed": len(units),
        "units": units,
    }


def confusion(counts: np.ndarray, categories: list[str]) -> dict:
    """The pooled category pairs and, per category, the share of its pairs in each category."""
    pairs = category_pairs(counts)
    totals = pairs.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = pairs / totals[:, None]
    return {
        "categories": categories,
        "pairs": pairs.astype(np.int64).tolist(),
        "row_shares": [[_defined(x) for x in row] for row in shares],
        "what": "ordered pairs of ratings on the same unit; row k / its sum: for a rating k, the share of the "
        "unit's other ratings in each category (the diagonal is k's specific agreement)",
    }
