"""Table 4 and B2 of shvets2026 (rule compute_shvets2026_phase_shift: ``compute_phase_shift``):
onset lags between runs, observed and expected, for the human's three runs and for every
model run-triple, and B2 (is a relabel the neighbouring fragment's label?), also on the
units more than two units from any boundary (the authors' check that B2 is not a side
effect of shifted boundaries).

Every chance level is computed two ways (``shvets2026.streams``): as the authors printed
it, their seeded Monte Carlo estimate replayed draw for draw (scheme ``python-random``;
seeds and draws in ``shvets2026.release.STREAM``), under the claimed keys
(``lag_*.human.<myth>.expected``, ``b2_chance``, ``b2_gap``), and as its exact expectation
(``reagree.methods.phaseshift``) under keys of its own (``expected_exact``,
``b2_chance_exact``, ``b2_gap_exact``). Both are in table4 and b2; the variants hold both
for the claims diff (family chance_expectation), and for the lowest model-triple ratio too.
"""

from __future__ import annotations

import logging
from typing import Mapping, Sequence

import pandas as pd

from reagree.methods import phaseshift, runtriples
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.pipeline.variantplan import variant_rows

from shvets2026 import keys, segments, streams
from shvets2026.release import STREAM, UNIT_GRANULARITY, shuffle_blocks
from shvets2026.variants import PLAN

TABLE4 = {  # value key measure: the measure of phaseshift's lag counts
    "lag_same_place": "same_place",
    "lag_one_step": "one_step",
}
FAR_FROM_BOUNDARIES = 2  # units: the authors' results/table1.txt reruns B2 on units > 2 units from any boundary
RATIO_KEYS = {
    "one_step_per_same_place": "ratio_one_step_per_same_place",
    "same_place_ratio": "ratio_same_place",
    "one_step_ratio": "ratio_one_step",
}  # column of phaseshift.phase_shift: value key measure


def scheme(stream: Mapping[str, object], **settings: object) -> str:
    """values.tsv's scheme text of a replayed value (its settings, for `under` in the claims)."""
    return "; ".join(
        [streams.STREAM_SCHEME] + [f"{name}={value}" for name, value in {"draws": stream["draws"], **settings}.items()]
    )


