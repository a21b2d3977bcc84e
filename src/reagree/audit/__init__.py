"""Audit one annotation table: every agreement reading a labelling team needs, in one dict.

What it decides:

- **The table.** Long (one row per rating: unit, rater, label columns, names
  changeable) or wide (one row per unit: a unit column and one column per rater; an empty
  cell is a missing rating), read by ``reagree.stats.annotations`` (CSV or TSV by extension or
  sniffed; ids and labels stripped of surrounding whitespace; errors name the file, the
  line and, for a missing column, the columns found). A wide table may name a *majority
  column*: a label per unit chosen earlier by someone else, audited against the votes.
- **Units and ratings.** A unit takes part when at least one rater labelled it; a wide
  row nobody labelled is counted (``units_without_rating``) and left out. A rater who
  labelled a unit more than once counts with the first label (file order); the others
  are counted (``repeats_ignored``). ``missing_share`` is the share of empty cells in the
  units x raters table of the units that take part.
- **Category order.** ``order`` when given (every label must be in it); else, when every
  label is a number, numerical order; else sorted text, which is no order at all: the
  ordinal level then needs ``order``.
- **Levels.** Nominal alpha always. Ordinal when the labels are ordered (``order`` or
  numbers). Interval, and ratio when no number is negative, when the labels are numbers.
  Ordered labels that are not numbers get interval (or ratio) only when asked for by
  ``level``, with the positions 1..K standing in for numbers (said in ``notes``).
- **Coefficients** (each the library's own function; nothing is recomputed here):
  percent agreement over pairable units; Fleiss' kappa over the units every rater
  labelled (``fleiss_n_units``), with each category's kappa beside it; Krippendorff's
  alpha over every unit at each level that applies; Gwet's AC1; PABAK in its K-category
  form (Brennan-Prediger, chance 1/K; 2 P_o - 1 when K = 2); specific agreement per
  category over pairable units; Cohen's kappa per pair of raters on the units both
  labelled, and their mean over pairs (Light's kappa). "A model that copies rater A
  scores this against rater B" is A's accuracy against B on the units both labelled: the
  ceiling to quote with that pair.
- **Undefined** values are ``None`` in the dict (JSON ``null``), with the reason under
  ``undefined`` keyed by the value's path; ``problems`` says in words what makes the
  table degenerate (one rater, one category, no unit with two ratings).
- **Majority vote and ties.** A unit ties when two or more categories share its top
  vote count; the tie rule (``reagree.stats.majority``: ``drop``, ``random`` with the seed,
  ``prefer:<label>``, ``neutral``, ``polar``) decides its majority label. The audit
  lists every tied unit with its votes, the rule's label and the majority column's.
- **Intervals.** Units resampled with replacement (``reagree.stats.bootstrap``: draws depend
  only on the number of units, the seed and the draws; every coefficient sees the same
  resamples), one ``Interval`` per value, ends by the percentile scheme (order
  statistics) unless ``ci_scheme="numpy"`` asks for numpy.percentile's. A resample without a complete
  unit leaves Fleiss undefined on that draw; such draws are counted, never silently
  dropped from the count.
- **Reading.** Krippendorff's convention for alpha, stated as a convention: >= 0.800
  reliable, 0.667 to 0.800 for tentative conclusions, below 0.667 discard.

Krippendorff, K. (2019). Content Analysis, 4th ed., ch. 12 (the convention); the
coefficients' own sources are in their docstrings.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import textwrap
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from reagree import __version__
from reagree.stats import classification, multirater
from reagree.stats.alpha import LEVELS, alpha_statistic
from reagree.stats.annotations import Annotations, read_annotations, read_wide_annotations
from reagree.stats.bootstrap import Interval, UnitStatistic, bootstrap, interval_from_draws
from reagree.stats.majority import majority_vote, tie_sides, tied_units
from reagree.stats.meanpairwise import fits_one_statistic, mean_pairwise_cohen, mean_pairwise_cohen_statistic, pairs_used
from reagree.stats.pairwise import cohen_statistic, contingency_table
from reagree.pipeline.progress import progress
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.undefined import Undefined, reason_of

LAYOUTS = ("long", "wide")
RELIABLE, TENTATIVE = 0.800, 0.667
# Statistics bootstrapped per call: a progress step on a terminal, and a bound on memory.
_BOOTSTRAP_GROUP = 8
# Beyond this many rater pairs (20 raters), pairs get values but no intervals: thousands of
# pairwise bootstraps would dominate the run and nobody reads their intervals one by one.
MAX_PAIRS_WITH_INTERVALS = 190


@dataclass(frozen=True, eq=False)
class AuditTable:
    """What an audit reads: the ratings (units with at least one rating x raters), the
    unit ids in the same order, and an optional majority column's codes per unit."""

    ratings: Ratings
    unit_ids: np.ndarray
    source: str
    layout: str
    columns: dict
    ordered: bool
    numbers: tuple | None
    majority: np.ndarray | None = None
    majority_column: str | None = None
    units_without_rating: int = 0
    repeats_ignored: int = 0


