"""The value keys of agreement_before_accuracy, declared once (``reagree.pipeline.keys``).

Grammar: ``<measure>.<who>.<study>[.<qualifier>]``. Who: a pair of coders (``a_b``,
``a_c``, ``b_c``), one coder, ``coders`` (all three) or a copy of a coder
(``copy_of_a.vs_b``); studies: the intent round (``intent``), the severity round
(``severity``), the alpha-minus-Fleiss gap at n items (``n240`` ...), the prevalence
sweep (``prevalence_sweep.p1`` ...), the counted 2x2 table (``table2x2``) and the
bootstrap width study (``width_study.n50`` ...). Each family below names the rule that
writes it and the one function that computes it.
"""

import krippendorff
import numpy as np

from reagree.pipeline import internal
from reagree.pipeline.keys import KeyGrammar
from reagree.stats import classification, multirater, pairwise, references
from reagree.stats.bootstrap import half_width
from reagree.stats.alpha import alpha_statistic, krippendorff_alpha
from reagree.stats.bootstrap import Interval
from reagree.stats.ratings import Ratings
from reagree.stats.undefined import difference, ratio

from agreement_before_accuracy.fixture import (
    CODERS,
    GAP_SIZES,
    PREVALENCES,
    WIDTH_STUDY_SIZES,
    flip_rate_for_agreement,
    prevalence_tag,
)

KEYS = KeyGrammar(
    "agreement_before_accuracy",
    slots={
        "coder": [coder.lower() for coder in CODERS],
        "pair": ["a_b", "a_c", "b_c"],
        "reading": ["n", "agreement", "disagreement", "chance", "kappa", "pabak", "ac1"],  # pairwise.table_coefficients
        "extreme": ["min", "max"],
        "units": ["all_units", "complete_units"],
        "level": ["nominal", "ordinal"],
        "items": GAP_SIZES,
        "prevalence": [prevalence_tag(p) for p in PREVALENCES],
        "category": ["rare", "common"],
        "n": WIDTH_STUDY_SIZES,
    },
)

fixture = KEYS.rule("compute_agreement_before_accuracy_fixture")
MISSING_CELLS = fixture.family("percent.missing_cells.intent", Ratings.missing_share)
ITEMS = fixture.family("count.items.intent", Ratings.n_units)
ANNOTATORS = fixture.family("count.annotators.intent", Ratings.n_raters)
CELLS = fixture.family("count.cells.intent", Ratings.n_cells)
PAIR_READING = fixture.family("{reading}.{pair}.intent", pairwise.table_coefficients)
COPY_ACCURACY = fixture.family("accuracy.copy_of_{a:coder}.vs_{b:coder}.intent", classification.accuracy)
COMPLETE_UNITS = fixture.family("count.complete_units.intent", Ratings.complete)
FLEISS = fixture.family("fleiss.intent.complete_units", multirater.fleiss_kappa)
ALPHA_INTENT = fixture.family("alpha_nominal.intent.{units}", krippendorff_alpha)
ALPHA_MINUS_FLEISS = fixture.family("alpha_minus_fleiss.intent.complete_units", difference)
ACCURACY_VS_TRUTH = fixture.family("accuracy.{coder}.vs_truth.intent", classification.accuracy_against)
# the most and the least accurate coder's accuracy ("A is the most accurate ... B is the least accurate")
ACCURACY_EXTREME = fixture.family("accuracy.coders.vs_truth.intent.{extreme}", classification.accuracy_against)
ALPHA_SEVERITY = fixture.family("alpha_{level}.severity", krippendorff_alpha)
ALPHA_TRANSPOSED = fixture.family("alpha_nominal.intent.transposed_input", krippendorff.alpha)
ORDINAL_MARGINALS_SHIFT = fixture.family("alpha_ordinal_shift.severity.all_values_marginals", alpha_statistic)
GAP_COMPLETE_UNITS = fixture.family("count.complete_units.intent.n{items}", Ratings.complete)
GAP_FLEISS = fixture.family("fleiss.intent.complete_units.n{items}", multirater.fleiss_kappa)
GAP_ALPHA = fixture.family("alpha_nominal.intent.complete_units.n{items}", krippendorff_alpha)
GAP_DIFFERENCE = fixture.family("alpha_minus_fleiss.intent.complete_units.n{items}", difference)
GAP_RATIO = fixture.family("ratio.alpha_minus_fleiss.intent.complete_units.n{a:items}_per_n{b:items}", ratio)
AGREEMENT_RANGE = fixture.family("agreement.pairs.intent.{extreme}", pairwise.agreement_range)
ALPHA_VS_LIBRARY = fixture.family("max_abs_difference.alpha.vs_krippendorff_library", references.largest_difference)

prevalence = KEYS.rule("compute_agreement_before_accuracy_prevalence_sweep")
FLIP_RATE = prevalence.family("flip_rate.prevalence_sweep", flip_rate_for_agreement)
SWEEP_READING = prevalence.family("{reading}.prevalence_sweep.{prevalence}", pairwise.table_coefficients)
# a reading's lowest and highest value over the sweep ("constant 0.800"; "the same 0.90 agreement")
SWEEP_EXTREME = prevalence.family("{reading}.prevalence_sweep.{extreme}", pairwise.table_coefficients)
# how many different kappas the sweep gives ("five different kappas")
DISTINCT_KAPPAS = prevalence.family("count.distinct_kappas.prevalence_sweep", np.unique)
COUNTED_READING = prevalence.family("{reading}.table2x2", pairwise.table_coefficients)
COUNTED_SPECIFIC = prevalence.family("specific_agreement.table2x2.{category}", pairwise.table_coefficients)

widths = KEYS.rule("compute_agreement_before_accuracy_bootstrap_widths")
WIDTH_STUDY_AGREEMENT = widths.family("agreement.a_b.width_study.n{n}", multirater.percent_agreement)
WIDTH_STUDY_KAPPA = widths.family("kappa.a_b.width_study.n{n}", pairwise.cohen_statistic)
WIDTH_STUDY_ALPHA = widths.family("alpha_nominal.coders.width_study.n{n}", alpha_statistic)
WIDTH_STUDY_KAPPA_WIDTH = widths.family("width.kappa.a_b.width_study.n{n}", Interval.width)
WIDTH_STUDY_ALPHA_WIDTH = widths.family("width.alpha_nominal.coders.width_study.n{n}", Interval.width)
WIDTH_STUDY_KAPPA_HALF_WIDTH = widths.family("half_width.kappa.a_b.width_study.n{n}", half_width)
WIDTH_STUDY_KAPPA_WIDTH_RATIO = widths.family("ratio.width.kappa.a_b.width_study.n{a:n}_per_n{b:n}", ratio)

# The prose's figures held against the tables it reads (source: internal; agreement_before_accuracy/internal.py).
printed = KEYS.rule("check_agreement_before_accuracy_printed")
HALF_WIDTH_PRINTED = printed.family("half_width.kappa.a_b.width_study.n{n}.from_printed", internal.ratio)
