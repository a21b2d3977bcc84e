"""Krippendorff's alpha with circular and bipolar distances, and ordered levels refused on
text labels that have no declared order.

Cited cases: irrCAC 0.4.4 computed live (``CAC(...).krippendorff()`` under the circular and
bipolar weights of Gwet 2014, ch. 3) on ``raw_4raters`` and a generated table; alpha does
not change when its metric is scaled, so irrCAC's weighted alpha is Krippendorff's alpha
with that distance (Krippendorff 2011 lists both metrics). The krippendorff package
refuses ordinal alpha on text without a ``value_domain``; so does reagree now.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from irrCAC.datasets import raw_4raters
from irrCAC.raw import CAC

from reagree.stats.alpha import krippendorff_alpha
from reagree.stats.ratings import Ratings
from reagree.stats.weights import agreement_weights


@pytest.mark.parametrize("metric", ["circular", "bipolar"])
def test_circular_and_bipolar_alpha_equal_irrcac(metric):
    frames = [raw_4raters()]
    rng = np.random.default_rng(7)
    frames.append(pd.DataFrame(np.where(rng.random((30, 4)) < 0.15, np.nan, rng.integers(1, 6, (30, 4)))))
    categories = [1.0, 2.0, 3.0, 4.0, 5.0]
    for frame in frames:
        ratings = Ratings.from_labels(frame.reset_index(drop=True), categories=categories)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = CAC(
                frame, weights=agreement_weights(metric, categories), categories=categories, digits=15
            ).krippendorff()["est"]["coefficient_value"]
        assert krippendorff_alpha(ratings, metric) == pytest.approx(expected, abs=1e-12)


def test_ordered_levels_refuse_text_sorted_as_text():
    frame = pd.DataFrame({"a": ["low", "high", "mid"], "b": ["low", "mid", "mid"], "c": ["mid", "high", "low"]})
    unordered = Ratings.from_labels(frame)
    assert not unordered.ordered
    with pytest.raises(ValueError, match="sorted as text, which is no order"):
        krippendorff_alpha(unordered, "ordinal")
    assert not np.isnan(krippendorff_alpha(unordered, "nominal"))
    declared = Ratings.from_labels(frame, categories=["low", "mid", "high"])
    assert declared.ordered and not np.isnan(krippendorff_alpha(declared, "ordinal"))
    numbers = Ratings.from_labels(pd.DataFrame({"a": [1, 2, 3], "b": [1, 2, 2]}))
    assert numbers.ordered and numbers.select(["a"]).ordered
