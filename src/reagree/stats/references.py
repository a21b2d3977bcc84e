"""The field's libraries beside reagree's own estimates: the ``reference`` of a value.

What this module decides:

- **Which library computes what.** ``krippendorff.alpha`` for Krippendorff's alpha at
  every level; statsmodels' ``fleiss_kappa`` for Fleiss' kappa (``method="fleiss"``) and
  Randolph's free-marginal kappa (``method="randolph"``, also Brennan-Prediger);
  scikit-learn's ``cohen_kappa_score`` for Cohen's kappa on two raters' labels, and
  statsmodels' ``cohens_kappa`` on a contingency table. Every other coefficient has no
  reference (``reference_for`` returns None): a value without one is not checked, and
  says so.
- **Each library gets the data in its own orientation, from the data.** The
  ``krippendorff`` package reads coders x units, so a ``Ratings`` (units x raters) goes in
  transposed, as ``reliability_data`` with NaN for a missing rating, and
  ``level_of_measurement`` is always passed. Nominal and ordinal ratings go in as their
  category positions 0..K-1 with ``value_domain`` = all K positions (the declared order is
  the ordinal order); interval and ratio as the categories' numbers (or ``values``). A
  unit x category count matrix goes in as ``value_counts``. statsmodels' Fleiss gets the
  per-unit counts of ``statsmodels.stats.inter_rater.aggregate_raters`` on the complete
  ratings (units nobody rated dropped, as reagree drops them); scikit-learn gets the two
  raters' labels on the units both labelled, with ``labels`` = the declared categories so
  that weights follow the declared order.
- **The answer** is a ``Reference(library, value)``: the library's name with the call
  that produced the value (``krippendorff.alpha(level_of_measurement='interval')``) and
  its value (NaN where the library finds the coefficient undefined or refuses the data).
- **Agreement.** ``differs(value, reference)`` is True when both are finite and differ by
  more than ``DEFECT`` (1e-9), or when exactly one is undefined: a pipeline defect, to be
  listed like a missing value.
"""

from __future__ import annotations

import math
from importlib.metadata import version
from typing import Callable, NamedTuple

import numpy as np

from reagree.stats.alpha import LEVELS
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.undefined import Undefined

__all__ = [
    "DEFECT",
    "REFERENCES",
    "Reference",
    "cohen_against",
    "cohen_reference",
    "differs",
    "fleiss_category_reference",
    "fleiss_reference",
    "krippendorff_reference",
    "largest_difference",
    "reference_for",
]

DEFECT = 1e-9


class Reference(NamedTuple):
    """A field library's value for a coefficient reagree computed: (library, value)."""

    library: str
    value: float


def _numeric_categories(ratings: Ratings, values) -> np.ndarray:
    source = values if values is not None else ratings.categories
    try:
        return np.array([float(v) for v in source])
    except (TypeError, ValueError):
        raise ValueError(f"interval and ratio alpha need numeric categories, got {list(source)}") from None


def krippendorff_reference(data, level_of_measurement: str, values=None) -> Reference:
    """``krippendorff.alpha`` on a ``Ratings`` (as coders x units reliability data) or on a
    unit x category count matrix (as ``value_counts``), at the given level."""
    import krippendorff

    if level_of_measurement not in LEVELS:
        raise ValueError(f"level_of_measurement must be one of {LEVELS}, got {level_of_measurement!r}")
    call = f"krippendorff {version('krippendorff')}: alpha(level_of_measurement={level_of_measurement!r})"
    numeric = level_of_measurement in ("interval", "ratio")
    if isinstance(data, Ratings):
        k = data.n_categories
        numbers = _numeric_categories(data, values) if numeric else np.arange(k, dtype=float)
        coded = np.where(data.codes == MISSING, np.nan, numbers[np.clip(data.codes, 0, None)])
        arguments = {"reliability_data": coded.T}  # the package reads coders x units
        domain = np.unique(numbers) if numeric else numbers
    else:
        counts = np.asarray(data, dtype=float)
        if numeric and values is None:
            raise ValueError(f"{level_of_measurement} alpha on a count matrix needs values= (one per column)")
        numbers = np.asarray(values, dtype=float) if numeric else np.arange(counts.shape[1], dtype=float)
        order = np.argsort(numbers, kind="stable")  # the package wants an ordered value domain
        arguments = {"value_counts": counts[:, order]}
        domain = numbers[order]
    try:
        value = float(krippendorff.alpha(**arguments, value_domain=domain, level_of_measurement=level_of_measurement))
    except (ValueError, ZeroDivisionError):
        value = math.nan
    return Reference(call, value)


