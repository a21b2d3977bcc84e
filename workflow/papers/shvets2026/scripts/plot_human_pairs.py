"""Rule plot_shvets2026_human_pairs: label kappa against boundary kappa for each pair of the
human's runs, labelled by the days between them (shvets2026.plots.human_pair_figure)."""

import pandas as pd

from reagree.pipeline.rulekit import rule_log
from shvets2026.plots import human_pair_figure

with rule_log(snakemake):
    human_pair_figure(
        [pd.read_csv(path, sep="\t") for path in snakemake.input.pairs], snakemake.params.human, snakemake.output[0]
    )
