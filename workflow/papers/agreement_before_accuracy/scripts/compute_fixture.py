"""Rule compute_agreement_before_accuracy_fixture: the first block of "Agreement Before
Accuracy" (agreement_before_accuracy.intent_round.compute_fixture: the intent and severity
rounds, the alpha-minus-Fleiss gap, their variants and tables)."""

from agreement_before_accuracy.intent_round import compute_fixture
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    write_outputs(compute_fixture(log), snakemake)
