"""Pair tables of many raters (reagree.stats.pairtables) against one table per pair
counted the plain way, by hand and by scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from reagree.io.annotations import from_long
from reagree.stats.pairtables import pair_tables
from reagree.stats.pairwise import cohen_kappa, contingency_table
from reagree.stats.ratings import MISSING, Ratings

CATEGORIES = ("neg", "neu", "pos")


def sparse_labels(seed: int, n_units: int = 400, n_raters: int = 12) -> pd.DataFrame:
    """Each unit labelled by 1 to 4 of ``n_raters`` raters; some raters label a unit twice
    (the first label is theirs), rows shuffled."""
    rng = np.random.default_rng(seed)
    rows = []
    for unit in range(n_units):
        truth = rng.integers(0, 3)
        for rater in rng.choice(n_raters, size=rng.integers(1, 5), replace=False):
            label = truth if rng.random() < 0.7 else rng.integers(0, 3)
            rows.append((f"u{unit}", f"r{rater:02d}", CATEGORIES[label]))
            if rng.random() < 0.1:
                rows.append((f"u{unit}", f"r{rater:02d}", CATEGORIES[rng.integers(0, 3)]))
    frame = pd.DataFrame(rows, columns=["unit", "rater", "label"])
    return frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)


def test_a_small_case_counted_by_hand():
    # unit 1: A neg, B neg, C pos; unit 2: A pos, C pos; unit 3: B neu (alone)
    frame = pd.DataFrame(
        {
            "unit": ["1", "1", "1", "2", "2", "3"],
            "rater": ["A", "B", "C", "A", "C", "B"],
            "label": ["neg", "neg", "pos", "pos", "pos", "neu"],
        }
    )
    tables = pair_tables(from_long(frame, categories=CATEGORIES))
    assert tables.pairs == [("A", "B"), ("A", "C"), ("B", "C")]
    assert tables.table("A", "B").tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert tables.table("A", "C").tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 1]]
    assert tables.table("C", "B").tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 0]]  # rows: C
    assert tables.shared_units().tolist() == [1, 2, 1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_pair_equals_its_plain_contingency_table(seed):
    annotations = from_long(sparse_labels(seed), categories=CATEGORIES)
    ratings = annotations.inter(min_raters=1).ratings()  # first label of each rater, dense
    tables = pair_tables(annotations)
    expected = {}
    for i, a in enumerate(ratings.raters):
        for b in ratings.raters[i + 1 :]:
            table = contingency_table(ratings, a, b)
            if table.sum():
                expected[(a, b)] = table
    order = [annotations.rater_ids.index(r) for r in ratings.raters]
    assert order == sorted(order)  # the view keeps the annotations' rater order
    assert tables.pairs == list(expected)
    for (a, b), table in zip(tables.pairs, tables.tables):
        assert np.array_equal(table, expected[(a, b)])
    # the same tables from the dense view and from the Ratings
    for other in (pair_tables(annotations.inter(min_raters=1)), pair_tables(ratings)):
        assert other.pairs == tables.pairs and np.array_equal(other.tables, tables.tables)


def test_pairs_that_share_no_unit_are_left_out():
    codes = np.array([[0, 1, MISSING, MISSING], [MISSING, MISSING, 2, 2], [1, 1, MISSING, MISSING]])
    tables = pair_tables(Ratings(codes, CATEGORIES, ("a", "b", "c", "d")))
    assert tables.pairs == [("a", "b"), ("c", "d")]
    assert tables.table("a", "c").sum() == 0


def test_kappas_equal_scikit_learn_on_each_pairs_shared_units():
    ratings = from_long(sparse_labels(5, n_units=2000, n_raters=6), categories=CATEGORIES).inter(min_raters=1).ratings()
    tables = pair_tables(ratings)
    for weights in (None, "linear", "quadratic"):
        kappas = tables.cohen_kappas(weights)
        for (a, b), kappa, table in zip(tables.pairs, kappas, tables.tables):
            x, y = ratings.codes[:, ratings.raters.index(a)], ratings.codes[:, ratings.raters.index(b)]
            both = (x != MISSING) & (y != MISSING)
            assert np.array_equal(confusion_matrix(x[both], y[both], labels=[0, 1, 2]), table)
            assert kappa == pytest.approx(
                cohen_kappa_score(x[both], y[both], labels=[0, 1, 2], weights=weights), abs=1e-12
            )
            assert kappa == cohen_kappa(table, weights=weights)  # one definition: the same bits


def test_an_undefined_kappa_is_nan_and_repeats_views_are_refused():
    frame = pd.DataFrame({"unit": ["1", "2", "1"], "rater": ["A", "A", "B"], "label": ["neg", "neg", "neg"]})
    annotations = from_long(frame, categories=CATEGORIES)
    assert math.isnan(pair_tables(annotations).cohen_kappas()[0])
    with pytest.raises(ValueError, match="repeats='first'"):
        pair_tables(annotations.inter(repeats="all"))


def test_many_raters_beyond_the_dense_table(monkeypatch):
    from reagree.stats import pairtables

    annotations = from_long(sparse_labels(3), categories=CATEGORIES)
    dense = pair_tables(annotations)
    monkeypatch.setattr(pairtables, "_DENSE_CELLS", 10)
    sparse = pair_tables(annotations)
    assert sparse.pairs == dense.pairs and np.array_equal(sparse.tables, dense.tables)


def test_mean_pairwise_kappa_beyond_the_joint_statistic_is_the_same_number(monkeypatch):
    # many raters in a sparse design: the mean over the pairs' tables, bit for bit the
    # value of the joint statistic (both finish the same exact integer sums)
    from reagree.stats import meanpairwise

    ratings = from_long(sparse_labels(4, n_units=600, n_raters=9), categories=CATEGORIES).inter(min_raters=1).ratings()
    joint = meanpairwise.mean_pairwise_cohen(ratings)
    expected = np.mean([cohen_kappa(contingency_table(ratings, a, b)) for a, b in meanpairwise.pairs_used(ratings)])
    assert joint == pytest.approx(expected, abs=1e-12)
    monkeypatch.setattr(meanpairwise, "MAX_CELLS", 0)
    assert not meanpairwise.fits_one_statistic(ratings)
    assert meanpairwise.mean_pairwise_cohen(ratings) == joint


def test_dense_ratings_counted_per_pair_or_by_visiting_pairs_agree(monkeypatch):
    from reagree.stats import pairtables

    rng = np.random.default_rng(8)
    codes = rng.integers(0, 3, size=(500, 4))
    codes[rng.random(codes.shape) < 0.1] = MISSING
    ratings = Ratings(codes, CATEGORIES, ("a", "b", "c", "d"))
    assert pairtables._dense(ratings)
    per_pair = pair_tables(ratings)
    monkeypatch.setattr(pairtables, "_dense", lambda ratings: False)
    visited = pair_tables(ratings)
    assert per_pair.pairs == visited.pairs and np.array_equal(per_pair.tables, visited.tables)
