"""Benchmark: reagree against the field's libraries, from one long table to the coefficients.

The table is long format, one row per label: ``item`` (integer ids of 10 digits), ``rater``
(integer rater ids; three raters unless ``--raters``), ``label`` (text, four categories,
prior 0.46 / 0.24 / 0.18 / 0.12), the raters erring at 0.10 / 0.16 / 0.22 (in turn) and
each leaving 5% of the items unlabelled, rows shuffled (``numpy.random.default_rng(seed)``).
Each contender starts from that DataFrame and ends with its numbers:

- ``reagree``: ``reagree.io.annotations.from_long`` (ids and labels checked and kept as text), the
  inter-annotator view of every labelled item, and then every coefficient: Krippendorff's
  alpha (nominal), Fleiss' kappa (complete items), Cohen's kappa of each pair of raters
  (``reagree.stats.pairtables``), their mean (Light's kappa), percent agreement,
  Brennan-Prediger (PABAK) and Gwet's AC1;
- ``krippendorff``: the table pivoted to raters x items (pandas), ``krippendorff.alpha``
  (nominal);
- ``statsmodels``: pivoted to items x raters, the complete items,
  ``inter_rater.aggregate_raters`` and ``fleiss_kappa``;
- ``scikit-learn``: pivoted, then ``cohen_kappa_score`` of each pair of raters on the items
  both labelled;
- ``irrCAC``: pivoted, then ``CAC(..., categories=...)`` and its ``fleiss``, ``gwet``,
  ``krippendorff`` and ``bp`` (without ``categories=`` irrCAC counts NaN as a category).

Each contender runs in a fresh process (``--run NAME``), so that its memory is its own:
the process builds the table, then records its resident memory, resets the kernel's
high-water mark (``/proc/self/clear_refs``) and times the step with
``time.process_time`` (CPU) and ``time.perf_counter`` (wall). ``peak`` is the step's
high-water mark above the memory held before it (the table, the interpreter and the
contender's libraries). Every shared value is compared with reagree's; the script exits
1 with a ``FAIL:`` line if any differs by more than 1e-9.

    python bench/peers.py [--units 100000 1000000] [--raters 3] [--seed 0] [--repeat 1] [--skip irrCAC] [--quick]

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

try:
    import reagree  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

CATEGORIES = ("agent", "balance", "other", "pin")
PRIOR = (0.12, 0.24, 0.46, 0.18)
ERROR = (0.10, 0.16, 0.22)
RATERS = (101, 202, 303)  # rater ids; --raters N makes them 101, 102, ...
MISSING_RATE = 0.05
TOLERANCE = 1e-9
CONTENDERS = ("reagree", "krippendorff", "statsmodels", "scikit-learn", "irrCAC")


def long_table(n_items: int, seed: int) -> pd.DataFrame:
    """One row per label: item (int64 id), rater (int64 id), label (text); shuffled."""
    rng = np.random.default_rng(seed)
    k = len(CATEGORIES)
    truth = rng.choice(k, size=n_items, p=PRIOR)
    items = 1_000_000_000 + rng.choice(9_000_000_000, size=n_items, replace=False)
    parts = []
    for i, rater in enumerate(RATERS):
        error = ERROR[i % len(ERROR)]
        wrong = (truth + rng.integers(1, k, size=n_items)) % k
        code = np.where(rng.random(n_items) < error, wrong, truth)
        kept = rng.random(n_items) >= MISSING_RATE
        parts.append(
            pd.DataFrame(
                {"item": items[kept], "rater": np.int64(rater), "label": np.array(CATEGORIES, dtype=object)[code[kept]]}
            )
        )
    table = pd.concat(parts, ignore_index=True)
    return table.iloc[rng.permutation(len(table))].reset_index(drop=True)


def _pairs() -> list[tuple[int, int]]:
    return [(a, b) for i, a in enumerate(RATERS) for b in RATERS[i + 1 :]]


def _wide_codes(table: pd.DataFrame) -> pd.DataFrame:
    """items x raters, category codes 0..K-1 as floats, NaN where missing: the usual pandas
    preparation for the libraries that read a matrix."""
    codes = pd.Categorical(table["label"], categories=CATEGORIES).codes.astype(float)
    return pd.DataFrame({"item": table["item"], "rater": table["rater"], "code": codes}).pivot(
        index="item", columns="rater", values="code"
    )


# ---------------------------------------------------------------------- contenders


def run_reagree(table: pd.DataFrame) -> dict:
    from reagree.stats import multirater
    from reagree.stats.alpha import krippendorff_alpha
    from reagree.io.annotations import from_long
    from reagree.stats.meanpairwise import mean_pairwise_cohen
    from reagree.stats.pairtables import pair_tables

    annotations = from_long(table, unit="item", rater="rater", label="label", categories=CATEGORIES)
    view = annotations.inter(min_raters=1)
    counts = view.counts
    ratings = view.ratings()
    complete = counts[counts.sum(axis=1) == len(RATERS)]
    values = {
        "alpha": krippendorff_alpha(counts, "nominal"),
        "fleiss": multirater.fleiss_kappa(complete),
        "percent_agreement": multirater.percent_agreement(counts),
        "pabak": multirater.brennan_prediger(counts),
        "ac1": multirater.gwet_ac1(counts),
        "mean_pairwise_cohen": mean_pairwise_cohen(ratings),
    }
    tables = pair_tables(ratings)
    for pair, kappa in zip(tables.pairs, tables.cohen_kappas()):
        a, b = sorted(int(rater) for rater in pair)  # the view orders raters by first appearance
        values[f"cohen.{a}.{b}"] = kappa
    return values


def run_krippendorff(table: pd.DataFrame) -> dict:
    import krippendorff

    wide = _wide_codes(table)
    return {
        "alpha": krippendorff.alpha(
            reliability_data=wide.to_numpy().T,
            level_of_measurement="nominal",
            value_domain=np.arange(len(CATEGORIES), dtype=float),
        )
    }


def run_statsmodels(table: pd.DataFrame) -> dict:
    from statsmodels.stats import inter_rater

    complete = _wide_codes(table).dropna().to_numpy().astype(int)
    counts, _ = inter_rater.aggregate_raters(complete, n_cat=len(CATEGORIES))
    return {"fleiss": inter_rater.fleiss_kappa(counts, method="fleiss")}


def run_sklearn(table: pd.DataFrame) -> dict:
    from sklearn.metrics import cohen_kappa_score

    wide = _wide_codes(table)
    values = {}
    for a, b in _pairs():
        both = wide[[a, b]].dropna()
        values[f"cohen.{a}.{b}"] = cohen_kappa_score(both[a], both[b], labels=list(range(len(CATEGORIES))))
    return values


def run_irrcac(table: pd.DataFrame) -> dict:
    from irrCAC.raw import CAC

    wide = table.pivot(index="item", columns="rater", values="label")
    cac = CAC(wide, categories=list(CATEGORIES), digits=20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "fleiss": cac.fleiss()["est"]["coefficient_value"],
            "ac1": cac.gwet()["est"]["coefficient_value"],
            "alpha": cac.krippendorff()["est"]["coefficient_value"],
            "pabak": cac.bp()["est"]["coefficient_value"],
        }


RUNS = {
    "reagree": run_reagree,
    "krippendorff": run_krippendorff,
    "statsmodels": run_statsmodels,
    "scikit-learn": run_sklearn,
    "irrCAC": run_irrcac,
}
# The coefficient each peer is compared on; irrCAC computes Fleiss' kappa on every item
# with two or more ratings (its own convention), so only its AC1, alpha and PABAK are held
# to reagree's.
COMPARED = {
    "krippendorff": ("alpha",),
    "statsmodels": ("fleiss",),
    "scikit-learn": tuple(f"cohen.{a}.{b}" for a, b in _pairs()),
    "irrCAC": ("ac1", "alpha", "pabak"),
}


def _memory_kb(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def use_raters(count: int) -> None:
    """Rater ids 101, 102, ... for ``count`` raters (the default three keep 101, 202, 303)."""
    global RATERS
    if count != 3:
        RATERS = tuple(101 + i for i in range(count))
    COMPARED["scikit-learn"] = tuple(f"cohen.{a}.{b}" for a, b in _pairs())


def child(name: str, n_items: int, seed: int) -> dict:
    """Build the table, then time ``name``'s step and its memory (module docstring)."""
    import gc

    table = long_table(n_items, seed)
    RUNS[name](long_table(50, seed + 1))  # imports and first-call set-up are not the step
    gc.collect()
    before = _memory_kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")  # reset VmHWM to the current resident memory
    cpu, wall = time.process_time(), time.perf_counter()
    values = RUNS[name](table)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    high = _memory_kb("VmHWM")
    return {
        "name": name,
        "items": n_items,
        "labels": len(table),
        "cpu": cpu,
        "wall": wall,
        "peak_mb": (high - before) / 1024,
        "resident_before_mb": before / 1024,
        "values": {key: float(value) for key, value in values.items()},
    }


