# Materialise the sources a paper.yaml declares (expanded under the paper's settings):
# data/<paper>/<name>, one job per source entry (fetch_source_<paper>_<n>: the n-th entry
# of its sources, however many files it expands to), copied from config["mirror"] when set,
# else downloaded several at a time. Every file is checked against its pin, or against the
# sha256 recorded at its first fetch (data/<paper>.sha256, reagree.pipeline.pins), and an
# entry's files are renamed into place together, only when all of them arrived.
#
# A job's outputs are the entry's files missing from data/ (all of them when none is), so
# deleting one file fetches only that file again and reruns only what reads it. Its params
# are the entry as written in paper.yaml, the same whichever files are missing: editing
# an entry's URL or pins fetches its files again, changing the settings does not.


wildcard_constraints:
    paper="|".join(PAPERS) or "no-paper",


for _paper_id in PAPERS:
    _entries = {}
    for _source in SOURCES[_paper_id]:
        _entries.setdefault(_source["entry"], []).append(f"data/{_paper_id}/{_source['name']}")
    for _index, _files in _entries.items():

        rule:
            name:
                f"fetch_source_{_paper_id}_{_index + 1}"
            output:
                [path for path in _files if not Path(path).exists()] or _files,
            log:
                f"logs/fetch/{_paper_id}/source_{_index + 1}.log",
            retries: 0
            conda:
                "../../envs/reagree.yaml"
            threads: 1
            params:
                paper=_paper_id,
                entry=PAPERS[_paper_id]["sources"][_index],
            script:
                "../../scripts/fetch_source.py"


# The sha256 of every file a paper read (its sources and its documents: rules/ledger.smk),
# pinned or not, in `sha256sum -c` format: a result's provenance, and what the claims rule
# holds against the pins and the record.
rule hash_inputs:
    input:
        lambda wildcards: [
            f"data/{wildcards.paper}/{s['name']}" for s in SOURCES[wildcards.paper] + DOCUMENTS[wildcards.paper]
        ],
    output:
        "results/{paper}/inputs.sha256",
    log:
        "logs/fetch/{paper}.inputs.log",
    conda:
        "../../envs/reagree.yaml"
    threads: 1
    script:
        "../../scripts/hash_inputs.py"
