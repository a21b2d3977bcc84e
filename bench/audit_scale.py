"""Benchmark: `reagree audit` on a 1.6-million-row CLARIN-format long table, 83 annotators.

Writes the synthetic ``TweetID,HandLabel,AnnotatorID`` file of ``bench/mozetic_scale.py``
(about 1.6 million rows, 83 annotators, tweets labelled twice or three times, some of
them by the same annotator with another label), then runs, each in its own process so
each peak memory is its own:

- reagree: ``reagree audit FILE --unit TweetID --rater AnnotatorID --label HandLabel
  --order Negative,Neutral,Positive --bootstrap DRAWS`` (the whole audit: every pooled
  coefficient with a DRAWS-draw interval and its analytic standard error, per category,
  Gwet's weighted family under linear and quadratic weights (the labels are ordered),
  per rater (agreement with the rest, label bias, leave-one-rater-out alpha and Fleiss'
  kappa each with a DRAWS-draw interval), the disputed items ranked, the category
  confusions, ties, the majority vote; 83 annotators who each labelled a few percent of
  the tweets are inferred interchangeable, so no pairs by name);
- the new parts alone (``--child parts``, after reading the table): per rater with its
  leave-one-out intervals, the items, and the weighted family (values, intervals and
  standard errors), each timed on its own;
- by hand: what a user would write with pandas and krippendorff for the one number they
  most want: ``pandas.read_csv``, each annotator's first label per tweet
  (``drop_duplicates``, the audit's default ``--repeats first``), a pivot to annotators x
  tweets, and ``krippendorff.alpha(..., level_of_measurement="nominal")``: a point
  estimate, no interval.

Prints wall-clock and CPU seconds and peak memory of both, the ratio (by hand over
reagree), what the new parts found and cost, and compares the nominal alpha of both
(exit 1 and a ``FAIL:`` line if they differ by more than 1e-9). Targets (issues 17 and
26): the whole audit under 60 s and 1.5 GB; leave one rater out at most one pass per rater.

    python bench/audit_scale.py [--rows 1600000] [--draws 2000] [--seed 0] [--quick]
    python bench/audit_scale.py --write FILE [--rows N]    # only write the table (e.g. for /usr/bin/time -v)

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the synthetic file of mozetic_scale.py
try:
    import reagree  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from mozetic_scale import CATEGORIES, synthetic_file  # noqa: E402

TOLERANCE = 1e-9


def _measured(step) -> dict:
    """Run ``step()`` and return its result with this process's CPU, wall time and peak memory."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    wall, cpu = time.perf_counter(), time.process_time()
    values = step()
    return {
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "before": before,
        "values": values,
    }


def run_reagree(path: Path, draws: int, seed: int) -> dict:
    import io
    from contextlib import redirect_stdout

    from reagree.cli import main

    out = path.with_suffix(".audit.json")

    def step() -> dict:
        with redirect_stdout(io.StringIO()) as printed:
            code = main(
                [
                    "audit",
                    str(path),
                    "--unit",
                    "TweetID",
                    "--rater",
                    "AnnotatorID",
                    "--label",
                    "HandLabel",
                    "--order",
                    ",".join(CATEGORIES),
                    "--bootstrap",
                    str(draws),
                    "--seed",
                    str(seed),
                    "--json",
                    str(out),
                ]
            )
        if code != 0:
            raise SystemExit(f"reagree audit exited {code}")
        result = json.loads(out.read_text())
        top = result["per_rater"][0]
        quadratic = result["weighted"]["quadratic"]
        return {
            "alpha": result["coefficients"]["krippendorff_alpha"]["nominal"],
            "alpha_ci": result["ci"]["krippendorff_alpha"]["nominal"],
            "units": result["n_units"],
            "ratings": result["n_ratings"],
            "raters": result["n_raters"],
            "design": result["design"]["raters"],
            "pairs": result["pairwise_plan"]["mode"],
            "pairs_listed": len(result["pairwise"]),
            "lines": printed.getvalue().count("\n"),
            "fleiss_gwet": result["coefficients"]["fleiss_kappa_gwet"],
            "fleiss_gwet_se": result["inference"]["fleiss_kappa_gwet"]["se"],
            "per_rater": len(result["per_rater"]),
            "top_rater": top["rater"],
            "top_change": top["without_alpha"]["change"],
            "top_change_ci": top["without_alpha"]["change_ci"],
            "disputed": result["items"]["units_disputed"],
            "listed": result["items"]["listed"],
            "ac2_quadratic": quadratic["gwet_ac1"],
            "ac2_quadratic_se": quadratic["inference"]["gwet_ac1"]["se"],
        }

    return _measured(step)