def measure(name: str, n_items: int, seed: int, repeat: int) -> dict:
    """The fastest of ``repeat`` fresh processes (by CPU); memory from that run."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--run",
                name,
                "--units",
                str(n_items),
                "--seed",
                str(seed),
                "--raters",
                str(len(RATERS)),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return min(runs, key=lambda run: run["cpu"])


def _names(keys: tuple) -> str:
    return ", ".join(keys) if len(keys) <= 3 else f"Cohen's kappa of {len(keys)} pairs"


def compare(reference: dict, peer: dict) -> float:
    keys = COMPARED[peer["name"]]
    return max(abs(reference["values"][key] - peer["values"][key]) for key in keys)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, nargs="+", default=None, help="items per table (default 100000 1000000)")
    parser.add_argument("--raters", type=int, default=3, help="raters in the table (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="fresh processes per contender; the fastest counts")
    parser.add_argument("--skip", nargs="*", default=[], choices=CONTENDERS[1:], help="peers to leave out")
    parser.add_argument("--quick", action="store_true", help="smoke run: 20,000 items")
    parser.add_argument("--run", choices=CONTENDERS, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args(argv)
    sizes = args.units or ([20_000] if args.quick else [100_000, 1_000_000])
    if args.raters < 2:
        parser.error("need --raters >= 2")
    use_raters(args.raters)
    if args.run:
        print(json.dumps(child(args.run, sizes[0], args.seed)))
        return 0

    print(
        f"long table: items x {len(RATERS)} raters, {len(CATEGORIES)} categories, {MISSING_RATE:.0%} of labels "
        f"missing, seed {args.seed}; CPU = time.process_time of the step, fastest of {args.repeat} process(es); "
        f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    failed = []
    for n_items in sizes:
        ours = measure("reagree", n_items, args.seed, args.repeat)
        print()
        print(f"{n_items:,} items, {ours['labels']:,} labels")
        header = (
            f"{'contender':<13} {'CPU s':>7} {'wall s':>7} {'peak MB':>8}  {'peer CPU / reagree':>18} "
            f"{'reagree peak / peer':>20}  {'max |diff|':>10}  values"
        )
        print(header)
        print("-" * len(header))
        print(
            f"{'reagree':<13} {ours['cpu']:>7.2f} {ours['wall']:>7.2f} {ours['peak_mb']:>8.0f}  {'':>18} {'':>20}  "
            f"{'':>10}  {len(ours['values'])} coefficients"
        )
        for name in CONTENDERS[1:]:
            if name in args.skip:
                continue
            peer = measure(name, n_items, args.seed, args.repeat)
            difference = compare(ours, peer)
            if not difference <= TOLERANCE:
                failed.append(f"{name} at {n_items:,} items")
            print(
                f"{name:<13} {peer['cpu']:>7.2f} {peer['wall']:>7.2f} {peer['peak_mb']:>8.0f}  "
                f"{peer['cpu'] / ours['cpu']:>17.2f}x {ours['peak_mb'] / max(peer['peak_mb'], 1):>19.2f}x  "
                f"{difference:>10.1e}  {_names(COMPARED[name])}"
            )
    print()
    if failed:
        print(f"FAIL: values differ from reagree's by more than {TOLERANCE:g}: {'; '.join(failed)}")
        return 1
    print(f"OK: every compared value agrees with reagree's within {TOLERANCE:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
