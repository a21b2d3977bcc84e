"""``reagree new-paper ID``: a new paper folder in the one pattern every paper follows.

What it decides: a new paper is ``workflow/papers/<id>/`` with every part a paper has
(tests/papers/test_paper_pattern.py holds them equal), each with one working example:

    paper.yaml             metadata and sources (none yet); claim_tables: [claims/paper.tsv]
    settings.schema.yaml   the paper's settings (none yet)
    claims/paper.tsv       the claims header, no claim yet (examples in its comments)
    rules.smk              compute_<id>_values (values, variants, tables) and plot_<id>_agreement
                           (the figure), registered with the paper registry
    report/agreement.rst   the figure's caption (report/pairwise.rst: the pairs' table, fixed raters)
    scripts/compute_values.py, scripts/plot_agreement.py   the rules' thin scripts
    <id>/agreement.py      what compute_<id>_values computes (compute_values: values, variants, tables)
    <id>/__init__.py       PAPER = Paper(keys=KEYS, variants=PLAN, relations=RELATIONS), the
                           one object the pipeline reads (``reagree.pipeline.paper``)
    <id>/release.py        the reader: raters, labels in order, numbers for interval/ratio alpha
    <id>/keys.py           the keys (KEYS); a label enters a key through ``keys.key_part``
    <id>/variants.py       PLAN: one variant family (the chance model of the kappas)
    <id>/internal.py       RELATIONS: one printed number against others (a label's percentage
                           against its printed count and total); its check rule is the
                           pipeline's, written for every paper with relations, never here
    <id>/plots.py          the figure: the coefficients with their intervals

With ``--document FILE`` (the paper's text, UTF-8 text or Markdown) the paper starts from
its document: paper.yaml declares it under ``documents:`` (a local ``path:``, pinned on
first use), ``ledger.tsv`` lists every number it prints (``reagree.pipeline.scan``) as
``unreviewed``, and ``draft_claims.tsv`` (beside it, not read by the build) holds a draft
claim for each number whose kind looks like a result (``scan.RESULT_KINDS``): its printed
text as ``published``, its place and words as ``where``, its kind in ``note``, the
approximate word printed right before it (``approximate``: "about 20,000", "roughly a
factor of ten", read by the one rule of ``reagree.pipeline.verdicts``), and no key yet.
The first build lists what is left to review (``reagree.pipeline.ledger``).

As written it reads a tab-separated table with one row per unit and one column per
rater (``r1``, ``r2``; labels ``x``, ``y``) and computes percent agreement, Fleiss'
kappa (units every rater labelled) and Krippendorff's alpha at the levels release.py
names (nominal; ordinal, interval and ratio once the labels' order and numbers are
declared), each with bootstrap intervals, and each label's count. ``raters`` says who
labelled: ``fixed`` (the default: the reader reads one column per named rater, which is
that design) adds every pair's Cohen's kappa and its table; ``interchangeable`` (any
rater may stand behind a column on any unit, Fleiss' 1971 design) writes none, since a
column is then not a person. No count of a wide table can tell the two apart (the audit
says the same, ``reagree.audit.people``), so it is chosen, not inferred.
So a paper whose release has that shape builds once its source and claims are filled in.
Nothing outside the folder is touched: the paper is built only once its id is added to
``papers:`` in config.yaml. An existing folder is never overwritten, and an id that is a
top-level key of config.yaml (``mirror``, ``papers``, ...: ``reserved_ids``) is refused,
since the paper's settings would be that key.
docs/adding-a-paper.md walks through filling the files in.
"""

from __future__ import annotations

import re
from pathlib import Path

from reagree.files import write_atomic
from reagree.pipeline.paperspec import CLAIM_HEADER
from reagree.pipeline.settings import load_schema, schema_path
from reagree.pipeline.verdicts import APPROXIMATE_WORDS

__all__ = [
    "AGREEMENT",
    "AGREEMENT_CAPTION",
    "CLAIMS",
    "DRAFT_CLAIMS",
    "FIXED_WORDS",
    "ID_PATTERN",
    "INTERCHANGEABLE_WORDS",
    "INTERNAL",
    "KEYS",
    "LEDGER_COMMENT",
    "PACKAGE_INIT",
    "PAIRWISE_BLOCK",
    "PAIRWISE_CAPTION",
    "PAIRWISE_OUTPUTS",
    "PAIR_FAMILY",
    "PAPER_YAML",
    "PLOTS",
    "PLOT_SCRIPT",
    "RATER_DESIGNS",
    "RELEASE",
    "RULES_SMK",
    "SCRIPT",
    "SETTINGS_SCHEMA",
    "VARIANTS",
    "approximate_word",
    "next_steps",
    "paper_folder",
    "reserved_ids",
    "scaffold_paper",
]

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

