"""Rules check_<paper>_printed: the values of a paper's internal claims, each computed from
other numbers the paper (its README, repository or replication) prints, by the relations
of ``<paper>.internal`` (reagree.pipeline.internal reads them from the claim tables). No
data is read. One script for every paper; composition only.
"""
from reagree.pipeline.internal import evaluate
from reagree.pipeline.papercode import import_code
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_values

with rule_log(snakemake) as log:
    relations = import_code(f"{snakemake.params.paper}.internal").RELATIONS
    claims = load_paper(snakemake.input.paper)["claims"]
    rows = evaluate(relations, claims)
    write_values(rows, snakemake.output.values, rule=snakemake.rule)
    log.info("%d values from the printed numbers of %d claims", len(rows), len(claims))
