# results/report.html: one self-contained page (summary, mismatches, every paper's claims,
# figures and tables, every audited dataset). Open it in any browser; it needs no network.
# Each figure is captioned by its paper's report/<figure>.rst (as in Snakemake's report).

from reagree.report.load import figure_captions


rule render_report:
    input:
        summary="results/summary.tsv",
        claims=expand("results/{paper}/claims.tsv", paper=PAPERS),
        errors=expand("results/{paper}/claims_error.txt", paper=PAPERS),
        targets=REGISTRY.targets(),
        audits=AUDIT_TARGETS,
    output:
        "results/report.html",
    log:
        "logs/report.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        papers={paper: {"title": PAPERS[paper]["title"], "cite": PAPERS[paper]["cite"]} for paper in PAPERS},
        datasets=list(DATASETS),
        left_out=LEFT_OUT,
        captions=figure_captions(REGISTRY.targets(), WORKFLOW_DIR),
        settings={
            "papers": ", ".join(PAPERS) or "none",
            "bootstrap": f"{config['bootstrap']['draws']} draws, seed {config['bootstrap']['seed']}, "
            f"level {config['bootstrap']['level']}",
            "sources": "offline mirror" if config["mirror"] else "downloaded",
        },
    script:
        "../../scripts/render_report.py"
