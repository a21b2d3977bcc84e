"""Rule diff_claims: join a paper's claims with its computed values, after holding the
sha256 of every input the paper read (inputs.sha256, and the bytes each computing rule
parsed: <values>.reads) against its pin or first-use record (the claims that quote the
authors' repository were held against their files by rule check_ledger, which runs first);
hold the variants its rules computed against each printed number (explained_by). An error
in the paper's files fails this paper alone (reagree.pipeline.failures)."""

from reagree.pipeline.claims import diff_claims
from reagree.pipeline.failures import paper_failure
from reagree.pipeline.paper import paper_code
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.pins import verify_read_inputs, verify_rule_reads
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import read_values, write_tsv
from reagree.pipeline.variantplan import read_variants

with (
    rule_log(snakemake) as log,
    paper_failure(snakemake.output.claims, snakemake.output.error, log, snakemake.wildcards.paper),
):
    paper = load_paper(snakemake.input.paper)
    checksums = next(iter(snakemake.input.inputs), None)  # inputs.sha256, or none for a paper that fetches nothing
    if checksums is not None:
        verify_read_inputs(paper["id"], checksums, dict(snakemake.params.pins))
    verify_rule_reads(paper["id"], list(snakemake.params.computed), checksums, dict(snakemake.params.pins))
    declared = paper_code(paper["id"])  # its keys and variant plan
    plan = declared.variants
    table = diff_claims(
        paper["claims"],
        read_values(snakemake.input.values),
        paper["id"],
        dict(snakemake.params.settings),
        dict(snakemake.params.expansions),
        variants=read_variants(list(snakemake.input.variants)),
        families_for=plan.families_for if plan else None,
        declared=declared.keys.family_of,
    )
    write_tsv(table, snakemake.output.claims)
    log.info("%s: %s", paper["id"], table["status"].value_counts().to_dict())
