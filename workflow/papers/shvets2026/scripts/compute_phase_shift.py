"""Rule compute_shvets2026_phase_shift: Table 4 (onset lags between runs, observed and
expected under every rotation) for the human's three runs and for every model run-triple,
and B2 (is a relabel the neighbouring fragment's label?), also on the units more than two
units from any boundary (the authors' check that B2 is not a side effect of shifted
boundaries). Composition only.
"""
import pandas as pd

from reagree.methods import phaseshift, runtriples, segments
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table, write_tsv, write_values
from shvets2026 import keys
from shvets2026.release import UNIT_GRANULARITY

TABLE4 = {  # value key measure: column of phaseshift.phase_shift
    "lag_same_place": ("same_place_observed", "same_place_expected"),
    "lag_one_step": ("one_step_observed", "one_step_expected"),
}
FAR_FROM_BOUNDARIES = 2  # units: the authors' results/table1.txt reruns B2 on units > 2 units from any boundary
RATIO_KEYS = {"one_step_per_same_place": "ratio_one_step_per_same_place", "same_place_ratio": "ratio_same_place",
              "one_step_ratio": "ratio_one_step"}  # column of phaseshift.phase_shift: value key measure

with rule_log(snakemake) as log:
    myths, models, human = snakemake.params.myths, snakemake.params.models, snakemake.params.human
    max_lag = snakemake.params.max_lag
    values, human_rows, triple_tables, b2_rows = [], [], [], []
    for myth, projection_path, text_path in zip(myths, snakemake.input.projections, snakemake.input.texts):
        units = segments.read_units(text_path, per_line=UNIT_GRANULARITY[myth])
        projection = pd.read_csv(projection_path, sep="\t", dtype={"lines": str})
        labels, boundaries = segments.codes_from_frame(projection, human, units.n_units)
        table4 = phaseshift.phase_shift(labels, max_lag)
        runs = "+".join(str(number) for number in sorted(projection.loc[projection["reader"] == human, "run"].unique()))
        human_rows.append({"myth": myth, "reader": "human", "runs": runs, **table4})
        for measure, (observed, expected) in TABLE4.items():
            values += [keys.LAG.row(table4[observed], lag=measure, myth=myth, seen="observed"),
                       keys.LAG.row(table4[expected], lag=measure, myth=myth, seen="expected",
                                    note=f"mean over every rotation k = 1..P-1, P = {table4['pieces']} pieces")]
        values += [keys.RATIO.row(table4[column], ratio=measure, myth=myth) for column, measure in RATIO_KEYS.items()]
        values += [keys.PIECES.row(table4["pieces"], count="pieces", myth=myth),
                   keys.PIECES.row(table4["onsets"], count="onsets", myth=myth)]
        b2 = phaseshift.neighbour_relabels(labels)
        b2_rows.append({"myth": myth, "reader": "human", "events": b2.events, "licensed": b2.licensed,
                        "observed": b2.observed, "chance": b2.chance, "gap": b2.gap,
                        "labels_seen": b2.labels_seen, "fragments": b2.fragments})
        values += [keys.B2_EVENTS.row(b2.events, myth=myth),
                   keys.B2.row(b2.observed, b2="b2_observed", myth=myth, note=f"{b2.licensed} of {b2.events} licensed"),
                   keys.B2.row(b2.chance, b2="b2_chance", myth=myth,
                               note=f"mean |licensed| / {b2.labels_seen - 1} (labels seen - 1), exact"),
                   keys.B2.row(b2.gap, b2="b2_gap", myth=myth)]
        far = phaseshift.units_far_from_boundaries(labels, boundaries, FAR_FROM_BOUNDARIES)
        values.append(keys.B2_FAR_EVENTS.row(phaseshift.neighbour_relabels(labels, far).events, myth=myth,
                                             note=f"departures on the {int(far.sum())} units more than "
                                                  f"{FAR_FROM_BOUNDARIES} units from any boundary"))
        per_myth = []
        for model in models:
            model_labels, _ = segments.codes_from_frame(projection, model, units.n_units)
            table = phaseshift.phase_shift_subsets(model_labels, runtriples.run_subsets(len(model_labels), 3), max_lag)
            table.insert(0, "myth", myth)
            table.insert(0, "model", model)
            per_myth.append(table)
        pooled = pd.concat(per_myth, ignore_index=True)
        triple_tables.append(pooled)
        summary = phaseshift.summarise_subsets(pooled, ["myth"]).iloc[0]
        values += [keys.TRIPLE_RATIO_MAX.row(summary["one_step_per_same_place_max"], myth=myth,
                                             note=f"over {summary['subsets']} model triples"),
                   keys.TRIPLE_SAME_PLACE_MIN.row(summary["same_place_ratio_min"], myth=myth,
                                                  note=f"o0 / e0 over {summary['subsets']} model triples")]
        log.info("%s: human %d pieces; %d model triples", myth, table4["pieces"], len(pooled))

    everything = pd.concat(triple_tables, ignore_index=True)
    provenance = {"paper": "shvets2026", "projections": ", ".join(snakemake.input.projections),
                  "lags": f"|lag| <= {max_lag} pieces; -1 wins a tie with +1; expected = mean over every rotation "
                          "k = 1..P-1 of the earlier run's sequence (reagree.methods.phaseshift)"}
    write_table(pd.DataFrame(human_rows), snakemake.output.table4,
                "Table 4: onset lags between the human's three runs (all six ordered pairs)", provenance)
    write_table(phaseshift.summarise_subsets(everything, ["myth", "model"]), snakemake.output.table4_models,
                "Table 4 over every model run-triple: highest one step per same place, lowest same-place ratio",
                provenance)
    write_tsv(everything, snakemake.output.triples)
    write_table(pd.DataFrame(b2_rows), snakemake.output.b2,
                "B2: departures from the majority that take a neighbouring fragment's label", provenance)
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    log.info("%d values", len(values))
