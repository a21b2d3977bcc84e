# jayanetti2026: "Nobody Truly Agrees on Sentiment" (arXiv:2610.10318), released labels,
# the replication write-up's tie rules and intervals, soft labels, and tool reruns.
# Settings: config["jayanetti2026"] (settings.schema.yaml in this folder).
from jayanetti2026.toolrerun import RERUN_TOOLS, ROBERTA_PACKAGES, TOOL_PACKAGES, TOOLS_EXTRA
from reagree.pipeline.paper_registry import registry

BUILD = registry().paper("jayanetti2026")
RESULTS = BUILD.results
LOGS = BUILD.logs
LABELS = BUILD.data_path("majorityvote.tsv")
SETTINGS = BUILD.settings
TIE_RULES = SETTINGS["tie_rules"]
RERUNS = list(RERUN_TOOLS) if SETTINGS["rerun_roberta"] else ["tools"]  # rerun rules built
# With rerun_roberta on, transformers, torch and the model's weights are checked before any job runs;
# TextBlob and VADER (reagree's optional extra "tools", in the lock) always are.
BUILD.require(
    "rerun_roberta", packages=ROBERTA_PACKAGES, model=SETTINGS["roberta_model"], model_setting="roberta_model"
)
BUILD.require(
    None,
    packages=TOOL_PACKAGES,
    extra=TOOLS_EXTRA,
    part="the rerun of TextBlob and VADER (rule rerun_jayanetti2026_tools)",
)
# Priorities: the jobs that unblock the tie-rule comparison and the figures first, then the
# reruns (TextBlob's import is the slowest), then the rest.


wildcard_constraints:
    tie_rule="|".join(TIE_RULES),


rule score_jayanetti2026_released:
    input:
        labels=LABELS,
    output:
        values=f"{RESULTS}/values/released.tsv",
        pairwise=f"{RESULTS}/tables/pairwise_kappa.tsv",
        pairwise_md=f"{RESULTS}/tables/pairwise_kappa.md",
        ties=f"{RESULTS}/tables/ties.tsv",
        ties_md=f"{RESULTS}/tables/ties.md",
    log:
        f"{LOGS}/score_released.log",
    priority: 10
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        bootstrap=config["bootstrap"],
        excerpt_characters=SETTINGS["excerpt_characters"],
    script:
        "scripts/score_released.py"


BUILD.add_outputs(rules.score_jayanetti2026_released)


rule score_jayanetti2026_tie_rule:
    input:
        labels=LABELS,
    output:
        values=f"{RESULTS}/values/tie_rule_{{tie_rule}}.tsv",
        table=f"{RESULTS}/tables/tie_rule_{{tie_rule}}.tsv",
        table_md=f"{RESULTS}/tables/tie_rule_{{tie_rule}}.md",
        draws=f"{RESULTS}/tables/tie_rule_{{tie_rule}}_draws.tsv",
    log:
        f"{LOGS}/score_tie_rule_{{tie_rule}}.log",
    priority: 10
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        bootstrap=config["bootstrap"],
        settings=SETTINGS,
    script:
        "scripts/score_tie_rule.py"


BUILD.add_outputs(rules.score_jayanetti2026_tie_rule, tie_rule=TIE_RULES)


rule compare_jayanetti2026_tie_rules:
    input:
        labels=LABELS,
        tables=expand(rules.score_jayanetti2026_tie_rule.output.table, tie_rule=TIE_RULES),
        draws=expand(rules.score_jayanetti2026_tie_rule.output.draws, tie_rule=TIE_RULES),
    output:
        values=f"{RESULTS}/values/tie_rules.tsv",
        table=report(f"{RESULTS}/tables/tie_rules.tsv", category="jayanetti2026", caption="report/tie_rules_table.rst"),
        table_md=f"{RESULTS}/tables/tie_rules.md",
    log:
        f"{LOGS}/compare_tie_rules.log",
    priority: 10
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        tie_rules=TIE_RULES,
    script:
        "scripts/compare_tie_rules.py"


BUILD.add_outputs(rules.compare_jayanetti2026_tie_rules)
BUILD.add_targets(rules.compare_jayanetti2026_tie_rules.output.table)


