"""Shvets (2026): printed numbers held against one another (``reagree.pipeline.internal``).

The replication's derived figures against the figures they are derived from, as printed:
"Gemini's +0.291 on Gudea sits 0.007 below the human's +0.298" against the two printed
gaps, "Table 4's one-step ratio is 1.04 ... 2.5 and 1.8" against Table 4's printed
one-step counts (observed and expected), "so the margin is 0.019" against the lowest
model triple's 0.310 and the human's highest myth mean, 0.291, and "The human bar is ...
second by a hair in the third" against the four Gudea gaps the same sentence prints or
quotes (Table 2). The claims are in
``claims/internal.tsv``; the rule ``check_shvets2026_printed`` writes these values.
"""

from reagree.pipeline.internal import Printed, relate

from shvets2026 import keys
from shvets2026.release import MODELS, MYTHS

# A key the repository prints in several files is named by the place it is quoted from
# (Printed(key, where=...)): Table 1 and 2 as the paper prints them, Table 4 as reproduce.py does.
REPRODUCE = "reproduce.py, step table4"
RELATIONS = [
    relate(
        keys.GAP_DIFFERENCE_PRINTED,
        Printed("gap.human.gudea", where="Table 1, Gudea"),
        Printed("gap.gemini.gudea", where="Table 2, gemini"),
        model="gemini",
        myth="gudea",
    ),
    *[
        relate(
            keys.ONE_STEP_RATIO_PRINTED,
            Printed(f"lag_one_step.human.{myth}.observed", where=REPRODUCE),
            Printed(f"lag_one_step.human.{myth}.expected", where=REPRODUCE),
            myth=myth,
        )
        for myth in MYTHS
    ],
    relate(
        keys.LABEL_MARGIN_PRINTED,
        "kappa_label.triples.models.min",
        Printed("kappa_label.human.inanna_enki", where="Table 1, Inanna and Enki"),
    ),
    relate(
        keys.GAP_RANK_PRINTED,
        Printed("gap.human.gudea", where="Table 1, Gudea"),
        *(Printed(f"gap.{model}.gudea", where="results/table2.txt") for model in MODELS),
        myth="gudea",
    ),
]