PAPER_YAML = """\
# workflow/papers/{id}/paper.yaml: the paper, and where its released data is. Checked
# against workflow/schemas/paper.schema.yaml. Nothing is built until "{id}" is in
# `papers:` in config.yaml. Walk-through: docs/adding-a-paper.md.
id: {id}
title: "{title}"
cite: "{cite}"

# Sources: every file the rules read; each lands at data/{id}/<name>. Pin the URL to a
# commit or a release, never a branch, and give the sha256 of the bytes (`reagree fetch
# URL /tmp/file` prints it). With `mirror:` set, the file is copied from
# <mirror>/HOST/PATH instead of downloaded. Data that is not online (unpublished, your
# own) is a `path:` instead of a `url:`: a file on this machine (absolute, ~/..., or
# relative to the checkout), copied and checked the same way; without a sha256 it is
# pinned on first use.
sources: []
#  - name: labels.tsv
#    url: https://raw.githubusercontent.com/OWNER/REPO/COMMIT/path/labels.tsv
#    sha256: 0123...cdef            # 64 hex digits
#    licence: CC BY 4.0
#  - name: our_labels.tsv
#    path: ~/annotations/our_labels.tsv

# The numbers the paper prints, one claim table per part of the paper (claims/*.tsv, in
# the order claims.tsv lists them).
claim_tables:
  - claims/paper.tsv

# Documents: the paper's text (UTF-8 text or Markdown; convert a PDF first, see
# docs/adding-a-paper.md), fetched like a source into data/{id}/documents/<name>. The
# ledger (ledger.tsv) accounts for every number it prints: `reagree new-paper ID
# --document FILE` writes both.
{documents}
"""

DRAFT_CLAIMS = """\
# Draft claims of {id}: a row for each number of {document} that looks like a result
# (reagree scan's kind in the note; an approximate word printed before it in approximate).
# Not read by the build. For each: give it the key of the value that should reproduce it
# (or an uncheckable reason: data never released; or a not_recomputed reason: data released,
# method not reimplemented; a printed bound is a compare, a number checked against other
# printed numbers is source internal: docs/claims.md), move the row to claims/paper.tsv,
# and mark its row of ledger.tsv claimed with that key (one row names every claim of that
# printed number: its figure); dismiss the numbers that are not results (reasons:
# reagree.pipeline.ledger.REASONS).
{header}
{rows}"""

LEDGER_COMMENT = """\
The ledger of {id}: every number its documents print, one row each, as `reagree scan`
finds it (line, column, printed text). status: claimed (claims: the keys, joined by ;),
dismissed (with a reason) or unreviewed. Reasons:
{reasons}.
A region row (line FIRST-LAST, no column,
no printed text) dismisses every number on its lines without a row of its own; a row of
kind words locates a claim printed in words. Built with --config strict_ledger=true, an
unreviewed row fails the build. reagree.pipeline.ledger says the rest."""

SETTINGS_SCHEMA = """\
# Settings of the {id} paper: config["{id}"], validated by the Snakefile against this
# schema, with the defaults below filled in. None yet; add a property (with a default)
# for anything a user may choose, and read it in rules.smk from the PaperBuild's settings.
$schema: "https://json-schema.org/draft/2020-12/schema"
description: "{id}: no settings yet"
type: object
additionalProperties: false
properties: {{}}
"""

CLAIMS = """\
# Claims of {id}: one row per number the paper prints, as printed (its precision is the
# default tolerance: 0.43 matches within 0.005). Tab-separated; an empty cell is an
# absent field; lines starting with # are comments. The key is a row of
# results/{id}/values.tsv, declared in {id}/keys.py (a label in a key is its key_part:
# "very low" is very_low). Examples (tabs shown as |):
#   fleiss.raters ||Table 2|paper|0.43|||||||
#   alpha_ordinal.raters ||Table 2|paper|0.815|||||||
#   {pair_example}
#   kappa.model.vs_raters ||Table 3|paper|0.48|||||the model's labels were never released|| (uncheckable)
#   p.permutation.r1_r2 ||Table 3|paper|0.03||||||the authors' seeded permutation test (their perm_test.py)|
#     (not recomputed: the data are released, reagree does not reimplement the method)
# A number derived from other printed numbers is held against them ({id}/internal.py):
#   count.labels.x ||Table 1|paper|3|||||||
#   count.labels.raters ||Table 1|paper|8|||||||
#   percent.labels.x.from_printed ||Table 1: x, % of labels|internal|37.5||||||| (consistent: 3 of 8)
{header}
"""

