# Rules check_<paper>_printed: one for every enabled paper whose package declares relations
# (PAPER.relations: reagree.pipeline.paper), the same for all. Each computes the values of
# the paper's internal claims from other numbers the paper prints, and the variants of each
# relation (scripts/check_printed.py); no data is read. Its outputs are registered with the
# paper's build like any rule's, so the generic rules gather and diff them.
# (Included after the papers' rules, before rules/claims.smk.)
from pathlib import Path

from reagree.pipeline.paper import check_rule, paper_code

for _paper_id in [paper for paper in PAPERS if paper_code(paper).relations]:
    _build = REGISTRY.paper(_paper_id)

    rule:
        name:
            check_rule(_paper_id)
        input:
            paper=f"workflow/papers/{_paper_id}/paper.yaml",
            tables=[f"workflow/papers/{_paper_id}/{table}" for table in _build.paper["claim_tables"]],
            # the relations are the paper package's code: a change to it checks again
            code=sorted(str(path) for path in Path(f"workflow/papers/{_paper_id}/{_paper_id}").glob("*.py")),
        output:
            values=f"{_build.results}/values/printed.tsv",
            variants=f"{_build.results}/variants/printed.tsv",
        log:
            f"{_build.logs}/check_printed.log",
        conda:
            "../../envs/reagree.yaml"
        threads: 1
        params:
            paper=_paper_id,
        script:
            "../../scripts/check_printed.py"

    _build.add_outputs(getattr(rules, check_rule(_paper_id)))
