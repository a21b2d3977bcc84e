# Audit your own annotation tables: config["datasets"] maps a name to a table and how to
# read it (workflow/schemas/config.schema.yaml, "datasets", holds the fields and their
# defaults). Each is audited into results/audit/<name>/: audit.json, audit.txt, the
# tables as TSV and Markdown, and coefficients.png. `reagree audit` does the same by hand.
import re

_dataset_schema = _schema["properties"]["datasets"]["additionalProperties"]
DATASETS = {
    name: reagree_settings.fill_defaults(dict(entry), _dataset_schema)
    for name, entry in (config.get("datasets") or {}).items()
}
AUDIT_TABLES = ["design", "coefficients", "per_category", "pairwise", "ties", "raters", "category_pairs"]
AUDIT_TARGETS = [f"results/audit/{name}/audit.json" for name in DATASETS]


rule audit_dataset:
    input:
        lambda wildcards: DATASETS[wildcards.dataset]["path"],
    output:
        json="results/audit/{dataset}/audit.json",
        text="results/audit/{dataset}/audit.txt",
        disputed="results/audit/{dataset}/items.csv",
        figure=report(
            "results/audit/{dataset}/coefficients.png", category="Audits", caption="../report/audit_coefficients.rst"
        ),
        tables=expand("results/audit/{{dataset}}/tables/{table}.{ext}", table=AUDIT_TABLES, ext=["tsv", "md"]),
    log:
        "logs/audit/{dataset}.log",
    wildcard_constraints:
        dataset="|".join(re.escape(name) for name in DATASETS) or "no-dataset",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=2000,
    params:
        dataset=lambda wildcards: DATASETS[wildcards.dataset],
        bootstrap=config["bootstrap"],
    script:
        "../../scripts/audit_dataset.py"