RULES_SMK = """\
# {id}: {title}
# compute_{id}_values computes the values (and their variants) from the released labels,
# plot_{id}_agreement draws its figure; the generic rules gather the values into
# results/{id}/values.tsv and diff them against claims/*.tsv, and, since its PAPER declares
# relations ({id}/internal.py), hold the printed numbers against each other (a generic rule
# the pipeline makes for every paper with relations). A rule is named <verb>_{id}_<noun> and runs
# scripts/<verb>_<noun>.py. This file is a Snakemake module of its own (its globals are its
# own); each rule's outputs are registered after it, read from the rule, so every path is
# written once.
from reagree.pipeline.paper_registry import registry

BUILD = registry().paper("{id}")
RESULTS = BUILD.results


rule compute_{id}_values:
    input:
        labels=BUILD.data_path("labels.tsv"),  # TODO: the source's name in paper.yaml
    output:
        values=f"{{RESULTS}}/values/agreement.tsv",
        variants=f"{{RESULTS}}/variants/agreement.tsv",
        agreement=f"{{RESULTS}}/tables/agreement.tsv",
        agreement_md=f"{{RESULTS}}/tables/agreement.md",{pairwise_outputs}
    log:
        f"{{BUILD.logs}}/compute_values.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    params:
        bootstrap=config["bootstrap"],
    script:
        "scripts/compute_values.py"


BUILD.add_outputs(rules.compute_{id}_values)  # its values and variants{pairwise_target}


rule plot_{id}_agreement:
    input:
        rules.compute_{id}_values.output.agreement,
    output:
        report(f"{{RESULTS}}/figures/agreement.png", category="{id}", caption="report/agreement.rst"),
    log:
        f"{{BUILD.logs}}/plot_agreement.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    script:
        "scripts/plot_agreement.py"


BUILD.add_targets(*rules.plot_{id}_agreement.output)
"""

PAIRWISE_OUTPUTS = """
        pairwise=report(f"{{RESULTS}}/tables/pairwise.tsv", category="{id}", caption="report/pairwise.rst"),
        pairwise_md=f"{{RESULTS}}/tables/pairwise.md","""

PAIRWISE_CAPTION = """\
Cohen's kappa of every pair of raters of {id}, with its bootstrap interval over units
(config ``bootstrap``), recomputed from the released labels. The raters are fixed: the same
named raters labelled every unit, so a pair of them is two people.
"""

AGREEMENT_CAPTION = """\
The agreement of the raters of {id} on the released labels, recomputed: percent agreement,
Fleiss' kappa (on the units every rater labelled) and Krippendorff's alpha at each level
{id}/release.py declares, each with its percentile bootstrap interval over units (config
``bootstrap``). TODO: say which of the paper's tables or figures these numbers answer.
"""

SCRIPT = """\
\"\"\"Rule compute_{id}_values: the raters' agreement on the released labels, its variants
and tables ({id}.agreement.compute_values). A rule script reads, calls one function of the
paper's package or the library, and writes.\"\"\"
from reagree.pipeline.rulekit import rule_log, write_outputs

from {id}.agreement import compute_values
from {id}.release import read_release

with rule_log(snakemake) as log:
    outputs = compute_values(read_release(snakemake.input.labels), snakemake.input.labels, snakemake.params.bootstrap)
    write_outputs(outputs, snakemake)
    log.info("%d values, %d variants", len(outputs.values), len(outputs.variants))
"""

