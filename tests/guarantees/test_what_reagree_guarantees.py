"""Hardening: never report a number that did not come from the pinned inputs; every bad
input gets a clear error.

- Bootstrap settings that differ from a paper's turn into `not comparable`, never into
  mismatches (the write-up's numpy intervals of jayanetti2026; mozetic2016's own draws).
- An interval with too many undefined draws is refused, and the count is shown.
- Every coefficient refuses NaN, negative and fractional counts and NaN table cells,
  naming the cell.
- Data errors name the file and the line (or the key, the unit, the rater), in one line.
- The same inputs, lock and config give the same bytes, from an empty results/.

Expected values are worked out here by hand or come from the papers' claims.
"""

from __future__ import annotations

import math
import re
import shutil
import sys

import numpy as np
import pandas as pd
import pytest
import yaml

from reagree.stats import bootstrap as bootstrap_module
from reagree.stats import multirater, pairwise
from reagree.stats.alpha import LEVELS, alpha_statistic, coincidence_matrix, krippendorff_alpha
from reagree.stats.bootstrap import (
    MAX_UNDEFINED_SHARE,
    bootstrap,
    bootstrap_interval,
    bootstrap_intervals,
    interval_from_draws,
    paired_difference,
)
from reagree.pipeline.claims import read_claims
from reagree.pipeline.paperspec import load_paper
from reagree.stats.ratings import MISSING, Ratings, check_unit_counts
from reagree.pipeline.readers import read_label_table, require_complete
from reagree.pipeline.settings import resolve_config
from reagree.pipeline.tables import interval_columns, read_values, value_row, write_table, write_values
from reagree.stats.undefined import reason_of

from conftest import DEMO, MOZETIC_LANGUAGES, PAPERS, ROOT, copy_build, project_copy, run_snakemake

WORKFLOW = ROOT / "workflow"
J26_MAJORITY = (
    "raw.githubusercontent.com/himarshaj/hard-to-reach-environments/"
    "e74bb77504f534fa11707103f6e5c098017064d2/sentiment_analysis_tools/"
    "sampled_tweets100_translated-majorityvote.tsv"
)


def jayanetti_release():
    """jayanetti2026's reader module."""
    from jayanetti2026 import release

    return release


# ================================================================ 3. other bootstrap settings


def _reads_the_bootstrap_config(paper: str) -> bool:
    """Whether a paper's intervals follow config.bootstrap or a draws setting of its own."""
    rules = (WORKFLOW / "papers" / paper / "rules.smk").read_text()
    return 'config["bootstrap"]' in rules or '["draws"]' in rules


@pytest.mark.parametrize("paper", PAPERS)
def test_every_interval_claim_that_follows_the_config_says_what_it_was_printed_under(paper):
    claims = load_paper(WORKFLOW / "papers" / paper / "paper.yaml")["claims"]
    on_intervals = [
        c
        for c in claims
        if not (c.get("uncheckable") or c.get("not_recomputed"))
        and (c.get("end") or "half_width" in c["key"] or c["key"].startswith("width."))
    ]
    if not _reads_the_bootstrap_config(paper):
        # agreement_before_accuracy draws with its own fixed generator (2,000 draws of
        # random.Random(100000 + d)), whatever the config says; shvets2026 has no intervals
        assert paper in ("agreement_before_accuracy", "shvets2026")
        return
    for claim in on_intervals:
        under = claim.get("under") or {}
        assert {"draws", "level"} <= set(under), (paper, claim["key"], claim.get("end"))
    if paper == "jayanetti2026":  # the write-up's own scheme and seed
        assert all(c["under"] == {"scheme": "numpy", "draws": 2000, "seed": 0, "level": 0.95} for c in on_intervals)


def test_the_papers_hold_interval_claims_that_follow_the_config():
    """The test above is not vacuous: papers that follow config.bootstrap print interval claims
    (a paper just scaffolded, with no claims yet, has none)."""
    following = [paper for paper in PAPERS if _reads_the_bootstrap_config(paper)]
    assert (
        following
        and sum(
            bool(c.get("end"))
            for paper in following
            for c in load_paper(WORKFLOW / "papers" / paper / "paper.yaml")["claims"]
        )
        >= 10
    )