# --------------------------------------------------------------------------- reading

def _split(text: str | Sequence[str] | None) -> list[str] | None:
    if text is None:
        return None
    items = text.split(",") if isinstance(text, str) else list(text)
    return [str(item).strip() for item in items if str(item).strip()]


def _numbers(categories: Sequence[str]) -> tuple | None:
    """Each category as a number, when every one is a finite number; else None."""
    try:
        numbers = tuple(float(c) for c in categories)
    except (TypeError, ValueError):
        return None
    if not categories or not all(math.isfinite(n) for n in numbers):
        return None
    return numbers


def _reordered(annotations: Annotations, order: Sequence[str]) -> Annotations:
    position = [list(order).index(c) for c in annotations.categories]
    codes = np.asarray(position, dtype=np.int64)[annotations.code] if annotations.code.size else annotations.code
    return dataclasses.replace(annotations, categories=tuple(order), code=np.asarray(codes, dtype=annotations.code.dtype))


def _ordered_categories(annotations: Annotations, order: list[str] | None, source: str) -> tuple[Annotations, bool]:
    """Declared order as given; numbers in numerical order; else sorted text (unordered)."""
    if order is not None:
        return annotations, True
    numbers = _numbers(annotations.categories)
    if numbers is None:
        return annotations, False
    if len(set(numbers)) != len(numbers):
        twins = sorted(c for c, n in zip(annotations.categories, numbers) if numbers.count(n) > 1)
        raise ValueError(f"{source}: labels {twins} are the same number written differently; write them alike "
                         "or give --order")
    by_value = [c for _, c in sorted(zip(numbers, annotations.categories))]
    return _reordered(annotations, by_value), True


def _assemble(annotations: Annotations, layout: str, columns: dict, order: list[str] | None,
              majority: str | None, source: str) -> AuditTable:
    if majority is not None and majority not in annotations.rater_ids:
        raise ValueError(f"{source}: missing column(s) [{majority!r}] (the majority column); "
                         f"found {[columns['unit'], *annotations.rater_ids]}")
    annotations, ordered = _ordered_categories(annotations, order, source)
    raters = [r for r in annotations.rater_ids if r != majority]
    if not raters:
        raise ValueError(f"{source}: no rater columns" if layout == "wide" else f"{source}: no ratings")
    view = annotations.raters(raters, min_raters=1)
    ratings = view.ratings()
    unit_ids = np.asarray(view.unit_ids, dtype=object)
    chosen = np.isin(annotations.rater, [annotations.rater_ids.index(r) for r in raters])
    repeats = int((chosen & (annotations.occasion > 0)).sum())
    majority_codes = None
    if majority is not None:
        column = annotations.rater_ids.index(majority)
        mine = annotations.rater == column
        by_unit = pd.Series(annotations.code[mine].astype(np.int64), index=annotations.unit_ids[annotations.unit[mine]])
        majority_codes = by_unit.reindex(unit_ids).fillna(MISSING).astype(np.int64).to_numpy()
    rated = set(annotations.unit_ids[annotations.unit[chosen]])
    return AuditTable(ratings=ratings, unit_ids=unit_ids, source=source, layout=layout, columns=columns,
                      ordered=ordered, numbers=_numbers(ratings.categories) if ordered else None,
                      majority=majority_codes, majority_column=majority,
                      units_without_rating=int(annotations.n_units - len(rated)), repeats_ignored=repeats)


