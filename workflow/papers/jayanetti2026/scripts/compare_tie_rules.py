"""Rule compare_jayanetti2026_tie_rules: the tools' kappas side by side across tie rules,
and the pairs of tools whose order a rule swaps (jayanetti2026.tie_rules.compare_tie_rules)."""

import pandas as pd

from jayanetti2026.release import read_release
from jayanetti2026.tie_rules import compare_tie_rules
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    tables = [pd.read_csv(path, sep="\t") for path in snakemake.input.tables]
    draws = [pd.read_csv(path, sep="\t") for path in snakemake.input.draws]
    write_outputs(compare_tie_rules(release, tables, snakemake.params.tie_rules, draws, log), snakemake)
