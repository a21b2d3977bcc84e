"""Printed numbers checked against one another, where the data were never released.

What this module decides:

- **An internal claim** (``source: internal``) holds one printed number against a value
  that code computes from *other* printed numbers of the same paper: a percentage against
  its count and its base, a row against its total, a mean against its parts, a
  difference against its two terms, the same figure printed in two places. Its status is
  ``consistent`` or ``inconsistent`` (``reagree.pipeline.verdicts``), never a match: no
  data reproduced it.
- **Every printed input is an interval.** A printed operand stands for every value its
  digits allow: its value plus or minus half a unit of its last printed digit
  (``reagree.pipeline.printed.interval``: ``0.650`` is [0.6495, 0.6505], ``19,642`` is
  [19641.5, 19642.5]); a constant the text writes (the 1 of "1 - 0.73") is exact. Each
  relation computes its value at the printed numbers and the range of values it takes
  over those intervals (``value_range``). The range is exact, not an interval-arithmetic
  overestimate: sums, differences, means, ratios, percentages, minima and maxima are
  monotone in each operand, so their range is reached at the intervals' ends, taken one
  operand at a time; a weighted mean (a count in its numerator and in its denominator) is
  a ratio of linear forms, whose range over a box is reached at one of its corners, which
  are all tried. The verdict (``reagree.pipeline.verdicts.internal_status``) widens the
  printed result by its own rounding: inconsistent only when no value the inputs allow
  prints as the result.
- **Operands are printed texts of other claims.** ``Printed(key, where)`` names a claim of
  the paper by its key; when the key is claimed at several places with different printed
  texts, ``where`` (a part of the wanted claim's ``where``) picks one. The text is read by
  ``reagree.pipeline.printed.parse``: ``19,642`` is 19642, a percentage column's ``3.2``
  is 3.2 (percent units as printed). An operand that names no claim, or several claims
  printed differently, is an error naming the relation, never a guess.
- **One family, one function.** A relation's key is built through one of the paper's key
  families (``reagree.pipeline.keys``), and the family names the function below that
  computes it (``percentage``, ``pooled_percentage``, ``share``, ``total``, ``mean``,
  ``difference``, ``ratio``, ``relative_change``, ``same``, ``minimum``, ``maximum``,
  ``rank``, ``weighted_mean``):
  the family decides the arithmetic, the relation only its operands. Declared once per
  paper in its package (``<id>/internal.py``, ``RELATIONS``, given to its ``PAPER``:
  ``reagree.pipeline.paper``); the generic rule ``check_<id>_printed``
  (``workflow/rules/printed.smk``, made for every paper with relations) writes the values (``evaluate``: the value, and its range as the
  row's ``ci_low`` and ``ci_high``), and the claims rule diffs them against the internal
  claims.
- **Variants of a relation** (``alternative``): another quantity or method computed from
  printed numbers for the same claim (a relative instead of an absolute change, another
  base for a percentage), each with its range. The rule writes them to the paper's
  variants file (family ``printed_relation``, ``variant_rows``), and the claims diff says
  which of them the printed result is consistent with (``explained_by``).
- **Degenerate input.** A division by a printed zero, or by an interval that holds zero,
  is ``Undefined`` with its reason (the claim then reads ``missing``, a defect in the
  declaration), never a crash.

Nothing here reads data: these checks exist because there are none.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from reagree.pipeline.keys import Family, function_name, resolve_function
from reagree.pipeline.printed import interval, parse
from reagree.pipeline.rulekit import RuleOutputs
from reagree.stats.undefined import Undefined, reason_of

__all__ = [
    "Printed",
    "Relation",
    "Variant",
    "alternative",
    "check_printed",
    "difference",
    "evaluate",
    "maximum",
    "mean",
    "minimum",
    "percentage",
    "pooled_percentage",
    "printed_texts",
    "rank",
    "ratio",
    "relate",
    "relative_change",
    "same",
    "share",
    "total",
    "value_range",
    "variant_rows",
    "weighted_mean",
]

#: The family name of a relation's variants in the paper's variants file.
VARIANT_FAMILY = "printed_relation"
#: The scheme text of a relation's range in values.tsv.
RANGE_SCHEME = "printed digits: each input +/- half a unit of its last digit, exact range"
#: A weighted mean's range tries every corner of its counts' box: 2^n of them.
MAX_CORNERS = 16


# --------------------------------------------------------------------------- the arithmetic


def percentage(part: float, whole: float) -> float:
    """``100 * part / whole``: a count as a percentage of its base (Undefined for a zero base)."""
    return Undefined("the base is 0") if whole == 0 else 100.0 * part / whole


def pooled_percentage(*counts: float, parts: int) -> float:
    """``100 * sum(counts[:parts]) / sum(counts[parts:])``: the counts of several rows as
    a percentage of their rows' bases added up ("about 15% of all tweets" over a table's
    rows, each row printing its count and its base), not a mean of the rows' percentages
    (Undefined for a zero base)."""
    if not 0 < parts < len(counts):
        raise ValueError(
            f"pooled_percentage: parts={parts} must leave at least one count and one base of {len(counts)} operands"
        )
    whole = float(sum(counts[parts:]))
    return Undefined("the bases sum to 0") if whole == 0 else 100.0 * float(sum(counts[:parts])) / whole


def share(part: float, whole: float) -> float:
    """``part / whole``: a count as a proportion of its base (Undefined for a zero base)."""
    return Undefined("the base is 0") if whole == 0 else part / whole


def total(*parts: float) -> float:
    """The sum of the parts: a row's cells against its printed total."""
    return float(sum(parts))


