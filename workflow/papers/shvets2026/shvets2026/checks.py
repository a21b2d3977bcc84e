"""The check lines the authors' reproduce.py prints when run (rule count_shvets2026_checks:
``count_checks``), counted from its text by ``shvets2026.reproduce_checks``: parsed, never
run or imported."""

from __future__ import annotations

from reagree.io import reads
from reagree.pipeline.rulekit import RuleOutputs

from shvets2026 import keys
from shvets2026.reproduce_checks import count_check_lines


def count_checks(path: str) -> RuleOutputs:
    """The count of check lines of the script at ``path`` (a document of paper.yaml), its
    sha256 in the note."""
    count = count_check_lines(reads.read_text(path), path)
    return RuleOutputs(
        values=[
            keys.REPRODUCE_CHECKS.row(
                count,
                note=f"check lines {path} (sha256 {reads.sha256_read(path)[:12]}) prints when run without arguments, "
                "counted from its text",
            )
        ]
    )
