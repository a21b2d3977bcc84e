"""Keys declared once per paper (reagree.pipeline.keys and each paper's <id>/keys.py):
keys are built from declared families, a value whose key no family declares is refused,
every declared family is used, and a claim key leads to its rule and its function."""

from __future__ import annotations

import ast
import importlib
import re

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT
from reagree.pipeline.keys import KeyGrammar, function_name, key_part, resolve_function
from reagree.pipeline.paper import check_rule, paper_code
from reagree.pipeline.paperspec import load_paper
from reagree.pipeline.tables import read_values, write_values
from reagree.stats import multirater
from reagree.stats.bootstrap import Interval

from test_paper_pattern import PAPERS, PAPERS_DIR, rules_of


def grammar() -> KeyGrammar:
    keys = KeyGrammar("demo", slots={"rater": ["a", "b"], "run": r"[0-9]+", "framing": ["three_class"]})
    keys.rule("compute_demo_values").family("kappa.{rater}.{framing}", multirater.fleiss_kappa)
    keys.rule("compute_demo_values").family("kappa.human.run{x:run}_run{y:run}", "reagree.stats.pairwise.cohen_kappa")
    return keys


# The claim key grammar of workflow/schemas/paper.schema.yaml, read from it (not typed here).
def key_grammar() -> re.Pattern:
    import yaml

    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "paper.schema.yaml").read_text(encoding="utf-8"))
    return re.compile(schema["$defs"]["claim"]["properties"]["key"]["pattern"])


def test_a_label_becomes_a_key_part_the_key_grammar_accepts():
    # by hand: lower case, every run of spaces and punctuation one _, none at the ends
    cases = {
        "personality disorder": "personality_disorder",
        "Very Low": "very_low",
        "3-3 split": "3_3_split",
        " neg/neu ": "neg_neu",
        "x": "x",
        "n.a.": "n_a",
        "naïve": "na_ve",
        4: "4",
    }
    assert {label: key_part(label) for label in cases} == cases
    grammar = key_grammar()
    assert not grammar.fullmatch("count.labels.personality disorder")  # the label as printed fails the grammar
    assert all(grammar.fullmatch(f"count.labels.{part}") for part in cases.values())
    # a slot of key parts holds the label's part; a key built through it passes the grammar
    keys = KeyGrammar("demo", slots={"category": [key_part(label) for label in ("personality disorder", "none")]})
    family = keys.rule("compute_demo_values").family("count.labels.{category}", "reagree.stats.majority.label_counts")
    assert family.key(category=key_part("personality disorder")) == "count.labels.personality_disorder"


@pytest.mark.parametrize("label", ["", "  ", "--", "?!", "ü"])
def test_a_label_without_a_letter_or_digit_has_no_key_part(label):
    with pytest.raises(ValueError, match="has no letter or digit, so no key part can be made from it"):
        key_part(label)


def test_a_family_builds_its_keys_and_refuses_undeclared_values():
    kappa, pair = grammar().families
    assert kappa.key(rater="a", framing="three_class") == "kappa.a.three_class"
    assert pair.key(x=1, y=3) == "kappa.human.run1_run3"
    with pytest.raises(ValueError, match=r"key kappa.\{rater\}.\{framing\}: rater='c' is not a declared rater"):
        kappa.key(rater="c", framing="three_class")
    with pytest.raises(ValueError, match=r"fields \['rater'\] given, \['framing', 'rater'\] declared"):
        kappa.key(rater="a")
    with pytest.raises(ValueError, match="x='one' is not a declared run"):
        pair.key(x="one", y=3)


def test_a_row_carries_its_family_s_rule_and_function():
    kappa = grammar().families[0]
    row = kappa.row(0.5, rater="b", framing="three_class", note="by hand")
    assert (row["key"], row["value"], row["note"]) == ("kappa.b.three_class", 0.5, "by hand")
    assert row["rule"] == "compute_demo_values" and row["function"] == "reagree.stats.multirater.fleiss_kappa"


def test_a_grammar_refuses_unknown_slots_reserved_fields_and_repeats():
    keys = grammar()
    with pytest.raises(ValueError, match="no slot 'colour'"):
        keys.family("x.{colour}", "m.f", "r")
    with pytest.raises(ValueError, match="reserved or repeated"):
        keys.family("x.{note:rater}", "m.f", "r")
    with pytest.raises(ValueError, match="declared twice"):
        keys.family("kappa.{rater}.{framing}", "m.f", "r")


def test_a_value_whose_key_no_family_declares_is_refused():
    keys = grammar()
    rows = [keys.families[0].row(0.4, rater="a", framing="three_class")]
    keys.check(rows)
    undeclared = rows + [{"key": "kappa.c.three_class", "rule": "compute_demo_values", "function": ""}]
    with pytest.raises(
        ValueError,
        match=r"demo: value key\(s\) no family of workflow/papers/demo/demo/keys.py "
        r"declares: \['kappa.c.three_class'\]",
    ):
        keys.check(undeclared)
    wrong_rule = [dict(rows[0], rule="plot_demo_figure")]
    with pytest.raises(ValueError, match="written by 'plot_demo_figure'.*declared for 'compute_demo_values'"):
        keys.check(wrong_rule)
    # a function moved since an earlier build wrote the row (its rule's script unchanged): the rule to run again
    moved = [dict(rows[0], function="reagree.stats.annotations.Annotations.top_raters_percent")]
    with pytest.raises(ValueError, match=r"run their rule\(s\) again: snakemake --forcerun compute_demo_values$"):
        keys.check(moved)


