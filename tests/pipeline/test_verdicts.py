"""What a status says was checked (reagree.pipeline.verdicts): match only for a number the
data reproduce, holds for a bound, consistent / inconsistent for printed numbers against
printed numbers, the approximate-words rule, rounding readings as notes, one verdict per
printed figure, and a summary that counts figures. Every expected value is worked out by
hand in the test."""

import numpy as np
import pandas as pd
import pytest

from reagree.pipeline import verdicts
from reagree.pipeline.claims import diff_claims
from reagree.pipeline.paperspec import PrintedNumber
from reagree.pipeline.summary import summarise


def claim(key, published, source="paper", where="T1", **extra):
    return {"key": key, "where": where, "source": source, "published": PrintedNumber(published), **extra}


def values(**pairs):
    return pd.DataFrame({"key": list(pairs), "value": list(pairs.values())})


def variant(key, family, name, value, own=""):
    return {"key": key, "family": family, "variant": name, "value": value, "own": own, "note": ""}


# ----------------------------------------------------------------- the approximate-words rule


@pytest.mark.parametrize(
    "text, unit",
    [
        ("20,000", 10_000),
        ("100000", 100_000),
        ("10", 10),
        ("25", 1),
        ("0.025", 0.001),
        ("0.4", 0.1),
        ("150000", 10_000),
        ("0", 1),
        ("2", 1),
    ],
)
def test_significant_digits_leave_out_a_whole_number_s_trailing_zeros(text, unit):
    assert verdicts.approximate_tolerance(PrintedNumber(text)) == pytest.approx(unit / 2)


@pytest.mark.parametrize(
    "word, published, computed, status",
    [
        ("about", "20,000", 19_642, "within tolerance"),  # 15,000 to 25,000: wider than the digits (+-0.5)
        ("about", "20,000", 25_001, "mismatch"),
        ("roughly", "10", 11.36, "within tolerance"),  # 'a factor of ten': 5 to 15
        ("roughly", "10", 10.35, "match"),  # within the printed digit anyway
        ("roughly", "0.025", 0.02553, "mismatch"),  # 0.0245 to 0.0255: no wider than a plain 0.025
        ("roughly", "2", 2.77, "mismatch"),
        ("roughly", "2", 2.2, "match"),
        ("around", "0.4", 0.45, "match"),  # on the rounding boundary: never a finding
    ],
)
def test_an_approximate_word_reads_the_number_to_its_significant_digits(word, published, computed, status):
    table = diff_claims([claim("k", published, approximate=word)], values(k=computed))
    assert table.loc[0, "status"] == status
    assert table.loc[0, "reason"].startswith(f"'{word}': read to the significant digits of {published}")


def test_an_approximate_word_names_its_range_and_takes_no_tolerance_of_its_own():
    table = diff_claims([claim("k", "20,000", approximate="about")], values(k=19_642))
    assert (
        table.loc[0, "reason"] == "'about': read to the significant digits of 20,000 (1 significant digit): "
        "15000 to 25000"
    )
    assert table.loc[0, "tolerance"] == 5000
    with pytest.raises(ValueError, match="an approximate word .'about'. sets the tolerance by the one rule"):
        diff_claims([claim("k", "20,000", approximate="about", tolerance=PrintedNumber("100"))], values(k=1.0))


def test_an_approximate_bound_must_keep_the_bound_and_round_to_it():
    # "almost 10% points lower": below 0.1 and 0.1 to one significant digit (0.05 to 0.15)
    internal = [claim("d", "0.1", source="internal", compare="<", approximate="almost")]
    close = pd.DataFrame({"key": ["d"], "value": [0.086], "ci_low": [0.085], "ci_high": [0.087]})
    far = close.assign(value=0.03, ci_low=0.029, ci_high=0.031)
    above = close.assign(value=0.12, ci_low=0.119, ci_high=0.121)
    assert diff_claims(internal, close)["status"].tolist() == ["consistent"]
    assert diff_claims(internal, far)["status"].tolist() == ["inconsistent"]
    assert diff_claims(internal, above)["status"].tolist() == ["inconsistent"]


# ----------------------------------------------------------------- printed against printed: intervals


