"""Which variant families shvets2026's claims are searched under, one line per family
(``reagree.pipeline.variantplan``; the families are ``reagree.stats.variants``'). The
phase-shift rule computes them beside Table 4."""
from reagree.pipeline.variantplan import VariantPlan

PLAN = VariantPlan("shvets2026", {
    # the exact expectation or the authors' seeded estimate, replayed (scheme python-random)
    "chance_expectation": ["lag_*.human.*.expected", "b2_gap.human.*", "ratio_same_place.triples.models.*.min"],
})
