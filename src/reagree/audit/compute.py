"""Computing an audit: which levels apply, every coefficient with its interval, the
majority vote and its ties, and the reading of alpha (``reagree.audit``'s module
docstring says what each decides). Every statistic is the library's own function;
nothing is recomputed here.

Cost. Everything but the pairs of raters reads the units' category counts (units x K),
so it grows with the number of ratings, whatever the number of raters. The pairs are
counted from the units each pair shares (``reagree.stats.pairtables``), never one
n-length array per pair, and they are bounded by the number of raters:

- up to ``MAX_RATERS_WITH_PAIR_INTERVALS`` (20) raters: every pair, each with a bootstrap
  interval (its statistic built a few at a time, for its bootstrap only);
- more raters: the pairs that share a unit, with values and no intervals, summarised on
  the terminal (every one of them in the JSON and pairwise.tsv); Light's kappa, the mean
  over those pairs, has no interval either;
- more than ``MAX_RATER_PAIRS`` pairs of raters, or more than ``MAX_RATING_PAIRS`` pairs of
  ratings on a shared unit to count: no pairs and no Light's kappa, and the audit says
  why.

Per rater, the leave-one-out statistics cost one pass over each rater's own ratings
(``reagree.stats.raters.leave_one_out``); the items and the category confusions read the
counts. Each statistic's rating rows are freed after its bootstrap. Bootstrap draws are
capped at ``MAX_DRAWS`` (config.yaml's ``bootstrap.draws`` has the same cap): memory and
time grow with the draws.
"""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from reagree import __version__
from reagree.audit import people
from reagree.audit.read import REPEAT_RULES, AuditTable, _split, read_table
from reagree.io import reads
from reagree.pipeline.progress import progress, progress_bar
from reagree.stats import asymptotic, classification, multirater, registry
from reagree.stats.alpha import LEVELS
from reagree.stats.bootstrap import (
    MAX_BOOTSTRAP_CELLS,
    SCHEMES,
    Interval,
    UnitStatistic,
    bootstrap,
    bootstrap_work,
    interval_from_draws,
)
from reagree.stats.icc import FORMS as ICC_FORMS
from reagree.stats.icc import icc
from reagree.stats.majority import majority_vote, tie_sides, tied_units
from reagree.stats.meanpairwise import fits_one_statistic, mean_pairwise_cohen_of_tables, mean_pairwise_cohen_statistic
from reagree.stats.pairtables import PairTables, pair_tables
from reagree.stats.pairwise import cohen_kappa_tables, cohen_statistic
from reagree.stats.ratings import MISSING
from reagree.stats.undefined import Undefined, reason_of
from reagree.stats.weights import SCHEMES as WEIGHT_SCHEMES
from reagree.stats.weights import agreement_weights, category_values

__all__ = [
    "DEFAULT_WEIGHTS",
    "MAX_DRAWS",
    "MAX_PAIRS_WITH_INTERVALS",
    "MAX_RATERS_WITH_PAIR_INTERVALS",
    "MAX_RATER_PAIRS",
    "MAX_RATING_PAIRS",
    "MIN_COMPLETE_UNITS",
    "SCHEMA",
    "applicable_levels",
    "audit",
    "audit_file",
    "reading",
]

RELIABLE, TENTATIVE = 0.800, 0.667
# Statistics bootstrapped per call: a progress step on a terminal, and a bound on memory.
_BOOTSTRAP_GROUP = 8
# Up to this many raters (190 pairs) every pair is listed with its interval; beyond, the
# pairs get values but no intervals and the terminal summarises them (module docstring).
MAX_RATERS_WITH_PAIR_INTERVALS = 20
MAX_PAIRS_WITH_INTERVALS = MAX_RATERS_WITH_PAIR_INTERVALS * (MAX_RATERS_WITH_PAIR_INTERVALS - 1) // 2
# Beyond these, no pair is tabulated: pairs of raters (about 316 raters), and pairs of
# ratings on a shared unit that counting the tables visits (a few seconds of work).
MAX_RATER_PAIRS = 50_000
MAX_RATING_PAIRS = 50_000_000
# Bootstrap draws at most (workflow/schemas/config.schema.yaml, bootstrap.draws: maximum).
MAX_DRAWS = 100_000
# Fleiss' kappa on the complete units needs at least this many of them; with fewer it
# says so instead of printing a number read off a handful of units (Gwet's form reads all).
MIN_COMPLETE_UNITS = 10
# Weight schemes the audit applies to ordered labels unless told otherwise.
DEFAULT_WEIGHTS = ("linear", "quadratic")
SCHEMA = "reagree.audit/2"


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
        values = tuple(float(i) for i in range(1, len(table.categories) + 1))
        levels += ["interval", "ratio"] if level == "ratio" else ["interval"]
        notes.append(
            f"{level} alpha on labels that are not numbers: their positions 1..K in the given order "
            "stand in for numbers (equal spacing assumed)"
        )
    if level not in levels:
        if level == "ordinal":
            raise ValueError(
                "the ordinal level needs ordered labels: give --order (e.g. --order low,medium,high) "
                "or use numbers as labels"
            )
        if level == "ratio" and table.numbers is not None:
            raise ValueError("the ratio level needs non-negative numbers (a ratio scale has a true zero)")
        raise ValueError(
            f"the {level} level needs numeric labels or an --order; these labels are {list(table.categories)}"
        )
    return levels, values, notes


