"""Computing an audit: which levels apply, every coefficient with its interval, the
majority vote and its ties, and the reading of alpha (``reagree.audit``'s module
docstring says what each decides). Every statistic is the library's own function;
nothing is recomputed here.
"""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from reagree import __version__
from reagree.audit.read import AuditTable, _split, read_table
from reagree.pipeline.progress import progress
from reagree.pipeline.tables import sha256_of
from reagree.stats import classification, multirater
from reagree.stats.alpha import LEVELS, alpha_statistic
from reagree.stats.bootstrap import Interval, UnitStatistic, bootstrap, interval_from_draws
from reagree.stats.majority import majority_vote, tie_sides, tied_units
from reagree.stats.meanpairwise import fits_one_statistic, mean_pairwise_cohen, mean_pairwise_cohen_statistic, pairs_used
from reagree.stats.pairwise import cohen_statistic, contingency_table
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.undefined import Undefined, reason_of

RELIABLE, TENTATIVE = 0.800, 0.667
# Statistics bootstrapped per call: a progress step on a terminal, and a bound on memory.
_BOOTSTRAP_GROUP = 8
# Beyond this many rater pairs (20 raters), pairs get values but no intervals: thousands of
# pairwise bootstraps would dominate the run and nobody reads their intervals one by one.
MAX_PAIRS_WITH_INTERVALS = 190


