"""One section per audited dataset: its source and design, the coefficients with their
intervals, standard errors and p, per category, pairs of raters, the majority vote and
its ties, each rater, the items to adjudicate first, and the audit's figures.

What it decides: the order is the terminal's, the most important first (the headline,
the coefficients, the raters who lower agreement, the items to adjudicate), then per
category, the pairs and the ties. The tables are what ``reagree audit`` prints
(``reagree.audit``), cut to the first ``MAX_PAIR_ROWS`` pairs and raters,
``MAX_ITEM_ROWS`` items and ``MAX_TIE_ROWS`` ties (every row is in the audit's TSV
files and audit.json), one under the other, each as wide as it needs; the figures come
last, each across the width of the page, so their text reads at the size it was drawn.
"""

from __future__ import annotations

from pathlib import Path

from reagree.audit import coefficient_rows
from reagree.audit.render import headline
from reagree.report.html import ci_text, esc, figure_block, fixed, p_text, scrolling, shown_path, slug
from reagree.report.load import AuditResults

__all__ = ["AUDIT_FIGURES", "MAX_ITEM_ROWS", "MAX_PAIR_ROWS", "MAX_RATERS_NAMED", "MAX_TIE_ROWS", "audit_section"]

MAX_TIE_ROWS = 50
MAX_ITEM_ROWS = 20
# Pairs of raters listed per audit (as the terminal and the figure do); pairwise.tsv has every one.
MAX_PAIR_ROWS = 45
MAX_RATERS_NAMED = 20
#: The audit's figures, in the order the page shows them (each where it was drawn).
AUDIT_FIGURES = ("coefficients.png", "raters.png", "pairs.png", "confusion.png")


