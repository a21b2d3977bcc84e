"""Every paper is the same folder: the same parts, one claims header, one rule-name
convention, one declared PAPER the pipeline reads (nothing imported by a name it builds),
rules that reach the generic workflow only through the imported registry.
(That the library holds no paper's code is tests/architecture/test_library_is_general.py's, from the imports.)"""

from __future__ import annotations

import ast
import re
import shutil
from types import SimpleNamespace

import pytest
import yaml

from reagree.pipeline.paper import Paper, check_rule, paper_code
from reagree.pipeline.paper_registry import PaperBuild, Registry, open_registry, registry
from reagree.pipeline.paperspec import CLAIM_HEADER, load_paper

from conftest import FIXTURES, PAPERS, PAPERS_DIR, ROOT, project_copy, run_snakemake

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
    parts = {
        p.name.replace(paper, "<id>") if p.name == paper else p.name
        for p in folder.iterdir()
        if p.name != "__pycache__"
    }
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


@pytest.mark.parametrize(
    "table", sorted(PAPERS_DIR.glob("*/claims/*.tsv")), ids=lambda p: f"{p.parent.parent.name}/{p.name}"
)
def test_every_claim_table_has_the_one_header(table):
    lines = [
        line for line in table.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")
    ]
    assert tuple(lines[0].split("\t")) == CLAIM_HEADER
    assert CLAIM_HEADER == (
        "key",
        "end",
        "where",
        "source",
        "published",
        "tolerance",
        "compare",
        "needs",
        "under",
        "uncheckable",
        "not_recomputed",
        "note",
        "tolerance_reason",
        "cause",
        "approximate",
        "figure",
    )


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
    # every rules.smk is a Snakemake module of its own, so each names its build alike, without a prefix
    assert f'BUILD = registry().paper("{paper}")' in text
    used = [name for name in GLOBALS_OF_COMMON_SMK if re.search(rf"\b{name}\b", text)]
    assert not used, f"{paper}/rules.smk uses common.smk's globals {used}"
    assert 'config["' + paper not in text, "a paper's settings come from its PaperBuild"


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_package_declares_its_paper(paper):
    """The pipeline reads a paper through one object, PAPER in its package's __init__.py."""
    declared = paper_code(paper)
    assert isinstance(declared, Paper) and declared.keys.paper == paper
    assert declared.variants is None or declared.variants.paper == paper


def _builds_a_module_name(call: ast.Call) -> bool:
    """An import call whose module name is put together in the code (f"{paper}.keys", a + b, .format)."""
    func = call.func
    name = getattr(func, "id", None) or getattr(func, "attr", None)
    if name not in ("import_code", "import_module", "__import__") or not call.args:
        return False
    arg = call.args[0]
    return isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (
        isinstance(arg, ast.Call) and getattr(arg.func, "attr", None) == "format"
    )


def test_no_module_is_imported_by_a_name_it_builds():
    """Nothing of a paper is imported by naming convention (<id>.keys, <id>.variants,
    <id>.internal): the library, the workflow and the scripts read paper_code(id)."""
    python = [*(ROOT / "src").rglob("*.py"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "workflow").rglob("*.py")]
    built = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in python
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and _builds_a_module_name(node)
    ]
    rule_files = [ROOT / "Snakefile", *(ROOT / "workflow").rglob("*.smk")]
    built += [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in rule_files
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"(import_code|import_module|__import__)\(\s*f[\"']", line)
    ]
    assert not built, built


def test_the_module_check_recognises_a_built_name():
    assert _builds_a_module_name(ast.parse('import_code(f"{paper_id}.keys")').body[0].value)
    assert _builds_a_module_name(ast.parse('importlib.import_module(paper + ".variants")').body[0].value)
    assert not _builds_a_module_name(ast.parse("import_code(paper_id)").body[0].value)


@pytest.mark.parametrize("paper", PAPERS)
def test_no_paper_writes_its_own_check_rule(paper):
    """The check of printed numbers is one generic rule (workflow/rules/printed.smk), made for
    every paper whose PAPER declares relations; no rules.smk holds one."""
    assert check_rule(paper) not in rules_of(paper)
    assert not re.search(r"^rule check_\w+_printed:", (PAPERS_DIR / paper / "rules.smk").read_text(), flags=re.M)


