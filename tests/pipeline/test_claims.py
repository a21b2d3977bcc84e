"""Claims: printed precision, statuses, the summary."""

import numpy as np
import pandas as pd
import pytest

from reagree.pipeline.claims import diff_claims, summarise
from reagree.pipeline.paperspec import PrintedNumber, load_paper, printed_tolerance
from reagree.pipeline.yamlio import load_yaml

from conftest import ROOT

SCHEMA = ROOT / "workflow" / "schemas" / "paper.schema.yaml"


@pytest.mark.parametrize(
    "text, tolerance",
    [
        ("0.40", 0.005),
        ("0.4", 0.05),
        ("44", 0.5),
        ("6.08e-04", 5e-07),
        ("+0.176", 0.0005),
        ("-0.0021", 5e-05),
        ("1.4e-05", 5e-07),
    ],
)
def test_tolerance_is_half_the_last_printed_digit(text, tolerance):
    assert printed_tolerance(PrintedNumber(text)) == pytest.approx(tolerance)


def test_yaml_keeps_printed_precision(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 0.40\nb: 44\nc: +6.08e-04\n")
    loaded = load_yaml(path, printed_numbers=True)
    assert loaded["a"].text == "0.40" and loaded["a"] == 0.4
    assert loaded["b"].text == "44" and printed_tolerance(loaded["b"]) == 0.5
    assert printed_tolerance(loaded["c"]) == pytest.approx(5e-7)


def claim(key, published, **extra):
    return {"key": key, "where": "T1", "source": "paper", "published": PrintedNumber(published), **extra}


def test_statuses():
    values = pd.DataFrame({"key": ["a", "b", "c", "d"], "value": [0.396, 0.41, 11.0, np.nan]})
    table = diff_claims(
        [
            claim("a", "0.40"),
            claim("b", "0.40"),
            claim("c", "0"),
            claim("d", "1"),
            claim("f", "0.48", uncheckable="labels never released"),
            claim("g", "0.30", tolerance=PrintedNumber("0.02"), tolerance_reason="Monte Carlo"),
        ],
        pd.concat([values, pd.DataFrame({"key": ["g"], "value": [0.31]})]),
    )
    assert table["status"].tolist() == ["match", "mismatch", "mismatch", "missing", "uncheckable", "within tolerance"]
    assert table.loc[4, "reason"] == "labels never released"
    assert table.loc[5, "reason"] == "Monte Carlo" and table.loc[5, "tolerance"] == pytest.approx(0.02)
    assert table.loc[1, "difference"] == pytest.approx(0.01)


def test_a_not_recomputed_claim_gets_its_status_and_reason_and_needs_no_value():
    # a printed figure whose data are released but whose method reagree does not reimplement: no rule writes
    # its key (so no "produced by no rule" error), and it is neither a finding nor a match, nor uncheckable
    reason = "the authors' seeded permutation p-value (src/perm.py)"
    values = pd.DataFrame({"key": ["a"], "value": [0.396]})
    table = diff_claims(
        [
            claim("a", "0.40"),
            claim("p.perm", "0.03", not_recomputed=reason),
            claim("p.gone", "0.5", uncheckable="labels never released"),
        ],
        values,
    )
    assert table["status"].tolist() == ["match", "not recomputed", "uncheckable"]
    assert table["reason"].tolist() == ["", reason, "labels never released"]
    assert np.isnan(table.loc[1, "computed"]) and table.loc[1, "explained_by"] == "" and table.loc[1, "cause"] == ""


class _Family:
    rule, function = "compute_demo_values", "reagree.stats.multirater.fleiss_kappa"


def test_a_claim_key_no_rule_produces_is_an_error_naming_file_line_and_the_nearest_keys():
    values = pd.DataFrame({"key": ["fleiss.humans.three_class", "fleiss.tools.three_class"], "value": [0.385, 0.43]})
    typo = claim("fleiss.humans.thre_class", "0.39", _where_defined="workflow/papers/p/claims/paper.tsv, line 7")
    with pytest.raises(ValueError) as error:
        diff_claims([claim("fleiss.tools.three_class", "0.43"), typo], values, "p")
    assert str(error.value) == (
        "workflow/papers/p/claims/paper.tsv, line 7: claim key 'fleiss.humans.thre_class' is "
        "produced by no rule; did you mean 'fleiss.humans.three_class' or "
        "'fleiss.tools.three_class'?"
    )
    # a key the paper's grammar declares, without a value: a defect of its rule, status missing
    declared = {"fleiss.humans.three_class": _Family()}
    table = diff_claims([claim("fleiss.humans.three_class", "0.39")], values.iloc[1:], "p", declared=declared.get)
    assert table["status"].tolist() == ["missing"]
    assert "rule compute_demo_values" in table.loc[0, "reason"] and "a defect in reagree" in table.loc[0, "reason"]


def test_boundary_of_rounding_matches_and_own_tolerance_wins_counted_apart():
    values = pd.DataFrame({"key": ["a", "b"], "value": [0.3955, 0.30]})
    table = diff_claims([claim("a", "0.40"), claim("b", "0.312", tolerance=0.02)], values)
    assert table["status"].tolist() == ["match", "within tolerance"]
    assert diff_claims([claim("b", "0.312")], values)["status"].tolist() == ["mismatch"]


def test_abs_comparison():
    values = pd.DataFrame({"key": ["s"], "value": [-1.371e-05]})
    assert diff_claims([claim("s", "1.4e-05", compare="abs")], values)["status"].tolist() == ["match"]
    assert diff_claims([claim("s", "1.4e-05")], values)["status"].tolist() == ["mismatch"]


def test_summary_counts_and_lists_findings():
    values = pd.DataFrame({"key": ["a", "b", "z"], "value": [0.396, 3.0, np.nan]})
    tables = {"p": diff_claims([claim("a", "0.40"), claim("b", "0", note="three ties"), claim("z", "1")], values)}
    summary, markdown = summarise(tables)
    assert summary.iloc[0][
        [
            "match",
            "within_tolerance",
            "holds",
            "consistent",
            "mismatch",
            "inconsistent",
            "uncheckable",
            "not_recomputed",
            "not_built",
            "not_comparable",
            "missing",
            "figures",
            "claims",
        ]
    ].tolist() == [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 3, 3]
    assert "three ties" in markdown and "| z |" in markdown and "defects" in markdown


def test_every_shipped_paper_yaml_is_valid():
    for path in sorted((ROOT / "workflow" / "papers").glob("*/paper.yaml")):
        paper = load_paper(path, SCHEMA)
        assert paper["claims"], path


HEADER = (
    "key\tend\twhere\tsource\tpublished\ttolerance\tcompare\tneeds\tunder\tuncheckable\tnot_recomputed\tnote\t"
    "tolerance_reason\tcause\tapproximate\tfigure\n"
)
PAPER = "id: demo\ntitle: t\ncite: c\nsources: []\nclaim_tables: [claims/t.tsv]\n"


def row(key, where, published, **cells):
    """A claim table line in CLAIM_HEADER order."""
    fields = {"key": key, "where": where, "source": "paper", "published": published, **cells}
    return "\t".join(fields.get(c, "") for c in HEADER.strip().split("\t")) + "\n"


def test_bad_paper_yaml_names_the_field(tmp_path):
    folder = tmp_path / "demo"
    (folder / "claims").mkdir(parents=True)
    (folder / "claims" / "t.tsv").write_text(HEADER)
    (folder / "paper.yaml").write_text("id: demo\ntitle: t\ncite: c\nsources: 3\nclaim_tables: [claims/t.tsv]\n")
    with pytest.raises(ValueError, match=r"paper.yaml: field sources: 3 is not of type 'array'"):
        load_paper(folder / "paper.yaml", SCHEMA)
    (folder / "paper.yaml").write_text("id: other\ntitle: t\ncite: c\nsources: []\nclaim_tables: [claims/t.tsv]\n")
    with pytest.raises(ValueError, match="folder name"):
        load_paper(folder / "paper.yaml", SCHEMA)


def test_claims_live_in_tables_never_in_paper_yaml(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "paper.yaml").write_text(
        "id: demo\ntitle: t\ncite: c\nsources: []\nclaims:\n  - {key: a.b, where: T1, source: paper, published: 1}\n"
    )
    with pytest.raises(ValueError, match=r"claims are not written in paper.yaml; put them in claims/\*.tsv"):
        load_paper(folder / "paper.yaml", SCHEMA)


def test_a_claim_table_left_out_of_claim_tables_is_an_error(tmp_path):
    folder = tmp_path / "demo"
    (folder / "claims").mkdir(parents=True)
    for name in ("t.tsv", "forgotten.tsv"):
        (folder / "claims" / name).write_text(HEADER + row("a.b", "T1", "1"))
    (folder / "paper.yaml").write_text(PAPER)
    with pytest.raises(ValueError, match=r"claim_tables leaves out \['claims/forgotten.tsv'\]"):
        load_paper(folder / "paper.yaml", SCHEMA)


# ----------------------------------------------------------------- Spine v2: end, needs, under, tables


def values_frame(rows):
    frame = pd.DataFrame(rows)
    for column in ("ci_low", "ci_high"):
        if column not in frame:
            frame[column] = np.nan
    if "scheme" not in frame:
        frame["scheme"] = ""
    return frame


def test_a_claim_names_an_interval_end_of_a_value():
    values = values_frame([{"key": "fleiss.humans", "value": 0.385, "ci_low": 0.3121, "ci_high": 0.4552}])
    table = diff_claims(
        [
            claim("fleiss.humans", "0.385"),
            claim("fleiss.humans", "0.312", end="ci_low"),
            claim("fleiss.humans", "0.455", end="ci_high"),
            claim("fleiss.humans", "0.30", end="ci_low"),
        ],
        values,
    )
    assert table["status"].tolist() == ["match", "match", "match", "mismatch"]
    assert table["computed"].tolist() == [0.385, 0.3121, 0.4552, 0.3121]
    assert table.loc[1, "end"] == "ci_low"


def test_a_claim_on_an_unbuilt_part_is_not_built_with_the_setting_named():
    values = values_frame([{"key": "alpha.serbian", "value": 0.205}])
    claims = [
        claim("alpha.serbian", "0.205", needs={"language": "Serbian"}),
        claim("alpha.albanian", "0.4", needs={"language": "Albanian"}),
        claim("kappa.roberta.rerun", "0.717", needs={"rerun_roberta": True}),
    ]
    expansions = {"language": {"values": ["Bosnian", "Serbian"], "setting": "languages"}}
    table = diff_claims(
        claims, values, "mozetic2016", {"rerun_roberta": False, "languages": ["Bosnian", "Serbian"]}, expansions
    )
    assert table["status"].tolist() == ["match", "not built", "not built"]
    assert "mozetic2016.languages" in table.loc[1, "reason"] and "Albanian" in table.loc[1, "reason"]
    assert "rerun_roberta" in table.loc[2, "reason"]
    # a setting named directly: a list setting must contain the value
    direct = diff_claims(
        [claim("alpha.albanian", "0.4", needs={"languages": "Albanian"})],
        values,
        "mozetic2016",
        {"languages": ["Serbian"]},
        {},
    )
    assert direct["status"].tolist() == ["not built"]
    with pytest.raises(ValueError, match="neither a setting"):
        diff_claims([claim("x", "1", needs={"colour": "red"})], values, "p", {}, {})


def test_an_interval_under_other_settings_is_not_comparable_never_a_finding():
    values = values_frame(
        [{"key": "k", "value": 0.1, "ci_low": 0.0, "ci_high": 0.9, "scheme": "numpy; draws=1; seed=0; level=0.95"}]
    )
    under = {"scheme": "numpy", "draws": 2000, "seed": 0, "level": 0.95}
    table = diff_claims([claim("k", "0.014", end="ci_low", under=under)], values)
    assert table["status"].tolist() == ["not comparable"]
    assert "draws 2000 (printed) vs 1 (this run)" in table.loc[0, "reason"]
    same = values_frame(
        [
            {
                "key": "k",
                "value": 0.1,
                "ci_low": 0.0141,
                "ci_high": 0.9,
                "scheme": "numpy; draws=2000; seed=0; level=0.95",
            }
        ]
    )
    assert diff_claims([claim("k", "0.014", end="ci_low", under=under)], same)["status"].tolist() == ["match"]


def write_paper(folder, body, tables=None):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "paper.yaml").write_text(body)
    for name, text in (tables or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder / "paper.yaml"


def test_claim_tables_are_read_with_printed_precision_and_needs(tmp_path):
    path = write_paper(
        tmp_path / "demo",
        "id: demo\ntitle: t\ncite: c\nsources: []\nclaim_tables: [claims/t4.tsv]\n",
        {
            "claims/t4.tsv": HEADER
            + "# a comment line\n"
            + row("alpha.serbian", "Table 4", "0.20", needs="language=Serbian")
            + row("alpha.serbian", "Table 4", "0.042", needs="language=Serbian", end="ci_high")
            + row(
                "n.x",
                "Table 5",
                "12.0",
                needs="part=a;part=b;full=true",
                under="scheme=numpy;draws=2000",
                note='the "quoted" text',
            )
        },
    )
    claims = load_paper(path)["claims"]
    assert [c["key"] for c in claims] == ["alpha.serbian", "alpha.serbian", "n.x"]
    assert claims[0]["published"].text == "0.20" and printed_tolerance(claims[0]["published"]) == 0.005
    assert claims[0]["needs"] == {"language": "Serbian"} and claims[1]["end"] == "ci_high"
    assert claims[2]["published"].text == "12.0" and claims[2]["needs"] == {"part": ["a", "b"], "full": True}
    assert claims[2]["under"]["scheme"] == "numpy" and claims[2]["under"]["draws"].text == "2000"
    assert claims[2]["note"] == 'the "quoted" text'  # no quoting: a cell is the text between two tabs


def test_a_bad_claim_table_row_names_file_and_line(tmp_path):
    path = write_paper(
        tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + "\n" + row("a.b", "T", "0.1") + row("a.c", "T", "high")}
    )
    with pytest.raises(ValueError, match=r"t.tsv, line 4: claim a.c: published 'high' is not a printed number"):
        load_paper(path)
    write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": "key\twhere\tsource\tpublished\tcolour\n"})
    with pytest.raises(
        ValueError,
        match=r"line 1: the header is \['key', 'where', 'source', 'published', "
        r"'colour'\]; every claim table has the header \['key', 'end'",
    ):
        load_paper(path)
    write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("a.b", "T", "0.1", end="middle")})
    with pytest.raises(ValueError, match=r"t.tsv, line 2: field end: 'middle' is not one of"):
        load_paper(path)


