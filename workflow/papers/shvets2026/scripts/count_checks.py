"""Rule count_shvets2026_checks: the check lines the authors' reproduce.py prints when
run, counted from its text (shvets2026.reproduce_checks: parsed, never run or imported).
Composition only.
"""
from reagree.io import reads
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_values
from shvets2026 import keys
from shvets2026.reproduce_checks import count_check_lines

with rule_log(snakemake) as log:
    path = snakemake.input.script
    count = count_check_lines(reads.read_text(path), path)
    write_values([keys.REPRODUCE_CHECKS.row(count, note=f"check lines {path} (sha256 {reads.sha256_read(path)[:12]}) "
                                                        "prints when run without arguments, counted from its text")],
                 snakemake.output.values, rule=snakemake.rule)
    log.info("%s: %d check lines", path, count)
