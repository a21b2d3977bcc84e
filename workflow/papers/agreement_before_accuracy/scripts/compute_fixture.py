"""Rule compute_agreement_before_accuracy_fixture: the first block of "Agreement Before
Accuracy".

The 240-message intent round (coders A, B, C, 7% cells missing), the severity round, and
the alpha-minus-Fleiss gap at 240 / 2,400 / 24,000 items and its shrinking ratio; the
lowest and highest pairwise agreement; the largest difference between these alphas and
the ``krippendorff`` package's (the document's "equal to twelve decimal places").
Composition only.
"""
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd

from reagree.stats import classification, multirater, pairwise
from reagree.stats.alpha import alpha_statistic, krippendorff_alpha
from reagree.stats.references import krippendorff_reference, largest_difference
from reagree.stats.ratings import MISSING, Ratings
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table, write_values
from reagree.stats.undefined import difference, ratio

from agreement_before_accuracy import keys
from agreement_before_accuracy.fixture import CODERS, GAP_SIZES, LABELS, intent_round, severity_round

# the gap table's columns and the key families they are written under
GAP_KEYS = {"complete_units": keys.GAP_COMPLETE_UNITS, "fleiss": keys.GAP_FLEISS, "alpha": keys.GAP_ALPHA,
            "difference": keys.GAP_DIFFERENCE}
PROVENANCE = {"paper": "agreement_before_accuracy",
              "source": "regenerated from the document's generator (random.Random seeds 7 and 11)"}


def intent_ratings(n_items=240):
    units, truth = intent_round(n_items=n_items)
    return Ratings.from_labels(pd.DataFrame(units, columns=list(CODERS)), categories=LABELS), truth


with rule_log(snakemake) as log:
    values = []
    ratings, truth = intent_ratings()
    values.append(keys.MISSING_CELLS.row(100 * ratings.missing_share()))

    pair_rows = []
    for a, b in combinations(CODERS, 2):
        table = pairwise.contingency_table(ratings, a, b)
        reading = pairwise.table_coefficients(table)
        pair = f"{a.lower()}_{b.lower()}"
        for field in ("n", "agreement", "disagreement", "chance", "kappa"):
            values.append(keys.PAIR_READING.row(reading[field], reading=field, pair=pair))
        # A model that copies coder a exactly, scored against coder b on the items both labelled.
        copy = ratings.select([b]).with_column("copy", ratings.select([a]).codes[:, 0])
        ceiling = classification.accuracy(pairwise.contingency_table(copy, "copy", b))
        values.append(keys.COPY_ACCURACY.row(ceiling, a=a.lower(), b=b.lower()))
        pair_rows.append({"pair": f"{a}-{b}", **{f: reading[f] for f in ("n", "agreement", "chance", "kappa")},
                          "copy_scored": ceiling})

    values += [keys.AGREEMENT_RANGE.row(value, extreme=extreme) for extreme, value in
               zip(("min", "max"), pairwise.agreement_range(ratings, CODERS))]

    complete = ratings.complete()
    fleiss = multirater.fleiss_kappa(complete.unit_counts())
    alpha_all = krippendorff_alpha(ratings, "nominal")
    alpha_complete = krippendorff_alpha(complete, "nominal")
    values += [keys.COMPLETE_UNITS.row(complete.n_units),
               keys.FLEISS.row(fleiss),
               keys.ALPHA_INTENT.row(alpha_all, units="all_units"),
               keys.ALPHA_INTENT.row(alpha_complete, units="complete_units"),
               keys.ALPHA_MINUS_FLEISS.row(difference(alpha_complete, fleiss))]
    truth_codes = np.array([LABELS.index(t) for t in truth])
    for coder in CODERS:
        # The document divides by all 240 items: a missing cell counts as not correct.
        accuracy = classification.accuracy_against(ratings.select([coder]).codes[:, 0], truth_codes)
        values.append(keys.ACCURACY_VS_TRUTH.row(accuracy, coder=coder.lower(),
                                                 note="correct labels / all items (missing cells count as wrong)"))

    severity = Ratings.from_labels(pd.DataFrame(severity_round(), columns=list(CODERS)), categories=(1, 2, 3))
    ordinal = krippendorff_alpha(severity, "ordinal")
    values += [keys.ALPHA_SEVERITY.row(ordinal, level="ordinal"),
               keys.ALPHA_SEVERITY.row(krippendorff_alpha(severity, "nominal"), level="nominal")]
    # the document's alphas beside the krippendorff package's, on the same ratings
    checked = [(alpha_all, ratings, "nominal"), (alpha_complete, complete, "nominal"), (ordinal, severity, "ordinal"),
               (krippendorff_alpha(severity, "nominal"), severity, "nominal")]

    # Implementation note 1: the reference implementation fed units x coders instead of
    # coders x units. Done deliberately here, against the library itself, to measure it.
    coded = np.where(ratings.codes == MISSING, np.nan, ratings.codes).astype(float)
    transposed = krippendorff.alpha(reliability_data=coded, level_of_measurement="nominal")
    values.append(keys.ALPHA_TRANSPOSED.row(transposed,
                                            note="krippendorff.alpha on units x coders (the wrong orientation)"))
    # Implementation note 2: ordinal marginals counted over every labelled value.
    all_values = alpha_statistic(severity, "ordinal", ordinal_marginals="all").estimate()
    values.append(keys.ORDINAL_MARGINALS_SHIFT.row(
        difference(all_values, ordinal), note="ordinal alpha with marginals over all values minus over pairable values"))

    gap_rows = []
    for n_items in GAP_SIZES:
        big = intent_ratings(n_items)[0].complete()
        fleiss_n = multirater.fleiss_kappa(big.unit_counts())
        alpha_n = krippendorff_alpha(big, "nominal")
        row = {"items": n_items, "complete_units": big.n_units, "fleiss": fleiss_n, "alpha": alpha_n,
               "difference": difference(alpha_n, fleiss_n)}
        gap_rows.append(row)
        checked.append((alpha_n, big, "nominal"))
        for field, family in GAP_KEYS.items():
            values.append(family.row(row[field], items=n_items))
        log.info("gap at %d items: %s", n_items, row)
    values += [keys.GAP_RATIO.row(ratio(fewer["difference"], more["difference"]), a=fewer["items"], b=more["items"],
                                  note="the gap shrinks by this factor as the sample grows tenfold")
               for fewer, more in zip(gap_rows, gap_rows[1:])]
    values.append(keys.ALPHA_VS_LIBRARY.row(
        largest_difference((value, krippendorff_reference(data, level)) for value, data, level in checked),
        note=f"over the {len(checked)} alphas of block 1 and the gap table, against krippendorff.alpha"))

    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(pair_rows), snakemake.output.pairs,
                "Intent round: pairwise agreement, chance, Cohen's kappa, copy-of-a-coder ceiling", PROVENANCE)
    write_table(pd.DataFrame(gap_rows), snakemake.output.gap,
                "Nominal alpha minus Fleiss' kappa on complete units, as the sample grows", PROVENANCE)
    fixture = ratings.labels().assign(truth=truth)
    fixture.insert(0, "item", range(ratings.n_units))
    write_table(fixture, snakemake.output.fixture, "The regenerated 240-message intent round", PROVENANCE)
