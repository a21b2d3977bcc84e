"""Printed precision (reagree.pipeline.printed): the printed text sets the precision, the
default reading is the claims rule, and rounding up or truncation are readings of their own.
Every expected outcome is worked out by hand in the test."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pytest

from reagree.pipeline import printed
from reagree.pipeline.claims import diff_claims
from reagree.pipeline.yamlio import PrintedNumber


@pytest.mark.parametrize(
    "text, number, exponent, percent",
    [
        ("0.50", "0.50", -2, False),
        ("12.0", "12.0", -1, False),
        ("9.3%", "9.3", -1, True),
        ("6.08e-04", "0.000608", -6, False),
        ("19,991", "19991", 0, False),
        ("-0.131", "-0.131", -3, False),
        ("\u22120.131", "-0.131", -3, False),  # a typeset minus sign
        ("+0.4", "0.4", -1, False),
        ("215\u2009657", "215657", 0, False),  # a thin space between thousands
        (" 44 ", "44", 0, False),
    ],
)
def test_parse_keeps_the_printed_digits(text, number, exponent, percent):
    found = printed.parse(text)
    assert (found.number, found.exponent, found.percent) == (Decimal(number), exponent, percent)
    assert found.number.as_tuple() == Decimal(number).as_tuple()  # 0.50 keeps its trailing zero


@pytest.mark.parametrize("bad", ["", "n/a", "1.2.3", "nan", "inf", "12 %x"])
def test_parse_names_what_is_not_a_printed_number(bad):
    with pytest.raises(ValueError, match="not a (finite )?printed number"):
        printed.parse(bad)
    with pytest.raises(ValueError, match="printed value is text"):
        printed.parse(0.5)


def test_a_trailing_zero_sets_the_precision():
    # 0.50 is printed to hundredths: 0.504 rounds to it, 0.507 does not (it would match "0.5").
    assert printed.matches("0.50", 0.504)
    assert not printed.matches("0.50", 0.507)
    assert printed.matches("0.5", 0.507)
    # 12.0 is printed to tenths: 12.04 reproduces it, 12.06 does not, though both round to "12".
    assert printed.matches("12.0", 12.04)
    assert not printed.matches("12.0", 12.06)
    assert printed.matches("12", 12.06)
    assert printed.parse("12.0").tolerance == pytest.approx(0.05)


def test_a_percent_sign_sets_precision_in_percent_units():
    # 9.3% is printed to a tenth of a percent: 9.27 reproduces it, 9.23 does not.
    assert printed.matches("9.3%", 9.27)
    assert not printed.matches("9.3%", 9.2318)
    assert printed.matches("9.3%", 0.0927, proportion=True)
    assert not printed.matches("9.3%", 0.092318, proportion=True)
    with pytest.raises(ValueError, match="printed percentage"):
        printed.matches("0.093", 0.093, proportion=True)


def test_counts_with_separators_and_scientific_notation():
    assert printed.matches("19,991", 19991) and not printed.matches("19,991", 19909)
    assert printed.matches("6.08e-04", 6.084e-4) and not printed.matches("6.08e-04", 6.0851e-4)


def test_rounding_readings_by_hand():
    # 0.2085 lies exactly halfway between 0.208 and 0.209.
    assert printed.readings("0.208", 0.2085) == ("match", "round_half_even", "truncation")
    assert printed.readings("0.209", 0.2085) == ("match", "round_half_up", "rounding_up")
    # 0.2075 to three decimals is 0.208 under both half rules (8 is even).
    assert printed.readings("0.208", 0.2075) == ("match", "round_half_up", "round_half_even", "rounding_up")
    # Truncation and rounding up act on the magnitude.
    assert printed.readings("-0.131", -0.1319) == ("truncation",)
    assert printed.readings("-0.132", -0.1311) == ("rounding_up",)
    assert printed.readings("9.3%", 9.2318) == ("rounding_up",)
    assert printed.readings("0.205", 0.20752) == ()
    assert printed.readings("0.205", float("nan")) == ()


def test_float_noise_at_a_boundary_is_on_the_boundary():
    # 0.1 + 0.2 = 0.30000000000000004 truncates to 0.3, and 1 - 0.9 = 0.09999999999999998
    # rounds up to 0.1, not 0.2: both are on the printed grid up to float noise.
    assert "truncation" in printed.readings("0.3", 0.1 + 0.2)
    assert printed.readings("0.1", 1 - 0.9) == (
        "match",
        "round_half_up",
        "round_half_even",
        "truncation",
        "rounding_up",
    )
    assert printed.rounded(printed.parse("0.2"), 0.1 + 0.2, "truncation") == Decimal("0.3")


def test_describe_says_what_reproduces():
    assert printed.describe(printed.readings("0.50", 0.504)) == "matches at printed precision"
    assert printed.describe(printed.readings("-0.131", -0.1319)) == "truncation would give it"
    assert printed.describe(printed.readings("9.3%", 9.2318)) == "rounding up would give it"
    assert printed.describe(()) == ""


@pytest.mark.parametrize(
    "text, computed",
    [
        ("0.50", 0.505),
        ("0.50", 0.495),
        ("0.50", 0.5051),
        ("0.50", 0.4949),
        ("12.0", 12.05),
        ("12.0", 11.95),
        ("6.08e-04", 6.085e-4),
        ("44", 44.5),
        ("44", 44.50001),
        ("-0.131", -0.1315),
        ("0.39", 0.385),
        ("0.39", 0.38499999),
        ("0.205", 0.207528),
    ],
)
def test_match_is_todays_claims_rule(text, computed):
    """The default reading is exactly what the claims diff calls a match."""
    claims = [{"key": "k", "where": "here", "source": "paper", "published": PrintedNumber(text)}]
    status = diff_claims(claims, pd.DataFrame({"key": ["k"], "value": [computed]}))["status"].iloc[0]
    assert printed.matches(text, computed) == (status == "match")


def test_rounded_needs_a_known_reading():
    with pytest.raises(ValueError, match="reading must be one of"):
        printed.rounded(printed.parse("0.5"), 0.5, "ceiling")


@pytest.mark.parametrize(
    "text, low, high",
    [
        ("0.650", 0.6495, 0.6505),
        ("3.2%", 3.15, 3.25),
        ("19,642", 19641.5, 19642.5),
        ("-0.137", -0.1375, -0.1365),
        ("1.6e6", 1.55e6, 1.65e6),
    ],
)
def test_the_interval_a_printed_number_allows(text, low, high):
    assert printed.interval(text) == pytest.approx((low, high))
