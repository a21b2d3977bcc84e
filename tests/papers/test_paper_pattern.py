"""Every paper is the same folder: the same parts, one claims header, one rule-name
convention, rules that reach the generic workflow only through the imported registry.
(That the library holds no paper's code is tests/architecture/test_library_is_general.py's, from the imports.)"""
from __future__ import annotations

import ast
import re

import pytest

from reagree.pipeline.paper_registry import PaperBuild, Registry, open_registry, registry
from reagree.pipeline.paperspec import CLAIM_HEADER, load_paper

from conftest import ROOT

PAPERS_DIR = ROOT / "workflow" / "papers"
PAPERS = sorted(p.name for p in PAPERS_DIR.iterdir() if (p / "paper.yaml").is_file())
# The parts of a paper folder; <id> is the paper's own package.
PARTS = {"paper.yaml", "settings.schema.yaml", "rules.smk", "claims", "report", "scripts", "<id>"}
OPTIONAL_PARTS = {"ledger.tsv"}  # every number its documents print (README, "What a paper folder holds")
PACKAGE = {"__init__.py", "keys.py"}  # what every paper package holds at least
VERBS = ("check", "compare", "compute", "count", "enumerate", "pair", "plot", "rerun", "score", "tabulate")
GLOBALS_OF_COMMON_SMK = ("PAPERS", "SOURCES", "DOCUMENTS", "REGISTRY", "VALUE_PARTS", "PAPER_TARGETS", "EXPANSIONS")


def test_the_papers_are_the_folders_with_a_paper_yaml():
    """Every test that walks the papers reads them here, from the folder: a fifth paper is
    held to the same pattern without a list to edit. config.yaml builds only papers that are here."""
    import yaml

    assert PAPERS == sorted(p.parent.name for p in PAPERS_DIR.glob("*/paper.yaml"))
    assert set(yaml.safe_load((ROOT / "config.yaml").read_text(encoding="utf-8"))["papers"]) <= set(PAPERS)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_folder_has_the_same_parts(paper):
    folder = PAPERS_DIR / paper
    parts = {p.name.replace(paper, "<id>") if p.name == paper else p.name
             for p in folder.iterdir() if p.name != "__pycache__"}
    assert PARTS <= parts <= PARTS | OPTIONAL_PARTS, parts ^ PARTS
    assert PACKAGE <= {p.name for p in (folder / paper).iterdir()}
    assert list((folder / "claims").glob("*.tsv")) and list((folder / "report").glob("*.rst"))
    assert list((folder / "scripts").glob("*.py"))
    spec = load_paper(folder / "paper.yaml")  # claims only in claims/*.tsv, every table listed
    assert spec["claims"]
    assert sorted(spec["claim_tables"]) == sorted(f"claims/{p.name}" for p in (folder / "claims").glob("*.tsv"))


def test_no_paper_yaml_holds_claims():
    for paper in PAPERS:
        text = (PAPERS_DIR / paper / "paper.yaml").read_text(encoding="utf-8")
        assert not re.search(r"^claims:", text, flags=re.M), paper


