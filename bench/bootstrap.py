"""Benchmark: reagree's vectorised bootstrap against the obvious per-draw loop over the
reference libraries.

Builds a synthetic nominal data set (3 coders, 4 categories, ~7% missing cells) and, for
Krippendorff's alpha (nominal), Fleiss' kappa (complete units) and Cohen's kappa (coders
A and B), times in the same run:

- naive:   the loop a write-up would run, ``rng = numpy.random.default_rng(seed)`` and per
           draw ``idx = rng.integers(0, n, size=n)`` and one reference-library call on the
           resample (krippendorff.alpha / statsmodels fleiss_kappa / sklearn cohen_kappa_score);
- default: ``reagree.stats.bootstrap.bootstrap``, the pipeline's default scheme (one
           multinomial count of units per distinct row of codes per draw), drawing included;
- numpy:   ``bootstrap(..., scheme="numpy")``, the scheme that replays a write-up's loop:
           exactly the naive loop's resamples, drawing included.

Times are CPU seconds of this process (``time.process_time``). Values are checked draw
by draw: the ``numpy`` scheme against the naive loop on every draw (the same resamples),
the default scheme against the same library calls on its own resamples (each row's
first unit repeated by the row's count in the draw) for the first ``--check`` draws. The
script exits with status 1 and a ``FAIL:`` line if any value differs by more than 1e-12,
so a fast but wrong engine cannot pass unnoticed.

    python bench/bootstrap.py [--draws 2000] [--units 24000] [--seed 0] [--check 200] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

try:
    import reagree  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import krippendorff  # noqa: E402
from sklearn.metrics import cohen_kappa_score  # noqa: E402
from statsmodels.stats import inter_rater  # noqa: E402

from reagree.stats.alpha import alpha_statistic  # noqa: E402
from reagree.stats.bootstrap import bootstrap, draw_rows  # noqa: E402
from reagree.stats.multirater import fleiss_statistic  # noqa: E402
from reagree.stats.pairwise import cohen_statistic  # noqa: E402
from reagree.stats.ratings import MISSING, Ratings  # noqa: E402

CATEGORIES = ("other", "balance", "pin", "agent")
PRIOR = (0.46, 0.24, 0.18, 0.12)
ERROR = {"A": 0.10, "B": 0.16, "C": 0.22}
MISSING_RATE = 0.07
TOLERANCE = 1e-12


def synthetic_ratings(n_units: int, seed: int) -> Ratings:
    """3 coders x n_units nominal labels: a latent truth, per-coder errors, ~7% missing."""
    rng = np.random.default_rng(seed)
    k = len(CATEGORIES)
    truth = rng.choice(k, size=n_units, p=PRIOR)
    columns = []
    for error in ERROR.values():
        wrong = (truth + rng.integers(1, k, size=n_units)) % k  # a uniformly chosen other label
        codes = np.where(rng.random(n_units) < error, wrong, truth)
        codes[rng.random(n_units) < MISSING_RATE] = MISSING
        columns.append(codes)
    return Ratings(np.column_stack(columns).astype(np.int64), CATEGORIES, tuple(ERROR))


def timed(function):
    """(value, CPU seconds): ``time.process_time``, which a busy machine inflates far less
    than the wall clock (other processes' time is not counted)."""
    start = time.process_time()
    value = function()
    return value, time.process_time() - start


def max_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Max |a - b| over draws; NaN in one array but not the other counts as infinite."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return float("inf")
    finite = ~np.isnan(a)
    return float(np.max(np.abs(a[finite] - b[finite]), initial=0.0))


def compare(name: str, statistic, naive_one, n_units: int, draws: int, seed: int, check: int) -> dict:
    """Time the naive loop (its own draws included) and both engine schemes, and compare
    values (module docstring).

    ``naive_one(idx)`` is the reference library on the resample ``idx`` of ``n_units`` units.
    """

    def naive():
        rng = np.random.default_rng(seed)
        return np.array([naive_one(rng.integers(0, n_units, size=n_units)) for _ in range(draws)], dtype=float)

    naive_values, naive_time = timed(naive)
    default_values, default_time = timed(lambda: bootstrap([statistic], draws, seed)[0])
    numpy_values, numpy_time = timed(lambda: bootstrap([statistic], draws, seed, scheme="numpy")[0])
    rows, counts = draw_rows(statistic, min(check, draws), seed)
    checked = np.array([naive_one(np.repeat(rows.first, row)) for row in counts], dtype=float)
    return dict(
        name=name,
        units=n_units,
        rows=rows.n_rows,
        naive=naive_time,
        default=default_time,
        numpy=numpy_time,
        default_diff=max_difference(checked, default_values[: len(checked)]),
        checked=len(checked),
        numpy_diff=max_difference(naive_values, numpy_values),
    )


def bench_alpha(ratings: Ratings, draws: int, seed: int, check: int) -> dict:
    domain = np.arange(ratings.n_categories, dtype=float)  # the codes reagree's nominal alpha uses
    data = np.where(ratings.codes == MISSING, np.nan, ratings.codes.astype(float)).T  # coders x units
    return compare(
        "Krippendorff alpha (nominal)",
        alpha_statistic(ratings, "nominal"),
        lambda idx: krippendorff.alpha(
            reliability_data=data[:, idx], level_of_measurement="nominal", value_domain=domain
        ),
        ratings.n_units,
        draws,
        seed,
        check,
    )


def bench_fleiss(ratings: Ratings, draws: int, seed: int, check: int) -> dict:
    counts = ratings.complete().unit_counts()
    return compare(
        "Fleiss kappa (complete units)",
        fleiss_statistic(counts),
        lambda idx: inter_rater.fleiss_kappa(counts[idx], method="fleiss"),
        len(counts),
        draws,
        seed,
        check,
    )


def bench_cohen(ratings: Ratings, draws: int, seed: int, check: int) -> dict:
    a = ratings.codes[:, ratings.raters.index("A")]
    b = ratings.codes[:, ratings.raters.index("B")]
    labels = list(range(ratings.n_categories))

    def naive_one(idx):
        x, y = a[idx], b[idx]
        both = (x != MISSING) & (y != MISSING)
        return cohen_kappa_score(x[both], y[both], labels=labels)

    return compare(
        "Cohen kappa (A, B)", cohen_statistic(ratings, "A", "B"), naive_one, ratings.n_units, draws, seed, check
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=None, help="bootstrap draws (default 2000; 200 with --quick)")
    parser.add_argument("--units", type=int, default=None, help="units (default 24000; 2400 with --quick)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the data and of the resamples (default 0)")
    parser.add_argument(
        "--check", type=int, default=200, help="default-scheme draws checked against the library (default 200)"
    )
    parser.add_argument("--quick", action="store_true", help="smoke run: 200 draws on 2400 units")
    args = parser.parse_args(argv)
    draws = args.draws if args.draws is not None else (200 if args.quick else 2000)
    units = args.units if args.units is not None else (2400 if args.quick else 24000)
    if draws < 1 or units < 2:
        parser.error("need --draws >= 1 and --units >= 2")

    ratings = synthetic_ratings(units, args.seed)
    missing = float((ratings.codes == MISSING).mean())
    print(
        f"data: {ratings.n_raters} coders x {units} units, {ratings.n_categories} categories, "
        f"{missing:.1%} missing cells, seed {args.seed}; {draws} draws; "
        f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )

    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 0/0 on a degenerate resample is reported as NaN
        for bench in (bench_alpha, bench_fleiss, bench_cohen):
            rows.append(bench(ratings, draws, args.seed, args.check))

    header = (
        f"{'coefficient (CPU seconds)':<30} {'units':>6} {'rows':>5} {'naive s':>8} {'default s':>9} "
        f"{'ratio':>7} {'numpy s':>8} {'ratio':>6} {'max |diff| default':>19} {'numpy':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['name']:<30} {row['units']:>6} {row['rows']:>5} {row['naive']:>8.3f} {row['default']:>9.3f} "
            f"{row['naive'] / row['default']:>6.0f}x {row['numpy']:>8.3f} {row['naive'] / row['numpy']:>5.0f}x "
            f"{row['default_diff']:>19.2e} {row['numpy_diff']:>9.2e}"
        )
    bad = [row["name"] for row in rows if not (row["default_diff"] <= TOLERANCE and row["numpy_diff"] <= TOLERANCE)]
    if bad:
        print(f"FAIL: the library and the vectorised values differ by more than {TOLERANCE:g} for: {', '.join(bad)}")
        return 1
    print(
        f"OK: the library and the vectorised values agree within {TOLERANCE:g} (numpy scheme: all {draws} draws; "
        f"default scheme: the first {rows[0]['checked']} draws)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
