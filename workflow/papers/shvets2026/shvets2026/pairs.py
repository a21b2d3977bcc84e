"""One myth's runs of shvets2026 read, projected and compared (rule pair_shvets2026_runs:
``pair_runs``): the runs projected on the text's units, every pair of runs compared (label
and boundary layer), the readers' means (Tables 1 and 2), the human's pairs with their
dates, and boundary placement; the human's gap against each model's (difference, rank),
her raw label agreement per chance, her segments' mean length, the runs' mean number of
segments and the text's numbered lines. The statistics are ``shvets2026.segments``,
``reagree.methods.runtriples`` and ``reagree.methods.phaseshift``. The human's pair kappas
carry scikit-learn's value beside them (reference).
"""

from __future__ import annotations

import logging
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from reagree.io import reads
from reagree.methods import phaseshift, runtriples
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.stats.ratings import Ratings
from reagree.stats.references import cohen_reference
from reagree.stats.undefined import difference, ratio

from shvets2026 import keys, segments
from shvets2026.release import UNIT_GRANULARITY, reader_key

PAPER = "shvets2026"
DIAGNOSTIC_ISSUES = {
    "segment skipped": "segments_skipped",
    "line number read": "line_numbers_read",
    "segment outside the text": "segments_outside",
    "duplicate segment_id": "duplicate_ids",
    "annotated_date": "flagged_dates",
}  # diagnostics table issue -> key segment


def placement_name(window: int) -> str:
    """The key segment of a placement window: 0 -> ``exact``, w -> ``within_<w>``."""
    return "exact" if window == 0 else f"within_{window}"


def read_runs(
    run_ids: Sequence[tuple[str, int]], paths: Sequence[str], fractional_lines: str, log: logging.Logger
) -> tuple[dict[str, list[segments.Run]], dict[tuple[str, int], str]]:
    """Every run file (``run_ids``: (reader, run number) of each of ``paths``), per reader in
    run order, and the path of each (reader, number); ValueError for a reader's runs out of
    order."""
    runs, path_of = {}, {}
    for (reader, number), path in zip(run_ids, paths):
        runs.setdefault(reader, []).append(segments.read_run(path, fractional_lines))
        path_of[(reader, number)] = path
        if len(runs[reader]) != number:
            raise ValueError(f"{path}: run {number} of {reader} out of order (runs must be numbered 1..N)")
    log.info("%s", ", ".join(f"{reader}: {len(r)} runs" for reader, r in runs.items()))
    return runs, path_of


