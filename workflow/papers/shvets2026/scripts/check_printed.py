"""Rule check_shvets2026_printed: the values of the internal claims, each computed from other
numbers the paper, its repository or its replication print (the relations of
shvets2026.internal, read from the claim tables by reagree.pipeline.internal). No data is
read. Composition only.
"""
from reagree.pipeline.internal import evaluate
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_values
from shvets2026.internal import RELATIONS

with rule_log(snakemake) as log:
    claims = load_paper(snakemake.input.paper)["claims"]
    rows = evaluate(RELATIONS, claims)
    write_values(rows, snakemake.output.values, rule=snakemake.rule)
    log.info("%d values from the printed numbers of %d claims", len(rows), len(claims))