# --------------------------------------------------------------------------- computing


def _defined(value) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _complete_units(per_unit: np.ndarray, every_rater: np.ndarray, fixed: bool) -> tuple[np.ndarray, str]:
    """The units Fleiss' kappa (complete units) reads, and what complete means. A fixed
    panel's: the units every rater labelled. Interchangeable raters': the units with the
    most ratings any unit has, by whichever raters (Fleiss' 1971 design: m ratings per
    unit, each unit its own raters)."""
    if fixed or not per_unit.size:
        return every_rater, "units every rater labelled"
    most = int(per_unit.max())
    return per_unit == most, f"units with {most} ratings, the most any unit has"


def _problems(
    raters: Sequence[str], categories: Sequence, counts: np.ndarray, complete: np.ndarray, complete_means: str
) -> list[str]:
    problems = []
    if len(raters) < 2:
        problems.append(f"only one rater ({', '.join(raters)}): agreement needs at least two raters")
    used = int((counts.sum(axis=0) > 0).sum()) if counts.size else 0
    if used < 2:
        problems.append(
            f"only {used} category in use ({', '.join(str(c) for c, n in zip(categories, counts.sum(axis=0)) if n)}): "
            "chance-corrected coefficients are undefined when every rating is the same"
        )
    if len(raters) >= 2 and not (counts.sum(axis=1) >= 2).any():
        problems.append("no unit has two or more ratings: nothing can be compared")
    elif len(raters) >= 2 and not complete.any():
        problems.append(
            f"no unit was labelled by all {len(raters):,} raters: Fleiss' kappa (complete units) "
            "is undefined; Krippendorff's alpha and Fleiss' kappa in Gwet's form use every unit"
        )
    return problems


def _entries(levels: list[str], values, design: str, n_raters: int, complete_units: int) -> list:
    """The registry's coefficients that apply to this table (``reagree.stats.registry``)."""
    entries = [c for c in registry.COEFFICIENTS if design == "fixed" or not c.fixed_raters]
    if complete_units < MIN_COMPLETE_UNITS:
        entries = [c for c in entries if c.name != "fleiss_kappa"]
    alphas = [registry.alpha(level, values if level in ("interval", "ratio") else None) for level in levels]
    return entries[:2] + alphas + entries[2:]


def _path(entry, prefix: tuple = ("coefficients",)) -> tuple:
    return (*prefix, *entry.name.split("."))


def _statistics(
    entries: list, sample: registry.Sample, n_raters: int, prefix: tuple = ("coefficients",)
) -> dict[tuple, UnitStatistic]:
    """Every pooled value the audit reports with an interval, keyed by its path: the
    registry's statistics (Conger's needs one column per rater: bootstrapped up to
    ``MAX_RATERS_WITH_PAIR_INTERVALS`` raters, else valued by its analytic form only)."""
    return {
        _path(entry, prefix): entry.statistic(sample)
        for entry in entries
        if entry.statistic is not None and (entry.bootstrap == "always" or n_raters <= MAX_RATERS_WITH_PAIR_INTERVALS)
    }


def _inference(entries: list, sample: registry.Sample, ci_level: float, references: bool) -> tuple[dict, dict]:
    """Each entry's analytic inference (``Estimate.as_dict``, or why there is none) and,
    when ``references``, the field library's value (and standard error)."""
    inference, found = {}, {}
    for entry in entries:
        if entry.inference is not None:
            inference[entry.name] = entry.inference(sample).as_dict(ci_level)
        else:
            inference[entry.name] = {"none": entry.no_inference}
        if references and entry.reference is not None:
            reference = entry.reference(sample)
            found[entry.name] = {
                "library": reference.library,
                "value": _defined(reference.value),
                "se": _defined(getattr(reference, "se", math.nan)),
            }
    return inference, found


def _per_category(
    categories: Sequence, counts: np.ndarray, complete_counts: np.ndarray, with_fleiss: bool = True
) -> dict[tuple, UnitStatistic]:
    stats = {}
    for code, category in enumerate(categories):
        if with_fleiss:
            stats[("per_category", str(category), "fleiss_kappa")] = multirater.fleiss_category_statistic(
                complete_counts, code
            )
        stats[("per_category", str(category), "specific_agreement")] = multirater.specific_agreement_statistic(
            counts, code
        )
    return stats


