"""Audit one annotation table: every agreement reading a labelling team needs, in one dict.

What it decides:

- **The table.** Long (one row per rating: unit, rater, label columns, names
  changeable) or wide (one row per unit: a unit column and one column per rater; an empty
  cell is a missing rating), read by ``reagree.io.annotations`` (CSV or TSV by extension or
  sniffed; ids and labels stripped of surrounding whitespace; errors name the file, the
  line and, for a missing column, the columns found). A wide table may name a *majority
  column*: a label per unit chosen earlier by someone else, audited against the votes.
- **Units and ratings.** A unit takes part when at least one rater labelled it; a wide
  row nobody labelled is counted (``units_without_rating``) and left out. A rater who
  labelled a unit more than once counts with one label chosen by ``repeats``: the first
  (file order, the default), the last, or none where the labels differ ("drop"); the
  labels left out are counted (``repeats_ignored``) and a note names the rule applied and
  the others. The file is read in ``encoding`` (UTF-8 by default); a file that is not
  says so and names the option. ``missing_share`` is the share of empty cells in the
  units x raters table of the units that take part.
- **Category order.** ``order`` when given (every label must be in it); else, when every
  label is a number, numerical order; else sorted text, which is no order at all: the
  ordinal level then needs ``order``.
- **Levels.** Nominal alpha always. Ordinal when the labels are ordered (``order`` or
  numbers). Interval, and ratio when no number is negative, when the labels are numbers.
  Ordered labels that are not numbers get interval (or ratio) only when asked for by
  ``level``, with the positions 1..K standing in for numbers (said in ``notes``).
- **Design.** Fixed raters (a panel: a column or rater id is one person on every unit)
  or interchangeable ones (each unit's raters drawn from a pool, Fleiss' 1971 design):
  given by ``design``, else inferred from the filled share of the units x raters cells
  (``reagree.audit.people``); the text says which and how to override it.
- **Coefficients**, each declared once in ``reagree.stats.registry`` (its function,
  analytic variance, reference library and label; nothing is recomputed here): percent
  agreement over pairable units; Fleiss' kappa over the complete units (a fixed panel's
  units every rater labelled; interchangeable raters' units with the most ratings), at
  least ``MIN_COMPLETE_UNITS`` of them, with each category's kappa beside it; Fleiss'
  kappa in Gwet's form over every unit; Krippendorff's alpha over every unit at each
  level that applies; Gwet's AC1; PABAK in its K-category form (Brennan-Prediger, chance
  1/K; 2 P_o - 1 when K = 2); Conger's kappa (fixed raters); specific agreement per
  category over pairable units; for fixed raters, Cohen's kappa per pair of raters on the
  units both labelled, and their mean over pairs (Light's kappa); beyond 20 raters the
  pairs get values without intervals and are summarised, beyond 50,000 pairs they are not
  computed (``reagree.audit.compute``'s module docstring). "A model that copies rater A
  scores this against rater B" is A's accuracy against B on the units both labelled: the
  ceiling to quote with that pair. Ordered labels add Gwet's weighted family (``weights``:
  linear and quadratic by default) and weighted Cohen per pair; numbers add ICC(2,1) and
  ICC(3,1) for a fixed panel.
- **Analytic inference** beside every bootstrap interval where the field has one: Gwet's
  linearised standard error (t on n - 1 degrees of freedom), Fleiss' standard error under
  kappa = 0 (overall and per category), Cohen's Fleiss-Cohen-Everitt standard errors per
  pair; z, p and the Wald interval (``reagree.stats.inference``). On tables up to
  ``reagree.stats.registry.REFERENCE_MAX_CELLS`` cells the field library's own value
  (irrCAC, statsmodels, krippendorff) is written beside reagree's.
- **Per rater, per item, per category pair** (``reagree.audit.people``): each rater's
  agreement with the rest and with the others' majority, label bias, and the change in
  alpha and in Fleiss' kappa (Gwet's form) without the rater, with bootstrap intervals,
  the rater who lowers agreement most first; the disputed items ranked (items.csv, with
  an empty ``adjudicated_label`` column); the pooled category confusions.
- **Undefined** values are ``None`` in the dict (JSON ``null``), with the reason under
  ``undefined`` keyed by the value's path; ``problems`` says in words what makes the
  table degenerate (one rater, one category, no unit with two ratings).
- **Majority vote and ties.** A unit ties when two or more categories share its top
  vote count; the tie rule (``reagree.stats.majority``: ``drop``, ``random`` with the seed,
  ``prefer:<label>``, ``neutral``, ``polar``) decides its majority label. The audit
  lists every tied unit with its votes, the rule's label and the majority column's.
- **Intervals.** Units resampled with replacement (``reagree.stats.bootstrap``: draws depend
  only on the number of units, the seed and the draws; every coefficient sees the same
  resamples), one ``Interval`` per value, ends by the percentile scheme (order
  statistics) unless ``ci_scheme="numpy"`` asks for numpy.percentile's. A resample without a complete
  unit leaves Fleiss undefined on that draw; such draws are counted, never silently
  dropped from the count.
- **Reading.** Krippendorff's convention for alpha, stated as a convention: >= 0.800
  reliable, 0.667 to 0.800 for tentative conclusions, below 0.667 discard.

Krippendorff, K. (2019). Content Analysis, 4th ed., ch. 12 (the convention); the
coefficients' own sources are in their docstrings.

Modules, one job each (imports point down this list, never up):

- ``read``: the table (``read_table``, ``AuditTable``); errors name file, line, column.
- ``people``: the design, per rater, per item, category confusions.
- ``compute``: levels, coefficients, intervals, ties, the reading (``audit``, ``audit_file``).
- ``render``: JSON, terminal text, coefficient rows, tables, provenance (pure functions).
- ``keys``: the audit as values.tsv rows under declared key families (``value_rows``).
- ``figure``: coefficients.png, raters.png, pairs.png, confusion.png from a result.
- ``write``: every file of ``--out`` (``write_outputs``), atomically.
"""

from reagree.audit.compute import (
    MAX_PAIRS_WITH_INTERVALS,
    RELIABLE,
    TENTATIVE,
    applicable_levels,
    audit,
    audit_file,
    reading,
)
from reagree.audit.keys import value_rows
from reagree.audit.read import LAYOUTS, AuditTable, read_table
from reagree.audit.render import coefficient_rows, provenance, render_screen, render_text, result_tables, to_json
from reagree.audit.write import write_outputs

# The audit's public API, re-exported from the modules above.
__all__ = [
    "LAYOUTS",
    "MAX_PAIRS_WITH_INTERVALS",
    "RELIABLE",
    "TENTATIVE",
    "AuditTable",
    "applicable_levels",
    "audit",
    "audit_file",
    "coefficient_rows",
    "provenance",
    "read_table",
    "reading",
    "render_screen",
    "render_text",
    "result_tables",
    "to_json",
    "value_rows",
    "write_outputs",
]