def compute_phase_shift(
    myths: Sequence[str],
    models: Sequence[str],
    human: str,
    max_lag: int,
    projection_paths: Sequence[str],
    text_paths: Sequence[str],
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """Table 4 and B2 for each of ``myths`` (its projection table, ``shvets2026.pairs``, and
    its numbered text) with ``max_lag`` (the setting): the human's runs and every triple of
    each of ``models``; values and variants, the frame ``triples`` and the tables ``table4``,
    ``table4_models`` and ``b2``."""
    log = log or logging.getLogger(__name__)
    values, variant_table, human_rows, triple_tables, b2_rows = [], [], [], [], []
    for myth, projection_path, text_path in zip(myths, projection_paths, text_paths):
        units = segments.read_units(text_path, per_line=UNIT_GRANULARITY[myth])
        projection = pd.read_csv(projection_path, sep="\t", dtype={"lines": str})
        labels, boundaries = segments.codes_from_frame(projection, human, units.n_units)
        table4 = phaseshift.phase_shift(labels, max_lag)
        sequences = phaseshift.pieces(labels)
        lag_seed = STREAM["lags"]["seed"].format(myth=myth)
        lag_scheme = scheme(STREAM["lags"], seed=lag_seed, max_lag=max_lag, shuffle_blocks=shuffle_blocks(max_lag))
        runs = "+".join(str(number) for number in sorted(projection.loc[projection["reader"] == human, "run"].unique()))
        row = {"myth": myth, "reader": "human", "runs": runs, "pieces": table4["pieces"], "onsets": table4["onsets"]}
        for measure, name in TABLE4.items():
            expected = streams.lag_count_expectations(
                sequences, name, lag_seed, STREAM["lags"]["draws"], max_lag, shuffle_blocks(max_lag)
            )
            replayed = keys.LAG.row(
                expected[streams.REPLAYED],
                lag=measure,
                myth=myth,
                seen="expected",
                note=f"the authors' Monte Carlo estimate replayed: mean over "
                f"{STREAM['lags']['draws']} seeded random rotations",
            )
            replayed.update(scheme=lag_scheme)
            values += [
                keys.LAG.row(table4[f"{name}_observed"], lag=measure, myth=myth, seen="observed"),
                replayed,
                keys.LAG.row(
                    expected[streams.EXACT],
                    lag=measure,
                    myth=myth,
                    seen="expected_exact",
                    note=f"mean over every rotation k = 1..P-1, P = {table4['pieces']} pieces",
                ),
            ]
            key = keys.LAG.key(lag=measure, myth=myth, seen="expected")
            for family in PLAN.families_for(key):
                variant_table += variant_rows(key, family, expected, own=streams.REPLAYED)
            row.update(
                {
                    f"{name}_observed": table4[f"{name}_observed"],
                    f"{name}_expected": expected[streams.REPLAYED],
                    f"{name}_expected_exact": expected[streams.EXACT],
                }
            )
        row.update({column: table4[column] for column in RATIO_KEYS})
        human_rows.append(row)
        values += [keys.RATIO.row(table4[column], ratio=measure, myth=myth) for column, measure in RATIO_KEYS.items()]
        values += [
            keys.PIECES.row(table4["pieces"], count="pieces", myth=myth),
            keys.PIECES.row(table4["onsets"], count="onsets", myth=myth),
        ]

        b2 = phaseshift.neighbour_relabels(labels)
        b2_seed = STREAM["b2"]["seed"].format(myth=myth)
        b2_replayed = streams.replayed_neighbour_relabels(
            labels, b2_seed, STREAM["b2"]["draws"], label_names=segments.FUNCTIONS
        )
        b2_scheme = scheme(STREAM["b2"], seed=b2_seed)
        b2_rows.append(
            {
                "myth": myth,
                "reader": "human",
                "events": b2.events,
                "licensed": b2.licensed,
                "observed": b2.observed,
                "chance": b2_replayed.chance,
                "gap": b2_replayed.gap,
                "chance_exact": b2.chance,
                "gap_exact": b2.gap,
                "labels_seen": b2.labels_seen,
                "fragments": b2.fragments,
            }
        )
        chance_note = (
            f"the authors' Monte Carlo estimate replayed: {STREAM['b2']['draws']} seeded draws of each event's label"
        )
        replayed_rows = [
            keys.B2.row(b2_replayed.chance, b2="b2_chance", myth=myth, note=chance_note),
            keys.B2.row(b2_replayed.gap, b2="b2_gap", myth=myth, note="observed minus the replayed chance"),
        ]
        for replayed in replayed_rows:
            replayed.update(scheme=b2_scheme)
        values += [
            keys.B2_EVENTS.row(b2.events, myth=myth),
            keys.B2_FRAGMENTS.row(b2.fragments, myth=myth, note="runs of units with one majority label"),
            keys.B2.row(b2.observed, b2="b2_observed", myth=myth, note=f"{b2.licensed} of {b2.events} licensed"),
            *replayed_rows,
            keys.B2.row(
                b2.chance,
                b2="b2_chance_exact",
                myth=myth,
                note=f"mean |licensed| / {b2.labels_seen - 1} (labels seen - 1), exact",
            ),
            keys.B2.row(b2.gap, b2="b2_gap_exact", myth=myth, note="observed minus the exact chance"),
        ]
        far = phaseshift.units_far_from_boundaries(labels, boundaries, FAR_FROM_BOUNDARIES)
        values.append(
            keys.B2_FAR_EVENTS.row(
                phaseshift.neighbour_relabels(labels, far).events,
                myth=myth,
                note=f"departures on the {int(far.sum())} units more than "
                f"{FAR_FROM_BOUNDARIES} units from any boundary",
            )
        )
        gap_key = keys.B2.key(b2="b2_gap", myth=myth)
        for family in PLAN.families_for(gap_key):
            variant_table += variant_rows(
                gap_key,
                family,
                streams.b2_gap_expectations(labels, b2_seed, STREAM["b2"]["draws"], label_names=segments.FUNCTIONS),
                own=streams.REPLAYED,
            )

        per_myth, groups = [], []
        for model in models:
            model_labels, _ = segments.codes_from_frame(projection, model, units.n_units)
            table = phaseshift.phase_shift_subsets(model_labels, runtriples.run_subsets(len(model_labels), 3), max_lag)
            table.insert(0, "myth", myth)
            table.insert(0, "model", model)
            per_myth.append(table)
            groups.append((model_labels, STREAM["triples"]["seed"].format(myth=myth, model=model)))
        pooled = pd.concat(per_myth, ignore_index=True)
        triple_tables.append(pooled)
        summary = phaseshift.summarise_subsets(pooled, ["myth"]).iloc[0]
        values += [
            keys.TRIPLE_RATIO_MAX.row(
                summary["one_step_per_same_place_max"], myth=myth, note=f"over {summary['subsets']} model triples"
            ),
            keys.TRIPLE_SAME_PLACE_MIN.row(
                summary["same_place_ratio_min"], myth=myth, note=f"o0 / e0 over {summary['subsets']} model triples"
            ),
        ]
        lowest_key = keys.TRIPLE_SAME_PLACE_MIN.key(myth=myth)
        lowest = streams.lowest_same_place_ratio(groups, STREAM["triples"]["draws"], max_lag)
        for family in PLAN.families_for(lowest_key):
            variant_table += variant_rows(lowest_key, family, lowest, own=streams.EXACT)
        replayed = keys.TRIPLE_SAME_PLACE_MIN_REPLAYED.row(
            lowest[streams.REPLAYED],
            myth=myth,
            note=f"o0 / e0 with e0 the authors' estimate replayed ({STREAM['triples']['draws']} seeded rotations per "
            "triple), as results/table4_triples_<myth>.txt prints it",
        )
        replayed.update(
            scheme=scheme(
                STREAM["triples"], seed=STREAM["triples"]["seed"].format(myth=myth, model="<model>"), max_lag=max_lag
            )
        )
        values.append(replayed)
        log.info("%s: human %d pieces; %d model triples", myth, table4["pieces"], len(pooled))

    everything = pd.concat(triple_tables, ignore_index=True)
    provenance = {
        "paper": "shvets2026",
        "projections": ", ".join(projection_paths),
        "lags": f"|lag| <= {max_lag} pieces; -1 wins a tie with +1 (reagree.methods.phaseshift)",
        "expected": "the authors' seeded Monte Carlo estimate replayed (scheme python-random: "
        f"random.Random('{STREAM['lags']['seed']}'), {STREAM['lags']['draws']} rotations after "
        f"{shuffle_blocks(max_lag)} blocks of the permutation test's shuffles); expected_exact: "
        "the mean over every rotation k = 1..P-1 of the earlier run's sequence",
    }
    log.info("%d values", len(values))
    return RuleOutputs(
        values=values,
        variants=variant_table,
        frames={"triples": everything},
        tables={
            "table4": Table(
                pd.DataFrame(human_rows),
                "Table 4: onset lags between the human's three runs (all six ordered pairs); expected as the "
                "authors' replayed estimate and exactly",
                {**provenance, "ratios": "observed / the exact expectation (the replication's ratios)"},
            ),
            "table4_models": Table(
                phaseshift.summarise_subsets(everything, ["myth", "model"]),
                "Table 4 over every model run-triple: highest one step per same place, lowest same-place ratio",
                {**provenance, "expected": "exact (the replayed estimate's lowest ratio is in variants)"},
            ),
            "b2": Table(
                pd.DataFrame(b2_rows),
                "B2: departures from the majority that take a neighbouring fragment's label; chance as the "
                "authors' replayed estimate and exactly",
                {
                    "paper": provenance["paper"],
                    "projections": provenance["projections"],
                    "chance": f"the authors' seeded estimate replayed (random.Random("
                    f"'{STREAM['b2']['seed']}'), {STREAM['b2']['draws']} draws); chance_exact: "
                    "mean |licensed| / (labels seen - 1)",
                },
            ),
        },
    )