def test_a_paper_gets_the_check_rule_when_it_declares_relations(tmp_path_factory):
    """The demo paper declares no relations and has no check rule; give its PAPER one
    relation and the generic rule appears for it, under the one rule name."""
    work = project_copy(tmp_path_factory, "relations")
    shutil.copytree(FIXTURES / "demo_paper", work / "workflow" / "papers" / "demo")
    (work / "demo.yaml").write_text(yaml.safe_dump({"papers": ["demo"], "mirror": str(FIXTURES / "demo_mirror")}))
    assert check_rule("demo") not in run_snakemake(work, "--list-rules", configfile="demo.yaml").stdout.split()
    init = work / "workflow" / "papers" / "demo" / "demo" / "__init__.py"
    init.write_text(
        init.read_text().replace(
            "PAPER = Paper(keys=KEYS)",
            (
                "from reagree.pipeline import internal\n"
                "GAP = KEYS.rule('check_demo_printed').family('difference.part_a_minus_part_b.from_printed', internal.difference)\n"
                "PAPER = Paper(keys=KEYS, relations=[internal.relate(GAP, 'agreement.a_b.part_a', 'agreement.a_b.part_b')])"
            ),
        )
    )
    assert check_rule("demo") in run_snakemake(work, "--list-rules", configfile="demo.yaml").stdout.split()


@pytest.mark.parametrize("paper", PAPERS)
def test_every_result_path_is_written_once(paper):
    """A path a rule writes is spelled in that rule alone: the registry (add_outputs,
    add_targets) and the rules that read it take it from ``rules.<name>.output``."""
    text = (PAPERS_DIR / paper / "rules.smk").read_text(encoding="utf-8")
    paths = re.findall(r'f"\{[A-Za-z0-9_.]+\}/[^"]+"', text)
    assert paths, paper
    assert not sorted({path for path in paths if paths.count(path) > 1}), paper


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
    tables = [
        literal
        for literal in re.findall(r"[\[({][^\[\](){}]*[\])}]", code)
        if sum(bool(re.search(rf'["\']{word}["\']', literal)) for word in words) >= 2
    ]
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

PAPER = {
    "id": "demo",
    "title": "t",
    "cite": "c",
    "claim_tables": [],
    "sources": [
        {
            "name": "parts/part_{part}.tsv",
            "url": "https://example.org/part_{part}.tsv",
            "expand": {"part": {"setting": "parts"}},
        }
    ],
}


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
_APPROXIMATE = re.compile(
    r"\b(roughly|about|around|nearly|almost|approximately|some)\s+(?:a factor of\s+|plus or minus\s+)?"
    r"(?:\d|one\b|two\b|three\b|half\b|twice\b|ten\b|a third\b)",
    re.I,
)


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


def test_a_rule_registers_its_values_and_variants_from_its_own_outputs():
    """A path is written once, in the rule; add_outputs reads it from rules.<name> and fills
    each wildcard with the values given (every combination, in order)."""
    build = PaperBuild("demo", PAPER, {}, [], {})
    rule = SimpleNamespace(
        output=SimpleNamespace(
            values="results/demo/values/part_{part}_{side}.tsv",
            variants="results/demo/variants/part_{part}.tsv",
            table="results/demo/tables/t.tsv",
        )
    )
    build.add_outputs(rule, part=["a", "b"], side=["l", "r"])
    assert build.values == [
        "results/demo/values/part_a_l.tsv",
        "results/demo/values/part_a_r.tsv",
        "results/demo/values/part_b_l.tsv",
        "results/demo/values/part_b_r.tsv",
    ]
    assert build.variants == ["results/demo/variants/part_a.tsv", "results/demo/variants/part_b.tsv"]
    build.add_outputs(SimpleNamespace(output=SimpleNamespace(values="results/demo/values/plain.tsv")))
    assert build.values[-1] == "results/demo/values/plain.tsv" and len(build.variants) == 2
    assert build.targets == []  # tables are targets only when add_targets names them


def test_a_wildcard_without_values_is_named():
    build = PaperBuild("demo", PAPER, {}, [], {})
    rule = SimpleNamespace(output=SimpleNamespace(values="results/demo/values/part_{part}.tsv"))
    with pytest.raises(
        ValueError, match=r"results/demo/values/part_\{part\}.tsv: the values of wildcard\(s\) \['part'\]"
    ):
        build.add_outputs(rule)