def internal_values(key, value, low, high):
    return pd.DataFrame({"key": [key], "value": [value], "ci_low": [low], "ci_high": [high]})


@pytest.mark.parametrize(
    "published, low, high, status",
    [
        ("0.650", 0.65021, 0.65121, "consistent"),  # meets 0.650's rounding at 0.6505
        ("0.650", 0.65051, 0.65121, "inconsistent"),
        ("3.2", 3.2557, 3.2610, "inconsistent"),  # 3.2 allows 3.15 to 3.25
        ("0.007", 0.006, 0.008, "consistent"),
    ],
)
def test_an_internal_claim_is_consistent_when_a_value_the_inputs_allow_prints_as_it(published, low, high, status):
    table = diff_claims([claim("k", published, source="internal")], internal_values("k", (low + high) / 2, low, high))
    assert table.loc[0, "status"] == status
    assert (table.loc[0, "computed_low"], table.loc[0, "computed_high"]) == (low, high)


@pytest.mark.parametrize(
    "relation, bound, low, high, status",
    [
        (">", "3000000", 3_163_035, 3_163_035, "consistent"),  # "over 3 million": Table 2's exact total
        ("<=", "4", 4.15, 4.25, "consistent"),  # "2-4%" and Table 3's 4.2% (whole percents: 4)
        ("<=", "4", 4.55, 4.65, "inconsistent"),
        (">", "0", -0.0465, -0.0355, "inconsistent"),
        ("<", "0", -0.0465, -0.0355, "consistent"),
    ],
)
def test_an_internal_bound_holds_for_some_value_the_inputs_allow(relation, bound, low, high, status):
    table = diff_claims(
        [claim("k", bound, source="internal", compare=relation)], internal_values("k", (low + high) / 2, low, high)
    )
    assert table.loc[0, "status"] == status


def test_an_internal_claim_is_never_a_match_and_a_bound_never_either():
    table = diff_claims(
        [claim("i", "0.5", source="internal"), claim("b", "0.4", compare=">"), claim("v", "0.5")],
        pd.concat([internal_values("i", 0.5, 0.5, 0.5), values(b=0.5, v=0.5)]),
    )
    assert table["status"].tolist() == ["consistent", "holds", "match"]


def test_an_inconsistent_claim_names_the_variant_of_its_relation_that_reproduces_it():
    # DJIA30: "improved for 10% points (new Alpha is 0.482)" against 0.438: 0.482 - 0.438 = 0.044
    # (0.043 to 0.045); 0.482 / 0.438 - 1 = 0.1005 (0.4815 / 0.4385 - 1 = 0.0981 to 0.4825 / 0.4375 - 1 = 0.1029)
    rows = pd.DataFrame(
        [
            {
                **variant("d", "printed_relation", "change.relative", 0.100457),
                "low": 0.0980616,
                "high": 0.102857,
                "note": "a relative change",
            }
        ]
    )
    table = diff_claims(
        [claim("d", "0.10", source="internal")], internal_values("d", 0.044, 0.043, 0.045), variants=rows
    )
    assert table.loc[0, "status"] == "inconsistent"
    assert table.loc[0, "explained_by"].startswith(
        "reproduced by change.relative (0.100457, printed inputs allow 0.0980616 to 0.102857"
    )
    assert table.loc[0, "cause"] == "reproduced by change.relative"
    none = diff_claims([claim("d", "0.10", source="internal")], internal_values("d", 0.044, 0.043, 0.045))
    assert none.loc[0, "explained_by"] == "no variant tried (none declared for this relation)"


# ----------------------------------------------------------------- rounding readings are notes


def test_a_rounding_reading_is_a_note_never_an_explanation_or_a_cause():
    # 0.02553 truncates to 0.025 and 0.0063 rounds up to 0.007: neither reproduces the print
    table = diff_claims([claim("h", "0.025"), claim("g", "0.007")], values(h=0.02553, g=0.0063336))
    assert table["status"].tolist() == ["mismatch", "mismatch"]
    assert table.loc[0, "explained_by"] == (
        "no variant tried (none declared for this key); reagree's value does not reproduce 0.025"
    )
    assert (table["cause"] == "").all()
    assert table.loc[0, "rounding"] == (
        "truncation of reagree's value (0.02553) would give 0.025: within one unit of "
        "the last printed digit, a note, not an explanation"
    )
    assert table.loc[1, "rounding"].startswith("rounding up of reagree's value (0.0063336) would give 0.007")
    # a variant that only truncates to the print is not a candidate either
    rows = pd.DataFrame([variant("h", "f", "other", 0.02591)])
    found = diff_claims([claim("h", "0.025")], values(h=0.02553), variants=rows)
    assert found.loc[0, "explained_by"] == "none of 1 variant tried reproduces 0.025"


