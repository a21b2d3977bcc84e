"""Run-triples of shvets2026 (rule enumerate_shvets2026_triples: ``enumerate_triples``):
every C(10, 3) = 120 run-triple of each model on each myth (mean boundary kappa, label
kappa and gap over its three pairs, from the pair tables), how many reach each threshold,
and the three "far" runs per model; the first and last annotated_date of each reader's
runs and of the human's and the models' over every myth, and the number of runs.
"""

from __future__ import annotations

import logging
from typing import Mapping, Sequence

import pandas as pd

from reagree.methods import runtriples
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table

from shvets2026 import keys, segments
from shvets2026.release import MYTHS


def resolve_thresholds(thresholds: Sequence[float | str], human_gap: float) -> dict[str, float]:
    """Named threshold values: "human_gap" is the human's own gap on that myth."""
    return {runtriples.threshold_label(t): (human_gap if t == "human_gap" else float(t)) for t in thresholds}


def enumerate_triples(
    pairs: Mapping[str, pd.DataFrame],
    myths: Sequence[str],
    models: Sequence[str],
    human: str,
    thresholds: Sequence[float | str],
    pair_paths: Sequence[str],
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """The triples' values from each myth's pair table (``pairs``, read from ``pair_paths``:
    ``shvets2026.pairs``) for ``models`` and against ``human``'s own gap, under the
    ``thresholds`` setting; the frame ``triples`` and the tables ``thresholds`` and ``far``.
    The pooled claims need all three myths; with fewer they are NaN with a reason."""
    log = log or logging.getLogger(__name__)
    values, triple_tables, threshold_tables, far_rows = [], [], [], []
    human_means = {myth: runtriples.reader_summary(pairs[myth][pairs[myth]["reader"] == human]) for myth in myths}
    shares = {model: {} for model in models}
    for myth in myths:
        named = resolve_thresholds(thresholds, human_means[myth]["gap"])
        per_myth = []
        for model in models:
            frame = pairs[myth][pairs[myth]["reader"] == model]
            n_runs = int(frame[["run_a", "run_b"]].max().max())
            triples = runtriples.triple_frame(frame, n_runs)
            triples.insert(0, "myth", myth)
            triples.insert(0, "model", model)
            per_myth.append(triples)
            reached = runtriples.threshold_table(triples["gap"], named)
            reached.insert(0, "myth", myth)
            reached.insert(0, "model", model)
            threshold_tables.append(reached)
            for row in reached.itertuples(index=False):
                values += [
                    keys.TRIPLES_REACH.row(
                        row.reached,
                        triples_of=model,
                        myth=myth,
                        threshold=row.threshold,
                        note=f"gap >= {row.value:.6g}, of {row.triples} triples",
                    ),
                    keys.SHARE_REACH.row(
                        row.share, model=model, myth=myth, threshold=row.threshold, note=f"gap >= {row.value:.6g}"
                    ),
                ]
                shares[model].setdefault(row.threshold, {})[myth] = row.share
            values += [
                keys.TRIPLES.row(len(triples), triples_of=model, myth=myth),
                keys.TRIPLE_GAP.row(triples["gap"].min(), model=model, myth=myth, bound="min"),
                keys.TRIPLE_GAP.row(triples["gap"].max(), model=model, myth=myth, bound="max"),
                keys.TRIPLE_LABEL_MIN.row(triples["kappa_label"].min(), model=model, myth=myth),
            ]
            far, agreement = runtriples.far_runs_agreement(frame, n_runs)
            far_rows.append(
                {"model": model, "myth": myth, "far_runs": "+".join(map(str, far)), "agreement_label": agreement}
            )
            values.append(
                keys.FAR_RUNS.row(
                    agreement,
                    model=model,
                    myth=myth,
                    note=f"runs {', '.join(map(str, far))}: mean raw label agreement over their pairs",
                )
            )
        pooled = pd.concat(per_myth, ignore_index=True)
        triple_tables.append(pooled)
        values.append(keys.TRIPLES.row(len(pooled), triples_of="models", myth=myth))
        for row in runtriples.threshold_table(pooled["gap"], named).itertuples(index=False):
            values.append(
                keys.TRIPLES_REACH.row(
                    row.reached,
                    triples_of="models",
                    myth=myth,
                    threshold=row.threshold,
                    note=f"gap >= {row.value:.6g}, of {row.triples} triples of {len(models)} models",
                )
            )
        log.info("%s: human gap %+.3f; %d model triples", myth, human_means[myth]["gap"], len(pooled))

    dated = {"human": [], "models": []}
    for myth in myths:
        for reader, frame in pairs[myth].groupby("reader"):
            dates = pd.concat([frame["date_a"], frame["date_b"]]).dropna().tolist()
            key = "human" if reader == human else reader
            values += [
                keys.RUN_DATE.row(day, end=end, reader=key, myth=myth, note="YYYYMMDD, from annotated_date")
                for end, day in zip(("first", "last"), segments.date_span(dates))
            ]
            dated["human" if reader == human else "models"] += dates
    for group, dates in dated.items():
        values += [
            keys.GROUP_RUN_DATE.row(day, end=end, dated=group, note=f"YYYYMMDD, over {', '.join(myths)}")
            for end, day in zip(("first", "last"), segments.date_span(dates))
        ]
    values.append(
        keys.RUN_FILES.row(
            runtriples.count_runs(pairs.values(), by=("myth", "reader")), note=f"over {', '.join(myths)}"
        )
    )
    values.append(
        keys.HUMAN_PAIRS.row(
            runtriples.count_pairs(pairs.values(), "reader", human, by=("myth",)), note=f"over {', '.join(myths)}"
        )
    )

    everything = pd.concat(triple_tables, ignore_index=True)
    all_myths = set(myths) == set(MYTHS)
    why = "" if all_myths else f"needs all three myths (config shvets2026.myths is {myths})"
    for model in models:
        for threshold, by_myth in shares[model].items():
            share = runtriples.independent_pass_share(list(by_myth.values())) if all_myths else float("nan")
            values.append(
                keys.SHARE_REACH_ALL_MYTHS.row(
                    share,
                    model=model,
                    threshold=threshold,
                    note=why or "product of the per-myth shares: one independent triple per myth",
                )
            )
    gaps = {
        myth: {
            ("human" if reader == human else reader): runtriples.reader_summary(frame)["gap"]
            for reader, frame in pairs[myth].groupby("reader")
        }
        for myth in myths
    }
    largest = sum(runtriples.reader_rank(gaps[myth], "human") == 1 for myth in myths) if all_myths else float("nan")
    values.append(
        keys.MYTHS_GAP_LARGEST.row(
            largest,
            note=why
            or "myths on which the human's gap is the largest of the four readers' (mean over each reader's pairs)",
        )
    )
    ranges = (
        runtriples.midpoint_ratio(
            [human_means[m]["agreement_label"] for m in myths], [human_means[m]["chance_label"] for m in myths]
        )
        if all_myths
        else float("nan")
    )
    values.append(
        keys.AGREEMENT_PER_CHANCE_RANGES.row(
            ranges,
            note=why
            or "midpoint of the human's raw label agreement over the three myths over the midpoint of "
            "her chance label agreement over them",
        )
    )
    lowest = everything["kappa_label"].min() if all_myths else float("nan")
    margin = (
        runtriples.label_margin(everything["kappa_label"], [human_means[m]["kappa_label"] for m in myths])
        if all_myths
        else float("nan")
    )
    values += [
        keys.LOWEST_TRIPLE_LABEL.row(lowest, note=why or "over all models and myths"),
        keys.LABEL_MARGIN.row(
            margin, note=why or "lowest model triple's label kappa minus the human's highest myth mean"
        ),
    ]

    provenance = {
        "paper": "shvets2026",
        "pairs": ", ".join(pair_paths),
        "triples": "all C(10, 3) subsets of a model's runs; means over each triple's 3 pairs "
        "(reagree.methods.runtriples.triple_frame)",
        "thresholds": f"{thresholds}; a triple reaches t when gap >= t",
    }
    log.info("%d values", len(values))
    return RuleOutputs(
        values=values,
        frames={"triples": everything},
        tables={
            "thresholds": Table(
                pd.concat(threshold_tables, ignore_index=True),
                "Model run-triples reaching each gap threshold",
                provenance,
            ),
            "far": Table(
                pd.DataFrame(far_rows),
                "The three most different runs per model and myth (greedy on raw label agreement)",
                provenance,
            ),
        },
    )
