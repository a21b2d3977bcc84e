"""Rule compute_shvets2026_phase_shift: Table 4 (onset lags between runs, observed and
expected) for the human's three runs and for every model run-triple, and B2; every chance
level as the authors' replayed estimate and exactly (shvets2026.phase_shift.compute_phase_shift)."""

from reagree.pipeline.rulekit import rule_log, write_outputs
from shvets2026.phase_shift import compute_phase_shift

with rule_log(snakemake) as log:
    params = snakemake.params
    write_outputs(
        compute_phase_shift(
            params.myths,
            params.models,
            params.human,
            params.max_lag,
            list(snakemake.input.projections),
            list(snakemake.input.texts),
            log,
        ),
        snakemake,
    )