def mean(*parts: float) -> float:
    """The arithmetic mean of the parts: a printed average against the rows it averages."""
    return Undefined("no parts") if not parts else float(sum(parts)) / len(parts)


def difference(minuend: float, *subtrahends: float) -> float:
    """``minuend - sum(subtrahends)``: a printed gap against its two printed terms."""
    return float(minuend) - float(sum(subtrahends))


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator`` (Undefined for a zero denominator)."""
    return Undefined("the denominator is 0") if denominator == 0 else numerator / denominator


def relative_change(new: float, old: float) -> float:
    """``new / old - 1``: a change relative to where it started ("improved by 10%"), as a
    proportion (Undefined for a zero start)."""
    return Undefined("the start is 0") if old == 0 else new / old - 1.0


def same(value: float) -> float:
    """The value itself: the same figure printed in another place."""
    return float(value)


def minimum(*values: float) -> float:
    """The smallest value: "every one of them is above x" is a bound on the minimum."""
    return Undefined("no values") if not values else float(min(values))


def maximum(*values: float) -> float:
    """The largest value: "every one of them is below x" is a bound on the maximum."""
    return Undefined("no values") if not values else float(max(values))


def rank(value: float, *others: float) -> float:
    """Where ``value`` ranks among itself and ``others``, largest first: 1 + how many of
    the others are larger ("the human bar is the largest": rank 1; "second": rank 2)."""
    return float(1 + sum(other > value for other in others))


def weighted_mean(*counts: float, scores: Iterable[float]) -> float:
    """Mean of a discrete distribution: ``sum(score_i * count_i) / sum(count_i)``, each
    category's printed count weighting its score (Mozetič et al.'s sentiment score is this
    mean with scores -1, 0, +1; Kralj Novak et al. 2015, PLOS ONE 10(12): e0144296)."""
    scores = tuple(float(s) for s in scores)
    if len(scores) != len(counts):
        raise ValueError(f"weighted_mean: {len(counts)} counts for {len(scores)} scores")
    n = float(sum(counts))
    return Undefined("the counts sum to 0") if n == 0 else sum(s * c for s, c in zip(scores, counts)) / n


_FUNCTIONS = (
    percentage,
    share,
    total,
    mean,
    difference,
    ratio,
    relative_change,
    same,
    minimum,
    maximum,
    rank,
    weighted_mean,
    pooled_percentage,
)


# --------------------------------------------------------------------------- ranges over printed intervals

Range = tuple[float, float]


def _quotient(numerator: Range, denominator: Range, what: str) -> Range | Undefined:
    """The range of a / b over two intervals (a quotient is monotone in each: its range is
    at the corners), Undefined when the denominator's interval holds 0."""
    if denominator[0] <= 0 <= denominator[1]:
        return Undefined(f"the {what}'s printed interval [{denominator[0]:g}, {denominator[1]:g}] holds 0")
    corners = [a / b for a in numerator for b in denominator]
    return min(corners), max(corners)