@pytest.fixture(scope="module")
def jayanetti_other_draws(offline_build, tmp_path_factory, mirror):
    """jayanetti2026 alone, built again in a copy of the session's build under bootstrap
    settings other than the write-up's, given on the command line: only the jobs that read
    the bootstrap settings run again. (That a whole number written as a float in a config
    file reaches the bootstrap as an int: tests/pipeline/test_settings.py.)"""
    work = copy_build(offline_build, tmp_path_factory, "j26_draws")
    (work / "j26.yaml").write_text(yaml.safe_dump({"papers": ["jayanetti2026"], "mirror": str(mirror), "datasets": {}}))
    run_snakemake(work, "--config", "bootstrap={draws: 50, seed: 0}", configfile="j26.yaml")
    return work, 50


@pytest.mark.e2e
def test_other_bootstrap_settings_make_interval_claims_not_comparable(jayanetti_other_draws):
    work, draws = jayanetti_other_draws
    claims = read_claims(work / "results" / "jayanetti2026" / "claims.tsv")
    ends = claims[claims["end"] != ""]
    assert len(ends) == 10
    assert (ends["status"] == "not comparable").all(), ends[["key", "end", "status"]].to_string()
    for reason in ends["reason"]:
        assert re.search(r"draws 2000(\.0)? \(printed\)", reason) and f"vs {draws} (this run)" in reason, reason
    assert not (claims["status"] == "missing").any()
    # the only finding is the one the paper's own numbers give, never an interval
    assert claims.loc[claims["status"] == "mismatch", "end"].eq("").all()
    assert claims.loc[claims["status"] == "mismatch", "key"].tolist() == ["count.ties.three_class"]
    values = read_values(work / "results" / "jayanetti2026" / "values.tsv").set_index("key")
    assert values.loc["fleiss.humans.three_class", "scheme"] == f"numpy; draws={draws}; seed=0; level=0.95"
    summary = (work / "results" / "summary.md").read_text()
    assert "10 not comparable (run under other settings)" in summary


@pytest.mark.e2e
def test_mozetic_half_widths_under_other_draws_are_not_comparable(offline_build, tmp_path_factory, mirror):
    # a copy of the session's build: only mozetic2016's jobs that read its draws run again
    work = copy_build(offline_build, tmp_path_factory, "m16_draws")
    (work / "m16.yaml").write_text(
        yaml.safe_dump(
            {
                "papers": ["mozetic2016"],
                "mirror": str(mirror),
                "datasets": {},
                "mozetic2016": {"languages": MOZETIC_LANGUAGES, "draws": 50},
            }
        )
    )
    run_snakemake(work, configfile="m16.yaml")
    claims = read_claims(work / "results" / "mozetic2016" / "claims.tsv")
    built = claims[
        claims["key"].str.startswith("alpha_interval_half_width.")
        & ~claims["status"].isin(["not built", "uncheckable"])
    ]
    assert len(built) == 2  # Ser/Cro/Bos self and inter
    assert (built["status"] == "not comparable").all(), built.to_string()
    assert built["reason"].str.contains("vs 50 \\(this run\\)").all()


# ================================================================ 4. undefined draws


def test_an_interval_with_more_than_the_stated_share_of_undefined_draws_is_refused():
    assert MAX_UNDEFINED_SHARE == 0.05
    assert "MAX_UNDEFINED_SHARE" in bootstrap_module.__doc__
    values = np.arange(2000, dtype=float)
    values[np.random.default_rng(0).permutation(2000)[:731]] = np.nan  # the rare category
    interval = interval_from_draws(values, 0.95, seed=0)
    assert math.isnan(interval.low) and math.isnan(interval.high)
    assert "731 of 2000 bootstrap draws are undefined" in reason_of(interval.low)
    assert interval.undefined_draws == 731 and interval.draws == 2000
    # at the share exactly (100 of 2000) the interval comes from the other 1,900, counted
    values = np.arange(2000, dtype=float)
    values[:100] = np.nan
    kept = interval_from_draws(values, 0.95, seed=0)
    assert (kept.low, kept.high, kept.undefined_draws) == (147.0, 1952.0, 100)  # ranks 48 and 1853 of 100..1999
    values[100] = np.nan
    assert math.isnan(interval_from_draws(values, 0.95, seed=0).low)
    assert interval_from_draws(values, 0.95, seed=0, max_undefined_share=1.0).low == 148.0


