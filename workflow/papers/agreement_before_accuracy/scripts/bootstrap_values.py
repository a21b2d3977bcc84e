"""Rule compute_aba_bootstrap_widths: interval width against sample size.

Uses the document's own resampling scheme (draw d = random.Random(100000 + d), n calls of
randrange(n)) so its printed intervals can be matched exactly; the statistics are
evaluated by reagree's vectorised engine on those index draws. Composition only.
"""
import numpy as np
import pandas as pd

from reagree import bootstrap
from reagree.alpha import alpha_statistic
from reagree.multirater import percent_agreement
from reagree.pairwise import cohen_statistic
from reagree.ratings import Ratings
from reagree.rulekit import rule_log
from reagree.synthetic import LABELS, complete_round, resample_indices
from reagree.tables import value_row, write_table, write_values

SIZES = (50, 100, 200, 400, 800, 2000)
DRAWS = 2000  # the document's; its figures are only reproducible with its own scheme
PROVENANCE = {"paper": "agreement_before_accuracy",
              "source": "regenerated fixtures (seed n for two coders, n + 5000 for three)",
              "draws": f"{DRAWS}, random.Random(100000 + draw).randrange(n) x n; 95% percentile interval"}

with rule_log(snakemake) as log:
    values, rows = [], []
    for n in SIZES:
        two = Ratings.from_labels(pd.DataFrame(complete_round(n, n, ("A", "B"))), categories=LABELS)
        three = Ratings.from_labels(pd.DataFrame(complete_round(n, n + 5000)), categories=LABELS)
        kappa = cohen_statistic(two, "A", "B")
        alpha = alpha_statistic(three, "nominal")
        indices = np.array(resample_indices(n, DRAWS))
        kappa_low, kappa_high = bootstrap.percentile_interval(bootstrap.evaluate_indices([kappa], indices)[0])
        alpha_low, alpha_high = bootstrap.percentile_interval(bootstrap.evaluate_indices([alpha], indices)[0])
        row = {"n": n, "agreement": percent_agreement(two.unit_counts()),
               "kappa": kappa.estimate(), "kappa_ci_low": kappa_low, "kappa_ci_high": kappa_high,
               "kappa_width": kappa_high - kappa_low,
               "alpha": alpha.estimate(), "alpha_ci_low": alpha_low, "alpha_ci_high": alpha_high,
               "alpha_width": alpha_high - alpha_low}
        rows.append(row)
        for field, value in row.items():
            if field != "n":
                values.append(value_row(f"bootstrap.n{n}.{field}", value))
        log.info("n=%d: kappa width %.3f, alpha width %.3f", n, row["kappa_width"], row["alpha_width"])
    write_values(values, snakemake.output.values)
    write_table(pd.DataFrame(rows), snakemake.output.widths,
                "Bootstrap interval width by number of items (Cohen's kappa, 2 coders; alpha, 3 coders)", PROVENANCE)