def _sum(ranges: tuple[Range, ...]) -> Range:
    return sum(r[0] for r in ranges), sum(r[1] for r in ranges)


def _corners(function: Callable, ranges: tuple[Range, ...], options: Mapping) -> Range | Undefined:
    """The range of a ratio of linear forms over a box: the smallest and the largest value
    at its corners (a linear-fractional function is monotone along every segment, so its
    extremes over a box are at corners)."""
    if len(ranges) > MAX_CORNERS:
        raise ValueError(
            f"{function.__name__}: {len(ranges)} operands; a range over more than {MAX_CORNERS} is "
            "not tried corner by corner"
        )
    values = [function(*corner, **options) for corner in itertools.product(*ranges)]
    undefined = [v for v in values if reason_of(v)]
    if undefined:
        return Undefined(f"undefined at a corner of the printed intervals: {reason_of(undefined[0])}")
    return min(values), max(values)


def value_range(function: Callable, ranges: tuple[Range, ...], options: Mapping | None = None) -> Range | Undefined:
    """The exact range of one of this module's functions when each operand may be
    anywhere in its interval (module docstring)."""
    options = dict(options or {})
    if function is total:
        return _sum(ranges)
    if function is mean:
        low, high = _sum(ranges)
        return Undefined("no parts") if not ranges else (low / len(ranges), high / len(ranges))
    if function is difference:
        first, rest = ranges[0], _sum(ranges[1:])
        return first[0] - rest[1], first[1] - rest[0]
    if function in (ratio, share):
        return _quotient(ranges[0], ranges[1], "denominator" if function is ratio else "base")
    if function is percentage:
        found = _quotient(ranges[0], ranges[1], "base")
        return found if reason_of(found) else (100.0 * found[0], 100.0 * found[1])
    if function is pooled_percentage:  # increasing in each count, decreasing in each base
        parts = options["parts"]
        found = _quotient(_sum(ranges[:parts]), _sum(ranges[parts:]), "bases' sum")
        return found if reason_of(found) else (100.0 * found[0], 100.0 * found[1])
    if function is relative_change:
        found = _quotient(ranges[0], ranges[1], "start")
        return found if reason_of(found) else (found[0] - 1.0, found[1] - 1.0)
    if function is same:
        return ranges[0]
    if function is minimum:
        return min(r[0] for r in ranges), min(r[1] for r in ranges)
    if function is maximum:
        return max(r[0] for r in ranges), max(r[1] for r in ranges)
    if function is rank:
        (low, high), others = ranges[0], ranges[1:]
        surely_larger = sum(other[0] > high for other in others)
        maybe_larger = sum(other[1] > low for other in others)
        return float(1 + surely_larger), float(1 + maybe_larger)
    if function is weighted_mean:
        return _corners(function, ranges, options)
    raise ValueError(f"{function_name(function)} has no range over printed intervals")


# --------------------------------------------------------------------------- relations


@dataclass(frozen=True)
class Printed:
    """The printed number of another claim: its key, and a part of its ``where`` when the
    key is claimed at several places with different printed texts."""

    key: str
    where: str = ""


def _check_function(function: Callable, what: str) -> None:
    if function not in _FUNCTIONS:
        raise ValueError(
            f"{what}: its function {function_name(function)} is not one of "
            f"reagree.pipeline.internal's ({', '.join(f.__name__ for f in _FUNCTIONS)})"
        )


