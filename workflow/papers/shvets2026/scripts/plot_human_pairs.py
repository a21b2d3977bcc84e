"""Rule plot_shvets2026_human_pairs: label kappa against boundary kappa for each pair of
the human's runs, labelled by the days between them."""
import pandas as pd

from reagree.pipeline.rulekit import rule_log
from shvets2026.plots import human_pairs

with rule_log(snakemake):
    pairs = pd.concat([pd.read_csv(path, sep="\t") for path in snakemake.input.pairs], ignore_index=True)
    human_pairs(pairs[pairs["reader"] == snakemake.params.human], snakemake.output[0],
                "Shvets (2026), recomputed from the released runs:\nthe human's run pairs, label vs boundary kappa (days between runs)")
