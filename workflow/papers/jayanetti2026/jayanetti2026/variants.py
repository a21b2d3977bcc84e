"""Which variant families jayanetti2026's claims are searched under, one line per family
(``reagree.pipeline.variantplan``; the families are ``reagree.stats.variants``'). Rule
compute_jayanetti2026_variants computes them; claims.tsv's explained_by reports them."""

from reagree.pipeline.variantplan import VariantPlan

PLAN = VariantPlan(
    "jayanetti2026",
    {
        "chance_model": "fleiss.*.*",  # Fleiss, Conger, Randolph, Light
        "kappa_weights": "kappa.*.*.three_class",  # Cohen unweighted, linear, quadratic
        "tie_rule": ["kappa.*.vs_majority.**", "count.majority.*.*"],  # every tie rule re-voting the six humans
        "tie_definition": "count.ties.*",  # what counts as a tied vote
        "percentage_base": "percent.humans.*",  # human labels, all nine raters' labels, tweets
    },
)
