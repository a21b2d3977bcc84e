"""Rule summarise_claims: status counts per paper, every mismatch cause, missing key and
reference disagreement, and the ledgers' counts of printed numbers."""
import pandas as pd

from reagree.pipeline.claims import read_claims, summarise
from reagree.pipeline.ledger import summary_section
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values, write_text_atomic, write_tsv

with rule_log(snakemake) as log:
    papers = snakemake.params.papers
    tables = {paper: read_claims(path) for paper, path in zip(papers, snakemake.input.claims)}
    values = {paper: read_values(path) for paper, path in zip(papers, snakemake.input.values)}
    summary, markdown = summarise(tables, values)
    ledgers = {paper: pd.read_csv(path, sep="\t", keep_default_na=False)
               for paper, path in zip(papers, snakemake.input.ledgers)}
    markdown += summary_section(ledgers)
    write_tsv(summary, snakemake.output.tsv)
    write_text_atomic(snakemake.output.md, markdown)
    log.info("summary: %s", summary.to_dict("records"))
