"""Rule count_shvets2026_checks: the check lines the authors' reproduce.py prints when run,
counted from its text (shvets2026.checks.count_checks: parsed, never run or imported)."""

from reagree.pipeline.rulekit import rule_log, write_outputs
from shvets2026.checks import count_checks

with rule_log(snakemake) as log:
    outputs = count_checks(snakemake.input.script)
    write_outputs(outputs, snakemake)
    log.info("%s: %s", snakemake.input.script, outputs.values[0]["value"])