def test_duplicate_yaml_keys_are_refused_naming_file_and_line(tmp_path):
    body = "id: demo\ntitle: t\ncite: c\nsources: []\nclaim_tables: [claims/t.tsv]\nclaim_tables: [claims/t.tsv]\n"
    path = write_paper(tmp_path / "demo", body, {"claims/t.tsv": HEADER})
    with pytest.raises(ValueError, match=r"paper.yaml, line 6: key 'claim_tables' appears twice .*first on line 5"):
        load_paper(path)


def test_the_same_claim_twice_is_a_slip_named_with_both_lines(tmp_path):
    path = write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("a.b", "T", "1") + row("a.b", "T", "2")})
    with pytest.raises(ValueError, match=r"t.tsv, line 3: the same claim .* is already made at .*t.tsv, line 2"):
        load_paper(path)


def test_a_yaml_alias_bomb_is_refused_before_expansion(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [
        f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
        f"*a{i - 1}, *a{i - 1}]"
        for i in range(1, 12)
    ]
    path = write_paper(tmp_path / "demo", "\n".join(lines) + "\n")
    with pytest.raises(ValueError, match="YAML aliases"):
        load_paper(path)


def test_a_published_value_must_be_finite(tmp_path):
    path = write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("a.b", "T", "nan")})
    with pytest.raises(ValueError, match="not a finite number"):
        load_paper(path)


