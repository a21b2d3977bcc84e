"""Run against run: Cohen's kappa over all pairs of a reader's runs, and run-triples.

What it decides (Shvets 2026, Section 3.5, and the replication's triple analysis):

- Two runs are compared on the units both cover (a unit one run leaves uncovered,
  code -1, is dropped from that pair only).
- Cohen's kappa with a fixed category set: chance p_e = sum over all K categories of
  p_a(k) p_b(k), the two runs' shares on the common units, whether or not a category
  occurs (7 functions on the label layer, boundary / not on the boundary layer). The
  kappa is ``reagree.stats.pairwise.cohen_kappa_tables`` on each pair's K x K table; the
  one addition is the convention for the degenerate case (Shvets 2026, Section 3.5):
  when p_e = 1 (both runs put every common unit in one and the same category) kappa is
  1, where Cohen's formula is undefined. A pair with no common unit is ``Undefined``
  (NaN).
- A reader's value is the plain mean over all unordered pairs of its runs (3 for three
  runs, 45 for ten); gap = boundary kappa - label kappa, from those means.
- A run-triple is any 3 of a reader's runs (C(10, 3) = 120 for ten); its value is the
  mean over its 3 pairs, from the pair matrices computed once.
- A triple *reaches* a threshold t when its gap >= t.
- "Far" runs: start from the pair with the lowest raw agreement (first such pair in
  (i, j) order, i < j); repeatedly add the run whose smallest distance (1 - raw
  agreement) to the chosen runs is largest, lowest index on ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

import numpy as np

from reagree.stats.pairwise import cohen_kappa_tables
from reagree.stats.undefined import Undefined

__all__ = [
    "LAYERS",
    "PairAgreement",
    "cohen_kappa_pairs",
    "count_pairs",
    "count_runs",
    "far_runs",
    "far_runs_agreement",
    "independent_pass_share",
    "label_margin",
    "mean_over_pairs",
    "midpoint_ratio",
    "pair_frame",
    "pair_indices",
    "pair_matrix",
    "reader_rank",
    "reader_summary",
    "run_subsets",
    "threshold_counts",
    "threshold_label",
    "threshold_table",
    "triple_frame",
]


@dataclass(frozen=True)
class PairAgreement:
    """Pair matrices (runs x runs, symmetric) of one layer: common units, observed and
    chance agreement, Cohen's kappa. The diagonal compares a run with itself."""

    n_common: np.ndarray
    observed: np.ndarray
    chance: np.ndarray
    kappa: np.ndarray


