"""The registry of coefficients (``reagree.stats.registry``): each declared once, each
value equal to its declared reference (the field library's own call), each analytic
standard error equal to the library's where the library gives one.

Cited case: Gwet 2014, Table 2.16 (irrCAC's ``raw_4raters``), with a weighted scheme, and a
generated complete table (statsmodels' Fleiss on complete data).
"""

from __future__ import annotations

import numpy as np
import pytest
from irrCAC.datasets import raw_4raters

from reagree.stats import registry
from reagree.stats.ratings import Ratings
from reagree.stats.weights import agreement_weights


def _sample(ratings: Ratings, scheme: str = "identity") -> registry.Sample:
    counts = ratings.unit_counts()
    complete = np.where((counts.sum(axis=1) == ratings.n_raters)[:, None], counts, 0)
    weights = None if scheme == "identity" else agreement_weights(scheme, [float(c) for c in ratings.categories])
    return registry.Sample(counts, complete, ratings, ratings.categories, weights, scheme)


def test_names_are_declared_once():
    names = [c.name for c in registry.COEFFICIENTS]
    assert len(names) == len(set(names)) and set(names) == set(registry.BY_NAME)


def test_every_coefficient_has_a_values_key_family():
    """A coefficient added to the registry reaches values.tsv (and its reference columns)
    only through a key family: ``reagree.audit.keys.REGISTRY_FAMILIES`` must name each."""
    from reagree.audit.keys import REGISTRY_FAMILIES

    assert set(REGISTRY_FAMILIES) == {c.name for c in registry.COEFFICIENTS}


@pytest.mark.parametrize("scheme", ["identity", "quadratic"])
def test_every_value_and_se_equals_its_reference(scheme):
    frame = raw_4raters().reset_index(drop=True)
    sample = _sample(Ratings.from_labels(frame, categories=[1.0, 2.0, 3.0, 4.0, 5.0]), scheme)
    for coefficient in registry.COEFFICIENTS:
        if scheme != "identity" and not coefficient.weighted:
            continue
        value = coefficient.statistic(sample).value()
        estimate = coefficient.inference(sample)
        assert value == pytest.approx(float(estimate.value), abs=1e-12), coefficient.name
        if coefficient.reference is None:
            continue
        found = coefficient.reference(sample)
        if coefficient.name == "fleiss_kappa":  # statsmodels on the complete units only (here one: undefined)
            assert np.isnan(found.value) or found.value == pytest.approx(value, abs=1e-9)
            continue
        assert found.value == pytest.approx(value, abs=1e-9), coefficient.name
        if coefficient.reference_se:
            assert found.se == pytest.approx(estimate.se, abs=1e-9), coefficient.name


def test_alpha_entries_equal_their_references():
    rng = np.random.default_rng(3)
    codes = np.where(rng.random((25, 3)) < 0.8, rng.integers(0, 4, (25, 1)), rng.integers(0, 4, (25, 3)))
    ratings = Ratings(codes, (1.0, 2.0, 3.0, 4.0), ("a", "b", "c"))
    sample = _sample(ratings)
    for level in ("nominal", "ordinal", "interval", "ratio", "circular", "bipolar"):
        entry = registry.alpha(level, values=(1.0, 2.0, 3.0, 4.0))
        assert entry.inference is None and "bootstrap only" in entry.no_inference
        assert entry.reference(sample).value == pytest.approx(entry.statistic(sample).value(), abs=1e-9), level


def test_fleiss_complete_form_equals_statsmodels_on_complete_units():
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 3, (20, 4))
    codes[:5, 0] = -1  # five units incomplete: the complete form reads the other fifteen
    sample = _sample(Ratings(codes, (0, 1, 2), tuple("abcd")))
    entry = registry.BY_NAME["fleiss_kappa"]
    assert entry.reference(sample).value == pytest.approx(entry.statistic(sample).value(), abs=1e-12)
