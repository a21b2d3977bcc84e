"""Does a computed number reproduce a printed one, and under which reading of the print?

What this module decides:

- **A printed value is text.** ``0.50``, ``12.0``, ``9.3%``, ``6.08e-04``, ``19,991``,
  ``-0.131``: the digits as printed set the precision, so ``0.50`` has two decimals and
  ``12.0`` one. Thousands separators (``,``, ``_``, a thin or narrow no-break space) are
  dropped; a Unicode minus reads as ``-``; a leading ``+`` is allowed. A trailing ``%``
  means the number is in percent units and its precision is in percent units
  (``9.3%``: one decimal of a percent). Anything else is a ValueError naming the text.
- **The default reading, ``match``,** is the claims rule reagree has always applied
  (``reagree.pipeline.paperspec.printed_tolerance``): |computed - printed| is at most
  half a unit of the last printed digit, with a relative slack of 1e-9
  (``SLACK``) for float noise at the boundary. Both neighbours
  of an exact half therefore match.
- **The other readings are variants of how the number was printed**, each a rounding of
  the computed value to the printed digit that must give the printed digits exactly:
  ``round_half_up`` (an exact half goes away from zero), ``round_half_even`` (an exact
  half goes to the even digit), ``truncation`` (digits beyond the printed ones dropped:
  towards zero) and ``rounding_up`` (any remainder rounds away from zero). Truncation and
  rounding up act on the magnitude, so -0.1319 truncates to -0.131. A computed value
  within the 1e-9 slack of a printed-digit boundary (or of an exact half) counts as
  lying on it: 0.30000000000000004 truncates to 0.3, not 0.2.
- **Percent.** A printed ``9.3%`` is compared in percent units. The computed value is
  taken to be in the same units as the printed number unless ``proportion=True`` says it
  is a proportion (0.0927), which is then multiplied by 100 first.
- **Words.** A reading other than ``match`` is reported as "truncation would give it"
  (``describe``): a note on how near the value is, never an explanation of a finding
  (``reagree.pipeline.verdicts``).
- **The interval a printed number allows** (``interval``): its value plus or minus half a
  unit of its last printed digit, ends included: ``0.650`` is [0.6495, 0.6505], ``3.2%``
  [3.15, 3.25] percent, ``19,642`` [19641.5, 19642.5]. What a printed input to an internal
  relation may have been before it was rounded (``reagree.pipeline.internal``).
- **Significant digits** (``significant_unit``): one unit of the last significant digit,
  for the approximate-words rule. It is the last printed digit, except that the trailing
  zeros of a whole number are not significant: ``20,000`` -> 10,000, ``10`` -> 10,
  ``25`` -> 1, ``0.025`` -> 0.001, ``0.4`` -> 0.1 (``0`` -> 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal, InvalidOperation

from reagree.pipeline.paperspec import printed_tolerance
from reagree.pipeline.yamlio import plain_number_text

__all__ = [
    "MATCH",
    "READINGS",
    "ROUNDINGS",
    "SLACK",
    "Printed",
    "describe",
    "interval",
    "matches",
    "parse",
    "readings",
    "rounded",
    "significant_unit",
    "within_tolerance",
]

#: Relative slack that absorbs float noise at a rounding boundary (the claims rule's).
SLACK = 1e-9
MATCH = "match"
#: Readings of a printed value, the default first; each other reading is a rounding mode.
ROUNDINGS = {
    "round_half_up": ROUND_HALF_UP,
    "round_half_even": ROUND_HALF_EVEN,
    "truncation": ROUND_DOWN,
    "rounding_up": ROUND_UP,
}
READINGS = (MATCH, *ROUNDINGS)
_WORDS = {
    "round_half_up": "rounding half up",
    "round_half_even": "rounding half to even",
    "truncation": "truncation",
    "rounding_up": "rounding up",
}


@dataclass(frozen=True)
class Printed:
    """A printed number: its text, its value (in its own units: percent when ``percent``)
    and the exponent of its last printed digit (``0.50`` -> -2, ``19,991`` -> 0)."""

    text: str
    number: Decimal
    exponent: int
    percent: bool

    @property
    def value(self) -> float:
        return float(self.number)

    @property
    def unit(self) -> Decimal:
        """One unit of the last printed digit (``0.50`` -> 0.01)."""
        return Decimal(1).scaleb(self.exponent)

    @property
    def tolerance(self) -> float:
        """Half a unit of the last printed digit: the ``match`` tolerance."""
        return printed_tolerance(self.plain)

    @property
    def plain(self) -> str:
        """The number as plain text (separators and the percent sign dropped)."""
        return str(self.number)


def parse(text: object) -> Printed:
    """Read a printed value's text (module docstring); ValueError naming it if it is not one."""
    raw = getattr(text, "text", None) or text
    if not isinstance(raw, str):
        raise ValueError(f"a printed value is text (to keep its digits), got {raw!r}")
    cleaned, percent = plain_number_text(raw)
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"{raw!r} is not a printed number") from None
    if not number.is_finite():
        raise ValueError(f"{raw!r} is not a finite printed number")
    return Printed(raw, number, int(number.as_tuple().exponent), percent)


