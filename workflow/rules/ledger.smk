# Every number a paper's documents print, accounted for (reagree.pipeline.ledger): the
# documents are fetched like sources (data/<paper>/documents/<name>, one job per entry of
# paper.yaml's or the config's documents:, pinned or pinned on first use), then rule
# check_ledger holds workflow/papers/<paper>/ledger.tsv against a fresh scan of them and
# against the paper's claims. It writes results/<paper>/ledger.tsv (every printed number
# with its status) and ledger_counts.tsv (per document: printed, claimed, dismissed,
# unreviewed, unaccounted), which the summary shows. A paper without documents, or
# without a ledger yet, gets one line saying it was not checked and why; its claims that
# quote the authors' repository are held against their files all the same. The claims
# rule waits for this check (rules/claims.smk), so a misquote stops the run before any
# status is written. A rule that reads a document (shvets2026's count of reproduce.py's
# check lines) names its path, data/<paper>/documents/<name>.
from reagree.pipeline.documents import document_entries, document_params

for _paper_id in PAPERS:
    _document_entries = document_entries(_paper_id, PAPERS[_paper_id], config)
    _by_entry = {}
    for _document in DOCUMENTS[_paper_id]:
        _by_entry.setdefault(_document["entry"], []).append(f"data/{_paper_id}/{_document['name']}")
    for _index, _files in _by_entry.items():

        rule:
            name:
                f"fetch_document_{_paper_id}_{_index + 1}"
            output:
                [path for path in _files if not Path(path).exists()] or _files,
            log:
                f"logs/fetch/{_paper_id}/document_{_index + 1}.log",
            retries: 0
            conda:
                "../../envs/reagree.yaml"
            threads: 1
            params:
                paper=_paper_id,
                entry=_document_entries[_index],
            script:
                "../../scripts/fetch_source.py"


rule check_ledger:
    input:
        documents=lambda wildcards: [f"data/{wildcards.paper}/{d['name']}" for d in DOCUMENTS[wildcards.paper]],
        ledger=lambda wildcards: [p for p in [f"workflow/papers/{wildcards.paper}/ledger.tsv"] if Path(p).is_file()],
        paper="workflow/papers/{paper}/paper.yaml",
        tables=lambda wildcards: [
            f"workflow/papers/{wildcards.paper}/{t}" for t in PAPERS[wildcards.paper].get("claim_tables") or []
        ],
    output:
        table="results/{paper}/ledger.tsv",
        counts="results/{paper}/ledger_counts.tsv",
    log:
        "logs/ledger/{paper}.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    params:
        documents=lambda wildcards: document_params(DOCUMENTS[wildcards.paper], paper_id=wildcards.paper),
        strict=config["strict_ledger"],
    script:
        "../../scripts/check_ledger.py"
