"""Rule summarise_claims: status counts per paper, every mismatch and missing key."""
import pandas as pd

from reagree.claims import summarise
from reagree.rulekit import rule_log
from reagree.tables import write_text_atomic, write_tsv

with rule_log(snakemake) as log:
    tables = {paper: pd.read_csv(path, sep="\t", keep_default_na=False, na_values={"computed": [""], "difference": [""]})
              for paper, path in zip(snakemake.params.papers, snakemake.input)}
    summary, markdown = summarise(tables)
    write_tsv(summary, snakemake.output.tsv)
    write_text_atomic(snakemake.output.md, markdown)
    log.info("summary: %s", summary.to_dict("records"))
