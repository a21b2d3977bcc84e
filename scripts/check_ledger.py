"""Rule check_ledger: a paper's ledger held against a fresh scan of its documents and its claims."""

from reagree.pipeline.ledger import check_paper
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_tsv

with rule_log(snakemake) as log:
    paper = load_paper(snakemake.input.paper)
    ledger = snakemake.input.ledger[0] if snakemake.input.ledger else None
    table, counts = check_paper(
        paper["id"], paper["claims"], list(snakemake.params.documents), ledger, strict=bool(snakemake.params.strict)
    )
    write_tsv(table, snakemake.output.table)
    write_tsv(counts, snakemake.output.counts)
    log.info("%s: %s", paper["id"], counts.drop(columns=["sha256"]).to_dict("records"))
