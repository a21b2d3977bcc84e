"""Rules check_<paper>_printed (workflow/rules/printed.smk, one for every paper whose PAPER
declares relations): the values of a paper's internal claims, each computed from other
numbers the paper (its README, repository or replication) prints, by the relations of
``PAPER.relations`` (reagree.pipeline.internal reads them from the claim tables), with
each value's range over the printed inputs' intervals, and the variants of each relation
(reagree.pipeline.internal.check_printed). No data is read. One script for every paper.
"""

from reagree.pipeline.internal import check_printed
from reagree.pipeline.paper import paper_code
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    relations = paper_code(snakemake.params.paper).relations
    claims = load_paper(snakemake.input.paper)["claims"]
    outputs = check_printed(relations, claims)
    write_outputs(outputs, snakemake)
    log.info(
        "%d values and %d variants from the printed numbers of %d claims",
        len(outputs.values),
        len(outputs.variants),
        len(claims),
    )