def _operand_texts(operands: tuple, printed: Mapping[str, list[tuple[str, str]]], relation: str) -> list[str]:
    """The printed text of each operand (module docstring: how one is chosen); a constant
    as written."""
    return [
        _resolve(operand, printed, relation) if isinstance(operand, Printed) else repr(operand) for operand in operands
    ]


def _computed(function: Callable, operands: tuple, options: Mapping, texts: list[str]) -> tuple[float, Range | None]:
    """The value at the printed numbers and its range over their intervals (None when
    the value is undefined)."""
    value = function(*(parse(text).value for text in texts), **options)
    if reason_of(value):
        return value, None
    ranges = tuple(
        interval(text) if isinstance(operand, Printed) else (float(operand), float(operand))
        for text, operand in zip(texts, operands)
    )
    found = value_range(function, ranges, options)
    return (Undefined(reason_of(found)), None) if reason_of(found) else (value, found)


def _operand_words(texts: list[str], operands: tuple) -> str:
    return ", ".join(
        f"{text} [{operand.key}]" if isinstance(operand, Printed) else text for text, operand in zip(texts, operands)
    )


@dataclass(frozen=True)
class Variant:
    """Another quantity or method for a relation's claim, from printed numbers: its name,
    function (one of this module's), operands, fixed keyword arguments and what it reads
    the sentence as (``about``)."""

    name: str
    function: Callable
    operands: tuple[Printed | float, ...]
    about: str
    options: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_function(self.function, f"variant {self.name}")


def alternative(
    name: str,
    function: Callable,
    *operands: Printed | str | float,
    about: str,
    options: Mapping[str, object] | None = None,
) -> Variant:
    """A variant of a relation (a bare string operand is a claim key, a number a constant)."""
    return Variant(
        name, function, tuple(Printed(o) if isinstance(o, str) else o for o in operands), about, dict(options or {})
    )


@dataclass(frozen=True)
class Relation:
    """One value computed from printed numbers: the family that keys it (and names its
    function), the family's fields, the operands, fixed keyword arguments of the
    function (``scores`` of a weighted mean), and the variants tried for its claim."""

    family: Family
    fields: Mapping[str, object]
    operands: tuple[Printed | float, ...]
    options: Mapping[str, object] = field(default_factory=dict)
    variants: tuple[Variant, ...] = ()

    def __post_init__(self) -> None:
        _check_function(resolve_function(self.family.function), f"key {self.family.pattern}")
        self.family.key(**self.fields)  # a field value the family does not declare fails here, at declaration
        names = [variant.name for variant in self.variants]
        if len(set(names)) != len(names):
            raise ValueError(f"key {self.family.pattern}: a variant name is given twice: {names}")

    @property
    def key(self) -> str:
        return self.family.key(**self.fields)

    @property
    def function(self) -> Callable:
        return resolve_function(self.family.function)

    def texts(self, printed: Mapping[str, list[tuple[str, str]]]) -> list[str]:
        return _operand_texts(self.operands, printed, self.key)

    def value(self, printed: Mapping[str, list[tuple[str, str]]]) -> float:
        return self.function(*(parse(text).value for text in self.texts(printed)), **self.options)

    def row(self, printed: Mapping[str, list[tuple[str, str]]]) -> dict:
        """The values.tsv row: the value at the printed numbers, its range over their
        intervals (``ci_low``, ``ci_high``; scheme ``RANGE_SCHEME``) and a note naming the
        operands as printed."""
        texts = self.texts(printed)
        value, found = _computed(self.function, self.operands, self.options, texts)
        name = self.family.function.rsplit(".", 1)[-1]
        row = self.family.row(
            value, note=f"{name}({_operand_words(texts, self.operands)}) of printed numbers", ci=found, **self.fields
        )
        if found is not None:
            row["scheme"] = RANGE_SCHEME
        return row

    def variant_rows(self, printed: Mapping[str, list[tuple[str, str]]]) -> list[dict]:
        """One variants-file row per variant: its value, its range (``low``, ``high``) and
        a note saying what it reads and from which printed numbers."""
        rows = []
        for variant in self.variants:
            texts = _operand_texts(variant.operands, printed, f"{self.key} (variant {variant.name})")
            value, found = _computed(variant.function, variant.operands, variant.options, texts)
            rows.append(
                {
                    "key": self.key,
                    "family": VARIANT_FAMILY,
                    "variant": variant.name,
                    "value": float(value),
                    "own": "",
                    "note": "; ".join(
                        p
                        for p in (
                            f"{variant.about}: {variant.function.__name__}({_operand_words(texts, variant.operands)})",
                            reason_of(value),
                        )
                        if p
                    ),
                    "low": found[0] if found else float("nan"),
                    "high": found[1] if found else float("nan"),
                }
            )
        return rows


