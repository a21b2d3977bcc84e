"""Accuracy-style readings of a K x K agreement table over *ordered* classes.

Used by Mozetič et al. (2016) on self- and inter-annotator agreement tables and on
classifier confusion matrices alike (negative < neutral < positive). The table may be a
confusion matrix or a symmetric coincidence matrix; rows and columns follow the class
order. Written by hand: they are one line each on a table, and scikit-learn's versions
take label vectors, not tables.
"""

from __future__ import annotations

import numpy as np

from reagree.stats.undefined import Undefined

__all__ = ["accuracy", "accuracy_against", "accuracy_within_one", "f1_per_class", "mean_polar_f1"]


def _table(table) -> np.ndarray:
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] != table.shape[1]:
        raise ValueError(f"need a K x K table, got shape {table.shape}")
    return table


def accuracy(table) -> float:
    """Acc = sum of the diagonal / total."""
    table = _table(table)
    total = table.sum()
    return float(np.trace(table) / total) if total else Undefined("empty table")


def accuracy_against(codes, truth) -> float:
    """Share of *all* units whose code equals the reference code; a missing code
    (``MISSING``) counts as wrong, so the denominator is every unit."""
    codes, truth = np.asarray(codes), np.asarray(truth)
    if codes.shape != truth.shape or codes.ndim != 1:
        raise ValueError(f"need two equal-length code vectors, got {codes.shape} and {truth.shape}")
    return float((codes == truth).mean()) if codes.size else Undefined("no units")


def accuracy_within_one(table) -> float:
    """Acc+-1 = share of cells whose classes are at most one step apart: for three ordered
    classes, everything except negative<->positive (Mozetič et al. 2016, Methods)."""
    table = _table(table)
    total = table.sum()
    k = table.shape[0]
    near = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) <= 1
    return float(table[near].sum() / total) if total else Undefined("empty table")


def f1_per_class(table) -> np.ndarray:
    """F1 of each class, 2 n_kk / (n_k. + n_.k) (rows: one reading, columns: the other)."""
    table = _table(table)
    denominator = table.sum(axis=1) + table.sum(axis=0)
    out = []
    for k in range(table.shape[0]):
        out.append(2 * table[k, k] / denominator[k] if denominator[k] else Undefined(f"class {k} never occurs"))
    return np.array(out, dtype=object)


def mean_polar_f1(table) -> float:
    """F1(+-) = mean F1 of the two extreme (polar) classes, the first and the last:
    (F1(negative) + F1(positive)) / 2 (Mozetič et al. 2016; after SemEval's F1_PN)."""
    scores = f1_per_class(table)
    return float((scores[0] + scores[-1]) / 2)
