"""Rule check_shvets2026_anchoring: how many runs on the Gudea text open with exactly the
segment the prompt's worked example declares, per reader (shvets2026.anchoring.check_anchoring).
The prompt is parsed as data, never evaluated."""

from reagree.pipeline.rulekit import rule_log, write_outputs
from shvets2026.anchoring import check_anchoring

with rule_log(snakemake) as log:
    params = snakemake.params
    write_outputs(
        check_anchoring(
            snakemake.input.prompt,
            snakemake.input.text,
            params.run_ids,
            list(snakemake.input.runs),
            params.myth,
            params.human,
            params.settings["fractional_lines"],
            log,
        ),
        snakemake,
    )
