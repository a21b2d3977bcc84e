"""`reagree explain KEY`: one claim of a build, read from its claims.tsv and variants files."""

import pandas as pd
import pytest

from reagree.pipeline.claims import diff_claims
from reagree.pipeline.explain import BuildMissing, explain
from reagree.pipeline.paperspec import PrintedNumber
from reagree.pipeline.tables import write_tsv
from reagree.pipeline.variantplan import variant_rows, write_variants
from reagree.stats.undefined import Undefined


def claim(key, published, where="Table 2"):
    return {"key": key, "where": where, "source": "paper", "published": PrintedNumber(published)}


@pytest.fixture
def results(tmp_path):
    """A build of paper p: a mismatch a variant reproduces (Mozetič's Serbian 0.205 against
    0.207528; n^2 in the expected disagreement gives 0.205345), a mismatch none does, and a
    match. The variants sit in variants/*.tsv, as a paper with several variant rules writes them."""
    values = pd.DataFrame({"key": ["alpha.s", "alpha.t", "kappa.u"], "value": [0.207528, 0.4, 0.61]})
    rows = variant_rows(
        "alpha.s",
        "alpha_expected_disagreement",
        {"alpha.expected_n_minus_1": 0.207528, "alpha.expected_n_squared": 0.205345},
        own="alpha.expected_n_minus_1",
    ) + variant_rows(
        "alpha.t",
        "alpha_distance",
        {"alpha.interval": 0.4, "alpha.ordinal": 0.61, "alpha.ratio": Undefined("negative values")},
        own="alpha.interval",
    )
    (tmp_path / "p" / "variants").mkdir(parents=True)
    write_variants(rows[:2], tmp_path / "p" / "variants" / "a.tsv")
    write_variants(rows[2:], tmp_path / "p" / "variants" / "b.tsv")
    variants = pd.DataFrame(rows)
    plan = {"alpha.s": ["alpha_expected_disagreement"], "alpha.t": ["alpha_distance"]}
    table = diff_claims(
        [claim("alpha.s", "0.205"), claim("alpha.t", "0.5"), claim("kappa.u", "0.61")],
        values,
        "p",
        variants=variants,
        families_for=lambda key: plan.get(key, []),
    )
    write_tsv(table, tmp_path / "p" / "claims.tsv")
    return tmp_path


def test_a_mismatch_shows_every_variant_and_the_one_that_reproduces_it(results):
    text = explain("alpha.s", results)
    lines = text.splitlines()
    assert lines[0] == "p: alpha.s"
    assert lines[1] == "  where     Table 2 (source: paper)"
    assert lines[2] == "  printed   0.205  (precision: within 0.0005, half a unit of its last printed digit)"
    assert lines[3] == "  reagree   0.207528  status: mismatch; difference +0.00253"
    assert lines[4] == "  checked   the released data do not give it back (a finding)"
    assert lines[5] == f"  variants  1 tried ({results / 'p' / 'variants'}/*.tsv), reagree's value first:"
    assert lines[7].split() == ["reagree's", "value", "0.207528", "no"]
    n_minus_1, n_squared = lines[8].split(), lines[9].split()
    assert n_minus_1[:3] == ["alpha_expected_disagreement", "alpha.expected_n_minus_1", "0.207528"]
    assert "reagree's own reading (the value above)" in lines[8]
    assert n_squared[:3] == ["alpha_expected_disagreement", "alpha.expected_n_squared", "0.205345"]
    assert "yes, at printed precision" in lines[9]
    assert "  explained reproduced by alpha.expected_n_squared (0.205345)" in lines
    assert "  cause     reproduced by alpha.expected_n_squared" in lines


def test_none_reproduces_and_a_variant_that_does_not_apply_says_why(results):
    lines = explain("alpha.t", results, paper="p").splitlines()
    ordinal = next(line for line in lines if "alpha.ordinal" in line)
    ratio = next(line for line in lines if "alpha.ratio" in line)
    assert ordinal.split()[2:4] == ["0.61", "no"]
    assert "not applicable: negative values" in ratio
    assert "  explained none of 1 variant tried reproduces 0.5" in lines


