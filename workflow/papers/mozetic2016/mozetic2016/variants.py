"""Which variant families mozetic2016's claims are searched under, one line per family
(``reagree.pipeline.variantplan``; the families are ``reagree.stats.variants``'). The rules
that score agreement and count repeats compute them beside their values."""

from reagree.pipeline.variantplan import VariantPlan

PLAN = VariantPlan(
    "mozetic2016",
    {
        "alpha_expected_disagreement": ["alpha_interval.self.*", "alpha_interval.inter.*"],  # n(n - 1) or n^2 pairs
        "alpha_distance": ["alpha_interval.self.*", "alpha_interval.inter.*"],  # nominal ... ratio
        "alpha_leave_one_unit_out": "alpha_interval.self.serbian",  # how many single units would give 0.205
        "counting": ["count.*_repeats.*.posts", "percent.*_repeats.*.posts"],  # items, label pairs, repeats
        "percentage_base": ["percent.*_repeats.*.posts", "percent.repeats.all_languages.posts"],  # all labels or tweets
    },
)
