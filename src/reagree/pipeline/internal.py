"""Printed numbers checked against one another, where the data were never released.

What this module decides:

- **An internal claim** (``source: internal``) holds one printed number against a value
  that code computes from *other* printed numbers of the same paper: a percentage against
  its count and its base, a row against its total, a mean against its parts, a
  difference against its two terms, the same figure printed in two places. Its status is
  ``match`` or ``mismatch`` like any other claim's: the printed number keeps its printed
  precision (``reagree.pipeline.claims``); only the computed side is new.
- **Operands are printed texts of other claims.** ``Printed(key, where)`` names a claim of
  the paper by its key; when the key is claimed at several places with different printed
  texts, ``where`` (a part of the wanted claim's ``where``) picks one. The text is read by
  ``reagree.pipeline.printed.parse``: ``19,642`` is 19642, a percentage column's ``3.2``
  is 3.2 (percent units as printed). An operand that names no claim, or several claims
  printed differently, is an error naming the relation, never a guess.
- **One family, one function.** A relation's key is built through one of the paper's key
  families (``reagree.pipeline.keys``), and the family names the function below that
  computes it (``percentage``, ``share``, ``total``, ``mean``, ``difference``, ``ratio``,
  ``same``, ``minimum``, ``maximum``, ``weighted_mean``): the family decides the
  arithmetic, the relation only its operands. Declared once per paper in its package
  (``<id>/internal.py``, ``RELATIONS``); the paper's rule ``check_<id>_printed`` writes the
  values (``evaluate``), and the claims rule diffs them against the internal claims.
- **Degenerate input.** A division by a printed zero is ``Undefined`` with its reason (the
  claim then reads ``missing``, a defect in the declaration), never a crash.

Nothing here reads data: these checks exist because there are none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from reagree.pipeline.claims import INEQUALITIES
from reagree.pipeline.keys import Family, resolve_function
from reagree.pipeline.printed import parse
from reagree.stats.undefined import Undefined

__all__ = ["Printed", "Relation", "difference", "evaluate", "maximum", "mean", "minimum", "percentage", "printed_texts",
           "ratio", "relate", "same", "share", "total", "weighted_mean"]


# --------------------------------------------------------------------------- the arithmetic

def percentage(part: float, whole: float) -> float:
    """``100 * part / whole``: a count as a percentage of its base (Undefined for a zero base)."""
    return Undefined("the base is 0") if whole == 0 else 100.0 * part / whole


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


def same(value: float) -> float:
    """The value itself: the same figure printed in another place."""
    return float(value)


def minimum(*values: float) -> float:
    """The smallest value: "every one of them is above x" is a bound on the minimum."""
    return Undefined("no values") if not values else float(min(values))


def maximum(*values: float) -> float:
    """The largest value: "every one of them is below x" is a bound on the maximum."""
    return Undefined("no values") if not values else float(max(values))


def weighted_mean(*counts: float, scores: Iterable[float]) -> float:
    """Mean of a discrete distribution: ``sum(score_i * count_i) / sum(count_i)``, each
    category's printed count weighting its score (Mozetič et al.'s sentiment score is this
    mean with scores -1, 0, +1; Kralj Novak et al. 2015, PLOS ONE 10(12): e0144296)."""
    scores = tuple(float(s) for s in scores)
    if len(scores) != len(counts):
        raise ValueError(f"weighted_mean: {len(counts)} counts for {len(scores)} scores")
    n = float(sum(counts))
    return Undefined("the counts sum to 0") if n == 0 else sum(s * c for s, c in zip(scores, counts)) / n


_FUNCTIONS = (percentage, share, total, mean, difference, ratio, same, minimum, maximum, weighted_mean)


# --------------------------------------------------------------------------- relations

@dataclass(frozen=True)
class Printed:
    """The printed number of another claim: its key, and a part of its ``where`` when the
    key is claimed at several places with different printed texts."""

    key: str
    where: str = ""


@dataclass(frozen=True)
class Relation:
    """One value computed from printed numbers: the family that keys it (and names its
    function), the family's fields, the operands, and fixed keyword arguments of the
    function (``scores`` of a weighted mean)."""

    family: Family
    fields: Mapping[str, object]
    operands: tuple[Printed | float, ...]
    options: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        function = resolve_function(self.family.function)
        if function not in _FUNCTIONS:
            raise ValueError(f"key {self.family.pattern}: its function {self.family.function} is not one of "
                             f"reagree.pipeline.internal's ({', '.join(f.__name__ for f in _FUNCTIONS)})")
        self.family.key(**self.fields)  # a field value the family does not declare fails here, at declaration

    @property
    def key(self) -> str:
        return self.family.key(**self.fields)

    def texts(self, printed: Mapping[str, list[tuple[str, str]]]) -> list[str]:
        """The printed text of each operand (module docstring: how one is chosen); a
        constant as written."""
        return [_resolve(operand, printed, self.key) if isinstance(operand, Printed) else repr(operand)
                for operand in self.operands]

    def value(self, printed: Mapping[str, list[tuple[str, str]]]) -> float:
        function = resolve_function(self.family.function)
        return function(*(parse(text).value for text in self.texts(printed)), **self.options)

    def row(self, printed: Mapping[str, list[tuple[str, str]]]) -> dict:
        """The values.tsv row: the value, and a note naming the operands as printed."""
        texts = self.texts(printed)
        operands = ", ".join(f"{text} [{operand.key}]" if isinstance(operand, Printed) else text
                             for text, operand in zip(texts, self.operands))
        name = self.family.function.rsplit(".", 1)[-1]
        return self.family.row(self.value(printed), note=f"{name}({operands}) of printed numbers", **self.fields)


def relate(family: Family, *operands: Printed | str | float, options: Mapping[str, object] | None = None,
           **fields: object) -> Relation:
    """A relation of ``family`` over ``operands`` (a bare string is a claim key, a number a
    constant)."""
    return Relation(family, fields, tuple(Printed(o) if isinstance(o, str) else o for o in operands),
                    dict(options or {}))


def printed_texts(claims: Iterable[Mapping]) -> dict[str, list[tuple[str, str]]]:
    """key -> [(where, printed text)] over a paper's claims (``load_paper(...)["claims"]``).
    A bound ("over 40%", ``compare: >``) is not a printing of its key's value and is left out."""
    out: dict[str, list[tuple[str, str]]] = {}
    for claim in claims:
        if claim.get("compare") in INEQUALITIES:
            continue
        published = claim["published"]
        out.setdefault(claim["key"], []).append((claim.get("where", ""), getattr(published, "text", None) or
                                                 repr(float(published))))
    return out


def _resolve(operand: Printed, printed: Mapping[str, list[tuple[str, str]]], relation: str) -> str:
    found = [(where, text) for where, text in printed.get(operand.key, []) if operand.where in where]
    texts = {text for _, text in found}
    if not found:
        at = f" printed at a 'where' holding {operand.where!r}" if operand.where else ""
        raise ValueError(f"relation {relation}: no claim {operand.key}{at}")
    if len(texts) > 1:
        raise ValueError(f"relation {relation}: claim {operand.key} is printed as {sorted(texts)} at "
                         f"{[where for where, _ in found]}; name the place (Printed(key, where=...))")
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
