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
#   check_shvets2026_printed         printed numbers held against one another (source: internal claims)
#   plot_shvets2026_*                three figures
#   hash_inputs (generic)  results/shvets2026/inputs.sha256
# A change to Table 4 reruns only the phase-shift rule: the triples read the pair tables.

from reagree.pipeline.paper_registry import registry
from shvets2026.release import ANCHORING_MYTH, HUMAN, MODELS

SHV_PAPER = registry().paper("shvets2026")
SHV = SHV_PAPER.results
SHV_LOGS = SHV_PAPER.logs
SHV_SETTINGS = SHV_PAPER.settings
SHV_MYTHS = SHV_SETTINGS["myths"]
SHV_HUMAN, SHV_MODELS = HUMAN, list(MODELS)


wildcard_constraints:
    myth="|".join(SHV_MYTHS),


# (reader, run number, path) of every run file per myth, the human first.
SHV_RUNS = {
    myth: sorted(
        ((s["values"].get("reader", SHV_HUMAN), int(s["values"]["n"]), SHV_PAPER.data_path(s["name"]))
         for s in SHV_PAPER.sources if s["values"].get("myth") == myth and "n" in s["values"]),
        key=lambda run: ([SHV_HUMAN, *SHV_MODELS].index(run[0]), run[1]),
    )
    for myth in SHV_MYTHS
}


rule pair_shvets2026_runs:
    input:
        text="data/shvets2026/texts/{myth}_numbered.txt",
        runs=lambda wildcards: [path for _, _, path in SHV_RUNS[wildcards.myth]],
    output:
        values=f"{SHV}/values/pairs_{{myth}}.tsv",
        projection=f"{SHV}/tables/projection_{{myth}}.tsv",
        runs=f"{SHV}/tables/runs_{{myth}}.tsv",
        runs_md=f"{SHV}/tables/runs_{{myth}}.md",
        diagnostics=f"{SHV}/tables/diagnostics_{{myth}}.tsv",
        diagnostics_md=f"{SHV}/tables/diagnostics_{{myth}}.md",
        pairs=f"{SHV}/tables/pairs_{{myth}}.tsv",
        pairs_md=f"{SHV}/tables/pairs_{{myth}}.md",
        readers=f"{SHV}/tables/readers_{{myth}}.tsv",
        readers_md=f"{SHV}/tables/readers_{{myth}}.md",
        placement=f"{SHV}/tables/placement_{{myth}}.tsv",
        placement_md=f"{SHV}/tables/placement_{{myth}}.md",
    params:
        run_ids=lambda wildcards: [(reader, n) for reader, n, _ in SHV_RUNS[wildcards.myth]],
        settings=SHV_SETTINGS,
    log:
        f"{SHV_LOGS}/pair_runs_{{myth}}.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/pair_runs.py"


rule enumerate_shvets2026_triples:
    input:
        pairs=expand(f"{SHV}/tables/pairs_{{myth}}.tsv", myth=SHV_MYTHS),
    output:
        values=f"{SHV}/values/triples.tsv",
        triples=f"{SHV}/tables/triples.tsv",
        thresholds=f"{SHV}/tables/triple_thresholds.tsv",
        thresholds_md=f"{SHV}/tables/triple_thresholds.md",
        far=f"{SHV}/tables/far_runs.tsv",
        far_md=f"{SHV}/tables/far_runs.md",
    params:
        myths=SHV_MYTHS,
        human=SHV_HUMAN,
        models=SHV_MODELS,
        thresholds=SHV_SETTINGS["thresholds"],
    log:
        f"{SHV_LOGS}/enumerate_triples.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/enumerate_triples.py"


rule compute_shvets2026_phase_shift:
    input:
        projections=expand(f"{SHV}/tables/projection_{{myth}}.tsv", myth=SHV_MYTHS),
        texts=expand("data/shvets2026/texts/{myth}_numbered.txt", myth=SHV_MYTHS),
    output:
        values=f"{SHV}/values/phase_shift.tsv",
        variants=f"{SHV}/variants/phase_shift.tsv",
        table4=f"{SHV}/tables/table4.tsv",
        table4_md=f"{SHV}/tables/table4.md",
        table4_models=f"{SHV}/tables/table4_model_triples.tsv",
        table4_models_md=f"{SHV}/tables/table4_model_triples.md",
        triples=f"{SHV}/tables/phase_shift_triples.tsv",
        b2=f"{SHV}/tables/b2.tsv",
        b2_md=f"{SHV}/tables/b2.md",
    params:
        myths=SHV_MYTHS,
        human=SHV_HUMAN,
        models=SHV_MODELS,
        max_lag=SHV_SETTINGS["max_lag"],
    log:
        f"{SHV_LOGS}/compute_phase_shift.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/compute_phase_shift.py"