@pytest.mark.parametrize("table", sorted(PAPERS_DIR.glob("*/claims/*.tsv")), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_claim_table_has_the_one_header(table):
    lines = [line for line in table.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    assert tuple(lines[0].split("\t")) == CLAIM_HEADER
    assert CLAIM_HEADER == ("key", "end", "where", "source", "published", "tolerance", "compare", "needs", "under",
                            "uncheckable", "not_recomputed", "note", "tolerance_reason", "cause", "approximate", "figure")


def test_a_printed_value_keeps_its_printed_text():
    claims = [c for paper in PAPERS for c in load_paper(PAPERS_DIR / paper / "paper.yaml")["claims"]]
    printed = {c["published"].text for c in claims}
    assert {"0.800", "0.900", "+0.6790", "+6.08e-04", "0.610", "12"} <= printed


def rules_of(paper: str) -> dict[str, str]:
    """rule name -> its script path, from the paper's rules.smk."""
    text = (PAPERS_DIR / paper / "rules.smk").read_text(encoding="utf-8")
    blocks = re.split(r"^rule ", text, flags=re.M)[1:]
    out = {}
    for block in blocks:
        name = block.split(":", 1)[0]
        script = re.search(r'^    script:\n        "([^"]+)"', block, flags=re.M)
        out[name] = script.group(1) if script else ""
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_one_rule_name_convention(paper):
    """<verb>_<paper id>_<noun>, running scripts/<verb>_<...>.py of the paper's own folder or the
    shared one of the checkout's scripts/ (one script for a kind of rule every paper has)."""
    rules = rules_of(paper)
    assert rules
    for name, script in rules.items():
        match = re.fullmatch(rf"({'|'.join(VERBS)})_{paper}_[a-z0-9_]+", name)
        assert match, f"{paper}: rule {name} is not <verb>_{paper}_<noun>"
        # the paper's own script, or one script every paper's rule of that kind runs
        shared = re.fullmatch(rf"\.\./\.\./\.\./scripts/{match.group(1)}_[a-z0-9_]+\.py", script)
        assert shared or re.fullmatch(rf"scripts/{match.group(1)}_[a-z0-9_]+\.py", script), (name, script)
        assert (PAPERS_DIR / paper / script).is_file(), script


@pytest.mark.parametrize("paper", PAPERS)
def test_rules_reach_the_workflow_only_through_the_imported_registry(paper):
    text = "\n".join(line.split("#")[0] for line in (PAPERS_DIR / paper / "rules.smk").read_text().splitlines())
    assert "from reagree.pipeline.paper_registry import registry" in text
    assert f'registry().paper("{paper}")' in text
    used = [name for name in GLOBALS_OF_COMMON_SMK if re.search(rf"\b{name}\b", text)]
    assert not used, f"{paper}/rules.smk uses common.smk's globals {used}"
    assert 'config["' + paper not in text, "a paper's settings come from its PaperBuild"


def paper_words() -> dict[str, set[str]]:
    """Per paper, the words that belong to it alone: its id, its texts, languages, tools
    and models (read from the papers' own packages, not typed here)."""
    from jayanetti2026.release import TOOLS
    from mozetic2016.release import LANGUAGES
    from shvets2026.release import MODELS, MYTHS

    words = {paper: {paper} for paper in PAPERS}
    words["jayanetti2026"] |= set(TOOLS)
    words["mozetic2016"] |= {language.lower() for language in LANGUAGES}
    words["shvets2026"] |= set(MODELS) | set(MYTHS) | {word for myth in MYTHS for word in myth.split("_")}
    return words


@pytest.mark.parametrize("paper", PAPERS)
def test_rules_smk_holds_rules_not_paper_data(paper):
    """Lists of languages, texts, tools or models live in the paper's package; rules.smk
    imports them (a list, tuple, set or dict literal naming two or more is a data table)."""
    text = (PAPERS_DIR / paper / "rules.smk").read_text(encoding="utf-8").lower()
    code = "\n".join(line.split("#")[0] for line in text.splitlines())
    words = paper_words()[paper] - {paper}
    tables = [literal for literal in re.findall(r"[\[({][^\[\](){}]*[\])}]", code)
              if sum(bool(re.search(rf'["\']{word}["\']', literal)) for word in words) >= 2]
    assert not tables, f"{paper}/rules.smk holds paper data: {tables}; it belongs in the paper's package"


def test_scripts_write_values_through_declared_keys_only():
    """No rule script, and no module of a paper's package, assembles a value key itself:
    values come from Family.row."""
    for script in sorted([*PAPERS_DIR.glob("*/scripts/*.py"), *PAPERS_DIR.glob("*/*/*.py")]):
        tree = ast.parse(script.read_text(encoding="utf-8"))
        calls = [node.func for node in ast.walk(tree) if isinstance(node, ast.Call)]
        named = [getattr(f, "id", None) or getattr(f, "attr", None) for f in calls]
        assert "value_row" not in named, script


# --------------------------------------------------------------------------- the registry

PAPER = {"id": "demo", "title": "t", "cite": "c", "claim_tables": [],
         "sources": [{"name": "parts/part_{part}.tsv", "url": "https://example.org/part_{part}.tsv",
                      "expand": {"part": {"setting": "parts"}}}]}


def test_the_registry_holds_each_enabled_paper_with_its_settings_and_sources():
    opened = open_registry({"demo": PAPER}, {"demo": {"parts": ["a", "c"]}})
    assert registry() is opened and opened.ids == ["demo"]
    build = opened.paper("demo")
    assert build.settings == {"parts": ["a", "c"]}
    assert [s["name"] for s in build.sources] == ["parts/part_a.tsv", "parts/part_c.tsv"]
    assert build.expansions["part"]["values"] == ["a", "c"]
    # every fetched file and the inputs' sha256 are targets from the start
    assert build.targets == ["data/demo/parts/part_a.tsv", "data/demo/parts/part_c.tsv", "results/demo/inputs.sha256"]
    build.add_values("results/demo/values/a.tsv", "results/demo/values/a.tsv")
    build.add_targets("results/demo/claims.tsv")
    assert build.values == ["results/demo/values/a.tsv"]
    assert opened.targets()[-1] == "results/demo/claims.tsv"
    assert (build.results, build.logs, build.data_path("x.tsv")) == ("results/demo", "logs/demo", "data/demo/x.tsv")


def test_a_paper_not_enabled_is_named_with_the_enabled_ones():
    opened = open_registry({"demo": PAPER}, {"demo": {"parts": ["a"]}})
    with pytest.raises(KeyError, match=r"paper 'other' is not enabled in this run \(config key papers: \['demo'\]\)"):
        opened.paper("other")


def test_a_paper_without_sources_has_no_input_targets():
    build = PaperBuild("synthetic", {**PAPER, "sources": []}, {}, [], {})
    assert build.targets == [] and Registry({"synthetic": build}).targets() == []


# A word the approximate-words rule reads, followed by a number or a number word: "about 20,000",
# "roughly twice", "around 0.4", "almost 10% points", "roughly a factor of ten", "about one third".
_APPROXIMATE = re.compile(r"\b(roughly|about|around|nearly|almost|approximately|some)\s+(?:a factor of\s+|plus or minus\s+)?"
                          r"(?:\d|one\b|two\b|three\b|half\b|twice\b|ten\b|a third\b)", re.I)


def test_every_claim_that_quotes_an_approximate_word_declares_it():
    """One rule for approximate words (docs/claims.md): a claim whose quoted sentence reads
    "about 20,000" or "roughly twice" names the word in its approximate column, so the rule
    reads it and its reason says so."""
    undeclared = []
    for paper in PAPERS:
        for claim in load_paper(PAPERS_DIR / paper / "paper.yaml")["claims"]:
            found = _APPROXIMATE.search(claim["where"])
            if found and not claim.get("approximate"):
                undeclared.append(f"{claim['_where_defined']}: {claim['key']} ({found.group(0)!r})")
    assert not undeclared, "\n".join(undeclared)
