"""Rule score_jayanetti2026_soft_labels: every tool scored against the six raters themselves
rather than their majority: Cohen's kappa with each and the mean, and the cross-entropy
under their label distribution (jayanetti2026.soft_labels.score_soft_labels)."""

from jayanetti2026.release import read_release
from jayanetti2026.soft_labels import score_soft_labels
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    write_outputs(
        score_soft_labels(release, snakemake.params.settings["soft_label_smoothing"], snakemake.params.bootstrap, log),
        snakemake,
    )
