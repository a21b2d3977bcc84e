"""Rule compute_jayanetti2026_variants: for every claim key a family of
jayanetti2026/variants.py applies to, that family evaluated on the data behind the key, one
row per variant, reagree's own reading marked (jayanetti2026.variant_values.compute_variants)."""

from jayanetti2026.release import read_release
from jayanetti2026.variant_values import compute_variants, read_reruns
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.variantplan import write_variants

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    reruns = read_reruns(snakemake.input.reruns)
    claims = load_paper(snakemake.input.paper)["claims"]
    write_variants(
        compute_variants(release, reruns, claims, snakemake.params.settings, snakemake.params.expansions, log),
        snakemake.output.variants,
    )