def test_summary_warns_when_nothing_is_checked():
    summary, markdown = summarise({})
    assert "no paper is configured" in markdown and "No claim is missing" not in markdown
    empty = diff_claims([], pd.DataFrame({"key": [], "value": []}))
    summary, markdown = summarise({"p": empty})
    assert "warning: no claims" in markdown and "No claim is missing" not in markdown


def test_summary_explains_not_built_and_not_comparable():
    values = values_frame([{"key": "k", "value": 0.1, "scheme": "numpy; draws=1; seed=0; level=0.95"}])
    table = diff_claims(
        [claim("x", "1", needs={"languages": "Albanian"}), claim("k", "0.1", end="ci_low", under={"draws": 2000})],
        values,
        "moz",
        {"languages": ["Serbian"]},
        {},
    )
    summary, markdown = summarise({"moz": table})
    assert summary.iloc[0]["not_built"] == 1 and summary.iloc[0]["not_comparable"] == 1
    assert "why figures are not built" in markdown and "why figures are not comparable" in markdown


# ----------------------------------------------------------------- bounds and where a number is printed


@pytest.mark.parametrize(
    "relation, bound, computed, status",
    [
        (">", "40", 41.2, "holds"),
        (">", "40", 40.0, "mismatch"),
        (">", "40", 39.9, "mismatch"),
        ("<", "0.2", 0.126, "holds"),
        ("<", "0.2", 0.2, "mismatch"),
        (">", "1.6e6", 1_643_735, "holds"),
        ("<", "5e-13", 1.1e-16, "holds"),
        ("<", "5e-13", 6e-13, "mismatch"),
        (">", "0", 1e-12, "holds"),
    ],
)
def test_a_printed_bound_is_a_claim_that_holds_or_does_not(relation, bound, computed, status):
    """'over 40%' is the bound 40 with compare >: equal is not over; float noise at the bound counts as equal.
    A bound that the data keep holds: it is never counted as a match."""
    values = pd.DataFrame({"key": ["share"], "value": [computed]})
    table = diff_claims([claim("share", bound, compare=relation, note="two annotators")], values)
    assert table.loc[0, "status"] == status
    assert table.loc[0, "tolerance"] == 0 and table.loc[0, "published"] == bound
    assert table.loc[0, "reason"] == f"states {relation} {bound}; two annotators"