def rare_category_counts() -> np.ndarray:
    """40 units, three raters; one unit holds the only ratings of a rare category, so a
    resample without that unit has no rare rating: its kappa is undefined on about
    (39/40)^40 = 36% of the draws."""
    counts = np.array([[3, 0, 0]] * 20 + [[0, 3, 0]] * 10 + [[2, 1, 0]] * 9 + [[1, 0, 2]])
    return counts


def test_a_rare_category_gives_no_interval_and_the_count_is_shown(tmp_path):
    statistic = multirater.fleiss_category_statistic(rare_category_counts(), 2)
    interval = bootstrap_interval(statistic, 2000, 0, 0.95)
    undefined = int(np.isnan(bootstrap([statistic], 2000, 0)[0]).sum())
    assert 0.30 < undefined / 2000 < 0.42
    assert interval.undefined_draws == undefined
    assert math.isnan(interval.low) and f"{undefined} of 2000 bootstrap draws are undefined" in reason_of(interval.low)
    # the same draws inside a paired difference: refused too
    _, difference = paired_difference(multirater.fleiss_statistic(rare_category_counts()), statistic, 2000, 0, 0.95)
    assert math.isnan(difference.high) and difference.undefined_draws == undefined
    # values.tsv: the count in its column, the reason with the count in the note
    write_values([value_row("fleiss_category.rare", statistic.value(), interval=interval)], tmp_path / "values.tsv")
    row = read_values(tmp_path / "values.tsv").iloc[0]
    assert row["undefined_draws"] == undefined
    assert math.isnan(row["ci_low"]) and f"{undefined} of 2000 bootstrap draws are undefined" in row["note"]
    # a table: an Interval column is written as its ends, its count and its scheme
    common = bootstrap_interval(multirater.fleiss_category_statistic(rare_category_counts(), 0), 2000, 0, 0.95)
    frame = pd.DataFrame(
        {"category": ["common", "rare"], "kappa": [0.5, statistic.value()], "interval": [common, interval]}
    )
    write_table(frame, tmp_path / "kappas.tsv", "Per-category kappa", {"source": "made up here"})
    table = pd.read_csv(tmp_path / "kappas.tsv", sep="\t")
    assert table.columns.tolist() == ["category", "kappa", "ci_low", "ci_high", "undefined_draws", "interval"]
    assert table["undefined_draws"].tolist() == [common.undefined_draws, undefined]
    markdown = (tmp_path / "kappas.md").read_text()
    assert "undefined_draws" in markdown and "more than 5% of its draws undefined is refused" in markdown
    assert interval_columns(interval)["undefined_draws"] == undefined


def test_a_few_undefined_draws_are_left_out_counted_and_noted():
    # 60 units, one of them the only one with a second category: the kappa is undefined
    # on the ~(59/60)^60 = 36% of resamples without it; with 4 such units it is ~1.8%
    counts = np.array([[2, 0]] * 56 + [[1, 1]] * 4)
    statistic = multirater.fleiss_statistic(counts)
    interval = bootstrap_interval(statistic, 2000, 3, 0.95)
    undefined = int(np.isnan(bootstrap([statistic], 2000, 3)[0]).sum())
    assert 0 < undefined <= 100 and interval.undefined_draws == undefined
    assert np.isfinite(interval.low) and np.isfinite(interval.high)
    row = value_row("fleiss.few", statistic.value(), interval=interval)
    assert row["undefined_draws"] == undefined and f"{undefined} of 2000 bootstrap draws undefined" in row["note"]
    [again] = bootstrap_intervals([statistic], 2000, 3, 0.95)
    assert again == interval


# ================================================================ 5. coefficients validate their input

