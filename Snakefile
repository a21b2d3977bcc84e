# reagree: rebuild every published agreement number and diff it against the paper.
#   snakemake --cores 4                                   (downloads the sources)
#   snakemake --cores 4 --configfile ../shared/offline.yaml   (copies them from the mirror)
import sys
from pathlib import Path

from snakemake.utils import min_version, validate

min_version("9.0")

configfile: "config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")

# The Snakefile reads paper.yaml files with reagree, from this checkout's src/. Rule
# scripts import reagree from the environment: `pip install -e .` (make setup does it).
sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from reagree.paper_registry import load_enabled_papers, source_of

PAPERS = load_enabled_papers(config["papers"], Path(workflow.basedir) / "workflow")
# Every declared source is a target, so a deleted input is fetched again on the next run.
PAPER_TARGETS = {
    paper_id: [f"data/{paper_id}/{source['name']}" for source in paper.get("sources", [])]
    for paper_id, paper in PAPERS.items()
}

include: "workflow/rules/fetch.smk"
include: "workflow/rules/claims.smk"
for paper_id in PAPERS:
    include: f"workflow/papers/{paper_id}/rules.smk"


rule all:
    input:
        "results/summary.tsv",
        "results/summary.md",
        [target for targets in PAPER_TARGETS.values() for target in targets],
    default_target: True