def test_several_candidates_are_named_and_none_is_the_cause():
    # 0.205 printed, 0.2075 computed; two variants print as 0.205: neither is singled out
    rows = pd.DataFrame(
        [variant("a", "f", "alpha.expected_n_squared", 0.205345), variant("a", "g", "alpha.without_unit_7", 0.204633)]
    )
    table = diff_claims([claim("a", "0.205")], values(a=0.207528), variants=rows)
    assert table.loc[0, "explained_by"] == (
        "reproduced by alpha.expected_n_squared (0.205345); alpha.without_unit_7 "
        "(0.204633): 2 candidates, none singled out"
    )
    assert table.loc[0, "cause"] == ""


def test_a_family_of_many_variants_is_named_by_how_many_reproduce():
    # 182 leave-one-unit-out values: 3 print as 0.205 (0.2046, 0.2050, 0.2054), the rest do not
    others = np.linspace(0.18, 0.20, 179)
    rows = pd.DataFrame(
        [
            variant("a", "loo", f"alpha.without_unit_{u + 1}", float(v))
            for u, v in enumerate([0.2046, 0.2050, 0.2054, *others])
        ]
    )
    table = diff_claims([claim("a", "0.205")], values(a=0.207528), variants=rows)
    assert table.loc[0, "explained_by"] == (
        "reproduced by 3 of 182 loo variants (0.2046 to 0.2054): 3 candidates, none singled out"
    )


# ----------------------------------------------------------------- one printed figure, one verdict


def test_a_figure_printed_twice_and_checked_internally_is_one_verdict():
    # -0.137 printed in Table 2 and in the text, both held against Table 1's counts (-0.1314):
    # one finding; 0.007 against the data (0.0063) and against 0.298 - 0.291 (0.006 to 0.008):
    # one mismatch with its internal check listed; a bound and a value of one key: two figures
    claims = [
        claim("s", "-0.137", source="internal", where="Table 2"),
        claim("s", "-0.137", source="internal", where="text"),
        claim("g", "0.007", where="prose"),
        claim("g.p", "0.007", source="internal", where="prose", figure="g"),
        claim("v", "0.6", compare=">"),
        claim("v", "0.763"),
    ]
    computed = pd.concat(
        [
            internal_values("s", -0.131354, -0.131399, -0.131309),
            values(g=0.0063336, v=0.763),
            internal_values("g.p", 0.007, 0.006, 0.008),
        ]
    )
    table = diff_claims(claims, computed)
    assert table["status"].tolist() == ["inconsistent", "inconsistent", "mismatch", "consistent", "holds", "match"]
    assert table["figure"].tolist() == ["s = -0.137", "s = -0.137", "g = 0.007", "g = 0.007", "v > 0.6", "v = 0.763"]
    summary, markdown = summarise({"p": table})
    row = summary.iloc[0]
    assert (
        row["figures"],
        row["claims"],
        row["inconsistent"],
        row["mismatch"],
        row["consistent"],
        row["holds"],
        row["match"],
    ) == (4, 6, 1, 1, 0, 1, 1)
    finding_lines = [line for line in markdown.splitlines() if line.startswith("- p: ")]
    assert len(finding_lines) == 2
    assert (
        "[2 checks at 2 places: internal: inconsistent (-0.131354; inputs allow -0.131399 to -0.131309)]"
        in finding_lines[0]
    )
    assert (
        "[2 checks at 1 place: paper: mismatch (0.0063336); internal: consistent (0.007; inputs allow 0.006 to "
        "0.008)]" in finding_lines[1]
    )
    assert markdown.count("| s | -0.137 | Table 2 / text |") == 1


