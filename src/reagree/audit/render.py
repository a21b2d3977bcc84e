"""Rendering an audit: the JSON text, the terminal text, the coefficient rows and the
tables (design, coefficients, per category, pairs, ties), and the tables' provenance.
Pure functions of the audit's result dict; nothing here computes a statistic or writes a
file.
"""

from __future__ import annotations

import json
import textwrap

import pandas as pd

__all__ = [
    "MANY_RATERS",
    "MORE",
    "coefficient_rows",
    "headline",
    "items_table",
    "provenance",
    "render_screen",
    "render_text",
    "result_tables",
    "to_json",
]

# Above this many raters the terminal summarises what it would list per rater or per pair.
MANY_RATERS = 20


def to_json(result: dict) -> str:
    """The audit as JSON text: undefined values are null (their reasons under "undefined")."""
    return json.dumps(result, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _number(value, digits: int = 3) -> str:
    return "undefined" if value is None else f"{value:.{digits}f}"


def _ci(ends) -> str:
    if not ends:
        return ""
    low, high = ends
    if low is None or high is None:
        return "interval undefined"
    return f"{low:.3f} to {high:.3f}"


def _complete(result: dict) -> str:
    """What the complete units are (``reagree.audit.compute``: a fixed panel's, or
    interchangeable raters' units with the most ratings)."""
    return result.get("complete_means", "units every rater labelled")


def _qualifier(name: str, result: dict) -> str:
    """What a coefficient's row says beside its registry label: the units it reads, its form."""
    k, n_raters = len(result["categories"]), result["n_raters"]
    pairs = (
        f"Light; {len(result.get('pairs_in_mean', [])):,} of {n_raters * (n_raters - 1) // 2:,} pairs"
        if result.get("pairwise_plan", {}).get("mode") != "none"
        else "Light"
    )
    return {
        "percent_agreement": f"pairs of ratings on {result['units_pairable']:,} pairable units",
        "fleiss_kappa": f"{result['coefficients'].get('fleiss_n_units', 0):,} {_complete(result)}",
        "fleiss_kappa_gwet": "every unit; unequal numbers of ratings",
        "pabak": f"Brennan-Prediger form, chance 1/{k}" if k != 2 else "2 P_o - 1",
        "conger_kappa": "fixed raters",
        "mean_pairwise_cohen": pairs,
        f"krippendorff_alpha.{result['level']}": "chosen level",
    }.get(name, "")


def coefficient_rows(result: dict) -> list[dict]:
    """The coefficients as rows: name, label (the registry's, ``reagree.stats.registry``),
    what (the label with the units it reads), value, ci_low, ci_high, the analytic
    inference, the field library's value, note (undefined reason)."""
    coefficients, ci, undefined = result["coefficients"], result["ci"], result["undefined"]
    labelled = list(result["coefficient_labels"].items())
    if "mean_pairwise_cohen" in coefficients:  # a mean over the pairs' tables, not one of the registry's
        labelled.append(("mean_pairwise_cohen", "mean pairwise Cohen's kappa"))
    described = []
    for key, label in labelled:
        qualifier = _qualifier(key, result)
        described.append((key, label, f"{label} ({qualifier})" if qualifier else label))
    rows = []
    for key, label, what in described:
        name, *sub = key.split(".")
        value, ends = coefficients.get(name), ci.get(name)
        for part in sub:
            value = value.get(part) if isinstance(value, dict) else None
            ends = ends.get(part) if isinstance(ends, dict) else None
        analytic = result.get("inference", {}).get(key, {})
        wald = analytic.get("wald_ci") or [None, None]
        reference = result.get("references", {}).get(key, {})
        rows.append(
            {
                "coefficient": key,
                "label": label,
                "what": what,
                "value": value,
                "ci_low": ends[0] if ends else None,
                "ci_high": ends[1] if ends else None,
                "undefined_draws": ci.get("undefined_draws", {}).get(key),
                "se": analytic.get("se"),
                "se_null": analytic.get("se_null"),
                "z": analytic.get("z"),
                "p": analytic.get("p"),
                "wald_low": wald[0],
                "wald_high": wald[1],
                "distribution": analytic.get("distribution", ""),
                "chance": analytic.get("chance"),
                "analytic": analytic.get("method") or analytic.get("none", ""),
                "reference": reference.get("library", ""),
                "reference_value": reference.get("value"),
                "note": undefined.get(f"coefficients.{key}", ""),
            }
        )
    return rows


def result_tables(result: dict) -> dict[str, pd.DataFrame]:
    """The audit's tables: design, coefficients, per_category, pairwise, ties."""
    design = pd.DataFrame(
        [
            {"quantity": "units", "value": result["n_units"]},
            {"quantity": "raters", "value": result["n_raters"]},
            {"quantity": "ratings", "value": result["n_ratings"]},
            {"quantity": "missing share", "value": result["missing_share"]},
            {"quantity": "units with two or more ratings", "value": result["units_pairable"]},
            {"quantity": _complete(result), "value": result["units_complete"]},
            {"quantity": "units without any rating (left out)", "value": result["units_without_rating"]},
            {"quantity": "repeated labels ignored", "value": result["repeats_ignored"]},
            {"quantity": "tied units", "value": result["ties"]["count"]},
        ]
    )
    coefficients = pd.DataFrame(coefficient_rows(result))
    per_category = pd.DataFrame(
        [
            {
                "category": c,
                "count": v["count"],
                "share": v["share"],
                "fleiss_kappa": v.get("fleiss_kappa"),
                "fleiss_ci_low": (v.get("fleiss_kappa_ci") or [None, None])[0],
                "fleiss_ci_high": (v.get("fleiss_kappa_ci") or [None, None])[1],
                "fleiss_se_null": v.get("fleiss_kappa_se_null"),
                "fleiss_z": v.get("fleiss_kappa_z"),
                "fleiss_p": v.get("fleiss_kappa_p"),
                "specific_agreement": v.get("specific_agreement"),
                "specific_ci_low": (v.get("specific_agreement_ci") or [None, None])[0],
                "specific_ci_high": (v.get("specific_agreement_ci") or [None, None])[1],
            }
            for c, v in result["per_category"].items()
        ]
    )
    pairwise = pd.DataFrame(
        [
            {
                "rater_a": p["a"],
                "rater_b": p["b"],
                "n": p["n"],
                "percent_agreement": p["percent_agreement"],
                "cohen_kappa": p["cohen_kappa"],
                "ci_low": (p.get("cohen_kappa_ci") or [None, None])[0],
                "ci_high": (p.get("cohen_kappa_ci") or [None, None])[1],
                "copy_a_scores_against_b": p["copy_a_scores_against_b"],
            }
            for p in result["pairwise"]
        ],
        columns=[
            "rater_a",
            "rater_b",
            "n",
            "percent_agreement",
            "cohen_kappa",
            "ci_low",
            "ci_high",
            "copy_a_scores_against_b",
        ],
    )
    tie_columns = ["unit", *(f"votes_{c}" for c in result["categories"]), "tie", f"rule_{result['ties']['rule']}"]
    if "column" in result["ties"]:
        tie_columns.append(f"column_{result['ties']['column']}")
    ties = pd.DataFrame(
        [
            {
                "unit": u["unit"],
                **{f"votes_{c}": u["votes"].get(c, 0) for c in result["categories"]},
                "tie": "_".join(u["sides"]),
                f"rule_{result['ties']['rule']}": u["rule"] or "",
                **({f"column_{result['ties']['column']}": u.get("column") or ""} if "column" in result["ties"] else {}),
            }
            for u in result["ties"]["units"]
        ],
        columns=tie_columns,
    )
    raters = pd.DataFrame(
        [
            {
                "rater": r["rater"],
                "units": r["units"],
                "units_shared": r["units_shared"],
                "pairwise_agreement": r["pairwise_agreement"],
                "majority_agreement": r["majority_agreement"],
                "bias_chi2": r["bias"]["chi2"],
                "bias_df": r["bias"]["df"],
                "bias_p": r["bias"]["p"],
                "alpha_change_without": r["without_alpha"]["change"],
                "alpha_change_ci_low": (r["without_alpha"].get("change_ci") or [None, None])[0],
                "alpha_change_ci_high": (r["without_alpha"].get("change_ci") or [None, None])[1],
                "fleiss_gwet_change_without": r["without_fleiss_kappa_gwet"]["change"],
                **{f"labels_{c}": n for c, n in r["labels"].items()},
            }
            for r in result.get("per_rater", [])
        ]
    )
    pooled = result.get("category_pairs")
    category_pairs = (
        pd.DataFrame(pooled["pairs"], columns=[f"with_{c}" for c in pooled["categories"]])
        .assign(category=pooled["categories"])
        .set_index("category")
        .reset_index()
        if pooled
        else pd.DataFrame(columns=["category"])
    )
    return {
        "design": design,
        "coefficients": coefficients,
        "per_category": per_category,
        "pairwise": pairwise,
        "ties": ties,
        "raters": raters,
        "category_pairs": category_pairs,
    }


def items_table(result: dict) -> pd.DataFrame:
    """The disputed units, most disputed first, one column of votes per category: the file
    a team opens to adjudicate (items.csv)."""
    categories = result["categories"]
    return pd.DataFrame(
        [
            {
                "rank": i + 1,
                "unit": u["unit"],
                "ratings": u["ratings"],
                "disagreeing_pairs": u["disagreeing_pairs"],
                "entropy_bits": u["entropy_bits"],
                "majority": u["majority"] or "",
                **{f"votes_{c}": u["votes"].get(c, 0) for c in categories},
                "adjudicated_label": "",
            }
            for i, u in enumerate((result.get("items") or {}).get("units", []))
        ],
        columns=[
            "rank",
            "unit",
            "ratings",
            "disagreeing_pairs",
            "entropy_bits",
            "majority",
            *(f"votes_{c}" for c in categories),
            "adjudicated_label",
        ],
    )


def _pair_lines(pairs: list[dict], intervals: bool) -> list[str]:
    """The pairs table (pair, n, agreement, kappa[, interval]) and each pair's ceiling."""
    width = max([len(f"{p['a']}-{p['b']}") for p in pairs] + [4])
    lines = [
        f"  {'pair':<{width}}  {'n':>5}  {'agreement':>9}  {'Cohen kappa':>11}"
        + (f"  {'95% interval':<16}" if intervals else "")
    ]
    for p in pairs:
        lines.append(
            f"  {p['a'] + '-' + p['b']:<{width}}  {p['n']:>5}  {_number(p['percent_agreement'], 4):>9}  "
            f"{_number(p['cohen_kappa']):>11}" + (f"  {_ci(p.get('cohen_kappa_ci')):<16}" if intervals else "")
        )
    lines.append(
        "  a model that copies rater a scores the pair's agreement against rater b: the ceiling to quote with that pair"
    )
    return lines


def _summarised_pairs(result: dict, plan: dict, shown: int) -> list[str]:
    """The pairs of a table with many raters: how many share a unit, the spread of their
    n and kappa, and the pairs with the most units in common."""
    pairs = result["pairwise"]
    lines = [
        f"Pairs (units both labelled): {plan['raters']:,} raters make {plan['rater_pairs']:,} pairs; "
        f"{len(pairs):,} share a unit",
        f"  summarised: {plan['why']}; every pair that shares a unit is in the JSON and pairwise.tsv",
    ]
    summary = plan.get("summary") or {}
    if "n" in summary:
        n = summary["n"]
        lines.append(f"  units both labelled per pair: median {n['median']:,g}, {n['min']:,} to {n['max']:,}")
    if "cohen_kappa" in summary:
        kappa = summary["cohen_kappa"]
        undefined = summary["cohen_kappa_undefined"]
        lines.append(
            f"  Cohen's kappa over the pairs: median {kappa['median']:.3f}, quartiles {kappa['q1']:.3f} to "
            f"{kappa['q3']:.3f}, {kappa['min']:.3f} to {kappa['max']:.3f}"
            + (f" ({undefined} pair(s) undefined)" if undefined else "")
        )
    if pairs:
        most = sorted(pairs, key=lambda p: -p["n"])[:shown]
        lines.append(f"  the {len(most)} pair(s) with the most units both labelled:")
        lines += _pair_lines(most, intervals=False)
    return lines + [""]


def _tally_text(tally: dict) -> str:
    return ", ".join(f"{label} {n:,}" for label, n in tally.items()) or "nothing"


def headline(result: dict) -> str:
    """The most important line: alpha at the chosen level with its interval, and what it
    would be without the rater whose removal raises it most."""
    level = result["level"]
    alpha = result["coefficients"].get("krippendorff_alpha", {}).get(level)
    if alpha is None:
        return f"{level} alpha undefined ({result['undefined'].get(f'coefficients.krippendorff_alpha.{level}', '')})"
    ends = result["ci"].get("krippendorff_alpha", {}).get(level)
    said = f"{level} alpha {alpha:.2f}" + (f" [{ends[0]:.2f}, {ends[1]:.2f}]" if ends and None not in ends else "")
    raters = [r for r in result.get("per_rater", []) if r["without_alpha"]["change"] is not None]
    if raters and raters[0]["without_alpha"]["change"] > 0:
        top = raters[0]
        said += f"; without rater {top['rater']}: {alpha + top['without_alpha']['change']:.2f}"
    elif raters:
        said += "; no single rater's removal raises it"
    return said


def _p(value) -> str:
    if value is None:
        return "-"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _analytic_lines(rows: list[dict]) -> list[str]:
    """Standard error, Wald interval, z and p beside each coefficient that has them."""
    lines = ["Analytic inference (beside the bootstrap; alpha: bootstrap only)"]
    width = max(len(r["label"]) for r in rows)
    lines.append(f"  {'':<{width}}  {'chance':>6}  {'SE':>6}  {'Wald 95%':<15}  {'z':>7}  {'p':>6}  distribution")
    for row in rows:
        if row["se"] is None and row["se_null"] is None:
            continue
        wald = f"{row['wald_low']:.3f} to {row['wald_high']:.3f}" if row["wald_low"] is not None else "(null only)"
        se = row["se"] if row["se"] is not None else row["se_null"]
        lines.append(
            f"  {row['label']:<{width}}  {_number(row['chance']):>6}  {se:>6.3f}  {wald:<15}  "
            f"{_number(row['z'], 2):>7}  {_p(row['p']):>6}  {row['distribution']}"
            + (" (SE under kappa = 0)" if row["se"] is None else "")
        )
    return lines


def _weighted_lines(result: dict) -> list[str]:
    weighted = result.get("weighted") or {}
    if not weighted:
        return []
    lines = ["Weighted (ordered labels; Gwet's weights; value [bootstrap interval] SE)"]
    for scheme, block in weighted.items():
        parts = []
        for name, value in block.items():
            if name in ("inference", "references") or value is None:
                continue
            ends = result["ci"].get("weighted", {}).get(scheme, {}).get(name)
            se = block["inference"].get(name, {}).get("se")
            parts.append(
                f"{result['weighted_labels'].get(name, name)} {value:.3f}"
                + (f" [{ends[0]:.3f}, {ends[1]:.3f}]" if ends and None not in ends else "")
                + (f" se {se:.3f}" if se is not None else "")
            )
        lines += _wrapped(f"{scheme}:", parts)
    return lines + [""]


def _wrapped(head: str, entries: list[str], width: int = 110) -> list[str]:
    """``head`` and the entries joined by "; ", wrapped at ``width`` between entries only."""
    glued = [entry.replace(" ", "\u00a0") for entry in entries]  # no break inside an entry
    wrapped = textwrap.wrap(
        head + " " + "; ".join(glued),
        width=width,
        initial_indent="  ",
        subsequent_indent="    ",
        break_long_words=False,
    )
    return [line.replace("\u00a0", " ") for line in wrapped]


def _rater_lines(result: dict, shown: int) -> list[str]:
    raters = result.get("per_rater") or []
    if not raters:
        return []
    level = result["level"]
    lines = [
        f"Per rater (the rater whose removal raises {level} alpha most first; all {len(raters):,} in the JSON "
        "and raters.tsv)"
    ]
    width = max([len(r["rater"]) for r in raters[:shown]] + [5])
    lines.append(
        f"  {'rater':<{width}}  {'units':>6}  {'vs rest':>7}  {'vs maj.':>7}  {'bias p':>6}  {'alpha without':<30}"
    )
    for row in raters[:shown]:
        change = row["without_alpha"]
        ends = change.get("change_ci")
        moved = (
            "undefined"
            if change["change"] is None
            else f"{change['change']:+.3f}"
            + (f" [{ends[0]:+.3f}, {ends[1]:+.3f}]" if ends and None not in ends else "")
        )
        lines.append(
            f"  {row['rater']:<{width}}  {row['units']:>6,}  {_number(row['pairwise_agreement']):>7}  "
            f"{_number(row['majority_agreement']):>7}  {_p(row['bias']['p']):>6}  {moved:<30}"
        )
    if len(raters) > shown:
        more = len(raters) - shown
        lines.append(f"  ... and {more:,} more rater{'s' if more != 1 else ''}")
    lines.append(
        "  vs rest: agreement with the other raters' ratings of the same units; vs maj.: with the majority "
        "of the others; bias p: chi-square of the rater's labels against the others' on the same units"
    )
    return lines + [""]


def _item_lines(result: dict, shown: int) -> list[str]:
    items = result.get("items") or {}
    if not items.get("units") or shown == 0:
        return []
    lines = [
        f"Items to adjudicate first ({items['units_disputed']:,} of {items['units_pairable']:,} pairable units "
        f"disputed; ranked by {items['ranked_by']}; all in items.csv)"
    ]
    listed = items["units"][:shown]
    width = max([len(u["unit"]) for u in listed] + [4])
    for unit in listed:
        votes = ", ".join(f"{c} {n}" for c, n in unit["votes"].items())
        lines.append(f"  {unit['unit']:<{width}}  {100 * unit['disagreeing_pairs']:>5.1f}% of pairs disagree  {votes}")
    return lines + [""]


def _confusion_lines(result: dict) -> list[str]:
    pooled = result.get("category_pairs")
    if not pooled:
        return []
    categories = pooled["categories"]
    said = []
    for k, category in enumerate(categories):
        shares = [
            (share, categories[j])
            for j, share in enumerate(pooled["row_shares"][k])
            if j != k and share is not None and share > 0
        ]
        if shares:
            share, other = max(shares)
            said.append(f"{category} -> {other} {100 * share:.0f}%")
    if not said:
        return []
    return _wrapped(
        "Most confused (for a rating, the share of its unit's other ratings in the most frequent other category):", said
    ) + [""]


def _icc_lines(result: dict) -> list[str]:
    found = result.get("icc") or {}
    if not found or "none" in found:
        return []
    parts = []
    for form, reading in found.items():
        if reading.get("value") is not None:
            low, high = reading["ci"]
            parts.append(
                f"{form} {reading['value']:.3f} [{low:.3f}, {high:.3f}], F {reading['F']:.2f}, p {_p(reading['p'])}"
            )
    n = next(iter(found.values()))["n_units"]
    return [f"ICC on the {n:,} complete units (numeric labels): " + "; ".join(parts), ""] if parts else []


def _source_line(result: dict) -> str:
    """ "reagree audit: FILE (long; columns unit=..., rater=..., label=...)"."""
    columns = result["columns"]
    if result["format"] == "wide":
        named = columns["raters"]
        described = f"wide; unit column {columns['unit']!r}; rater columns " + (
            ", ".join(named) if len(named) <= MANY_RATERS else f"{', '.join(named[:5])}, ... ({len(named):,} columns)"
        )
        if columns.get("majority"):
            described += f"; majority column {columns['majority']!r}"
    else:
        described = f"long; columns unit={columns['unit']!r}, rater={columns['rater']!r}, label={columns['label']!r}"
    return f"reagree audit: {result['source']} ({described})"


def _labels_line(result: dict) -> str:
    order = "in the given order" if result["ordered"] else "unordered"
    total = result["n_ratings"] or 1
    return f"labels ({order}): " + "  ".join(
        f"{c} {n:,} ({100 * n / total:.1f}%)" for c, n in result["label_distribution"].items()
    )


def _coefficient_lines(result: dict) -> list[str]:
    """The coefficients with their intervals, and how the intervals were drawn."""
    lines = ["Coefficients"]
    rows = coefficient_rows(result)
    width = max(len(r["what"]) for r in rows)
    lines.append(f"  {'':<{width}}  {'value':>9}  95% interval")
    for row in rows:
        ends = (row["ci_low"], row["ci_high"]) if row["ci_low"] is not None or row["ci_high"] is not None else None
        shown = _ci(ends) if ends else ""
        if row["value"] is None:
            shown = f"({row['note']})" if row["note"] else ""
        lines.append(f"  {row['what']:<{width}}  {_number(row['value']):>9}  {shown}")
    if result["ci"].get("resampled"):
        lines.append(f"  intervals: bootstrap over {result['ci']['resampled']}; {result['ci']['method']}")
    else:
        lines.append(f"  intervals: {result['ci']['method']}")
    return lines + [""]


#: What the one-screen text leaves to ``--full`` (and what --json and --out always hold).
MORE = (
    "more with --full: every rater, the pairs, analytic SEs and p, weighted coefficients, the ICC, per category, "
    "the ties; every number in --json and --out"
)


def render_screen(result: dict, max_items: int = 10, max_raters: int = 3) -> str:
    """The audit on one screen (about 40 lines), the most important line first: the
    headline, the design in two lines, the coefficients, the raters whose removal raises
    alpha most, the items to adjudicate first, the most confused categories and the
    reading; ``render_text`` has everything (``reagree audit --full``)."""
    lines: list[str] = []
    if result["n_units"]:
        lines.append(headline(result))
    lines.append(_source_line(result))
    lines.append("")
    missing = result["missing_share"]
    raters = f"{result['n_raters']:,} raters" + (f" ({result['design']['raters']})" if result.get("design") else "")
    lines.append(
        f"Design: {result['n_units']:,} units, {raters}, {result['n_ratings']:,} ratings, "
        f"{'-' if missing is None else f'{100 * missing:.1f}%'} of unit x rater cells missing; "
        f"{result['units_pairable']:,} units with two or more ratings, {result['units_complete']:,} "
        f"{_complete(result)}"
    )
    lines.append(_labels_line(result)[0].upper() + _labels_line(result)[1:])
    lines += [f"  note: {note}" for note in result["notes"]] + [f"  ! {problem}" for problem in result["problems"]]
    lines.append("")
    lines += _coefficient_lines(result)
    rater_lines = _rater_lines(result, max_raters)
    if rater_lines:  # the table without its key (--full has it)
        lines += [
            rater_lines[0]
            .replace("Per rater (the rater whose removal raises", "Raters (whose removal raises", 1)
            .replace(" in the JSON and raters.tsv)", " with --full, in the JSON and raters.tsv)")
        ]
        lines += rater_lines[1:-2] + [""]
    lines += _item_lines(result, max_items)
    lines += [line[2:] for line in _confusion_lines(result)]
    lines += textwrap.wrap(result["reading"], width=96)
    lines += ["", MORE]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def render_text(
    result: dict, max_ties: int = 20, max_pairs: int = 45, max_items: int = 10, max_raters: int = 10
) -> str:
    """The whole audit as text (plain, no colour), the most important line first:
    ``reagree audit --full`` and audit.txt (``render_screen`` is the one-screen default)."""
    lines: list[str] = []
    add = lines.append
    if result["n_units"]:
        add(headline(result))
    add(_source_line(result))
    add("")
    add("Design")
    missing = result["missing_share"]
    add(
        f"  units {result['n_units']:,}   raters {result['n_raters']:,}   ratings {result['n_ratings']:,}   "
        f"missing {'-' if missing is None else f'{100 * missing:.1f}%'} of unit x rater cells"
    )
    add(
        f"  units with two or more ratings {result['units_pairable']:,}; {_complete(result)} "
        f"{result['units_complete']:,}"
    )
    add(f"  {_labels_line(result)}")
    per_rater = result["ratings_per_rater"]
    if len(per_rater) <= MANY_RATERS:
        add("  ratings per rater: " + ", ".join(f"{r} {n}" for r, n in per_rater.items()))
    elif per_rater:
        counts = sorted(per_rater.values())
        add(
            f"  ratings per rater: {len(counts):,} raters, {counts[0]:,} to {counts[-1]:,} each (median "
            f"{counts[len(counts) // 2]:,}); every rater's count in the JSON (ratings_per_rater)"
        )
    if result.get("design"):
        add(f"  raters: {result['design']['raters']} ({result['design']['why']})")
    for note in result["notes"]:
        add(f"  note: {note}")
    for problem in result["problems"]:
        add(f"  ! {problem}")
    add("")

    plan = result.get("pairwise_plan", {"mode": "each"})
    if plan["mode"] == "summarised":
        lines += _summarised_pairs(result, plan, shown=10)
    elif plan["mode"] == "none" and result["n_units"]:
        add("Pairs of raters")
        add(f"  not computed: {plan['why']}")
        add("")
    elif result["pairwise"]:
        add("Pairs (units both labelled)")
        lines += _pair_lines(result["pairwise"][:max_pairs], intervals=True)
        if len(result["pairwise"]) > max_pairs:
            add(
                f"  ... and {len(result['pairwise']) - max_pairs} more pairs (all of them in the JSON and pairwise.tsv)"
            )
        add("")

    lines += _coefficient_lines(result)
    rows = coefficient_rows(result)
    if any(row["se"] is not None or row["se_null"] is not None for row in rows):
        lines += _analytic_lines(rows) + [""]
    lines += _weighted_lines(result)
    lines += _icc_lines(result)
    lines += _rater_lines(result, max_raters)
    lines += _item_lines(result, max_items)

    add(f"Per category (Fleiss kappa_j on the {_complete(result)}; specific agreement on pairable units)")
    width = max([len(c) for c in result["categories"]] + [8])
    add(
        f"  {'category':<{width}}  {'share':>6}  {'Fleiss kappa_j':>14}  {'95% interval':<16}  {'p':>6}  "
        f"{'specific':>8}  {'95% interval':<16}"
    )
    for category, entry in result["per_category"].items():
        share = "-" if entry["share"] is None else f"{100 * entry['share']:.1f}%"
        add(
            f"  {category:<{width}}  {share:>6}  {_number(entry.get('fleiss_kappa')):>14}  "
            f"{_ci(entry.get('fleiss_kappa_ci')):<16}  {_p(entry.get('fleiss_kappa_p')):>6}  "
            f"{_number(entry.get('specific_agreement')):>8}  {_ci(entry.get('specific_agreement_ci')):<16}"
        )
    if any(entry.get("fleiss_kappa_se_null") is not None for entry in result["per_category"].values()):
        se_null = next(
            e["fleiss_kappa_se_null"]
            for e in result["per_category"].values()
            if e.get("fleiss_kappa_se_null") is not None
        )
        add(
            f"  p: kappa_j = 0 tested with its standard error under that null, {se_null:.4f} for every category "
            "(Fleiss, Nee & Landis 1979; R irr's kappam.fleiss detail)"
        )
    lines += _confusion_lines(result)[:-1]
    if not result["problems"]:
        for category in result["per_category"]:
            for field, name in (("fleiss_kappa", "Fleiss kappa_j"), ("specific_agreement", "specific agreement")):
                reason = result["undefined"].get(f"per_category.{category}.{field}")
                if reason:
                    add(f"  {category}: {name} undefined: {reason}")
    add("")

    ties = result["ties"]
    add(f"Majority vote and ties (tie rule: {ties['rule']})")
    if not ties.get("units_voted"):
        add("  no unit has a rating")
    else:
        kinds = "; ".join(f"{kind} {n:,}" for kind, n in ties["kinds"].items())
        add(f"  {ties['count']:,} of {ties['units_voted']:,} units tie" + (f": {kinds}" if kinds else ""))
        if ties["count"]:
            add(f"  the rule {ties['rule']!r} gave the tied units: {_tally_text(ties['rule_gave'])}")
        if "column" in ties:
            if ties["count"]:
                add(f"  the column {ties['column']!r} gave them: {_tally_text(ties['column_gave'])}")
            add(
                f"  the column {ties['column']!r} differs from the plurality on {ties['column_differs_on_untied']} "
                "untied unit(s)"
                + (
                    ": " + ", ".join(ties["column_differs_on_untied_units"][:10])
                    if ties["column_differs_on_untied"]
                    else ""
                )
            )
        majority = result["majority"]
        add(f"  majority labels under the rule: {_tally_text(majority['rule'])}")
        if "column" in majority:
            add(f"  majority labels in the column:  {_tally_text(majority['column'])}")
        if ties["units"]:
            shown = ties["units"][:max_ties]
            width = max([12] + [len(unit["unit"]) for unit in shown])
            header = f"  {'unit':<{width}}  {'votes':<28}  {'rule':<10}"
            if "column" in ties:
                header += f"  {'column':<10}"
            add(header)
            for unit in shown:
                votes = ", ".join(f"{c} {n}" for c, n in unit["votes"].items())
                line = f"  {unit['unit']:<{width}}  {votes:<28}  {unit['rule'] or '(no label)':<10}"
                if "column" in ties:
                    line += f"  {unit.get('column') or '(none)':<10}"
                add(line)
            if len(ties["units"]) > max_ties:
                add(f"  ... and {len(ties['units']) - max_ties:,} more (all of them in the JSON and ties.tsv)")
    add("")
    add("Reading")
    lines += textwrap.wrap(result["reading"], width=96, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def provenance(result: dict) -> dict:
    """Where an audit's numbers come from, for the tables' Markdown footers."""
    settings = result["settings"]
    return {
        "source": result["source"],
        "sha256": result.get("sha256", "(not recorded)"),
        "format": result["format"],
        "columns": result["columns"],
        "level": settings["level"],
        "order": settings.get("order") or "(none)",
        "tie rule": settings["tie_rule"],
        "intervals": result["ci"]["method"],
        "reagree": result["reagree_version"],
    }