def _weight_schemes(table: AuditTable, weights: Sequence[str] | None) -> tuple[str, ...]:
    """The weight schemes that apply: none for unordered labels or fewer than three
    categories (two ordered categories have no near miss); ratio only for numbers."""
    asked = tuple(DEFAULT_WEIGHTS if weights is None else _split(weights) or ())
    unknown = [w for w in asked if w not in WEIGHT_SCHEMES or w == "identity"]
    if unknown:
        raise ValueError(f"weights must be among {[w for w in WEIGHT_SCHEMES if w != 'identity']}, got {unknown}")
    if weights is not None and asked and not table.ordered:
        raise ValueError(
            "weighted coefficients need ordered labels: give --order (e.g. --order low,medium,high) "
            "or use numbers as labels"
        )
    if not table.ordered or len(table.categories) < 3:
        return ()
    if "ratio" in asked and (table.numbers is None or min(table.numbers) < 0):
        raise ValueError("ratio weights need non-negative numbers as labels")
    return asked


def _category_numbers(table: AuditTable) -> np.ndarray:
    return np.asarray(table.numbers, dtype=float) if table.numbers is not None else category_values(table.categories)


def _analytic(
    result: dict,
    entries: list,
    sample,
    weighted_entries: list,
    weighted_samples: dict,
    stats: dict,
    ci_level: float,
    n_raters: int,
) -> None:
    """result["inference"] (analytic SE, z, p, Wald interval per coefficient), result["weighted"]'s
    inference, values the bootstrap did not give (Conger beyond 20 raters), and the field
    libraries' references on small tables (``reagree.stats.registry``)."""
    references = registry.references_apply(result["n_units"], n_raters)
    inference, found = _inference(entries, sample, ci_level, references)
    result["inference"] = inference
    result["references"] = found
    result["references_note"] = (
        ""
        if references
        else f"not computed: {result['n_units']:,} units x {n_raters:,} raters is more than the "
        f"{registry.REFERENCE_MAX_CELLS:,} cells the field libraries are run on"
    )
    for entry in entries:
        path = _path(entry)
        if path not in stats and entry.inference is not None:  # valued by its analytic form only
            value = inference[entry.name]["value"]
            _set(result, path, value)
            if value is None:
                result["undefined"][".".join(path)] = str(entry.inference(sample).value.reason)
    weighted = result.setdefault("weighted", {})
    for scheme, weighted_sample in weighted_samples.items():
        inference, found = _inference(weighted_entries, weighted_sample, ci_level, references)
        block = weighted.setdefault(scheme, {})
        for entry in weighted_entries:
            block.setdefault(entry.name, inference[entry.name]["value"])
        block["inference"], block["references"] = inference, found


def _per_category_inference(result: dict, complete_counts: np.ndarray, ci_level: float) -> None:
    """Each category's Fleiss kappa_j with its standard error under kappa_j = 0, z and p
    (``reagree.stats.asymptotic.fleiss_category_null``), where kappa_j is computed."""
    for code, category in enumerate(result["categories"]):
        entry = result["per_category"][category]
        if entry.get("fleiss_kappa") is None:
            continue
        found = asymptotic.fleiss_category_null(complete_counts, code).as_dict(ci_level)
        entry.update(fleiss_kappa_se_null=found["se_null"], fleiss_kappa_z=found["z"], fleiss_kappa_p=found["p"])


def _fleiss_minimum(result: dict, entries: list, complete_units: int) -> None:
    """Fleiss' kappa on too few complete units says so (``MIN_COMPLETE_UNITS``)."""
    if any(entry.name == "fleiss_kappa" for entry in entries):
        return
    why = (
        f"computed on {complete_units:,} complete unit(s), fewer than the minimum of {MIN_COMPLETE_UNITS}: read "
        "Fleiss' kappa in Gwet's form (every unit) instead"
    )
    result["coefficients"]["fleiss_kappa"] = None
    result["undefined"]["coefficients.fleiss_kappa"] = why
    for category in result["categories"]:
        result["per_category"][category]["fleiss_kappa"] = None
        result["undefined"][f"per_category.{category}.fleiss_kappa"] = why


def _weighted_pairs(result: dict, tables: PairTables | None, plan: dict, schemes: Sequence[str]) -> None:
    """Each listed pair's Cohen's kappa under linear and quadratic weights (ordered labels),
    and, for every pair listed with intervals, its analytic standard errors (statsmodels)."""
    if tables is None or not result["pairwise"]:
        return
    position = {f"{a}-{b}": i for i, (a, b) in enumerate(tables.pairs)}
    cohen_weights = [w for w in ("linear", "quadratic") if w in schemes]
    weighted = {w: cohen_kappa_tables(tables.tables, w) for w in cohen_weights}
    for row in result["pairwise"]:
        i = position.get(f"{row['a']}-{row['b']}")
        if i is None:
            continue
        for w in cohen_weights:
            row[f"cohen_kappa_{w}"] = _defined(weighted[w][i])
        if plan["mode"] == "each":
            row["cohen_inference"] = asymptotic.cohen(tables.tables[i]).as_dict(
                result["settings"]["bootstrap"]["level"]
            )