AGREEMENT = """\
\"\"\"The raters' agreement on the {id} release: the values rule compute_{id}_values writes
(``compute_values``), the variants of their keys and the tables.

TODO: say which of the paper's tables these keys answer. Composition only: the reader is
{id}.release, the keys {id}.keys, the statistics reagree's; a statistic reagree lacks goes
into src/reagree with its formula, its source and a test, not here.
\"\"\"
from __future__ import annotations

{pairwise_import}from pathlib import Path

import pandas as pd

from reagree.io.reads import sha256_read
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.pipeline.variantplan import variant_rows
from reagree.stats import majority, multirater{pairwise_module}
from reagree.stats.alpha import alpha_statistic
from reagree.stats.bootstrap import bootstrap_interval
from reagree.stats.ratings import Ratings
from reagree.stats.variants import FAMILIES

from {id} import keys
from {id}.release import ALPHA_LEVELS, CATEGORIES, VALUES, provenance
from {id}.variants import PLAN


def variants(row: dict, data, own: dict[str, str]) -> list[dict]:
    \"\"\"The variants of the row's key: every family variants.py declares for it, evaluated on
    ``data``; ``own``: family -> the variant that is reagree's own reading of the value. (A
    family of another signature, alpha_distance say, is called with its own arguments.)\"\"\"
    families = {{**FAMILIES, **PLAN.families}}  # the catalogue's and the plan's own
    return [variant for family in PLAN.families_for(row["key"])
            for variant in variant_rows(row["key"], family, families[family].evaluate(data), own=own.get(family))]


def compute_values(ratings: Ratings, path: str | Path, bootstrap: dict) -> RuleOutputs:
    \"\"\"Units, percent agreement, Fleiss' kappa (units every rater labelled), alpha at each
    of ``ALPHA_LEVELS``, each label's count{pair_words_doc}, with bootstrap intervals
    (``bootstrap``: draws, seed, level); the chance-model variants; the tables.\"\"\"
    draws, seed, level = (bootstrap[name] for name in ("draws", "seed", "level"))
    numbers = [VALUES[c] for c in CATEGORIES] if VALUES else None  # interval and ratio alpha read these

    def with_interval(family, statistic, **fields):
        return family.row(statistic.value(), interval=bootstrap_interval(statistic, draws, seed, level), **fields)

    complete = ratings.complete()
    label_counts = majority.label_counts(ratings.codes.ravel(), CATEGORIES)
    fleiss = with_interval(keys.FLEISS, multirater.fleiss_statistic(complete.unit_counts()),
                           note="units every rater labelled")
    coefficients = [("percent agreement", with_interval(keys.AGREEMENT,
                                                        multirater.percent_agreement_statistic(ratings.unit_counts()))),
                    ("Fleiss' kappa", fleiss)]
    coefficients += [(f"{{name}} alpha", with_interval(keys.ALPHA, alpha_statistic(ratings, name, numbers), level=name))
                     for name in ALPHA_LEVELS]
    values = [keys.UNITS.row(ratings.n_units), *(row for _, row in coefficients),
              keys.LABELS_ALL.row(int(label_counts.sum()), note="labels given, empty cells left out")]
    values += [keys.LABELS.row(int(count), category=part) for part, count in zip(keys.CATEGORY_PARTS, label_counts)]
    found = variants(fleiss, complete, {{"chance_model": "kappa.fleiss"}})
    meta = provenance(path, sha256_read(path),
                      intervals=f"percentile bootstrap over units, {{draws}} draws, seed {{seed}}, level {{level}}")
    agreement = pd.DataFrame([{{"coefficient": name, "key": row["key"], "value": row["value"], "ci_low": row["ci_low"],
                               "ci_high": row["ci_high"]}} for name, row in coefficients])
    tables = {{"agreement": Table(agreement, "The raters' agreement", meta)}}{pairwise_block}
    return RuleOutputs(values=values, variants=found, tables=tables)
"""

PAIRWISE_BLOCK = """
    pairs = []
    for a, b in combinations(ratings.raters, 2):  # fixed raters: a pair is two people
        row = with_interval(keys.PAIR_KAPPA, pairwise.cohen_statistic(ratings, a, b), a=a, b=b)
        values.append(row)
        found += variants(row, ratings.select([a, b]), {{"chance_model": "kappa.cohen"}})
        pairs.append({{"rater_a": a, "rater_b": b, "kappa": row["value"], "ci_low": row["ci_low"],
                      "ci_high": row["ci_high"]}})
    tables["pairwise"] = Table(pd.DataFrame(pairs), "Every pair of raters: Cohen's kappa", meta)"""

PLOT_SCRIPT = """\
\"\"\"Rule plot_{id}_agreement: the raters' agreement coefficients with their intervals
({id}.plots.agreement).\"\"\"
import pandas as pd

from reagree.pipeline.rulekit import rule_log

from {id}.plots import agreement

with rule_log(snakemake):
    agreement(pd.read_csv(snakemake.input[0], sep="\\t"), snakemake.output[0])
"""