@pytest.mark.parametrize(
    "relation, bound, computed, status",
    [
        # a window's end is read to its printed digits: "2–4%" holds 4.2 (it prints as 4) and 4.5 (on the
        # rounding boundary, never a finding), not 4.51; "0.7–0.9" holds 0.65 but not 0.649
        ("<=", "4", 4.2, "holds"),
        ("<=", "4", 4.5, "holds"),
        ("<=", "4", 4.51, "mismatch"),
        (">=", "0.7", 0.65, "holds"),
        (">=", "0.7", 0.649, "mismatch"),
        (">=", "0.6", 0.6 - 1e-12, "holds"),
        ("<=", "0.4", 0.401, "holds"),
        ("<=", "0.40", 0.406, "mismatch"),
    ],
)
def test_a_window_end_is_read_to_its_printed_digits(relation, bound, computed, status):
    values = pd.DataFrame({"key": ["share"], "value": [computed]})
    table = diff_claims([claim("share", bound, compare=relation)], values)
    assert table.loc[0, "status"] == status
    assert table.loc[0, "tolerance"] == pytest.approx(printed_tolerance(bound))
    assert table.loc[0, "reason"].startswith(f"states {relation} {bound} (a window's end, read to its printed digits")


def test_a_bound_takes_no_tolerance_and_a_missing_value_is_still_missing():
    values = pd.DataFrame({"key": ["share"], "value": [np.nan]})
    assert diff_claims([claim("share", "40", compare=">")], values)["status"].tolist() == ["missing"]
    with pytest.raises(ValueError, match="a bound .compare >. is exact and takes no tolerance"):
        diff_claims([claim("share", "40", compare=">", tolerance=1.0)], values)


