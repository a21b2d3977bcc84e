"""Which variant families shvets2026's claims are searched under, one line per family
(``reagree.pipeline.variantplan``). The family ``chance_expectation`` is this paper's own:
a chance level as its exact expectation or as the authors' seeded Monte Carlo estimate,
replayed (``shvets2026.streams``, scheme python-random). The phase-shift rule computes it
beside Table 4."""

from reagree.pipeline.variantplan import VariantPlan
from reagree.stats.variants import Family, Variant

from shvets2026 import streams

CHANCE_EXPECTATION = Family(
    "chance_expectation",
    "a chance level as its exact expectation or as the authors' seeded Monte Carlo estimate "
    "(scheme python-random; also streams.b2_gap_expectations and lowest_same_place_ratio)",
    streams.lag_count_expectations,
    (streams.EXACT, streams.REPLAYED),
)

PLAN = VariantPlan(
    "shvets2026",
    {
        # the exact expectation or the authors' seeded estimate, replayed (scheme python-random)
        "chance_expectation": ["lag_*.human.*.expected", "b2_gap.human.*", "ratio_same_place.triples.models.*.min"],
    },
    families=[CHANCE_EXPECTATION],
    variants=[
        Variant(
            streams.EXACT,
            "chance_expectation",
            "the exact expectation (every rotation or every draw averaged)",
            streams.lag_count_expectations,
        ),
        Variant(
            streams.REPLAYED,
            "chance_expectation",
            "the authors' Monte Carlo estimate, their seeded random stream replayed (scheme python-random)",
            streams.replayed_lag_counts,
        ),
    ],
)
