# shvets2026: "Boundaries Agree, Labels Do Not" (arXiv:2610.04370), the released runs of
# one human (3 per myth) and three model families (10 per myth) on three Sumerian myths.
# Settings: config["shvets2026"] (settings.schema.yaml in this folder).
#
#   pair_shvets2026_runs (per myth)  projection, all run pairs, Tables 1-2, boundary placement
#   enumerate_shvets2026_triples     120 triples per model and myth, thresholds, far runs
#   compute_shvets2026_phase_shift   Table 4 (human and all model triples), B2: the authors' seeded
#                                    estimates replayed and the exact expectations
#   check_shvets2026_anchoring       the prompt's worked example on Gudea
#   count_shvets2026_checks          the check lines the authors' reproduce.py prints, from its text
#   check_shvets2026_printed         printed numbers held against one another (generic: rules/printed.smk)
#   plot_shvets2026_*                three figures
#   hash_inputs (generic)  results/shvets2026/inputs.sha256
# A change to Table 4 reruns only the phase-shift rule: the triples read the pair tables.

from reagree.pipeline.paper_registry import registry
from shvets2026.release import ANCHORING_MYTH, HUMAN, MODELS

BUILD = registry().paper("shvets2026")
RESULTS = BUILD.results
LOGS = BUILD.logs
SETTINGS = BUILD.settings
MYTHS = SETTINGS["myths"]


wildcard_constraints:
    myth="|".join(MYTHS),


# (reader, run number, path) of every run file per myth, the human first.
RUNS = {
    myth: sorted(
        (
            (s["values"].get("reader", HUMAN), int(s["values"]["n"]), BUILD.data_path(s["name"]))
            for s in BUILD.sources
            if s["values"].get("myth") == myth and "n" in s["values"]
        ),
        key=lambda run: ([HUMAN, *MODELS].index(run[0]), run[1]),
    )
    for myth in MYTHS
}


rule pair_shvets2026_runs:
    input:
        text="data/shvets2026/texts/{myth}_numbered.txt",
        runs=lambda wildcards: [path for _, _, path in RUNS[wildcards.myth]],
    output:
        values=f"{RESULTS}/values/pairs_{{myth}}.tsv",
        projection=f"{RESULTS}/tables/projection_{{myth}}.tsv",
        runs=f"{RESULTS}/tables/runs_{{myth}}.tsv",
        runs_md=f"{RESULTS}/tables/runs_{{myth}}.md",
        diagnostics=f"{RESULTS}/tables/diagnostics_{{myth}}.tsv",
        diagnostics_md=f"{RESULTS}/tables/diagnostics_{{myth}}.md",
        pairs=f"{RESULTS}/tables/pairs_{{myth}}.tsv",
        pairs_md=f"{RESULTS}/tables/pairs_{{myth}}.md",
        readers=f"{RESULTS}/tables/readers_{{myth}}.tsv",
        readers_md=f"{RESULTS}/tables/readers_{{myth}}.md",
        placement=f"{RESULTS}/tables/placement_{{myth}}.tsv",
        placement_md=f"{RESULTS}/tables/placement_{{myth}}.md",
    log:
        f"{LOGS}/pair_runs_{{myth}}.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        run_ids=lambda wildcards: [(reader, n) for reader, n, _ in RUNS[wildcards.myth]],
        settings=SETTINGS,
    script:
        "scripts/pair_runs.py"


BUILD.add_outputs(rules.pair_shvets2026_runs, myth=MYTHS)


rule enumerate_shvets2026_triples:
    input:
        pairs=expand(rules.pair_shvets2026_runs.output.pairs, myth=MYTHS),
    output:
        values=f"{RESULTS}/values/triples.tsv",
        triples=f"{RESULTS}/tables/triples.tsv",
        thresholds=f"{RESULTS}/tables/triple_thresholds.tsv",
        thresholds_md=f"{RESULTS}/tables/triple_thresholds.md",
        far=f"{RESULTS}/tables/far_runs.tsv",
        far_md=f"{RESULTS}/tables/far_runs.md",
    log:
        f"{LOGS}/enumerate_triples.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        myths=MYTHS,
        human=HUMAN,
        models=list(MODELS),
        thresholds=SETTINGS["thresholds"],
    script:
        "scripts/enumerate_triples.py"


BUILD.add_outputs(rules.enumerate_shvets2026_triples)