PINNED = (
    "id: demo\ntitle: t\ncite: c\nclaim_tables: [claims/t.tsv]\nsources:\n  - name: r.txt\n"
    "    url: https://raw.githubusercontent.com/o/r/5241a8bc2cb91b3ad39c0b79f26679427fd75491/results/r.txt\n"
)


@pytest.mark.parametrize(
    "source",
    [
        "paper",
        "replication",
        "internal",
        "repository: results/table2.txt@5241a8b",
        "repository: src/paper_results.py@5241a8bc2cb91b3ad39c0b79f26679427fd75491",
    ],
)
def test_a_claim_says_where_its_number_is_printed(tmp_path, source):
    path = write_paper(tmp_path / "demo", PINNED, {"claims/t.tsv": HEADER + row("a.b", "T", "1", source=source)})
    assert load_paper(path, SCHEMA)["claims"][0]["source"] == source


@pytest.mark.parametrize(
    "source, message",
    [
        (
            "repository: results/table2.txt@6baa8a8",
            "names commit 6baa8a8, which no source or document of the paper is pinned to",
        ),
        ("repository: results/table2.txt", "field source"),
        ("the authors' repository", "field source"),
        ("repository: a b.txt@5241a8b", "field source"),
    ],
)
def test_a_repository_source_names_a_file_at_the_pinned_commit(tmp_path, source, message):
    path = write_paper(tmp_path / "demo", PINNED, {"claims/t.tsv": HEADER + row("a.b", "T", "1", source=source)})
    with pytest.raises(ValueError, match=message):
        load_paper(path, SCHEMA)


def test_a_repository_claim_may_cite_the_commit_a_document_is_pinned_to(tmp_path):
    # the repository files a claim quotes are documents (fetched once, read by the ledger check)
    documents = PINNED.replace("sources:", "sources: []\ndocuments:")
    path = write_paper(
        tmp_path / "demo",
        documents,
        {"claims/t.tsv": HEADER + row("a.b", "T", "1", source="repository: results/r.txt@5241a8b")},
    )
    assert load_paper(path, SCHEMA)["claims"][0]["source"] == "repository: results/r.txt@5241a8b"


def test_a_bound_is_read_from_a_claim_table(tmp_path):
    path = write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("a.b", "T", "40", compare=">")})
    assert load_paper(path, SCHEMA)["claims"][0]["compare"] == ">"
    path = write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("a.b", "T", "40", compare="over")})
    with pytest.raises(ValueError, match="field compare"):
        load_paper(path, SCHEMA)


# ----------------------------------------------------------------- printed text and wider tolerances


def test_a_trailing_zero_a_percent_sign_and_separators_are_kept_as_printed(tmp_path):
    path = write_paper(
        tmp_path / "demo",
        PAPER,
        {
            "claims/t.tsv": HEADER
            + row("n.a", "T", "12.0")
            + row("p.a", "T", "9.3%")
            + row("c.a", "T", "19,991")
            + row("k.a", "T", "0.50")
        },
    )
    claims = load_paper(path)["claims"]
    assert [c["published"].text for c in claims] == ["12.0", "9.3%", "19,991", "0.50"]
    assert [printed_tolerance(c["published"]) for c in claims] == pytest.approx([0.05, 0.05, 0.5, 0.005])
    values = pd.DataFrame({"key": ["n.a", "p.a", "c.a", "k.a"], "value": [12.04, 9.24, 19991.4, 0.494]})
    table = diff_claims(claims, values)
    # 12.04 is 12.0 to one decimal (12 printed would also take 12.4); 0.494 is not 0.50 (0.5 would take it)
    assert table["status"].tolist() == ["match", "mismatch", "match", "mismatch"]
    assert table["published"].tolist() == ["12.0", "9.3%", "19,991", "0.50"]
    assert diff_claims([claim("n.a", "12")], values)["tolerance"].tolist() == [0.5]


