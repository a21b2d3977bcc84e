# Materialise any source a paper.yaml declares: data/<paper>/<name>, pinned by sha256.
# From config["mirror"] when set, else over HTTPS; written atomically either way.


wildcard_constraints:
    paper="|".join(PAPERS) or "no-paper",
    name=r"[A-Za-z0-9][A-Za-z0-9._-]*",


rule fetch_source:
    output:
        "data/{paper}/{name}",
    params:
        url=lambda wildcards: source_of(PAPERS, wildcards.paper, wildcards.name)["url"],
        sha256=lambda wildcards: source_of(PAPERS, wildcards.paper, wildcards.name).get("sha256", ""),
    log:
        "logs/fetch/{paper}/{name}.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    retries: 0
    script:
        "../../scripts/fetch_source.py"