def read_table(path: str | Path, layout: str = "long", unit: str = "unit", rater: str = "rater",
               label: str = "label", raters: str | Sequence[str] | None = None,
               order: str | Sequence[str] | None = None, majority: str | None = None) -> AuditTable:
    """Read an annotation table for ``audit`` (see the module docstring).

    Long: the ``unit``, ``rater`` and ``label`` columns (other columns are ignored). Wide:
    the ``unit`` column, the ``raters`` columns (default: every other column but
    ``majority``) and the optional ``majority`` column. ``order`` (a list, or text
    "a,b,c") fixes the categories and their order. Raises ValueError naming the file and
    line for anything unreadable.
    """
    path = Path(path)
    order = _split(order)
    raters = _split(raters)
    if layout not in LAYOUTS:
        raise ValueError(f"format must be one of {LAYOUTS}, got {layout!r}")
    if layout == "long":
        if majority is not None:
            raise ValueError("a majority column needs the wide format (--format wide): one majority label per unit row")
        if raters is not None:
            raise ValueError("rater columns (--raters) belong to the wide format; in the long format --rater names "
                             "the column that holds the rater ids")
        annotations = read_annotations(path, unit=unit, rater=rater, label=label, categories=order)
        columns = {"unit": unit, "rater": rater, "label": label}
    else:
        wanted = None if raters is None else [*raters, *([majority] if majority else [])]
        annotations = read_wide_annotations(path, unit=unit, raters=wanted, categories=order)
        columns = {"unit": unit, "raters": [r for r in annotations.rater_ids if r != majority]}
        if majority is not None:
            columns["majority"] = majority
    return _assemble(annotations, layout, columns, order, majority, str(path))


def table_from_frame(frame: pd.DataFrame, layout: str = "long", unit: str = "unit", rater: str = "rater",
                     label: str = "label", raters: Sequence[str] | None = None, order: Sequence[str] | None = None,
                     majority: str | None = None, source: str = "table") -> AuditTable:
    """``read_table`` for a DataFrame already in memory (cells as text)."""
    order = _split(order)
    if layout == "long":
        annotations = Annotations.from_long(frame.astype(object), unit, rater, label, categories=order, source=source)
        columns = {"unit": unit, "rater": rater, "label": label}
    elif layout == "wide":
        chosen = None if raters is None else [*raters, *([majority] if majority else [])]
        annotations = Annotations.from_wide(frame.astype(object), unit, chosen, categories=order, source=source)
        columns = {"unit": unit, "raters": [r for r in annotations.rater_ids if r != majority]}
    else:
        raise ValueError(f"format must be one of {LAYOUTS}, got {layout!r}")
    return _assemble(annotations, layout, columns, order, majority, source)


# --------------------------------------------------------------------------- levels

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
    from reagree.pipeline.tables import sha256_of

    table = read_table(path, layout, unit, rater, label, raters, order, majority)
    result = audit(table, level, tie_rule, draws, seed, ci_level, show_progress, ci_scheme)
    result["sha256"] = sha256_of(path)
    result["settings"]["order"] = _split(order)
    return result


# --------------------------------------------------------------------------- values.tsv rows

def _slug(text: str) -> str:
    """A key segment: lowercase, anything outside [a-z0-9_+-] as "_"."""
    return re.sub(r"[^a-z0-9_+-]+", "_", str(text).strip().lower()).strip("_") or "_"


@dataclass(frozen=True)
class _Ends:
    """An interval as values.tsv needs it (``reagree.pipeline.tables.value_row(interval=...)``)."""

    low: float
    high: float
    scheme: str
    undefined_draws: int


