# reagree: rebuild every published agreement number and diff it against the paper.
#   snakemake --cores 4                                       (downloads the sources)
#   snakemake --cores 4 --configfile ../shared/offline.yaml   (copies them from the mirror)
from snakemake.utils import min_version

min_version("9.0")


# Every config file through reagree's strict YAML reader before Snakemake merges it below.
include: "workflow/rules/configfiles.smk"


configfile: "config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/fetch.smk"


# Each paper's rules.smk is a Snakemake module of its own, named by the paper's id (its
# globals are its own, no prefixes), its rules used under their own names; what they build
# reaches the generic rules through the registry (reagree.pipeline.paper_registry).
for paper_id in PAPERS:

    module:
        name: paper_id
        snakefile:
            f"workflow/papers/{paper_id}/rules.smk"
        config:
            config

    use rule * from paper_id


include: "workflow/rules/printed.smk"
include: "workflow/rules/ledger.smk"
include: "workflow/rules/claims.smk"
include: "workflow/rules/audit.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/startup.smk"


rule all:
    default_target: True
    input:
        "results/summary.tsv",
        "results/summary.md",
        "results/report.html",
        "results/claims_diffed.txt",
        REGISTRY.targets(),
