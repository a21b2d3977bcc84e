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
    coerced = coerce_strings(
        {"bootstrap": {"draws": "500", "seed": "0", "level": "0.9"}, "mirror": "null", "papers": ["jayanetti2026"]},
        schema,
    )
    assert coerced == {
        "bootstrap": {"draws": 500, "seed": 0, "level": 0.9},
        "mirror": None,
        "papers": ["jayanetti2026"],
    }
    assert coerce_strings({"bootstrap": {"draws": "many"}}, schema) == {"bootstrap": {"draws": "many"}}
    assert coerce_strings({"bootstrap": {"draws": "2000.0"}}, schema) == {"bootstrap": {"draws": "2000.0"}}


def test_a_whole_number_written_as_a_float_in_a_file_is_that_integer():
    for draws in (1.0, 2000.0):
        resolved = resolve_config(minimal(bootstrap={"draws": draws, "seed": 0}), WORKFLOW)["bootstrap"]["draws"]
        assert resolved == int(draws) and type(resolved) is int
    with pytest.raises(ValueError, match="bootstrap.draws"):
        resolve_config(minimal(bootstrap={"draws": 2000.5, "seed": 0}), WORKFLOW)


def test_unknown_keys_are_refused_with_a_suggestion():
    with pytest.raises(ValueError, match=r"'mirorr' \(did you mean 'mirror'\?\)"):
        resolve_config(minimal(mirorr="x"), WORKFLOW)


def test_a_typo_inside_a_papers_settings_gets_did_you_mean_not_raw_jsonschema_text():
    with pytest.raises(ValueError) as error:
        resolve_config(minimal(mozetic2016={"langauges": ["Serbian"]}), WORKFLOW)
    assert str(error.value) == (
        f"config key 'mozetic2016' ({WORKFLOW / 'papers' / 'mozetic2016' / 'settings.schema.yaml'}"
        "): unknown key 'langauges' (did you mean 'languages'?); known keys: ['languages', "
        "'draws']"
    )
    assert "Additional properties" not in str(error.value)
    with pytest.raises(
        ValueError, match=r"key languages\.1: 'Serbain' is not one of \[.*\] \(did you mean 'Serbian'\?\)"
    ):
        resolve_config(minimal(mozetic2016={"languages": ["Bosnian", "Serbain"]}), WORKFLOW)


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"bootstrap": {"draws": 2000.5, "seed": 0}}, "bootstrap.draws"),
        ({"bootstrap": {"draws": 10**9, "seed": 0}}, "bootstrap.draws"),
        ({"fetch": {"timeout": 0}}, "fetch.timeout"),
        ({"papers": "jayanetti2026"}, "papers"),
    ],
)
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


# ----------------------------------------------------------------- one validator per schema


def test_a_schema_is_checked_once_however_many_rows_it_validates(monkeypatch):
    """Loading every shipped paper (hundreds of claim-table rows) checks each schema against
    its metaschema once, not once per row as ``jsonschema.validate`` does."""
    import jsonschema

    from reagree.pipeline import settings
    from reagree.pipeline.paperspec import load_paper

    checked = []
    real = jsonschema.Draft202012Validator.check_schema.__func__

    def counting(cls, schema, *args, **kwargs):
        checked.append(schema)
        return real(cls, schema, *args, **kwargs)

    monkeypatch.setattr(jsonschema.Draft202012Validator, "check_schema", classmethod(counting))
    monkeypatch.setattr(settings, "_VALIDATORS", {})
    papers = [load_paper(path) for path in sorted((WORKFLOW / "papers").glob("*/paper.yaml"))]
    rows = sum(len(paper["claims"]) for paper in papers)
    assert rows > 700
    assert 1 <= len(checked) <= 2  # the paper schema and its claim schema, each once


def test_the_cached_validator_reports_what_jsonschema_validate_reports():
    import jsonschema

    from reagree.pipeline.settings import schema_error, schema_validator, validate

    schema = {
        "type": "object",
        "properties": {"draws": {"type": "integer", "minimum": 1}},
        "required": ["draws"],
        "additionalProperties": False,
    }
    assert schema_validator(schema) is schema_validator(dict(schema))  # equal schemas share one
    for data in ({"draws": 5}, {"draws": 0}, {"draws": "many"}, {}, {"draws": 5, "extra": 1}, [1]):
        try:
            jsonschema.validate(data, schema)
            expected = None
        except jsonschema.ValidationError as error:
            expected = (error.message, list(error.absolute_path))
        found = schema_error(data, schema)
        assert (found and (found.message, list(found.absolute_path))) == expected, data
    with pytest.raises(ValueError, match=r"^here: key draws: 0 is less than the minimum of 1$"):
        validate({"draws": 0}, schema, "here")
    # a caller changing its dict afterwards does not change the validator built from it
    changing = {"type": "integer"}
    assert schema_error("x", changing) is not None
    changing["type"] = "string"
    assert schema_error("x", changing) is None and schema_error(3, changing) is not None
    with pytest.raises(jsonschema.SchemaError):  # a broken schema is still refused
        schema_validator({"type": "no such type"})