PLOTS = """\
\"\"\"The figures of {id}, drawn from the tables its rules write: functions that draw and
return the figure (closed), so a test can read its texts and axes. No statistic is
computed here.\"\"\"

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reagree.plots.intervals import forest

SOURCE = "{id}"  # TODO: how the figure names the paper


def agreement(table: pd.DataFrame, path: str | Path):
    \"\"\"``table``: columns coefficient, value, ci_low, ci_high (tables/agreement.tsv), one
    row per coefficient; a coefficient without a value (Undefined) is left out.\"\"\"
    shown = table.dropna(subset=["value", "ci_low", "ci_high"])
    frame = pd.DataFrame({{"panel": "agreement", "label": shown["coefficient"], "value": shown["value"],
                          "low": shown["ci_low"], "high": shown["ci_high"]}})
    return forest(frame, ["agreement"], path, f"{{SOURCE}}: the raters' agreement, recomputed from the released labels",
                  "coefficient (95% percentile bootstrap interval over units)", columns=1, annotate=["agreement"])
"""

PACKAGE_INIT = """\
\"\"\"The {id} paper's own code: its reader (release.py), keys (keys.py), variants
(variants.py), relations between printed numbers (internal.py) and figures (plots.py).
Rule scripts and tests import it as ``from {id} import keys``; the pipeline reads ``PAPER``
alone (``reagree.pipeline.paper``).\"\"\"
from reagree.pipeline.paper import Paper

from {id}.internal import RELATIONS
from {id}.keys import KEYS
from {id}.variants import PLAN

PAPER = Paper(keys=KEYS, variants=PLAN, relations=RELATIONS)
"""

RELEASE = """\
\"\"\"What the {id} release holds, read once (rule scripts import it; no statistics here).

TODO: say, so that every number can be re-derived from this docstring, which file is
read, what a unit is, who the raters are and what happens to an empty cell.

- **File**: data/{id}/labels.tsv (paper.yaml, sources): tab-separated, a header, one
  row per unit.
- **Raters**: the columns of ``RATERS``, named in keys by its keys (lower case, no dots).
  {design_words}
- **Labels**: ``CATEGORIES``, in this order; labels are read stripped and lower-cased
  (``reagree.pipeline.readers``); a label outside them stops the run naming the file,
  the line and the column. An empty cell is a missing rating. In a key, a label is its
  ``reagree.pipeline.keys.key_part`` ("very low" -> ``very_low``).
- **Alpha levels** (``ALPHA_LEVELS``, Krippendorff 2011): ``nominal`` (labels are names);
  ``ordinal`` (labels are ranks: needs ``CATEGORIES`` in their order); ``interval`` and
  ``ratio`` (labels are numbers: need ``VALUES``, a number per label; ratio needs
  non-negative ones with a true zero). Give the levels the paper reports.
\"\"\"

from __future__ import annotations

from pathlib import Path

from reagree.pipeline.readers import read_label_table, require_labels
from reagree.stats.ratings import Ratings

PAPER = "{id}"
RATERS = {{"r1": "r1", "r2": "r2"}}  # TODO: name in keys -> the rater's column in the released table
CATEGORIES = ("x", "y")  # TODO: the labels, in their order
VALUES = None  # TODO for interval or ratio alpha: {{label: number}} for every label, e.g. {{"low": 1, "high": 2}}
ALPHA_LEVELS = ("nominal",)  # TODO: those of "nominal", "ordinal", "interval", "ratio" the paper reports


def read_release(path: str | Path) -> Ratings:
    \"\"\"The raters' labels as ``Ratings`` (units x raters), checked (module docstring).\"\"\"
    labels = read_label_table(path, list(RATERS.values()))
    require_labels(labels, CATEGORIES, path)
    return Ratings.from_labels(labels[list(RATERS.values())].set_axis(list(RATERS), axis=1), categories=CATEGORIES,
                               source=str(path))


def provenance(path: str | Path, sha256: str, **settings) -> dict:
    \"\"\"Provenance lines every table of this paper carries.\"\"\"
    return {{"paper": PAPER, "source": str(path), "sha256": sha256, **settings}}
"""

FIXED_WORDS = (
    "The raters are fixed: the same named raters labelled every unit, so a pair\n"
    "  of columns is two people (Cohen's kappa per pair)."
)
INTERCHANGEABLE_WORDS = (
    "The raters are interchangeable: any rater may stand behind a column on any\n"
    "  unit (Fleiss' 1971 design), so a column is not a person and no pair is compared."
)

