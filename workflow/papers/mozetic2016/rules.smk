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

BUILD = registry().paper("mozetic2016")
RESULTS = BUILD.results
LOGS = BUILD.logs
SETTINGS = BUILD.settings
BUILT_LANGUAGES = [language for language in LANGUAGES if language in SETTINGS["languages"]]
# Each built language, then the joint Ser/Cro/Bos set when its three languages are built.
DATASETS = datasets(BUILT_LANGUAGES)
# Table order: the paper's (Ser/Cro/Bos in its alphabetical place), its three languages after it.
ORDER = table_order(DATASETS)
FILES = {s["values"]["language"]: BUILD.data_path(s["name"]) for s in BUILD.sources}
BOOTSTRAP = dict(draws=SETTINGS["draws"], seed=config["bootstrap"]["seed"], level=config["bootstrap"]["level"])
# The files each dataset reads: one language, or the three of Ser/Cro/Bos.
INPUTS = {dataset: [FILES[language] for language in dataset_languages(dataset)] for dataset in DATASETS}


wildcard_constraints:
    dataset="|".join(DATASETS) or "no-dataset",


rule count_mozetic2016_labels:
    input:
        [FILES[language] for language in BUILT_LANGUAGES],
    output:
        values=f"{RESULTS}/values/labels.tsv",
        table=f"{RESULTS}/tables/table1_labels.tsv",
        table_md=f"{RESULTS}/tables/table1_labels.md",
    log:
        f"{LOGS}/count_labels.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    params:
        datasets=ORDER,
    script:
        "scripts/count_labels.py"


BUILD.add_outputs(rules.count_mozetic2016_labels)


rule count_mozetic2016_repeats:
    input:
        [FILES[language] for language in BUILT_LANGUAGES],
    output:
        values=f"{RESULTS}/values/repeats.tsv",
        variants=f"{RESULTS}/variants/repeats.tsv",
        table=f"{RESULTS}/tables/table3_repeats.tsv",
        table_md=f"{RESULTS}/tables/table3_repeats.md",
    log:
        f"{LOGS}/count_repeats.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    params:
        datasets=ORDER,
        languages=BUILT_LANGUAGES,
    script:
        "scripts/count_repeats.py"


BUILD.add_outputs(rules.count_mozetic2016_repeats)


rule score_mozetic2016_agreement:
    input:
        lambda wildcards: INPUTS[wildcards.dataset],
    output:
        values=f"{RESULTS}/values/agreement_{{dataset}}.tsv",
        variants=f"{RESULTS}/variants/agreement_{{dataset}}.tsv",
        rows=f"{RESULTS}/agreement/{{dataset}}.tsv",
    log:
        f"{LOGS}/score_agreement_{{dataset}}.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    params:
        **BOOTSTRAP,
    script:
        "scripts/score_agreement.py"


BUILD.add_outputs(rules.score_mozetic2016_agreement, dataset=DATASETS)


rule tabulate_mozetic2016_agreement:
    input:
        rows=expand(rules.score_mozetic2016_agreement.output.rows, dataset=ORDER),
        data=[FILES[language] for language in BUILT_LANGUAGES],
    output:
        table=f"{RESULTS}/tables/table4_agreement.tsv",
        table_md=f"{RESULTS}/tables/table4_agreement.md",
    log:
        f"{LOGS}/tabulate_agreement.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/tabulate_agreement.py"


BUILD.add_targets(rules.tabulate_mozetic2016_agreement.output.table)


rule score_mozetic2016_ordering:
    input:
        [FILES[language] for language in BUILT_LANGUAGES],
    output:
        values=f"{RESULTS}/values/ordering.tsv",
        table=f"{RESULTS}/tables/table5_ordering.tsv",
        table_md=f"{RESULTS}/tables/table5_ordering.md",
    log:
        f"{LOGS}/score_ordering.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    params:
        datasets=ORDER,
    script:
        "scripts/score_ordering.py"


BUILD.add_outputs(rules.score_mozetic2016_ordering)


rule score_mozetic2016_annotators:
    input:
        [FILES[language] for language in BUILT_LANGUAGES],
    output:
        values=f"{RESULTS}/values/annotators.tsv",
        table=f"{RESULTS}/tables/annotators.tsv",
        table_md=f"{RESULTS}/tables/annotators.md",
    log:
        f"{LOGS}/score_annotators.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=4000,  # all 15 languages: 1.6 million labels in one job
    params:
        languages=BUILT_LANGUAGES,
    script:
        "scripts/score_annotators.py"


BUILD.add_outputs(rules.score_mozetic2016_annotators)


rule plot_mozetic2016_agreement:
    input:
        table=rules.tabulate_mozetic2016_agreement.output.table,
    output:
        report(f"{RESULTS}/figures/agreement.png", category="mozetic2016", caption="report/agreement.rst"),
    log:
        f"{LOGS}/plot_agreement.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        draws=SETTINGS["draws"],
    script:
        "scripts/plot_agreement.py"


BUILD.add_targets(*rules.plot_mozetic2016_agreement.output)