def audit_section(audit: AuditResults, results: Path) -> str:
    result = audit.result
    missing = result["missing_share"]
    raters = result["raters"]
    named = ", ".join(raters) if len(raters) <= MAX_RATERS_NAMED else f"{', '.join(raters[:5])}, ..."
    design = (
        f"{result['n_units']} units, {result['n_raters']} raters ({esc(named)}), "
        f"{result['n_ratings']} ratings, {'-' if missing is None else f'{100 * missing:.1f}%'} of cells "
        f"missing; {result['units_pairable']} units with two or more ratings, {result['units_complete']} "
        f"{esc(result.get('complete_means', 'units every rater labelled'))}."
    )
    labels = ", ".join(f"{esc(c)} {n}" for c, n in result["label_distribution"].items())
    rows = coefficient_rows(result)
    notes = any(r["note"] for r in rows)
    body = "".join(
        f'<tr><td>{esc(r["what"])}</td><td class="num">{esc(fixed(r["value"]))}</td>'
        f'<td class="num">{esc(ci_text((r["ci_low"], r["ci_high"])))}</td>'
        f'<td class="num">{esc(fixed(r.get("se") if r.get("se") is not None else r.get("se_null")))}</td>'
        f'<td class="num">{esc(p_text(r.get("p")))}</td>' + (f"<td>{esc(r['note'])}</td>" if notes else "") + "</tr>"
        for r in rows
    )
    level = 100 * result["settings"]["bootstrap"]["level"]
    resampled = result["ci"].get("resampled")
    method = (
        f"bootstrap over {esc(resampled)} ({esc(result['ci']['method'])})" if resampled else esc(result["ci"]["method"])
    )
    coefficients = (
        f'<div class="scroll"><table class="data"><thead><tr><th>coefficient</th><th class="num">value</th>'
        f'<th class="num">{level:g}% interval</th><th class="num">SE</th><th class="num">p</th>'
        + ("<th>note</th>" if notes else "")
        + f'</tr></thead><tbody>{body}</tbody></table></div><p class="note">Intervals: {method}. SE and p: '
        "analytic (Gwet's variance on t(n - 1); Fleiss' kappa on the complete units: its SE under "
        "kappa = 0); alpha has none (bootstrap only).</p>"
    )
    raters_rows = "".join(
        f'<tr><td>{esc(r["rater"])}</td><td class="num">{r["units"]}</td>'
        f'<td class="num">{esc(fixed(r["pairwise_agreement"]))}</td>'
        f'<td class="num">{esc(fixed(r["majority_agreement"]))}</td><td class="num">{esc(p_text(r["bias"]["p"]))}</td>'
        f'<td class="num">{esc(fixed(r["without_alpha"]["change"]))}</td>'
        f'<td class="num">{esc(ci_text(r["without_alpha"].get("change_ci")))}</td></tr>'
        for r in result.get("per_rater", [])[:MAX_PAIR_ROWS]
    )
    raters_table = (
        f'<h3>Per rater</h3><div class="scroll"><table class="data"><thead><tr><th>rater</th>'
        '<th class="num">units</th>'
        '<th class="num">agreement with the rest</th><th class="num">with the others\' majority</th>'
        '<th class="num">label bias p</th><th class="num">alpha without, minus alpha</th>'
        f'<th class="num">interval</th></tr></thead><tbody>{raters_rows}</tbody></table></div>'
        if raters_rows
        else ""
    )
    item_rows = "".join(
        f'<tr><td>{esc(u["unit"])}</td><td class="num">{100 * u["disagreeing_pairs"]:.1f}%</td>'
        f"<td>{esc(', '.join(f'{c} {n}' for c, n in u['votes'].items()))}</td></tr>"
        for u in result.get("items", {}).get("units", [])[:MAX_ITEM_ROWS]
    )
    items_table = (
        f'<h3>Items to adjudicate first</h3><div class="scroll"><table class="data small"><thead><tr>'
        "<th>unit</th>"
        f'<th class="num">pairs disagreeing</th><th>votes</th></tr></thead><tbody>{item_rows}</tbody>'
        '</table></div><p class="note">Every disputed item, ranked, is in items.csv.</p>'
        if item_rows
        else ""
    )
    per_category = "".join(
        f'<tr><td>{esc(c)}</td><td class="num">{v["count"]}</td>'
        f'<td class="num">{esc(fixed(v.get("fleiss_kappa")))}</td><td class="num">{esc(ci_text(v.get("fleiss_kappa_ci")))}</td>'
        f'<td class="num">{esc(p_text(v.get("fleiss_kappa_p")))}</td>'
        f'<td class="num">{esc(fixed(v.get("specific_agreement")))}</td>'
        f'<td class="num">{esc(ci_text(v.get("specific_agreement_ci")))}</td></tr>'
        for c, v in result["per_category"].items()
    )
    pairs = "".join(
        f'<tr><td>{esc(p["a"])}-{esc(p["b"])}</td><td class="num">{p["n"]}</td>'
        f'<td class="num">{esc(fixed(p["percent_agreement"], 4))}</td>'
        f'<td class="num">{esc(fixed(p["cohen_kappa"]))}</td><td class="num">{esc(ci_text(p.get("cohen_kappa_ci")))}</td>'
        f"<td>a model that copies {esc(p['a'])} scores {esc(fixed(p['copy_a_scores_against_b'], 4))} against {esc(p['b'])}</td></tr>"
        for p in result["pairwise"][:MAX_PAIR_ROWS]
    )
    plan = result.get("pairwise_plan", {})
    if len(result["pairwise"]) > MAX_PAIR_ROWS:
        pairs += (
            f'<tr><td colspan="6" class="note">... and {len(result["pairwise"]) - MAX_PAIR_ROWS:,} more pairs: '
            "every pair is in pairwise.tsv and audit.json</td></tr>"
        )
    pair_note = f'<p class="note">{esc(plan["why"])}.</p>' if plan.get("why") else ""
    ties = result["ties"]
    tie_text = f"{ties['count']} of {ties.get('units_voted', result['n_units'])} units tie under the majority vote"
    if ties.get("kinds"):
        tie_text += " (" + "; ".join(f"{esc(k)}: {n}" for k, n in ties["kinds"].items()) + ")"
    tie_text += f"; the rule <code>{esc(ties['rule'])}</code> gave them: " + esc(
        ", ".join(f"{k} {n}" for k, n in ties.get("rule_gave", {}).items()) or "nothing"
    )
    if "column" in ties:
        tie_text += (
            f"; the column <code>{esc(ties['column'])}</code> gave them: "
            + esc(", ".join(f"{k} {n}" for k, n in ties.get("column_gave", {}).items()) or "nothing")
            + f"; it differs from the plurality on {ties['column_differs_on_untied']} untied unit(s)"
        )
    tie_rows = "".join(
        f"<tr><td>{esc(u['unit'])}</td><td>{esc(', '.join(f'{c} {n}' for c, n in u['votes'].items()))}</td>"
        f"<td>{esc(u['rule'] or '(no label)')}</td>"
        + (f"<td>{esc(u.get('column') or '')}</td>" if "column" in ties else "")
        + "</tr>"
        for u in ties["units"][:MAX_TIE_ROWS]
    )
    tie_head = "<th>unit</th><th>votes</th><th>rule</th>" + ("<th>column</th>" if "column" in ties else "")
    problems = "".join(f'<li class="problem">{esc(p)}</li>' for p in result["problems"] + result["notes"])
    figures = "".join(
        figure_block(audit.folder / name, results) for name in AUDIT_FIGURES if (audit.folder / name).is_file()
    )
    ties_table = (
        scrolling(f'<table class="data small"><thead><tr>{tie_head}</tr></thead><tbody>{tie_rows}</tbody></table>')
        if tie_rows
        else ""
    )
    per_category_table = (
        '<table class="data"><thead><tr><th>category</th><th class="num">ratings</th>'
        '<th class="num">Fleiss kappa_j</th><th class="num">interval</th>'
        '<th class="num">p (SE under kappa_j = 0)</th><th class="num">specific agreement</th>'
        f'<th class="num">interval</th></tr></thead><tbody>{per_category}</tbody></table>'
    )
    pairs_table = (
        '<table class="data"><thead><tr><th>pair</th><th class="num">n</th><th class="num">agreement</th>'
        '<th class="num">Cohen\'s kappa</th><th class="num">interval</th><th>ceiling</th></tr></thead>'
        f"<tbody>{pairs}</tbody></table>"
    )
    source = f"{esc(result['source'])}" + (f" (sha256 {esc(result['sha256'][:12])}...)" if result.get("sha256") else "")
    return f"""
<section id="audit-{slug(audit.name)}" class="audit">
<h2>Audit: {esc(audit.name)}</h2>
<p class="muted">{source}; {esc(result["format"])} format; level {esc(result["level"])}; tie rule {esc(ties["rule"])}.
Files: {esc(shown_path(audit.folder, results))}/</p>
<p>{design} Labels: {labels}.</p>
{f"<ul>{problems}</ul>" if problems else ""}
<p class="reading"><strong>{esc(headline(result)) if result["n_units"] else ""}</strong></p>
<p class="reading">{esc(result["reading"])}</p>
<h3>Coefficients</h3>{coefficients}
{raters_table}{items_table}
<h3>Per category</h3>{scrolling(per_category_table)}
<h3>Pairs</h3>{scrolling(pairs_table)}{pair_note}
<h3>Majority vote and ties</h3><p>{tie_text}.</p>
{ties_table}
<div class="audit-figures">{figures}</div>
</section>"""
