"""Rule check_shvets2026_anchoring: the worked example of prompts/seg_v4.txt declares a
segment (line_start, line_end) and quotes lines of the text (its evidence, found in the
numbered Gudea text); how many runs on that text open with exactly that segment, per
reader. The prompt is parsed as data, never evaluated.
"""
import pandas as pd

from reagree.io import reads
from reagree.methods import segments
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table, write_values
from shvets2026 import keys
from shvets2026.release import reader_key

with rule_log(snakemake) as log:
    myth, human = snakemake.params.myth, snakemake.params.human
    prompt = snakemake.input.prompt
    example = segments.worked_example_segments(reads.read_text(prompt), prompt)[0]
    start = segments.parse_line_number(example.get("line_start"))
    end = segments.parse_line_number(example.get("line_end"))
    log.info("%s: worked example declares lines %s to %s", prompt, start, end)
    text = snakemake.input.text
    quoted = segments.quoted_lines(example.get("evidence") or [], reads.read_text(text), text)

    runs, rows = {}, []
    for (reader, number), path in zip(snakemake.params.run_ids, snakemake.input.runs):
        run = segments.read_run(path, snakemake.params.settings["fractional_lines"])
        runs.setdefault(reader, []).append(run)
        first = segments.first_segment(run)
        rows.append({"reader": reader, "run": number, "file": path,
                     "first_segment": f"{first.line_start}-{first.line_end}" if first else "",
                     "anchored": int(segments.opens_with(run, start, end))})
    models = [reader for reader in runs if reader != human]
    counts = segments.anchoring_counts(runs, start, end, {"all": list(runs), "models": models})

    values = [keys.EXAMPLE.row(start, line="line_start", note=f"{prompt}: worked example"),
              keys.EXAMPLE.row(end, line="line_end", note=f"{prompt}: worked example"),
              *(keys.EXAMPLE_QUOTED.row(line, end=which, note=f"{prompt}: the example's evidence quotes {text} lines "
                                                              f"{', '.join(map(str, quoted))}")
                for which, line in (("first", min(quoted)), ("last", max(quoted))))]
    for name, (anchored, total) in counts.items():
        values.append(keys.ANCHORED_RUNS.row(anchored, anchored=reader_key(name), myth=myth,
                                             note=f"of {total} runs open with exactly lines {start} to {end}"))
    values += [keys.ANCHORING_RUNS.row(counts[group][1], group=group, myth=myth) for group in ("all", "models")]
    values += [keys.ANCHORED.row(row["anchored"], myth=myth, run=row["run"])
               for row in rows if row["reader"] == human]

    provenance = {"paper": "shvets2026", "prompt": f"{prompt} (sha256 {reads.sha256_read(prompt)})",
                  "example": f"line_start {start}, line_end {end}",
                  "runs": f"{len(rows)} run files of {myth}; first segment after sorting by (line_start, line_end)"}
    write_table(pd.DataFrame(rows), snakemake.output.table,
                f"Runs on {myth} that open with the prompt example's segment", provenance)
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    log.info("%s", {name: f"{a}/{t}" for name, (a, t) in counts.items()})
