"""What a rule's one function returns and how a thin script writes it (rulekit.RuleOutputs,
tables.Table), a paper's own variant families (variantplan.VariantPlan), and the defaults
that live in the schema alone. Expected files and values are written out by hand here."""

from __future__ import annotations

import inspect
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from reagree.pipeline.rulekit import RuleOutputs, write_outputs
from reagree.pipeline.tables import Table, read_values
from reagree.pipeline.variantplan import VariantPlan, read_variants, variant_rows
from reagree.stats.bootstrap import Interval, half_width
from reagree.stats.variants import Family, Variant


def snakemake_job(tmp_path, rule="compute_demo_values", **outputs):
    """What a rule script sees: its rule's name and its named outputs."""
    return SimpleNamespace(
        rule=rule, output=SimpleNamespace(**{name: str(tmp_path / path) for name, path in outputs.items()})
    )


def test_a_table_is_written_as_tsv_and_markdown_with_its_title_and_provenance(tmp_path):
    Table(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), "Two rows", {"paper": "demo", "seed": 7}).write(
        tmp_path / "t.tsv"
    )
    assert (tmp_path / "t.tsv").read_text() == "a\tb\n1\tx\n2\ty\n"
    markdown = (tmp_path / "t.md").read_text().splitlines()
    assert markdown[0] == "# Two rows"
    assert markdown[-2:] == ["- paper: demo", "- seed: 7"]


def test_every_part_goes_to_the_output_of_its_name(tmp_path):
    job = snakemake_job(tmp_path, values="values.tsv", variants="variants.tsv", table="table.tsv", frame="frame.tsv")
    outputs = RuleOutputs(
        values=[{"key": "b.two", "value": 2.0}, {"key": "a.one", "value": 1.0}],
        variants=variant_rows("a.one", "counting", {"count.items": 1, "count.label_pairs": 3}, own="count.items"),
        tables={"table": Table(pd.DataFrame({"n": [3]}), "T", {"paper": "demo"})},
        frames={"frame": pd.DataFrame({"k": ["v"]})},
    )
    write_outputs(outputs, job)
    values = read_values(tmp_path / "values.tsv")
    assert values["key"].tolist() == ["a.one", "b.two"]  # sorted by key, as write_values writes
    assert set(values["rule"]) == {"compute_demo_values"}  # the rule's name fills the rule column
    variants = read_variants(tmp_path / "variants.tsv")
    assert variants[["variant", "value", "own"]].values.tolist() == [
        ["count.items", 1.0, "yes"],
        ["count.label_pairs", 3.0, ""],
    ]
    assert (tmp_path / "table.md").read_text().startswith("# T\n")
    assert (tmp_path / "frame.tsv").read_text() == "k\nv\n"


def test_a_rule_writes_only_what_it_returned(tmp_path):
    job = snakemake_job(tmp_path, table="table.tsv")
    write_outputs(RuleOutputs(tables={"table": Table(pd.DataFrame({"n": [1]}), "T", {})}), job)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.md", "table.tsv"]


def test_a_value_declared_for_another_rule_is_refused_naming_both(tmp_path):
    job = snakemake_job(tmp_path, values="values.tsv")
    with pytest.raises(ValueError, match="rule compute_demo_values writes key.*declared for another rule.*other_rule"):
        write_outputs(RuleOutputs(values=[{"key": "a", "value": 1.0, "rule": "other_rule"}]), job)
    assert not (tmp_path / "values.tsv").exists()


# --- a paper's own variant family --------------------------------------------------------------


def _expectations(sequences, seed, draws):
    return {"expected.exact": 1.0, "expected.seeded": 2.0}


OWN = Family("own_chance", "a chance level exact or seeded", _expectations, ("expected.exact", "expected.seeded"))
OWN_VARIANTS = [
    Variant("expected.exact", "own_chance", "every draw averaged", _expectations),
    Variant("expected.seeded", "own_chance", "the authors' seeded draws", _expectations),
]


def test_a_paper_declares_a_family_of_its_own_beside_the_catalogue():
    plan = VariantPlan("demo", {"own_chance": ["lag.*"], "counting": "count.*"}, families=[OWN], variants=OWN_VARIANTS)
    assert plan.families_for("lag.x") == ["own_chance"]
    assert plan.describe("expected.seeded") == "the authors' seeded draws"  # the plan's own reading
    assert plan.describe("count.items") == "items labelled two or more times"  # the catalogue's
    with pytest.raises(ValueError, match="no variant 'expected.other'"):
        plan.describe("expected.other")


def test_a_family_the_plan_does_not_declare_is_still_refused():
    with pytest.raises(ValueError, match=r"variant family \['own_chance'\] not in the catalogue"):
        VariantPlan("demo", {"own_chance": ["lag.*"]})
    with pytest.raises(ValueError, match=r"nor the plan's own \(\['own_chance'\]\)"):
        VariantPlan("demo", {"other": ["lag.*"]}, families=[OWN])


def test_a_paper_family_cannot_take_a_catalogue_name_or_own_a_stray_variant():
    with pytest.raises(ValueError, match=r"own variant families \['counting'\] have the names of catalogue"):
        VariantPlan("demo", {}, families=[Family("counting", "again", _expectations, None)])
    with pytest.raises(ValueError, match=r"variants \['expected.exact'\] name no family the plan declares"):
        VariantPlan("demo", {}, variants=OWN_VARIANTS[:1])


