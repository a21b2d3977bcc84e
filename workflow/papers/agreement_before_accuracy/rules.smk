# agreement_before_accuracy: "Agreement Before Accuracy" (seed 001). A synthetic fixture
# fully specified by the document; nothing is fetched, everything is regenerated.
# check_agreement_before_accuracy_printed holds the prose's figures against the printed
# tables they read (source: internal claims).

from reagree.pipeline.paper_registry import registry

BUILD = registry().paper("agreement_before_accuracy")
RESULTS = BUILD.results
LOGS = BUILD.logs


rule compute_agreement_before_accuracy_fixture:
    output:
        values=f"{RESULTS}/values/fixture.tsv",
        variants=f"{RESULTS}/variants/fixture.tsv",
        pairs=f"{RESULTS}/tables/pairwise.tsv",
        pairs_md=f"{RESULTS}/tables/pairwise.md",
        gap=f"{RESULTS}/tables/alpha_minus_fleiss.tsv",
        gap_md=f"{RESULTS}/tables/alpha_minus_fleiss.md",
        fixture=f"{RESULTS}/tables/fixture.tsv",
        fixture_md=f"{RESULTS}/tables/fixture.md",
    log:
        f"{LOGS}/compute_fixture.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_fixture.py"


BUILD.add_outputs(rules.compute_agreement_before_accuracy_fixture)


rule compute_agreement_before_accuracy_prevalence_sweep:
    output:
        values=f"{RESULTS}/values/prevalence.tsv",
        variants=f"{RESULTS}/variants/prevalence.tsv",
        sweep=f"{RESULTS}/tables/prevalence_sweep.tsv",
        sweep_md=f"{RESULTS}/tables/prevalence_sweep.md",
        counted=f"{RESULTS}/tables/counted_2x2.tsv",
        counted_md=f"{RESULTS}/tables/counted_2x2.md",
    log:
        f"{LOGS}/compute_prevalence_sweep.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_prevalence_sweep.py"


BUILD.add_outputs(rules.compute_agreement_before_accuracy_prevalence_sweep)


rule compute_agreement_before_accuracy_bootstrap_widths:
    output:
        values=f"{RESULTS}/values/bootstrap.tsv",
        variants=f"{RESULTS}/variants/bootstrap.tsv",
        widths=f"{RESULTS}/tables/bootstrap_widths.tsv",
        widths_md=f"{RESULTS}/tables/bootstrap_widths.md",
    log:
        f"{LOGS}/compute_bootstrap_widths.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_bootstrap_widths.py"


BUILD.add_outputs(rules.compute_agreement_before_accuracy_bootstrap_widths)


rule plot_agreement_before_accuracy_prevalence:
    input:
        rules.compute_agreement_before_accuracy_prevalence_sweep.output.sweep,
    output:
        report(
            f"{RESULTS}/figures/prevalence_sweep.png",
            category="agreement_before_accuracy",
            caption="report/prevalence_sweep.rst",
        ),
    log:
        f"{LOGS}/plot_prevalence.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_prevalence.py"


BUILD.add_targets(*rules.plot_agreement_before_accuracy_prevalence.output)


rule plot_agreement_before_accuracy_widths:
    input:
        rules.compute_agreement_before_accuracy_bootstrap_widths.output.widths,
    output:
        report(
            f"{RESULTS}/figures/interval_width.png",
            category="agreement_before_accuracy",
            caption="report/interval_width.rst",
        ),
    log:
        f"{LOGS}/plot_widths.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_widths.py"


BUILD.add_targets(*rules.plot_agreement_before_accuracy_widths.output)
