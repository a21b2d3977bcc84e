"""Benchmark: Mozetič et al. (2016) at full scale, on a synthetic CLARIN-format file.

Writes a synthetic ``TweetID,HandLabel,AnnotatorID`` file of about 1.6 million rows (the
size of the whole CLARIN.SI 11356/1054 release), then times, in one run:

- reagree: parsing (``reagree.io.annotations.read_annotations``, ids kept as text and
  checked), Table 1 (labels, gold labels under both readings of the merge rule), Table 3
  (posts and label pairs), Table 4 (self and inter Acc+-1, Acc, F1, Alpha_int, Alpha_nom
  and a 1,000-draw bootstrap interval for each Alpha) and Table 5 (ordering evidence on
  the union), with the process's peak memory;
- plain: the same two intervals the plain way, a Python loop with one
  ``krippendorff.alpha(reliability_data=..., level_of_measurement="interval")`` call per
  draw, on exactly the engine's resamples (``reagree.stats.bootstrap.draw_rows``: draw b's
  count of units per row, each row's first unit repeated by its count). Every draw's
  value is compared; the script exits 1 with a ``FAIL:`` line if any differs by more than
  1e-9;
- the contingency table of every pair of the 83 annotators (``reagree.stats.pairtables``)
  against pandas by hand, one merge on the tweet per pair (CPU seconds); every table is
  compared.

The synthetic data (``numpy.random.default_rng(seed)``): tweets with a latent class
(negative 28%, neutral 40%, positive 32%); 83 annotators with Zipf-like workloads and
accuracies between 0.55 and 0.9 (errors go to a neighbouring class four times in five);
15% of tweets labelled twice (70% of those by the same annotator, 30% by another), 0.5%
three times by one annotator; rows shuffled, so repeats are not adjacent, and about a
fifth of the same-annotator repeats are identical lines.

    python bench/mozetic_scale.py [--rows 1600000] [--draws 1000] [--seed 0] [--quick]

Targets (issue "mozetic2016"): reagree under 30 seconds and under 1 GB peak memory.
Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

try:
    import reagree  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
# the paper's package (its conventions of self-agreement), as rule scripts import it
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workflow" / "papers" / "mozetic2016"))

import krippendorff  # noqa: E402

from mozetic2016 import selfagreement  # noqa: E402
from reagree.io.annotations import read_annotations  # noqa: E402
from reagree.stats.bootstrap import bootstrap, bootstrap_interval, draw_rows, half_width  # noqa: E402
from reagree.stats.pairtables import pair_tables  # noqa: E402

CATEGORIES = ("Negative", "Neutral", "Positive")
PRIOR = (0.28, 0.40, 0.32)
ANNOTATORS = 83
TOLERANCE = 1e-9


def synthetic_file(path: Path, rows: int, seed: int) -> None:
    """A CLARIN-format file of about ``rows`` rows (see the module docstring)."""
    rng = np.random.default_rng(seed)
    tweets = int(rows / (1 + 0.15 + 2 * 0.005))
    truth = rng.choice(3, size=tweets, p=PRIOR)
    workload = 1.0 / np.arange(1, ANNOTATORS + 1) ** 0.8
    accuracy = rng.uniform(0.55, 0.9, size=ANNOTATORS)

    def label(annotator: np.ndarray, latent: np.ndarray) -> np.ndarray:
        wrong = rng.random(latent.size) > accuracy[annotator]
        near = rng.random(latent.size) < 0.8
        # a polar class errs to neutral (80%) or to the other pole; neutral to either pole
        moved = np.where(latent == 1, rng.choice([0, 2], size=latent.size), np.where(near, 1, 2 - latent))
        return np.where(wrong, moved, latent)

    first = rng.choice(ANNOTATORS, size=tweets, p=workload / workload.sum())
    ids = 400_000_000_000_000_000 + rng.choice(10**17, size=tweets, replace=False)
    tweet, annotator, code = [np.arange(tweets)], [first], [label(first, truth)]
    twice = rng.random(tweets) < 0.15
    same = twice & (rng.random(tweets) < 0.7)
    other = (first + rng.integers(1, ANNOTATORS, size=tweets)) % ANNOTATORS
    second = np.where(same, first, other)[twice]
    repeat = label(second, truth[twice])
    copy = same[twice] & (rng.random(second.size) < 0.2)  # an identical line: the same label again
    repeat = np.where(copy, code[0][twice], repeat)
    tweet.append(np.flatnonzero(twice))
    annotator.append(second)
    code.append(repeat)
    thrice = np.flatnonzero(same & (rng.random(tweets) < 0.005 / 0.15 / 0.7))
    tweet.append(thrice)
    annotator.append(first[thrice])
    code.append(label(first[thrice], truth[thrice]))
    tweet, annotator, code = (np.concatenate(part) for part in (tweet, annotator, code))
    order = rng.permutation(tweet.size)
    names = np.array(CATEGORIES)
    lines = [
        f"{i},{c},{a}"
        for i, c, a in zip(ids[tweet[order]].tolist(), names[code[order]].tolist(), (annotator[order] + 1).tolist())
    ]
    path.write_text("TweetID,HandLabel,AnnotatorID\n" + "\n".join(lines) + "\n", encoding="utf-8")


def peak_megabytes() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def reliability_data(counts: np.ndarray) -> np.ndarray:
    """A unit's labels as columns of values (-1, 0, +1; NaN pads short units): what
    krippendorff.alpha reads, coders x units. Alpha depends on a unit's labels only, not
    on which coder row holds them, so m rows suffice (m = the most labels on a unit)."""
    m = counts.sum(axis=1).astype(int)
    width = int(m.max())
    values = np.full((counts.shape[0], width), np.nan)
    unit = np.repeat(np.arange(counts.shape[0]), m)
    slot = np.arange(unit.size) - np.repeat(np.cumsum(m) - m, m)
    values[unit, slot] = np.repeat(np.tile([-1.0, 0.0, 1.0], counts.shape[0]), counts.ravel().astype(int))
    return values.T


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_600_000)
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="160,000 rows, 100 draws (a few seconds)")
    parser.add_argument("--write", type=Path, help=argparse.SUPPRESS)  # the child that writes the file
    args = parser.parse_args()
    if args.quick:
        args.rows, args.draws = 160_000, 100
    if args.write:
        synthetic_file(args.write, args.rows, args.seed)
        return 0
    load = os.getloadavg()

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "Synthetic_Twitter_sentiment.csv"
        # Written by a child process, so this process's peak memory is reagree's alone.
        subprocess.run(
            [sys.executable, __file__, "--write", str(path), "--rows", str(args.rows), "--seed", str(args.seed)],
            check=True,
        )
        before = peak_megabytes()
        timings = {}
        start = time.perf_counter()
        annotations = read_annotations(
            path,
            "TweetID",
            "AnnotatorID",
            "HandLabel",
            categories=CATEGORIES,
            unit_pattern=r"[0-9]{17,19}",
            rater_pattern=r"[0-9]+",
        )
        timings["parse"] = time.perf_counter() - start

    start = time.perf_counter()
    labels = annotations.label_counts()
    gold = selfagreement.gold_counts(annotations, "all")
    gold_distinct = selfagreement.gold_counts(annotations, "distinct")
    timings["table 1"] = time.perf_counter() - start

    start = time.perf_counter()
    repeats = selfagreement.repeat_counts(annotations)
    timings["table 3"] = time.perf_counter() - start

    start = time.perf_counter()
    units = selfagreement.agreement_counts(annotations)
    measures = {kind: selfagreement.agreement_measures(units[kind]) for kind in ("self", "inter")}
    timings["table 4 values"] = time.perf_counter() - start
    start = time.perf_counter()
    statistics = {kind: selfagreement.interval_alpha_statistic(units[kind]) for kind in ("self", "inter")}
    intervals = {kind: bootstrap_interval(statistics[kind], args.draws, args.seed) for kind in ("self", "inter")}
    timings["table 4 intervals"] = time.perf_counter() - start

    start = time.perf_counter()
    evidence = selfagreement.ordering_evidence(units["union"])
    timings["table 5"] = time.perf_counter() - start
    total = sum(timings.values())
    peak = peak_megabytes()

    print(f"load average at the start {', '.join(f'{x:.2f}' for x in load)}; wall-clock seconds")
    print(
        f"synthetic CLARIN file: {annotations.n_labels:,} labels, {annotations.n_units:,} tweets, "
        f"{annotations.n_raters} annotators, labels {labels.tolist()}, gold {gold.tolist()} "
        f"(distinct reading {gold_distinct.tolist()})"
    )
    print(
        f"self: {repeats.self_posts:,} posts / {repeats.self_pairs:,} pairs; "
        f"inter: {repeats.inter_posts:,} posts / {repeats.inter_pairs:,} pairs"
    )
    for kind in ("self", "inter"):
        m, interval = measures[kind], intervals[kind]
        print(
            f"{kind:5s}  Acc+-1 {m['acc_within_one']:.3f}  Acc {m['acc']:.3f}  F1 {m['f1_polar']:.3f}  "
            f"Alpha {m['alpha_interval']:.3f} +- {half_width(interval):.3f}  ({interval.scheme})"
        )
    print(
        f"union  gain {evidence['gain']:.3f}  (-,0)/(-,+) {evidence['negative_neutral']:.3f}  "
        f"(0,+)/(-,+) {evidence['neutral_positive']:.3f}"
    )
    print()
    print("reagree, timed with time.perf_counter:")
    for name, seconds in timings.items():
        print(f"  {name:18s} {seconds:8.3f} s")
    print(f"  {'total':18s} {total:8.3f} s   (target: under 30 s)")
    print(
        f"  peak memory (process) {peak:,.0f} MB, of which {before:,.0f} MB before parsing "
        f"(interpreter and libraries)   (target: under 1 GB)"
    )

    print()
    print(f"plain: one krippendorff.alpha call per draw, {args.draws:,} draws per interval, the same resamples:")
    plain_seconds, failed = 0.0, False
    for kind in ("self", "inter"):
        data = reliability_data(units[kind])
        rows, counts = draw_rows(statistics[kind], args.draws, args.seed)
        start = time.perf_counter()
        plain = np.array(
            [
                krippendorff.alpha(
                    reliability_data=data[:, np.repeat(rows.first, row)],
                    level_of_measurement="interval",
                    value_domain=[-1.0, 0.0, 1.0],
                )
                for row in counts
            ]
        )
        seconds = time.perf_counter() - start
        plain_seconds += seconds
        engine = bootstrap([statistics[kind]], args.draws, args.seed)[0]
        difference = float(np.max(np.abs(plain - engine)))
        failed |= not difference <= TOLERANCE
        print(
            f"  {kind:5s} {data.shape[1]:9,} units x {data.shape[0]:2d} coders: {seconds:8.2f} s   "
            f"max |plain - reagree| over draws {difference:.2e}"
        )
    engine_seconds = timings["table 4 intervals"]
    print(
        f"  intervals: plain {plain_seconds:.2f} s, reagree {engine_seconds:.3f} s: "
        f"ratio {plain_seconds / engine_seconds:,.0f}x"
    )
    plain_total = total - engine_seconds + plain_seconds
    print(
        f"  whole run (parse + Tables 1, 3, 4, 5): plain {plain_total:.2f} s, reagree {total:.2f} s: "
        f"ratio {plain_total / total:,.1f}x"
    )
    failed_tables = compare_pair_tables(annotations)
    if failed or failed_tables:
        print(
            f"FAIL: plain and reagree differ ({'draws by more than ' + str(TOLERANCE) if failed else ''}"
            f"{'; ' if failed and failed_tables else ''}{'pair tables' if failed_tables else ''})"
        )
        return 1
    print(f"OK: plain and reagree agree within {TOLERANCE} on every draw, and on every pair's table")
    return 0


def compare_pair_tables(annotations) -> bool:
    """Every annotator pair's contingency table: ``reagree.stats.pairtables.pair_tables``
    against pandas by hand (each annotator's first label per tweet, one merge on the tweet
    per pair). Prints both CPU times; True if any table differs."""
    print()
    first = annotations.occasion == 0
    frame = pd.DataFrame(
        {
            "unit": annotations.unit[first],
            "rater": annotations.rater[first],
            "code": annotations.code[first].astype(np.int64),
        }
    )
    k = len(annotations.categories)
    start = time.process_time()
    by_rater = {rater: part[["unit", "code"]] for rater, part in frame.groupby("rater")}
    plain = {}
    for a in range(annotations.n_raters):
        for b in range(a + 1, annotations.n_raters):
            both = by_rater[a].merge(by_rater[b], on="unit")
            if len(both):
                plain[(a, b)] = np.bincount(both["code_x"] * k + both["code_y"], minlength=k * k).reshape(k, k)
    plain_seconds = time.process_time() - start
    start = time.process_time()
    tables = pair_tables(annotations)
    engine_seconds = time.process_time() - start
    ours = {(a, b): table for a, b, table in zip(tables.first.tolist(), tables.second.tolist(), tables.tables)}
    same = ours.keys() == plain.keys() and all(np.array_equal(ours[key], plain[key]) for key in plain)
    print(
        f"pair tables of {annotations.n_raters} annotators ({len(plain):,} of "
        f"{annotations.n_raters * (annotations.n_raters - 1) // 2:,} pairs share a tweet), CPU seconds: "
        f"pandas merge per pair {plain_seconds:.2f} s, reagree pair_tables {engine_seconds:.3f} s: "
        f"ratio {plain_seconds / max(engine_seconds, 1e-9):,.0f}x; tables {'equal' if same else 'DIFFER'}"
    )
    return not same


if __name__ == "__main__":
    sys.exit(main())