COUNT_COEFFICIENTS = {
    "percent_agreement": multirater.percent_agreement,
    "percent_agreement_statistic": multirater.percent_agreement_statistic,
    "brennan_prediger": multirater.brennan_prediger,
    "pabak": multirater.pabak,
    "brennan_prediger_statistic": multirater.brennan_prediger_statistic,
    "gwet_ac1": multirater.gwet_ac1,
    "gwet_ac1_statistic": multirater.gwet_ac1_statistic,
    "fleiss_kappa": multirater.fleiss_kappa,
    "fleiss_statistic": multirater.fleiss_statistic,
    "fleiss_category_kappa": lambda counts: multirater.fleiss_category_kappa(counts, 0),
    "fleiss_category_statistic": lambda counts: multirater.fleiss_category_statistic(counts, 0),
    "fleiss_category_kappas": multirater.fleiss_category_kappas,
    "specific_agreement": multirater.specific_agreement,
    "specific_agreement[category]": lambda counts: multirater.specific_agreement(counts, category=1),
    "specific_agreement_statistic": lambda counts: multirater.specific_agreement_statistic(counts, 1),
    "coincidence_matrix": coincidence_matrix,
    **{
        f"krippendorff_alpha[{level}]": (lambda counts, level=level: krippendorff_alpha(counts, level, values=[1, 2]))
        for level in LEVELS
    },
    **{
        f"alpha_statistic[{level}]": (lambda counts, level=level: alpha_statistic(counts, level, values=[1, 2]))
        for level in LEVELS
    },
}
# unit 1, category 0 is the bad cell in each
BAD_COUNTS = {
    "NaN": ([[2, 0], [np.nan, 1], [1, 1]], "finite", "nan"),
    "inf": ([[2, 0], [np.inf, 1], [1, 1]], "finite", "inf"),
    "negative": ([[2, 0], [-1, 3], [1, 1]], "non-negative", "-1.0"),
    "fractional": ([[2, 0], [1.5, 0.5], [1, 1]], "whole numbers", "1.5"),
}


@pytest.mark.parametrize("bad", list(BAD_COUNTS))
@pytest.mark.parametrize("name", list(COUNT_COEFFICIENTS))
def test_every_count_coefficient_refuses_bad_counts_naming_the_cell(name, bad):
    counts, rule, shown = BAD_COUNTS[bad]
    with pytest.raises(ValueError, match=rule) as error:
        COUNT_COEFFICIENTS[name](counts)
    assert f"unit 1, category 0 holds {shown}" in str(error.value)


@pytest.mark.parametrize("name", ["percent_agreement", "fleiss_kappa", "gwet_ac1", "specific_agreement"])
def test_fractional_weights_are_documented_and_bad_weights_name_the_unit(name):
    function = COUNT_COEFFICIENTS[name]
    counts = np.array([[2, 0], [1, 1], [0, 2]])
    function(counts, weights=[0.5, 0.25, 0.25])  # a table of proportions enters as weights
    for weights, shown in (([1, np.nan, 1], "nan"), ([1, 1, -2], "-2.0")):
        with pytest.raises(ValueError, match=f"weights must be finite and non-negative; unit \\d has weight {shown}"):
            function(counts, weights=weights)


def test_a_ratings_object_where_counts_are_wanted_says_what_to_pass():
    ratings = Ratings(np.array([[0, 1], [1, 1]]), ("a", "b"), ("A", "B"))
    with pytest.raises(ValueError, match=r"pass ratings.unit_counts\(\)"):
        multirater.fleiss_kappa(ratings)


TABLE_COEFFICIENTS = {
    "cohen_kappa": pairwise.cohen_kappa,
    "cohen_kappa[linear]": lambda table: pairwise.cohen_kappa(table, "linear"),
    "cohen_kappa[quadratic]": lambda table: pairwise.cohen_kappa(table, "quadratic"),
    "cohen_statistic": pairwise.cohen_statistic,
    "scott_pi": pairwise.scott_pi,
    "scott_statistic": pairwise.scott_statistic,
    "table_coefficients": pairwise.table_coefficients,
}


@pytest.mark.parametrize(
    "bad, rule, shown", [(np.nan, "finite", "nan"), (np.inf, "finite", "inf"), (-1.0, "negative", "-1.0")]
)
@pytest.mark.parametrize("name", list(TABLE_COEFFICIENTS))
def test_every_table_coefficient_refuses_a_bad_cell_naming_it(name, bad, rule, shown):
    table = np.array([[10.0, 2.0, 0.0], [1.0, 8.0, 3.0], [0.0, 2.0, 9.0]])
    table[1, 2] = bad
    with pytest.raises(ValueError, match=rule) as error:
        TABLE_COEFFICIENTS[name](table)
    assert f"row 1, column 2 holds {shown}" in str(error.value)