def test_the_chance_expectation_family_is_shvets2026s_own_not_the_catalogues():
    from reagree.stats.variants import FAMILIES
    from shvets2026.variants import PLAN

    assert "chance_expectation" not in FAMILIES
    assert set(PLAN.families) == {"chance_expectation"}
    assert PLAN.describe("expected.python_random").startswith("the authors' Monte Carlo estimate")


# --- half the width of an interval ----------------------------------------------------------------


def test_half_width_is_half_the_distance_between_the_ends():
    interval = Interval(0.25, 0.75, 0.95, 100, 0, "percentile; draws=100; seed=0; level=0.95")
    assert half_width(interval) == 0.25  # (0.75 - 0.25) / 2
    undefined = Interval(float("nan"), 0.75, 0.95, 100, 90, "percentile; draws=100; seed=0; level=0.95")
    assert math.isnan(half_width(undefined))


# --- each default in the schema alone ---------------------------------------------------------------


def test_settings_the_schema_defaults_are_required_arguments_in_the_code():
    """A default the config or a paper's settings schema states is not stated again in a
    signature: the callers pass the setting (draws and tie rule, bootstrap level, fetch
    timeout and retries, smoothing, excerpt length, model, fractional lines, lags)."""
    from jayanetti2026 import toolrerun
    from reagree.methods import phaseshift
    from reagree.pipeline import fetch
    from reagree.stats import bootstrap, majority, reference, softlabel
    from shvets2026 import segments, streams

    required = [
        (majority.majority_vote, "tie_rule"),
        (bootstrap.bootstrap_interval, "level"),
        (bootstrap.bootstrap_intervals, "level"),
        (bootstrap.paired_difference, "level"),
        (bootstrap.interval_from_draws, "level"),
        (bootstrap.percentile_interval, "level"),
        (reference.spread, "level"),
        (fetch.fetch, "timeout"),
        (fetch.fetch, "retries"),
        (fetch.fetch_all, "timeout"),
        (fetch.fetch_all, "retries"),
        (softlabel.cross_entropy_statistic, "smoothing"),
        (softlabel.label_distribution, "smoothing"),
        (toolrerun.excerpt, "characters"),
        (toolrerun.roberta_labels, "model"),
        (segments.read_run, "fractional_lines"),
        (segments.parse_run, "fractional_lines"),
        (segments.parse_line_number, "fractional_lines"),
        (phaseshift.lag_counts, "max_lag"),
        (phaseshift.boundary_placement, "windows"),
        (phaseshift.units_far_from_boundaries, "distance"),
        (streams.replayed_lag_counts, "max_lag"),
    ]
    defaulted = [
        f"{function.__module__}.{function.__name__}({name}=...)"
        for function, name in required
        if inspect.signature(function).parameters[name].default is not inspect.Parameter.empty
    ]
    assert not defaulted, defaulted


def test_the_config_schema_states_each_bootstrap_and_fetch_default_once():
    from reagree.pipeline.settings import fill_defaults, load_schema, schema_path

    schema = load_schema(schema_path("config"))
    for section in ("bootstrap", "fetch"):
        assert schema["properties"][section]["default"] == {}
    filled = fill_defaults({"papers": [], "mirror": None}, schema)
    assert filled["bootstrap"] == {"draws": 2000, "seed": 0, "level": 0.95}  # from the fields' own defaults
    again = fill_defaults({"papers": [], "mirror": None}, schema)
    again["bootstrap"]["draws"] = 5
    assert filled["bootstrap"]["draws"] == 2000 and schema["properties"]["bootstrap"]["default"] == {}


def test_the_audit_options_take_their_defaults_from_the_dataset_schema(monkeypatch):
    from reagree import cli

    real = cli._dataset_defaults()
    assert (real["tie_rule"], real["level"], real["format"]) == ("drop", "nominal", "long")
    monkeypatch.setattr(cli, "_dataset_defaults", lambda: {**real, "tie_rule": "neutral", "unit": "item"})
    audit = cli._parser()._subparsers._group_actions[0].choices["audit"]
    assert audit.get_default("tie_rule") == "neutral" and audit.get_default("unit") == "item"
    assert np.isfinite(audit.get_default("ci_level"))


# --- rule scripts are thin -------------------------------------------------------------------------


def test_every_rule_script_reads_calls_one_function_and_writes():
    """A rule script (scripts/*.py and each paper's scripts/*.py) defines no function or
    class, loops over nothing and builds no value row: what it computes is a function of
    the paper's package or the library that tests can import."""
    import ast

    from conftest import ROOT

    scripts = sorted([*(ROOT / "scripts").glob("*.py"), *(ROOT / "workflow" / "papers").glob("*/scripts/*.py")])
    assert len(scripts) > 30
    thick = []
    for script in scripts:
        tree = ast.parse(script.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.While)):
                thick.append(f"{script.relative_to(ROOT)}:{node.lineno}: {type(node).__name__}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "row":
                thick.append(f"{script.relative_to(ROOT)}:{node.lineno}: builds a value row")
    assert not thick, thick