rule check_shvets2026_anchoring:
    input:
        prompt="data/shvets2026/prompts/seg_v4.txt",
        text=f"data/shvets2026/texts/{ANCHORING_MYTH}_numbered.txt",
        runs=[path for _, _, path in SHV_RUNS.get(ANCHORING_MYTH, [])],
    output:
        values=f"{SHV}/values/anchoring.tsv",
        table=f"{SHV}/tables/anchoring.tsv",
        table_md=f"{SHV}/tables/anchoring.md",
    params:
        run_ids=[(reader, n) for reader, n, _ in SHV_RUNS.get(ANCHORING_MYTH, [])],
        human=SHV_HUMAN,
        myth=ANCHORING_MYTH,
        settings=SHV_SETTINGS,
    log:
        f"{SHV_LOGS}/check_anchoring.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/check_anchoring.py"


rule count_shvets2026_checks:
    input:
        script="data/shvets2026/documents/reproduce.py",  # a document of paper.yaml (rules/ledger.smk fetches it)
    output:
        values=f"{SHV}/values/checks.tsv",
    log:
        f"{SHV_LOGS}/count_checks.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/count_checks.py"


rule plot_shvets2026_reader_gaps:
    input:
        readers=expand(f"{SHV}/tables/readers_{{myth}}.tsv", myth=SHV_MYTHS),
    output:
        table=f"{SHV}/tables/table1_2.tsv",
        table_md=f"{SHV}/tables/table1_2.md",
        figure=report(f"{SHV}/figures/gap_by_reader.png", category="shvets2026",
                      caption="report/gap_by_reader.rst"),
    params:
        myths=SHV_MYTHS,
    log:
        f"{SHV_LOGS}/plot_reader_gaps.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_reader_gaps.py"


rule plot_shvets2026_triple_gaps:
    input:
        triples=f"{SHV}/tables/triples.tsv",
        readers=expand(f"{SHV}/tables/readers_{{myth}}.tsv", myth=SHV_MYTHS),
    output:
        report(f"{SHV}/figures/triple_gaps.png", category="shvets2026",
               caption="report/triple_gaps.rst"),
    params:
        myths=SHV_MYTHS,
    log:
        f"{SHV_LOGS}/plot_triple_gaps.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_triple_gaps.py"


rule plot_shvets2026_human_pairs:
    input:
        pairs=expand(f"{SHV}/tables/pairs_{{myth}}.tsv", myth=SHV_MYTHS),
    output:
        report(f"{SHV}/figures/human_pairs.png", category="shvets2026",
               caption="report/human_pairs.rst"),
    params:
        human=SHV_HUMAN,
    log:
        f"{SHV_LOGS}/plot_human_pairs.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_human_pairs.py"


rule check_shvets2026_printed:
    input:
        paper="workflow/papers/shvets2026/paper.yaml",
        tables=[f"workflow/papers/shvets2026/{table}" for table in SHV_PAPER.paper["claim_tables"]],
        relations="workflow/papers/shvets2026/shvets2026/internal.py",
    output:
        values=f"{SHV}/values/printed.tsv",
        variants=f"{SHV}/variants/printed.tsv",
    params:
        paper="shvets2026",
    log:
        f"{SHV_LOGS}/check_printed.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "../../../scripts/check_printed.py"


SHV_PAPER.add_values(
    *expand(f"{SHV}/values/pairs_{{myth}}.tsv", myth=SHV_MYTHS),
    f"{SHV}/values/triples.tsv",
    f"{SHV}/values/phase_shift.tsv",
    f"{SHV}/values/printed.tsv",
    f"{SHV}/values/checks.tsv",
    *([f"{SHV}/values/anchoring.tsv"] if ANCHORING_MYTH in SHV_MYTHS else []),
)
SHV_PAPER.add_variants(f"{SHV}/variants/phase_shift.tsv", f"{SHV}/variants/printed.tsv")
SHV_PAPER.add_targets(
    f"{SHV}/claims.tsv",
    f"{SHV}/tables/table1_2.tsv",
    f"{SHV}/figures/gap_by_reader.png",
    f"{SHV}/figures/triple_gaps.png",
    f"{SHV}/figures/human_pairs.png",
)
