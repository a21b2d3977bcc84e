"""Templated sources: expansion over lists and settings, names with subfolders, pins."""

from pathlib import Path

import pytest

from reagree.pipeline.sources import SourceError, expand_sources, expansion_values

SHVETS = "https://raw.githubusercontent.com/Malificenta883/intra-annotator-dynamics/5241a8b/data"


def paper(*entries):
    return {"id": "p", "sources": list(entries)}


def test_one_entry_expands_over_the_product_of_its_lists_in_declared_order():
    entry = {
        "name": "{myth}/{reader}_run{n}.json",
        "url": SHVETS + "/{myth}/{reader}_run{n}.json",
        "expand": {"myth": {"setting": "myths"}, "reader": ["opus", "gemini", "qwen"], "n": list(range(1, 11))},
    }
    files = expand_sources(paper(entry), {"myths": ["inanna_enki", "inanna_descent", "gudea"]})
    assert len(files) == 3 * 3 * 10
    assert files[0]["name"] == "inanna_enki/opus_run1.json"
    assert files[1]["name"] == "inanna_enki/opus_run2.json"
    assert files[-1]["name"] == "gudea/qwen_run10.json"
    assert files[-1]["url"] == SHVETS + "/gudea/qwen_run10.json"
    assert files[-1]["values"] == {"myth": "gudea", "reader": "qwen", "n": 10}


def test_only_the_configured_subset_is_expanded_and_pins_follow_the_name():
    entry = {
        "name": "{language}_Twitter_sentiment.csv",
        "url": "https://www.clarin.si/h/{language}_Twitter_sentiment.csv",
        "expand": {"language": {"setting": "languages"}},
        "sha256": {"Bosnian_Twitter_sentiment.csv": "a" * 64},
    }
    files = expand_sources(paper(entry), {"languages": ["Bosnian", "English"]})
    assert [f["name"] for f in files] == ["Bosnian_Twitter_sentiment.csv", "English_Twitter_sentiment.csv"]
    assert [f["sha256"] for f in files] == ["a" * 64, None]
    assert expand_sources(paper(entry), {"languages": []}) == []
    assert expansion_values(paper(entry), {"languages": ["English"]}) == {
        "language": {"values": ["English"], "setting": "languages"}
    }


def test_a_plain_entry_is_one_file():
    files = expand_sources(paper({"name": "LICENSE", "url": "https://x.org/LICENSE", "sha256": "b" * 64}))
    assert files == [
        {
            "name": "LICENSE",
            "url": "https://x.org/LICENSE",
            "path": None,
            "sha256": "b" * 64,
            "licence": "",
            "values": {},
            "entry": 0,
        }
    ]


def test_a_local_file_is_a_source_with_a_path_instead_of_a_url(tmp_path):
    from reagree.pipeline.sources import local_path, origin

    entry = {"name": "{part}.tsv", "path": "exports/labels_{part}.tsv", "expand": {"part": ["a", "b"]}}
    files = expand_sources(paper(entry))
    assert [(f["name"], f["url"], f["path"]) for f in files] == [
        ("a.tsv", None, "exports/labels_a.tsv"),
        ("b.tsv", None, "exports/labels_b.tsv"),
    ]
    assert local_path(files[0], tmp_path) == tmp_path / "exports" / "labels_a.tsv"
    assert origin(files[0], tmp_path) == f"local file {tmp_path / 'exports' / 'labels_a.tsv'}"
    assert local_path({"path": "~/x.tsv"}) == Path.home() / "x.tsv"
    assert local_path({"url": "https://x.org/a", "path": None}) is None
    with pytest.raises(SourceError, match=r"either url \(a download\) or path \(a file on this machine\)"):
        expand_sources(paper({"name": "a.tsv", "url": "https://x.org/a.tsv", "path": "a.tsv"}))


@pytest.mark.parametrize(
    "entry, settings, message",
    [
        ({"name": "{a}.tsv", "url": "https://x.org/{a}.tsv"}, {}, "placeholders"),
        ({"name": "{a}.tsv", "url": "https://x.org/{a}.tsv", "expand": {"a": [1], "b": [2]}}, {}, "placeholders"),
        (
            {"name": "{a}.tsv", "url": "https://x.org/{a}.tsv", "expand": {"a": {"setting": "nope"}}},
            {},
            "setting 'nope'",
        ),
        ({"name": "{a}.tsv", "url": "https://x.org/{a}.tsv", "expand": {"a": ["../up"]}}, {}, "relative path"),
        ({"name": "/abs.tsv", "url": "https://x.org/abs.tsv"}, {}, "relative path"),
    ],
)
def test_bad_entries_are_errors_naming_the_entry(entry, settings, message):
    with pytest.raises(SourceError, match=message):
        expand_sources(paper(entry), settings)


def test_two_entries_may_not_make_the_same_file():
    entries = (
        {"name": "x.tsv", "url": "https://x.org/1"},
        {"name": "{a}.tsv", "url": "https://x.org/{a}", "expand": {"a": ["x"]}},
    )
    with pytest.raises(SourceError, match="also produced"):
        expand_sources(paper(*entries))


def test_the_shipped_papers_expand_under_their_default_settings():
    from reagree.pipeline.paper_registry import load_enabled_papers, paper_files
    from reagree.pipeline.settings import paper_folders, resolve_config

    from conftest import ROOT

    workflow = ROOT / "workflow"
    config = resolve_config(
        {"papers": paper_folders(workflow), "mirror": None, "bootstrap": {"draws": 10, "seed": 0}}, workflow
    )
    files = paper_files(load_enabled_papers(config["papers"], workflow), config)
    assert len(files["jayanetti2026"]) == 7
