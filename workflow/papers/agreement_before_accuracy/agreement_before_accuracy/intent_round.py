"""The first block of "Agreement Before Accuracy", recomputed (rule
compute_agreement_before_accuracy_fixture: ``compute_fixture``).

The 240-message intent round (coders A, B, C, 7% cells missing; the most and the least
accurate coder against the latent truth), the severity round, and
the alpha-minus-Fleiss gap at 240 / 2,400 / 24,000 items and its shrinking ratio; the
lowest and highest pairwise agreement; the largest difference between these alphas and
the ``krippendorff`` package's (the document's "equal to twelve decimal places"). Every
kappa and alpha carries the field library's value beside it (reference); the variants that
agreement_before_accuracy/variants.py declares for these keys are returned for the claims
diff. The statistics are reagree's; this module composes them.
"""

from __future__ import annotations

import logging
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.pipeline.variantplan import variant_rows
from reagree.stats import classification, multirater, pairwise, variants
from reagree.stats.alpha import alpha_statistic, krippendorff_alpha
from reagree.stats.ratings import MISSING, Ratings
from reagree.stats.references import cohen_reference, fleiss_reference, krippendorff_reference, largest_difference
from reagree.stats.undefined import difference, ratio

from agreement_before_accuracy import keys
from agreement_before_accuracy.fixture import CODERS, GAP_SIZES, LABELS, intent_round, severity_round
from agreement_before_accuracy.variants import PLAN

# the gap table's columns and the key families they are written under
GAP_KEYS = {
    "complete_units": keys.GAP_COMPLETE_UNITS,
    "fleiss": keys.GAP_FLEISS,
    "alpha": keys.GAP_ALPHA,
    "difference": keys.GAP_DIFFERENCE,
}
PROVENANCE = {
    "paper": "agreement_before_accuracy",
    "source": "regenerated from the document's generator (random.Random seeds 7 and 11)",
}


def fleiss_of(ratings: Ratings) -> float:
    """Fleiss' kappa of the ratings' per-unit counts (``multirater.fleiss_kappa``)."""
    return multirater.fleiss_kappa(ratings.unit_counts())


def alpha_of(ratings: Ratings) -> float:
    """Nominal Krippendorff's alpha of the ratings (``alpha.krippendorff_alpha``)."""
    return krippendorff_alpha(ratings, "nominal")


def alpha_minus_fleiss(ratings: Ratings) -> float:
    """Nominal alpha minus Fleiss' kappa on the same ratings: the gap the document tracks."""
    return difference(alpha_of(ratings), fleiss_of(ratings))


def fixture_variants(key: str, data: Ratings) -> list[dict]:
    """variants.tsv rows of every family declared for ``key`` (the intent round's keys:
    ``data`` the ratings behind the key, every unit; the severity round's: its ratings)."""
    # the coefficient of each intent key family, and which missing-ratings reading is reagree's
    missing = {
        keys.FLEISS: (fleiss_of, "missing.listwise"),
        keys.GAP_FLEISS: (fleiss_of, "missing.listwise"),
        keys.ALPHA_INTENT: (alpha_of, None),
        keys.GAP_ALPHA: (alpha_of, "missing.listwise"),
        keys.ALPHA_TRANSPOSED: (alpha_of, None),
        keys.ALPHA_MINUS_FLEISS: (alpha_minus_fleiss, "missing.listwise"),
        keys.GAP_DIFFERENCE: (alpha_minus_fleiss, "missing.listwise"),
        keys.COMPLETE_UNITS: (variants.pairable_units, "missing.listwise"),
        keys.GAP_COMPLETE_UNITS: (variants.pairable_units, "missing.listwise"),
    }
    family, fields = keys.KEYS.fields(key)
    rows = []
    for name in PLAN.families_for(key):
        if name == "missing_ratings":
            coefficient, own = missing[family]
            if family is keys.ALPHA_INTENT:
                own = "missing.pairwise" if fields["units"] == "all_units" else "missing.listwise"
            rows += variant_rows(key, name, variants.missing_ratings(data, coefficient), own=own)
        elif name == "chance_model":
            rated = data.complete() if family in (keys.FLEISS, keys.GAP_FLEISS) else data
            own = "kappa.fleiss" if family in (keys.FLEISS, keys.GAP_FLEISS) else "kappa.cohen"
            rows += variant_rows(key, name, variants.chance_models(rated), own=own)
        elif name == "alpha_distance":
            rows += variant_rows(key, name, variants.alpha_distances(data), own=f"alpha.{fields['level']}")
        elif name == "percentage_base":
            found = variants.percentage_bases(data.missing_count(), all_cells=data.codes.size, items=data.n_units)
            rows += variant_rows(key, name, found, own="base.all_cells")
    return rows


