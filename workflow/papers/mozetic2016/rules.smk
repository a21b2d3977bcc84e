# mozetic2016: Mozetič, Grčar, Smailović, "Multilingual Twitter Sentiment Classification:
# The Role of Human Annotators" (PLOS ONE 2016), labels from CLARIN.SI hdl 11356/1054.
# Settings: config["mozetic2016"] (settings.schema.yaml in this folder): languages, draws.
#
#   count_mozetic2016_labels             Table 1 (labels per class) and Table 6 sizes (gold labels)
#   count_mozetic2016_repeats            Table 3 (posts labelled twice: as posts and as label pairs),
#                                        and the counting / percentage-base variants of its claims
#   score_mozetic2016_agreement          Table 4 for one dataset (bootstrap intervals), and the alpha
#                                        variants of its claims
#   tabulate_mozetic2016_agreement       Table 4 assembled
#   score_mozetic2016_ordering           Table 5 (union of self and inter units)
#   score_mozetic2016_annotators         per-annotator self-agreement (the text's A, B, main annotators)
#   plot_mozetic2016_agreement           the paper's Fig 1 without the classifier bar
#   check_mozetic2016_printed            printed numbers held against one another (source: internal claims)
#   hash_inputs (generic)  results/mozetic2016/inputs.sha256
# Each table has its own rule; Table 4 has one job per dataset, so a new language reruns
# only its own bootstrap.

from mozetic2016.release import LANGUAGES, dataset_languages, datasets, table_order
from reagree.pipeline.paper_registry import registry

M16_PAPER = registry().paper("mozetic2016")
M16 = M16_PAPER.results
M16_LOGS = M16_PAPER.logs
M16_SETTINGS = M16_PAPER.settings
M16_LANGUAGES = [language for language in LANGUAGES if language in M16_SETTINGS["languages"]]
# Each built language, then the joint Ser/Cro/Bos set when its three languages are built.
M16_DATASETS = datasets(M16_LANGUAGES)
# Table order: the paper's (Ser/Cro/Bos in its alphabetical place), its three languages after it.
M16_ORDER = table_order(M16_DATASETS)
M16_FILES = {s["values"]["language"]: M16_PAPER.data_path(s["name"]) for s in M16_PAPER.sources}
M16_BOOTSTRAP = dict(draws=M16_SETTINGS["draws"], seed=config["bootstrap"]["seed"], level=config["bootstrap"]["level"])
# The files each dataset reads: one language, or the three of Ser/Cro/Bos.
M16_INPUTS = {dataset: [M16_FILES[language] for language in dataset_languages(dataset)] for dataset in M16_DATASETS}


wildcard_constraints:
    dataset="|".join(M16_DATASETS) or "no-dataset",


rule count_mozetic2016_labels:
    input:
        [M16_FILES[language] for language in M16_LANGUAGES],
    output:
        values=f"{M16}/values/labels.tsv",
        table=f"{M16}/tables/table1_labels.tsv",
        table_md=f"{M16}/tables/table1_labels.md",
    params:
        datasets=M16_ORDER,
    log:
        f"{M16_LOGS}/count_labels.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    script:
        "scripts/count_labels.py"


rule count_mozetic2016_repeats:
    input:
        [M16_FILES[language] for language in M16_LANGUAGES],
    output:
        values=f"{M16}/values/repeats.tsv",
        variants=f"{M16}/variants/repeats.tsv",
        table=f"{M16}/tables/table3_repeats.tsv",
        table_md=f"{M16}/tables/table3_repeats.md",
    params:
        datasets=M16_ORDER,
        languages=M16_LANGUAGES,
    log:
        f"{M16_LOGS}/count_repeats.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    script:
        "scripts/count_repeats.py"


rule score_mozetic2016_agreement:
    input:
        lambda wildcards: M16_INPUTS[wildcards.dataset],
    output:
        values=f"{M16}/values/agreement_{{dataset}}.tsv",
        variants=f"{M16}/variants/agreement_{{dataset}}.tsv",
        rows=f"{M16}/agreement/{{dataset}}.tsv",
    params:
        **M16_BOOTSTRAP,
    log:
        f"{M16_LOGS}/score_agreement_{{dataset}}.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    script:
        "scripts/score_agreement.py"


rule tabulate_mozetic2016_agreement:
    input:
        rows=[f"{M16}/agreement/{dataset}.tsv" for dataset in M16_ORDER],
        data=[M16_FILES[language] for language in M16_LANGUAGES],
    output:
        table=f"{M16}/tables/table4_agreement.tsv",
        table_md=f"{M16}/tables/table4_agreement.md",
    log:
        f"{M16_LOGS}/tabulate_agreement.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/tabulate_agreement.py"


rule score_mozetic2016_ordering:
    input:
        [M16_FILES[language] for language in M16_LANGUAGES],
    output:
        values=f"{M16}/values/ordering.tsv",
        table=f"{M16}/tables/table5_ordering.tsv",
        table_md=f"{M16}/tables/table5_ordering.md",
    params:
        datasets=M16_ORDER,
    log:
        f"{M16_LOGS}/score_ordering.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    script:
        "scripts/score_ordering.py"


rule score_mozetic2016_annotators:
    input:
        [M16_FILES[language] for language in M16_LANGUAGES],
    output:
        values=f"{M16}/values/annotators.tsv",
        table=f"{M16}/tables/annotators.tsv",
        table_md=f"{M16}/tables/annotators.md",
    params:
        languages=M16_LANGUAGES,
    log:
        f"{M16_LOGS}/score_annotators.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    script:
        "scripts/score_annotators.py"


rule plot_mozetic2016_agreement:
    input:
        table=f"{M16}/tables/table4_agreement.tsv",
    output:
        report(f"{M16}/figures/agreement.png", category="mozetic2016",
               caption="report/agreement.rst"),
    params:
        draws=M16_SETTINGS["draws"],
    log:
        f"{M16_LOGS}/plot_agreement.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_agreement.py"


rule check_mozetic2016_printed:
    input:
        paper="workflow/papers/mozetic2016/paper.yaml",
        tables=[f"workflow/papers/mozetic2016/{table}" for table in M16_PAPER.paper["claim_tables"]],
        relations="workflow/papers/mozetic2016/mozetic2016/internal.py",
    output:
        values=f"{M16}/values/printed.tsv",
        variants=f"{M16}/variants/printed.tsv",
    params:
        paper="mozetic2016",
    log:
        f"{M16_LOGS}/check_printed.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "../../../scripts/check_printed.py"


M16_PAPER.add_values(
    f"{M16}/values/labels.tsv",
    f"{M16}/values/repeats.tsv",
    f"{M16}/values/ordering.tsv",
    f"{M16}/values/annotators.tsv",
    f"{M16}/values/printed.tsv",
    *[f"{M16}/values/agreement_{dataset}.tsv" for dataset in M16_DATASETS],
)
# Variants of the claims' readings (mozetic2016/variants.py), written beside the values.
M16_PAPER.add_variants(
    f"{M16}/variants/repeats.tsv",
    f"{M16}/variants/printed.tsv",
    *[f"{M16}/variants/agreement_{dataset}.tsv" for dataset in M16_DATASETS],
)
M16_PAPER.add_targets(
    f"{M16}/claims.tsv",
    f"{M16}/tables/table4_agreement.tsv",
    f"{M16}/figures/agreement.png",
)
