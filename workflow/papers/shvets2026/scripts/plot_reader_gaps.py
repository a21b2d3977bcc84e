"""Rule plot_shvets2026_reader_gaps: Tables 1 and 2 in one table, and the Table 2 chart
redrawn with the human added (shvets2026.plots.reader_gaps)."""

import pandas as pd

from reagree.pipeline.rulekit import rule_log, write_outputs
from shvets2026.plots import reader_gaps

with rule_log(snakemake):
    readers = [pd.read_csv(path, sep="\t") for path in snakemake.input.readers]
    write_outputs(
        reader_gaps(readers, snakemake.params.myths, list(snakemake.input.readers), snakemake.output.figure), snakemake
    )