def intent_ratings(n_items: int = 240) -> tuple[Ratings, list]:
    """The intent round of ``n_items`` messages (the document's generator, seed 7) as
    ratings of coders A, B, C, and the true label of each message."""
    units, truth = intent_round(n_items=n_items)
    return Ratings.from_labels(pd.DataFrame(units, columns=list(CODERS)), categories=LABELS), truth


def compute_fixture(log: logging.Logger | None = None) -> RuleOutputs:
    """Block 1's values and variants, and its tables: ``pairs`` (the intent round's coder
    pairs), ``gap`` (alpha minus Fleiss' kappa as the sample grows) and ``fixture`` (the
    regenerated round)."""
    log = log or logging.getLogger(__name__)
    values, found = [], []
    ratings, truth = intent_ratings()
    values.append(keys.MISSING_CELLS.row(100 * ratings.missing_share()))
    # the output's header line: items, annotators, cells
    values += [keys.ITEMS.row(ratings.n_units), keys.ANNOTATORS.row(ratings.n_raters), keys.CELLS.row(ratings.n_cells)]
    found += fixture_variants(keys.MISSING_CELLS.key(), ratings)

    pair_rows = []
    for a, b in combinations(CODERS, 2):
        table = pairwise.contingency_table(ratings, a, b)
        reading = pairwise.table_coefficients(table)
        pair = f"{a.lower()}_{b.lower()}"
        for field in ("n", "agreement", "disagreement", "chance", "kappa"):
            reference = cohen_reference(ratings, raters=(a, b)) if field == "kappa" else None
            values.append(keys.PAIR_READING.row(reading[field], reading=field, pair=pair, reference=reference))
        found += fixture_variants(keys.PAIR_READING.key(reading="kappa", pair=pair), ratings.select([a, b]))
        # A model that copies coder a exactly, scored against coder b on the items both labelled.
        copy = ratings.select([b]).with_column("copy", ratings.select([a]).codes[:, 0])
        ceiling = classification.accuracy(pairwise.contingency_table(copy, "copy", b))
        values.append(keys.COPY_ACCURACY.row(ceiling, a=a.lower(), b=b.lower()))
        pair_rows.append(
            {
                "pair": f"{a}-{b}",
                **{f: reading[f] for f in ("n", "agreement", "chance", "kappa")},
                "copy_scored": ceiling,
            }
        )

    values += [
        keys.AGREEMENT_RANGE.row(value, extreme=extreme)
        for extreme, value in zip(("min", "max"), pairwise.agreement_range(ratings, CODERS))
    ]

    complete = ratings.complete()
    fleiss = multirater.fleiss_kappa(complete.unit_counts())
    alpha_all = krippendorff_alpha(ratings, "nominal")
    alpha_complete = krippendorff_alpha(complete, "nominal")
    values += [
        keys.COMPLETE_UNITS.row(complete.n_units),
        keys.FLEISS.row(fleiss, reference=fleiss_reference(complete.unit_counts())),
        keys.ALPHA_INTENT.row(alpha_all, units="all_units", reference=krippendorff_reference(ratings, "nominal")),
        keys.ALPHA_INTENT.row(
            alpha_complete, units="complete_units", reference=krippendorff_reference(complete, "nominal")
        ),
        keys.ALPHA_MINUS_FLEISS.row(difference(alpha_complete, fleiss)),
    ]
    for key in (
        keys.COMPLETE_UNITS.key(),
        keys.FLEISS.key(),
        keys.ALPHA_INTENT.key(units="all_units"),
        keys.ALPHA_INTENT.key(units="complete_units"),
        keys.ALPHA_MINUS_FLEISS.key(),
        keys.ALPHA_TRANSPOSED.key(),
    ):
        found += fixture_variants(key, ratings)
    truth_codes = np.array([LABELS.index(t) for t in truth])
    accuracies = []
    for coder in CODERS:
        # The document divides by all 240 items: a missing cell counts as not correct.
        accuracy = classification.accuracy_against(ratings.select([coder]).codes[:, 0], truth_codes)
        accuracies.append(accuracy)
        values.append(
            keys.ACCURACY_VS_TRUTH.row(
                accuracy, coder=coder.lower(), note="correct labels / all items (missing cells count as wrong)"
            )
        )
    values += [
        keys.ACCURACY_EXTREME.row(
            pick(accuracies), extreme=extreme, note=f"of {', '.join(CODERS)}: {CODERS[int(which(accuracies))]}"
        )
        for extreme, pick, which in (("min", np.min, np.argmin), ("max", np.max, np.argmax))
    ]

    severity = Ratings.from_labels(pd.DataFrame(severity_round(), columns=list(CODERS)), categories=(1, 2, 3))
    ordinal = krippendorff_alpha(severity, "ordinal")
    values += [
        keys.ALPHA_SEVERITY.row(ordinal, level="ordinal", reference=krippendorff_reference(severity, "ordinal")),
        keys.ALPHA_SEVERITY.row(
            krippendorff_alpha(severity, "nominal"),
            level="nominal",
            reference=krippendorff_reference(severity, "nominal"),
        ),
    ]
    for level in ("ordinal", "nominal"):
        found += fixture_variants(keys.ALPHA_SEVERITY.key(level=level), severity)
    # the document's alphas beside the krippendorff package's, on the same ratings
    checked = [
        (alpha_all, ratings, "nominal"),
        (alpha_complete, complete, "nominal"),
        (ordinal, severity, "ordinal"),
        (krippendorff_alpha(severity, "nominal"), severity, "nominal"),
    ]

    # Implementation note 1: the reference implementation fed units x coders instead of
    # coders x units. Done deliberately here, against the library itself, to measure it.
    coded = np.where(ratings.codes == MISSING, np.nan, ratings.codes).astype(float)
    transposed = krippendorff.alpha(reliability_data=coded, level_of_measurement="nominal")
    values.append(
        keys.ALPHA_TRANSPOSED.row(transposed, note="krippendorff.alpha on units x coders (the wrong orientation)")
    )
    # Implementation note 2: ordinal marginals counted over every labelled value.
    all_values = alpha_statistic(severity, "ordinal", ordinal_marginals="all").estimate()
    values.append(
        keys.ORDINAL_MARGINALS_SHIFT.row(
            difference(all_values, ordinal),
            note="ordinal alpha with marginals over all values minus over pairable values",
        )
    )

    gap_rows = []
    for n_items in GAP_SIZES:
        every = intent_ratings(n_items)[0]
        big = every.complete()
        fleiss_n = multirater.fleiss_kappa(big.unit_counts())
        alpha_n = krippendorff_alpha(big, "nominal")
        row = {
            "items": n_items,
            "complete_units": big.n_units,
            "fleiss": fleiss_n,
            "alpha": alpha_n,
            "difference": difference(alpha_n, fleiss_n),
        }
        gap_rows.append(row)
        checked.append((alpha_n, big, "nominal"))
        references = {"fleiss": fleiss_reference(big.unit_counts()), "alpha": krippendorff_reference(big, "nominal")}
        for field, family in GAP_KEYS.items():
            values.append(family.row(row[field], items=n_items, reference=references.get(field)))
            found += fixture_variants(family.key(items=n_items), every)
        log.info("gap at %d items: %s", n_items, row)
    values += [
        keys.GAP_RATIO.row(
            ratio(fewer["difference"], more["difference"]),
            a=fewer["items"],
            b=more["items"],
            note="the gap shrinks by this factor as the sample grows tenfold",
        )
        for fewer, more in zip(gap_rows, gap_rows[1:])
    ]
    values.append(
        keys.ALPHA_VS_LIBRARY.row(
            largest_difference((value, krippendorff_reference(data, level)) for value, data, level in checked),
            note=f"over the {len(checked)} alphas of block 1 and the gap table, against krippendorff.alpha",
        )
    )

    fixture = ratings.labels().assign(truth=truth)
    fixture.insert(0, "item", range(ratings.n_units))
    return RuleOutputs(
        values=values,
        variants=found,
        tables={
            "pairs": Table(
                pd.DataFrame(pair_rows),
                "Intent round: pairwise agreement, chance, Cohen's kappa, copy-of-a-coder ceiling",
                PROVENANCE,
            ),
            "gap": Table(
                pd.DataFrame(gap_rows),
                "Nominal alpha minus Fleiss' kappa on complete units, as the sample grows",
                PROVENANCE,
            ),
            "fixture": Table(fixture, "The regenerated 240-message intent round", PROVENANCE),
        },
    )