def applicable_levels(table: AuditTable, level: str) -> tuple[list[str], tuple | None, list[str]]:
    """(levels reported, the number of each category for interval/ratio, notes)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    levels, values, notes = ["nominal"], table.numbers, []
    if table.ordered:
        levels.append("ordinal")
    if values is not None:
        levels.append("interval")
        if min(values) >= 0:
            levels.append("ratio")
    elif table.ordered and level in ("interval", "ratio"):
        values = tuple(float(i) for i in range(1, len(table.ratings.categories) + 1))
        levels += ["interval", "ratio"] if level == "ratio" else ["interval"]
        notes.append(f"{level} alpha on labels that are not numbers: their positions 1..K in the given order "
                     "stand in for numbers (equal spacing assumed)")
    if level not in levels:
        if level == "ordinal":
            raise ValueError("the ordinal level needs ordered labels: give --order (e.g. --order low,medium,high) "
                             "or use numbers as labels")
        if level == "ratio" and table.numbers is not None:
            raise ValueError("the ratio level needs non-negative numbers (a ratio scale has a true zero)")
        raise ValueError(f"the {level} level needs numeric labels or an --order; these labels are "
                         f"{list(table.ratings.categories)}")
    return levels, values, notes


# --------------------------------------------------------------------------- computing

def _defined(value) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _problems(ratings: Ratings, counts: np.ndarray, complete: np.ndarray) -> list[str]:
    problems = []
    if ratings.n_raters < 2:
        problems.append(f"only one rater ({', '.join(ratings.raters)}): agreement needs at least two raters")
    used = int((counts.sum(axis=0) > 0).sum()) if counts.size else 0
    if used < 2:
        problems.append(f"only {used} category in use ({', '.join(str(c) for c, n in zip(ratings.categories, counts.sum(axis=0)) if n)}): "
                        "chance-corrected coefficients are undefined when every rating is the same")
    if ratings.n_raters >= 2 and not (counts.sum(axis=1) >= 2).any():
        problems.append("no unit has two or more ratings: nothing can be compared")
    elif ratings.n_raters >= 2 and not complete.any():
        problems.append(f"no unit was labelled by all {ratings.n_raters} raters: Fleiss' kappa (complete units) "
                        "is undefined; Krippendorff's alpha uses every unit")
    return problems


def _statistics(ratings: Ratings, levels: list[str], values, counts: np.ndarray,
                complete_counts: np.ndarray) -> dict[tuple, UnitStatistic]:
    """Every value the audit reports with an interval, keyed by its path."""
    stats: dict[tuple, UnitStatistic] = {
        ("coefficients", "percent_agreement"): multirater.percent_agreement_statistic(counts),
        ("coefficients", "fleiss_kappa"): multirater.fleiss_statistic(complete_counts),
    }
    for level in levels:
        stats[("coefficients", "krippendorff_alpha", level)] = alpha_statistic(
            counts, level, values=values if level in ("interval", "ratio") else None)
    stats[("coefficients", "gwet_ac1")] = multirater.gwet_ac1_statistic(counts)
    stats[("coefficients", "pabak")] = multirater.brennan_prediger_statistic(counts)
    if fits_one_statistic(ratings):
        stats[("coefficients", "mean_pairwise_cohen")] = mean_pairwise_cohen_statistic(ratings)
    for code, category in enumerate(ratings.categories):
        stats[("per_category", str(category), "fleiss_kappa")] = multirater.fleiss_category_statistic(
            complete_counts, code)
        stats[("per_category", str(category), "specific_agreement")] = multirater.specific_agreement_statistic(
            counts, code)
    for a, b in combinations(ratings.raters, 2):
        stats[("pairwise", a, b)] = cohen_statistic(ratings, a, b)
    return stats


def _bootstrapped(stats: dict[tuple, UnitStatistic], n_raters: int) -> dict[tuple, UnitStatistic]:
    """The statistics that get intervals (all but the pairs of a table with very many raters)."""
    pairs = n_raters * (n_raters - 1) // 2
    return {key: s for key, s in stats.items() if key[0] != "pairwise" or pairs <= MAX_PAIRS_WITH_INTERVALS}


def _intervals(stats: dict[tuple, UnitStatistic], draws: int, seed: int, level: float, scheme: str,
               show_progress: bool) -> dict[tuple, Interval]:
    """One percentile interval per statistic. Statistics are bootstrapped a few at a time
    (a progress step each); the resamples depend only on (units, seed, draws), so the
    grouping changes nothing."""
    keys = list(stats)
    groups = [keys[start:start + _BOOTSTRAP_GROUP] for start in range(0, len(keys), _BOOTSTRAP_GROUP)]
    steps = (progress(groups, desc=f"bootstrap: {draws} draws of {len(keys)} values", unit="batch")
             if show_progress else groups)
    out = {}
    for group in steps:
        values = bootstrap([stats[key] for key in group], draws, seed)
        for key, row in zip(group, values):
            out[key] = interval_from_draws(row, level, scheme, seed=seed)
    return out


def _set(tree: dict, path: tuple, value) -> None:
    for part in path[:-1]:
        tree = tree.setdefault(part, {})
    tree[path[-1]] = value


def _votes_text(counts: np.ndarray, categories: Sequence) -> dict:
    return {str(c): int(n) for c, n in zip(categories, counts) if n}


def _label(code: int, categories: Sequence) -> str | None:
    return None if code == MISSING else str(categories[code])


def _tally(labels: np.ndarray, categories: Sequence) -> dict:
    """How many units carry each label ("no label" for MISSING), in category order."""
    labels = np.asarray(labels)
    out = {str(c): int((labels == code).sum()) for code, c in enumerate(categories) if (labels == code).any()}
    if (labels == MISSING).any():
        out["no label"] = int((labels == MISSING).sum())
    return out


def _ties(table: AuditTable, tie_rule: str, seed: int) -> tuple[dict, dict]:
    ratings = table.ratings
    categories = ratings.categories
    chosen = majority_vote(ratings, tie_rule, seed=seed)
    tied = tied_units(ratings)
    sides = tie_sides(ratings)
    counts = ratings.unit_counts()
    kinds = pd.Series([" vs ".join(str(c) for c in s) for s in sides if s], dtype=object).value_counts()
    units = []
    for row in np.flatnonzero(tied):
        entry = {"unit": str(table.unit_ids[row]), "votes": _votes_text(counts[row], categories),
                 "sides": [str(c) for c in sides[row]], "rule": _label(chosen[row], categories)}
        if table.majority is not None:
            entry["column"] = _label(table.majority[row], categories)
        units.append(entry)
    ties = {"count": int(tied.sum()), "rule": tie_rule, "units_voted": int((counts.sum(axis=1) > 0).sum()),
            "kinds": {str(k): int(v) for k, v in kinds.items()},
            "rule_gave": _tally(chosen[tied], categories), "units": units}
    majority = {"rule": _tally(chosen, categories)}
    if table.majority is not None:
        plurality = majority_vote(ratings, "drop")
        ties["column"] = table.majority_column
        ties["column_gave"] = _tally(table.majority[tied], categories)
        untied = ~tied & (plurality != MISSING)
        differs = untied & (table.majority != plurality)
        ties["column_differs_on_untied"] = int(differs.sum())
        ties["column_differs_on_untied_units"] = [str(u) for u in table.unit_ids[differs]]
        majority["column"] = _tally(table.majority, categories)
    return ties, majority


def reading(alpha: float | None, level: str, interval: Sequence | None = None) -> str:
    """Krippendorff's convention applied to alpha, said as a convention."""
    convention = ("Krippendorff's convention (a convention, not a test): alpha >= 0.800 reliable, "
                  "0.667 to 0.800 for tentative conclusions only, below 0.667 discard the data.")
    if alpha is None:
        return f"{convention} Here {level} alpha is undefined, so the convention says nothing."

    def band(value: float) -> str:
        return "reliable" if value >= RELIABLE else "tentative" if value >= TENTATIVE else "discard"

    said = f"{convention} Here {level} alpha = {alpha:.3f}: {band(alpha)}"
    if interval and interval[0] is not None and interval[1] is not None:
        low, high = interval
        bands = {band(low), band(high)}
        if len(bands) > 1:
            said += (f"; its interval ({low:.3f} to {high:.3f}) reaches from {band(low)} to {band(high)}, "
                     "so the sample cannot settle the band")
        else:
            said += f"; its whole interval ({low:.3f} to {high:.3f}) lies in that band"
    return said + "."


