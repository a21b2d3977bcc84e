"""The variant search (reagree.pipeline.reproduce): which variants reproduce a printed value,
"none of N" otherwise, and which others share a match. Cases worked out by hand."""

from __future__ import annotations

import pytest

from reagree.pipeline.reproduce import search
from reagree.stats.undefined import Undefined


def test_a_mismatch_explained_by_one_variant():
    # 0.2075 does not round to 0.205; 0.20526 does; 0.2299 is nowhere near.
    found = search(
        "0.205",
        {"alpha.expected_n_minus_1": 0.207528, "alpha.expected_n_squared": 0.205255, "alpha.nominal": 0.2299},
        reference="alpha.expected_n_minus_1",
    )
    assert found.status == "mismatch"
    assert [t.name for t in found.reproducing] == ["alpha.expected_n_squared"]
    assert found.explained_by() == "reproduced by alpha.expected_n_squared (0.205255)"
    assert found.summary() == found.explained_by()


def test_none_of_n_counts_the_variants_tried_besides_the_reference():
    found = search("0.205", {"own": 0.2075, "a": 0.3, "b": 0.1, "c": Undefined("needs two raters")}, reference="own")
    assert found.explained_by() == "none of 2 variants tried reproduces 0.205"
    assert found.undefined == (("c", "needs two raters"),)
    assert search("0.205", {"a": 0.3}).explained_by() == "none of 1 variant tried reproduces 0.205"


def test_a_match_that_other_variants_share():
    # Fleiss 0.3912 and Conger 0.3949 both print as 0.39; Randolph's 0.41 does not.
    found = search(
        "0.39", {"kappa.fleiss": 0.3912, "kappa.conger": 0.3949, "kappa.randolph": 0.41}, reference="kappa.fleiss"
    )
    assert found.status == "match"
    assert found.also == ("kappa.conger",)
    assert found.summary() == (
        "matches at printed precision; also reproduced by kappa.conger: the printed value cannot tell them apart"
    )
    alone = search("0.39", {"kappa.fleiss": 0.3912, "kappa.randolph": 0.41}, reference="kappa.fleiss")
    assert alone.summary() == "matches at printed precision; no other variant tried reproduces it"


def test_truncation_and_rounding_up_never_reproduce_the_print():
    # -0.1319 truncates to -0.131 and 9.2318 rounds up to 9.3, but neither is within half a
    # unit of the last printed digit: a rounding reading is a note, not an explanation
    # (9.27 matches outright).
    truncated = search("-0.131", {"own": -0.1319}, reference="own")
    assert truncated.status == "mismatch"
    assert truncated.explained_by() == (
        "no variant tried (none declared for this key); reagree's value does not reproduce -0.131"
    )
    share = search("9.3%", {"count.items": 9.23179, "count.label_pairs": 9.26982}, reference="count.items")
    assert share.explained_by() == "reproduced by count.label_pairs (9.26982)"


def test_percentages_from_proportions():
    found = search("9.3%", {"pairs": 0.0926982}, proportion=True)
    assert found.status is None and found.explained_by() == "reproduced by pairs (0.0926982)"


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="reference 'x' is not among"):
        search("0.5", {"a": 0.5}, reference="x")
    with pytest.raises(ValueError, match="not a printed number"):
        search("half", {"a": 0.5})
    assert search("0.5", {"a": Undefined("no units")}, reference="a").status == "missing"
