"""The configuration: strict keys, defaults from the schemas, command-line strings typed."""
import pytest

from reagree.pipeline.settings import coerce_strings, load_schema, resolve_config, schema_path

from conftest import FIXTURES, ROOT

WORKFLOW = ROOT / "workflow"


def minimal(**extra):
    return {"papers": ["agreement_before_accuracy"], "mirror": None, "bootstrap": {"draws": 100, "seed": 1}, **extra}


def test_defaults_come_from_the_schema():
    config = resolve_config(minimal(), WORKFLOW)
    assert config["bootstrap"] == {"draws": 100, "seed": 1, "level": 0.95}
    assert config["fetch"] == {"timeout": 60, "retries": 3}
    assert config["datasets"] == {}


def test_command_line_strings_become_the_types_the_schema_wants():
    schema = load_schema(schema_path("config"))
    coerced = coerce_strings({"bootstrap": {"draws": "500", "seed": "0", "level": "0.9"}, "mirror": "null",
                              "papers": ["jayanetti2026"]}, schema)
    assert coerced == {"bootstrap": {"draws": 500, "seed": 0, "level": 0.9}, "mirror": None,
                       "papers": ["jayanetti2026"]}
    assert coerce_strings({"bootstrap": {"draws": "many"}}, schema) == {"bootstrap": {"draws": "many"}}
    assert coerce_strings({"bootstrap": {"draws": "2000.0"}}, schema) == {"bootstrap": {"draws": "2000.0"}}


def test_unknown_keys_are_refused_with_a_suggestion():
    with pytest.raises(ValueError, match=r"'mirorr' \(did you mean 'mirror'\?\)"):
        resolve_config(minimal(mirorr="x"), WORKFLOW)


@pytest.mark.parametrize("bad, message", [
    ({"bootstrap": {"draws": 2000.5, "seed": 0}}, "bootstrap.draws"),
    ({"bootstrap": {"draws": 10 ** 9, "seed": 0}}, "bootstrap.draws"),
    ({"fetch": {"timeout": 0}}, "fetch.timeout"),
    ({"papers": "jayanetti2026"}, "papers"),
])
def test_wrong_values_name_the_key(bad, message):
    with pytest.raises(ValueError, match=message):
        resolve_config({**minimal(), **bad}, WORKFLOW)


def test_a_paper_key_is_its_settings_validated_by_its_own_schema(tmp_path):
    import shutil

    workflow = tmp_path / "workflow"
    shutil.copytree(WORKFLOW, workflow)
    shutil.copytree(FIXTURES / "demo_paper", workflow / "papers" / "demo")
    config = resolve_config(minimal(demo={"parts": ["a"]}), workflow)
    assert config["demo"] == {"parts": ["a"]}
    assert resolve_config(minimal(), workflow)["demo"] == {"parts": ["a", "b", "c"]}
    with pytest.raises(ValueError, match=r"config key 'demo'.*parts"):
        resolve_config(minimal(demo={"parts": ["z"]}), workflow)