def _icc(table: AuditTable, complete: np.ndarray, ci_level: float) -> dict:
    """ICC(2,1) and ICC(3,1) on the complete units, for numeric labels."""
    if table.numbers is None:
        return {"none": "the labels are not numbers"}
    if complete.sum() < 2:
        return {"none": f"fewer than two units every rater labelled ({int(complete.sum())})"}
    view = table.view.subset(complete)
    values = np.asarray(table.numbers, dtype=float)
    grid = np.zeros((view.n_units, table.n_raters))
    grid[view.label_unit, view.label_column] = values[view.label_code]
    found = {}
    for form in ICC_FORMS:
        reading = icc(grid, form, ci_level)
        found[form] = {
            key: (_defined(v) if isinstance(v, float) else [_defined(x) for x in v] if isinstance(v, tuple) else v)
            for key, v in reading.items()
        }
    return found


def _pair_plan(table: AuditTable, counts: np.ndarray) -> dict:
    """How the pairs of raters are reported (module docstring): "each" (every pair, with
    intervals), "summarised" (pairs sharing a unit, values only) or "none", and why."""
    n_raters = table.n_raters
    fewer = "--raters picks fewer rater columns" if table.layout == "wide" else "audit a table filtered to fewer raters"
    rater_pairs = n_raters * (n_raters - 1) // 2
    per_unit = counts.sum(axis=1).astype(np.int64)
    rating_pairs = int((per_unit * (per_unit - 1) // 2).sum())
    plan = {"raters": n_raters, "rater_pairs": rater_pairs, "rating_pairs_on_shared_units": rating_pairs}
    if rater_pairs > MAX_RATER_PAIRS:
        plan.update(
            mode="none",
            why=f"{n_raters:,} raters make {rater_pairs:,} pairs, more than the "
            f"{MAX_RATER_PAIRS:,} the audit tabulates; {fewer}",
        )
    elif rating_pairs > MAX_RATING_PAIRS:
        plan.update(
            mode="none",
            why=f"the units hold {rating_pairs:,} pairs of ratings by two raters, more than "
            f"the {MAX_RATING_PAIRS:,} the audit counts into pair tables; {fewer}",
        )
    elif n_raters <= MAX_RATERS_WITH_PAIR_INTERVALS:
        plan.update(mode="each", why="")
    else:
        plan.update(
            mode="summarised",
            why=f"more than {MAX_RATERS_WITH_PAIR_INTERVALS} raters: the pairs that share a unit get values "
            "without intervals, and so does their mean (Light's kappa)",
        )
    return plan


def _intervals(
    keys: list[tuple],
    make: Callable[[tuple], UnitStatistic],
    draws: int,
    seed: int,
    level: float,
    scheme: str,
    show_progress: bool,
) -> dict[tuple, Interval]:
    """One interval per key, each statistic made by ``make`` just before its bootstrap and
    dropped after it. Statistics are bootstrapped a few at a time (a progress step each);
    the resamples depend only on the units (and their rows), the seed and the draws, so
    the grouping changes nothing."""
    groups = [keys[start : start + _BOOTSTRAP_GROUP] for start in range(0, len(keys), _BOOTSTRAP_GROUP)]
    work = 0
    for group in groups:
        statistics = [make(key) for key in group]
        work += bootstrap_work(statistics, draws, scheme)
        for statistic in statistics:  # found again at its bootstrap: all of them at once would hold an id per unit each
            statistic.forget_rows()
    _check_work(work, draws, scheme, len(keys), make(keys[0]).n_units)
    bar = (
        progress_bar(total=work, desc=f"bootstrap: {draws:,} draws of {len(keys)} values ({scheme})", unit="cell")
        if show_progress
        else None
    )
    out = {}
    try:
        for group in groups:
            statistics = [make(key) for key in group]
            values = bootstrap(statistics, draws, seed, scheme=scheme, progress=bar.update if bar is not None else None)
            for statistic in statistics:  # their rating rows (an id per unit) serve no later step
                statistic.forget_rows()
            for key, row in zip(group, values):
                out[key] = interval_from_draws(row, level, scheme, seed=seed)
    finally:
        if bar is not None:
            bar.close()
    return out


def _check_work(work: int, draws: int, scheme: str, values: int, n_units: int) -> None:
    """The cap by work (``MAX_BOOTSTRAP_CELLS``), one rule for both schemes: the cells a
    bootstrap draws and counts, not its draws alone, because the numpy scheme's cost grows
    with the units and the default scheme's with its rating rows."""
    if work <= MAX_BOOTSTRAP_CELLS:
        return
    most = max(1, draws * MAX_BOOTSTRAP_CELLS // work)
    raise ValueError(
        f"bootstrap: {draws:,} draws of {values} values under the {scheme} scheme would draw and count "
        f"{work:.2g} cells over {n_units:,} units, more than the cap of {MAX_BOOTSTRAP_CELLS:.0e} (minutes "
        f"of work); give at most {most:,} draws"
        + (" or the percentile scheme, which draws counts per distinct rating row" if scheme == "numpy" else "")
    )


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
    ratings = table.view  # the majority vote reads the units' counts (``unit_counts``) and categories only
    categories = ratings.categories
    chosen = majority_vote(ratings, tie_rule, seed=seed)
    tied = tied_units(ratings)
    sides = tie_sides(ratings)
    counts = ratings.unit_counts()
    kinds = pd.Series([" vs ".join(str(c) for c in s) for s in sides if s], dtype=object).value_counts()
    units = []
    for row in np.flatnonzero(tied):
        entry = {
            "unit": str(table.unit_ids[row]),
            "votes": _votes_text(counts[row], categories),
            "sides": [str(c) for c in sides[row]],
            "rule": _label(chosen[row], categories),
        }
        if table.majority is not None:
            entry["column"] = _label(table.majority[row], categories)
        units.append(entry)
    ties = {
        "count": int(tied.sum()),
        "rule": tie_rule,
        "units_voted": int((counts.sum(axis=1) > 0).sum()),
        "kinds": {str(k): int(v) for k, v in kinds.items()},
        "rule_gave": _tally(chosen[tied], categories),
        "units": units,
    }
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
    convention = (
        "Krippendorff's convention (a convention, not a test): alpha >= 0.800 reliable, "
        "0.667 to 0.800 for tentative conclusions only, below 0.667 discard the data."
    )
    if alpha is None:
        return f"{convention} Here {level} alpha is undefined, so the convention says nothing."

    def band(value: float) -> str:
        return "reliable" if value >= RELIABLE else "tentative" if value >= TENTATIVE else "discard"

    said = f"{convention} Here {level} alpha = {alpha:.3f}: {band(alpha)}"
    if interval and interval[0] is not None and interval[1] is not None:
        low, high = interval
        bands = {band(low), band(high)}
        if len(bands) > 1:
            said += (
                f"; its interval ({low:.3f} to {high:.3f}) reaches from {band(low)} to {band(high)}, "
                "so the sample cannot settle the band"
            )
        else:
            said += f"; its whole interval ({low:.3f} to {high:.3f}) lies in that band"
    return said + "."


def _repeats_note(repeats: dict, left_out: int) -> str | None:
    """What was done with a rater's repeated labels on one unit, and how to choose otherwise."""
    if not repeats.get("units"):
        return None
    rule = repeats["rule"]
    others = " or ".join(f"--repeats {r}" for r in REPEAT_RULES if r != rule)
    if not repeats.get("conflicting"):
        return (
            f"{repeats['units']:,} unit(s) labelled more than once by the same rater, always with the same "
            f"label: counted once ({left_out:,} repeated label(s) left out)"
        )
    example = repeats["example"]
    applied = {
        "first": "each rater's first label on a unit (in file order) counts",
        "last": "each rater's last label on a unit (in file order) counts",
        "drop": "a rater's labels on a unit where they differ are all left out",
    }[rule]
    return (
        f"{repeats['units']:,} unit(s) labelled more than once by the same rater, {repeats['conflicting']:,} of them "
        f"with different labels (e.g. unit {example['unit']!r}, rater {example['rater']!r}: "
        f"{' then '.join(example['labels'])}); rule applied: --repeats {rule}, {applied} ({left_out:,} label(s) "
        f"left out); {others} chooses another"
    )


def _check_settings(draws: int, seed: int, ci_level: float, ci_scheme: str) -> None:
    if not 0 <= draws <= MAX_DRAWS:
        raise ValueError(f"bootstrap draws must be 0 (none) to {MAX_DRAWS:,}, got {draws:,}")
    if seed < 0:
        raise ValueError(f"the seed must be a whole number 0 or more, got {seed}")
    if not 0 < ci_level < 1:
        raise ValueError(f"the interval level must lie strictly between 0 and 1, got {ci_level}")
    if ci_scheme not in SCHEMES:
        raise ValueError(f"the interval scheme must be one of {SCHEMES}, got {ci_scheme!r}")


def _pairwise_summary(rows: list[dict]) -> dict:
    """The spread of the listed pairs' n and kappa (for a table with many raters)."""
    if not rows:
        return {}
    n = np.array([row["n"] for row in rows])
    kappas = np.array([row["cohen_kappa"] for row in rows if row["cohen_kappa"] is not None])
    summary = {
        "n": {"min": int(n.min()), "median": float(np.median(n)), "max": int(n.max())},
        "cohen_kappa_undefined": int(len(rows) - kappas.size),
    }
    if kappas.size:
        low, q1, median, q3, high = np.percentile(kappas, [0, 25, 50, 75, 100])
        summary["cohen_kappa"] = {
            "min": float(low),
            "q1": float(q1),
            "median": float(median),
            "q3": float(q3),
            "max": float(high),
        }
    return summary


def audit(
    table: AuditTable,
    level: str = "nominal",
    tie_rule: str = "drop",
    draws: int = 2000,
    seed: int = 0,
    ci_level: float = 0.95,
    show_progress: bool = True,
    ci_scheme: str = "percentile",
    design: str | None = None,
    weights: Sequence[str] | None = None,
) -> dict:
    """Every reading of the table as a plain dict (the JSON ``reagree audit --json`` writes).

    ``level`` is the measurement level the reading line uses (alpha is reported at every
    level that applies); ``tie_rule`` breaks majority-vote ties; ``draws`` bootstrap
    resamples (0: no intervals, at most ``MAX_DRAWS``) from ``seed`` at ``ci_level``,
    drawn and ended by ``ci_scheme`` ("percentile": multinomial counts over the units'
    rating rows, order statistics; "numpy": one ``rng.integers(0, n, n)`` per draw and
    numpy.percentile's interpolation, as a write-up that bootstrapped with numpy did;
    ``reagree.stats.bootstrap``). ``design``: "fixed" or "interchangeable" raters (None:
    inferred, ``reagree.audit.people``); ``weights``: the weight schemes of the weighted
    coefficients for ordered labels (default ``DEFAULT_WEIGHTS``).
    """
    _check_settings(draws, seed, ci_level, ci_scheme)
    schemes = _weight_schemes(table, weights)
    raters = [str(r) for r in table.raters]
    categories = [str(c) for c in table.categories]
    n_units, n_raters = table.n_units, table.n_raters
    levels, values, notes = applicable_levels(table, level)
    counts = table.counts
    per_rater = table.labels_per_rater()
    per_unit = counts.sum(axis=1)
    label_totals = counts.sum(axis=0)
    n_ratings = int(label_totals.sum())
    chosen_design = people.design_of(n_units, n_raters, n_ratings, design, table.layout)
    every_rater = per_unit == n_raters if n_raters else np.zeros(n_units, dtype=bool)  # one label per rater and unit
    complete, complete_means = _complete_units(per_unit, every_rater, chosen_design["raters"] == "fixed")
    complete_counts = np.where(complete[:, None], counts, 0)
    repeats_note = _repeats_note(table.repeats, table.repeats_ignored)
    if repeats_note:
        notes.append(repeats_note)
    if table.units_without_rating:
        notes.append(f"{table.units_without_rating:,} unit(s) without any rating left out")
    cells = n_units * n_raters

    result: dict = {
        "schema": SCHEMA,
        "reagree_version": __version__,
        "source": table.source,
        "format": table.layout,
        "columns": table.columns,
        "n_units": int(n_units),
        "n_raters": int(n_raters),
        "n_ratings": n_ratings,
        "raters": raters,
        "categories": categories,
        "ordered": table.ordered,
        "missing_share": (cells - n_ratings) / cells if cells else None,
        "units_without_rating": table.units_without_rating,
        "repeats_ignored": table.repeats_ignored,
        "repeats": dict(table.repeats),
        "units_pairable": int((per_unit >= 2).sum()),
        "units_complete": int(complete.sum()),
        "complete_means": complete_means,
        "label_distribution": {c: int(n) for c, n in zip(categories, label_totals)},
        "ratings_per_rater": {r: int(n) for r, n in zip(raters, per_rater)},
        "level": level,
        "levels": levels,
        "settings": {
            "level": level,
            "tie_rule": tie_rule,
            "repeats": table.repeats.get("rule", "first"),
            "bootstrap": {"draws": draws, "seed": seed, "level": ci_level, "scheme": ci_scheme},
            "design": design,
            "weights": list(schemes),
        },
        "coefficients": {},
        "per_category": {},
        "pairwise": [],
        "ci": {},
        "undefined": {},
        "problems": _problems(raters, categories, counts, complete, complete_means)
        if n_units
        else ["the table holds no ratings"],
        "notes": notes,
    }
    result["coefficients"]["fleiss_n_units"] = int(complete.sum())
    result["design"] = chosen_design
    fixed = result["design"]["raters"] == "fixed"
    sample = registry.Sample(counts, complete_counts, table.view, tuple(categories))
    applicable = _entries(levels, values, result["design"]["raters"], n_raters, MIN_COMPLETE_UNITS)
    # labels from the registry: the text, the tables, the figure and the report read these
    result["coefficient_labels"] = {e.name: e.label for e in applicable}
    result["weighted_labels"] = {e.name: e.label_weighted() for e in applicable if e.weighted}
    result["chance_terms"] = {e.name: e.chance for e in applicable}
    entries = _entries(levels, values, result["design"]["raters"], n_raters, int(complete.sum())) if n_units else []
    for code, category in enumerate(categories):
        share = label_totals[code] / n_ratings if n_ratings else math.nan
        result["per_category"][category] = {"count": int(label_totals[code]), "share": _defined(share)}

    plan = (
        _pair_plan(table, counts)
        if n_units
        else {
            "mode": "none",
            "why": "the table holds no ratings",
            "raters": n_raters,
            "rater_pairs": 0,
            "rating_pairs_on_shared_units": 0,
        }
    )
    if n_units and not fixed:
        left_out = (
            "a column is not the same person on every unit, so a pair of columns has no Cohen's kappa and "
            "Conger's kappa (a fixed panel's) does not apply"
            if table.layout == "wide"
            else "the pairs of raters by name and Conger's kappa (a fixed panel's) are left out"
        )
        plan.update(mode="none", why=f"the raters are interchangeable ({result['design']['why']}): {left_out}")
    tables = pair_tables(table.view) if plan["mode"] != "none" else None
    if tables is not None:
        plan["pairs_sharing_a_unit"] = len(tables.first)
    stats = _statistics(entries, sample, n_raters) if n_units else {}
    weighted_samples = (
        {
            scheme: registry.Sample(
                counts,
                complete_counts,
                table.view,
                tuple(categories),
                agreement_weights(scheme, _category_numbers(table)),
                scheme,
            )
            for scheme in schemes
        }
        if n_units
        else {}
    )
    weighted_entries = [e for e in entries if e.weighted]
    for scheme, weighted in weighted_samples.items():
        stats.update(_statistics(weighted_entries, weighted, n_raters, ("weighted", scheme)))
    mean_statistic = None
    if plan["mode"] == "each" and fits_one_statistic(table.ratings, tables.pairs):
        mean_statistic = mean_pairwise_cohen_statistic(table.ratings, tables.pairs)
        stats[("coefficients", "mean_pairwise_cohen")] = mean_statistic
    if n_units:
        stats.update(
            _per_category(categories, counts, complete_counts, with_fleiss=int(complete.sum()) >= MIN_COMPLETE_UNITS)
        )
    pairable = result["units_pairable"] > 0
    bootstrapped = stats and draws > 0 and pairable
    pair_keys = [("pairwise", a, b) for a, b in combinations(raters, 2)] if plan["mode"] == "each" else []
    if bootstrapped:

        def make(key: tuple) -> UnitStatistic:
            return stats[key] if key[0] != "pairwise" else cohen_statistic(table.ratings, key[1], key[2])

        intervals = _intervals([*stats, *pair_keys], make, draws, seed, ci_level, ci_scheme, show_progress)
    else:
        intervals = {}
    if stats and mean_statistic is None:
        if plan["mode"] == "each":
            notes.append("mean pairwise Cohen's kappa has no interval: too many rater pairs for one joint statistic")
    if intervals:
        result["ci"]["method"] = next(iter(intervals.values())).scheme
        result["ci"]["resampled"] = f"the {n_units:,} units, with replacement"
        result["ci"]["undefined_draws"] = {}
    else:
        why = "--bootstrap 0" if draws == 0 else "no unit has two or more ratings"
        result["ci"]["method"] = f"none ({why})"

    for path, statistic in stats.items():
        value = statistic.value()
        interval = intervals.get(path)
        ends = [_defined(interval.low), _defined(interval.high)] if interval is not None else None
        name = ".".join(path)
        _set(result, path, _defined(value))
        if ends is not None:
            if path[0] in ("coefficients", "weighted"):
                _set(result["ci"], path[1:] if path[0] == "coefficients" else path, ends)
            else:
                _set(result, (*path[:-1], f"{path[-1]}_ci"), ends)
            result["ci"]["undefined_draws"][".".join(path[1:]) if path[0] == "coefficients" else name] = int(
                interval.undefined_draws
            )
        if reason_of(value):
            reason = reason_of(value)
            if path[0] == "per_category":  # the library names a category by its code
                code = categories.index(path[1])
                reason = reason.replace(f"category {code} ", f"category {path[1]!r} ")
            result["undefined"][name] = reason

    if stats and mean_statistic is None:
        mean = (
            mean_pairwise_cohen_of_tables(tables) if tables is not None else Undefined(f"not computed: {plan['why']}")
        )
        result["coefficients"]["mean_pairwise_cohen"] = _defined(mean)
        if reason_of(mean):
            result["undefined"]["coefficients.mean_pairwise_cohen"] = reason_of(mean)
    _pairs(result, tables, plan, raters, intervals, show_progress)
    if not stats:
        for name in ("percent_agreement", "fleiss_kappa", "gwet_ac1", "pabak", "mean_pairwise_cohen"):
            result["coefficients"][name] = None
            result["undefined"][f"coefficients.{name}"] = "the table holds no ratings"
        result["coefficients"]["krippendorff_alpha"] = {lvl: None for lvl in levels}
    result["pairs_in_mean"] = [f"{a}-{b}" for a, b in tables.pairs] if tables is not None and n_units else []
    if n_units:
        _analytic(result, entries, sample, weighted_entries, weighted_samples, stats, ci_level, n_raters)
        _fleiss_minimum(result, entries, int(complete.sum()))
        _per_category_inference(result, complete_counts, ci_level)
        _weighted_pairs(result, tables, plan, schemes)
        result["icc"] = (
            _icc(table, every_rater, ci_level)
            if fixed
            else {"none": "ICC(2,1) and ICC(3,1) read a fixed panel of raters; these are interchangeable"}
        )
        result["per_rater"] = people.per_rater(
            table.view,
            counts,
            raters,
            categories,
            level,
            values if level in ("interval", "ratio") else None,
            draws if pairable else 0,
            seed,
            ci_level,
            ci_scheme,
        )
        if not fixed and table.layout == "wide":
            notes.append(
                "per rater: under interchangeable raters a column is not one person; its row describes "
                "whoever labelled under that column"
            )
        result["category_pairs"] = people.confusion(counts, categories)

    if n_units:
        ties, majority = _ties(table, tie_rule, seed)
    else:
        ties, majority = {"count": 0, "rule": tie_rule, "units": []}, {}
    result["ties"], result["majority"] = ties, majority
    result["items"] = (
        people.items(counts, table.unit_ids, categories, majority_vote(table.view, "drop"))
        if n_units
        else {"units": [], "listed": 0, "units_disputed": 0, "units_pairable": 0}
    )
    alpha = result["coefficients"]["krippendorff_alpha"].get(level)
    alpha_ci = result["ci"].get("krippendorff_alpha", {}).get(level)
    result["reading"] = reading(alpha, level, alpha_ci)
    return result


def _pairs(
    result: dict, tables: PairTables | None, plan: dict, raters: list[str], intervals: dict, show_progress: bool = False
) -> None:
    """``result["pairwise"]`` (one row per pair listed) and ``result["pairwise_plan"]``."""
    listed = (
        [(a, b) for a, b in combinations(raters, 2)]
        if plan["mode"] == "each"
        else tables.pairs
        if tables is not None
        else []
    )
    position = {pair: i for i, pair in enumerate(tables.pairs)} if tables is not None else {}
    kappas = tables.cohen_kappas() if tables is not None else np.zeros(0)
    empty = np.zeros((len(result["categories"]),) * 2, dtype=np.int64)
    steps = progress(listed, desc="pairs of raters", unit="pair") if show_progress and len(listed) > 1000 else listed
    for a, b in steps:
        i = position.get((a, b))  # a dict, not PairTables.table's scan: 50,000 pairs stay linear
        table_ab = tables.tables[i] if i is not None else empty
        kappa = float(kappas[i]) if i is not None else math.nan
        if not math.isfinite(kappa):  # undefined: the reason cohen_statistic gives, from the same table
            kappa = cohen_statistic(table_ab).value()
        copy = classification.accuracy(table_ab)
        row = {
            "a": str(a),
            "b": str(b),
            "n": int(table_ab.sum()),
            "percent_agreement": _defined(copy),
            "cohen_kappa": _defined(kappa),
            "copy_a_scores_against_b": _defined(copy),
        }
        interval = intervals.get(("pairwise", a, b))
        if interval is not None:
            row["cohen_kappa_ci"] = [_defined(interval.low), _defined(interval.high)]
            result["ci"]["undefined_draws"][f"pairwise.{a}-{b}.cohen_kappa"] = int(interval.undefined_draws)
        result["pairwise"].append(row)
        for field, value in (("cohen_kappa", kappa), ("percent_agreement", copy)):
            if reason_of(value):
                result["undefined"][f"pairwise.{a}-{b}.{field}"] = reason_of(value)
    plan = dict(plan)
    plan["listed"] = {"each": "every pair", "summarised": "the pairs that share a unit", "none": "none"}[plan["mode"]]
    plan["intervals"] = any(("pairwise", a, b) in intervals for a, b in listed)
    if plan["mode"] == "summarised":
        plan["summary"] = _pairwise_summary(result["pairwise"])
    result["pairwise_plan"] = plan


def audit_file(
    path: str | Path,
    layout: str = "long",
    unit: str = "unit",
    rater: str = "rater",
    label: str = "label",
    raters=None,
    order=None,
    majority: str | None = None,
    level: str = "nominal",
    tie_rule: str = "drop",
    draws: int = 2000,
    seed: int = 0,
    ci_level: float = 0.95,
    show_progress: bool = True,
    ci_scheme: str = "percentile",
    encoding: str = "utf-8",
    repeats: str | None = None,
    max_bytes: int | None = None,
    design: str | None = None,
    weights: Sequence[str] | str | None = None,
) -> dict:
    """``read_table`` (at most ``max_bytes`` of a regular file) then ``audit``; the result
    also records the sha256 of the bytes the table was read from."""
    _check_settings(draws, seed, ci_level, ci_scheme)  # before reading a large file
    if design is not None and design not in people.DESIGNS:
        raise ValueError(f"design must be one of {people.DESIGNS}, got {design!r}")
    with reads.recording():  # the sha256 of the bytes the table was read from, not of a second read
        table = read_table(
            path,
            layout,
            unit,
            rater,
            label,
            raters,
            order,
            majority,
            encoding=encoding,
            repeats=repeats,
            max_bytes=max_bytes,
        )
        sha256 = reads.sha256_read(path)
    result = audit(table, level, tie_rule, draws, seed, ci_level, show_progress, ci_scheme, design, weights)
    result["sha256"] = sha256
    result["settings"]["order"] = _split(order)
    result["settings"]["encoding"] = encoding
    return result
