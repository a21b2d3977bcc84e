"""Reading released label tables, and majority votes with named tie rules."""

import numpy as np
import pandas as pd
import pytest

from reagree.stats.majority import majority_vote, tied_units
from reagree.stats.ratings import MISSING, Ratings
from reagree.pipeline.readers import read_label_table, require_labels

from conftest import ROOT

MINI = ROOT / "tests" / "fixtures" / "mini_labels.tsv"
SENTIMENT = ("negative", "neutral", "positive")


def test_labels_are_normalised_and_units_are_rows_not_ids():
    table = read_label_table(MINI, ["r1", "r2", "r3", "majority"])
    assert table.index.tolist() == [0, 1, 2]  # two rows share the mangled ID 1.68E+18
    assert table["line"].tolist() == [2, 3, 4]
    assert table.loc[0, ["r1", "r3"]].tolist() == ["negative", "neutral"]
    assert table.loc[1, "r2"] == "neutral"
    assert pd.isna(table.loc[2, "r3"])  # an empty cell is missing, not a label
    require_labels(table, SENTIMENT, MINI)


def test_missing_column_and_bad_label_name_file_line_and_column():
    with pytest.raises(ValueError, match=r"mini_labels.tsv: missing column\(s\) \['r9'\]"):
        read_label_table(MINI, ["r1", "r9"])
    table = read_label_table(MINI, ["r1"])
    with pytest.raises(ValueError, match=r"mini_labels.tsv: line 2, column 'r1': label 'negative'"):
        require_labels(table, ("neutral", "positive"), MINI)


def six_raters(rows):
    return Ratings.from_labels(np.array(rows, dtype=object), categories=SENTIMENT, units_by_raters=True)


def test_tie_rules():
    ratings = six_raters(
        [
            ["negative"] * 3 + ["neutral"] * 3,  # 3-3 with neutral
            ["negative"] * 3 + ["positive"] * 3,  # 3-3 without neutral
            ["positive"] * 4 + ["neutral"] * 2,  # clear majority
            ["neutral"] * 2 + ["negative"] * 2 + ["positive"] * 2,  # 2-2-2
        ]
    )
    assert tied_units(ratings).tolist() == [True, True, False, True]
    neutral, positive = SENTIMENT.index("neutral"), SENTIMENT.index("positive")
    assert majority_vote(ratings, "drop").tolist() == [MISSING, MISSING, positive, MISSING]
    assert majority_vote(ratings, "prefer:neutral").tolist() == [neutral, MISSING, positive, neutral]
    with pytest.raises(ValueError, match="unknown tie rule"):
        majority_vote(ratings, "coin")
    with pytest.raises(ValueError, match="is not one of"):
        majority_vote(ratings, "prefer:mixed")


def test_prefer_rule_names_numeric_categories_as_text():
    ratings = Ratings(np.array([[0, 1], [1, 1]]), (1, 2), ("a", "b"))
    assert majority_vote(ratings, "prefer:2").tolist() == [1, 1]


def test_nobody_rated_is_missing_under_every_rule():
    ratings = Ratings(np.array([[MISSING, MISSING]]), SENTIMENT, ("a", "b"))
    assert not tied_units(ratings)[0]
    assert majority_vote(ratings, "drop").tolist() == [MISSING]
    assert majority_vote(ratings, "prefer:neutral").tolist() == [MISSING]