def run_rows(
    myth: str, runs: Mapping[str, Sequence[segments.Run]], paths: Mapping[tuple[str, int], str], units: segments.Units
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The runs table (what each file held and what was kept, with its sha256) and the
    diagnostics table (``segments.diagnostics_rows`` of every run)."""
    rows, issues = [], []
    for reader, reader_runs in runs.items():
        for number, run in enumerate(reader_runs, start=1):
            projection = segments.project(run, units)
            path = paths[(reader, number)]
            rows.append(
                {
                    "myth": myth,
                    "reader": reader,
                    "run": number,
                    "file": path,
                    "sha256": reads.sha256_read(path),
                    **segments.run_summary(run, projection),
                }
            )
            issues += segments.diagnostics_rows(run, projection, myth=myth, reader=reader, run=number, file=path)
    columns = ["myth", "reader", "run", "file", "issue", "segment", "detail"]
    return pd.DataFrame(rows), pd.DataFrame(issues, columns=columns)


def pair_values(
    myth: str, reader: str, runs: Sequence[segments.Run], labels: np.ndarray, boundaries: np.ndarray, values: list[dict]
) -> tuple[pd.DataFrame, dict[str, float]]:
    """The pair table of one reader, and its values (means; the human's pairs one by one)."""
    key = reader_key(reader)
    frame = runtriples.pair_frame(labels, boundaries, len(segments.FUNCTIONS))
    dates = [run.annotated_date.isoformat() if run.annotated_date else "" for run in runs]
    frame.insert(0, "reader", reader)
    frame.insert(0, "myth", myth)
    frame["date_a"] = [dates[a - 1] for a in frame["run_a"]]
    frame["date_b"] = [dates[b - 1] for b in frame["run_b"]]
    frame["interval_days"] = [
        segments.interval_days(runs[a - 1], runs[b - 1]) for a, b in zip(frame["run_a"], frame["run_b"])
    ]
    frame["date_note"] = [
        "; ".join(n for n in (runs[a - 1].date_note, runs[b - 1].date_note) if n)
        for a, b in zip(frame["run_a"], frame["run_b"])
    ]
    summary = runtriples.reader_summary(frame)
    for column in (
        "kappa_boundary",
        "kappa_label",
        "gap",
        "agreement_label",
        "chance_label",
        "agreement_boundary",
        "chance_boundary",
    ):
        values.append(
            keys.READER_MEAN.row(
                summary[column],
                mean=column,
                reader=key,
                myth=myth,
                note=f"mean over {summary['pairs']} pairs of {len(runs)} runs",
            )
        )
    values.append(
        keys.BOUNDARY_SHARE.row(
            segments.boundary_share(boundaries),
            reader=key,
            myth=myth,
            note="boundary units / covered units, over all runs",
        )
    )
    values.append(keys.RUNS.row(len(runs), reader=key, myth=myth))
    values.append(keys.PAIRS.row(summary["pairs"], reader=key, myth=myth, note=f"unordered pairs of {len(runs)} runs"))
    values.append(
        keys.COLLECTION_DAYS.row(
            segments.collection_days(runs), reader=key, myth=myth, note="first to last annotated_date, both counted"
        )
    )
    if key == "human":
        dominant, share = segments.dominant_label_share(labels)
        values.append(keys.DOMINANT_LABEL.row(share, myth=myth, note=f"{dominant}, over the three runs"))
        names = tuple(str(number) for number in range(1, len(runs) + 1))
        layers = {
            "kappa_label": Ratings(labels.T, tuple(segments.FUNCTIONS), names),
            "kappa_boundary": Ratings(boundaries.T, (0, 1), names),
        }
        for row in frame.itertuples(index=False):
            pair = {"myth": myth, "a": row.run_a, "b": row.run_b}
            note = f"{row.date_a} to {row.date_b}" + (f"; {row.date_note}" if row.date_note else "")
            references = {
                measure: cohen_reference(layer, raters=(str(row.run_a), str(row.run_b)))
                for measure, layer in layers.items()
            }
            values += [
                keys.HUMAN_PAIR.row(
                    row.kappa_label, pair_measure="kappa_label", **pair, reference=references["kappa_label"]
                ),
                keys.HUMAN_PAIR.row(
                    row.kappa_boundary, pair_measure="kappa_boundary", **pair, reference=references["kappa_boundary"]
                ),
                keys.HUMAN_PAIR.row(row.gap, pair_measure="gap", **pair),
                keys.HUMAN_PAIR_DAYS.row(row.interval_days, note=note, **pair),
            ]
    return frame, summary


def placement_values(
    myth: str, reader: str, boundaries: np.ndarray, windows: Sequence[int], values: list[dict]
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Boundary placement of one reader's runs (``phaseshift.boundary_placement``): its
    values appended to ``values``; the pairs' rows and the reader's means."""
    placement = phaseshift.boundary_placement(boundaries, windows, run_names=range(1, len(boundaries) + 1))
    key = reader_key(reader)
    for window in windows:
        values.append(
            keys.PLACEMENT.row(
                placement["within"][window],
                reader=key,
                myth=myth,
                window=placement_name(window),
                note=f"share of the smaller boundary set within {window} unit(s), mean over pairs",
            )
        )
    values.append(keys.PLACEMENT_CHANCE.row(placement["chance"], reader=key, myth=myth))
    rows = pd.DataFrame(placement["pairs"])
    rows.insert(0, "reader", reader)
    rows.insert(0, "myth", myth)
    summary = {f"placement_{placement_name(w)}": placement["within"][w] for w in windows}
    return rows, {**summary, "placement_chance": placement["chance"]}


def comparison_values(
    myth: str, runs: Mapping[str, Sequence[segments.Run]], summaries: Mapping[str, dict], units: segments.Units
) -> list[dict]:
    """The human against the models on this myth, and what the write-up says of her runs."""
    gaps = {reader: summary["gap"] for reader, summary in summaries.items()}
    human = summaries["human"]
    values = [
        keys.GAP_DIFFERENCE.row(difference(gaps["human"], gaps[model]), model=model, myth=myth)
        for model in gaps
        if model != "human"
    ]
    values.append(
        keys.GAP_RANK.row(
            runtriples.reader_rank(gaps, "human"), myth=myth, note="1 = the largest gap of the " + ", ".join(gaps)
        )
    )
    values.append(keys.AGREEMENT_PER_CHANCE.row(ratio(human["agreement_label"], human["chance_label"]), myth=myth))
    human_runs = [run for reader, reader_runs in runs.items() if reader_key(reader) == "human" for run in reader_runs]
    values.append(
        keys.SEGMENT_LINES.row(
            segments.mean_segment_lines(human_runs),
            myth=myth,
            note="line_end - line_start + 1 over the human's kept segments",
        )
    )
    every_run = [run for reader_runs in runs.values() for run in reader_runs]
    values.append(
        keys.SEGMENTS_PER_RUN.row(
            segments.mean_segments(every_run),
            runs_of="all",
            myth=myth,
            note=f"kept segments per run, over {len(every_run)} runs",
        )
    )
    values.append(
        keys.TYPICAL_SEGMENTS.row(
            segments.median_segments(every_run),
            myth=myth,
            note=f"median of the kept segments per run, over {len(every_run)} runs",
        )
    )
    for reader, reader_runs in runs.items():
        values.append(
            keys.SEGMENTS_PER_RUN.row(
                segments.mean_segments(reader_runs),
                runs_of=reader_key(reader),
                myth=myth,
                note="kept segments per run: " + ", ".join(str(len(run.segments)) for run in reader_runs),
            )
        )
    if units.per_line:
        values.append(keys.NUMBERED_LINES.row(segments.numbered_lines(units), myth=myth))
    return values


def pair_runs(
    myth: str,
    text_path: str,
    run_ids: Sequence[tuple[str, int]],
    run_paths: Sequence[str],
    settings: Mapping[str, object],
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """Everything rule pair_shvets2026_runs computes for ``myth`` (module docstring) from its
    numbered text and its run files (``run_ids``: (reader, run number) of each of
    ``run_paths``), under the paper's ``settings`` (``fractional_lines``,
    ``placement_windows``): its values, the frame ``projection`` and the tables ``runs``,
    ``diagnostics``, ``pairs``, ``readers`` and ``placement``."""
    log = log or logging.getLogger(__name__)
    units = segments.read_units(text_path, per_line=UNIT_GRANULARITY[myth])
    log.info("%s: %d units (%s)", myth, units.n_units, "lines" if units.per_line else "blocks")
    runs, paths = read_runs(run_ids, run_paths, settings["fractional_lines"], log)

    values = [
        keys.UNITS.row(
            units.n_units,
            myth=myth,
            note=f"{'lines' if units.per_line else 'blocks'}; {len(units.skipped)} numbered lines skipped",
        )
    ]
    runs_table, diagnostics = run_rows(myth, runs, paths, units)
    for issue, key in DIAGNOSTIC_ISSUES.items():
        chosen = diagnostics[diagnostics["issue"] == issue]
        values.append(
            keys.DIAGNOSTICS.row(
                len(chosen),
                issue=key,
                myth=myth,
                note="; ".join(
                    f"{r.reader} run {r.run} {r.segment}: {r.detail}".replace(" :", ":") for r in chosen.itertuples()
                )[:500],
            )
        )

    pair_tables, reader_rows, placement_tables, summaries = [], [], [], {}
    for reader, reader_runs in runs.items():
        labels, boundaries = segments.project_runs(reader_runs, units)
        frame, summary = pair_values(myth, reader, reader_runs, labels, boundaries, values)
        summaries[reader_key(reader)] = summary
        placement_rows, placement = placement_values(myth, reader, boundaries, settings["placement_windows"], values)
        pair_tables.append(frame)
        placement_tables.append(placement_rows)
        reader_rows.append(
            {
                "myth": myth,
                "reader": reader_key(reader),
                "runs": len(reader_runs),
                **summary,
                "share_boundary": segments.boundary_share(boundaries),
                **placement,
            }
        )

    values += comparison_values(myth, runs, summaries, units)

    provenance = {
        "paper": PAPER,
        "myth": myth,
        "text": f"{text_path} (sha256 {reads.sha256_read(text_path)})",
        "runs": f"{len(run_paths)} run files; each file's sha256 in runs_{myth}.tsv",
        "units": f"{units.n_units} {'lines' if units.per_line else 'blocks'} (shvets2026.segments)",
        "settings": f"fractional_lines={settings['fractional_lines']}; "
        f"placement_windows={settings['placement_windows']}",
        "kappa": "Cohen, fixed category set (7 functions; boundary / not), on units both runs cover; "
        "chance 1 -> kappa 1 (reagree.methods.runtriples)",
    }
    log.info("%d values", len(values))
    return RuleOutputs(
        values=values,
        frames={"projection": segments.projection_frame(runs, units, myth=myth)},
        tables={
            "runs": Table(runs_table, f"Run files of {myth}: what was kept", provenance),
            "diagnostics": Table(
                diagnostics,
                f"Run files of {myth}: segments skipped or read with a note, duplicate ids, flagged dates",
                provenance,
            ),
            "pairs": Table(
                pd.concat(pair_tables, ignore_index=True),
                f"Every pair of runs of each reader on {myth}: agreement, chance, Cohen's kappa per layer",
                provenance,
            ),
            "readers": Table(
                pd.DataFrame(reader_rows),
                f"Readers on {myth}: means over their run pairs (Tables 1 and 2), boundary placement",
                provenance,
            ),
            "placement": Table(
                pd.concat(placement_tables, ignore_index=True),
                f"Boundary placement per pair of runs on {myth}",
                provenance,
            ),
        },
    )
