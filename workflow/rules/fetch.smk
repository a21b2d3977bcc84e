# Materialise any source a paper.yaml declares (expanded under the paper's settings):
# data/<paper>/<name>, pinned by sha256 where the upstream bytes are known.
# From config["mirror"] when set, else over HTTPS; written atomically either way.
from reagree.pipeline.sources import NAME_PATTERN


wildcard_constraints:
    paper="|".join(PAPERS) or "no-paper",
    name=NAME_PATTERN,


rule fetch_source:
    output:
        "data/{paper}/{name}",
    params:
        url=lambda wildcards: source_of(SOURCES, wildcards.paper, wildcards.name)["url"],
        sha256=lambda wildcards: source_of(SOURCES, wildcards.paper, wildcards.name)["sha256"] or "",
    log:
        "logs/fetch/{paper}/{name}.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    retries: 0
    script:
        "../../scripts/fetch_source.py"


# The sha256 of every file a paper read, pinned or not, in `sha256sum -c` format: a
# result's provenance for sources whose upstream bytes are not fixed.
rule hash_inputs:
    input:
        lambda wildcards: [f"data/{wildcards.paper}/{s['name']}" for s in SOURCES[wildcards.paper]],
    output:
        "results/{paper}/inputs.sha256",
    log:
        "logs/fetch/{paper}.inputs.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    script:
        "../../scripts/hash_inputs.py"
