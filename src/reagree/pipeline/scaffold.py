"""``reagree new-paper ID``: a new paper folder in the one pattern every paper follows.

What it decides: a new paper is ``workflow/papers/<id>/`` with the same parts as every
paper of the checkout (tests/papers/test_paper_pattern.py holds them equal):

    paper.yaml             metadata and sources (none yet); claim_tables: [claims/paper.tsv]
    settings.schema.yaml   the paper's settings (none yet)
    claims/paper.tsv       the claims header, no claim yet
    rules.smk              one rule, compute_<id>_values, registered with the paper registry
    report/pairwise.rst    the caption of the table the rule writes
    scripts/compute_values.py   the rule's thin script
    <id>/__init__.py, <id>/release.py, <id>/keys.py   the paper's package: its reader and its keys

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
rater (``r1``, ``r2``; labels ``x``, ``y``) and computes percent agreement, Fleiss' kappa,
nominal Krippendorff's alpha and every pair's Cohen's kappa with bootstrap intervals, so
a paper whose release has that shape builds once its source and claims are filled in.
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

__all__ = ["CAPTION", "CLAIMS", "DRAFT_CLAIMS", "ID_PATTERN", "KEYS", "LEDGER_COMMENT", "PACKAGE_INIT", "PAPER_YAML",
           "RELEASE", "RULES_SMK", "SCRIPT", "SETTINGS_SCHEMA", "approximate_word", "next_steps", "paper_folder",
           "reserved_ids", "scaffold_paper"]

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

PAPER_YAML = '''\
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
'''

DRAFT_CLAIMS = '''\
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
{rows}'''

LEDGER_COMMENT = """\
The ledger of {id}: every number its documents print, one row each, as `reagree scan`
finds it (line, column, printed text). status: claimed (claims: the keys, joined by ;),
dismissed (with a reason) or unreviewed. Reasons:
{reasons}.
A region row (line FIRST-LAST, no column,
no printed text) dismisses every number on its lines without a row of its own; a row of
kind words locates a claim printed in words. Built with --config strict_ledger=true, an
unreviewed row fails the build. reagree.pipeline.ledger says the rest."""

SETTINGS_SCHEMA = '''\
# Settings of the {id} paper: config["{id}"], validated by the Snakefile against this
# schema, with the defaults below filled in. None yet; add a property (with a default)
# for anything a user may choose, and read it in rules.smk from the PaperBuild's settings.
$schema: "https://json-schema.org/draft/2020-12/schema"
description: "{id}: no settings yet"
type: object
additionalProperties: false
properties: {{}}
'''

CLAIMS = '''\
# Claims of {id}: one row per number the paper prints, as printed (its precision is the
# default tolerance: 0.43 matches within 0.005). Tab-separated; an empty cell is an
# absent field; lines starting with # are comments. The key is a row of
# results/{id}/values.tsv, declared in {id}/keys.py. Examples (tabs shown as |):
#   fleiss.raters ||Table 2|paper|0.43|||||||
#   kappa.r1_r2 |ci_low|Table 2|paper|0.31||||||| (an interval's end)
#   kappa.model.vs_raters ||Table 3|paper|0.48|||||the model's labels were never released|| (uncheckable)
#   p.permutation.r1_r2 ||Table 3|paper|0.03||||||the authors' seeded permutation test (their perm_test.py)|
#     (not recomputed: the data are released, reagree does not reimplement the method)
{header}
'''

RULES_SMK = '''\
# {id}: {title}
# One rule computes the values from the released labels; the generic rules gather them
# into results/{id}/values.tsv and diff them against claims/*.tsv. A rule is named
# <verb>_{id}_<noun> and runs scripts/<verb>_<noun>.py.
from reagree.pipeline.paper_registry import registry

{const}_PAPER = registry().paper("{id}")
{const} = {const}_PAPER.results


rule compute_{id}_values:
    input:
        labels={const}_PAPER.data_path("labels.tsv"),  # TODO: the source's name in paper.yaml
    output:
        values=f"{{{const}}}/values/agreement.tsv",
        pairwise=report(f"{{{const}}}/tables/pairwise.tsv", category="{id}", caption="report/pairwise.rst"),
        pairwise_md=f"{{{const}}}/tables/pairwise.md",
    params:
        bootstrap=config["bootstrap"],
    log:
        f"{{{const}_PAPER.logs}}/compute_values.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "scripts/compute_values.py"


{const}_PAPER.add_values(f"{{{const}}}/values/agreement.tsv")
{const}_PAPER.add_targets(f"{{{const}}}/claims.tsv", f"{{{const}}}/tables/pairwise.tsv")
'''

CAPTION = '''\
Cohen's kappa of every pair of raters of {id}, with its bootstrap interval over units
(config ``bootstrap``), recomputed from the released labels.
'''

SCRIPT = '''\
"""Rule compute_{id}_values: the raters' agreement on the released labels.

