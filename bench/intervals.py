"""Benchmark: the jayanetti2026 interval step against the plain per-draw loop.

On the released labels of Jayanetti et al. (2026) (100 tweets, six raters, three tools;
read from the offline mirror), times in the same run:

- the write-up's five intervals (human Fleiss three-class; the two binary gains, paired;
  RoBERTa's positive-vs-rest minus three-class kappa, paired; RoBERTa's positive-vs-rest
  kappa) and the tools' kappa against the released majority in every framing, all under
  the write-up's scheme (``numpy``): 12 statistics on the same draws, and the three
  paired differences:
    naive:  ``rng = numpy.random.default_rng(seed)``, per draw ``idx = rng.integers(0, n,
            size=n)``, then statsmodels ``fleiss_kappa`` / scikit-learn
            ``cohen_kappa_score`` on the resample, and ``numpy.percentile`` at the end,
            as the write-up did;
    engine: ``reagree.stats.bootstrap.bootstrap(..., scheme="numpy")`` and
            ``interval_from_draws`` (the pipeline's path, drawing included);
- the random tie rule: every tool's kappa against ``--tie-breaks`` random majorities in
  every framing:
    naive:  one ``cohen_kappa_score`` per labelling;
    engine: ``reagree.stats.reference.kappa_against_many`` (one weighted evaluation).

Times are CPU seconds of this process (``time.process_time``, which a busy machine
inflates far less than the wall clock). Both sides see the same resamples and
labellings, so the values must agree draw by draw;
the script exits with status 1 and a ``FAIL:`` line if any differs by more than 1e-12.
Timings are printed, never asserted.

    python bench/intervals.py [--draws 2000] [--seed 0] [--tie-breaks 1000] [--mirror DIR] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
try:
    import reagree  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "workflow" / "papers" / "jayanetti2026"))

from sklearn.metrics import cohen_kappa_score  # noqa: E402
from statsmodels.stats import inter_rater  # noqa: E402

from jayanetti2026.release import FRAMINGS, HUMANS, MAJORITY, TOOLS, framed, read_release  # noqa: E402
from reagree.stats.bootstrap import bootstrap, interval_from_draws  # noqa: E402
from reagree.stats.majority import random_majorities  # noqa: E402
from reagree.stats.multirater import fleiss_statistic  # noqa: E402
from reagree.stats.ratings import Ratings  # noqa: E402
from reagree.stats.reference import kappa_against_many, kappa_statistic  # noqa: E402

RELEASE = (
    "raw.githubusercontent.com/himarshaj/hard-to-reach-environments/e74bb77504f534fa11707103f6e5c098017064d2/"
    "sentiment_analysis_tools/sampled_tweets100_translated-majorityvote.tsv"
)
TOLERANCE = 1e-12
PAIRED = [
    ("fleiss three_class", "fleiss neg_vs_rest"),
    ("fleiss three_class", "fleiss pos_vs_rest"),
    ("roberta three_class", "roberta pos_vs_rest"),
]  # the write-up's differences: b minus a


def find_release(mirror: str | None) -> Path:
    for candidate in (mirror, os.environ.get("REAGREE_MIRROR"), ROOT.parent / "shared" / "mirror"):
        if candidate and (Path(candidate) / RELEASE).is_file():
            return Path(candidate) / RELEASE
    sys.exit("no offline mirror with the jayanetti2026 release: pass --mirror DIR or set REAGREE_MIRROR")


def interval_statistics(release):
    """The 12 statistics: human Fleiss per framing and each tool's kappa per framing."""
    statistics, naive = {}, {}
    for framing, ratings in release.ratings.items():
        humans = ratings.select(list(HUMANS))
        counts = humans.unit_counts()
        statistics[f"fleiss {framing}"] = fleiss_statistic(counts)
        naive[f"fleiss {framing}"] = lambda idx, counts=counts: inter_rater.fleiss_kappa(counts[idx])
        majority = ratings.select([MAJORITY]).codes[:, 0]
        for tool in TOOLS:
            labels = ratings.select([tool]).codes[:, 0]
            statistics[f"{tool} {framing}"] = kappa_statistic(ratings, tool, majority)
            naive[f"{tool} {framing}"] = lambda idx, a=labels, b=majority: cohen_kappa_score(a[idx], b[idx])
    return statistics, naive


