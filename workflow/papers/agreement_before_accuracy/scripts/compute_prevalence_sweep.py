"""Rule compute_agreement_before_accuracy_prevalence_sweep: kappa, PABAK and AC1 at fixed
0.900 agreement as the prevalence moves, and the counted 2x2 table a=1 b=0 / c=9 d=230.
Composition only."""
import pandas as pd

from reagree.stats import pairwise
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import value_row, write_table, write_values

from agreement_before_accuracy.fixture import flip_rate_for_agreement, two_coder_table

OBSERVED_AGREEMENT = 0.900
PREVALENCES = (0.01, 0.02, 0.05, 0.10, 0.25, 0.50)
COUNTED = [[1, 0], [9, 230]]  # rows coder 1 (rare, common), columns coder 2
PROVENANCE = {"paper": "agreement_before_accuracy",
              "source": "expected two-coder tables (independent flips) and the document's counted table"}

with rule_log(snakemake) as log:
    flip_rate = flip_rate_for_agreement(OBSERVED_AGREEMENT)
    values = [value_row("flip_rate.prevalence_sweep", flip_rate)]
    rows = []
    for prevalence in PREVALENCES:
        reading = pairwise.table_coefficients(two_coder_table(prevalence, flip_rate))
        row = {"prevalence": prevalence, "agreement": reading["agreement"], "chance": reading["chance"],
               "kappa": reading["kappa"], "pabak": reading["pabak"], "ac1": reading["ac1"]}
        rows.append(row)
        tag = f"p{round(prevalence * 100)}"
        for field in ("agreement", "chance", "kappa", "pabak", "ac1"):
            values.append(value_row(f"{field}.prevalence_sweep.{tag}", row[field]))

    counted = pairwise.table_coefficients(COUNTED)
    for field in ("n", "agreement", "kappa", "pabak", "ac1"):
        values.append(value_row(f"{field}.table2x2", counted[field]))
    values += [value_row("specific_agreement.table2x2.rare", counted["specific"][0]),
               value_row("specific_agreement.table2x2.common", counted["specific"][1])]
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(rows), snakemake.output.sweep,
                f"Fixed observed agreement {OBSERVED_AGREEMENT}, flip rate {flip_rate:.7f}: coefficients by prevalence",
                PROVENANCE)
    counted_row = {k: v for k, v in counted.items() if k != "specific"}
    counted_row.update(specific_rare=counted["specific"][0], specific_common=counted["specific"][1])
    write_table(pd.DataFrame([counted_row]), snakemake.output.counted,
                "The counted 2x2 table a=1 b=0 / c=9 d=230 read six ways", PROVENANCE)
    log.info("flip rate %.7f; %d prevalences", flip_rate, len(rows))
