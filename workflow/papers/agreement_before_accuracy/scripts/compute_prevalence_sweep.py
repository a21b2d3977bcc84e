"""Rule compute_agreement_before_accuracy_prevalence_sweep: kappa, PABAK and AC1 at fixed
0.900 agreement as the prevalence moves, and the counted 2x2 table
(agreement_before_accuracy.prevalence_sweep.compute_prevalence_sweep)."""

from agreement_before_accuracy.prevalence_sweep import compute_prevalence_sweep
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    write_outputs(compute_prevalence_sweep(log), snakemake)
