"""The value keys of shvets2026, declared once (``reagree.pipeline.keys``).

Grammar: ``<measure>.<who>.<myth>[.<qualifier>]``. Who: a reader (``human``: human1's
three runs; ``opus``, ``gemini``, ``qwen``: ten runs each), ``models`` (the three
pooled), ``all`` (every reader), or ``triples`` of a model's runs. Qualifiers: a pair of
the human's runs (``run1_run3``), a gap threshold (``human_gap``, ``at_0_25``), a
placement window (``exact``, ``within_1``), ``observed`` / ``expected`` (the authors'
seeded estimate, replayed) / ``expected_exact``, ``min`` / ``max``. Each family below names the rule that writes it and the one function that
computes it.
"""

from reagree.methods import phaseshift, runtriples
from reagree.pipeline import internal
from reagree.pipeline.keys import KeyGrammar
from reagree.stats.undefined import difference, ratio

from shvets2026 import reproduce_checks, segments, streams
from shvets2026.release import MODELS, MYTHS

KEYS = KeyGrammar(
    "shvets2026",
    slots={
        "myth": MYTHS,
        "reader": ["human", *MODELS],
        "model": MODELS,
        "triples_of": [*MODELS, "models"],
        "anchored": ["all", "models", "human", *MODELS],
        "group": ["all", "models"],
        "issue": ["segments_skipped", "line_numbers_read", "segments_outside", "duplicate_ids", "flagged_dates"],
        "mean": [
            "kappa_boundary",
            "kappa_label",
            "gap",
            "agreement_label",
            "chance_label",
            "agreement_boundary",
            "chance_boundary",
        ],
        "pair_measure": ["kappa_label", "kappa_boundary", "gap"],
        "run": r"[0-9]+",
        "window": r"exact|within_[0-9]+",
        "threshold": r"human_gap|at_[-+0-9_e]+",
        "bound": ["min", "max"],
        "lag": ["lag_same_place", "lag_one_step"],
        "seen": ["observed", "expected", "expected_exact"],
        "ratio": ["ratio_one_step_per_same_place", "ratio_same_place", "ratio_one_step"],
        "count": ["pieces", "onsets"],
        "b2": ["b2_observed", "b2_chance", "b2_gap", "b2_chance_exact", "b2_gap_exact"],
        "line": ["line_start", "line_end"],
        "end": ["first", "last"],
        "dated": ["human", "models"],
        "runs_of": ["all", "human", *MODELS],
    },
)

pairs = KEYS.rule("pair_shvets2026_runs")
UNITS = pairs.family("count.units.{myth}", segments.read_units)
DIAGNOSTICS = pairs.family("count.{issue}.{myth}", segments.diagnostics_rows)
READER_MEAN = pairs.family("{mean}.{reader}.{myth}", runtriples.reader_summary)
BOUNDARY_SHARE = pairs.family("share_boundary.{reader}.{myth}", segments.boundary_share)
RUNS = pairs.family("count.runs.{reader}.{myth}", segments.read_run)
COLLECTION_DAYS = pairs.family("count.collection_days.{reader}.{myth}", segments.collection_days)
DOMINANT_LABEL = pairs.family("share_dominant_label.human.{myth}", segments.dominant_label_share)
HUMAN_PAIR = pairs.family("{pair_measure}.human.{myth}.run{a:run}_run{b:run}", runtriples.pair_frame)
HUMAN_PAIR_DAYS = pairs.family("interval_days.human.{myth}.run{a:run}_run{b:run}", segments.interval_days)
PLACEMENT = pairs.family("placement.{reader}.{myth}.{window}", phaseshift.boundary_placement)
PLACEMENT_CHANCE = pairs.family("placement.{reader}.{myth}.chance", phaseshift.boundary_placement)
GAP_DIFFERENCE = pairs.family("gap_difference.human_minus_{model}.{myth}", difference)
GAP_RANK = pairs.family("rank.gap.human.{myth}", runtriples.reader_rank)
AGREEMENT_PER_CHANCE = pairs.family("ratio.agreement_per_chance_label.human.{myth}", ratio)
SEGMENT_LINES = pairs.family("mean_segment_lines.human.{myth}", segments.mean_segment_lines)
SEGMENTS_PER_RUN = pairs.family("mean_segments.{runs_of}.{myth}", segments.mean_segments)
TYPICAL_SEGMENTS = pairs.family("median_segments.all.{myth}", segments.median_segments)
PAIRS = pairs.family("count.pairs.{reader}.{myth}", runtriples.reader_summary)
NUMBERED_LINES = pairs.family("count.numbered_lines.{myth}", segments.numbered_lines)

