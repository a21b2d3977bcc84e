"""Rule count_shvets2026_checks: the check lines the authors' reproduce.py prints when
run, counted from its text (shvets2026.reproduce_checks: parsed, never run or imported).
Composition only.
"""
from pathlib import Path

from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import sha256_of, write_values
from shvets2026 import keys
from shvets2026.reproduce_checks import count_check_lines

with rule_log(snakemake) as log:
    path = snakemake.input.script
    count = count_check_lines(Path(path).read_text(encoding="utf-8"), path)
    write_values([keys.REPRODUCE_CHECKS.row(count, note=f"check lines {path} (sha256 {sha256_of(path)[:12]}) prints "
                                                        "when run without arguments, counted from its text")],
                 snakemake.output.values, rule=snakemake.rule)
    log.info("%s: %d check lines", path, count)