def run_parts(path: Path, draws: int, seed: int) -> dict:
    """The audit's new parts, each timed alone on the table read once (``audit`` runs them
    the same way): per rater, the items, the weighted family."""
    import numpy as np

    from reagree.audit import people
    from reagree.audit.read import read_table
    from reagree.stats import registry
    from reagree.stats.bootstrap import bootstrap_intervals
    from reagree.stats.majority import majority_vote
    from reagree.stats.weights import agreement_weights, category_values

    table = read_table(path, unit="TweetID", rater="AnnotatorID", label="HandLabel", order=",".join(CATEGORIES))
    counts, view, categories = table.counts, table.view, [str(c) for c in table.categories]
    per_unit = counts.sum(axis=1)
    complete_counts = np.where((per_unit == per_unit.max())[:, None], counts, 0)
    timed = {}

    def timing(name, step):
        wall, cpu = time.perf_counter(), time.process_time()
        step()
        timed[name] = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}

    timing(
        "per rater (leave-one-out alpha and Fleiss' kappa, with intervals)",
        lambda: people.per_rater(
            view, counts, [str(r) for r in table.raters], categories, "nominal", None, draws, seed, 0.95, "percentile"
        ),
    )
    timing(
        "items (disputed units ranked)",
        lambda: people.items(counts, table.unit_ids, categories, majority_vote(view, "drop")),
    )

    def weighted() -> None:
        entries = [c for c in registry.COEFFICIENTS if c.weighted and not c.fixed_raters]
        for scheme in ("linear", "quadratic"):
            sample = registry.Sample(
                counts,
                complete_counts,
                view,
                tuple(categories),
                agreement_weights(scheme, category_values(categories)),
                scheme,
            )
            bootstrap_intervals([entry.statistic(sample) for entry in entries], draws, seed)
            for entry in entries:
                entry.inference(sample)

    timing("weighted family (linear, quadratic: values, intervals, SEs)", weighted)
    return {"parts": timed, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run_by_hand(path: Path) -> dict:
    import krippendorff
    import numpy as np
    import pandas as pd

    def step() -> dict:
        frame = pd.read_csv(path, dtype={"TweetID": str, "AnnotatorID": str, "HandLabel": str})
        first = frame.drop_duplicates(["TweetID", "AnnotatorID"], keep="first")
        code = first["HandLabel"].map({c: float(i) for i, c in enumerate(CATEGORIES)})
        matrix = first.assign(code=code).pivot(index="AnnotatorID", columns="TweetID", values="code")
        alpha = krippendorff.alpha(
            reliability_data=matrix.to_numpy(dtype=np.float64),
            level_of_measurement="nominal",
            value_domain=[0.0, 1.0, 2.0],
        )
        return {"alpha": float(alpha), "units": int(matrix.shape[1]), "raters": int(matrix.shape[0])}

    return _measured(step)


def _child(kind: str, path: Path, draws: int, seed: int) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--file", str(path), "--draws", str(draws), "--seed", str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_600_000)
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="160,000 rows (about half a minute)")
    parser.add_argument("--write", type=Path, help="only write the synthetic table to this file")
    parser.add_argument("--child", choices=["reagree", "parts", "by-hand"], help=argparse.SUPPRESS)
    parser.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.rows = 160_000
    if args.write:
        synthetic_file(args.write, args.rows, args.seed)
        return 0
    if args.child:
        measured = {
            "reagree": lambda: run_reagree(args.file, args.draws, args.seed),
            "parts": lambda: run_parts(args.file, args.draws, args.seed),
            "by-hand": lambda: run_by_hand(args.file),
        }[args.child]()
        print(json.dumps(measured))
        return 0

    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "Synthetic_Twitter_sentiment.csv"
        synthetic_file(path, args.rows, args.seed)
        size = path.stat().st_size
        ours = _child("reagree", path, args.draws, args.seed)
        parts = _child("parts", path, args.draws, args.seed)
        plain = _child("by-hand", path, args.draws, args.seed)

    values = ours["values"]
    print(f"load average at the start {', '.join(f'{x:.2f}' for x in load)}")
    print(
        f"synthetic CLARIN file: {args.rows:,} rows requested, {size / 1e6:,.0f} MB; the audit read "
        f"{values['ratings']:,} ratings (each annotator's first label per tweet) on {values['units']:,} tweets "
        f"by {values['raters']} annotators"
    )
    print(
        f"reagree audit: {args.draws:,}-draw intervals (seed {args.seed}); raters {values['design']}, pairs of "
        f"raters: {values['pairs']} ({values['pairs_listed']:,} listed); {values['lines']} lines printed"
    )
    low, high = values["top_change_ci"]
    print(
        f"  Fleiss' kappa, Gwet's form {values['fleiss_gwet']:.4f} (SE {values['fleiss_gwet_se']:.4f}); "
        f"quadratic AC2 {values['ac2_quadratic']:.4f} (SE {values['ac2_quadratic_se']:.4f})"
    )
    print(
        f"  per rater: {values['per_rater']} rows; without annotator {values['top_rater']} nominal alpha moves "
        f"{values['top_change']:+.4f} [{low:+.4f}, {high:+.4f}]"
    )
    print(f"  items: {values['disputed']:,} disputed units, the {values['listed']:,} most disputed listed")
    print()
    print("the new parts alone, on the table read once (CPU s, wall s):")
    for name, cost in parts["parts"].items():
        print(f"  {name:64s} {cost['cpu']:6.2f} {cost['wall']:6.2f}")
    print()
    print(f"{'contender':42s} {'wall s':>8s} {'CPU s':>8s} {'peak MB':>8s}  nominal alpha")
    print("-" * 80)
    print(
        f"{'reagree audit (everything, with intervals)':42s} {ours['wall']:8.2f} {ours['cpu']:8.2f} "
        f"{ours['peak']:8.0f}  {values['alpha']:.12f} [{values['alpha_ci'][0]:.4f}, {values['alpha_ci'][1]:.4f}]"
    )
    print(
        f"{'pandas + krippendorff by hand (alpha only)':42s} {plain['wall']:8.2f} {plain['cpu']:8.2f} "
        f"{plain['peak']:8.0f}  {plain['values']['alpha']:.12f}"
    )
    print()
    print(
        f"ratio by hand / reagree: wall {plain['wall'] / ours['wall']:.2f}x, CPU {plain['cpu'] / ours['cpu']:.2f}x, "
        f"peak memory {plain['peak'] / ours['peak']:.2f}x   (targets for reagree: under 60 s and 1,500 MB)"
    )
    difference = abs(values["alpha"] - plain["values"]["alpha"])
    same_shape = (values["units"], values["raters"]) == (plain["values"]["units"], plain["values"]["raters"])
    if not difference <= TOLERANCE or not same_shape:
        print(
            f"FAIL: nominal alpha differs by {difference:.2e} (units/raters {values['units']}/{values['raters']} "
            f"against {plain['values']['units']}/{plain['values']['raters']})"
        )
        return 1
    print(f"OK: the audit's nominal alpha equals krippendorff's within {TOLERANCE} (|diff| {difference:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
