"""Rule plot_shvets2026_reader_gaps: Tables 1 and 2 in one table, and the Table 2 chart
redrawn with the human added (gap per reader per myth)."""
import pandas as pd

from reagree.pipeline.rulekit import rule_log
from shvets2026.plots import gap_by_reader
from reagree.pipeline.tables import write_table

with rule_log(snakemake):
    readers = pd.concat([pd.read_csv(path, sep="\t") for path in snakemake.input.readers], ignore_index=True)
    columns = ["myth", "reader", "runs", "pairs", "kappa_boundary", "kappa_label", "gap",
               "agreement_label", "chance_label", "agreement_boundary", "chance_boundary", "share_boundary"]
    write_table(readers[columns], snakemake.output.table,
                "Tables 1 and 2: mean Cohen's kappa over all pairs of each reader's runs",
                {"paper": "shvets2026", "inputs": ", ".join(snakemake.input.readers)})
    gap_by_reader(readers, snakemake.params.myths, snakemake.output.figure,
                  "Shvets (2026), Tables 1-2 recomputed from the released runs:\nboundary kappa minus label kappa per reader")
