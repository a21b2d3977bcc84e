"""``reagree new-paper ID``: the files of a new paper folder, with what to fill in.

What it decides: a new paper is ``workflow/papers/<id>/`` holding ``paper.yaml`` (valid
as written: no sources, no claims yet), ``rules.smk`` (one values rule, registered in
``VALUE_PARTS`` and ``PAPER_TARGETS``) and ``scripts/compute_values.py`` (a thin rule
script that audits one wide label table with ``reagree.audit`` and writes every number as
values.tsv rows). Nothing outside the folder is touched: the paper is built only once its
id is added to ``papers:`` in config.yaml. An existing folder is never overwritten.
docs/adding-a-paper.md walks through filling the files in.
"""

from __future__ import annotations

import re
from pathlib import Path

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

PAPER_YAML = '''\
# workflow/papers/{id}/paper.yaml: what the paper printed, and where its released data is.
# Checked against workflow/schemas/paper.schema.yaml. Nothing is built until "{id}" is in
# `papers:` in config.yaml. Walk-through: docs/adding-a-paper.md.
id: {id}
title: "{title}"
cite: "{cite}"

# 1. Sources: every file the rules read. Each lands at data/{id}/<name>.
#    Pin the URL to a commit or a release, never a branch, and give the sha256 of the bytes
#    (`reagree fetch URL /tmp/file` prints it). With `mirror:` set, the file is copied
#    from <mirror>/HOST/PATH instead of downloaded.
sources: []
#  - name: labels.tsv
#    url: https://raw.githubusercontent.com/OWNER/REPO/COMMIT/path/labels.tsv
#    sha256: 0123...cdef            # 64 hex digits
#    licence: CC BY 4.0

# 2. Claims: every number the paper prints, as printed. The key is a row of
#    results/{id}/values.tsv (scripts/compute_values.py lists the keys it writes).
#    0.43 matches any computed value within 0.005 (half a unit of the last printed digit).
claims: []
#  - key: fleiss.raters              # Fleiss' kappa of all raters
#    where: "Table 2"                # where the paper prints it
#    source: paper                   # paper | replication (a published re-analysis)
#    published: 0.43
#  - key: alpha_nominal.raters
#    where: "Section 4.1"
#    source: paper
#    published: 0.6
#    tolerance: 0.05                 # only with a reason, e.g. "the text says 'about 0.6'"
#  - key: kappa.model.vs_majority
#    where: "Table 3"
#    source: paper
#    published: 0.48
#    uncheckable: "the model's labels were not released"
'''

RULES_SMK = '''\
# {id}: {title}
# One rule turns the released labels into a partial values file; the generic rules gather
# it into results/{id}/values.tsv and diff it against the claims in paper.yaml.
# Add rules for tables and figures the same way (see workflow/papers/jayanetti2026/rules.smk).

{const} = "results/{id}"


rule compute_{id}_values:
    input:
        # TODO: a source name from paper.yaml (data/{id}/<name>)
        labels="data/{id}/labels.tsv",
    output:
        values=f"{{{const}}}/values/agreement.tsv",
        pairwise=f"{{{const}}}/tables/pairwise.tsv",
        pairwise_md=f"{{{const}}}/tables/pairwise.md",
    params:
        bootstrap=config["bootstrap"],
    log:
        "logs/{id}/compute_values.log",
    conda:
        "../../../envs/reagree.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "scripts/compute_values.py"


VALUE_PARTS["{id}"] += [f"{{{const}}}/values/agreement.tsv"]
PAPER_TARGETS["{id}"] += [f"{{{const}}}/claims.tsv", f"{{{const}}}/tables/pairwise.tsv"]
'''

SCRIPT = '''\
"""Rule compute_{id}_values: every agreement number of one label table.

TODO: say which released file this reads and which of the paper's tables its keys
answer. Composition only: the statistics are reagree's (``reagree.audit`` calls the
library's coefficient functions); a statistic reagree lacks goes into src/reagree with a
docstring and a test, not here.
"""
from reagree.audit import audit, provenance, read_table, result_tables, value_rows
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import sha256_of, write_table, write_values

with rule_log(snakemake) as log:
    # TODO: describe the released table. Wide: one row per unit, a unit id column and one
    # column per rater (raters=[...] picks them; default every other column). Long: one
    # row per rating, layout="long" with unit=, rater=, label= column names.
    # order=[...] fixes the category order (needed for ordinal text labels).
    table = read_table(snakemake.input.labels, layout="wide", unit="unit", raters=None, order=None)
    bootstrap = snakemake.params.bootstrap
    result = audit(table, level="nominal", tie_rule="drop", draws=bootstrap["draws"], seed=bootstrap["seed"],
                   ci_level=bootstrap["level"], show_progress=False)
    result["sha256"] = sha256_of(snakemake.input.labels)
    # Keys written (who = "raters"): agreement.raters, fleiss.raters, alpha_<level>.raters,
    # ac1.raters, pabak.raters, kappa.raters.mean_of_pairs, fleiss_category.raters.<label>,
    # specific_agreement.raters.<label>, kappa.<a>_<b>, agreement.<a>_<b>, count.*.raters.
    write_values(value_rows(result, who="raters"), snakemake.output.values, rule=snakemake.rule)
    write_table(result_tables(result)["pairwise"], snakemake.output.pairwise,
                "Pairs of raters: agreement and Cohen's kappa", provenance(result))
    log.info("%d units, %d raters: %s", result["n_units"], result["n_raters"], result["coefficients"])
'''


def paper_folder(root: str | Path, paper_id: str) -> Path:
    return Path(root) / "workflow" / "papers" / paper_id


def scaffold_paper(root: str | Path, paper_id: str, title: str | None = None, cite: str | None = None) -> list[Path]:
    """Write the new paper's folder under ``root``; returns the files created. ValueError
    for a malformed id, a checkout without workflow/papers, or an existing folder."""
    if not ID_PATTERN.match(paper_id):
        raise ValueError(f"paper id {paper_id!r}: use lowercase letters, digits and _, starting with a letter "
                         "(e.g. smith2027)")
    papers = Path(root) / "workflow" / "papers"
    if not papers.is_dir():
        raise ValueError(f"{papers} does not exist: run from a reagree checkout or pass --root")
    folder = paper_folder(root, paper_id)
    if folder.exists():
        raise ValueError(f"{folder} already exists; nothing was written")
    fields = {"id": paper_id, "title": (title or "TODO: the paper's title").replace('"', "'"),
              "cite": (cite or "TODO: authors, venue, year, arXiv id or DOI").replace('"', "'"),
              "const": paper_id.upper()}
    files = {folder / "paper.yaml": PAPER_YAML, folder / "rules.smk": RULES_SMK,
             folder / "scripts" / "compute_values.py": SCRIPT}
    (folder / "scripts").mkdir(parents=True)
    for path, template in files.items():
        path.write_text(template.format(**fields), encoding="utf-8")
    return list(files)


def next_steps(paper_id: str) -> str:
    return f"""
Next:
  1. workflow/papers/{paper_id}/paper.yaml: the title, the sources (URL pinned to a commit, sha256), the claims.
  2. workflow/papers/{paper_id}/scripts/compute_values.py: the columns of the released table.
  3. Add {paper_id} to papers: in config.yaml (or: snakemake --cores 4 --config papers='[{paper_id}]').
  4. snakemake --cores 4, then read results/{paper_id}/claims.tsv and results/summary.md.
docs/adding-a-paper.md walks through an example."""
