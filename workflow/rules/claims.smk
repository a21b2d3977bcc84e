# Gather each paper's values, diff them against the numbers it printed (with the variants its
# rules computed), then summarise.
# Included after the papers' rules.smk, so the registry holds every registered value file.
# An error in one paper's claims (a key no rule produces, ...) fails that paper alone: its
# claims_error.txt says why, the summary and the report are built from every paper, and
# rule confirm_claims then fails the run, its error last (reagree.pipeline.failures).
from reagree.pipeline.failures import CLAIMS_DIFFED


rule gather_values:
    input:
        lambda wildcards: REGISTRY.paper(wildcards.paper).values,
    output:
        "results/{paper}/values.tsv",
    log:
        "logs/values/{paper}.log",
    wildcard_constraints:
        paper="|".join(p for p in REGISTRY.ids if REGISTRY.paper(p).values) or "no-paper",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    script:
        "../../scripts/gather_values.py"


rule diff_claims:
    input:
        values="results/{paper}/values.tsv",
        paper="workflow/papers/{paper}/paper.yaml",
        tables=lambda wildcards: [
            f"workflow/papers/{wildcards.paper}/{t}" for t in PAPERS[wildcards.paper].get("claim_tables") or []
        ],
        # the sha256 of what the paper read, held against the pins and the first-use record
        # before any status is written (reagree.pipeline.pins.verify_read_inputs)
        inputs=lambda wildcards: [f"results/{wildcards.paper}/inputs.sha256"]
        * bool(SOURCES[wildcards.paper] + DOCUMENTS[wildcards.paper]),
        # the variants the paper's rules computed for its claim keys (reagree.pipeline.variantplan)
        variants=lambda wildcards: REGISTRY.paper(wildcards.paper).variants,
        # the ledger check passed (rules/ledger.smk): every claim that quotes the authors'
        # repository is printed by its file, and with a ledger every claim at its place, so a
        # misquote stops the run before any status is written
        ledger="results/{paper}/ledger_counts.tsv",
    output:
        claims="results/{paper}/claims.tsv",
        # empty, or the error that stopped this paper's claims (reagree.pipeline.failures)
        error="results/{paper}/claims_error.txt",
    log:
        "logs/claims/{paper}.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    params:
        pins=lambda wildcards: {
            s["name"]: s["sha256"] for s in SOURCES[wildcards.paper] + DOCUMENTS[wildcards.paper] if s["sha256"]
        },
        # the values and variants files whose <file>.reads name the bytes they were computed from,
        # each held against inputs.sha256, the pins and the record (pins.verify_rule_reads)
        computed=lambda wildcards: REGISTRY.paper(wildcards.paper).values + REGISTRY.paper(wildcards.paper).variants,
        settings=lambda wildcards: config.get(wildcards.paper) or {},
        expansions=lambda wildcards: REGISTRY.paper(wildcards.paper).expansions,
    script:
        "../../scripts/diff_claims.py"


rule summarise_claims:
    input:
        claims=expand("results/{paper}/claims.tsv", paper=PAPERS),
        # the reference column of every value (reagree.stats.references): disagreements are defects
        values=expand("results/{paper}/values.tsv", paper=PAPERS),
        # every printed number of the documents, claimed or dismissed (rules/ledger.smk)
        ledgers=expand("results/{paper}/ledger_counts.tsv", paper=PAPERS),
        # the papers whose claims could not be diffed, each with its error
        errors=expand("results/{paper}/claims_error.txt", paper=PAPERS),
    output:
        tsv="results/summary.tsv",
        md=report("results/summary.md", category="Summary"),
    log:
        "logs/claims/summary.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    params:
        papers=list(PAPERS),
        left_out=LEFT_OUT,
    script:
        "../../scripts/summarise_claims.py"


# Last: every paper's claims were diffed, or the run fails naming each paper that was not
# and why (after the summary and the report, which show it too). Its output is written
# only when none failed, so a later run that has nothing else to do fails the same way
# until the claims are fixed.
rule confirm_claims:
    input:
        errors=expand("results/{paper}/claims_error.txt", paper=PAPERS),
        summary="results/summary.md",
        report="results/report.html",
    output:
        CLAIMS_DIFFED,
    log:
        "logs/claims/confirm.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    params:
        papers=list(PAPERS),
    script:
        "../../scripts/confirm_claims.py"