def fleiss_reference(data, method: str = "fleiss") -> Reference:
    """statsmodels' ``fleiss_kappa(table, method)`` on a ``Ratings`` (aggregated by
    statsmodels' ``aggregate_raters`` over the declared categories; every unit rated by
    every rater) or on a unit x category count matrix (units nobody rated dropped).
    ``method="randolph"`` gives Randolph's free-marginal kappa."""
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    if isinstance(data, Ratings):
        if (data.codes == MISSING).any():
            raise ValueError(
                "statsmodels' fleiss_kappa needs every unit rated by every rater; these ratings have missing cells"
            )
        table, _ = aggregate_raters(data.codes, n_cat=data.n_categories)
    else:
        table = np.asarray(data, dtype=float)
        table = table[table.sum(axis=1) > 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(fleiss_kappa(table, method=method))
    return Reference(f"statsmodels {version('statsmodels')}: fleiss_kappa(method={method!r})", value)


def cohen_reference(data, weights: str | None = None, raters: tuple[str, str] | None = None) -> Reference:
    """Cohen's kappa by scikit-learn's ``cohen_kappa_score`` on two raters of a ``Ratings``
    (units both labelled; ``labels`` = the declared categories), or by statsmodels'
    ``cohens_kappa`` on a K x K contingency table (``wt`` = the weights)."""
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    if isinstance(data, Ratings):
        from sklearn.metrics import cohen_kappa_score

        first, second = raters if raters is not None else (data.raters if data.n_raters == 2 else (None, None))
        if first is None:
            raise ValueError(f"name the two raters of a Ratings with {data.n_raters} raters")
        a = data.codes[:, data.raters.index(first)]
        b = data.codes[:, data.raters.index(second)]
        both = (a != MISSING) & (b != MISSING)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = float(cohen_kappa_score(a[both], b[both], labels=list(range(data.n_categories)), weights=weights))
        return Reference(f"scikit-learn {version('scikit-learn')}: cohen_kappa_score(weights={weights!r})", value)
    from statsmodels.stats.inter_rater import cohens_kappa

    table = np.asarray(data, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(cohens_kappa(table, wt=weights, return_results=False))
    return Reference(f"statsmodels {version('statsmodels')}: cohens_kappa(wt={weights!r})", value)


def fleiss_category_reference(counts, category: int) -> Reference:
    """statsmodels' ``fleiss_kappa`` on the category-against-the-rest table of a unit x
    category count matrix: Fleiss' (1971) kappa of one category is the kappa of that
    dichotomy (``reagree.stats.multirater.fleiss_category_kappa``)."""
    counts = np.asarray(counts, dtype=float)
    chosen = counts[:, category]
    found = fleiss_reference(np.column_stack([chosen, counts.sum(axis=1) - chosen]))
    return Reference(f"{found.library} on category {category} against the rest", found.value)


def cohen_against(ratings: Ratings, rater: str, reference) -> Reference:
    """scikit-learn's ``cohen_kappa_score`` of ``rater`` against a labelling ``reference``
    (one category code per unit, ``MISSING`` where it gives none), on the units the
    labelling labels and the rater rated: the pairs ``reagree.stats.reference.kappa_statistic``
    scores."""
    reference = np.asarray(reference)
    labelled = reference != MISSING
    paired = ratings.select([rater]).with_column("reference", reference).subset(labelled)
    return cohen_reference(paired, raters=(rater, "reference"))


#: reagree coefficient name -> the function giving its reference (same arguments as
#: reagree's: data, then the coefficient's options).
REFERENCES: dict[str, Callable[..., Reference]] = {
    "krippendorff_alpha": krippendorff_reference,
    "fleiss_kappa": fleiss_reference,
    "randolph_kappa": lambda data: fleiss_reference(data, method="randolph"),
    "brennan_prediger": lambda data: fleiss_reference(data, method="randolph"),
    "cohen_kappa": cohen_reference,
}


def reference_for(coefficient: str, data, **options) -> Reference | None:
    """The field library's value for ``coefficient`` on ``data`` (``REFERENCES``), or None
    when no library of the project computes that coefficient."""
    function = REFERENCES.get(coefficient)
    return None if function is None else function(data, **options)


def differs(value: float, reference: Reference | float) -> bool:
    """Whether reagree's value and the reference disagree (module docstring)."""
    other = reference.value if isinstance(reference, Reference) else float(reference)
    mine = float(value)
    if math.isnan(mine) or math.isnan(other):
        return math.isnan(mine) != math.isnan(other)
    return abs(mine - other) > DEFECT


def largest_difference(pairs) -> float:
    """The largest |value - reference| over (value, reference) pairs ("equal to twelve
    decimal places" is a bound on it); Undefined when one side of a pair is undefined and
    the other is not (a disagreement no number measures)."""
    largest = 0.0
    for value, reference in pairs:
        other = reference.value if isinstance(reference, Reference) else float(reference)
        mine = float(value)
        if math.isnan(mine) or math.isnan(other):
            if math.isnan(mine) != math.isnan(other):
                return Undefined("one side of a pair is undefined")
            continue
        largest = max(largest, abs(mine - other))
    return largest
