"""Rule plot_jayanetti2026_figures: the paper's three figures, drawn in one job (one
matplotlib start instead of three; jayanetti2026.plots.draw_figures): pairwise kappa among
the nine raters, each tool's kappa by tie rule, and the forest of intervals with the
write-up's five under its own scheme."""

import pandas as pd

from jayanetti2026.plots import draw_figures
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values

with rule_log(snakemake):
    draw_figures(
        pd.read_csv(snakemake.input.pairwise, sep="\t"),
        [pd.read_csv(path, sep="\t") for path in snakemake.input.tie_rules],
        list(snakemake.params.tie_rules),
        read_values(snakemake.input.writeup),
        {
            "pairwise": snakemake.output.pairwise,
            "tie_rules": snakemake.output.tie_rules,
            "forest": snakemake.output.forest,
        },
    )