def test_a_key_two_families_match_is_an_error():
    keys = grammar()
    keys.rule("compute_demo_values").family("kappa.a.{framing}", multirater.fleiss_kappa)
    with pytest.raises(ValueError, match="matches several families"):
        keys.family_of("kappa.a.three_class")


def test_a_rule_cannot_write_keys_declared_for_another(tmp_path):
    row = grammar().families[0].row(0.4, rater="a", framing="three_class")
    write_values([row], tmp_path / "ok.tsv", rule="compute_demo_values")
    written = read_values(tmp_path / "ok.tsv")
    assert written.loc[0, "rule"] == "compute_demo_values"
    assert written.loc[0, "function"] == "reagree.stats.multirater.fleiss_kappa"
    with pytest.raises(ValueError, match="rule plot_demo writes key.* declared for another rule"):
        write_values([row], tmp_path / "bad.tsv", rule="plot_demo")
    assert not (tmp_path / "bad.tsv").exists()


def test_function_names_resolve_back_to_the_function():
    assert function_name(multirater.fleiss_kappa) == "reagree.stats.multirater.fleiss_kappa"
    assert function_name(Interval.width) == "reagree.stats.bootstrap.Interval.width"
    assert resolve_function("reagree.stats.multirater.fleiss_kappa") is multirater.fleiss_kappa
    assert resolve_function("reagree.stats.bootstrap.Interval.width") is Interval.width
    with pytest.raises(ValueError, match="no module holds"):
        resolve_function("reagree.stats.multirater.no_such_function")


# --------------------------------------------------------------------------- the four papers


def referenced_names(paper: str) -> set[str]:
    """Names of the paper's keys module that its rule code uses (``keys.NAME`` or
    ``from <id>.keys import NAME``), read from the syntax trees of its rule scripts and of
    the package modules the scripts call."""
    names = set()
    folder = PAPERS_DIR / paper
    code = [*(folder / "scripts").glob("*.py"), *(p for p in (folder / paper).glob("*.py") if p.name != "keys.py")]
    for script in code:
        tree = ast.parse(script.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "keys":
                names.add(node.attr)
            if isinstance(node, ast.ImportFrom) and node.module == f"{paper}.keys":
                names |= {alias.name for alias in node.names}
    return names


def families_under(value, seen=None) -> list:
    """The families a module-level name holds (itself, or inside a dict or an object)."""
    from reagree.pipeline.keys import Family

    if isinstance(value, Family):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in families_under(v)]
    if hasattr(value, "__dict__") and type(value).__module__.endswith(".keys"):
        return [f for v in vars(value).values() for f in families_under(v)]
    return []


@pytest.mark.parametrize("paper", PAPERS)
def test_every_family_names_a_rule_of_its_paper_and_a_function_that_exists(paper):
    keys = paper_code(paper).keys
    # its rules.smk's, and the generic check rule when its PAPER declares relations
    rules = [*rules_of(paper), *[check_rule(paper)] * bool(paper_code(paper).relations)]
    assert keys.paper == paper and keys.families
    for family in keys.families:
        assert family.rule in rules, (family.pattern, family.rule)
        found = resolve_function(family.function)
        assert callable(found) or isinstance(found, property), family.function
        assert function_name(found) == family.function


@pytest.mark.parametrize("paper", PAPERS)
def test_every_checkable_claim_key_is_declared_once(paper):
    claims = load_paper(PAPERS_DIR / paper / "paper.yaml")["claims"]
    keys = paper_code(paper).keys
    undeclared = [
        c["key"]
        for c in claims
        if not (c.get("uncheckable") or c.get("not_recomputed")) and keys.family_of(c["key"]) is None
    ]
    assert not undeclared, undeclared


@pytest.mark.parametrize("paper", PAPERS)
def test_every_declared_family_is_used_by_a_claim_or_written_by_a_script(paper):
    module = importlib.import_module(f"{paper}.keys")
    claim_keys = [c["key"] for c in load_paper(PAPERS_DIR / paper / "paper.yaml")["claims"]]
    written = {id(f) for name in referenced_names(paper) for f in families_under(getattr(module, name, None))}
    unused = [f.pattern for f in module.KEYS.unused(claim_keys) if id(f) not in written]
    assert not unused, f"{paper}: families no claim uses and no rule writes: {unused}"


def test_a_claim_leads_to_its_rule_and_its_function():
    """The trace docs/adding-a-paper.md shows: key -> family -> (rule, function)."""
    family = paper_code("jayanetti2026").keys.family_of("fleiss.humans.three_class")
    assert family.rule == "score_jayanetti2026_released"
    assert family.function == "reagree.stats.multirater.fleiss_kappa"
    assert re.search(rf"^rule {family.rule}:", (PAPERS_DIR / "jayanetti2026" / "rules.smk").read_text(), flags=re.M)


def test_the_values_of_a_build_are_declared(tmp_path):
    """What gather_values checks, on a values table shaped like a build's."""
    keys = paper_code("agreement_before_accuracy").keys
    family = keys.family_of("kappa.table2x2")
    rows = [family.row(0.176, reading="kappa"), family.row(240, reading="n")]
    write_values(rows, tmp_path / "values.tsv", rule=family.rule)
    keys.check(read_values(tmp_path / "values.tsv").to_dict("records"))
    bad = pd.DataFrame([{**rows[0], "key": "kappa.table3x3"}])
    with pytest.raises(ValueError, match=r"\['kappa.table3x3'\]"):
        keys.check(bad.to_dict("records"))
    assert np.isfinite(read_values(tmp_path / "values.tsv")["value"]).all()