def audit(table: AuditTable, level: str = "nominal", tie_rule: str = "drop", draws: int = 2000, seed: int = 0,
          ci_level: float = 0.95, show_progress: bool = True, ci_scheme: str = "percentile") -> dict:
    """Every reading of the table as a plain dict (the JSON ``reagree audit --json`` writes).

    ``level`` is the measurement level the reading line uses (alpha is reported at every
    level that applies); ``tie_rule`` breaks majority-vote ties; ``draws`` bootstrap
    resamples (0: no intervals) from ``seed`` at ``ci_level``, ends by ``ci_scheme``
    ("percentile": order statistics; "numpy": numpy.percentile's interpolation, as a
    write-up that bootstrapped with numpy did; ``reagree.stats.bootstrap``).
    """
    if draws < 0:
        raise ValueError(f"bootstrap draws must be 0 (none) or more, got {draws}")
    ratings = table.ratings
    categories = [str(c) for c in ratings.categories]
    levels, values, notes = applicable_levels(table, level)
    counts = ratings.unit_counts()
    present = ratings.codes != MISSING
    complete = present.all(axis=1) if ratings.n_raters else np.zeros(ratings.n_units, dtype=bool)
    complete_counts = np.where(complete[:, None], counts, 0)
    label_totals = counts.sum(axis=0)
    n_ratings = int(label_totals.sum())
    if table.repeats_ignored:
        notes.append(f"{table.repeats_ignored} repeated label(s) of a rater on a unit ignored (the first counts)")
    if table.units_without_rating:
        notes.append(f"{table.units_without_rating} unit(s) without any rating left out")

    result: dict = {
        "reagree_version": __version__,
        "source": table.source,
        "format": table.layout,
        "columns": table.columns,
        "n_units": int(ratings.n_units),
        "n_raters": int(ratings.n_raters),
        "n_ratings": n_ratings,
        "raters": [str(r) for r in ratings.raters],
        "categories": categories,
        "ordered": table.ordered,
        "missing_share": _defined(ratings.missing_share()) if ratings.n_units else None,
        "units_without_rating": table.units_without_rating,
        "repeats_ignored": table.repeats_ignored,
        "units_pairable": int((counts.sum(axis=1) >= 2).sum()),
        "units_complete": int(complete.sum()),
        "label_distribution": {c: int(n) for c, n in zip(categories, label_totals)},
        "ratings_per_rater": {str(r): int(n) for r, n in zip(ratings.raters, present.sum(axis=0))},
        "level": level,
        "levels": levels,
        "settings": {"level": level, "tie_rule": tie_rule,
                     "bootstrap": {"draws": draws, "seed": seed, "level": ci_level, "scheme": ci_scheme}},
        "coefficients": {}, "per_category": {}, "pairwise": [], "ci": {}, "undefined": {},
        "problems": _problems(ratings, counts, complete) if ratings.n_units else ["the table holds no ratings"],
        "notes": notes,
    }
    result["coefficients"]["fleiss_n_units"] = int(complete.sum())
    for code, category in enumerate(categories):
        share = label_totals[code] / n_ratings if n_ratings else math.nan
        result["per_category"][category] = {"count": int(label_totals[code]), "share": _defined(share)}

    stats = _statistics(ratings, levels, values, counts, complete_counts) if ratings.n_units else {}
    pairable = result["units_pairable"] > 0
    intervals = (_intervals(_bootstrapped(stats, ratings.n_raters), draws, seed, ci_level, ci_scheme,
                            show_progress) if stats and draws > 0 and pairable else {})
    if stats and ("coefficients", "mean_pairwise_cohen") not in stats:
        notes.append("mean pairwise Cohen's kappa has no interval: too many rater pairs for one joint statistic")
    if intervals and ratings.n_raters * (ratings.n_raters - 1) // 2 > MAX_PAIRS_WITH_INTERVALS:
        notes.append(f"pairs of raters have no intervals (more than {MAX_PAIRS_WITH_INTERVALS} pairs)")
    if intervals:
        result["ci"]["method"] = next(iter(intervals.values())).scheme
        result["ci"]["resampled"] = f"the {ratings.n_units} units, with replacement"
        result["ci"]["undefined_draws"] = {}
    else:
        why = "--bootstrap 0" if draws == 0 else "no unit has two or more ratings"
        result["ci"]["method"] = f"none ({why})"

    pair_rows = {}
    for path, statistic in stats.items():
        value = statistic.value()
        interval = intervals.get(path)
        ends = [_defined(interval.low), _defined(interval.high)] if interval is not None else None
        if path[0] == "pairwise":
            pair_rows[path[1:]] = (value, ends, interval)
            if interval is not None:
                result["ci"]["undefined_draws"][f"pairwise.{path[1]}-{path[2]}.cohen_kappa"] = \
                    int(interval.undefined_draws)
            continue
        name = ".".join(path)
        _set(result, path, _defined(value))
        if ends is not None:
            if path[0] == "coefficients":
                _set(result["ci"], path[1:], ends)
            else:
                _set(result, (*path[:-1], f"{path[-1]}_ci"), ends)
            result["ci"]["undefined_draws"][".".join(path[1:]) if path[0] == "coefficients" else name] = \
                int(interval.undefined_draws)
        if reason_of(value):
            reason = reason_of(value)
            if path[0] == "per_category":  # the library names a category by its code
                code = categories.index(path[1])
                reason = reason.replace(f"category {code} ", f"category {path[1]!r} ")
            result["undefined"][name] = reason

    if stats and ("coefficients", "mean_pairwise_cohen") not in stats:
        mean = mean_pairwise_cohen(ratings)
        result["coefficients"]["mean_pairwise_cohen"] = _defined(mean)
        if reason_of(mean):
            result["undefined"]["coefficients.mean_pairwise_cohen"] = reason_of(mean)
    for a, b in combinations(ratings.raters, 2):
        table_ab = contingency_table(ratings, a, b)
        kappa, ends, interval = pair_rows.get((a, b), (Undefined("no units"), None, None))
        copy = classification.accuracy(table_ab)
        row = {"a": str(a), "b": str(b), "n": int(table_ab.sum()), "percent_agreement": _defined(copy),
               "cohen_kappa": _defined(kappa), "copy_a_scores_against_b": _defined(copy)}
        if ends is not None:
            row["cohen_kappa_ci"] = ends
        result["pairwise"].append(row)
        for field, value in (("cohen_kappa", kappa), ("percent_agreement", copy)):
            if reason_of(value):
                result["undefined"][f"pairwise.{a}-{b}.{field}"] = reason_of(value)
    if not stats:
        for name in ("percent_agreement", "fleiss_kappa", "gwet_ac1", "pabak", "mean_pairwise_cohen"):
            result["coefficients"][name] = None
            result["undefined"][f"coefficients.{name}"] = "the table holds no ratings"
        result["coefficients"]["krippendorff_alpha"] = {lvl: None for lvl in levels}
    elif result["coefficients"]["fleiss_n_units"] == 0 and "coefficients.fleiss_kappa" in result["undefined"]:
        result["undefined"]["coefficients.fleiss_kappa"] = (
            f"no unit was labelled by all {ratings.n_raters} raters; Fleiss' kappa reads complete units")
    result["pairs_in_mean"] = [f"{a}-{b}" for a, b in pairs_used(ratings)] if ratings.n_units else []

    if ratings.n_units:
        ties, majority = _ties(table, tie_rule, seed)
    else:
        ties, majority = {"count": 0, "rule": tie_rule, "units": []}, {}
    result["ties"], result["majority"] = ties, majority
    alpha = result["coefficients"]["krippendorff_alpha"].get(level)
    alpha_ci = result["ci"].get("krippendorff_alpha", {}).get(level)
    result["reading"] = reading(alpha, level, alpha_ci)
    return result


def audit_file(path: str | Path, layout: str = "long", unit: str = "unit", rater: str = "rater",
               label: str = "label", raters=None, order=None, majority: str | None = None,
               level: str = "nominal", tie_rule: str = "drop", draws: int = 2000, seed: int = 0,
               ci_level: float = 0.95, show_progress: bool = True, ci_scheme: str = "percentile") -> dict:
    """``read_table`` then ``audit``; the result also records the file's sha256."""
    table = read_table(path, layout, unit, rater, label, raters, order, majority)
    result = audit(table, level, tie_rule, draws, seed, ci_level, show_progress, ci_scheme)
    result["sha256"] = sha256_of(path)
    result["settings"]["order"] = _split(order)
    return result