def test_a_wide_tolerance_without_a_reason_is_refused_naming_file_and_line(tmp_path):
    path = write_paper(
        tmp_path / "demo",
        PAPER,
        {"claims/t.tsv": HEADER + row("a.b", "T", "0.2") + row("g.x", "T", "0.149", tolerance="0.01")},
    )
    with pytest.raises(
        ValueError,
        match=r"t.tsv, line 3: claim g.x: tolerance 0.01 is wider than the printed "
        r"precision of 0.149 \(0.0005\) and gives no reason: say why in the "
        r"tolerance_reason column",
    ):
        load_paper(path)
    path = write_paper(
        tmp_path / "demo",
        PAPER,
        {
            "claims/t.tsv": HEADER
            + row("g.x", "T", "0.149", tolerance="0.01", tolerance_reason="Monte Carlo: 1000 draws")
        },
    )
    assert load_paper(path)["claims"][0]["tolerance_reason"] == "Monte Carlo: 1000 draws"
    # no wider than the printed precision: no reason needed; a reason without a tolerance is a slip
    path = write_paper(
        tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("g.x", "T", "0.149", tolerance="0.0005")}
    )
    assert load_paper(path)["claims"][0]["tolerance"] == 0.0005
    path = write_paper(
        tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("g.x", "T", "0.149", tolerance_reason="why")}
    )
    with pytest.raises(ValueError, match=r"t.tsv, line 2: claim g.x: tolerance_reason is given but no tolerance"):
        load_paper(path)


def test_a_claim_is_uncheckable_or_not_recomputed_never_both(tmp_path):
    method = "the authors' B1 volume null (src/b1_volume_null.py)"
    path = write_paper(
        tmp_path / "demo",
        PAPER,
        {
            "claims/t.tsv": HEADER
            + row("a.b", "T", "0.2", not_recomputed=method)
            + row("g.x", "T", "0.149", uncheckable="never released", not_recomputed=method)
        },
    )
    with pytest.raises(ValueError) as refused:
        load_paper(path)
    assert "\n" not in str(refused.value)
    assert str(refused.value).startswith(
        f"{path.parent / 'claims' / 't.tsv'}, line 3: claim g.x: both uncheckable and not_recomputed are given"
    )
    # the column is read from the table into the claim, and gives the claim its status
    path = write_paper(
        tmp_path / "demo",
        PAPER,
        {"claims/t.tsv": HEADER + row("a.b", "T", "0.2", not_recomputed=method, note="printed by results/b1.txt")},
    )
    loaded = load_paper(path)["claims"]
    assert (loaded[0]["not_recomputed"], loaded[0]["note"]) == (method, "printed by results/b1.txt")
    table = diff_claims(loaded, pd.DataFrame({"key": ["x"], "value": [1.0]}))
    assert (table.loc[0, "status"], table.loc[0, "reason"]) == ("not recomputed", method)


# ----------------------------------------------------------------- variants, causes, the summary


def variant(key, family, name, value, own=""):
    return {"key": key, "family": family, "variant": name, "value": value, "own": own, "note": ""}


