"""Rule enumerate_shvets2026_triples: every run-triple of each model on each myth, how many
reach each gap threshold, the "far" runs, the runs' dates and counts
(shvets2026.triples.enumerate_triples)."""

import pandas as pd

from reagree.pipeline.rulekit import rule_log, write_outputs
from shvets2026.triples import enumerate_triples

with rule_log(snakemake) as log:
    params = snakemake.params
    pairs = {myth: pd.read_csv(path, sep="\t") for myth, path in zip(params.myths, snakemake.input.pairs)}
    write_outputs(
        enumerate_triples(
            pairs, params.myths, params.models, params.human, params.thresholds, list(snakemake.input.pairs), log
        ),
        snakemake,
    )