def cohen_kappa_pairs(codes: np.ndarray, n_categories: int) -> PairAgreement:
    """Cohen's kappa of every pair of runs at once, on the units both cover.

    ``codes`` is (runs x units) of category codes 0..K-1, -1 where a run does not cover
    the unit. For runs a, b with common units C (n = |C|), their K x K table counts the
    units of C by (a's code, b's code): p_o = its diagonal share; p_e = sum_k (n_a(k) / n)
    (n_b(k) / n) over all K categories; kappa = ``pairwise.cohen_kappa_tables`` of the
    table, and 1 when p_e = 1 (the module docstring's convention). Every pair's table
    comes from one einsum over the one-hot codes. Pairs without a common unit are NaN.

    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20, 37-46.
    """
    codes = np.asarray(codes)
    if codes.ndim != 2:
        raise ValueError(f"codes must be runs x units, got shape {codes.shape}")
    if codes.size and (codes.max() >= n_categories or codes.min() < -1):
        raise ValueError(f"codes must lie in -1..{n_categories - 1}")
    onehot = (codes[:, :, None] == np.arange(n_categories)[None, None, :]).astype(float)  # uncovered: all zero
    tables = np.einsum("auk,bul->abkl", onehot, onehot)  # (runs, runs, K, K) on the units both cover
    n_common = tables.sum(axis=(2, 3))
    margin_a, margin_b = tables.sum(axis=3), tables.sum(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.trace(tables, axis1=2, axis2=3) / n_common
        chance = (margin_a * margin_b).sum(axis=2) / n_common**2
    kappa = np.where(np.isclose(chance, 1.0), 1.0, cohen_kappa_tables(tables))
    return PairAgreement(n_common, observed, chance, np.where(n_common > 0, kappa, np.nan))


def pair_indices(n_runs: int) -> np.ndarray:
    """All unordered pairs (i, j), i < j, in lexicographic order: (C(n, 2) x 2)."""
    return np.asarray(list(combinations(range(n_runs), 2)), dtype=np.int64).reshape(-1, 2)


def run_subsets(n_runs: int, size: int = 3) -> np.ndarray:
    """All subsets of ``size`` runs, in lexicographic order: (C(n, size) x size)."""
    return np.asarray(list(combinations(range(n_runs), size)), dtype=np.int64).reshape(-1, size)


def mean_over_pairs(matrix: np.ndarray, subsets: np.ndarray | None = None) -> np.ndarray | float:
    """Mean of a pair matrix over the unordered pairs inside each subset of runs.

    ``subsets`` (S x k) gives one mean per subset (vectorised: the k(k-1)/2 pairs of
    every subset are gathered at once); None means the one subset of all runs, a float.
    A mean that includes an undefined pair is NaN.
    """
    matrix = np.asarray(matrix, dtype=float)
    if subsets is None:
        pairs = pair_indices(matrix.shape[0])
        if len(pairs) == 0:
            return Undefined("fewer than two runs")
        return float(matrix[pairs[:, 0], pairs[:, 1]].mean())
    subsets = np.asarray(subsets)
    inner = pair_indices(subsets.shape[1])
    return matrix[subsets[:, inner[:, 0]], subsets[:, inner[:, 1]]].mean(axis=1)


def threshold_counts(values: np.ndarray, thresholds: Sequence[float]) -> np.ndarray:
    """How many values reach each threshold (value >= threshold); NaN never does."""
    values = np.asarray(values, dtype=float)
    return np.asarray([(values >= t).sum() for t in thresholds], dtype=np.int64)


def independent_pass_share(shares: Sequence[float]) -> float:
    """Share of independent draws (one triple per text) that pass on every text: the
    product of the per-text shares."""
    return float(np.prod(np.asarray(shares, dtype=float)))


def far_runs(agreement: np.ndarray, size: int = 3) -> list[int]:
    """The ``size`` mutually most different runs, greedily (module docstring).

    ``agreement`` is a symmetric (runs x runs) raw-agreement matrix; distance is
    1 - agreement.
    """
    agreement = np.asarray(agreement, dtype=float)
    n = agreement.shape[0]
    if n < size or size < 2:
        raise ValueError(f"cannot choose {size} of {n} runs")
    pairs = pair_indices(n)
    start = int(np.argmin(agreement[pairs[:, 0], pairs[:, 1]]))  # first minimum in (i, j) order
    chosen = [int(pairs[start, 0]), int(pairs[start, 1])]
    distance = 1.0 - agreement
    while len(chosen) < size:
        rest = [r for r in range(n) if r not in chosen]
        nearest = distance[np.ix_(rest, chosen)].min(axis=1)
        chosen.append(rest[int(np.argmax(nearest))])  # argmax: lowest index on ties
    return chosen


LAYERS = ("label", "boundary")


def pair_frame(labels: np.ndarray, boundaries: np.ndarray, n_labels: int, run_names: Sequence | None = None):
    """One row per unordered pair of runs (i < j): common units and, per layer, observed
    and chance agreement and Cohen's kappa (``cohen_kappa_pairs``), plus gap = boundary
    kappa - label kappa. ``labels`` / ``boundaries`` are (runs x units) codes."""
    import pandas as pd

    label_pairs = cohen_kappa_pairs(labels, n_labels)
    boundary_pairs = cohen_kappa_pairs(boundaries, 2)
    pairs = pair_indices(labels.shape[0])
    names = list(run_names) if run_names is not None else list(range(1, labels.shape[0] + 1))
    i, j = pairs[:, 0], pairs[:, 1]
    frame = pd.DataFrame(
        {
            "run_a": [names[k] for k in i],
            "run_b": [names[k] for k in j],
            "n_common": label_pairs.n_common[i, j].astype(int),
        }
    )
    for layer, table in (("label", label_pairs), ("boundary", boundary_pairs)):
        frame[f"agreement_{layer}"] = table.observed[i, j]
        frame[f"chance_{layer}"] = table.chance[i, j]
        frame[f"kappa_{layer}"] = table.kappa[i, j]
    frame["gap"] = frame["kappa_boundary"] - frame["kappa_label"]
    return frame


def pair_matrix(frame, column: str, n_runs: int, run_names: Sequence | None = None) -> np.ndarray:
    """A ``pair_frame`` column back as a symmetric (runs x runs) matrix (NaN diagonal)."""
    names = list(run_names) if run_names is not None else list(range(1, n_runs + 1))
    index = {name: k for k, name in enumerate(names)}
    matrix = np.full((n_runs, n_runs), np.nan)
    a = frame["run_a"].map(index).to_numpy()
    b = frame["run_b"].map(index).to_numpy()
    matrix[a, b] = matrix[b, a] = frame[column].to_numpy(dtype=float)
    return matrix


def reader_summary(frame) -> dict[str, float]:
    """A reader's values: the mean over its pairs of every agreement, chance and kappa
    column of a ``pair_frame``, and gap = mean boundary kappa - mean label kappa."""
    if frame.empty:
        reason = Undefined("fewer than two runs")
        return {column: reason for column in ("kappa_label", "kappa_boundary", "gap")}
    columns = [f"{measure}_{layer}" for measure in ("agreement", "chance", "kappa") for layer in LAYERS]
    summary = {column: float(frame[column].mean()) for column in columns}
    summary["gap"] = summary["kappa_boundary"] - summary["kappa_label"]
    summary["pairs"] = len(frame)
    return summary


def midpoint_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> float:
    """The midpoint of one range over the midpoint of another: what "31.6% to 37.6% is
    roughly twice the 13.6% to 17.8% expected" compares, each range from its smallest to
    its largest value; Undefined for an empty range or a zero midpoint."""
    if not len(numerators) or not len(denominators):
        return Undefined("an empty range")
    top = (min(numerators) + max(numerators)) / 2
    bottom = (min(denominators) + max(denominators)) / 2
    return Undefined("the second range's midpoint is 0") if bottom == 0 else float(top / bottom)


def triple_frame(frame, n_runs: int, size: int = 3, run_names: Sequence | None = None):
    """Every ``size``-subset of a reader's runs with the mean over its pairs of label
    kappa, boundary kappa and raw label agreement, and gap = boundary - label kappa;
    from the pair matrices (each pair computed once)."""
    import pandas as pd

    names = list(run_names) if run_names is not None else list(range(1, n_runs + 1))
    subsets = run_subsets(n_runs, size)
    out = pd.DataFrame({"runs": ["+".join(str(names[k]) for k in subset) for subset in subsets]})
    for column in ("kappa_boundary", "kappa_label", "agreement_label"):
        out[column] = mean_over_pairs(pair_matrix(frame, column, n_runs, names), subsets)
    out["gap"] = out["kappa_boundary"] - out["kappa_label"]
    return out


def threshold_label(threshold: float | str) -> str:
    """A threshold as a key segment: ``human_gap``; 0.25 -> ``at_0_25``; -0.1 -> ``at_-0_1``."""
    if isinstance(threshold, str):
        return threshold
    return "at_" + f"{float(threshold):g}".replace(".", "_")


def threshold_table(gaps: np.ndarray, thresholds: dict[str, float]):
    """For each named threshold: its value, how many gaps reach it (>=), of how many, and
    the share."""
    import pandas as pd

    gaps = np.asarray(gaps, dtype=float)
    counts = threshold_counts(gaps, list(thresholds.values()))
    total = len(gaps)
    return pd.DataFrame(
        {
            "threshold": list(thresholds),
            "value": list(thresholds.values()),
            "reached": counts,
            "triples": total,
            "share": counts / total if total else np.nan,
        }
    )


def far_runs_agreement(frame, n_runs: int, size: int = 3, column: str = "agreement_label") -> tuple[list[int], float]:
    """The ``far_runs`` of a reader (1-based run numbers) from its ``pair_frame`` and the
    mean of ``column`` over their pairs."""
    matrix = pair_matrix(frame, column, n_runs)
    chosen = far_runs(np.where(np.isnan(matrix), 1.0, matrix), size)
    return [k + 1 for k in chosen], float(mean_over_pairs(matrix[np.ix_(chosen, chosen)]))


def label_margin(triple_labels: np.ndarray, reference_means: Sequence[float]) -> float:
    """The lowest triple's label kappa minus the highest of another reader's (per-text
    mean) label kappas: positive when the level alone separates every triple from that
    reader."""
    return float(np.nanmin(triple_labels) - np.nanmax(reference_means))


def reader_rank(values: dict, reader: str) -> int:
    """1 for the reader whose value is the largest, 2 for the next, ... (ties share the
    better rank); Undefined values rank last. ValueError for an unknown reader."""
    if reader not in values:
        raise ValueError(f"no value for reader {reader!r} (readers: {sorted(values)})")
    mine = float(values[reader])
    if not np.isfinite(mine):
        return len(values)
    return 1 + sum(1 for other, value in values.items() if other != reader and float(value) > mine)


def count_runs(frames, by: Sequence[str]) -> int:
    """The number of distinct runs in pair tables (``pair_frame`` rows with the grouping
    columns ``by``, e.g. the text and the reader): distinct (*by, run) over ``run_a`` and
    ``run_b``."""
    runs = set()
    for frame in frames:
        for column in ("run_a", "run_b"):
            runs.update(zip(*(frame[name] for name in by), frame[column]))
    return len(runs)


def count_pairs(frames, column: str, value: object, by: Sequence[str]) -> int:
    """The number of pairs of runs in pair tables whose ``column`` is ``value`` (a reader's
    pairs, say), each (*by, run_a, run_b) counted once (``by``: the grouping columns that
    tell two pairs with the same run numbers apart, e.g. the text)."""
    pairs = set()
    for frame in frames:
        chosen = frame[frame[column] == value]
        pairs.update(zip(*(chosen[name] for name in by), chosen["run_a"], chosen["run_b"]))
    return len(pairs)