def test_a_table_of_proportions_is_documented_and_allowed():
    counts = np.array([[40.0, 10.0], [5.0, 45.0]])
    kappa = 1 - (15 / 100) / ((50 * 45 + 50 * 55) / 100**2)  # p_o = 0.85, p_e = (50*45 + 50*55)/100^2 = 0.5
    assert pairwise.cohen_kappa(counts / 100) == pytest.approx(kappa, abs=1e-12)


@pytest.mark.parametrize(
    "codes, shown",
    [([[0, np.nan], [1, 0]], "unit 0, rater 1 holds nan"), ([[0, 1], [0.5, 0]], "unit 1, rater 0 holds 0.5")],
)
def test_ratings_codes_must_be_whole_numbers(codes, shown):
    with pytest.raises(ValueError, match=re.escape(shown)):
        Ratings(np.array(codes), ("a", "b"), ("A", "B"))
    assert Ratings(np.array([[0.0, 1.0], [MISSING, 0.0]]), ("a", "b"), ("A", "B")).codes.dtype == np.int64


def test_check_unit_counts_names_the_first_bad_cell():
    with pytest.raises(ValueError, match=r"unit 2, category 1 holds -3.0"):
        check_unit_counts([[1, 1], [2, 0], [5, -3]])


# ================================================================ 6. data errors name file and line


@pytest.fixture
def majorityvote(tmp_path, mirror):
    """A copy of jayanetti2026's released majorityvote.tsv, for damaging."""
    path = tmp_path / "majorityvote.tsv"
    shutil.copy(mirror / J26_MAJORITY, path)
    return path


def empty_a_cell(path, line: int, column: str) -> None:
    """Empty one cell of a TSV file, the header being line 1."""
    lines = path.read_text(encoding="utf-8").split("\n")
    header = lines[0].split("\t")
    cells = lines[line - 1].split("\t")
    cells[header.index(column)] = ""
    lines[line - 1] = "\t".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")


def test_an_emptied_label_in_the_release_is_refused_at_its_line(majorityvote):
    release = jayanetti_release()
    assert release.read_release(majorityvote).three_class.n_units == 100
    empty_a_cell(majorityvote, 42, "sentiment_Rater3")
    with pytest.raises(ValueError) as error:
        release.read_release(majorityvote)
    assert str(error.value) == (
        f"{majorityvote}: line 42, column 'sentiment_Rater3': the label is empty; every unit "
        "of this release carries a label in every one of its 30 label columns"
    )


def test_require_complete_counts_blank_lines_in_the_line_number(tmp_path):
    path = tmp_path / "labels.tsv"
    path.write_text("item\tA\tB\n1\tpos\tneg\n\n2\tneg\t\n", encoding="utf-8")
    table = read_label_table(path, ["A", "B"])
    with pytest.raises(ValueError, match=r"labels.tsv: line 4, column 'B': the label is empty"):
        require_complete(table, path)
    require_complete(table, path, columns=["A"])


@pytest.mark.e2e
def test_an_emptied_label_stops_the_build_in_one_line_naming_file_and_line(tmp_path_factory, mirror):
    work = project_copy(tmp_path_factory, "j26_emptied")
    local = work / "mirror"
    source = mirror / J26_MAJORITY
    for file in source.parent.parent.rglob("*"):
        if file.is_file():
            target = local / file.relative_to(mirror)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(file, target)
    empty_a_cell(local / J26_MAJORITY, 42, "sentiment_Rater3")
    # the damaged file is no longer the pinned one: unpin it in this copy, as a user with
    # an edited release would, so that the reader (not the pin) meets the empty cell
    paper = work / "workflow" / "papers" / "jayanetti2026" / "paper.yaml"
    pinned = "    sha256: 3bec201604069af33babad7514c9f30047bfa490f053a2e92ace3e0aee32484d\n"
    assert pinned in paper.read_text()
    paper.write_text(paper.read_text().replace(pinned, ""))
    (work / "j26.yaml").write_text(yaml.safe_dump({"papers": ["jayanetti2026"], "mirror": str(local)}))
    # the target before --configfile, which would take it for a second config file
    result = run_snakemake(work, "results/jayanetti2026/values/released.tsv", "--configfile", "j26.yaml", check=False)
    said = result.stdout + result.stderr
    assert result.returncode != 0
    assert "data/jayanetti2026/majorityvote.tsv: line 42, column 'sentiment_Rater3': the label is empty" in said
    assert "Traceback" not in said and "got 5 to 6" not in said
    assert not (work / "results" / "jayanetti2026" / "values" / "released.tsv").exists()


