# jayanetti2026: "Nobody Truly Agrees on Sentiment" (arXiv:2610.10318), released labels,
# the replication write-up's tie rules and intervals, soft labels, and tool reruns.
# Settings: config["jayanetti2026"] (settings.schema.yaml in this folder).
from jayanetti2026.toolrerun import RERUN_TOOLS, ROBERTA_PACKAGES, TOOL_PACKAGES, TOOLS_EXTRA
from reagree.pipeline.paper_registry import registry

J26_PAPER = registry().paper("jayanetti2026")
J26 = J26_PAPER.results
J26_LOGS = J26_PAPER.logs
J26_LABELS = J26_PAPER.data_path("majorityvote.tsv")
J26_SETTINGS = J26_PAPER.settings
J26_TIE_RULES = J26_SETTINGS["tie_rules"]
J26_RERUNS = list(RERUN_TOOLS) if J26_SETTINGS["rerun_roberta"] else ["tools"]  # rerun rules built
# With rerun_roberta on, transformers, torch and the model's weights are checked before any job runs;
# TextBlob and VADER (reagree's optional extra "tools", in the lock) always are.
J26_PAPER.require("rerun_roberta", packages=ROBERTA_PACKAGES, model=J26_SETTINGS["roberta_model"],
                  model_setting="roberta_model")
J26_PAPER.require(None, packages=TOOL_PACKAGES, extra=TOOLS_EXTRA,
                  part="the rerun of TextBlob and VADER (rule rerun_jayanetti2026_tools)")
# Priorities: the jobs that unblock the tie-rule comparison and the figures first, then the
# reruns (TextBlob's import is the slowest), then the rest.


wildcard_constraints:
    tie_rule="|".join(J26_TIE_RULES),


rule score_jayanetti2026_released:
    input:
        labels=J26_LABELS,
    output:
        values=f"{J26}/values/released.tsv",
        pairwise=f"{J26}/tables/pairwise_kappa.tsv",
        pairwise_md=f"{J26}/tables/pairwise_kappa.md",
        ties=f"{J26}/tables/ties.tsv",
        ties_md=f"{J26}/tables/ties.md",
    params:
        bootstrap=config["bootstrap"],
        excerpt_characters=J26_SETTINGS["excerpt_characters"],
    log:
        f"{J26_LOGS}/score_released.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    priority: 10
    script:
        "scripts/score_released.py"


rule score_jayanetti2026_tie_rule:
    input:
        labels=J26_LABELS,
    output:
        values=f"{J26}/values/tie_rule_{{tie_rule}}.tsv",
        table=f"{J26}/tables/tie_rule_{{tie_rule}}.tsv",
        table_md=f"{J26}/tables/tie_rule_{{tie_rule}}.md",
        draws=f"{J26}/tables/tie_rule_{{tie_rule}}_draws.tsv",
    params:
        bootstrap=config["bootstrap"],
        settings=J26_SETTINGS,
    log:
        f"{J26_LOGS}/score_tie_rule_{{tie_rule}}.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    priority: 10
    script:
        "scripts/score_tie_rule.py"


rule compare_jayanetti2026_tie_rules:
    input:
        labels=J26_LABELS,
        tables=expand(f"{J26}/tables/tie_rule_{{tie_rule}}.tsv", tie_rule=J26_TIE_RULES),
        draws=expand(f"{J26}/tables/tie_rule_{{tie_rule}}_draws.tsv", tie_rule=J26_TIE_RULES),
    output:
        values=f"{J26}/values/tie_rules.tsv",
        table=report(f"{J26}/tables/tie_rules.tsv", category="jayanetti2026",
                     caption="report/tie_rules_table.rst"),
        table_md=f"{J26}/tables/tie_rules.md",
    params:
        tie_rules=J26_TIE_RULES,
    log:
        f"{J26_LOGS}/compare_tie_rules.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    priority: 10
    script:
        "scripts/compare_tie_rules.py"


rule score_jayanetti2026_soft_labels:
    input:
        labels=J26_LABELS,
    output:
        values=f"{J26}/values/soft_labels.tsv",
        table=f"{J26}/tables/soft_labels.tsv",
        table_md=f"{J26}/tables/soft_labels.md",
    params:
        bootstrap=config["bootstrap"],
        settings=J26_SETTINGS,
    log:
        f"{J26_LOGS}/score_soft_labels.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/score_soft_labels.py"


