"""The prompt's worked example against the runs of shvets2026 (rule
check_shvets2026_anchoring: ``check_anchoring``): the worked example of prompts/seg_v4.txt
declares a segment (line_start, line_end) and quotes lines of the text (its evidence, found
in the numbered Gudea text); how many runs on that text open with exactly that segment,
per reader. The prompt is parsed as data, never evaluated.
"""

from __future__ import annotations

import logging
from typing import Sequence

import pandas as pd

from reagree.io import reads
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table

from shvets2026 import keys, segments
from shvets2026.release import reader_key


def check_anchoring(
    prompt: str,
    text: str,
    run_ids: Sequence[tuple[str, int]],
    run_paths: Sequence[str],
    myth: str,
    human: str,
    fractional_lines: str,
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """The worked example's lines read from ``prompt`` and the lines its evidence quotes in
    ``text``; per reader and group, the runs on ``myth`` (``run_ids``: (reader, run number)
    of each of ``run_paths``) that open with exactly that segment, and ``human``'s runs one
    by one; the table ``table``. ``fractional_lines``: the paper's setting."""
    log = log or logging.getLogger(__name__)
    example = segments.worked_example_segments(reads.read_text(prompt), prompt)[0]
    start = segments.parse_line_number(example.get("line_start"), fractional_lines)
    end = segments.parse_line_number(example.get("line_end"), fractional_lines)
    log.info("%s: worked example declares lines %s to %s", prompt, start, end)
    quoted = segments.quoted_lines(example.get("evidence") or [], reads.read_text(text), text)

    runs, rows = {}, []
    for (reader, number), path in zip(run_ids, run_paths):
        run = segments.read_run(path, fractional_lines)
        runs.setdefault(reader, []).append(run)
        first = segments.first_segment(run)
        rows.append(
            {
                "reader": reader,
                "run": number,
                "file": path,
                "first_segment": f"{first.line_start}-{first.line_end}" if first else "",
                "anchored": int(segments.opens_with(run, start, end)),
            }
        )
    models = [reader for reader in runs if reader != human]
    counts = segments.anchoring_counts(runs, start, end, {"all": list(runs), "models": models})

    values = [
        keys.EXAMPLE.row(start, line="line_start", note=f"{prompt}: worked example"),
        keys.EXAMPLE.row(end, line="line_end", note=f"{prompt}: worked example"),
        *(
            keys.EXAMPLE_QUOTED.row(
                line,
                end=which,
                note=f"{prompt}: the example's evidence quotes {text} lines {', '.join(map(str, quoted))}",
            )
            for which, line in (("first", min(quoted)), ("last", max(quoted)))
        ),
    ]
    for name, (anchored, total) in counts.items():
        values.append(
            keys.ANCHORED_RUNS.row(
                anchored,
                anchored=reader_key(name),
                myth=myth,
                note=f"of {total} runs open with exactly lines {start} to {end}",
            )
        )
    values += [keys.ANCHORING_RUNS.row(counts[group][1], group=group, myth=myth) for group in ("all", "models")]
    values += [keys.ANCHORED.row(row["anchored"], myth=myth, run=row["run"]) for row in rows if row["reader"] == human]

    provenance = {
        "paper": "shvets2026",
        "prompt": f"{prompt} (sha256 {reads.sha256_read(prompt)})",
        "example": f"line_start {start}, line_end {end}",
        "runs": f"{len(rows)} run files of {myth}; first segment after sorting by (line_start, line_end)",
    }
    log.info("%s", {name: f"{a}/{t}" for name, (a, t) in counts.items()})
    return RuleOutputs(
        values=values,
        tables={
            "table": Table(
                pd.DataFrame(rows), f"Runs on {myth} that open with the prompt example's segment", provenance
            )
        },
    )