triples = KEYS.rule("enumerate_shvets2026_triples")
TRIPLES_REACH = triples.family("count.triples_reach.{triples_of}.{myth}.{threshold}", runtriples.threshold_table)
SHARE_REACH = triples.family("share.triples_reach.{model}.{myth}.{threshold}", runtriples.threshold_table)
TRIPLES = triples.family("count.triples.{triples_of}.{myth}", runtriples.triple_frame)
TRIPLE_GAP = triples.family("gap.triples.{model}.{myth}.{bound}", runtriples.triple_frame)
TRIPLE_LABEL_MIN = triples.family("kappa_label.triples.{model}.{myth}.min", runtriples.triple_frame)
FAR_RUNS = triples.family("agreement_label.{model}.{myth}.far_runs", runtriples.far_runs_agreement)
SHARE_REACH_ALL_MYTHS = triples.family(
    "share.triples_reach_all_myths.{model}.{threshold}", runtriples.independent_pass_share
)
LOWEST_TRIPLE_LABEL = triples.family("kappa_label.triples.models.min", runtriples.triple_frame)
LABEL_MARGIN = triples.family("margin.kappa_label.lowest_model_triple_vs_human", runtriples.label_margin)
RUN_DATE = triples.family("date.{end}_run.{reader}.{myth}", segments.date_span)
GROUP_RUN_DATE = triples.family("date.{end}_run.{dated}", segments.date_span)
RUN_FILES = triples.family("count.runs.all.all_myths", runtriples.count_runs)
HUMAN_PAIRS = triples.family("count.pairs.human.all_myths", runtriples.count_pairs)
MYTHS_GAP_LARGEST = triples.family("count.myths.gap_largest.human", runtriples.reader_rank)
AGREEMENT_PER_CHANCE_RANGES = triples.family(
    "ratio.agreement_per_chance_label.human.range_midpoints", runtriples.midpoint_ratio
)

phase = KEYS.rule("compute_shvets2026_phase_shift")
LAG = phase.family("{lag}.human.{myth}.{seen}", phaseshift.phase_shift)
RATIO = phase.family("{ratio}.human.{myth}", phaseshift.phase_shift)
PIECES = phase.family("count.{count}.human.{myth}", phaseshift.phase_shift)
B2_EVENTS = phase.family("count.b2_events.human.{myth}", phaseshift.neighbour_relabels)
B2 = phase.family("{b2}.human.{myth}", phaseshift.neighbour_relabels)
B2_FRAGMENTS = phase.family("count.b2_fragments.human.{myth}", phaseshift.neighbour_relabels)
B2_FAR_EVENTS = phase.family("count.b2_events.human.{myth}.far_from_boundaries", phaseshift.neighbour_relabels)
TRIPLE_RATIO_MAX = phase.family(
    "ratio_one_step_per_same_place.triples.models.{myth}.max", phaseshift.phase_shift_subsets
)
TRIPLE_SAME_PLACE_MIN = phase.family("ratio_same_place.triples.models.{myth}.min", phaseshift.phase_shift_subsets)
TRIPLE_SAME_PLACE_MIN_REPLAYED = phase.family(
    "ratio_same_place.triples.models.{myth}.min_replayed", streams.lowest_same_place_ratio
)

anchoring = KEYS.rule("check_shvets2026_anchoring")
EXAMPLE = anchoring.family("example.seg_v4.{line}", segments.worked_example_segments)
EXAMPLE_QUOTED = anchoring.family("example.seg_v4.quoted_{end}_line", segments.quoted_lines)
ANCHORED_RUNS = anchoring.family("count.anchored_runs.{anchored}.{myth}", segments.anchoring_counts)
ANCHORING_RUNS = anchoring.family("count.runs.{group}.{myth}", segments.anchoring_counts)
ANCHORED = anchoring.family("anchored.human.{myth}.run{run}", segments.opens_with)

checks = KEYS.rule("count_shvets2026_checks")
REPRODUCE_CHECKS = checks.family("count.checks.reproduce_py", reproduce_checks.count_check_lines)

# Printed numbers held against one another (source: internal; the relations are in shvets2026/internal.py).
printed = KEYS.rule("check_shvets2026_printed")
GAP_DIFFERENCE_PRINTED = printed.family("gap_difference.human_minus_{model}.{myth}.from_printed", internal.difference)
ONE_STEP_RATIO_PRINTED = printed.family("ratio_one_step.human.{myth}.from_printed", internal.ratio)
LABEL_MARGIN_PRINTED = printed.family(
    "margin.kappa_label.lowest_model_triple_vs_human.from_printed", internal.difference
)
GAP_RANK_PRINTED = printed.family("rank.gap.human.{myth}.from_printed", internal.rank)