def _in_printed_units(printed: Printed, computed: float, proportion: bool) -> float:
    if proportion and not printed.percent:
        raise ValueError(f"proportion=True needs a printed percentage, got {printed.text!r}")
    return float(computed) * 100.0 if proportion else float(computed)


def within_tolerance(published: float, computed: float, tolerance: float) -> bool:
    """The claims rule: |computed - published| <= tolerance, with float slack (module docstring)."""
    return abs(computed - published) <= tolerance * (1 + SLACK) + SLACK * abs(published)


def _snapped(printed: Printed, computed: float) -> Decimal:
    """``computed`` in units of the printed digit, moved onto the nearest whole or half
    unit when it lies within the float slack of one."""
    steps = Decimal(repr(computed)) / printed.unit
    nearest_half = (steps * 2).to_integral_value(ROUND_HALF_EVEN) / 2
    slack = Decimal(SLACK) * max(Decimal(1), abs(steps))
    return nearest_half if abs(steps - nearest_half) <= slack else steps


def rounded(printed: Printed, computed: float, reading: str) -> Decimal:
    """``computed`` rounded to the printed digit under one rounding reading (in the
    printed number's units)."""
    if reading not in ROUNDINGS:
        raise ValueError(f"reading must be one of {list(ROUNDINGS)}, got {reading!r}")
    steps = _snapped(printed, computed)
    return steps.to_integral_value(ROUNDINGS[reading]).scaleb(printed.exponent)


def readings(text: object, computed: float, *, proportion: bool = False) -> tuple[str, ...]:
    """Every reading (``READINGS``, in that order) under which ``computed`` reproduces the
    printed ``text``; empty when none does or ``computed`` is not finite."""
    printed = parse(text)
    value = _in_printed_units(printed, computed, proportion)
    if not math.isfinite(value):
        return ()
    found = [MATCH] if within_tolerance(printed.value, value, printed.tolerance) else []
    found += [name for name in ROUNDINGS if rounded(printed, value, name) == printed.number]
    return tuple(found)


def matches(text: object, computed: float, *, proportion: bool = False) -> bool:
    """Whether ``computed`` reproduces ``text`` under the default reading (``match``)."""
    return MATCH in readings(text, computed, proportion=proportion)


def describe(found: tuple[str, ...] | list[str]) -> str:
    """Words for the readings that give a printed value: "matches at printed precision",
    "truncation would give it" (a note: within one unit of the last digit), or "" for none."""
    if MATCH in found:
        return "matches at printed precision"
    others = [_WORDS[name] for name in found if name in _WORDS]
    return " or ".join(others) + " would give it" if others else ""


def interval(text: object) -> tuple[float, float]:
    """The values a printed number allows: its value plus or minus half a unit of its last
    printed digit, in its own units (module docstring)."""
    found = parse(text)
    half = found.unit / 2
    return float(found.number - half), float(found.number + half)


def significant_unit(text: object) -> Decimal:
    """One unit of the last significant digit of a printed number (module docstring): a
    whole number's trailing zeros are not significant."""
    found = parse(text)
    if found.exponent < 0 or found.number == 0:
        return found.unit
    digits = found.number.as_tuple().digits
    zeros = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return Decimal(1).scaleb(found.exponent + zeros)
