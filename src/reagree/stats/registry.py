"""The coefficients reagree reports on a table of ratings, each declared once: its name,
its label, its chance-agreement term in words, the function that computes it (value and
bootstrap), its analytic standard error, and the field library that computes it too.

What this module decides:

- **One place per coefficient.** The audit (``reagree.audit``) computes every coefficient
  listed in ``COEFFICIENTS`` that applies to the table, writes its analytic inference
  where it has one, fills values.tsv's ``reference`` columns from ``reference`` and labels
  the text, the tables, the figures and the report with ``label``. Adding a coefficient
  means adding its function (in its own module), one ``Coefficient`` here and its
  values.tsv key family (``reagree.audit.keys.REGISTRY_FAMILIES``; a test asks for it);
  the render may say beside the label which units it reads (``reagree.audit.render``).
- **Input** (``Sample``): the units' category counts, the counts of the complete units
  (every rater labelled the unit), the labels themselves (for coefficients that need to
  know which rater gave which rating: an ``AnnotationView`` or ``Ratings``), and the agreement
  weights (None: unweighted; a K x K matrix of ``reagree.stats.weights``).
- **Which apply.** ``weighted``: the coefficient has a weighted form (Gwet's family); the
  audit computes it again under each weight scheme when the labels are ordered.
  ``fixed_raters``: it reads each rater's own marginals (Conger), meaningful only when the
  same named raters label the units. ``bootstrap``: its statistic can be resampled
  cheaply (per-unit sums); Conger's can be only for few raters.
- **References** are computed only on tables small enough for the library's own loops
  (``REFERENCE_MAX_CELLS`` units x raters cells); above, the reference columns stay empty
  and the audit says why. irrCAC gets every category in ``categories=`` (under pandas 3 it
  would otherwise count NaN as a category) and ``digits=15`` (it rounds to 5 by default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib.metadata import version
from typing import Callable

import numpy as np

from reagree.stats import asymptotic, gwet, multirater
from reagree.stats.alpha import alpha_statistic
from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.inference import Estimate
from reagree.stats.ratings import MISSING
from reagree.stats.references import Reference, fleiss_reference, krippendorff_reference
from reagree.stats.weights import agreement_weights

__all__ = [
    "BY_NAME",
    "COEFFICIENTS",
    "REFERENCE_MAX_CELLS",
    "Coefficient",
    "ReferenceWithSe",
    "Sample",
    "alpha",
    "references_apply",
]

# Above this many units x raters cells the field libraries' references are not computed
# (irrCAC loops in pandas per category and per rater; a million cells take minutes).
REFERENCE_MAX_CELLS = 200_000


@dataclass(frozen=True, eq=False)
class Sample:
    """What a coefficient reads (module docstring)."""

    counts: np.ndarray
    complete_counts: np.ndarray
    labels: object
    categories: tuple
    weights: np.ndarray | None = None
    scheme: str = "identity"


@dataclass(frozen=True)
class Coefficient:
    """One coefficient, declared once (module docstring). ``label`` names it in the text,
    the tables and the figures (short: a figure's tick); ``weighted_label`` names its
    weighted form (default: the label and ", weighted")."""

    name: str
    label: str
    chance: str
    source: str
    statistic: Callable[[Sample], UnitStatistic] | None
    inference: Callable[[Sample], Estimate] | None
    reference: Callable[[Sample], Reference] | None = None
    reference_se: bool = False
    weighted: bool = False
    fixed_raters: bool = False
    bootstrap: str = "always"
    no_inference: str = ""
    weighted_label: str = ""

    def label_weighted(self) -> str:
        return self.weighted_label or f"{self.label}, weighted"


# --- the field libraries' values -------------------------------------------------------------


def _dense_frame(sample: Sample):
    """The ratings as irrCAC reads them: a units x raters DataFrame of category positions
    1..K (NaN where missing), with the categories passed explicitly."""
    import pandas as pd

    labels = sample.labels
    if hasattr(labels, "ratings"):
        labels = labels.ratings()
    codes = np.asarray(labels.codes, dtype=float)
    codes = np.where(codes == MISSING, np.nan, codes + 1)
    return pd.DataFrame(codes, columns=[str(r) for r in labels.raters])


def _irrcac(method: str, scheme: str | None = None, values=None) -> Callable[[Sample], Reference]:
    """irrCAC's ``CAC(...).method()`` on the sample, under the sample's weights (or, for
    alpha's circular and bipolar metrics, ``scheme``'s weights over ``values``)."""

    def reference(sample: Sample) -> Reference:
        import warnings

        try:
            from irrCAC.raw import CAC
        except ImportError:  # optional: the lock installs it (tests/packaging/test_dependencies.py)
            return ReferenceWithSe("irrCAC not installed", math.nan)

        categories = [float(i) for i in range(1, len(sample.categories) + 1)]
        weights = sample.weights if sample.weights is not None else "identity"
        named = sample.scheme
        if scheme is not None:
            weights, named = agreement_weights(scheme, values), scheme
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                found = getattr(CAC(_dense_frame(sample), weights=weights, categories=categories, digits=15), method)()[
                    "est"
                ]
                value, se = float(found["coefficient_value"]), float(found["se"])
            except (ValueError, ZeroDivisionError, FloatingPointError):
                value = se = math.nan
        call = f"irrCAC {version('irrCAC')}: CAC(weights={named!r}).{method}()"
        return ReferenceWithSe(call, value, se)

    reference.__name__ = f"irrcac_{method}"
    return reference


class ReferenceWithSe(Reference):
    """A ``Reference`` whose library also gives a standard error (``se``)."""

    def __new__(cls, library: str, value: float, se: float = math.nan):
        made = super().__new__(cls, library, value)
        made.se = se
        return made


def _fleiss_complete_reference(sample: Sample) -> Reference:
    return fleiss_reference(sample.complete_counts)


def _alpha_reference(level: str, values) -> Callable[[Sample], Reference]:
    def reference(sample: Sample) -> Reference:
        return krippendorff_reference(sample.counts, level, values=values if level in ("interval", "ratio") else None)

    return reference


# --- the coefficients ------------------------------------------------------------------------


def _counts_estimate(coefficient: str) -> Callable[[Sample], Estimate]:
    def inference(sample: Sample) -> Estimate:
        return gwet.estimate(sample.counts, coefficient, sample.weights)

    return inference


def _counts_statistic(coefficient: str, unweighted: Callable) -> Callable[[Sample], UnitStatistic]:
    def statistic(sample: Sample) -> UnitStatistic:
        if sample.weights is None:
            return unweighted(sample.counts)
        return gwet.weighted_statistic(sample.counts, coefficient, sample.weights)

    return statistic


def _conger_statistic(sample: Sample) -> UnitStatistic:
    labels = sample.labels.ratings() if hasattr(sample.labels, "ratings") else sample.labels
    return gwet.conger_statistic(labels, sample.weights)


COEFFICIENTS: tuple[Coefficient, ...] = (
    Coefficient(
        "percent_agreement",
        "percent agreement",
        "none (P_e = 0)",
        "Fleiss (1971), P_bar; Gwet (2014) for its variance",
        _counts_statistic("percent_agreement", multirater.percent_agreement_statistic),
        _counts_estimate("percent_agreement"),
        weighted=True,
    ),
    Coefficient(
        "fleiss_kappa",
        "Fleiss' kappa, complete units",
        "sum_k p_k^2, p_k the category shares of the complete units",
        "Fleiss (1971)",
        lambda s: multirater.fleiss_statistic(s.complete_counts),
        lambda s: asymptotic.fleiss_null(s.complete_counts),
        _fleiss_complete_reference,
    ),
    Coefficient(
        "fleiss_kappa_gwet",
        "Fleiss' kappa, Gwet's form",
        "sum_kl w_kl pi_k pi_l, pi_k the mean over units of each unit's share in k",
        "Fleiss (1971); Gwet (2014, ch. 5) for unequal numbers of ratings",
        lambda s: gwet.weighted_statistic(s.counts, "fleiss", s.weights),
        _counts_estimate("fleiss"),
        _irrcac("fleiss"),
        reference_se=True,
        weighted=True,
    ),
    Coefficient(
        "gwet_ac1",
        "Gwet's AC1",
        "T_w / (K (K - 1)) sum_k pi_k (1 - pi_k)",
        "Gwet (2008)",
        _counts_statistic("gwet_ac", multirater.gwet_ac1_statistic),
        _counts_estimate("gwet_ac"),
        _irrcac("gwet"),
        reference_se=True,
        weighted=True,
        weighted_label="Gwet's AC2",
    ),
    Coefficient(
        "pabak",
        "PABAK",
        "T_w / K^2 (1/K unweighted)",
        "Brennan & Prediger (1981)",
        _counts_statistic("brennan_prediger", multirater.brennan_prediger_statistic),
        _counts_estimate("brennan_prediger"),
        _irrcac("bp"),
        reference_se=True,
        weighted=True,
        weighted_label="Brennan-Prediger, weighted",
    ),
    Coefficient(
        "conger_kappa",
        "Conger's kappa",
        "sum_kl w_kl (pbar_k pbar_l - s_kl / R), from each rater's own marginals",
        "Conger (1980)",
        _conger_statistic,
        lambda s: gwet.conger(s.labels, s.weights),
        _irrcac("conger"),
        reference_se=True,
        weighted=True,
        fixed_raters=True,
        bootstrap="few raters",
    ),
)
BY_NAME = {coefficient.name: coefficient for coefficient in COEFFICIENTS}


def alpha(level: str, values=None) -> Coefficient:
    """Krippendorff's alpha at ``level`` (interval and ratio read ``values``): bootstrap only."""
    numeric = level in ("interval", "ratio", "circular", "bipolar")
    # the krippendorff package has no circular or bipolar metric; irrCAC's alpha under those
    # weights is the same number (alpha does not change when its metric is scaled)
    reference = (
        _alpha_reference(level, values)
        if level in ("nominal", "ordinal", "interval", "ratio")
        else _irrcac("krippendorff", level, values)
    )
    return Coefficient(
        f"krippendorff_alpha.{level}",
        f"Krippendorff's alpha, {level}",
        "D_e: the disagreement expected from the pooled values (coincidence marginals)",
        "Krippendorff (2011)",
        lambda s: alpha_statistic(s.counts, level, values=values if numeric else None),
        None,
        reference,
        no_inference="alpha has no analytic standard error here: bootstrap only",
    )


def references_apply(n_units: int, n_raters: int) -> bool:
    """Whether the field libraries' references are computed for a table of this size."""
    return n_units * n_raters <= REFERENCE_MAX_CELLS
