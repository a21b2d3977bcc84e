"""A new user's second hour (issue 27): adding a paper and reading the report without a
wrong turn. Each wrong turn says what to do in one line, asserted on the text the user sees.

- a typo in one paper's claims fails that paper alone: the others' results stand, the
  summary and the report say which paper failed and why, ``reagree explain`` says so too,
  and the run's last line is the error (a copy of the session's demo build);
- ``reagree audit`` on a long table with other column names names the options to give;
- a paper no field library cross-checks is said to be unchecked, not "0 of 0 agree";
- a run of some papers says which papers it left out, in the summary and the report.

The report at 1,280 px (no page wider than the window, every figure loaded, findings
once) is tests/report/test_report.py's browser test.
"""

from __future__ import annotations

import pandas as pd
import pytest

from reagree import cli
from reagree.pipeline.claims import diff_claims, read_claims, summarise
from reagree.pipeline.explain import explain
from reagree.pipeline.failures import ending, failed_papers, one_line

from conftest import DEMO, ROOT, copy_build, run_snakemake

CLAIMS_TABLE = "workflow/papers/demo/claims/demo.tsv"
TYPO = ("agreement.a_b.part_a\t", "agreement.a_b.prt_a\t")


def claim(key: str, published: str) -> dict:
    return {
        "key": key,
        "published": published,
        "source": "paper",
        "where": "Table 1",
        "_where_defined": "t.tsv, line 2",
    }


# ------------------------------------------------------------ 5. one paper's claims error


@pytest.mark.e2e
def test_a_typo_in_one_papers_claims_fails_that_paper_alone(demo_build, tmp_path_factory):
    work = copy_build(demo_build, tmp_path_factory, "claims_typo")
    results = work / "results"
    before = read_claims(results / "agreement_before_accuracy" / "claims.tsv")
    counted = pd.read_csv(results / "summary.tsv", sep="\t", keep_default_na=False).set_index("paper")
    table = work / CLAIMS_TABLE
    table.write_text(table.read_text().replace(*TYPO))

    result = run_snakemake(work, configfile=DEMO, check=False, cores=1)
    assert result.returncode != 0
    last = result.stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith(
        "reagree: demo: workflow/papers/demo/claims/demo.tsv, line 3: claim key "
        "'agreement.a_b.prt_a' is produced by no rule; did you mean 'agreement.a_b.part_a'"
    ), last
    # the other paper's results stand; the failed paper's verdicts are withdrawn
    after = read_claims(results / "agreement_before_accuracy" / "claims.tsv")
    assert len(after) == len(before) > 100 and (after["status"] == before["status"]).all()
    assert len(read_claims(results / "demo" / "claims.tsv")) == 0
    assert not (results / "claims_diffed.txt").exists()
    summary = pd.read_csv(results / "summary.tsv", sep="\t", keep_default_na=False).set_index("paper")
    assert summary.loc["demo", "failed"].startswith("workflow/papers/demo/claims/demo.tsv, line 3: claim key")
    assert summary.loc["agreement_before_accuracy", "failed"] == ""
    assert (
        summary.loc["agreement_before_accuracy", "match":"claims"]
        == counted.loc["agreement_before_accuracy", "match":"claims"]
    ).all()
    markdown = (results / "summary.md").read_text()
    line = next(line for line in markdown.splitlines() if line.startswith("- **demo**"))
    assert line.startswith(
        "- **demo**: **failed: its claims could not be diffed**, so none of its verdicts stands: "
        "workflow/papers/demo/claims/demo.tsv, line 3: claim key 'agreement.a_b.prt_a'"
    )
    assert "**Failed: the claims of demo could not be diffed**" in markdown
    page = (results / "report.html").read_text(encoding="utf-8")
    assert "1 paper failed: demo</strong>" in page and "claim key &#x27;agreement.a_b.prt_a&#x27;" in page
    # explain on a key of the failed paper says it failed and why
    with pytest.raises(
        ValueError,
        match=r"demo failed, its claims could not be diffed, so none of its keys has a "
        r"verdict: workflow/papers/demo/claims/demo.tsv, line 3",
    ):
        explain("agreement.a_b.part_a", results, paper="demo")

    # a run that has nothing else to do fails the same way, until the claims are fixed
    again = run_snakemake(work, configfile=DEMO, check=False, cores=1)
    assert again.returncode != 0 and again.stderr.rstrip("\n").splitlines()[-1] == last
    table.write_text(table.read_text().replace(TYPO[1], TYPO[0]))
    run_snakemake(work, configfile=DEMO, cores=1)
    assert (results / "claims_diffed.txt").read_text() == (
        "agreement_before_accuracy: claims diffed\ndemo: claims diffed\n"
    )
    assert (results / "demo" / "claims_error.txt").read_text() == ""
    assert len(read_claims(results / "demo" / "claims.tsv")) == 3
    assert "failed" not in (results / "summary.md").read_text()


def test_the_failure_record_is_one_line_and_the_ending_ends_with_the_error(tmp_path):
    error = ValueError(
        "t.tsv, line 2: claim key 'a' is produced by no rule\nt.tsv, line 3: claim key 'b' is produced by no rule"
    )
    said = one_line(error)
    assert said == (
        "t.tsv, line 2: claim key 'a' is produced by no rule; t.tsv, line 3: claim key 'b' is produced by no rule"
    )
    (tmp_path / "p").mkdir()
    (tmp_path / "q").mkdir()
    (tmp_path / "p" / "claims_error.txt").write_text(said + "\n")
    (tmp_path / "q" / "claims_error.txt").write_text("")
    assert failed_papers(tmp_path, ["p", "q", "r"]) == {"p": said}
    lines = ending({"p": said})
    assert lines[0].startswith(
        "reagree: the claims of p could not be diffed: its verdicts are withdrawn; every other paper's results stand"
    )
    assert lines[-1] == f"reagree: p: {said}"
    assert ending({}) == []