KEYS = """\
\"\"\"The value keys of {id}, declared once (``reagree.pipeline.keys``): every key a rule
writes is built from a family here, and each family names the rule that writes it and
the one function that computes it.

Grammar: a key is dot-separated segments of lower-case letters, digits and ``_``, general
to specific: ``<measure>.<who>[.<what>]``, who being ``raters`` (all of them){pair_words}.
A label becomes a segment through ``key_part`` ("very low" -> ``count.labels.very_low``).
TODO: add a family (and its row in {id}/agreement.py) for every other number the paper
prints; a slot holds the values a field of a key may take.
\"\"\"
from reagree.pipeline import internal
from reagree.pipeline.keys import KeyGrammar, key_part
from reagree.stats import majority, multirater{pairwise_module}
from reagree.stats.alpha import LEVELS, alpha_statistic
from reagree.stats.ratings import Ratings

from {id}.release import CATEGORIES, RATERS

CATEGORY_PARTS = tuple(key_part(label) for label in CATEGORIES)  # in CATEGORIES' order
if len(set(CATEGORY_PARTS)) != len(CATEGORIES):
    raise ValueError(f"{id}: two labels of {{CATEGORIES}} give one key part: {{CATEGORY_PARTS}}")

KEYS = KeyGrammar("{id}", slots={{"rater": RATERS, "category": CATEGORY_PARTS, "level": LEVELS}})

values = KEYS.rule("compute_{id}_values")
UNITS = values.family("count.units.raters", Ratings.n_units)
AGREEMENT = values.family("agreement.raters", multirater.percent_agreement_statistic)
FLEISS = values.family("fleiss.raters", multirater.fleiss_statistic)
ALPHA = values.family("alpha_{{level}}.raters", alpha_statistic)
LABELS = values.family("count.labels.{{category}}", majority.label_counts)
LABELS_ALL = values.family("count.labels.raters", majority.label_counts)  # the labels of every category{pair_family}

# Numbers checked against other printed numbers ({id}/internal.py): no data is read.
printed = KEYS.rule("check_{id}_printed")
PERCENT_LABELS_PRINTED = printed.family("percent.labels.{{category}}.from_printed", internal.percentage)
"""

PAIR_FAMILY = """
PAIR_KAPPA = values.family("kappa.{{a:rater}}_{{b:rater}}", pairwise.cohen_statistic)  # fixed raters: a pair"""

VARIANTS = """\
\"\"\"Which variant families {id}'s claims are searched under, one line per family
(``reagree.pipeline.variantplan``; the families are ``reagree.stats.variants``'). Rule
compute_{id}_values computes them beside its values; claims.tsv's explained_by says which
reproduce a printed number. TODO: a line for every choice the paper may have made
differently (``reagree.stats.variants.FAMILIES``).\"\"\"
from reagree.pipeline.variantplan import VariantPlan

PLAN = VariantPlan("{id}", {{
    "chance_model": [{plan_patterns}],  # Fleiss, Conger, Randolph, Light, Scott, Cohen
}})
"""

INTERNAL = """\
\"\"\"{id}: printed numbers held against other printed numbers (``reagree.pipeline.internal``).

Where the paper prints a number and the numbers it was derived from, the one is checked
against the others, whether or not the data were released: here a label's percentage
against its printed count and the printed total (claims ``count.labels.<label>`` and
``count.labels.raters``, and the internal claim ``percent.labels.<label>.from_printed``,
``source: internal``). A relation reads its operands from the claim tables, so every
operand must be a claim. TODO: one relation per derived number the paper prints; delete
the example when the paper prints no such number (``RELATIONS = []``).
\"\"\"
from reagree.pipeline.internal import relate

from {id} import keys

RELATIONS = [
    relate(keys.PERCENT_LABELS_PRINTED, f"count.labels.{{keys.CATEGORY_PARTS[0]}}", "count.labels.raters",
           category=keys.CATEGORY_PARTS[0]),
]
"""


def paper_folder(root: str | Path, paper_id: str) -> Path:
    return Path(root) / "workflow" / "papers" / paper_id


def reserved_ids() -> set[str]:
    """The ids no paper may have: the top-level keys of config.yaml's schema (a paper's
    settings are the config key named by its id), read from the schema so they cannot drift."""
    return set(load_schema(schema_path("config"))["properties"])


_APPROXIMATE = re.compile(rf"\b({'|'.join(APPROXIMATE_WORDS)})\s+(?:plus or minus\s+)?$", re.I)