rule compute_shvets2026_phase_shift:
    input:
        projections=expand(rules.pair_shvets2026_runs.output.projection, myth=MYTHS),
        texts=expand("data/shvets2026/texts/{myth}_numbered.txt", myth=MYTHS),
    output:
        values=f"{RESULTS}/values/phase_shift.tsv",
        variants=f"{RESULTS}/variants/phase_shift.tsv",
        table4=f"{RESULTS}/tables/table4.tsv",
        table4_md=f"{RESULTS}/tables/table4.md",
        table4_models=f"{RESULTS}/tables/table4_model_triples.tsv",
        table4_models_md=f"{RESULTS}/tables/table4_model_triples.md",
        triples=f"{RESULTS}/tables/phase_shift_triples.tsv",
        b2=f"{RESULTS}/tables/b2.tsv",
        b2_md=f"{RESULTS}/tables/b2.md",
    log:
        f"{LOGS}/compute_phase_shift.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        myths=MYTHS,
        human=HUMAN,
        models=list(MODELS),
        max_lag=SETTINGS["max_lag"],
    script:
        "scripts/compute_phase_shift.py"


BUILD.add_outputs(rules.compute_shvets2026_phase_shift)


rule check_shvets2026_anchoring:
    input:
        prompt="data/shvets2026/prompts/seg_v4.txt",
        text=f"data/shvets2026/texts/{ANCHORING_MYTH}_numbered.txt",
        runs=[path for _, _, path in RUNS.get(ANCHORING_MYTH, [])],
    output:
        values=f"{RESULTS}/values/anchoring.tsv",
        table=f"{RESULTS}/tables/anchoring.tsv",
        table_md=f"{RESULTS}/tables/anchoring.md",
    log:
        f"{LOGS}/check_anchoring.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        run_ids=[(reader, n) for reader, n, _ in RUNS.get(ANCHORING_MYTH, [])],
        human=HUMAN,
        myth=ANCHORING_MYTH,
        settings=SETTINGS,
    script:
        "scripts/check_anchoring.py"


if ANCHORING_MYTH in MYTHS:  # the worked example's myth is built
    BUILD.add_outputs(rules.check_shvets2026_anchoring)


rule count_shvets2026_checks:
    input:
        script="data/shvets2026/documents/reproduce.py",  # a document of paper.yaml (rules/ledger.smk fetches it)
    output:
        values=f"{RESULTS}/values/checks.tsv",
    log:
        f"{LOGS}/count_checks.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/count_checks.py"


BUILD.add_outputs(rules.count_shvets2026_checks)


rule plot_shvets2026_reader_gaps:
    input:
        readers=expand(rules.pair_shvets2026_runs.output.readers, myth=MYTHS),
    output:
        table=f"{RESULTS}/tables/table1_2.tsv",
        table_md=f"{RESULTS}/tables/table1_2.md",
        figure=report(f"{RESULTS}/figures/gap_by_reader.png", category="shvets2026", caption="report/gap_by_reader.rst"),
    log:
        f"{LOGS}/plot_reader_gaps.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        myths=MYTHS,
    script:
        "scripts/plot_reader_gaps.py"


BUILD.add_targets(rules.plot_shvets2026_reader_gaps.output.table, rules.plot_shvets2026_reader_gaps.output.figure)


rule plot_shvets2026_triple_gaps:
    input:
        triples=rules.enumerate_shvets2026_triples.output.triples,
        readers=expand(rules.pair_shvets2026_runs.output.readers, myth=MYTHS),
    output:
        report(f"{RESULTS}/figures/triple_gaps.png", category="shvets2026", caption="report/triple_gaps.rst"),
    log:
        f"{LOGS}/plot_triple_gaps.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        myths=MYTHS,
    script:
        "scripts/plot_triple_gaps.py"


BUILD.add_targets(*rules.plot_shvets2026_triple_gaps.output)


rule plot_shvets2026_human_pairs:
    input:
        pairs=expand(rules.pair_shvets2026_runs.output.pairs, myth=MYTHS),
    output:
        report(f"{RESULTS}/figures/human_pairs.png", category="shvets2026", caption="report/human_pairs.rst"),
    log:
        f"{LOGS}/plot_human_pairs.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    params:
        human=HUMAN,
    script:
        "scripts/plot_human_pairs.py"


BUILD.add_targets(*rules.plot_shvets2026_human_pairs.output)
