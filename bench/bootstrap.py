"""Benchmark: reagree's vectorised bootstrap against the obvious per-draw loop over the
reference libraries.

Builds a synthetic nominal data set (3 coders, 4 categories, ~7% missing cells) and, for
Krippendorff's alpha (nominal), Fleiss' kappa (complete units) and Cohen's kappa (coders
A and B), times in the same run:

- naive:  the loop a write-up would run, ``rng = numpy.random.default_rng(seed)`` and per
          draw ``idx = rng.integers(0, n, size=n)`` and one reference-library call on the
          resample (krippendorff.alpha / statsmodels fleiss_kappa / sklearn cohen_kappa_score);
- engine: ``reagree.stats.bootstrap.bootstrap``, the path the pipeline uses, drawing included.

Both draw the very same resamples (the engine's draws are exactly that loop's), so the
values must agree draw by draw: the script exits with status 1 if they differ by more
than 1e-12 on any draw, so a fast but wrong engine cannot pass unnoticed.

    python bench/bootstrap.py [--draws 2000] [--units 24000] [--seed 0] [--quick]
"""

from __future__ import annotations

import argparse
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
from reagree.stats.bootstrap import bootstrap  # noqa: E402
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
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def max_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Max |a - b| over draws; NaN in one array but not the other counts as infinite."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return float("inf")
    finite = ~np.isnan(a)
    return float(np.max(np.abs(a[finite] - b[finite]), initial=0.0))


def compare(name: str, statistic, naive_one, n_units: int, draws: int, seed: int) -> dict:
    """Time the naive loop (its own draws included) and the engine, and compare values.

    ``naive_one(idx)`` is the reference library on the resample ``idx`` of ``n_units`` units.
    """
    def naive():
        rng = np.random.default_rng(seed)
        return np.array([naive_one(rng.integers(0, n_units, size=n_units)) for _ in range(draws)], dtype=float)

    naive_values, naive_time = timed(naive)
    engine_values, engine_time = timed(lambda: bootstrap([statistic], draws, seed)[0])
    return dict(name=name, units=n_units, naive=naive_time, engine=engine_time,
                diff=max_difference(naive_values, engine_values))


def bench_alpha(ratings: Ratings, draws: int, seed: int) -> dict:
    domain = np.arange(ratings.n_categories, dtype=float)  # the codes reagree's nominal alpha uses
    data = np.where(ratings.codes == MISSING, np.nan, ratings.codes.astype(float)).T  # coders x units
    return compare("Krippendorff alpha (nominal)", alpha_statistic(ratings, "nominal"),
                   lambda idx: krippendorff.alpha(reliability_data=data[:, idx], level_of_measurement="nominal",
                                                  value_domain=domain), ratings.n_units, draws, seed)


def bench_fleiss(ratings: Ratings, draws: int, seed: int) -> dict:
    counts = ratings.complete().unit_counts()
    return compare("Fleiss kappa (complete units)", fleiss_statistic(counts),
                   lambda idx: inter_rater.fleiss_kappa(counts[idx], method="fleiss"), len(counts), draws, seed)


def bench_cohen(ratings: Ratings, draws: int, seed: int) -> dict:
    a = ratings.codes[:, ratings.raters.index("A")]
    b = ratings.codes[:, ratings.raters.index("B")]
    labels = list(range(ratings.n_categories))

    def naive_one(idx):
        x, y = a[idx], b[idx]
        both = (x != MISSING) & (y != MISSING)
        return cohen_kappa_score(x[both], y[both], labels=labels)

    return compare("Cohen kappa (A, B)", cohen_statistic(ratings, "A", "B"), naive_one, ratings.n_units, draws, seed)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=None, help="bootstrap draws (default 2000; 200 with --quick)")
    parser.add_argument("--units", type=int, default=None, help="units (default 24000; 2400 with --quick)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the data and of the resamples (default 0)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 200 draws on 2400 units")
    args = parser.parse_args(argv)
    draws = args.draws if args.draws is not None else (200 if args.quick else 2000)
    units = args.units if args.units is not None else (2400 if args.quick else 24000)
    if draws < 1 or units < 2:
        parser.error("need --draws >= 1 and --units >= 2")

    ratings = synthetic_ratings(units, args.seed)
    missing = float((ratings.codes == MISSING).mean())
    print(f"data: {ratings.n_raters} coders x {units} units, {ratings.n_categories} categories, "
          f"{missing:.1%} missing cells, seed {args.seed}; {draws} draws")

    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 0/0 on a degenerate resample is reported as NaN
        for bench in (bench_alpha, bench_fleiss, bench_cohen):
            rows.append(bench(ratings, draws, args.seed))

    header = f"{'coefficient':<30} {'units':>6} {'naive s':>9} {'engine s':>9} {'ratio':>8} {'max |diff|':>11}"
    print(header)
    print("-" * len(header))
    for row in rows:
        print(f"{row['name']:<30} {row['units']:>6} {row['naive']:>9.3f} {row['engine']:>9.3f} "
              f"{row['naive'] / row['engine']:>7.0f}x {row['diff']:>11.2e}")
    bad = [row["name"] for row in rows if not row["diff"] <= TOLERANCE]
    if bad:
        print(f"FAIL: naive and vectorised values differ by more than {TOLERANCE:g} for: {', '.join(bad)}")
        return 1
    print(f"OK: naive and vectorised values agree within {TOLERANCE:g} on every draw")
    return 0


if __name__ == "__main__":
    sys.exit(main())