def approximate_word(before: str) -> str:
    """The approximate word (``verdicts.APPROXIMATE_WORDS``) that ``before``, the text of a
    line up to a number, ends with ("about 20,000", "roughly a factor of ten", "roughly
    plus or minus 0.025"), lowercase; "" when there is none."""
    found = _APPROXIMATE.search(before)
    return found[1].lower() if found else ""


def _document_files(folder: Path, root: Path, paper_id: str, document: str | Path) -> tuple[str, dict]:
    """paper.yaml's documents: entry for ``document``, and the ledger and draft claims
    files it starts (module docstring)."""
    from reagree.pipeline.ledger import REASONS, ledger_text, unreviewed_rows
    from reagree.pipeline.scan import RESULT_KINDS, claim_text, read_document, scan_text

    path = Path(document)
    text = read_document(path)  # read first: a file that is not text writes nothing
    numbers = scan_text(text)
    try:
        shown = path.resolve().relative_to(root.resolve())
    except ValueError:
        shown = path.resolve()
    name = path.name
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise ValueError(
            f"{path}: name the document with letters, digits, '.', '_' and '-' (it lands at "
            f"data/{paper_id}/documents/<name>)"
        )
    entry = f"documents:\n  - name: {name}\n    path: {shown}   # pinned on first use (or give its sha256)\n"
    drafts = []
    for number in numbers:
        if number.kind not in RESULT_KINDS:
            continue
        cells = {
            "where": f"{name}, line {number.line}, column {number.column}: {number.context}",
            "source": "paper",
            "published": claim_text(number),
            "note": f"{number.kind}, printed {number.printed!r}",
            "approximate": approximate_word(text[: number.start].rsplit("\n", 1)[-1]),
        }
        drafts.append("\t".join(cells.get(column, "").replace("\t", " ") for column in CLAIM_HEADER))
    ledger = ledger_text(unreviewed_rows(name, numbers), LEDGER_COMMENT.format(id=paper_id, reasons=", ".join(REASONS)))
    fields = {
        "id": paper_id,
        "document": name,
        "header": "\t".join(CLAIM_HEADER),
        "rows": "".join(f"{row}\n" for row in drafts),
    }
    return entry, {folder / "ledger.tsv": ledger, folder / "draft_claims.tsv": DRAFT_CLAIMS.format(**fields)}


RATER_DESIGNS = ("fixed", "interchangeable")


def _design_fields(design: str) -> dict:
    """The parts of the templates that differ between fixed and interchangeable raters:
    fixed raters get Cohen's kappa per pair (its table, family and variants), interchangeable
    ones Fleiss' kappa and alpha alone (a column is not a person, so no pair is compared)."""
    if design not in RATER_DESIGNS:
        raise ValueError(
            f"raters must be one of {RATER_DESIGNS} (fixed: the same named raters labelled every "
            f"unit; interchangeable: any rater may stand behind a column), got {design!r}"
        )
    if design == "interchangeable":
        return {
            "pairwise_outputs": "",
            "pairwise_target": "",
            "pairwise_import": "",
            "pairwise_module": "",
            "pairwise_block": "",
            "pair_family": "",
            "pair_words": "",
            "pair_words_doc": "",
            "pair_example": "fleiss.raters ||Table 2|paper|0.43|||||||",
            "plan_patterns": '"fleiss.raters"',
            "design_words": INTERCHANGEABLE_WORDS,
        }
    return {
        "pairwise_outputs": PAIRWISE_OUTPUTS,
        "pairwise_target": "\nBUILD.add_targets(rules.compute_{id}_values.output.pairwise)",
        "pairwise_import": "from itertools import combinations\n",
        "pairwise_module": ", pairwise",
        "pairwise_block": PAIRWISE_BLOCK,
        "pair_family": PAIR_FAMILY,
        "pair_words_doc": ", every pair's Cohen's kappa",
        "pair_words": "\nor a pair of raters (``kappa.r1_r2``)",
        "pair_example": "kappa.r1_r2 |ci_low|Table 2|paper|0.31||||||| (an interval's end)",
        "plan_patterns": '"fleiss.raters", "kappa.*_*"',
        "design_words": FIXED_WORDS,
    }


