"""Rule tabulate_mozetic2016_agreement: Table 4 from the per-dataset rows, in the paper's
dataset order (the three Ser/Cro/Bos languages after the joint set). Composition only."""
import pandas as pd

from mozetic2016.release import provenance
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table

with rule_log(snakemake):
    table = pd.concat([pd.read_csv(path, sep="\t", dtype={"scheme": str}) for path in snakemake.input.rows],
                      ignore_index=True)
    write_table(table, snakemake.output.table,
                "Mozetič et al. (2016) Table 4: self- and inter-annotator agreement",
                provenance(snakemake.input.data, units="self: (tweet, annotator) with 2+ labels; "
                           "inter: tweets with 2+ annotators, each annotator's first label",
                           alpha="Alpha_int, values -1, 0, +1; interval: bootstrap over units"))