rule score_jayanetti2026_soft_labels:
    input:
        labels=LABELS,
    output:
        values=f"{RESULTS}/values/soft_labels.tsv",
        table=f"{RESULTS}/tables/soft_labels.tsv",
        table_md=f"{RESULTS}/tables/soft_labels.md",
    log:
        f"{LOGS}/score_soft_labels.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        bootstrap=config["bootstrap"],
        settings=SETTINGS,
    script:
        "scripts/score_soft_labels.py"


BUILD.add_outputs(rules.score_jayanetti2026_soft_labels)
BUILD.add_targets(rules.score_jayanetti2026_soft_labels.output.table)


rule rerun_jayanetti2026_tools:
    input:
        labels=LABELS,
    output:
        values=f"{RESULTS}/values/rerun_tools.tsv",
        labels=f"{RESULTS}/tables/tool_reruns.tsv",
        labels_md=f"{RESULTS}/tables/tool_reruns.md",
        translated=f"{RESULTS}/tables/translated_rows.tsv",
        translated_md=f"{RESULTS}/tables/translated_rows.md",
    log:
        f"{LOGS}/rerun_tools.log",
    priority: 5
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        tools=list(RERUN_TOOLS["tools"]),
        bootstrap=config["bootstrap"],
        settings=SETTINGS,
    script:
        "scripts/rerun_tools.py"


BUILD.add_outputs(rules.rerun_jayanetti2026_tools)
BUILD.add_targets(rules.rerun_jayanetti2026_tools.output.translated)


# Optional (rerun_roberta: true): downloads cardiffnlp/twitter-roberta-base-sentiment and
# needs transformers and torch; with the setting off its claims read "not built".
rule rerun_jayanetti2026_roberta:
    input:
        labels=LABELS,
    output:
        values=f"{RESULTS}/values/rerun_roberta.tsv",
        labels=f"{RESULTS}/tables/roberta_rerun.tsv",
        labels_md=f"{RESULTS}/tables/roberta_rerun.md",
    log:
        f"{LOGS}/rerun_roberta.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # the RoBERTa model and torch
    params:
        tools=list(RERUN_TOOLS["roberta"]),
        bootstrap=config["bootstrap"],
        settings=SETTINGS,
    script:
        "scripts/rerun_tools.py"


if SETTINGS["rerun_roberta"]:
    BUILD.add_outputs(rules.rerun_jayanetti2026_roberta)


# The variant families jayanetti2026/variants.py declares, per claim key (explained_by).
rule compute_jayanetti2026_variants:
    input:
        labels=LABELS,
        reruns=[getattr(rules, f"rerun_jayanetti2026_{part}").output.labels for part in RERUNS],
        paper="workflow/papers/jayanetti2026/paper.yaml",
        tables=[f"workflow/papers/jayanetti2026/{table}" for table in BUILD.paper["claim_tables"]],
        plan="workflow/papers/jayanetti2026/jayanetti2026/variants.py",
    output:
        variants=f"{RESULTS}/variants/labels.tsv",
    log:
        f"{LOGS}/compute_variants.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        settings=SETTINGS,
        expansions=BUILD.expansions,
    script:
        "scripts/compute_variants.py"


BUILD.add_outputs(rules.compute_jayanetti2026_variants)


rule plot_jayanetti2026_figures:
    input:
        pairwise=rules.score_jayanetti2026_released.output.pairwise,
        tie_rules=expand(rules.score_jayanetti2026_tie_rule.output.table, tie_rule=TIE_RULES),
        writeup=rules.score_jayanetti2026_released.output.values,
    output:
        pairwise=report(
            f"{RESULTS}/figures/pairwise_kappa.png", category="jayanetti2026", caption="report/pairwise_kappa.rst"
        ),
        tie_rules=report(
            f"{RESULTS}/figures/kappa_by_tie_rule.png",
            category="jayanetti2026",
            caption="report/kappa_by_tie_rule.rst",
        ),
        forest=report(
            f"{RESULTS}/figures/intervals_forest.png", category="jayanetti2026", caption="report/intervals_forest.rst"
        ),
    log:
        f"{LOGS}/plot_figures.log",
    priority: 10
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        tie_rules=TIE_RULES,
    script:
        "scripts/plot_figures.py"


BUILD.add_targets(*rules.plot_jayanetti2026_figures.output)
