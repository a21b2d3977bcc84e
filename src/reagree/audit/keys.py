"""An audit as values.tsv rows: its keys declared once (``reagree.pipeline.keys``), each
family with the one function that computes it.

Grammar: ``<measure>.<who>[.<qualifier>]``, ``who`` naming the table's raters
(``raters``, ``humans``, ...): ``agreement``, ``fleiss``, ``fleiss_gwet``, ``alpha_<level>``,
``ac1``, ``pabak``, ``conger`` (the registry's coefficients, ``reagree.stats.registry``, each
with the field library's value in the reference columns), ``se.<coefficient>`` (each
analytic standard error, with the library's) and ``kappa.<who>.mean_of_pairs`` for the
whole table; ``fleiss_category`` and
``specific_agreement`` per category; ``kappa`` and ``agreement`` per pair of raters
(``kappa.<a>_<b>``); ``count.*`` for units, complete units, ratings, ties and majority
labels; ``percent.missing``. A label or rater id becomes a key segment by ``slug``. The
families name no rule: the rule that writes the rows is the one whose script calls
``value_rows`` (``reagree.pipeline.tables.write_values`` fills it in).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from reagree.audit.read import read_table
from reagree.pipeline.keys import KeyGrammar
from reagree.stats import classification, gwet, multirater
from reagree.stats.alpha import LEVELS, alpha_statistic
from reagree.stats.majority import majority_vote, tied_units
from reagree.stats.meanpairwise import mean_pairwise_cohen_statistic
from reagree.stats.pairwise import cohen_statistic
from reagree.stats.ratings import Ratings
from reagree.stats.undefined import Undefined

__all__ = [
    "AC1",
    "AGREEMENT",
    "ALPHA",
    "COMPLETE_UNITS",
    "CONGER",
    "FLEISS",
    "FLEISS_CATEGORY",
    "FLEISS_GWET",
    "KEYS",
    "MAJORITY",
    "MAJORITY_COLUMN",
    "MEAN_OF_PAIRS",
    "MISSING",
    "PABAK",
    "PAIR_AGREEMENT",
    "PAIR_KAPPA",
    "RATINGS",
    "REGISTRY_FAMILIES",
    "SLUG",
    "SPECIFIC_AGREEMENT",
    "STANDARD_ERROR",
    "TIES",
    "UNITS",
    "slug",
    "value_rows",
]

SLUG = r"[a-z0-9_+-]+"

KEYS = KeyGrammar("audit", slots={"who": SLUG, "level": LEVELS, "category": SLUG, "rater": SLUG, "coefficient": SLUG})
_any_rule = KEYS.rule("")  # the rule whose script calls value_rows
AGREEMENT = _any_rule.family("agreement.{who}", multirater.percent_agreement_statistic)
FLEISS = _any_rule.family("fleiss.{who}", multirater.fleiss_statistic)
AC1 = _any_rule.family("ac1.{who}", multirater.gwet_ac1_statistic)
PABAK = _any_rule.family("pabak.{who}", multirater.brennan_prediger_statistic)
MEAN_OF_PAIRS = _any_rule.family("kappa.{who}.mean_of_pairs", mean_pairwise_cohen_statistic)
UNITS = _any_rule.family("count.units.{who}", read_table)
COMPLETE_UNITS = _any_rule.family("count.complete_units.{who}", Ratings.complete)
RATINGS = _any_rule.family("count.ratings.{who}", Ratings.unit_counts)
TIES = _any_rule.family("count.ties.{who}", tied_units)
MISSING = _any_rule.family("percent.missing.{who}", Ratings.missing_share)
MAJORITY = _any_rule.family("count.majority.{who}.{category}", majority_vote)
MAJORITY_COLUMN = _any_rule.family("count.majority_column.{who}.{category}", read_table)
ALPHA = _any_rule.family("alpha_{level}.{who}", alpha_statistic)
FLEISS_CATEGORY = _any_rule.family("fleiss_category.{who}.{category}", multirater.fleiss_category_statistic)
SPECIFIC_AGREEMENT = _any_rule.family("specific_agreement.{who}.{category}", multirater.specific_agreement_statistic)
FLEISS_GWET = _any_rule.family("fleiss_gwet.{who}", gwet.weighted_statistic)
CONGER = _any_rule.family("conger.{who}", gwet.conger)
# Analytic standard errors: the reference columns hold the library's own (irrCAC's ``se``).
STANDARD_ERROR = _any_rule.family("se.{coefficient:coefficient}.{who}", gwet.estimate)
PAIR_KAPPA = _any_rule.family("kappa.{a:rater}_{b:rater}", cohen_statistic)
PAIR_AGREEMENT = _any_rule.family("agreement.{a:rater}_{b:rater}", classification.accuracy)
# The family of each coefficient of the registry (reagree.stats.registry); alpha's is ALPHA
# at its level. A coefficient added to the registry needs its family here (a test holds this).
REGISTRY_FAMILIES = {
    "percent_agreement": AGREEMENT,
    "fleiss_kappa": FLEISS,
    "fleiss_kappa_gwet": FLEISS_GWET,
    "gwet_ac1": AC1,
    "pabak": PABAK,
    "conger_kappa": CONGER,
}


def slug(text: str) -> str:
    """A key segment: lowercase, anything outside [a-z0-9_+-] as "_"."""
    return re.sub(r"[^a-z0-9_+-]+", "_", str(text).strip().lower()).strip("_") or "_"


@dataclass(frozen=True)
class _Ends:
    """An interval as values.tsv needs it (``reagree.pipeline.tables.value_row(interval=...)``)."""

    low: float
    high: float
    scheme: str
    undefined_draws: int


def value_rows(result: dict, who: str = "raters") -> list[dict]:
    """An audit (``reagree.audit.audit``'s result) as values.tsv rows under the families
    above; each value carries its bootstrap interval and scheme."""
    who = slug(who)
    ci, reasons = result["ci"], result["undefined"]
    undefined_draws = ci.get("undefined_draws", {})

    references = result.get("references", {})

    def reference(name: str, field: str = "value"):
        """The field library's value (or se) of the registry's coefficient, for the reference columns."""
        found = references.get(name)
        if not found or found.get(field) is None:
            return None
        return (found["library"] + (" se" if field == "se" else ""), found[field])

    def row(family, value, ends=None, draws_key=None, reason_key=None, note="", reference=None, **fields):
        value = Undefined(reasons.get(reason_key, "undefined")) if value is None else value
        interval = None
        if ends is not None:
            low, high = (math.nan if end is None else end for end in ends)
            interval = _Ends(low, high, ci["method"], undefined_draws.get(draws_key, 0))
        return family.row(value, interval=interval, note=note, reference=reference, **fields)

    coefficients = result["coefficients"]
    notes = {
        "percent_agreement": "mean share of agreeing rating pairs",
        "fleiss_kappa": f"{coefficients['fleiss_n_units']} "
        f"{result.get('complete_means', 'units every rater labelled')}",
    }
    rows = []
    for name in result.get("coefficient_labels", {}):  # the registry's coefficients that apply, in its order
        if name.startswith("krippendorff_alpha."):
            level = name.split(".", 1)[1]
            rows.append(
                row(
                    ALPHA,
                    coefficients["krippendorff_alpha"].get(level),
                    ci.get("krippendorff_alpha", {}).get(level),
                    name,
                    f"coefficients.{name}",
                    reference=reference(name),
                    level=level,
                    who=who,
                )
            )
        else:
            rows.append(
                row(
                    REGISTRY_FAMILIES[name],
                    coefficients.get(name),
                    ci.get(name),
                    name,
                    f"coefficients.{name}",
                    notes.get(name, ""),
                    reference=reference(name),
                    who=who,
                )
            )
    rows += [
        row(
            MEAN_OF_PAIRS,
            coefficients["mean_pairwise_cohen"],
            ci.get("mean_pairwise_cohen"),
            "mean_pairwise_cohen",
            "coefficients.mean_pairwise_cohen",
            "Light's kappa: mean Cohen's kappa over pairs",
            who=who,
        ),
        UNITS.row(result["n_units"], who=who),
        COMPLETE_UNITS.row(coefficients["fleiss_n_units"], who=who),
        RATINGS.row(result["n_ratings"], who=who),
        TIES.row(result["ties"]["count"], who=who, note="units whose top vote count is shared"),
        MISSING.row(math.nan if result["missing_share"] is None else 100 * result["missing_share"], who=who),
    ]
    for label, count in result.get("majority", {}).get("rule", {}).items():
        if label != "no label":
            rows.append(
                MAJORITY.row(
                    count,
                    who=who,
                    category=slug(label),
                    note=f"units whose majority label is {label} (tie rule {result['ties']['rule']})",
                )
            )
    for label, count in result.get("majority", {}).get("column", {}).items():
        if label != "no label":
            rows.append(
                MAJORITY_COLUMN.row(
                    count,
                    who=who,
                    category=slug(label),
                    note=f"units the column {result['ties'].get('column')} labels {label}",
                )
            )
    for category, entry in result["per_category"].items():
        for family, field in ((FLEISS_CATEGORY, "fleiss_kappa"), (SPECIFIC_AGREEMENT, "specific_agreement")):
            path = f"per_category.{category}.{field}"
            rows.append(
                row(family, entry.get(field), entry.get(f"{field}_ci"), path, path, who=who, category=slug(category))
            )
    for name, analytic in result.get("inference", {}).items():
        if analytic.get("se") is not None:
            rows.append(
                STANDARD_ERROR.row(
                    analytic["se"],
                    who=who,
                    coefficient=slug(name),
                    note=analytic["method"],
                    reference=reference(name, "se"),
                )
            )
    for pair in result["pairwise"]:
        names = {"a": slug(pair["a"]), "b": slug(pair["b"])}
        path = f"pairwise.{pair['a']}-{pair['b']}.cohen_kappa"
        rows.append(
            row(
                PAIR_KAPPA,
                pair["cohen_kappa"],
                pair.get("cohen_kappa_ci"),
                path,
                path,
                f"{pair['n']} units both labelled",
                **names,
            )
        )
        rows.append(
            row(
                PAIR_AGREEMENT,
                pair["percent_agreement"],
                None,
                None,
                f"pairwise.{pair['a']}-{pair['b']}.percent_agreement",
                **names,
            )
        )
    return rows
