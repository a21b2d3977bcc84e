"""Rule diff_claims: join a paper's claims with its computed values."""
from reagree.pipeline.claims import diff_claims
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values, write_tsv

with rule_log(snakemake) as log:
    paper = load_paper(snakemake.input.paper)
    table = diff_claims(paper["claims"], read_values(snakemake.input.values), paper["id"],
                        dict(snakemake.params.settings), dict(snakemake.params.expansions))
    write_tsv(table, snakemake.output[0])
    log.info("%s: %s", paper["id"], table["status"].value_counts().to_dict())
