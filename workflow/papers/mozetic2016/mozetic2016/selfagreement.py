"""Self- and inter-annotator agreement from repeated labels, the way Mozetič et al. (2016)
compute it.

Conventions (Mozetič, Grčar, Smailović 2016, "Multilingual Twitter Sentiment
Classification: The Role of Human Annotators", PLOS ONE 11(5): e0155036, Methods), so
that every number can be re-derived from this docstring:

- **Values.** The ordered classes negative < neutral < positive carry -1, 0, +1
  (``SENTIMENT_VALUES``); categories are given in that order.
- **Self-agreement units.** One unit per (tweet, annotator) in which the annotator labelled
  the tweet two or more times; that annotator's labels on the tweet are the unit's values
  (``Annotations.self_agreement()``). A tweet labelled three times by one annotator is one
  unit of three values.
- **Inter-agreement units.** One unit per tweet labelled by two or more distinct
  annotators; each annotator contributes the first label it gave the tweet (file order;
  ``Annotations.inter(repeats="first")``), so a repeat by one annotator is self-agreement
  only and never pairs with itself inside an inter unit.
- **One coincidence matrix per kind** (``reagree.stats.alpha.coincidence_matrix`` of the
  units' category counts): each unit with m values contributes all ordered pairs of its
  values weighted 1 / (m - 1). Every measure of a kind is read from that one matrix N:
  Acc = sum_c N(c,c) / N; Acc+-1 = 1 - (N(-,+) + N(+,-)) / N; F1(c) = N(c,c) / N(c) and
  F1 = (F1(-) + F1(+)) / 2; Alpha_int with delta^2 = (v_c - v_k)^2 (neighbouring classes
  1, the extremes 4) and Alpha_nom with delta^2 = [c != k].
- **Intervals.** Alpha_int's bootstrap resamples the units of its kind (self units, or
  inter tweets) with replacement (``reagree.stats.bootstrap``); the paper prints half the
  width of the 95% interval of 1,000 draws as "+-" (``reagree.stats.bootstrap.half_width``).
- **Union (Table 5).** The self and the inter matrices added. Relative gain
  (Alpha_int - Alpha_nom) / Alpha_nom; class distances Alpha_int(-,0) / Alpha_int(-,+) and
  Alpha_int(0,+) / Alpha_int(-,+), each alpha read from the two-class sub-matrix
  (``two_class_alpha``: coincidences involving the third class are dropped, units are not
  re-formed, so a pair keeps its unit's 1 / (m - 1) weight).
- **"Posts annotated twice" (Table 3)** are counted two ways: *posts* (self units; inter
  units) and *label pairs*, sum over units of m (m - 1) / 2 (a tweet labelled three times by
  one annotator is one post and three pairs). Shares are of all labels in the dataset.
  The paper's printed counts are pair counts (one of its datasets has 6,437 posts and
  6,519 pairs; the text says "6,519 annotated twice").
- **Gold label (Table 6 sizes).** One per tweet from all of its labels (every annotator,
  every repeat): equal labels keep their value; neutral + negative -> negative, neutral +
  positive -> positive, negative + positive -> neutral (the paper's rule). The rule is the
  sign of the sum of the values, and that is what is applied to three or more labels
  (``reading="all"``: negative, negative, positive -> negative; negative, neutral,
  positive -> neutral). ``reading="distinct"`` applies it to the set of distinct labels
  instead (negative, negative, positive -> neutral); the two differ only on tweets with
  three or more labels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reagree.stats import classification
from reagree.stats.alpha import (
    alpha_expected_over_n_squared,
    alpha_from_coincidences,
    alpha_statistic,
    coincidence_matrix,
)
from reagree.stats.labels import Annotations, AnnotationView
from reagree.stats.bootstrap import UnitStatistic
from reagree.stats.undefined import Undefined

SENTIMENT_VALUES = (-1.0, 0.0, 1.0)
READINGS = ("all", "distinct")


# --- alpha read from a coincidence matrix (reagree.stats.alpha.alpha_from_coincidences) -------------


def alpha_variant_n_squared(counts, values=SENTIMENT_VALUES) -> float:
    """Interval alpha of per-unit counts with the expected disagreement averaged over all
    n^2 ordered pairs of values instead of Krippendorff's n(n - 1) pairs of distinct
    values: 1 - n sum o delta / sum n_c n_k delta = 1 - (1 - alpha) n / (n - 1). It differs
    from alpha by (1 - alpha) / (n - 1), negligible for large n; kept because it reproduces
    a printed number that alpha does not (one of Mozetič et al.'s self-agreements, on 182
    units). Undefined without units, or where alpha is. The formula is
    ``reagree.stats.alpha.alpha_expected_over_n_squared`` at the interval level."""
    counts = np.asarray(counts)
    if counts.shape[0] == 0:
        return Undefined("no units")
    return alpha_expected_over_n_squared(counts, "interval", values)


def two_class_alpha(matrix, first: int, second: int, level: str = "interval", values=None) -> float:
    """Alpha on the 2 x 2 sub-matrix of classes ``first`` and ``second`` (module
    docstring): how well two classes are told apart, from the pairs involving only them.
    With two classes the nominal and interval readings coincide."""
    matrix = np.asarray(matrix, dtype=float)
    index = [first, second]
    sub_values = None if values is None else np.asarray(values, dtype=float)[index]
    return alpha_from_coincidences(matrix[np.ix_(index, index)], level, sub_values)


# --- Table 4: the four measures of one kind of agreement ------------------------------------


def interval_alpha_statistic(counts, values=SENTIMENT_VALUES) -> UnitStatistic:
    """Alpha_int of the units' counts as a ``UnitStatistic``: its ``value()`` is the
    printed Alpha and its bootstrap draws give the interval (one definition)."""
    return alpha_statistic(counts, "interval", values)


def agreement_measures(counts, values=SENTIMENT_VALUES) -> dict:
    """The measures of Mozetič et al. (2016, Table 4) for units given as category counts:
    ``acc_within_one``, ``acc``, ``f1_polar`` (mean F1 of the first and last class),
    ``alpha_interval`` (with ``values``), ``alpha_nominal``, and ``pairable`` (N, the number
    of pairable labels).

    All are read from the one coincidence matrix of the units: Acc and Acc+-1 are
    ``classification.accuracy`` / ``accuracy_within_one`` on it (classes one step apart in
    the declared order), F1 is ``classification.mean_polar_f1`` (on a symmetric matrix
    F1(c) = N(c,c) / N(c)), the alphas are ``reagree.stats.alpha`` on the counts.
    """
    counts = np.asarray(counts, dtype=float)
    matrix = coincidence_matrix(counts) if counts.shape[0] else np.zeros((counts.shape[1],) * 2)
    empty = matrix.sum() == 0
    nothing = Undefined("no unit has two or more labels")
    return {
        "acc_within_one": nothing if empty else classification.accuracy_within_one(matrix),
        "acc": nothing if empty else classification.accuracy(matrix),
        "f1_polar": nothing if empty else classification.mean_polar_f1(matrix),
        "alpha_interval": interval_alpha_statistic(counts, values).value() if not empty else nothing,
        "alpha_nominal": alpha_statistic(counts, "nominal").value() if not empty else nothing,
        "pairable": float(matrix.sum()),
    }


# --- Table 5: is the order negative < neutral < positive perceived? -------------------------


def relative_gain(interval_alpha: float, nominal_alpha: float) -> float:
    """(Alpha_int - Alpha_nom) / Alpha_nom (Mozetič et al. 2016, Table 5, column 2)."""
    if not np.isfinite(interval_alpha) or not np.isfinite(nominal_alpha) or nominal_alpha == 0:
        return Undefined("an alpha is undefined or Alpha_nom is zero")
    return float((interval_alpha - nominal_alpha) / nominal_alpha)


def ordering_evidence(counts, values=SENTIMENT_VALUES) -> dict:
    """Table 5 of Mozetič et al. (2016) for units given as category counts (classes in the
    order negative, neutral, positive; pass the self and the inter units together for the
    paper's union): ``gain`` = (Alpha_int - Alpha_nom) / Alpha_nom, ``negative_neutral`` =
    Alpha_int(-,0) / Alpha_int(-,+), ``neutral_positive`` = Alpha_int(0,+) / Alpha_int(-,+),
    and the three two-class alphas (``alpha_interval.<a>_<b>``)."""
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 2 or counts.shape[1] != 3:
        raise ValueError(f"ordering evidence needs three ordered classes, got counts of shape {counts.shape}")
    matrix = coincidence_matrix(counts) if counts.shape[0] else np.zeros((3, 3))
    pairs = {"negative_neutral": (0, 1), "neutral_positive": (1, 2), "negative_positive": (0, 2)}
    two_class = {name: two_class_alpha(matrix, a, b, "interval", values) for name, (a, b) in pairs.items()}
    extremes = two_class["negative_positive"]

    def ratio(name: str) -> float:
        if not np.isfinite(two_class[name]) or not np.isfinite(extremes) or extremes == 0:
            return Undefined(
                f"Alpha_int({name.replace('_', ', ')}) or Alpha_int(negative, positive) is undefined or zero"
            )
        return float(two_class[name] / extremes)

    return {
        "gain": relative_gain(
            alpha_from_coincidences(matrix, "interval", values), alpha_from_coincidences(matrix, "nominal")
        ),
        "negative_neutral": ratio("negative_neutral"),
        "neutral_positive": ratio("neutral_positive"),
        **{f"alpha_interval.{name}": value for name, value in two_class.items()},
    }


# --- Table 3: posts labelled more than once ----------------------------------------------


def label_pairs(view: AnnotationView) -> int:
    """Unordered pairs of labels within the view's units: sum of m (m - 1) / 2."""
    m = view.labels_per_unit().astype(np.int64)
    return int((m * (m - 1) // 2).sum())


@dataclass(frozen=True)
class RepeatCounts:
    """Table 3 of Mozetič et al. (2016) for one dataset, in both counting conventions."""

    labels: int
    annotators: int
    tweets: int
    self_posts: int
    self_pairs: int
    inter_posts: int
    inter_pairs: int
    both_posts: int

    def percent(self, count: int) -> float:
        """A count as a percentage of all labels (the paper's share column)."""
        return 100.0 * count / self.labels if self.labels else Undefined("no labels")


def repeat_counts(annotations: Annotations) -> RepeatCounts:
    """Labels, annotators, tweets, and the posts labelled more than once by the same /
    by different annotators, as posts and as label pairs (module docstring).
    ``both_posts``: tweets of both kinds (a repeat by one annotator and a second
    annotator), the only tweets on which the choice of an inter unit's labels matters."""
    own = annotations.self_agreement()
    inter = annotations.inter(repeats="first")
    both = np.intersect1d(own.unit_ids.astype(str), inter.unit_ids.astype(str)).size
    return RepeatCounts(
        labels=annotations.n_labels,
        annotators=annotations.n_raters,
        tweets=annotations.n_units,
        self_posts=own.n_units,
        self_pairs=label_pairs(own),
        inter_posts=inter.n_units,
        inter_pairs=label_pairs(inter),
        both_posts=int(both),
    )


def repeated_share(counts, base: str = "labels") -> float:
    """The posts labelled more than once (self units plus inter units, as Table 3 counts
    them) of several disjoint datasets, pooled: their sum as a percentage of all the
    datasets' labels (``base="labels"``, the share column's base) or of all their tweets
    (``base="tweets"``). Not a mean of the datasets' shares: a large dataset weighs more."""
    counts = list(counts)
    if base not in ("labels", "tweets"):
        raise ValueError(f"base must be 'labels' or 'tweets', got {base!r}")
    repeated = sum(c.self_posts + c.inter_posts for c in counts)
    whole = sum(getattr(c, base) for c in counts)
    return 100.0 * repeated / whole if whole else Undefined(f"no {base}")


# --- Table 6 sizes: one gold label per tweet ---------------------------------------------


def gold_labels(counts, values=SENTIMENT_VALUES, reading: str = "all") -> np.ndarray:
    """One merged label per unit (category code) by the paper's rule (module docstring):
    the category whose value is the sign of the sum of the unit's values
    (``reading="all"``) or of its distinct values (``"distinct"``). Units without labels
    get -1."""
    if reading not in READINGS:
        raise ValueError(f"reading must be one of {READINGS}, got {reading!r}")
    counts = np.asarray(counts)
    values = np.asarray(values, dtype=float)
    if sorted(values.tolist()) != [-1.0, 0.0, 1.0]:
        raise ValueError(f"the merge rule is defined for the values -1, 0, +1, got {values.tolist()}")
    weights = counts if reading == "all" else (counts > 0)
    sign = np.sign(weights @ values)
    code_of = {v: i for i, v in enumerate(values.tolist())}
    codes = np.select([sign < 0, sign > 0], [code_of[-1.0], code_of[1.0]], default=code_of[0.0])
    return np.where(counts.sum(axis=1) > 0, codes, -1)


def gold_counts(annotations: Annotations, reading: str = "all", values=SENTIMENT_VALUES) -> np.ndarray:
    """How many tweets the merged gold labels put in each category (length K)."""
    codes = gold_labels(annotations.unit_counts(), values, reading)
    return np.bincount(codes[codes >= 0], minlength=len(annotations.categories))


def merge_readings_differ(annotations: Annotations, values=SENTIMENT_VALUES) -> int:
    """On how many tweets the two readings of the merge rule give different gold labels."""
    counts = annotations.unit_counts()
    return int((gold_labels(counts, values, "all") != gold_labels(counts, values, "distinct")).sum())


# --- the units of each kind ----------------------------------------------------------------


def agreement_counts(annotations: Annotations) -> dict:
    """Per-unit category counts of the self units, the inter units and their union
    (self rows, then inter rows), as the module docstring defines them."""
    own = annotations.self_agreement().counts
    inter = annotations.inter(repeats="first").counts
    return {"self": own, "inter": inter, "union": np.vstack([own, inter])}


def tweets_labelled_at_least(annotations: Annotations, times: int) -> int:
    """How many tweets carry at least ``times`` labels (any annotators, repeats included)."""
    return int((annotations.unit_counts().sum(axis=1) >= times).sum())


def annotator_units(own: AnnotationView, annotator) -> AnnotationView:
    """The self-agreement units (``Annotations.self_agreement()``) of one annotator."""
    return own.subset(own.unit_raters == annotator) if own.unit_raters is not None else own


def annotator_self_agreement(annotations: Annotations, values=SENTIMENT_VALUES) -> list[dict]:
    """Per annotator, in ``rater_ids`` order: ``annotator``, ``labels``, ``percent_labels``
    (of all labels), ``self_posts``, ``self_pairs`` and ``alpha_interval`` of that
    annotator's self-agreement units alone (Undefined without any)."""
    own = annotations.self_agreement()
    given = annotations.labels_per_rater()
    rows = []
    for index, annotator in enumerate(annotations.rater_ids):
        mine = annotator_units(own, annotator)
        alpha = (
            interval_alpha_statistic(mine.counts, values).value()
            if mine.n_units
            else Undefined("this annotator labelled no tweet twice")
        )
        rows.append(
            {
                "annotator": annotator,
                "labels": int(given[index]),
                "percent_labels": float(100.0 * given[index] / annotations.n_labels),
                "self_posts": mine.n_units,
                "self_pairs": label_pairs(mine),
                "alpha_interval": alpha,
            }
        )
    return rows


def average_evidence(rows) -> dict:
    """The mean of ``gain``, ``negative_neutral`` and ``neutral_positive`` over several
    datasets' ``ordering_evidence`` (the paper's Average* row is such a mean); a measure
    undefined on any dataset is left out of its mean, and Undefined when none is left."""
    rows = list(rows)
    out = {}
    for name in ("gain", "negative_neutral", "neutral_positive"):
        defined = [float(row[name]) for row in rows if np.isfinite(row[name])]
        out[name] = float(np.mean(defined)) if defined else Undefined("no dataset with a defined value")
    return out