def relate(
    family: Family,
    *operands: Printed | str | float,
    options: Mapping[str, object] | None = None,
    variants: Iterable[Variant] = (),
    **fields: object,
) -> Relation:
    """A relation of ``family`` over ``operands`` (a bare string is a claim key, a number a
    constant), with the ``variants`` tried for its claim."""
    return Relation(
        family,
        fields,
        tuple(Printed(o) if isinstance(o, str) else o for o in operands),
        dict(options or {}),
        tuple(variants),
    )


def printed_texts(claims: Iterable[Mapping]) -> dict[str, list[tuple[str, str]]]:
    """key -> [(where, printed text)] over a paper's claims (``load_paper(...)["claims"]``).
    A bound ("over 40%", ``compare: >``) is not a printing of its key's value and is left out."""
    from reagree.pipeline.verdicts import INEQUALITIES

    out: dict[str, list[tuple[str, str]]] = {}
    for claim in claims:
        if claim.get("compare") in INEQUALITIES:
            continue
        published = claim["published"]
        out.setdefault(claim["key"], []).append(
            (claim.get("where", ""), getattr(published, "text", None) or repr(float(published)))
        )
    return out


def _resolve(operand: Printed, printed: Mapping[str, list[tuple[str, str]]], relation: str) -> str:
    found = [(where, text) for where, text in printed.get(operand.key, []) if operand.where in where]
    texts = {text for _, text in found}
    if not found:
        at = f" printed at a 'where' holding {operand.where!r}" if operand.where else ""
        raise ValueError(f"relation {relation}: no claim {operand.key}{at}")
    if len(texts) > 1:
        raise ValueError(
            f"relation {relation}: claim {operand.key} is printed as {sorted(texts)} at "
            f"{[where for where, _ in found]}; name the place (Printed(key, where=...))"
        )
    return texts.pop()


def evaluate(relations: Iterable[Relation], claims: Iterable[Mapping]) -> list[dict]:
    """One values.tsv row per relation, its operands read from ``claims``; a key two
    relations produce is an error."""
    printed = printed_texts(claims)
    rows, seen = [], set()
    for relation in relations:
        if relation.key in seen:
            raise ValueError(f"relation {relation.key} is declared twice")
        seen.add(relation.key)
        rows.append(relation.row(printed))
    return rows


def variant_rows(relations: Iterable[Relation], claims: Iterable[Mapping]) -> list[dict]:
    """The variants-file rows of every relation's variants (``Relation.variant_rows``)."""
    printed = printed_texts(claims)
    return [row for relation in relations for row in relation.variant_rows(printed)]


def check_printed(relations: Iterable[Relation], claims: Iterable[Mapping]) -> RuleOutputs:
    """What rules check_<paper>_printed write: the values of the paper's internal claims
    (``evaluate``) and the variants of their relations (``variant_rows``)."""
    claims = list(claims)
    return RuleOutputs(values=evaluate(relations, claims), variants=variant_rows(relations, claims))
