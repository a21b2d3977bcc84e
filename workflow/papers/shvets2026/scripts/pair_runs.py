"""Rule pair_shvets2026_runs: one myth's runs projected on its units, every pair of runs
compared, the readers' means (Tables 1 and 2), the human's pairs and boundary placement
(shvets2026.pairs.pair_runs)."""

from reagree.pipeline.rulekit import rule_log, write_outputs
from shvets2026.pairs import pair_runs

with rule_log(snakemake) as log:
    write_outputs(
        pair_runs(
            snakemake.wildcards.myth,
            snakemake.input.text,
            snakemake.params.run_ids,
            list(snakemake.input.runs),
            snakemake.params.settings,
            log,
        ),
        snakemake,
    )