def test_a_mismatch_is_explained_by_the_variant_that_reproduces_it():
    # Mozetič's Serbian self-agreement: 0.205 printed, alpha 0.207528; alpha with the
    # expected disagreement over n^2 gives 0.205345 (numbers of the released labels).
    values = pd.DataFrame({"key": ["alpha.s", "alpha.t"], "value": [0.207528, 0.4]})
    found = pd.DataFrame(
        [
            variant("alpha.s", "alpha_expected_disagreement", "alpha.expected_n_minus_1", 0.207528, "yes"),
            variant("alpha.s", "alpha_expected_disagreement", "alpha.expected_n_squared", 0.205345),
            variant("alpha.t", "alpha_distance", "alpha.interval", 0.4, "yes"),
            variant("alpha.t", "alpha_distance", "alpha.ordinal", 0.61),
            variant("alpha.t", "alpha_distance", "alpha.ratio", np.nan),
        ]
    )
    plan = {"alpha.s": ["alpha_expected_disagreement"], "alpha.t": ["alpha_distance"]}
    table = diff_claims(
        [claim("alpha.s", "0.205"), claim("alpha.t", "0.5")], values, "p", variants=found, families_for=plan.get
    )
    assert table["status"].tolist() == ["mismatch", "mismatch"]
    assert table.loc[0, "explained_by"] == "reproduced by alpha.expected_n_squared (0.205345)"
    assert table.loc[0, "cause"] == "reproduced by alpha.expected_n_squared"
    # an own variant is reagree's value, an undefined one is not tried: one variant tried
    assert table.loc[1, "explained_by"] == "none of 1 variant tried reproduces 0.5"
    assert table.loc[1, "cause"] == ""
    # a family declared for a key without its rows is a defect, and so is an own variant that is not reagree's value
    with pytest.raises(ValueError, match="wrote no variants of \\['alpha_distance'\\]"):
        diff_claims(
            [claim("alpha.s", "0.205")],
            values,
            "p",
            variants=found,
            families_for=lambda key: ["alpha_expected_disagreement", "alpha_distance"],
        )
    wrong = found.assign(value=found["value"].where(found["own"] != "yes", 0.3))
    with pytest.raises(ValueError, match="the variants rule and the value rule disagree"):
        diff_claims([claim("alpha.s", "0.205")], values, "p", variants=wrong, families_for=plan.get)


def test_a_match_says_which_other_readings_reproduce_the_print():
    values = pd.DataFrame({"key": ["fleiss.h"], "value": [0.385431]})
    found = pd.DataFrame(
        [
            variant("fleiss.h", "chance_model", "kappa.fleiss", 0.385431, "yes"),
            variant("fleiss.h", "chance_model", "kappa.conger", 0.392082),
            variant("fleiss.h", "chance_model", "kappa.light", 0.390109),
            variant("fleiss.h", "chance_model", "kappa.randolph", 0.31),
        ]
    )
    table = diff_claims([claim("fleiss.h", "0.39")], values, variants=found)
    assert table.loc[0, "explained_by"] == (
        "also reproduced by kappa.conger (0.392082), kappa.light (0.390109): "
        "the printed value cannot tell these readings apart"
    )


def test_mismatches_are_grouped_by_cause_one_line_each():
    values = pd.DataFrame({"key": ["n.a", "p.a", "n.b", "t"], "value": [19909, 9.23179, 6437, 11]})
    found = pd.DataFrame(
        [
            variant("n.a", "counting", "count.label_pairs", 19991),
            variant("p.a", "counting", "count.label_pairs", 9.26981),
            variant("n.b", "counting", "count.label_pairs", 6519),
        ]
    )
    cause = "41 tweets labelled three times"
    table = diff_claims(
        [
            claim("n.a", "19,991", cause=cause),
            claim("p.a", "9.3%", cause=cause),
            claim("t", "0"),
            claim("n.b", "6,519", cause=cause),
        ],
        values,
        variants=found,
    )
    summary, markdown = summarise({"p": table})
    assert summary.loc[0, "mismatch"] == 4 and summary.loc[0, "finding_causes"] == 2
    lines = [line for line in markdown.splitlines() if line.startswith("- p: ")]
    assert len(lines) == 2
    # rounding up of 9.23179 would give 9.3: a note, never part of the explanation
    assert lines[0].startswith(
        f"- p: **{cause}** (3 figures): `n.a` (printed 19,991, mismatch 19909): reproduced by "
        "count.label_pairs (19991); `p.a` (printed 9.3%, mismatch 9.23179): reproduced by "
        "count.label_pairs (9.26981); `n.b`"
    )
    assert "rounding up" not in lines[0]
    assert (
        table.set_index("key")
        .loc["p.a", "rounding"]
        .startswith("rounding up of reagree's value (9.23179) would give 9.3%")
    )
    assert lines[1] == (
        "- p: `t` (printed 0, mismatch 11): no variant tried (none declared for this key); reagree's "
        "value does not reproduce 0"
    )


def test_the_summary_shows_every_count_on_every_line_zeros_included_in_one_order():
    values = pd.DataFrame({"key": ["a"], "value": [0.396]})
    summary, markdown = summarise(
        {
            "p": diff_claims([claim("a", "0.40")], values),
            "q": diff_claims([claim("b", "1", uncheckable="never released")], values),
        }
    )
    lines = [line for line in markdown.splitlines() if line.startswith("- **")]
    assert lines[0] == (
        "- **p**: 1 of 1 printed figures reproduced from the released data; 0 within a stated wider "
        "tolerance, 0 bounds that hold, 0 consistent with other printed numbers; 0 mismatches "
        "(findings), 0 inconsistent with other printed numbers (findings); 0 uncheckable, 0 not "
        "recomputed (data released, method not reimplemented), 0 not built (left out by the "
        "configuration), 0 not comparable (run under other settings), 0 missing (pipeline defects); "
        "1 claim; no value cross-checked against a field library (none computes one of its values)."
    )
    assert lines[1].startswith(
        "- **q**: 0 of 1 printed figures reproduced from the released data; 0 within a stated "
        "wider tolerance, 0 bounds that hold, 0 consistent with other printed numbers; 0 "
        "mismatches (findings), 0 inconsistent with other printed numbers (findings); 1 "
        "uncheckable, 0 not recomputed (data released, method not reimplemented), 0 not built"
    )