@pytest.mark.parametrize(
    "statuses, expected",
    [
        (["match", "consistent"], "match"),
        (["mismatch", "consistent"], "mismatch"),
        (["match", "inconsistent"], "inconsistent"),
        (["match", "within tolerance"], "within tolerance"),
        (["uncheckable", "consistent"], "consistent"),
        (["not built", "holds"], "holds"),
        (["missing", "mismatch"], "missing"),
        (["not recomputed", "holds"], "holds"),
        (["uncheckable", "not recomputed"], "not recomputed"),
        (["not recomputed", "not built"], "not built"),
    ],
)
def test_a_figure_s_verdict_puts_findings_first(statuses, expected):
    assert verdicts.verdict(statuses) == expected


def test_figure_links_join_through_chains_and_only_the_same_number():
    claims = [
        claim("a", "0.007"),
        claim("b", "0.007", figure="c"),
        claim("c", "0.007", figure="a"),
        claim("d", "5", figure="a"),
        claim("a", "19,991"),
        claim("a", "19991"),
        claim("e", "9.3%"),
        claim("e", "9.3", source="internal"),
    ]
    assert verdicts.figure_ids(claims) == [
        "a = 0.007",
        "a = 0.007",
        "a = 0.007",
        "d = 5",
        "a = 19991",
        "a = 19991",
        "e = 9.3",
        "e = 9.3",
    ]


# ----------------------------------------------------------------- the summary


def test_the_summary_of_many_claims_is_correct():
    """20,000 claims built with known answers: 4,000 figures printed twice (one verdict each),
    every status, 300 findings of one declared cause and 200 of none."""
    rng = np.random.default_rng(3)
    n_single = 12_000
    statuses = np.array(
        [
            "match",
            "within tolerance",
            "holds",
            "consistent",
            "mismatch",
            "inconsistent",
            "uncheckable",
            "not recomputed",
            "not built",
            "not comparable",
            "missing",
        ]
    )
    drawn = rng.choice(statuses, size=n_single)
    drawn[:300] = "mismatch"  # the declared cause's findings
    rows = [
        {
            "key": f"k{i}",
            "end": "",
            "where": "T",
            "source": "paper",
            "published": "1",
            "computed": 1.0,
            "difference": 0.0,
            "tolerance": 0.5,
            "status": s,
            "reason": "r",
            "explained_by": "",
            "cause": "shared" if i < 300 else "",
            "figure": f"k{i} = 1",
        }
        for i, s in enumerate(drawn)
    ]
    twice = 4_000  # a figure printed twice: a match and a consistent check, or a mismatch found twice
    for i in range(twice):
        status = "mismatch" if i < 200 else "match"
        for place in ("table", "text"):
            rows.append(
                {
                    "key": f"t{i}",
                    "end": "",
                    "where": place,
                    "source": "paper",
                    "published": "2",
                    "computed": 2.0,
                    "difference": 0.0,
                    "tolerance": 0.5,
                    "status": status,
                    "reason": "",
                    "explained_by": "",
                    "cause": "",
                    "figure": f"t{i} = 2",
                }
            )
    table = pd.DataFrame(rows)
    summary, markdown = summarise({"p": table})
    expected = {status: int((drawn == status).sum()) for status in statuses}
    expected["match"] += twice - 200
    expected["mismatch"] += 200
    row = summary.iloc[0]
    assert {status: int(row[status.replace(" ", "_")]) for status in statuses} == expected
    assert (row["figures"], row["claims"]) == (n_single + twice, n_single + 2 * twice)
    single_findings = int(np.isin(drawn[300:], ["mismatch", "inconsistent"]).sum())
    assert row["finding_causes"] == 1 + single_findings + 200
    cause_lines = [line for line in markdown.splitlines() if line.startswith("- p: ")]
    assert len(cause_lines) == 1 + single_findings + 200
    assert cause_lines[0].startswith("- p: **shared** (300 figures): `k0`")


def test_the_schema_admits_the_words_the_rule_reads():
    from reagree.pipeline.settings import load_schema, schema_path

    schema = load_schema(schema_path("paper"))
    assert tuple(schema["$defs"]["claim"]["properties"]["approximate"]["enum"]) == verdicts.APPROXIMATE_WORDS
