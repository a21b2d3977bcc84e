"""Rules check_<paper>_printed: the values of a paper's internal claims, each computed from
other numbers the paper (its README, repository or replication) prints, by the relations
of ``<paper>.internal`` (reagree.pipeline.internal reads them from the claim tables), with
each value's range over the printed inputs' intervals, and the variants of each relation.
No data is read. One script for every paper; composition only.
"""
from reagree.pipeline.internal import evaluate, variant_rows
from reagree.pipeline.papercode import import_code
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_values
from reagree.pipeline.variantplan import write_variants

with rule_log(snakemake) as log:
    relations = import_code(f"{snakemake.params.paper}.internal").RELATIONS
    claims = load_paper(snakemake.input.paper)["claims"]
    rows = evaluate(relations, claims)
    write_values(rows, snakemake.output.values, rule=snakemake.rule)
    variants = variant_rows(relations, claims)
    write_variants(variants, snakemake.output.variants)
    log.info("%d values and %d variants from the printed numbers of %d claims", len(rows), len(variants), len(claims))
