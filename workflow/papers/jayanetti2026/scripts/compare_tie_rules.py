"""Rule compare_jayanetti2026_tie_rules: the tools' kappas side by side across tie rules.

The ranking table marks, per framing and tie rule, the tools' order and every pair that
swaps against the released majority; for ``random``, the order of the medians and the
share of tie breaks under which any pair swaps. Values: the lowest and highest kappa of
each tool over the deterministic rules, the number of swapped pairs per rule, and the
random rule's share of reordering tie breaks. Composition only (``reagree.stats.reference``).
"""
import pandas as pd

from jayanetti2026.release import TOOLS, against, provenance, read_release
from reagree.stats.majority import DETERMINISTIC_RULES
from reagree.stats.reference import range_over, ranking_table
from reagree.pipeline.rulekit import rule_log
from reagree.io.reads import sha256_read
from reagree.pipeline.tables import write_table, write_values
from jayanetti2026 import keys

BASELINE = "released"

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    scores = pd.concat([pd.read_csv(path, sep="\t") for path in snakemake.input.tables], ignore_index=True)
    kappas = scores[scores["rater"].isin(list(TOOLS))].rename(columns={"tie_rule": "reference"})
    draws = {}
    for rule, path in zip(snakemake.params.tie_rules, snakemake.input.draws):
        for framing, group in pd.read_csv(path, sep="\t").groupby("framing", sort=False):
            draws[(framing, rule)] = {tool: rows["kappa"].to_numpy() for tool, rows in group.groupby("rater")}
    table = ranking_table(kappas[["framing", "reference", "rater", "kappa"]], BASELINE, draws)
    deterministic = [BASELINE, *(r for r in snakemake.params.tie_rules if r in DETERMINISTIC_RULES)]
    values = []
    for row in range_over(kappas, deterministic).itertuples(index=False):
        note = "over tie rules " + ", ".join(deterministic)
        values += [keys.KAPPA_MIN.row(row.low, tool=row.rater, framing=row.framing,
                                      note=f"{note}; lowest under {row.low_under}"),
                   keys.KAPPA_MAX.row(row.high, tool=row.rater, framing=row.framing,
                                      note=f"{note}; highest under {row.high_under}")]
    for row in table.itertuples(index=False):
        if row.reference != BASELINE:
            values.append(keys.TOOL_PAIRS_SWAPPED.row(
                getattr(row, f"swaps_vs_{BASELINE}"), against_rule=against(row.reference), framing=row.framing,
                note=f"tool pairs ordered differently than under the released majority: "
                     f"{getattr(row, f'swapped_vs_{BASELINE}')}"))
        if (row.framing, row.reference) in draws:
            values.append(keys.SHARE_REORDERED.row(row.share_of_draws_reordered, framing=row.framing,
                                                   note="share of random tie breaks under which any tool pair swaps"))
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(table, snakemake.output.table,
                "Tool kappas and rankings by tie rule; pairs that swap against the released majority",
                provenance(release, sha256_read(release.path), tie_rules=", ".join(snakemake.params.tie_rules),
                           random="kappa = median over the random tie breaks"))
    log.info("%d values", len(values))