def test_the_summary_counts_not_recomputed_apart_right_after_uncheckable_with_its_reasons():
    # by hand: four figures, one match, one uncheckable, two not recomputed under one reason; no finding
    b1 = "the authors' B1 volume null (src/b1_volume_null.py)"
    values = pd.DataFrame({"key": ["a"], "value": [0.396]})
    table = diff_claims(
        [
            claim("a", "0.40"),
            claim("b1.x", "0.2", not_recomputed=b1),
            claim("b1.y", "0.3", not_recomputed=b1),
            claim("llm", "0.5", uncheckable="never released"),
        ],
        values,
    )
    summary, markdown = summarise({"p": table})
    columns = list(summary.columns)  # summary.tsv's columns
    assert columns[columns.index("uncheckable") + 1] == "not_recomputed"
    row = summary.iloc[0]
    assert (row["match"], row["uncheckable"], row["not_recomputed"], row["mismatch"], row["figures"]) == (1, 1, 2, 0, 4)
    line = next(line for line in markdown.splitlines() if line.startswith("- **p**"))
    assert (
        "; 1 uncheckable, 2 not recomputed (data released, method not reimplemented), 0 not built (left out by "
        "the configuration),"
    ) in line
    assert f"## p: why figures are not recomputed\n\n- 2 figures: {b1}\n" in markdown
    assert "## p: why figures are uncheckable\n\n- 1 figure: never released\n" in markdown
    assert "Findings" not in markdown


def test_a_value_the_field_library_disagrees_with_is_a_counted_defect():
    values = pd.DataFrame(
        {
            "key": ["k.a", "k.b", "k.c", "k.d"],
            "value": [0.5, 0.4, 0.3, np.nan],
            "reference": [
                "scikit-learn 1.9: cohen_kappa_score",
                "statsmodels: fleiss_kappa",
                "",
                "krippendorff: alpha",
            ],
            "reference_value": [0.5 + 5e-10, 0.4 + 1e-6, np.nan, 0.2],
        }
    )
    table = diff_claims([claim("k.a", "0.5")], values)
    summary, markdown = summarise({"p": table}, {"p": values})
    assert summary.loc[0, "reference_checked"] == 3 and summary.loc[0, "reference_differs"] == 2
    assert "**2 values differ from the field library's value by more than 1e-9" in markdown
    assert "| k.b | 0.4 | statsmodels: fleiss_kappa | 0.400001 | -1e-06 |" in markdown
    assert "| k.d | nan | krippendorff: alpha | 0.2 |" in markdown


def test_every_missing_part_of_a_need_is_named():
    from reagree.pipeline.claims import unmet_need

    expansions = {"language": {"values": ["Serbian"], "setting": "languages"}}
    needs = {"language": ["Serbian", "Croatian", "Bosnian"]}
    assert unmet_need(needs, "moz", {}, expansions) == (
        "languages Croatian and Bosnian were not built (add them to config moz.languages)"
    )
    assert (
        unmet_need({"myths": ["a", "b", "c"]}, "shv", {"myths": ["b"]}, {})
        == "needs a and c in config shv.myths; this build has ['b']"
    )


def test_an_approximate_word_is_read_from_a_claim_table_and_takes_no_tolerance(tmp_path):
    path = write_paper(
        tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("n.a", "T", "20,000", approximate="about")}
    )
    assert load_paper(path, SCHEMA)["claims"][0]["approximate"] == "about"
    path = write_paper(
        tmp_path / "demo",
        PAPER,
        {
            "claims/t.tsv": HEADER
            + row("n.a", "T", "20,000", approximate="about", tolerance="5000", tolerance_reason="round")
        },
    )
    with pytest.raises(
        ValueError,
        match=r"t.tsv, line 2: claim n.a: an approximate word \('about'\) sets the "
        r"tolerance by the one rule",
    ):
        load_paper(path, SCHEMA)
    path = write_paper(tmp_path / "demo", PAPER, {"claims/t.tsv": HEADER + row("n.a", "T", "20", approximate="ca.")})
    with pytest.raises(ValueError, match=r"t.tsv, line 2: field approximate: 'ca.' is not one of"):
        load_paper(path, SCHEMA)
