"""Which texts are printed numbers (issue 22, item 4): a comma is a thousands separator
only between well-formed groups of three digits; a decimal comma is read only where the
paper declares it (paper.yaml ``decimal: comma``); an underscore or a digit outside 0-9
is refused. Every expected value is the printed text read by hand.
"""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pytest

from reagree.pipeline import printed
from reagree.pipeline.claims import diff_claims
from reagree.pipeline.paperspec import CLAIM_HEADER, load_paper
from reagree.pipeline.yamlio import PrintedNumber, plain_number_text


@pytest.mark.parametrize(
    "text, number, exponent, percent",
    [
        ("19,991", "19991", 0, False),
        ("1,234,567", "1234567", 0, False),
        ("1,234.5", "1234.5", -1, False),
        ("\u22120.137", "-0.137", -3, False),  # a typeset minus sign
        ("9.3%", "9.3", -1, True),
        ("6.08e-04", "0.000608", -6, False),
        ("215\u2009657", "215657", 0, False),  # a thin space between groups of three
        (".42", "0.42", -2, False),  # a leading zero left out (APA style)
    ],
)
def test_well_formed_numbers_read_as_printed(text, number, exponent, percent):
    found = printed.parse(text)
    assert (found.number, found.exponent, found.percent) == (Decimal(number), exponent, percent)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("0,67", "a comma between digits separates groups of three"),  # was read as 67
        ("1,0", "a comma between digits separates groups of three"),  # was read as 10
        ("19,99", "a comma between digits separates groups of three"),
        ("1234,567", "a comma between digits separates groups of three"),
        ("1,234,56", "a comma between digits separates groups of three"),
        ("1_0", "an underscore is no separator in a printed number"),  # was read as 10
        ("1_000", "an underscore is no separator in a printed number"),
        ("\u0663", "holds the digit '\u0663', not one of 0-9"),  # Arabic-Indic three, was read as 3
        ("0.\u0666\u0667", "holds the digit '\u0666', not one of 0-9"),
        ("12\u200934", "a separator between digits separates groups of three"),
        ("1,234\u2009567", "a separator between digits separates groups of three"),  # two kinds of separator
    ],
)
def test_malformed_groups_and_foreign_digits_are_refused(text, reason):
    with pytest.raises(ValueError) as info:
        printed.parse(text)
    assert reason in str(info.value) and repr(text) in str(info.value)
    with pytest.raises(ValueError):
        PrintedNumber(text)


@pytest.mark.parametrize(
    "text, number, normalised",
    [
        ("0,67", "0.67", "0.67"),
        ("1,0", "1.0", "1.0"),
        ("19,991", "19.991", "19.991"),  # under a decimal comma this is nineteen and a bit
        ("1.234,5", "1234.5", "1,234.5"),
        ("1\u202f234,5", "1234.5", "1,234.5"),
        ("\u22120,137", "-0.137", "\u22120.137"),
        ("9,3%", "9.3", "9.3%"),
        ("6,08e-04", "0.000608", "6.08e-04"),
    ],
)
def test_a_declared_decimal_comma_reads_the_comma_as_the_decimal_mark(text, number, normalised):
    value = PrintedNumber(text, decimal="comma")
    assert Decimal(plain_number_text(value.text)[0]) == Decimal(number)
    assert value.text == normalised and value.printed == text
    assert printed.parse(value).number.as_tuple() == Decimal(number).as_tuple()  # 1,0 keeps its trailing zero


@pytest.mark.parametrize("text", ["0.67", "1.23", "1_0", "\u0663", "1,234,5"])
def test_under_a_decimal_comma_a_point_is_a_thousands_separator_only_in_groups_of_three(text):
    with pytest.raises(ValueError, match="not a printed number"):
        PrintedNumber(text, decimal="comma")


# ------------------------------------------------------------------ a claims table


def paper(tmp_path, published: str, decimal: str | None = None):
    folder = tmp_path / "p"
    (folder / "claims").mkdir(parents=True)
    (folder / "paper.yaml").write_text(
        "id: p\ntitle: t\ncite: c\nsources: []\nclaim_tables: [claims/t.tsv]\n"
        + (f"decimal: {decimal}\n" if decimal else "")
    )
    cells = {"key": "kappa.a_b", "where": "Table 1", "source": "paper", "published": published}
    (folder / "claims" / "t.tsv").write_text(
        "\t".join(CLAIM_HEADER) + "\n" + "\t".join(cells.get(c, "") for c in CLAIM_HEADER) + "\n"
    )
    return folder


@pytest.mark.parametrize("published", ["0,67", "1,0", "1_0", "\u0660\u066b\u0666\u0667"])
def test_a_claim_printed_with_a_decimal_comma_is_refused_in_one_line_naming_file_line_and_key(tmp_path, published):
    folder = paper(tmp_path, published)
    with pytest.raises(ValueError) as info:
        load_paper(folder / "paper.yaml")
    said = str(info.value)
    assert "\n" not in said
    assert said.startswith(
        f"{folder / 'claims' / 't.tsv'}, line 2: claim kappa.a_b: published {published!r} is not a printed number"
    )


def test_a_declared_decimal_comma_gives_a_match_not_a_false_mismatch(tmp_path):
    """The issue's case: a published 0,67 against 0.667 (2/3 to three places)."""
    claims = load_paper(paper(tmp_path, "0,67", decimal="comma") / "paper.yaml")["claims"]
    assert claims[0]["published"].text == "0.67"
    table = diff_claims(claims, pd.DataFrame({"key": ["kappa.a_b"], "value": [0.667]}), "p")
    assert table.loc[0, "status"] == "match" and table.loc[0, "published"] == "0.67"


def test_the_decimal_declaration_is_point_or_comma(tmp_path):
    with pytest.raises(ValueError, match="decimal"):
        load_paper(paper(tmp_path, "0.67", decimal="semicolon") / "paper.yaml")
    assert load_paper(paper(tmp_path / "b", "0.67", decimal="point") / "paper.yaml")["claims"][0]["published"] == 0.67
