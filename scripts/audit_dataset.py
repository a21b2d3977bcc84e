"""Rule audit_dataset: one table of config.yaml's datasets, audited into its folder.

Composition only: reagree.audit reads the table, computes every coefficient with the
library's functions, and writes the JSON, the text, the tables and the figure.
"""

from pathlib import Path

from reagree.audit import audit_file, write_outputs
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake) as log:
    spec, bootstrap = snakemake.params.dataset, snakemake.params.bootstrap
    result = audit_file(
        snakemake.input[0],
        layout=spec["format"],
        unit=spec["unit"],
        rater=spec["rater"],
        label=spec["label"],
        raters=spec["raters"],
        order=spec["order"],
        majority=spec["majority"],
        level=spec["level"],
        tie_rule=spec["tie_rule"],
        draws=bootstrap["draws"],
        seed=bootstrap["seed"],
        ci_level=bootstrap["level"],
        show_progress=False,
        encoding=spec["encoding"],
        repeats=spec.get("repeats"),
        max_bytes=spec["max_bytes"],
        design=spec.get("design"),
        weights=spec.get("weights"),
    )
    result["dataset"] = snakemake.wildcards.dataset
    write_outputs(result, Path(snakemake.output.json).parent, title=f"{snakemake.wildcards.dataset}")
    log.info(
        "%s: %d units, %d raters, %s",
        snakemake.wildcards.dataset,
        result["n_units"],
        result["n_raters"],
        result["coefficients"],
    )
