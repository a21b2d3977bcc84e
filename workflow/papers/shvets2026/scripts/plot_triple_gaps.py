"""Rule plot_shvets2026_triple_gaps: the gap of each of the 120 run-triples per model and
myth, with the human's own gap as a line (shvets2026.plots.triple_gap_figure)."""

import pandas as pd

from reagree.pipeline.rulekit import rule_log
from shvets2026.plots import triple_gap_figure

with rule_log(snakemake):
    triple_gap_figure(
        pd.read_csv(snakemake.input.triples, sep="\t"),
        [pd.read_csv(path, sep="\t") for path in snakemake.input.readers],
        snakemake.params.myths,
        snakemake.output[0],
    )
