# jayanetti2026: "Nobody Truly Agrees on Sentiment" (arXiv:2610.10318), released labels.

J26 = "results/jayanetti2026"
J26_SOURCES = [f"data/jayanetti2026/{s['name']}" for s in PAPERS["jayanetti2026"]["sources"]]


rule compute_jayanetti2026_values:
    input:
        labels="data/jayanetti2026/majorityvote.tsv",
        sources=J26_SOURCES,
    output:
        values=f"{J26}/values.tsv",
        pairwise=f"{J26}/tables/pairwise_kappa.tsv",
        pairwise_md=f"{J26}/tables/pairwise_kappa.md",
        ties=f"{J26}/tables/ties.tsv",
        ties_md=f"{J26}/tables/ties.md",
        against_majority=f"{J26}/tables/kappa_vs_majority.tsv",
        against_majority_md=f"{J26}/tables/kappa_vs_majority.md",
    params:
        draws=config["bootstrap"]["draws"],
        seed=config["bootstrap"]["seed"],
        level=config["bootstrap"].get("level", 0.95),
    log:
        "logs/jayanetti2026/compute_values.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_values.py"


rule plot_jayanetti2026_pairwise:
    input:
        f"{J26}/tables/pairwise_kappa.tsv",
    output:
        report(f"{J26}/figures/pairwise_kappa.png", category="jayanetti2026",
               caption="../../report/jayanetti2026_pairwise.rst"),
    log:
        "logs/jayanetti2026/plot_pairwise.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_pairwise.py"


PAPER_TARGETS["jayanetti2026"] += [
    f"{J26}/claims.tsv",
    f"{J26}/figures/pairwise_kappa.png",
]
