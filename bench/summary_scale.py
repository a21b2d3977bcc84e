"""Benchmark: the summary (summary.tsv and summary.md) of many claims, against the old one.

Builds a synthetic claims table (``numpy.random.default_rng(seed)``) of ``--claims`` rows
in the shape claims.tsv has, findings-heavy, the case that exhausted the old summary:
every status (half the claims mismatches, 19 in 20 of them without a cause, so a line of
their own in summary.md, the rest sharing two causes; 2 in 5 matches; the rest spread over
the others), one printed figure per claim, and reasons for the uncheckable and not built
ones. Then it times, each in a process of its own (CPU seconds and the process's peak
memory):

- new: ``reagree.pipeline.summary.summarise`` on ``--claims`` rows and on ``--old-claims``
  rows;
- old: the ``summarise`` of ``reagree.pipeline.claims`` at commit ``--old`` (read with
  ``git show``, the version issue 22 measured: 20,000 claims in 25 s and 547 MB, 200,000
  exhausting 4 GB after 202 s), on ``--old-claims`` rows only.

Both must give the same count of every status (one figure per claim, so figures and
claims count alike) and list the same findings; the script exits 1 with a ``FAIL:`` line
if not. It prints the ratio old / new at ``--old-claims`` rows. Timings are printed, never
asserted. Target (issue 22, item 8): 200,000 claims in under 20 s and 1 GB.

    python bench/summary_scale.py [--claims 200000] [--old-claims 20000] [--seed 0] [--old a36b662] [--quick]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
try:
    import reagree  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

STATUSES = ["match", "within tolerance", "mismatch", "uncheckable", "not built", "not comparable", "missing"]
SHARES = [0.40, 0.02, 0.50, 0.04, 0.03, 0.005, 0.005]


def synthetic_claims(n: int, seed: int) -> pd.DataFrame:
    """A claims.tsv-shaped table of ``n`` claims (module docstring); statuses the old
    summary knows, so both can read it."""
    rng = np.random.default_rng(seed)
    status = rng.choice(STATUSES, size=n, p=SHARES)
    keys = np.char.add("kappa.rater", np.arange(n).astype(str))
    computed = rng.random(n)
    mismatch = status == "mismatch"
    shared = mismatch & (rng.random(n) < 0.05)
    cause = np.where(shared, rng.choice(["41 tweets labelled three times", "label pairs"], size=n), "")
    reason = np.select(
        [status == "uncheckable", status == "not built", mismatch],
        [
            "labels never released",
            "language X was not built (add it to config p.languages)",
            "the data give another number",
        ],
        "",
    )
    published = np.char.mod("%.3f", np.round(computed + np.where(mismatch, 0.1, 0.0), 3))
    return pd.DataFrame(
        {
            "key": keys,
            "end": "",
            "where": "Table 1",
            "source": "paper",
            "published": published,
            "computed": computed,
            "difference": np.where(mismatch, 0.1, 0.0),
            "tolerance": 0.0005,
            "status": status,
            "reason": reason,
            "explained_by": np.where(mismatch, "none of 2 variants tried reproduces it", ""),
            "cause": cause,
            "rule": "score_p",
            "function": "reagree.stats.multirater.fleiss_kappa",
            "figure": np.char.add(keys, np.char.add(" = ", published)),
        }
    )


def load_old(commit: str):
    """``reagree.pipeline.claims`` as it was at ``commit`` (``git show``), as a module."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:src/reagree/pipeline/claims.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="reagree-old-claims-"))
    path = folder / "old_claims.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_claims", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_one(which: str, n: int, seed: int, commit: str) -> dict:
    """Time one summary in this process: CPU seconds, peak memory, counts and findings."""
    table = synthetic_claims(n, seed)
    if which == "old":
        summarise = load_old(commit).summarise
    else:
        from reagree.pipeline.summary import summarise
    start = time.process_time()
    summary, markdown = summarise({"p": table})
    seconds = time.process_time() - start
    counts = {status: int(summary.iloc[0][status.replace(" ", "_")]) for status in STATUSES}
    findings = sum(1 for line in markdown.splitlines() if line.startswith("- p: "))
    return {
        "which": which,
        "claims": n,
        "seconds": seconds,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "counts": counts,
        "cause_lines": findings,
    }


def measure(which: str, n: int, seed: int, commit: str) -> dict:
    """``run_one`` in a process of its own (its peak memory is its own)."""
    result = subprocess.run(
        [sys.executable, __file__, "--one", which, "--claims", str(n), "--seed", str(seed), "--old", commit],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        return {"which": which, "claims": n, "error": (result.stderr.strip().splitlines() or ["killed"])[-1]}
    return json.loads(result.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=200_000)
    parser.add_argument("--old-claims", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--old", default="a36b662", help="the commit whose summary is the old one")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20,000 and 2,000 claims")
    parser.add_argument("--one", choices=["new", "old"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.claims, args.seed, args.old)))
        return 0
    if args.quick:
        args.claims, args.old_claims = 20_000, 2_000
    print(f"synthetic claims, seed {args.seed}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = [
        measure("new", args.claims, args.seed, args.old),
        measure("new", args.old_claims, args.seed, args.old),
        measure("old", args.old_claims, args.seed, args.old),
    ]
    print(f"{'summary':8} {'claims':>8} {'CPU s':>8} {'peak MB':>8}  findings lines")
    for row in rows:
        if "error" in row:
            print(f"{row['which']:8} {row['claims']:>8}  failed: {row['error']}")
            continue
        print(
            f"{row['which']:8} {row['claims']:>8} {row['seconds']:>8.2f} {row['peak_mb']:>8.0f}  {row['cause_lines']}"
        )
    new_small, old_small = rows[1], rows[2]
    if "error" in old_small or "error" in new_small:
        print("FAIL: a summary did not finish")
        return 1
    if new_small["counts"] != old_small["counts"] or new_small["cause_lines"] != old_small["cause_lines"]:
        print(f"FAIL: the summaries differ: new {new_small['counts']}, old {old_small['counts']}")
        return 1
    print(
        f"same counts and findings at {args.old_claims} claims; old / new: "
        f"{old_small['seconds'] / max(new_small['seconds'], 1e-9):.0f}x CPU time, "
        f"{old_small['peak_mb'] / new_small['peak_mb']:.1f}x peak memory"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