def scaffold_paper(
    root: str | Path,
    paper_id: str,
    title: str | None = None,
    cite: str | None = None,
    document: str | Path | None = None,
    raters: str = "fixed",
) -> list[Path]:
    """Write the new paper's folder under ``root`` (with ``document``, its ledger and draft
    claims too; ``raters``: ``fixed`` or ``interchangeable``, module docstring); returns the
    files created. ValueError for a malformed id, a checkout without workflow/papers, an
    existing folder, an unknown design, or a document that is not text."""
    if not ID_PATTERN.match(paper_id):
        raise ValueError(
            f"paper id {paper_id!r}: use lowercase letters, digits and _, starting with a letter (e.g. smith2027)"
        )
    if paper_id in reserved_ids():
        raise ValueError(
            f"paper id {paper_id!r} is a key of config.yaml ({', '.join(sorted(reserved_ids()))}): a "
            "paper's settings live under its id there, so it cannot be one of them; choose another id"
        )
    design = _design_fields(raters)
    papers = Path(root) / "workflow" / "papers"
    if not papers.is_dir():
        raise ValueError(f"{papers} does not exist: run from a reagree checkout or pass --root")
    folder = paper_folder(root, paper_id)
    if folder.exists():
        raise ValueError(f"{folder} already exists; nothing was written")
    entry, started = _document_files(folder, Path(root), paper_id, document) if document else ("documents: []", {})
    fields = {
        "id": paper_id,
        "title": (title or "TODO: the paper's title").replace('"', "'"),
        "cite": (cite or "TODO: authors, venue, year, arXiv id or DOI").replace('"', "'"),
        "header": "\t".join(CLAIM_HEADER),
        "documents": entry.rstrip("\n"),
    }
    # the design's snippets are templates too (they name the paper), filled before the files that hold them
    fields |= {name: text.format(**fields) for name, text in design.items()}
    files = {
        folder / "paper.yaml": PAPER_YAML,
        folder / "settings.schema.yaml": SETTINGS_SCHEMA,
        folder / "claims" / "paper.tsv": CLAIMS,
        folder / "rules.smk": RULES_SMK,
        folder / "report" / "agreement.rst": AGREEMENT_CAPTION,
        folder / "scripts" / "compute_values.py": SCRIPT,
        folder / "scripts" / "plot_agreement.py": PLOT_SCRIPT,
        folder / paper_id / "__init__.py": PACKAGE_INIT,
        folder / paper_id / "release.py": RELEASE,
        folder / paper_id / "keys.py": KEYS,
        folder / paper_id / "agreement.py": AGREEMENT,
        folder / paper_id / "variants.py": VARIANTS,
        folder / paper_id / "internal.py": INTERNAL,
        folder / paper_id / "plots.py": PLOTS,
    }
    if raters == "fixed":
        files[folder / "report" / "pairwise.rst"] = PAIRWISE_CAPTION
    written = {path: template.format(**fields) for path, template in files.items()} | started
    for path, text in written.items():
        write_atomic(path, text)
    return list(written)


def next_steps(paper_id: str, document: str | Path | None = None) -> str:
    if document:
        return f"""
Next:
  1. workflow/papers/{paper_id}/paper.yaml: the title, the sources (URL pinned to a commit, sha256).
  2. workflow/papers/{paper_id}/{paper_id}/release.py: the released table's rater columns, labels and alpha levels.
  3. workflow/papers/{paper_id}/draft_claims.tsv: a draft claim for each number of {Path(document).name} that looks
     like a result; give each its key ({paper_id}/keys.py) and move it to claims/paper.tsv.
  4. workflow/papers/{paper_id}/ledger.tsv: every number {Path(document).name} prints, unreviewed; mark each claimed
     (with its claim keys) or dismissed (with a reason).
  5. snakemake --cores 4 --config papers='[{paper_id}]'; results/summary.md counts what is left to review.
  6. Add {paper_id} to papers: in config.yaml to build it with the others.
docs/adding-a-paper.md walks through an example."""
    return f"""
Next:
  1. workflow/papers/{paper_id}/paper.yaml: the title, the sources (URL pinned to a commit, sha256).
  2. workflow/papers/{paper_id}/{paper_id}/release.py: the released table's rater columns, labels and alpha levels.
  3. workflow/papers/{paper_id}/claims/paper.tsv: every number the paper prints, under its key
     ({paper_id}/keys.py declares the keys; add a family there for a number the script does not compute yet).
  4. snakemake --cores 4 --config papers='[{paper_id}]', then read results/{paper_id}/claims.tsv.
  5. Add {paper_id} to papers: in config.yaml to build it with the others.
docs/adding-a-paper.md walks through an example."""