def test_a_claim_without_declared_variants_says_so(results):
    text = explain("kappa.u", results)
    assert "status: match" in text
    assert "(the paper declares no variant family for this key: workflow/papers/p/p/variants.py)" in text


def test_a_typo_gets_the_nearest_keys_and_no_build_says_what_to_run(results, tmp_path_factory):
    with pytest.raises(
        ValueError,
        match=r"no claim has the key 'alpha.ss' in the claims of .*; did you mean "
        r"'alpha.s' or 'alpha.t'\?",
    ):
        explain("alpha.ss", results)
    empty = tmp_path_factory.mktemp("empty")
    with pytest.raises(BuildMissing, match=r"no build in .*: run `make all`"):
        explain("alpha.s", empty)
    with pytest.raises(BuildMissing, match=r"no build of q in .*claims.tsv is missing\): run `make all`"):
        explain("alpha.s", results, paper="q")


def test_a_match_is_not_also_reproduced_by_a_variant_that_only_truncates_to_the_print(tmp_path):
    # shvets2026's Table 4: 7.7 printed, the replayed estimate 7.702 matches; the exact
    # expectation 7.7778 gives 7.7 only when truncated, which is not printed precision
    values = pd.DataFrame({"key": ["lag.e"], "value": [7.702]})
    rows = variant_rows(
        "lag.e",
        "chance_expectation",
        {"expected.exact": 7.7778, "expected.python_random": 7.702},
        own="expected.python_random",
    )
    (tmp_path / "p" / "variants").mkdir(parents=True)
    write_variants(rows, tmp_path / "p" / "variants" / "phase_shift.tsv")
    table = diff_claims(
        [claim("lag.e", "7.7")],
        values,
        "p",
        variants=pd.DataFrame(rows),
        families_for=lambda key: ["chance_expectation"],
    )
    write_tsv(table, tmp_path / "p" / "claims.tsv")
    lines = explain("lag.e", tmp_path).splitlines()
    exact = next(line for line in lines if "expected.exact" in line)
    assert exact.split()[2:6] == ["7.7778", "no", "(by", "truncation"]
    assert "only: a note)" in exact
    assert "  explained the one other variant tried does not reproduce it" in lines


def test_explain_from_a_subfolder_finds_the_checkout_above_it(results, monkeypatch, capsys):
    """A user who ran `cd results` (or into a paper's folder) still gets the build: the
    checkout is looked for upward, as git looks for .git."""
    from reagree.cli import main

    checkout = results.parent / "checkout"
    (checkout / "workflow" / "papers").mkdir(parents=True)
    (checkout / "Snakefile").write_text("")
    results.rename(checkout / "results")
    monkeypatch.chdir(checkout / "results" / "p")
    assert main(["explain", "alpha.s"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "p: alpha.s"


def test_explain_outside_any_checkout_says_where_it_looked(tmp_path, monkeypatch, capsys):
    from reagree.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["explain", "alpha.s"]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "no reagree checkout" in said
    assert f"looked in {tmp_path.resolve()}, {tmp_path.resolve().parent}" in said and "--root DIR" in said


def test_a_not_recomputed_claim_says_the_data_are_released_and_names_the_method(tmp_path):
    method = "the authors' B1 volume null (src/b1_volume_null.py)"
    table = diff_claims(
        [
            {**claim("b1.null", "0.04"), "not_recomputed": method},
            {**claim("llm.k", "0.5"), "uncheckable": "labels never released"},
        ],
        pd.DataFrame({"key": ["x"], "value": [1.0]}),
        "p",
    )
    (tmp_path / "p").mkdir()
    write_tsv(table, tmp_path / "p" / "claims.tsv")
    lines = explain("b1.null", tmp_path).splitlines()
    assert lines[3:7] == [
        "  reagree   (not compared)  status: not recomputed",
        "  checked   nothing: the data are released, but reagree does not reimplement the method "
        "that printed it (the reason below names it)",
        f"  reason    {method}",
        "  variants  none tried (a claim that is not recomputed is not compared)",
    ]
    assert (
        "  checked   nothing: what was released or fetched cannot give it (the reason below)"
        in explain("llm.k", tmp_path).splitlines()
    )
