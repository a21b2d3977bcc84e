# agreement_before_accuracy: "Agreement Before Accuracy" (seed 001). A synthetic fixture
# fully specified by the document; nothing is fetched, everything is regenerated.
# check_agreement_before_accuracy_printed holds the prose's figures against the printed
# tables they read (source: internal claims).

from reagree.pipeline.paper_registry import registry

ABA_PAPER = registry().paper("agreement_before_accuracy")
ABA = ABA_PAPER.results
ABA_LOGS = ABA_PAPER.logs


rule compute_agreement_before_accuracy_fixture:
    output:
        values=f"{ABA}/values/fixture.tsv",
        variants=f"{ABA}/variants/fixture.tsv",
        pairs=f"{ABA}/tables/pairwise.tsv",
        pairs_md=f"{ABA}/tables/pairwise.md",
        gap=f"{ABA}/tables/alpha_minus_fleiss.tsv",
        gap_md=f"{ABA}/tables/alpha_minus_fleiss.md",
        fixture=f"{ABA}/tables/fixture.tsv",
        fixture_md=f"{ABA}/tables/fixture.md",
    log:
        f"{ABA_LOGS}/compute_fixture.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_fixture.py"


rule compute_agreement_before_accuracy_prevalence_sweep:
    output:
        values=f"{ABA}/values/prevalence.tsv",
        variants=f"{ABA}/variants/prevalence.tsv",
        sweep=f"{ABA}/tables/prevalence_sweep.tsv",
        sweep_md=f"{ABA}/tables/prevalence_sweep.md",
        counted=f"{ABA}/tables/counted_2x2.tsv",
        counted_md=f"{ABA}/tables/counted_2x2.md",
    log:
        f"{ABA_LOGS}/compute_prevalence_sweep.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_prevalence_sweep.py"


rule compute_agreement_before_accuracy_bootstrap_widths:
    output:
        values=f"{ABA}/values/bootstrap.tsv",
        variants=f"{ABA}/variants/bootstrap.tsv",
        widths=f"{ABA}/tables/bootstrap_widths.tsv",
        widths_md=f"{ABA}/tables/bootstrap_widths.md",
    log:
        f"{ABA_LOGS}/compute_bootstrap_widths.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_bootstrap_widths.py"


rule check_agreement_before_accuracy_printed:
    input:
        paper="workflow/papers/agreement_before_accuracy/paper.yaml",
        tables=[f"workflow/papers/agreement_before_accuracy/{table}" for table in ABA_PAPER.paper["claim_tables"]],
        relations="workflow/papers/agreement_before_accuracy/agreement_before_accuracy/internal.py",
    output:
        values=f"{ABA}/values/printed.tsv",
        variants=f"{ABA}/variants/printed.tsv",
    params:
        paper="agreement_before_accuracy",
    log:
        f"{ABA_LOGS}/check_printed.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "../../../scripts/check_printed.py"


rule plot_agreement_before_accuracy_prevalence:
    input:
        f"{ABA}/tables/prevalence_sweep.tsv",
    output:
        report(f"{ABA}/figures/prevalence_sweep.png", category="agreement_before_accuracy",
               caption="report/prevalence_sweep.rst"),
    log:
        f"{ABA_LOGS}/plot_prevalence.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_prevalence.py"


rule plot_agreement_before_accuracy_widths:
    input:
        f"{ABA}/tables/bootstrap_widths.tsv",
    output:
        report(f"{ABA}/figures/interval_width.png", category="agreement_before_accuracy",
               caption="report/interval_width.rst"),
    log:
        f"{ABA_LOGS}/plot_widths.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_widths.py"


ABA_PAPER.add_values(*[f"{ABA}/values/{part}.tsv" for part in ("fixture", "prevalence", "bootstrap", "printed")])
ABA_PAPER.add_variants(*[f"{ABA}/variants/{part}.tsv" for part in ("fixture", "prevalence", "bootstrap", "printed")])
ABA_PAPER.add_targets(
    f"{ABA}/claims.tsv",
    f"{ABA}/figures/prevalence_sweep.png",
    f"{ABA}/figures/interval_width.png",
)