TODO: say which of the paper's tables these keys answer. Composition only: the reader is
{id}.release, the keys {id}.keys, the statistics reagree's; a statistic reagree lacks goes
into src/reagree with its formula, its source and a test, not here.
"""
from itertools import combinations

import pandas as pd

from reagree.io.reads import sha256_read
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table, write_values
from reagree.stats import multirater, pairwise
from reagree.stats.alpha import alpha_statistic
from reagree.stats.bootstrap import bootstrap_interval

from {id} import keys
from {id}.release import provenance, read_release

with rule_log(snakemake) as log:
    ratings = read_release(snakemake.input.labels)
    draws, seed, level = (snakemake.params.bootstrap[name] for name in ("draws", "seed", "level"))

    def with_interval(family, statistic, **fields):
        """The family's row for the statistic's value, with its bootstrap interval."""
        return family.row(statistic.value(), interval=bootstrap_interval(statistic, draws, seed, level), **fields)

    values = [keys.UNITS.row(ratings.n_units),
              with_interval(keys.AGREEMENT, multirater.percent_agreement_statistic(ratings.unit_counts())),
              with_interval(keys.FLEISS, multirater.fleiss_statistic(ratings.complete().unit_counts()),
                            note="units every rater labelled"),
              with_interval(keys.ALPHA_NOMINAL, alpha_statistic(ratings, "nominal"))]
    pairs = []
    for a, b in combinations(ratings.raters, 2):
        statistic = pairwise.cohen_statistic(ratings, a, b)
        row = with_interval(keys.PAIR_KAPPA, statistic, a=a, b=b)
        values.append(row)
        pairs.append({{"rater_a": a, "rater_b": b, "kappa": row["value"], "ci_low": row["ci_low"],
                      "ci_high": row["ci_high"]}})
    write_values(values, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(pairs), snakemake.output.pairwise, "Every pair of raters: Cohen's kappa",
                provenance(snakemake.input.labels, sha256_read(snakemake.input.labels),
                           intervals=f"percentile bootstrap over units, {{draws}} draws, seed {{seed}}, level {{level}}"))
    log.info("%d units, %d raters, %d values", ratings.n_units, ratings.n_raters, len(values))
'''

PACKAGE_INIT = '''\
"""The {id} paper's own code: its reader (release.py) and its keys (keys.py); rule scripts
and tests import it as `from {id} import keys`."""
'''

RELEASE = '''\
"""What the {id} release holds, read once (rule scripts import it; no statistics here).

TODO: say, so that every number can be re-derived from this docstring, which file is
read, what a unit is, who the raters are and what happens to an empty cell.

- **File**: data/{id}/labels.tsv (paper.yaml, sources): tab-separated, a header, one
  row per unit.
- **Raters**: the columns of ``RATERS``, named in keys by its keys (lower case, no dots).
- **Labels**: ``CATEGORIES``, in this order; labels are read stripped and lower-cased
  (``reagree.pipeline.readers``); a label outside them stops the run naming the file,
  the line and the column. An empty cell is a missing rating.
"""

from __future__ import annotations

from pathlib import Path

from reagree.pipeline.readers import read_label_table, require_labels
from reagree.stats.ratings import Ratings

PAPER = "{id}"
RATERS = {{"r1": "r1", "r2": "r2"}}  # TODO: name in keys -> the rater's column in the released table
CATEGORIES = ("x", "y")  # TODO: the labels, in their order


def read_release(path: str | Path) -> Ratings:
    """The raters' labels as ``Ratings`` (units x raters), checked (module docstring)."""
    labels = read_label_table(path, list(RATERS.values()))
    require_labels(labels, CATEGORIES, path)
    return Ratings.from_labels(labels[list(RATERS.values())].set_axis(list(RATERS), axis=1), categories=CATEGORIES,
                               source=str(path))


def provenance(path: str | Path, sha256: str, **settings) -> dict:
    """Provenance lines every table of this paper carries."""
    return {{"paper": PAPER, "source": str(path), "sha256": sha256, **settings}}
'''

KEYS = '''\
"""The value keys of {id}, declared once (``reagree.pipeline.keys``): every key a rule
writes is built from a family here, and each family names the rule that writes it and
the one function that computes it.

Grammar: ``<measure>.<who>``, who being ``raters`` (all of them) or a pair of raters
(``r1_r2``). TODO: add a family (and its row in the rule's script) for every other
number the paper prints; a slot holds the values a field of a key may take.
"""
from reagree.pipeline.keys import KeyGrammar
from reagree.stats import multirater, pairwise
from reagree.stats.alpha import alpha_statistic
from reagree.stats.ratings import Ratings

from {id}.release import RATERS

KEYS = KeyGrammar("{id}", slots={{"rater": RATERS}})

