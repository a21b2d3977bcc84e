"""Rule compute_agreement_before_accuracy_bootstrap_widths: interval width against sample
size under the document's own resampling scheme
(agreement_before_accuracy.bootstrap_widths.compute_bootstrap_widths)."""

from agreement_before_accuracy.bootstrap_widths import compute_bootstrap_widths
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    write_outputs(compute_bootstrap_widths(log), snakemake)
