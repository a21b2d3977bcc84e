"""A NaN that says why.

A coefficient on degenerate input (one category in use, fewer than two ratings per unit,
no units at all) has no value. reagree returns ``Undefined(reason)`` there instead of
raising or dividing by zero: it *is* a float NaN, so it flows through numpy and pandas like
any other missing value, and it carries the reason for whoever writes the number out.
"""

from __future__ import annotations

import math

__all__ = ["Undefined", "difference", "ratio", "reason_of"]


class Undefined(float):
    """float('nan') with a ``reason`` attribute."""

    reason: str

    def __new__(cls, reason: str) -> "Undefined":
        value = super().__new__(cls, math.nan)
        value.reason = reason
        return value

    def __repr__(self) -> str:
        return f"Undefined({self.reason!r})"


def reason_of(value: object) -> str:
    """The reason attached to an undefined value, or "" for anything else."""
    return getattr(value, "reason", "") if isinstance(value, float) else ""


def difference(minuend: object, subtrahend: object) -> float:
    """``minuend - subtrahend`` for two coefficients; Undefined (with both reasons) when
    either is, where plain subtraction would give a NaN that forgot why."""
    reasons = [reason_of(v) for v in (minuend, subtrahend) if reason_of(v)]
    if reasons:
        return Undefined("; ".join(reasons))
    return float(minuend) - float(subtrahend)


def ratio(numerator: object, denominator: object) -> float:
    """``numerator / denominator`` for two coefficients or widths; Undefined (with the
    reasons) when either is, or when the denominator is 0."""
    reasons = [reason_of(v) for v in (numerator, denominator) if reason_of(v)]
    if reasons:
        return Undefined("; ".join(reasons))
    if float(denominator) == 0:
        return Undefined("the denominator is 0")
    return float(numerator) / float(denominator)