values = KEYS.rule("compute_{id}_values")
UNITS = values.family("count.units.raters", Ratings.n_units)
AGREEMENT = values.family("agreement.raters", multirater.percent_agreement_statistic)
FLEISS = values.family("fleiss.raters", multirater.fleiss_statistic)
ALPHA_NOMINAL = values.family("alpha_nominal.raters", alpha_statistic)
PAIR_KAPPA = values.family("kappa.{{a:rater}}_{{b:rater}}", pairwise.cohen_statistic)
'''


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
        raise ValueError(f"{path}: name the document with letters, digits, '.', '_' and '-' (it lands at "
                         f"data/{paper_id}/documents/<name>)")
    entry = f"documents:\n  - name: {name}\n    path: {shown}   # pinned on first use (or give its sha256)\n"
    drafts = []
    for number in numbers:
        if number.kind not in RESULT_KINDS:
            continue
        cells = {"where": f"{name}, line {number.line}, column {number.column}: {number.context}",
                 "source": "paper", "published": claim_text(number),
                 "note": f"{number.kind}, printed {number.printed!r}",
                 "approximate": approximate_word(text[:number.start].rsplit("\n", 1)[-1])}
        drafts.append("\t".join(cells.get(column, "").replace("\t", " ") for column in CLAIM_HEADER))
    ledger = ledger_text(unreviewed_rows(name, numbers),
                         LEDGER_COMMENT.format(id=paper_id, reasons=", ".join(REASONS)))
    fields = {"id": paper_id, "document": name, "header": "\t".join(CLAIM_HEADER),
              "rows": "".join(f"{row}\n" for row in drafts)}
    return entry, {folder / "ledger.tsv": ledger, folder / "draft_claims.tsv": DRAFT_CLAIMS.format(**fields)}


def scaffold_paper(root: str | Path, paper_id: str, title: str | None = None, cite: str | None = None,
                   document: str | Path | None = None) -> list[Path]:
    """Write the new paper's folder under ``root`` (with ``document``, its ledger and draft
    claims too); returns the files created. ValueError for a malformed id, a checkout
    without workflow/papers, an existing folder, or a document that is not text."""
    if not ID_PATTERN.match(paper_id):
        raise ValueError(f"paper id {paper_id!r}: use lowercase letters, digits and _, starting with a letter "
                         "(e.g. smith2027)")
    if paper_id in reserved_ids():
        raise ValueError(f"paper id {paper_id!r} is a key of config.yaml ({', '.join(sorted(reserved_ids()))}): a "
                         "paper's settings live under its id there, so it cannot be one of them; choose another id")
    papers = Path(root) / "workflow" / "papers"
    if not papers.is_dir():
        raise ValueError(f"{papers} does not exist: run from a reagree checkout or pass --root")
    folder = paper_folder(root, paper_id)
    if folder.exists():
        raise ValueError(f"{folder} already exists; nothing was written")
    entry, started = _document_files(folder, Path(root), paper_id, document) if document else ("documents: []", {})
    fields = {"id": paper_id, "title": (title or "TODO: the paper's title").replace('"', "'"),
              "cite": (cite or "TODO: authors, venue, year, arXiv id or DOI").replace('"', "'"),
              "const": paper_id.upper(), "header": "\t".join(CLAIM_HEADER), "documents": entry.rstrip("\n")}
    files = {
        folder / "paper.yaml": PAPER_YAML,
        folder / "settings.schema.yaml": SETTINGS_SCHEMA,
        folder / "claims" / "paper.tsv": CLAIMS,
        folder / "rules.smk": RULES_SMK,
        folder / "report" / "pairwise.rst": CAPTION,
        folder / "scripts" / "compute_values.py": SCRIPT,
        folder / paper_id / "__init__.py": PACKAGE_INIT,
        folder / paper_id / "release.py": RELEASE,
        folder / paper_id / "keys.py": KEYS,
    }
    written = {path: template.format(**fields) for path, template in files.items()} | started
    for path, text in written.items():
        write_atomic(path, text)
    return list(written)


def next_steps(paper_id: str, document: str | Path | None = None) -> str:
    if document:
        return f"""
Next:
  1. workflow/papers/{paper_id}/paper.yaml: the title, the sources (URL pinned to a commit, sha256).
  2. workflow/papers/{paper_id}/{paper_id}/release.py: the released table's rater columns and labels.
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
  2. workflow/papers/{paper_id}/{paper_id}/release.py: the released table's rater columns and labels.
  3. workflow/papers/{paper_id}/claims/paper.tsv: every number the paper prints, under its key
     ({paper_id}/keys.py declares the keys; add a family there for a number the script does not compute yet).
  4. snakemake --cores 4 --config papers='[{paper_id}]', then read results/{paper_id}/claims.tsv.
  5. Add {paper_id} to papers: in config.yaml to build it with the others.
docs/adding-a-paper.md walks through an example."""
