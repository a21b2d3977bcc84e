"""Rule compute_agreement_before_accuracy_fixture: the first block of "Agreement Before
Accuracy".

The 240-message intent round (coders A, B, C, 7% cells missing), the severity round, and
the alpha-minus-Fleiss gap at 240 / 2,400 / 24,000 items. Composition only.
"""
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd

from reagree.stats import classification, multirater, pairwise
from reagree.stats.alpha import alpha_statistic, krippendorff_alpha
from reagree.stats.ratings import MISSING, Ratings
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import value_row, write_table, write_values
from reagree.stats.undefined import difference

from agreement_before_accuracy.fixture import CODERS, LABELS, intent_round, severity_round

# the gap table's columns and the keys they are written under
GAP_KEYS = {"complete_units": "count.complete_units.intent", "fleiss": "fleiss.intent.complete_units",
            "alpha": "alpha_nominal.intent.complete_units", "difference": "alpha_minus_fleiss.intent.complete_units"}
PROVENANCE = {"paper": "agreement_before_accuracy",
              "source": "regenerated from the document's generator (random.Random seeds 7 and 11)"}


def intent_ratings(n_items=240):
    units, truth = intent_round(n_items=n_items)
    return Ratings.from_labels(pd.DataFrame(units, columns=list(CODERS)), categories=LABELS), truth


with rule_log(snakemake) as log:
    values = []
    ratings, truth = intent_ratings()
    values.append(value_row("percent.missing_cells.intent", 100 * ratings.missing_share()))

    pair_rows = []
    for a, b in combinations(CODERS, 2):
        table = pairwise.contingency_table(ratings, a, b)
        reading = pairwise.table_coefficients(table)
        pair = f"{a.lower()}_{b.lower()}"
        for field in ("n", "agreement", "chance", "kappa"):
            values.append(value_row(f"{field}.{pair}.intent", reading[field]))
        # A model that copies coder a exactly, scored against coder b on the items both labelled.
        copy = ratings.select([b]).with_column("copy", ratings.select([a]).codes[:, 0])
        ceiling = classification.accuracy(pairwise.contingency_table(copy, "copy", b))
        values.append(value_row(f"accuracy.copy_of_{a.lower()}.vs_{b.lower()}.intent", ceiling))
        pair_rows.append({"pair": f"{a}-{b}", **{f: reading[f] for f in ("n", "agreement", "chance", "kappa")},
                          "copy_scored": ceiling})

    complete = ratings.complete()
    fleiss = multirater.fleiss_kappa(complete.unit_counts())
    alpha_all = krippendorff_alpha(ratings, "nominal")
    alpha_complete = krippendorff_alpha(complete, "nominal")
    values += [value_row("count.complete_units.intent", complete.n_units),
               value_row("fleiss.intent.complete_units", fleiss),
               value_row("alpha_nominal.intent.all_units", alpha_all),
               value_row("alpha_nominal.intent.complete_units", alpha_complete),
               value_row("alpha_minus_fleiss.intent.complete_units", difference(alpha_complete, fleiss))]
    truth_codes = np.array([LABELS.index(t) for t in truth])
    for coder in CODERS:
        # The document divides by all 240 items: a missing cell counts as not correct.
        accuracy = classification.accuracy_against(ratings.select([coder]).codes[:, 0], truth_codes)
        values.append(value_row(f"accuracy.{coder.lower()}.vs_truth.intent", accuracy,
                                note="correct labels / all items (missing cells count as wrong)"))

    severity = Ratings.from_labels(pd.DataFrame(severity_round(), columns=list(CODERS)), categories=(1, 2, 3))
    ordinal = krippendorff_alpha(severity, "ordinal")
    values += [value_row("alpha_ordinal.severity", ordinal),
               value_row("alpha_nominal.severity", krippendorff_alpha(severity, "nominal"))]

    # Implementation note 1: the reference implementation fed units x coders instead of
    # coders x units. Done deliberately here, against the library itself, to measure it.
    coded = np.where(ratings.codes == MISSING, np.nan, ratings.codes).astype(float)
    transposed = krippendorff.alpha(reliability_data=coded, level_of_measurement="nominal")
    values.append(value_row("alpha_nominal.intent.transposed_input", transposed,
                            note="krippendorff.alpha on units x coders (the wrong orientation)"))
    # Implementation note 2: ordinal marginals counted over every labelled value.
    all_values = alpha_statistic(severity, "ordinal", ordinal_marginals="all").estimate()
    values.append(value_row("alpha_ordinal_shift.severity.all_values_marginals", difference(all_values, ordinal),
                            note="ordinal alpha with marginals over all values minus over pairable values"))

    gap_rows = []
    for n_items in (240, 2400, 24000):
        big = intent_ratings(n_items)[0].complete()
        fleiss_n = multirater.fleiss_kappa(big.unit_counts())
        alpha_n = krippendorff_alpha(big, "nominal")
        row = {"items": n_items, "complete_units": big.n_units, "fleiss": fleiss_n, "alpha": alpha_n,
               "difference": difference(alpha_n, fleiss_n)}
        gap_rows.append(row)
        for field, measure in GAP_KEYS.items():
            values.append(value_row(f"{measure}.n{n_items}", row[field]))
        log.info("gap at %d items: %s", n_items, row)

    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(pair_rows), snakemake.output.pairs,
                "Intent round: pairwise agreement, chance, Cohen's kappa, copy-of-a-coder ceiling", PROVENANCE)
    write_table(pd.DataFrame(gap_rows), snakemake.output.gap,
                "Nominal alpha minus Fleiss' kappa on complete units, as the sample grows", PROVENANCE)
    fixture = ratings.labels().assign(truth=truth)
    fixture.insert(0, "item", range(ratings.n_units))
    write_table(fixture, snakemake.output.fixture, "The regenerated 240-message intent round", PROVENANCE)