rule rerun_jayanetti2026_tools:
    input:
        labels=J26_LABELS,
    output:
        values=f"{J26}/values/rerun_tools.tsv",
        labels=f"{J26}/tables/tool_reruns.tsv",
        labels_md=f"{J26}/tables/tool_reruns.md",
        translated=f"{J26}/tables/translated_rows.tsv",
        translated_md=f"{J26}/tables/translated_rows.md",
    params:
        tools=list(RERUN_TOOLS["tools"]),
        bootstrap=config["bootstrap"],
        settings=J26_SETTINGS,
    log:
        f"{J26_LOGS}/rerun_tools.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    priority: 5
    script:
        "scripts/rerun_tools.py"


# Optional (rerun_roberta: true): downloads cardiffnlp/twitter-roberta-base-sentiment and
# needs transformers and torch; with the setting off its claims read "not built".
rule rerun_jayanetti2026_roberta:
    input:
        labels=J26_LABELS,
    output:
        values=f"{J26}/values/rerun_roberta.tsv",
        labels=f"{J26}/tables/roberta_rerun.tsv",
        labels_md=f"{J26}/tables/roberta_rerun.md",
    params:
        tools=list(RERUN_TOOLS["roberta"]),
        bootstrap=config["bootstrap"],
        settings=J26_SETTINGS,
    log:
        f"{J26_LOGS}/rerun_roberta.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # the RoBERTa model and torch
    script:
        "scripts/rerun_tools.py"


# The variant families jayanetti2026/variants.py declares, per claim key (explained_by).
rule compute_jayanetti2026_variants:
    input:
        labels=J26_LABELS,
        reruns=[f"{J26}/tables/{'tool_reruns' if part == 'tools' else 'roberta_rerun'}.tsv" for part in J26_RERUNS],
        paper="workflow/papers/jayanetti2026/paper.yaml",
        tables=[f"workflow/papers/jayanetti2026/{table}" for table in J26_PAPER.paper["claim_tables"]],
        plan="workflow/papers/jayanetti2026/jayanetti2026/variants.py",
    output:
        f"{J26}/variants.tsv",
    params:
        settings=J26_SETTINGS,
        expansions=J26_PAPER.expansions,
    log:
        f"{J26_LOGS}/compute_variants.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_variants.py"


rule plot_jayanetti2026_figures:
    input:
        pairwise=f"{J26}/tables/pairwise_kappa.tsv",
        tie_rules=expand(f"{J26}/tables/tie_rule_{{tie_rule}}.tsv", tie_rule=J26_TIE_RULES),
        writeup=f"{J26}/values/released.tsv",
    output:
        pairwise=report(f"{J26}/figures/pairwise_kappa.png", category="jayanetti2026",
                        caption="report/pairwise_kappa.rst"),
        tie_rules=report(f"{J26}/figures/kappa_by_tie_rule.png", category="jayanetti2026",
                         caption="report/kappa_by_tie_rule.rst"),
        forest=report(f"{J26}/figures/intervals_forest.png", category="jayanetti2026",
                      caption="report/intervals_forest.rst"),
    params:
        tie_rules=J26_TIE_RULES,
    log:
        f"{J26_LOGS}/plot_figures.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    priority: 10
    script:
        "scripts/plot_figures.py"


rule check_jayanetti2026_printed:
    input:
        paper="workflow/papers/jayanetti2026/paper.yaml",
        tables=[f"workflow/papers/jayanetti2026/{table}" for table in J26_PAPER.paper["claim_tables"]],
        relations="workflow/papers/jayanetti2026/jayanetti2026/internal.py",
    output:
        values=f"{J26}/values/printed.tsv",
        variants=f"{J26}/variants/printed.tsv",
    params:
        paper="jayanetti2026",
    log:
        f"{J26_LOGS}/check_printed.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "../../../scripts/check_printed.py"


J26_PAPER.add_values(
    f"{J26}/values/released.tsv",
    f"{J26}/values/printed.tsv",
    *expand(f"{J26}/values/tie_rule_{{tie_rule}}.tsv", tie_rule=J26_TIE_RULES),
    f"{J26}/values/tie_rules.tsv",
    f"{J26}/values/soft_labels.tsv",
    *[f"{J26}/values/rerun_{part}.tsv" for part in J26_RERUNS],
)
J26_PAPER.add_variants(f"{J26}/variants.tsv", f"{J26}/variants/printed.tsv")
J26_PAPER.add_targets(
    f"{J26}/claims.tsv",
    f"{J26}/tables/tie_rules.tsv",
    f"{J26}/tables/soft_labels.tsv",
    f"{J26}/tables/translated_rows.tsv",
    f"{J26}/figures/pairwise_kappa.png",
    f"{J26}/figures/kappa_by_tie_rule.png",
    f"{J26}/figures/intervals_forest.png",
)
