"""Rule tabulate_mozetic2016_agreement: Table 4 from the per-dataset rows, in the paper's
dataset order (mozetic2016.agreement.tabulate_agreement)."""

import pandas as pd

from mozetic2016.agreement import tabulate_agreement
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake):
    rows = [pd.read_csv(path, sep="\t", dtype={"scheme": str}) for path in snakemake.input.rows]
    write_outputs(tabulate_agreement(rows, list(snakemake.input.data)), snakemake)