def run_intervals(release, draws, seed):
    statistics, naive = interval_statistics(release)
    names = list(statistics)
    started = time.process_time()
    rng = np.random.default_rng(seed)
    loop = np.empty((len(names), draws))
    for b in range(draws):
        idx = rng.integers(0, release.three_class.n_units, size=release.three_class.n_units)
        loop[:, b] = [naive[name](idx) for name in names]
    loop_ends = [np.percentile(row, [2.5, 97.5]) for row in loop]
    loop_gains = [np.percentile(loop[names.index(b)] - loop[names.index(a)], [2.5, 97.5]) for a, b in PAIRED]
    naive_seconds = time.process_time() - started

    started = time.process_time()
    values = bootstrap([statistics[name] for name in names], draws, seed, scheme="numpy")
    ends = [interval_from_draws(row, 0.95, "numpy", seed=seed) for row in values]
    gains = [
        interval_from_draws(values[names.index(b)] - values[names.index(a)], 0.95, "numpy", seed=seed)
        for a, b in PAIRED
    ]
    engine_seconds = time.process_time() - started
    difference = max(
        np.nanmax(np.abs(loop - values)),
        max(abs(e.low - r[0]) + abs(e.high - r[1]) for e, r in zip(ends + gains, loop_ends + loop_gains)),
    )
    return len(names), naive_seconds, engine_seconds, difference


def run_random_ties(release, tie_breaks, seed):
    labellings = random_majorities(release.humans, tie_breaks, seed)
    columns = Ratings(labellings.T, release.three_class.categories, tuple(f"l{r}" for r in range(tie_breaks)))
    references = {framing: framed(columns, framing).codes.T for framing in FRAMINGS}
    started = time.process_time()
    loop = {
        (framing, tool): np.array(
            [cohen_kappa_score(release.ratings[framing].select([tool]).codes[:, 0], row) for row in references[framing]]
        )
        for framing in FRAMINGS
        for tool in TOOLS
    }
    naive_seconds = time.process_time() - started
    started = time.process_time()
    engine = {
        (framing, tool): kappa_against_many(release.ratings[framing], tool, references[framing])
        for framing in FRAMINGS
        for tool in TOOLS
    }
    engine_seconds = time.process_time() - started
    difference = max(np.max(np.abs(loop[key] - engine[key])) for key in loop)
    return len(loop), naive_seconds, engine_seconds, difference


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tie-breaks", type=int, default=1000)
    parser.add_argument("--mirror", default=None)
    parser.add_argument("--quick", action="store_true", help="200 draws, 100 tie breaks")
    args = parser.parse_args()
    draws, tie_breaks = (200, 100) if args.quick else (args.draws, args.tie_breaks)
    load = os.getloadavg()
    release = read_release(find_release(args.mirror))

    rows = [
        ("bootstrap intervals", f"{draws} draws", *run_intervals(release, draws, args.seed)),
        ("random tie rule", f"{tie_breaks} breaks", *run_random_ties(release, tie_breaks, args.seed)),
    ]
    print(f"load average at the start {', '.join(f'{x:.2f}' for x in load)}; CPU seconds")
    print(f"{'step':<22}{'size':>12}{'stats':>7}{'naive s':>10}{'engine s':>10}{'ratio':>8}{'max |diff|':>12}")
    print("-" * 81)
    failed = False
    for step, size, count, naive_seconds, engine_seconds, difference in rows:
        print(
            f"{step:<22}{size:>12}{count:>7}{naive_seconds:>10.3f}{engine_seconds:>10.3f}"
            f"{naive_seconds / engine_seconds:>7.0f}x{difference:>12.2e}"
        )
        failed |= not difference <= TOLERANCE
    if failed:
        print(f"FAIL: the engine and the per-draw loop differ by more than {TOLERANCE:g}")
        return 1
    print(f"OK: engine and per-draw loop agree within {TOLERANCE:g} on every draw and interval end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