def test_a_whole_number_written_as_a_float_is_an_integer_setting():
    config = resolve_config(
        {
            "papers": ["agreement_before_accuracy"],
            "mirror": None,
            "bootstrap": {"draws": 2000.0, "seed": 0.0, "level": 0.95},
            "fetch": {"timeout": 30.0, "retries": 2.0},
            "mozetic2016": {"draws": 1000.0},
        },
        WORKFLOW,
    )
    assert config["bootstrap"] == {"draws": 2000, "seed": 0, "level": 0.95}
    assert type(config["bootstrap"]["draws"]) is int and type(config["bootstrap"]["seed"]) is int
    assert type(config["fetch"]["retries"]) is int and type(config["fetch"]["timeout"]) is float  # a number stays
    assert type(config["mozetic2016"]["draws"]) is int
    counts = np.array([[2, 0], [1, 1], [0, 2], [2, 0]])
    interval = bootstrap_interval(
        multirater.percent_agreement_statistic(counts),
        config["bootstrap"]["draws"],
        config["bootstrap"]["seed"],
        config["bootstrap"]["level"],
    )
    assert interval.scheme == "percentile; draws=2000; seed=0; level=0.95"
    with pytest.raises(ValueError, match="bootstrap.draws"):
        resolve_config({"papers": [], "bootstrap": {"draws": 2000.5}}, WORKFLOW)


def test_labels_mixing_numbers_and_text_are_refused_naming_both():
    frame = pd.DataFrame({"A": [1, "pos", 2], "B": ["neg", 1, 2]}, dtype=object)
    with pytest.raises(ValueError, match=r"mix kinds that cannot be ordered: 1 \(int\), 'neg' \(str\)"):
        Ratings.from_labels(frame, source="made_up.tsv")
    # declared categories make the mix explicit, and then it is fine
    coded = Ratings.from_labels(frame, categories=[1, 2, "neg", "pos"])
    assert coded.codes.tolist() == [[0, 2], [3, 0], [1, 1]]


def test_repeated_category_and_rater_names_are_refused():
    with pytest.raises(ValueError, match=r"category name\(s\) \['a'\] appear more than once"):
        Ratings(np.array([[0, 1]]), ("a", "b", "a"), ("A", "B"))
    with pytest.raises(ValueError, match=r"rater name\(s\) \['A'\] appear more than once"):
        Ratings(np.array([[0, 1]]), ("a", "b"), ("A", "A"))
    with pytest.raises(ValueError, match=r"t.tsv: category name\(s\) \['neg'\] appear more than once"):
        Ratings.from_labels(
            pd.DataFrame({"A": ["neg"], "B": ["pos"]}), categories=["neg", "pos", "neg"], source="t.tsv"
        )
    doubled = pd.DataFrame([["neg", "pos"], ["pos", "pos"]], columns=["A", "A"])
    with pytest.raises(ValueError, match=r"t.tsv: rater column\(s\) \['A'\] appear more than once"):
        Ratings.from_labels(doubled, source="t.tsv")
    renamed = Ratings.from_labels(doubled, raters=["A1", "A2"])
    assert renamed.raters == ("A1", "A2") and renamed.codes.tolist() == [[0, 1], [1, 1]]
    with pytest.raises(ValueError, match="1 rater names for 2 rater columns"):
        Ratings.from_labels(doubled, raters=["A1"])


# ================================================================ guarantees: same inputs, same bytes


