"""A catalogue of variants: the same quantity computed under one documented alternative choice.

What this module decides:

- **A variant** is a named library function that computes the quantity a paper printed
  under one alternative choice (a chance model, a distance, a way of counting, a base for
  a percentage, a tie rule, the handling of missing ratings). Its name is
  ``<family-prefix>.<choice>`` (``alpha.expected_n_squared``, ``kappa.conger``,
  ``count.label_pairs``), stable once a paper declares it.
- **A family** is a set of variants of one quantity that take the same inputs. Its
  function (``chance_models(ratings)``, ``counting(labels_per_unit)``, ...) evaluates
  every variant of the family on those inputs and returns {variant name: value}, in the
  catalogue's order. That mapping is what ``reagree.pipeline.reproduce.search`` holds
  against a printed value. ``FAMILIES`` lists the families, ``VARIANTS`` every variant
  with its one-line reading and the documented function it is (its docstring cites the
  source and the formula).
- **Coefficients are not defined here.** A variant is an existing coefficient of
  ``reagree.stats`` (``multirater``, ``pairwise``, ``alpha``, ``meanpairwise``,
  ``majority``) applied under its choice; only the choices that are not coefficients
  (counting, percentage bases, missing ratings, category sets, what counts as a tie) are
  defined here.
- **A paper may add a family of its own** (a chance level replayed from its authors'
  seeded stream, say): ``reagree.pipeline.variantplan.VariantPlan`` takes its
  ``Family`` and ``Variant`` entries beside this catalogue's, for that paper alone.
- **Not applicable is Undefined.** A variant that does not apply to the inputs (Scott's
  pi on three raters, Fleiss' kappa with unequal numbers of ratings, a ratio distance on
  negative values) is ``Undefined`` with the reason, so a search counts it as not tried
  rather than failing.
- **Printed readings are not here.** How a printed number was rounded (rounded up,
  truncated) is a reading of the print, ``reagree.pipeline.printed``; the search applies
  those readings to every variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

from reagree.stats import alpha, majority, meanpairwise, multirater, pairwise
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.undefined import Undefined

__all__ = [
    "FAMILIES",
    "VARIANTS",
    "Family",
    "Variant",
    "alpha_distances",
    "alpha_expected_pairs",
    "alpha_leave_one_unit_out",
    "category_sets",
    "chance_models",
    "count_items",
    "count_label_pairs",
    "count_repeat_labels",
    "counting",
    "describe",
    "kappa_weights",
    "listwise",
    "missing_ratings",
    "observed_categories",
    "pairable_units",
    "pairwise_available",
    "percentage",
    "percentage_bases",
    "tie_definitions",
    "tie_rule_names",
    "tie_rules",
    "unlabelled_units",
]


def _guarded(function: Callable, *args, **kwargs) -> float:
    """The function's value, or ``Undefined`` with the message of the ValueError by which
    it says the input does not fit it (unequal ratings per unit, non-numeric categories)."""
    try:
        return function(*args, **kwargs)
    except ValueError as error:
        return Undefined(str(error))


# --- alpha: expected disagreement over n(n - 1) or n^2 pairs -------------------------------


def alpha_expected_pairs(data, level_of_measurement: str, values=None) -> dict[str, float]:
    """Family ``alpha_expected_disagreement``: Krippendorff's alpha with the expected
    disagreement over the n(n - 1) pairs of distinct pairable values
    (``alpha.krippendorff_alpha``) and over all n^2 ordered pairs
    (``alpha.alpha_expected_over_n_squared``)."""
    return {
        "alpha.expected_n_minus_1": alpha.krippendorff_alpha(data, level_of_measurement, values),
        "alpha.expected_n_squared": alpha.alpha_expected_over_n_squared(data, level_of_measurement, values),
    }


def alpha_leave_one_unit_out(data, level_of_measurement: str, values=None) -> dict[str, float]:
    """Family ``alpha_leave_one_unit_out``: Krippendorff's alpha with one unit left out,
    one variant per unit (``alpha.without_unit_<u>``, u counted from 1 in the order of the
    data's rows; ``alpha.alpha_without_each_unit``): how many single units' codings would
    each give the printed value, so that a variant that reproduces it is one candidate
    among how many."""
    found = alpha.alpha_without_each_unit(data, level_of_measurement, values)
    return {
        f"alpha.without_unit_{u + 1}": float(value)
        if np.isfinite(value)
        else Undefined("leaving this unit out leaves nothing to compare")
        for u, value in enumerate(found)
    }


# --- alpha: the distance between categories ------------------------------------------------


def alpha_distances(data, values=None) -> dict[str, float]:
    """Family ``alpha_distance``: Krippendorff's alpha under the nominal, ordinal,
    interval and ratio metrics (``alpha.krippendorff_alpha``; interval and ratio need
    numeric categories or ``values``, ratio non-negative ones)."""
    return {f"alpha.{level}": _guarded(alpha.krippendorff_alpha, data, level, values) for level in alpha.LEVELS}


# --- kappa: the chance model -------------------------------------------------------------


def _needs_two_raters(ratings: Ratings, name: str) -> str:
    return (
        ""
        if ratings.n_raters == 2
        else f"{name} is a two-rater coefficient; these ratings have {ratings.n_raters} raters"
    )


def chance_models(ratings: Ratings) -> dict[str, float]:
    """Family ``chance_model``: one agreement-over-chance coefficient under each chance
    model, on the same ratings.

    ``kappa.fleiss`` (pooled marginals; ``multirater.fleiss_kappa``, needs the same number
    of ratings per unit), ``kappa.conger`` (each rater's own marginals;
    ``multirater.conger_kappa``), ``kappa.randolph`` (uniform over the declared categories;
    ``multirater.randolph_kappa``), ``kappa.light`` (the mean of pairwise Cohen's kappas;
    ``meanpairwise.mean_pairwise_cohen``), and for exactly two raters ``kappa.scott``
    (``pairwise.scott_pi``) and ``kappa.cohen`` (``pairwise.cohen_kappa``).
    """
    counts = ratings.unit_counts()
    out = {
        "kappa.fleiss": _guarded(multirater.fleiss_kappa, counts),
        "kappa.conger": multirater.conger_kappa(ratings),
        "kappa.randolph": multirater.randolph_kappa(counts),
        "kappa.light": meanpairwise.mean_pairwise_cohen(ratings),
    }
    for name, function in (("kappa.scott", pairwise.scott_pi), ("kappa.cohen", pairwise.cohen_kappa)):
        reason = _needs_two_raters(ratings, name)
        out[name] = Undefined(reason) if reason else function(ratings)
    return out


def kappa_weights(data, raters: tuple[str, str] | None = None) -> dict[str, float]:
    """Family ``kappa_weights``: Cohen's kappa unweighted, with linear and with quadratic
    disagreement weights (``pairwise.cohen_kappa``; categories in their declared order)."""
    return {
        f"weights.{name or 'none'}": pairwise.cohen_kappa(data, weights=name, raters=raters)
        for name in pairwise.WEIGHTS
    }


# --- missing ratings ----------------------------------------------------------------------


def listwise(ratings: Ratings, coefficient: Callable[[Ratings], float]) -> float:
    """The coefficient on the units every rater labelled (listwise deletion: a unit with
    one missing rating leaves the computation whole). R's ``irr`` package does this for
    every coefficient ("Missing data are omitted in a listwise way"); reagree's
    coefficients use every available rating instead (``pairwise_available``).
    Undefined when no unit is complete."""
    complete = ratings.complete()
    if complete.n_units == 0:
        return Undefined("no unit was labelled by every rater")
    return _guarded(coefficient, complete)


def pairwise_available(ratings: Ratings, coefficient: Callable[[Ratings], float]) -> float:
    """The coefficient on every available rating (pairwise deletion: a unit counts with
    the ratings it has; a pair of raters is compared on the units both labelled). This is
    how Krippendorff's alpha, Gwet's coefficients and Conger's kappa treat missing
    ratings (Krippendorff 2011; Gwet 2014, ch. 5)."""
    return _guarded(coefficient, ratings)


def pairable_units(ratings: Ratings) -> int:
    """Units with two or more ratings: the units a coefficient that handles missing ratings
    pairwise reads (under listwise deletion, with ``listwise``, the complete units)."""
    return int(((ratings.codes != MISSING).sum(axis=1) >= 2).sum())


def missing_ratings(ratings: Ratings, coefficient: Callable[[Ratings], float]) -> dict[str, float]:
    """Family ``missing_ratings``: the coefficient with missing ratings handled pairwise
    (``pairwise_available``) and listwise (``listwise``)."""
    return {
        "missing.pairwise": pairwise_available(ratings, coefficient),
        "missing.listwise": listwise(ratings, coefficient),
    }


# --- the category set ---------------------------------------------------------------------


def observed_categories(counts) -> np.ndarray:
    """The unit x category counts restricted to the categories someone used: what K is
    when the category set is read off the data instead of declared (a category nobody
    chose disappears). K matters to Brennan-Prediger/Randolph (chance 1/K) and Gwet's AC1
    (1/(K - 1)); Fleiss' and Cohen's kappa and alpha do not change."""
    counts = np.asarray(counts)
    return counts[:, counts.sum(axis=0) > 0]


def category_sets(counts, coefficient: Callable[[np.ndarray], float]) -> dict[str, float]:
    """Family ``category_set``: a count-based coefficient (``multirater``) over the
    declared categories (the columns of ``counts``) and over the observed ones
    (``observed_categories``)."""
    return {
        "categories.declared": _guarded(coefficient, np.asarray(counts)),
        "categories.observed": _guarded(coefficient, observed_categories(counts)),
    }


# --- counting: items or label pairs --------------------------------------------------------


def _labels_per_unit(labels_per_unit) -> np.ndarray:
    m = np.asarray(labels_per_unit)
    if m.ndim != 1 or (m.size and (m.min() < 0 or not np.all(m == np.round(m)))):
        raise ValueError("labels per unit must be a 1-D array of non-negative whole numbers")
    return m.astype(np.int64)


def count_items(labels_per_unit) -> int:
    """Items labelled two or more times: #{u : m_u >= 2}. A tweet labelled three times is
    one item. (Mozetič et al. 2016, Table 3, read as "posts".)"""
    return int((_labels_per_unit(labels_per_unit) >= 2).sum())


def count_label_pairs(labels_per_unit) -> int:
    """Unordered pairs of labels within items: sum_u m_u (m_u - 1) / 2. A tweet labelled
    three times is three pairs."""
    m = _labels_per_unit(labels_per_unit)
    return int((m * (m - 1) // 2).sum())


def count_repeat_labels(labels_per_unit) -> int:
    """Labels beyond each item's first: sum_u (m_u - 1) over items with m_u >= 1. A tweet
    labelled three times is two repeats."""
    m = _labels_per_unit(labels_per_unit)
    return int(np.maximum(m - 1, 0).sum())


def counting(labels_per_unit) -> dict[str, int]:
    """Family ``counting``: how many items were labelled more than once, counted as items
    (``count_items``), label pairs (``count_label_pairs``) or repeated labels
    (``count_repeat_labels``). They differ only where an item has three or more labels."""
    return {
        "count.items": count_items(labels_per_unit),
        "count.label_pairs": count_label_pairs(labels_per_unit),
        "count.repeat_labels": count_repeat_labels(labels_per_unit),
    }


# --- the percentage base ------------------------------------------------------------------


def percentage(count: float, base: float) -> float:
    """100 count / base: a count as a percentage of one base. Undefined for a zero base."""
    if not base:
        return Undefined("the base of the percentage is zero")
    return 100.0 * float(count) / float(base)


def percentage_bases(count: float, **bases: float) -> dict[str, float]:
    """Family ``percentage_base``: one count as a percentage of each named base
    (``percentage``), e.g. ``all_labels=``, ``all_items=``, ``labelled_items=``; the
    variants are named ``base.<name>``, in the order given."""
    return {f"base.{name}": percentage(count, base) for name, base in bases.items()}


# --- the majority's tie rule ---------------------------------------------------------------


def tie_rule_names(ratings: Ratings) -> list[str]:
    """The deterministic tie rules of ``reagree.stats.majority`` that apply to these
    ratings: drop, ``prefer:<category>`` for every category, and neutral and polar on a
    three-category scale."""
    rules = ["drop", *(f"prefer:{category}" for category in ratings.categories)]
    return rules + (["neutral", "polar"] if ratings.n_categories == 3 else [])


def tie_rules(
    ratings: Ratings, quantity: Callable[[np.ndarray], float], *, seed: int = 0, repetitions: int = 0
) -> dict[str, float]:
    """Family ``tie_rule``: a quantity of the majority labels (one code per unit,
    ``MISSING`` where a rule leaves a tie unlabelled) under every tie rule of
    ``reagree.stats.majority`` (``tie_rule_names``), named ``tie.<rule>``.

    With ``repetitions`` R > 0, ``tie.random`` is the mean of the quantity over R labellings
    with every tie broken by a seeded uniform draw (``majority.random_majorities``): then
    ``quantity`` is called once with all R labellings (an (R, n) array) and must return R
    values, so that no Python loop runs over labellings.
    """
    out = {f"tie.{rule}": quantity(majority.majority_vote(ratings, rule)) for rule in tie_rule_names(ratings)}
    if repetitions > 0:
        values = np.asarray(quantity(majority.random_majorities(ratings, repetitions, seed)), dtype=float)
        if values.shape != (repetitions,):
            raise ValueError(
                f"tie.random: quantity must return one value per labelling ({repetitions}), got shape {values.shape}"
            )
        out["tie.random"] = float(values.mean())
    return out


def tie_definitions(ratings: Ratings) -> dict[str, int]:
    """Family ``tie_definition``: how many units have a tied vote, under three readings of
    "tie":

    - ``ties.shared_top``: the top vote count is shared by two or more categories
      (``majority.tied_units``; 3-3, 2-2-2, 2-2-1-1 among six votes);
    - ``ties.even_split``: the votes split evenly between exactly two categories (3-3);
    - ``ties.no_strict_majority``: no category has more than half of the unit's votes
      (3-3, 3-2-1, 2-2-2 ...: a majority rule in the strict sense finds no winner).

    Units count with the ratings they have (a missing rating is no vote)."""
    counts = np.asarray(ratings.unit_counts())
    votes = counts.sum(axis=1)
    top = counts.max(axis=1) if counts.size else np.zeros(0)
    in_use = (counts > 0).sum(axis=1)
    return {
        "ties.shared_top": int(np.asarray(majority.tied_units(ratings)).sum()),
        "ties.even_split": int(((in_use == 2) & (2 * top == votes) & (votes > 0)).sum()),
        "ties.no_strict_majority": int(((2 * top <= votes) & (votes > 0)).sum()),
    }


def unlabelled_units(labels: np.ndarray) -> float | np.ndarray:
    """How many units a majority labelling left without a label (``MISSING``): one count,
    or one per row of an (R, n) array. Under ``tie.drop`` it is the number of ties."""
    return (np.asarray(labels) == MISSING).sum(axis=-1)


# --- the catalogue -------------------------------------------------------------------------


@dataclass(frozen=True)
class Family:
    """A family of variants: its name, what varies, its evaluating function and the
    variant names it returns (``None``: names depend on the inputs)."""

    name: str
    varies: str
    evaluate: Callable[..., Mapping[str, float]]
    variants: tuple[str, ...] | None


@dataclass(frozen=True)
class Variant:
    """One variant: its name, family, a one-line reading, and the documented function
    that computes it (its docstring cites the source and formula)."""

    name: str
    family: str
    reading: str
    function: Callable


FAMILIES = {
    family.name: family
    for family in (
        Family(
            "alpha_expected_disagreement",
            "alpha's expected disagreement over n(n - 1) or n^2 pairs of values",
            alpha_expected_pairs,
            ("alpha.expected_n_minus_1", "alpha.expected_n_squared"),
        ),
        Family(
            "alpha_leave_one_unit_out",
            "alpha with one unit left out, each unit in turn",
            alpha_leave_one_unit_out,
            None,
        ),
        Family(
            "alpha_distance",
            "alpha's metric: nominal, ordinal, interval, ratio",
            alpha_distances,
            tuple(f"alpha.{level}" for level in alpha.LEVELS),
        ),
        Family(
            "chance_model",
            "the chance model of a kappa: Fleiss, Conger, Randolph, Light, Scott, Cohen",
            chance_models,
            ("kappa.fleiss", "kappa.conger", "kappa.randolph", "kappa.light", "kappa.scott", "kappa.cohen"),
        ),
        Family(
            "kappa_weights",
            "Cohen's kappa unweighted, linear or quadratic",
            kappa_weights,
            ("weights.none", "weights.linear", "weights.quadratic"),
        ),
        Family(
            "missing_ratings",
            "missing ratings handled pairwise or listwise",
            missing_ratings,
            ("missing.pairwise", "missing.listwise"),
        ),
        Family(
            "category_set",
            "the declared or the observed category set",
            category_sets,
            ("categories.declared", "categories.observed"),
        ),
        Family(
            "counting",
            "items labelled more than once counted as items, label pairs or repeated labels",
            counting,
            ("count.items", "count.label_pairs", "count.repeat_labels"),
        ),
        Family("percentage_base", "the base a count is a percentage of", percentage_bases, None),
        Family("tie_rule", "the majority's tie rule", tie_rules, None),
        Family(
            "tie_definition",
            "what counts as a tied vote: a shared top count, an even two-way split, no strict majority",
            tie_definitions,
            ("ties.shared_top", "ties.even_split", "ties.no_strict_majority"),
        ),
    )
}

VARIANTS = {
    variant.name: variant
    for variant in (
        Variant(
            "alpha.expected_n_minus_1",
            "alpha_expected_disagreement",
            "Krippendorff's alpha, expected disagreement over n(n - 1) pairs",
            alpha.krippendorff_alpha,
        ),
        Variant(
            "alpha.expected_n_squared",
            "alpha_expected_disagreement",
            "alpha with the expected disagreement over all n^2 ordered pairs",
            alpha.alpha_expected_over_n_squared,
        ),
        *(
            Variant(
                f"alpha.{level}", "alpha_distance", f"Krippendorff's alpha, {level} metric", alpha.krippendorff_alpha
            )
            for level in alpha.LEVELS
        ),
        Variant("kappa.fleiss", "chance_model", "Fleiss' kappa (pooled marginals)", multirater.fleiss_kappa),
        Variant("kappa.conger", "chance_model", "Conger's kappa (each rater's marginals)", multirater.conger_kappa),
        Variant(
            "kappa.randolph", "chance_model", "Randolph's free-marginal kappa (chance 1/K)", multirater.randolph_kappa
        ),
        Variant("kappa.light", "chance_model", "Light's kappa (mean pairwise Cohen)", meanpairwise.mean_pairwise_cohen),
        Variant("kappa.scott", "chance_model", "Scott's pi (two raters, pooled marginals)", pairwise.scott_pi),
        Variant("kappa.cohen", "chance_model", "Cohen's kappa (two raters, own marginals)", pairwise.cohen_kappa),
        *(
            Variant(
                f"weights.{name or 'none'}",
                "kappa_weights",
                f"Cohen's kappa, {name or 'no'} weights",
                pairwise.cohen_kappa,
            )
            for name in pairwise.WEIGHTS
        ),
        Variant(
            "missing.pairwise", "missing_ratings", "every available rating (pairwise deletion)", pairwise_available
        ),
        Variant("missing.listwise", "missing_ratings", "only units every rater labelled (listwise deletion)", listwise),
        Variant("categories.declared", "category_set", "K = the declared categories", category_sets),
        Variant("categories.observed", "category_set", "K = the categories someone used", observed_categories),
        Variant("count.items", "counting", "items labelled two or more times", count_items),
        Variant("count.label_pairs", "counting", "pairs of labels within items", count_label_pairs),
        Variant("count.repeat_labels", "counting", "labels beyond each item's first", count_repeat_labels),
        Variant(
            "ties.shared_top",
            "tie_definition",
            "a tie: the top vote count shared by two or more categories",
            tie_definitions,
        ),
        Variant(
            "ties.even_split",
            "tie_definition",
            "a tie: votes split evenly between exactly two categories",
            tie_definitions,
        ),
        Variant(
            "ties.no_strict_majority",
            "tie_definition",
            "a tie: no category has more than half the votes",
            tie_definitions,
        ),
    )
}


def describe(name: str) -> str:
    """The one-line reading of a variant: from the catalogue, or for the families whose
    names depend on their inputs (``base.<name>``, ``tie.<rule>``) from the name itself."""
    if name in VARIANTS:
        return VARIANTS[name].reading
    if name.startswith("base."):
        return f"as a percentage of {name[len('base.') :].replace('_', ' ')}"
    if name.startswith("tie."):
        return f"majority with tie rule {name[len('tie.') :]}"
    if name.startswith("alpha.without_unit_"):
        return f"alpha with unit {name[len('alpha.without_unit_') :]} of the data left out"
    raise ValueError(f"no variant {name!r} in the catalogue")
