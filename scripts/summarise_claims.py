"""Rule summarise_claims: status counts per paper, every mismatch cause, missing key and
reference disagreement, the ledgers' counts of printed numbers, the papers whose claims
could not be diffed and the papers this run left out."""

from reagree.pipeline.claims import read_claims, summarise
from reagree.pipeline.failures import read_failure
from reagree.pipeline.ledger import read_counts
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values, write_text_atomic, write_tsv

with rule_log(snakemake) as log:
    papers = snakemake.params.papers
    tables = {paper: read_claims(path) for paper, path in zip(papers, snakemake.input.claims)}
    values = {paper: read_values(path) for paper, path in zip(papers, snakemake.input.values)}
    ledgers = {paper: read_counts(path) for paper, path in zip(papers, snakemake.input.ledgers)}
    failed = {paper: read_failure(path) for paper, path in zip(papers, snakemake.input.errors)}
    summary, markdown = summarise(
        tables, values, ledgers, {p: e for p, e in failed.items() if e}, list(snakemake.params.left_out)
    )
    write_tsv(summary, snakemake.output.tsv)
    write_text_atomic(snakemake.output.md, markdown)
    log.info("summary: %s", summary.to_dict("records"))
