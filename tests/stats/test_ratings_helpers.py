"""Small Ratings and classification helpers the paper scripts lean on."""

import numpy as np
import pytest

from reagree.stats.classification import accuracy_against
from reagree.stats.ratings import MISSING, Ratings, check_unit_counts

THREE = ("negative", "neutral", "positive")


def test_recode_to_a_binary_framing_keeps_missing():
    ratings = Ratings(np.array([[0, 1], [2, MISSING]]), THREE, ("a", "b"))
    binary = ratings.recode({"negative": "negative", "neutral": "rest", "positive": "rest"}, ("negative", "rest"))
    assert binary.codes.tolist() == [[0, 1], [1, MISSING]]
    with pytest.raises(ValueError, match="map to nothing"):
        ratings.recode({"negative": "negative"}, ("negative", "rest"))


def test_shares_and_added_column():
    ratings = Ratings(np.array([[0, 1], [2, MISSING]]), THREE, ("a", "b"))
    assert ratings.missing_share() == 0.25
    assert ratings.category_shares().tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    wider = ratings.with_column("c", np.array([1, 1]))
    assert wider.raters == ("a", "b", "c") and wider.codes[:, 2].tolist() == [1, 1]


def test_accuracy_against_counts_missing_as_wrong():
    assert accuracy_against([0, 1, MISSING, 2], [0, 1, 1, 1]) == 0.5
    with pytest.raises(ValueError):
        accuracy_against([0, 1], [0])


def test_check_unit_counts_accepts_whole_counts_and_names_what_is_wrong():
    assert check_unit_counts([[2, 0, 1], [0, 0, 0]]).tolist() == [[2.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    for bad, message in [
        ([[1, -1]], "non-negative"),
        ([[1, float("nan")]], "finite"),
        ([[0.5, 1]], "whole"),
        ([1, 2], "units x categories"),
        ([["x", "y"]], "numbers"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_unit_counts(bad)


def test_ratio_keeps_why_a_value_is_undefined():
    from reagree.stats.undefined import Undefined, ratio, reason_of

    assert ratio(0.109, 0.218) == pytest.approx(0.5)
    assert reason_of(ratio(1.0, 0.0)) == "the denominator is 0"
    assert reason_of(ratio(Undefined("one category in use"), 2.0)) == "one category in use"


def test_agreement_range_and_disagreement_by_hand():
    """Three coders on four items: a-b agree on 3 of 4, a-c on 2 of 4, b-c on 1 of 4."""
    from reagree.stats.pairwise import agreement_range, contingency_table, table_coefficients
    import pandas as pd

    ratings = Ratings.from_labels(
        pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["x", "x", "y", "x"], "c": ["x", "y", "x", "y"]}),
        categories=("x", "y"),
    )
    assert agreement_range(ratings, ["a", "b", "c"]) == (0.25, 0.75)
    assert table_coefficients(contingency_table(ratings, "a", "c"))["disagreement"] == pytest.approx(0.5)
