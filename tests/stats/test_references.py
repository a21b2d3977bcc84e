"""The field's libraries beside reagree's estimates (reagree.stats.references).

Expected values are printed in the cited sources (Krippendorff 2011; Fleiss 1971 and R's
irr; Randolph's calculator; R's irr on the anxiety data); reagree's own coefficients are
then held against the libraries' values at 1e-9, the threshold of a pipeline defect.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reagree.stats import alpha, multirater, pairwise, references
from reagree.stats.ratings import Ratings
from test_published_examples import (
    ANXIETY_RATER2,
    ANXIETY_RATER3,
    FLEISS_1971,
    KRIPPENDORFF_2011_ALPHA,
    WIKIPEDIA_ALPHA,
    krippendorff_2011,
)


@pytest.mark.parametrize("level", list(KRIPPENDORFF_2011_ALPHA))
def test_krippendorff_reference_at_every_level(level):
    ratings = krippendorff_2011()
    found = references.krippendorff_reference(ratings, level)
    assert found.library.startswith("krippendorff ") and f"level_of_measurement='{level}'" in found.library
    assert round(found.value, 3) == KRIPPENDORFF_2011_ALPHA[level]
    assert not references.differs(alpha.krippendorff_alpha(ratings, level), found)
    values = [1, 2, 3, 4, 5] if level in ("interval", "ratio") else None
    from_counts = references.krippendorff_reference(ratings.unit_counts(), level, values=values)
    assert from_counts.value == pytest.approx(found.value, abs=1e-12)


def test_krippendorff_reference_reads_units_by_raters_the_right_way_round():
    # The krippendorff package's documented example prints nominal 0.691358 on 3 coders x 15 units.
    ratings = Ratings.from_labels(pd.DataFrame(WIKIPEDIA_ALPHA.T), categories=(1.0, 2.0, 3.0, 4.0))
    assert round(references.krippendorff_reference(ratings, "nominal").value, 6) == 0.691358
    assert round(references.krippendorff_reference(ratings, "interval").value, 6) == 0.810845


def test_krippendorff_reference_ordinal_follows_the_declared_order():
    # Categories declared in the order low < mid < high, though they sort otherwise.
    ratings = Ratings.from_labels(
        pd.DataFrame({"a": ["low", "mid", "high", "mid", "low"], "b": ["low", "high", "high", "mid", "mid"]}),
        categories=("low", "mid", "high"),
    )
    found = references.krippendorff_reference(ratings, "ordinal")
    assert not references.differs(alpha.krippendorff_alpha(ratings, "ordinal"), found)
    with pytest.raises(ValueError, match="numeric categories"):
        references.krippendorff_reference(ratings, "interval")
    with pytest.raises(ValueError, match="level_of_measurement must be one of"):
        references.krippendorff_reference(ratings, "Nominal")


def test_fleiss_and_randolph_references():
    ratings = Ratings.from_labels(FLEISS_1971, categories=(1, 2, 3, 4, 5))
    fleiss = references.reference_for("fleiss_kappa", ratings)
    assert round(fleiss.value, 7) == 0.4302445  # R irr, kappam.fleiss(diagnoses); Fleiss (1971) prints .430
    assert fleiss.library.startswith("statsmodels ")
    assert not references.differs(multirater.fleiss_kappa(ratings.unit_counts()), fleiss)
    # Randolph's calculator: (7, 1), (3, 5) -> free-marginal 0.214286; a unit nobody rated is dropped.
    counts = np.array([[7, 1], [3, 5], [0, 0]])
    assert round(references.reference_for("randolph_kappa", counts).value, 6) == 0.214286
    assert round(references.fleiss_reference(counts).value, 6) == 0.161905
    with pytest.raises(ValueError, match="missing cells"):
        references.fleiss_reference(krippendorff_2011())


@pytest.mark.parametrize(
    "weights, printed, digits", [(None, -0.006289308, 9), ("linear", 0.1459075, 7), ("quadratic", 0.2520325, 7)]
)
def test_cohen_reference_irr_anxiety(weights, printed, digits):
    ratings = Ratings.from_labels(
        pd.DataFrame({"rater2": ANXIETY_RATER2, "rater3": ANXIETY_RATER3}), categories=(1, 2, 3, 4, 6)
    )
    from_labels = references.cohen_reference(ratings, weights)
    from_table = references.cohen_reference(pairwise.contingency_table(ratings, "rater2", "rater3"), weights)
    assert from_labels.library.startswith("scikit-learn ") and from_table.library.startswith("statsmodels ")
    assert round(from_labels.value, digits) == printed
    assert round(from_table.value, digits) == printed
    assert not references.differs(pairwise.cohen_kappa(ratings, weights=weights), from_labels)


def test_cohen_reference_needs_two_named_raters():
    ratings = Ratings.from_labels(pd.DataFrame({"a": [0, 1], "b": [0, 1], "c": [1, 1]}), categories=(0, 1))
    with pytest.raises(ValueError, match="name the two raters"):
        references.cohen_reference(ratings)
    assert references.cohen_reference(ratings, raters=("a", "b")).value == pytest.approx(1.0)


def test_no_reference_for_a_coefficient_no_library_computes():
    assert references.reference_for("gwet_ac1", np.array([[2, 0], [1, 1]])) is None


def test_differs_at_the_defect_threshold():
    assert not references.differs(0.5, references.Reference("lib", 0.5 + 5e-10))
    assert references.differs(0.5, references.Reference("lib", 0.5 + 5e-9))
    assert not references.differs(float("nan"), float("nan"))
    assert references.differs(float("nan"), 0.5) and references.differs(0.5, float("nan"))


def test_the_largest_difference_from_a_reference_by_hand():
    from reagree.stats.references import Reference, largest_difference

    pairs = [(0.631529, Reference("lib", 0.631529 + 3e-13)), (0.5, 0.5 - 2e-12), (float("nan"), float("nan"))]
    assert largest_difference(pairs) == pytest.approx(2e-12, rel=1e-3)
    assert np.isnan(largest_difference([(0.5, float("nan"))]))