def value_rows(result: dict, who: str = "raters") -> list[dict]:
    """An audit as values.tsv rows, keyed by reagree's grammar (``<measure>.<who>...``):
    ``agreement``, ``fleiss``, ``alpha_<level>``, ``ac1``, ``pabak`` and
    ``kappa.<who>.mean_of_pairs`` for the whole table; ``fleiss_category`` and
    ``specific_agreement`` per category; ``kappa`` and ``agreement`` per pair of raters
    (``kappa.<a>_<b>``); ``count.*`` for units, complete units, ratings and ties;
    ``percent.missing``. Each value carries its bootstrap interval and scheme."""
    from reagree.pipeline.tables import value_row

    who = _slug(who)
    ci, reasons = result["ci"], result["undefined"]
    undefined_draws = ci.get("undefined_draws", {})

    def row(key, value, ends=None, draws_key=None, reason_key=None, note=""):
        value = Undefined(reasons.get(reason_key, "undefined")) if value is None else value
        interval = None
        if ends is not None:
            low, high = (math.nan if end is None else end for end in ends)
            interval = _Ends(low, high, ci["method"], undefined_draws.get(draws_key, 0))
        return value_row(key, value, interval=interval, note=note)

    coefficients = result["coefficients"]
    rows = [
        row(f"agreement.{who}", coefficients["percent_agreement"], ci.get("percent_agreement"),
            "percent_agreement", "coefficients.percent_agreement", "mean share of agreeing rating pairs"),
        row(f"fleiss.{who}", coefficients["fleiss_kappa"], ci.get("fleiss_kappa"), "fleiss_kappa",
            "coefficients.fleiss_kappa", f"{coefficients['fleiss_n_units']} units every rater labelled"),
        row(f"ac1.{who}", coefficients["gwet_ac1"], ci.get("gwet_ac1"), "gwet_ac1", "coefficients.gwet_ac1"),
        row(f"pabak.{who}", coefficients["pabak"], ci.get("pabak"), "pabak", "coefficients.pabak"),
        row(f"kappa.{who}.mean_of_pairs", coefficients["mean_pairwise_cohen"], ci.get("mean_pairwise_cohen"),
            "mean_pairwise_cohen", "coefficients.mean_pairwise_cohen", "Light's kappa: mean Cohen's kappa over pairs"),
        value_row(f"count.units.{who}", result["n_units"]),
        value_row(f"count.complete_units.{who}", coefficients["fleiss_n_units"]),
        value_row(f"count.ratings.{who}", result["n_ratings"]),
        value_row(f"count.ties.{who}", result["ties"]["count"], note=f"units whose top vote count is shared"),
        value_row(f"percent.missing.{who}", math.nan if result["missing_share"] is None
                  else 100 * result["missing_share"]),
    ]
    for label, count in result.get("majority", {}).get("rule", {}).items():
        if label != "no label":
            rows.append(value_row(f"count.majority.{who}.{_slug(label)}", count,
                                  note=f"units whose majority label is {label} (tie rule {result['ties']['rule']})"))
    for label, count in result.get("majority", {}).get("column", {}).items():
        if label != "no label":
            rows.append(value_row(f"count.majority_column.{who}.{_slug(label)}", count,
                                  note=f"units the column {result['ties'].get('column')} labels {label}"))
    for level, value in coefficients["krippendorff_alpha"].items():
        rows.append(row(f"alpha_{level}.{who}", value, ci.get("krippendorff_alpha", {}).get(level),
                        f"krippendorff_alpha.{level}", f"coefficients.krippendorff_alpha.{level}"))
    for category, entry in result["per_category"].items():
        for measure, field in (("fleiss_category", "fleiss_kappa"), ("specific_agreement", "specific_agreement")):
            path = f"per_category.{category}.{field}"
            rows.append(row(f"{measure}.{who}.{_slug(category)}", entry.get(field), entry.get(f"{field}_ci"),
                            path, path))
    for pair in result["pairwise"]:
        name = f"{_slug(pair['a'])}_{_slug(pair['b'])}"
        path = f"pairwise.{pair['a']}-{pair['b']}.cohen_kappa"
        rows.append(row(f"kappa.{name}", pair["cohen_kappa"], pair.get("cohen_kappa_ci"), path, path,
                        f"{pair['n']} units both labelled"))
        rows.append(row(f"agreement.{name}", pair["percent_agreement"], None, None,
                        f"pairwise.{pair['a']}-{pair['b']}.percent_agreement"))
    return rows


# --------------------------------------------------------------------------- output

