"""Which variant families agreement_before_accuracy's claims are searched under, one line
per family (``reagree.pipeline.variantplan``; the families are ``reagree.stats.variants``').
The fixture, prevalence and bootstrap-width rules compute them beside their values."""

from reagree.pipeline.variantplan import VariantPlan

PLAN = VariantPlan(
    "agreement_before_accuracy",
    {
        "missing_ratings": [
            "fleiss.intent.**",
            "alpha_nominal.intent.**",
            "alpha_minus_fleiss.intent.**",
            "count.complete_units.intent.**",
        ],  # pairwise or listwise deletion
        "chance_model": [
            "kappa.*.intent",
            "kappa.table2x2",
            "kappa.a_b.width_study.*",
            "fleiss.intent.**",
            "pabak.table2x2",
        ],  # Fleiss, Conger, Randolph, ... Cohen
        "category_set": ["pabak.table2x2", "ac1.table2x2"],  # declared or observed categories
        "alpha_distance": ["alpha_nominal.severity", "alpha_ordinal.severity"],  # nominal, ordinal, interval, ratio
        "percentage_base": "percent.missing_cells.intent",  # all cells or all items
    },
)