# ------------------------------------------------------------ 7. the audit's column names


def test_audit_on_other_column_names_says_how_to_name_them(tmp_path, capsys):
    table = tmp_path / "labels.csv"
    table.write_text("subject,coder,code\ns1,a,x\ns1,b,y\ns2,a,x\ns2,b,x\n")
    assert cli.main(["audit", str(table)]) == 2
    assert capsys.readouterr().err == (
        f"reagree audit: {table}: missing column(s) ['unit', 'rater', 'label']; found ['subject', 'coder', 'code']; "
        "name the columns that hold the unit, the rater and the label: --unit subject --rater coder --label code\n"
    )
    # a column given by its default name stays; the one missing is the one left
    table.write_text("rater,subject,label\na,s1,x\nb,s1,y\n")
    assert cli.main(["audit", str(table)]) == 2
    assert capsys.readouterr().err.endswith("--unit subject --rater rater --label label\n")
    # the names say which is which, in any order ("judge_id" is a rater, "item_id" a unit)
    table.write_text("answer,judge_id,item_id,batch\nx,a,s1,1\nx,b,s1,1\ny,a,s2,1\n")
    assert cli.main(["audit", str(table)]) == 2
    assert capsys.readouterr().err.endswith("--unit item_id --rater judge_id --label answer\n")


# ------------------------------------------------------------ 8. nothing cross-checked


def test_a_paper_no_field_library_checks_says_nothing_was_cross_checked():
    values = pd.DataFrame({"key": ["a"], "value": [0.396]})  # no reference column: a new paper's values
    _, markdown = summarise({"new": diff_claims([claim("a", "0.40")], values)}, {"new": values})
    assert "no value cross-checked against a field library (none computes one of its values)" in markdown
    assert (
        "Nothing was cross-checked against a field library: no value of this paper is one krippendorff, "
        "statsmodels or scikit-learn computes." in markdown
    )
    assert "No field library disagrees" not in markdown and "among 0 values" not in markdown
    # beside a paper that is cross-checked, the unchecked one is named
    checked = values.assign(reference="krippendorff: alpha", reference_value=[0.396])
    _, markdown = summarise(
        {"old": diff_claims([claim("a", "0.40")], checked), "new": diff_claims([claim("a", "0.40")], values)},
        {"old": checked, "new": values},
    )
    assert (
        "No field library disagrees: every value krippendorff, statsmodels or scikit-learn also computes "
        "(1 values) is the same to 1e-9. Not cross-checked (no value a field library computes): new."
    ) in markdown


# ------------------------------------------------------------ 9. a run of some papers


def test_a_run_of_some_papers_says_which_it_left_out(tmp_path):
    from reagree.report import build_report

    values = pd.DataFrame({"key": ["a"], "value": [0.396]})
    table = diff_claims([claim("a", "0.40")], values)
    summary, markdown = summarise({"x": table}, {"x": values}, left_out=["y", "z"])
    assert markdown.splitlines()[2] == (
        "**built: x; not in this run: y, z** (config `papers`; a run of every paper lists them all)"
    )
    assert "not in this run" not in summarise({"x": table}, {"x": values})[1]
    results = tmp_path / "results"
    (results / "x").mkdir(parents=True)
    table.to_csv(results / "x" / "claims.tsv", sep="\t", index=False)
    summary.to_csv(results / "summary.tsv", sep="\t", index=False)
    build_report(results, {"x": {"title": "X"}}, [], tmp_path / "report.html", left_out=["y", "z"])
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.index("built: x; not in this run: y, z") < page.index('<section id="summary">')


# ------------------------------------------------------------ the audit on one screen (issue 26)


def test_the_audit_text_fits_one_screen_and_full_prints_everything(capsys):
    args = [
        "audit",
        str(ROOT / "examples" / "triage_long.csv"),
        "--unit",
        "ticket",
        "--rater",
        "annotator",
        "--label",
        "severity",
        "--level",
        "ordinal",
        "--order",
        "low,medium,high,urgent",
        "--bootstrap",
        "200",
    ]
    assert cli.main(args) == 0
    screen = capsys.readouterr().out.splitlines()
    assert len(screen) <= 50
    assert screen[0].startswith("ordinal alpha 0.82 [") and "; without rater B: 0.83" in screen[0]
    assert screen[3].startswith("Design: 80 units, 4 raters (fixed), 284 ratings, 11.2% of unit x rater cells")
    assert screen[4].startswith("Labels (in the given order): low 89 (31.3%)")
    for heading in (
        "Coefficients",
        "Raters (whose removal raises ordinal alpha most first",
        "Items to adjudicate first",
        "Most confused",
    ):
        assert any(line.startswith(heading) for line in screen), heading
    raters = screen[screen.index(next(line for line in screen if line.startswith("Raters"))) + 2 :][:4]
    assert [line.split()[0] for line in raters] == ["B", "D", "C", "..."]  # the three worst, then how many more
    assert screen[-1].startswith("more with --full:")
    assert cli.main([*args, "--full"]) == 0
    full = capsys.readouterr().out
    for part in (
        "Pairs (units both labelled)",
        "Analytic inference",
        "Weighted (ordered labels",
        "Per category (Fleiss kappa_j",
        "Majority vote and ties",
        "  A          72",
    ):
        assert part in full, part
    assert "Pairs (units both labelled)" not in "\n".join(screen)
