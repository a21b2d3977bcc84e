# Diff each paper's computed values against the numbers it printed, then summarise.


rule diff_claims:
    input:
        values="results/{paper}/values.tsv",
        paper="workflow/papers/{paper}/paper.yaml",
    output:
        "results/{paper}/claims.tsv",
    log:
        "logs/claims/{paper}.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    script:
        "../../scripts/diff_claims.py"


rule summarise_claims:
    input:
        expand("results/{paper}/claims.tsv", paper=PAPERS),
    output:
        tsv="results/summary.tsv",
        md=report("results/summary.md", category="Summary"),
    params:
        papers=list(PAPERS),
    log:
        "logs/claims/summary.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    script:
        "../../scripts/summarise_claims.py"
