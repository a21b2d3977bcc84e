"""Writes the example annotation tables triage_wide.csv and triage_long.csv.

A made-up annotation round, written for reagree's examples: four annotators (A, B, C, D)
rate the severity of 80 support tickets as low, medium, high or urgent. Each annotator
misses about one ticket in ten (shift handovers). A mistake moves a label one step;
annotator D escalates more often than not. The team lead recorded a final label per
ticket (the `lead` column): the plurality, with ties sent to the more severe side, except
on two tied tickets, and overridden on two untied ones. Nothing here is real data.

Regenerate (same bytes every time): python examples/make_triage.py
"""

import csv
import random
from collections import Counter
from pathlib import Path

LEVELS = ["low", "medium", "high", "urgent"]
PRIOR = [0.35, 0.35, 0.20, 0.10]
ANNOTATORS = {"A": (0.15, 0.5), "B": (0.20, 0.5), "C": (0.25, 0.5), "D": (0.30, 0.75)}  # error rate, P(step up)
TICKETS, MISSING, SEED = 80, 0.10, 2027
HERE = Path(__file__).resolve().parent


def rate(rng, truth, error, up):
    if rng.random() >= error:
        return truth
    step = 1 if rng.random() < up else -1
    return min(len(LEVELS) - 1, max(0, truth + step))


def build():
    rng = random.Random(SEED)
    rows = []
    for number in range(1, TICKETS + 1):
        truth = rng.choices(range(len(LEVELS)), PRIOR)[0]
        labels = {
            name: (None if rng.random() < MISSING else LEVELS[rate(rng, truth, error, up)])
            for name, (error, up) in ANNOTATORS.items()
        }
        rows.append({"ticket": f"T-{number:03d}", **labels})
    tied_seen = untied_seen = 0
    for row in rows:
        votes = Counter(v for k, v in row.items() if k in ANNOTATORS and v)
        top = max(votes.values())
        leaders = sorted((label for label, n in votes.items() if n == top), key=LEVELS.index)
        if len(leaders) > 1:
            tied_seen += 1
            # the lead escalates a tie, except twice
            row["lead"] = leaders[0] if tied_seen in (2, 5) else leaders[-1]
        else:
            row["lead"] = leaders[0]
            if leaders[0] != "urgent":
                untied_seen += 1
                if untied_seen in (17, 41):  # the lead overrode the annotators, one step up
                    row["lead"] = LEVELS[LEVELS.index(leaders[0]) + 1]
    return rows


def main():
    rows = build()
    columns = ["ticket", *ANNOTATORS, "lead"]
    with open(HERE / "triage_wide.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (v or "") for k, v in row.items()})
    with open(HERE / "triage_long.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["ticket", "annotator", "severity"])
        for row in rows:
            for name in ANNOTATORS:
                if row[name]:
                    writer.writerow([row["ticket"], name, row[name]])


if __name__ == "__main__":
    main()