def to_json(result: dict) -> str:
    """The audit as JSON text: undefined values are null (their reasons under "undefined")."""
    return json.dumps(result, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _number(value, digits: int = 3) -> str:
    return "undefined" if value is None else f"{value:.{digits}f}"


def _ci(ends) -> str:
    if not ends:
        return ""
    low, high = ends
    if low is None or high is None:
        return "interval undefined"
    return f"{low:.3f} to {high:.3f}"


def coefficient_rows(result: dict) -> list[dict]:
    """The coefficients as rows: name, what, value, ci_low, ci_high, note (undefined reason)."""
    coefficients, ci, undefined = result["coefficients"], result["ci"], result["undefined"]
    n_raters, k = result["n_raters"], len(result["categories"])
    described = [
        ("percent_agreement", (), f"percent agreement (pairs of ratings on {result['units_pairable']} pairable units)"),
        ("fleiss_kappa", (), f"Fleiss' kappa ({coefficients['fleiss_n_units']} units every rater labelled)"),
    ]
    for level in result["levels"]:
        chosen = " (chosen level)" if level == result["level"] else ""
        described.append(("krippendorff_alpha", (level,), f"Krippendorff's alpha, {level}{chosen}"))
    described += [
        ("gwet_ac1", (), "Gwet's AC1"),
        ("pabak", (), "PABAK" + (f" (Brennan-Prediger form, chance 1/{k})" if k != 2 else " (2 P_o - 1)")),
        ("mean_pairwise_cohen", (), f"mean pairwise Cohen's kappa (Light; {len(result.get('pairs_in_mean', []))} "
                                    f"of {n_raters * (n_raters - 1) // 2} pairs)"),
    ]
    rows = []
    for name, sub, what in described:
        value, ends = coefficients.get(name), ci.get(name)
        for part in sub:
            value = value.get(part) if isinstance(value, dict) else None
            ends = ends.get(part) if isinstance(ends, dict) else None
        key = ".".join((name, *sub))
        rows.append({"coefficient": key, "what": what, "value": value,
                     "ci_low": ends[0] if ends else None, "ci_high": ends[1] if ends else None,
                     "undefined_draws": ci.get("undefined_draws", {}).get(key),
                     "note": undefined.get(f"coefficients.{key}", "")})
    return rows


def result_tables(result: dict) -> dict[str, pd.DataFrame]:
    """The audit's tables: design, coefficients, per_category, pairwise, ties."""
    design = pd.DataFrame([
        {"quantity": "units", "value": result["n_units"]},
        {"quantity": "raters", "value": result["n_raters"]},
        {"quantity": "ratings", "value": result["n_ratings"]},
        {"quantity": "missing share", "value": result["missing_share"]},
        {"quantity": "units with two or more ratings", "value": result["units_pairable"]},
        {"quantity": "units every rater labelled", "value": result["units_complete"]},
        {"quantity": "units without any rating (left out)", "value": result["units_without_rating"]},
        {"quantity": "repeated labels ignored", "value": result["repeats_ignored"]},
        {"quantity": "tied units", "value": result["ties"]["count"]},
    ])
    coefficients = pd.DataFrame(coefficient_rows(result))
    per_category = pd.DataFrame([
        {"category": c, "count": v["count"], "share": v["share"], "fleiss_kappa": v.get("fleiss_kappa"),
         "fleiss_ci_low": (v.get("fleiss_kappa_ci") or [None, None])[0],
         "fleiss_ci_high": (v.get("fleiss_kappa_ci") or [None, None])[1],
         "specific_agreement": v.get("specific_agreement"),
         "specific_ci_low": (v.get("specific_agreement_ci") or [None, None])[0],
         "specific_ci_high": (v.get("specific_agreement_ci") or [None, None])[1]}
        for c, v in result["per_category"].items()])
    pairwise = pd.DataFrame([
        {"rater_a": p["a"], "rater_b": p["b"], "n": p["n"], "percent_agreement": p["percent_agreement"],
         "cohen_kappa": p["cohen_kappa"], "ci_low": (p.get("cohen_kappa_ci") or [None, None])[0],
         "ci_high": (p.get("cohen_kappa_ci") or [None, None])[1],
         "copy_a_scores_against_b": p["copy_a_scores_against_b"]}
        for p in result["pairwise"]],
        columns=["rater_a", "rater_b", "n", "percent_agreement", "cohen_kappa", "ci_low", "ci_high",
                 "copy_a_scores_against_b"])
    tie_columns = ["unit", *(f"votes_{c}" for c in result["categories"]), "tie", f"rule_{result['ties']['rule']}"]
    if "column" in result["ties"]:
        tie_columns.append(f"column_{result['ties']['column']}")
    ties = pd.DataFrame([
        {"unit": u["unit"], **{f"votes_{c}": u["votes"].get(c, 0) for c in result["categories"]},
         "tie": "_".join(u["sides"]), f"rule_{result['ties']['rule']}": u["rule"] or "",
         **({f"column_{result['ties']['column']}": u.get("column") or ""} if "column" in result["ties"] else {})}
        for u in result["ties"]["units"]], columns=tie_columns)
    return {"design": design, "coefficients": coefficients, "per_category": per_category, "pairwise": pairwise,
            "ties": ties}


def _tally_text(tally: dict) -> str:
    return ", ".join(f"{label} {n}" for label, n in tally.items()) or "nothing"


def render_text(result: dict, max_ties: int = 20, max_pairs: int = 45) -> str:
    """The audit as the terminal shows it (plain text, no colour)."""
    lines: list[str] = []
    add = lines.append
    columns = result["columns"]
    if result["format"] == "wide":
        described = f"wide; unit column {columns['unit']!r}; rater columns {', '.join(columns['raters'])}"
        if columns.get("majority"):
            described += f"; majority column {columns['majority']!r}"
    else:
        described = f"long; columns unit={columns['unit']!r}, rater={columns['rater']!r}, label={columns['label']!r}"
    add(f"reagree audit: {result['source']} ({described})")
    add("")
    add("Design")
    missing = result["missing_share"]
    add(f"  units {result['n_units']}   raters {result['n_raters']}   ratings {result['n_ratings']}   "
        f"missing {'-' if missing is None else f'{100 * missing:.1f}%'} of unit x rater cells")
    add(f"  units with two or more ratings {result['units_pairable']}; units every rater labelled "
        f"{result['units_complete']}")
    order = "in the given order" if result["ordered"] else "unordered"
    total = result["n_ratings"] or 1
    add(f"  labels ({order}): " + "  ".join(f"{c} {n} ({100 * n / total:.1f}%)"
                                            for c, n in result["label_distribution"].items()))
    add("  ratings per rater: " + ", ".join(f"{r} {n}" for r, n in result["ratings_per_rater"].items()))
    for note in result["notes"]:
        add(f"  note: {note}")
    for problem in result["problems"]:
        add(f"  ! {problem}")
    add("")

    if result["pairwise"]:
        width = max(len(f"{p['a']}-{p['b']}") for p in result["pairwise"])
        width = max(width, 4)
        add("Pairs (units both labelled)")
        add(f"  {'pair':<{width}}  {'n':>5}  {'agreement':>9}  {'Cohen kappa':>11}  {'95% interval':<16}")
        shown = result["pairwise"][:max_pairs]
        for p in shown:
            add(f"  {p['a'] + '-' + p['b']:<{width}}  {p['n']:>5}  {_number(p['percent_agreement'], 4):>9}  "
                f"{_number(p['cohen_kappa']):>11}  {_ci(p.get('cohen_kappa_ci')):<16}")
        add("  Ceilings, each with the pair it belongs to:")
        for p in shown:
            if p["copy_a_scores_against_b"] is not None:
                add(f"    a model that copies {p['a']} scores {p['copy_a_scores_against_b']:.4f} against {p['b']}")
        if len(result["pairwise"]) > max_pairs:
            add(f"  ... and {len(result['pairwise']) - max_pairs} more pairs (all of them in the JSON and "
                "pairwise.tsv)")
        add("")

    add("Coefficients")
    rows = coefficient_rows(result)
    width = max(len(r["what"]) for r in rows)
    add(f"  {'':<{width}}  {'value':>9}  95% interval")
    for row in rows:
        ends = (row["ci_low"], row["ci_high"]) if row["ci_low"] is not None or row["ci_high"] is not None else None
        shown = _ci(ends) if ends else ""
        if row["value"] is None:
            shown = f"({row['note']})" if row["note"] else ""
        add(f"  {row['what']:<{width}}  {_number(row['value']):>9}  {shown}")
    if result["ci"].get("resampled"):
        add(f"  intervals: bootstrap over {result['ci']['resampled']}; {result['ci']['method']}")
    else:
        add(f"  intervals: {result['ci']['method']}")
    add("")

    add("Per category (Fleiss kappa_j on the units every rater labelled; specific agreement on pairable units)")
    width = max([len(c) for c in result["categories"]] + [8])
    add(f"  {'category':<{width}}  {'share':>6}  {'Fleiss kappa_j':>14}  {'95% interval':<16}  "
        f"{'specific':>8}  {'95% interval':<16}")
    for category, entry in result["per_category"].items():
        share = "-" if entry["share"] is None else f"{100 * entry['share']:.1f}%"
        add(f"  {category:<{width}}  {share:>6}  {_number(entry.get('fleiss_kappa')):>14}  "
            f"{_ci(entry.get('fleiss_kappa_ci')):<16}  {_number(entry.get('specific_agreement')):>8}  "
            f"{_ci(entry.get('specific_agreement_ci')):<16}")
    if not result["problems"]:
        for category in result["per_category"]:
            for field, name in (("fleiss_kappa", "Fleiss kappa_j"), ("specific_agreement", "specific agreement")):
                reason = result["undefined"].get(f"per_category.{category}.{field}")
                if reason:
                    add(f"  {category}: {name} undefined: {reason}")
    add("")

    ties = result["ties"]
    add(f"Majority vote and ties (tie rule: {ties['rule']})")
    if not ties.get("units_voted"):
        add("  no unit has a rating")
    else:
        kinds = "; ".join(f"{kind} {n}" for kind, n in ties["kinds"].items())
        add(f"  {ties['count']} of {ties['units_voted']} units tie" + (f": {kinds}" if kinds else ""))
        if ties["count"]:
            add(f"  the rule {ties['rule']!r} gave the tied units: {_tally_text(ties['rule_gave'])}")
        if "column" in ties:
            if ties["count"]:
                add(f"  the column {ties['column']!r} gave them: {_tally_text(ties['column_gave'])}")
            add(f"  the column {ties['column']!r} differs from the plurality on {ties['column_differs_on_untied']} "
                "untied unit(s)" + (": " + ", ".join(ties["column_differs_on_untied_units"][:10])
                                    if ties["column_differs_on_untied"] else ""))
        majority = result["majority"]
        add(f"  majority labels under the rule: {_tally_text(majority['rule'])}")
        if "column" in majority:
            add(f"  majority labels in the column:  {_tally_text(majority['column'])}")
        if ties["units"]:
            header = f"  {'unit':<12}  {'votes':<28}  {'rule':<10}"
            if "column" in ties:
                header += f"  {'column':<10}"
            add(header)
            for unit in ties["units"][:max_ties]:
                votes = ", ".join(f"{c} {n}" for c, n in unit["votes"].items())
                line = f"  {unit['unit']:<12}  {votes:<28}  {unit['rule'] or '(no label)':<10}"
                if "column" in ties:
                    line += f"  {unit.get('column') or '(none)':<10}"
                add(line)
            if len(ties["units"]) > max_ties:
                add(f"  ... and {len(ties['units']) - max_ties} more (all of them in the JSON and ties.tsv)")
    add("")
    add("Reading")
    lines += textwrap.wrap(result["reading"], width=96, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def provenance(result: dict) -> dict:
    """Where an audit's numbers come from, for the tables' Markdown footers."""
    settings = result["settings"]
    return {"source": result["source"], "sha256": result.get("sha256", "(not recorded)"),
            "format": result["format"], "columns": result["columns"], "level": settings["level"],
            "order": settings.get("order") or "(none)", "tie rule": settings["tie_rule"],
            "intervals": result["ci"]["method"], "reagree": result["reagree_version"]}


def write_outputs(result: dict, folder: str | Path, title: str = "") -> dict[str, Path]:
    """audit.json, audit.txt, the tables (TSV + Markdown) and coefficients.png in ``folder``."""
    from reagree.audit.figure import coefficient_figure
    from reagree.pipeline.tables import write_table, write_text_atomic

    folder = Path(folder)
    written = {"json": folder / "audit.json", "text": folder / "audit.txt"}
    write_text_atomic(written["json"], to_json(result))
    write_text_atomic(written["text"], render_text(result, max_ties=10**9, max_pairs=10**9))
    about = provenance(result)
    titles = {"design": "Design", "coefficients": "Coefficients with bootstrap intervals",
              "per_category": "Per category: Fleiss kappa_j and specific agreement",
              "pairwise": "Pairs: agreement, Cohen's kappa, the copy-a-rater ceiling",
              "ties": f"Tied units and their labels (tie rule {result['ties']['rule']})"}
    for name, frame in result_tables(result).items():
        path = folder / "tables" / f"{name}.tsv"
        write_table(frame, path, f"{title or result['source']}: {titles[name]}", about)
        written[name] = path
    written["figure"] = folder / "coefficients.png"
    coefficient_figure(result, written["figure"], title or Path(result["source"]).name)
    return written