def snapshot(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.e2e
def test_two_builds_from_an_empty_results_folder_give_the_same_bytes(demo_build, tmp_path_factory):
    """The synthetic paper and the demo paper (templated sources from the fixture mirror),
    built twice from nothing under results/ with the same data/: every file identical. The
    first build is the session's ``demo_build``; the second empties results/ in a copy."""
    first = snapshot(demo_build / "results")
    data = snapshot(demo_build / "data")
    assert {
        "summary.md",
        "report.html",
        "demo/claims.tsv",
        "agreement_before_accuracy/values.tsv",
        "audit/triage_example/audit.json",
    } <= set(first)
    assert any(name.endswith(".png") for name in first)
    work = copy_build(demo_build, tmp_path_factory, "same_bytes")
    shutil.rmtree(work / "results")
    run_snakemake(work, configfile=DEMO)
    second = snapshot(work / "results")
    assert snapshot(work / "data") == data
    assert sorted(second) == sorted(first)
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"not byte-identical after a rebuild from an empty results/: {differ}"


# ================================================================ guarantees: nothing fetched is executed

# Calls that would run, unpickle or import what they read. Fetched files are data: no code
# path may hand them to any of these. (The optional RoBERTa rerun loads model weights with
# transformers' from_pretrained: a model download, not a fetched source, off by default.)
EXECUTES = {
    "eval": r"(?<![.\w])eval\(",
    "exec": r"(?<![.\w])exec\(",
    "compile": r"(?<![.\w])compile\((?!r?[\"'])",
    "pickle": r"\b(c?pickle|marshal|shelve|dill|joblib)\b",
    "unsafe yaml": r"yaml\.(unsafe_)?load\(|yaml\.(Unsafe|Full)?Loader\b|yaml\.load_all\(",
    "numpy pickles": r"allow_pickle\s*=\s*True",
    "pandas pickles": r"read_pickle\(",
    "torch pickles": r"torch\.load\(",
    "remote code": r"trust_remote_code\s*=\s*True",
    "imports by path": r"import_module\(|spec_from_file_location\(|exec_module\(|\brunpy\b|__import__\(",
    "shells": r"os\.system\(|os\.popen\(|shell\s*=\s*True|\bsubprocess\b",
}


IMPORTS_CODE = ROOT / "src" / "reagree" / "pipeline" / "papercode.py"


def code_files():
    files = [ROOT / "Snakefile", *sorted((ROOT / "src" / "reagree").rglob("*.py"))]  # every subpackage
    files += sorted(p for p in (ROOT / "workflow").rglob("*") if p.suffix in (".py", ".smk"))
    files += sorted((ROOT / "scripts").glob("*.py"))
    return [p for p in files if p.is_file()]


def test_no_code_path_executes_unpickles_or_imports_what_it_reads():
    found = []
    for path in code_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            for what, pattern in EXECUTES.items():
                if what == "imports by path" and path == IMPORTS_CODE:
                    continue  # the one gate: it refuses any module but reagree's and a paper's
                if re.search(pattern, code):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()}")
    assert not found, "\n".join(found)
    assert len(code_files()) > 80
    assert ROOT / "src" / "reagree" / "pipeline" / "fetch.py" in code_files()


@pytest.mark.parametrize("name", ["os", "subprocess", "json.decoder", "../evil", "http.server", "pickle", "numpy..x"])
def test_the_one_import_gate_refuses_any_module_but_reagree_and_a_paper_package(name):
    from reagree.pipeline.papercode import import_code, resolve_function

    before = set(sys.modules)
    with pytest.raises(ValueError, match="reagree imports only|not a paper's package"):
        import_code(name)
    with pytest.raises(ValueError):
        resolve_function(f"{name}.anything")
    assert name in before or name not in sys.modules  # refused before anything ran


def test_yaml_is_read_with_a_safe_loader():
    from reagree.pipeline import yamlio

    loaders = [getattr(yamlio, name) for name in dir(yamlio) if name.endswith("Loader")]
    assert loaders and all(issubclass(loader, yaml.SafeLoader) for loader in loaders)
    with pytest.raises(ValueError):
        yamlio.load_yaml_text("!!python/object/apply:os.system ['echo executed']")
