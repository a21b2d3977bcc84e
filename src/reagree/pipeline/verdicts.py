"""What a claim's status says was checked, and the one verdict of a printed figure.

What this module decides (the contract is design.md's "Claims"; the words are in
``docs/claims.md``):

- **Four kinds of check, each with its own statuses.**
  ``match`` / ``within tolerance`` / ``mismatch``: a number computed from the released data
  held against a printed value (``value_status``). ``holds`` / ``mismatch``: the data held
  against a printed bound or window (``bound_status``). ``consistent`` / ``inconsistent``:
  a printed number held against other printed numbers (``source: internal``,
  ``internal_status``). The rest (``uncheckable``, ``not recomputed``, ``not built``,
  ``not comparable``, ``missing``) say why nothing was checked: ``uncheckable`` when what
  was released or fetched cannot give the figure, ``not recomputed`` when the data are
  released but reagree does not reimplement the method that printed it. Only ``match``
  counts as a printed figure reproduced from the released data.
- **A printed value** is reproduced when the computed value lies within half a unit of its
  last printed digit (``0.40``: 0.395 to 0.405), ends included, with a relative slack of
  1e-9 (``SLACK``) for float noise. A value on a rounding boundary is never a finding.
- **A bound.** ``compare`` ``>``, ``<`` ("over", "more than", "above", "below") is exact:
  equal is not over. ``>=``, ``<=`` are the ends of a printed window ("0.7–0.9", "2–4%",
  "from January 2022 to December 2024"): a value that prints as the end, at the end's
  digits, is inside the window (4.2% is "4%" to whole percents, so it is within "2–4%";
  ``bound_allowance``).
- **Approximate words** ("roughly", "about", "around", "nearly", "almost", "some",
  "approximately", "a factor of"; ``APPROXIMATE_WORDS``) are read by one rule in every
  paper: the value, rounded to the printed number's significant digits, gives the printed
  number (``approximate_tolerance``; a whole number's trailing zeros are not significant,
  so "about 20,000" holds 15,000 to 25,000 and "roughly a factor of ten" 5 to 15, while
  "roughly 0.025" holds 0.0245 to 0.0255 like a plain 0.025). A value the word admits
  that the printed digits alone would not is ``within tolerance``, and the rule is its
  reason. With a bound ("almost 10% points lower", ``compare <``), the value must keep the
  bound and round to the number.
- **An internal relation** is ``inconsistent`` only when no value the printed inputs
  allow (``reagree.pipeline.internal``: each input plus or minus half a unit of its last
  digit) prints as the printed result, read at its own digits or its approximate word.
- **Rounding readings are notes** (``rounding_note``): "truncation would give it" says
  the value is within one unit of the last printed digit; it never explains a finding and
  never merges findings.
- **One printed figure, one verdict** (``figure_ids``, ``verdict``). The
  claims that check one printed figure (the same key, end, comparison and printed
  number, however many places print it; keys joined by a claim's ``figure``: the same
  figure checked against the data and internally, or one statement about several
  datasets) get one verdict: the first of ``VERDICT_ORDER``
  among their statuses: findings first, then the most cautious agreement (a figure one
  check reproduces at its digits and another only within a wider tolerance is within
  tolerance; one the data reproduce and other printed numbers agree with is a match).
"""

from __future__ import annotations

import math
from decimal import Decimal

from reagree.pipeline.printed import SLACK, parse, readings, significant_unit
from reagree.pipeline.printed import within_tolerance as within

__all__ = [
    "APPROXIMATE_WORDS",
    "COMPARED",
    "FINDINGS",
    "INEQUALITIES",
    "INTERNAL",
    "STATUSES",
    "VERDICT_ORDER",
    "approximate_reason",
    "approximate_tolerance",
    "bound_allowance",
    "bound_status",
    "figure_ids",
    "holds",
    "internal_status",
    "rounding_note",
    "value_status",
    "verdict",
    "window_end",
]

#: Every status, in the order the summary counts them.
STATUSES = (
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
)
#: Statuses that are findings.
FINDINGS = ("mismatch", "inconsistent")
#: Statuses of a number computed from the data held against a printed value (the variants are searched for these).
COMPARED = ("match", "within tolerance", "mismatch")
#: The statuses of a printed number held against other printed numbers.
INTERNAL = ("consistent", "inconsistent")
#: A figure's verdict: the first of these among its claims' statuses.
VERDICT_ORDER = (
    "missing",
    "mismatch",
    "inconsistent",
    "within tolerance",
    "match",
    "holds",
    "consistent",
    "not comparable",
    "not built",
    "not recomputed",
    "uncheckable",
)
#: ``compare`` values that state a bound: computed <op> published.
INEQUALITIES = (">", ">=", "<", "<=")
#: The words read by the approximate-words rule (a claim's ``approximate``).
APPROXIMATE_WORDS = ("roughly", "about", "around", "nearly", "almost", "some", "approximately", "a factor of")


def value_status(published: float, computed: float, precision: float, tolerance: float | None = None) -> str:
    """A value computed from the data against a printed value: ``match`` within the
    printed ``precision`` (or a narrower own tolerance), ``within tolerance`` within a
    wider ``tolerance`` (the claim's own, or its approximate word's), else ``mismatch``;
    ``missing`` without a value."""
    if not math.isfinite(computed):
        return "missing"
    if within(published, computed, min(precision, tolerance) if tolerance is not None else precision):
        return "match"
    if tolerance is not None and tolerance > precision and within(published, computed, tolerance):
        return "within tolerance"
    return "mismatch"


def bound_allowance(relation: str, published: object) -> float:
    """How far past a printed bound a value may lie and still print as it: half a unit of
    the bound's last printed digit for a window's end (``>=``, ``<=``), nothing for a strict
    bound (``>``, ``<``) (module docstring)."""
    if relation not in INEQUALITIES:
        raise ValueError(f"compare {relation!r} is not an inequality ({', '.join(INEQUALITIES)})")
    return parse(getattr(published, "text", None) or published).tolerance if relation in (">=", "<=") else 0.0


def holds(computed: float, relation: str, bound: float, allowance: float = 0.0) -> bool:
    """Whether ``computed <relation> bound`` holds, an inclusive bound moved out by
    ``allowance``; values within the float slack of the bound (relative to the bound: a
    bound of 5e-13 is not swamped) count as equal to it (so ``>=`` holds there and ``>``
    does not)."""
    if relation not in INEQUALITIES:
        raise ValueError(f"compare {relation!r} is not an inequality ({', '.join(INEQUALITIES)})")
    slack = SLACK * max(abs(bound), allowance)
    return {
        ">": computed - bound > slack,
        ">=": computed - (bound - allowance) >= -slack,
        "<": computed - bound < -slack,
        "<=": computed - (bound + allowance) <= slack,
    }[relation]


def bound_status(computed: float, relation: str, published: object, tolerance: float | None = None) -> str:
    """The data against a printed bound or a window's end: ``holds`` or ``mismatch``
    (``missing`` without a value). With an approximate word (``tolerance``), the value must
    also round to the bound at its significant digits."""
    if not math.isfinite(computed):
        return "missing"
    bound = float(published)
    kept = holds(computed, relation, bound, bound_allowance(relation, published))
    near = tolerance is None or within(bound, computed, tolerance)
    return "holds" if kept and near else "mismatch"


def _nearest(low: float, high: float, target: float) -> float:
    """The point of [low, high] nearest to ``target``."""
    return min(max(target, low), high)


def internal_status(
    published: object, low: float, high: float, relation: str = "value", tolerance: float | None = None
) -> str:
    """A printed number against the range [``low``, ``high``] that other printed numbers
    allow: ``consistent`` when some value of the range prints as the number (within its
    ``tolerance``: half a unit of its last digit, or its approximate word's), or keeps it
    when it is a bound; ``inconsistent`` when none does; ``missing`` without a range."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "missing"
    bound = float(published)
    if relation == "abs":
        low, high = (0.0 if low <= 0 <= high else min(abs(low), abs(high))), max(abs(low), abs(high))
    if relation in INEQUALITIES:
        if tolerance is not None:  # an approximate bound: only the values that also round to it
            low, high = max(low, bound - tolerance * (1 + SLACK)), min(high, bound + tolerance * (1 + SLACK))
            if low > high:
                return "inconsistent"
        best = high if relation in (">", ">=") else low
        return "consistent" if holds(best, relation, bound, bound_allowance(relation, published)) else "inconsistent"
    width = tolerance if tolerance is not None else parse(getattr(published, "text", None) or published).tolerance
    return "consistent" if within(bound, _nearest(low, high, bound), width) else "inconsistent"


def approximate_tolerance(published: object) -> float:
    """Half a unit of the printed number's last significant digit: how far a value may lie
    from a number read with an approximate word (module docstring)."""
    return float(significant_unit(getattr(published, "text", None) or published)) / 2


def approximate_reason(word: str, published: object) -> str:
    """The reason an approximate claim states: the word, the rule, the range it admits."""
    text = getattr(published, "text", None) or str(published)
    half = significant_unit(text) / 2
    value = parse(text).number
    digits = _significant_digits(text)
    return (
        f"'{word}': read to the significant digits of {text} ({digits} significant digit"
        f"{'s' if digits != 1 else ''}): {_plain(value - half)} to {_plain(value + half)}"
    )


def _significant_digits(text: str) -> int:
    found = parse(text)
    digits = "".join(map(str, found.number.as_tuple().digits)).lstrip("0")
    if found.exponent >= 0:
        digits = digits.rstrip("0")
    return max(len(digits), 1)


def _plain(value: Decimal) -> str:
    """A range end as short plain text (15000, 0.0245, 1.5)."""
    return format(value.normalize(), "f")


def window_end(relation: str, published: object) -> str:
    """A window's end read to its printed digits, as text ("<= 4.5" for "<= 4")."""
    text = getattr(published, "text", None) or str(published)
    found = parse(text)
    half = found.unit / 2
    return f"{relation} {_plain(found.number + half if relation == '<=' else found.number - half)}"


def rounding_note(published: object, computed: float, name: str = "reagree's value") -> str:
    """A note, never an explanation: which rounding of ``computed`` other than to nearest
    gives the printed digits ("" when none does, or when it matches outright)."""
    text = getattr(published, "text", None) or str(published)
    if not math.isfinite(computed):
        return ""
    found = readings(text, computed)
    if "match" in found:
        return ""
    modes = [
        words for reading, words in (("truncation", "truncation"), ("rounding_up", "rounding up")) if reading in found
    ]
    if not modes:
        return ""
    return (
        f"{' or '.join(modes)} of {name} ({computed:.6g}) would give {text}: within one unit of the last "
        "printed digit, a note, not an explanation"
    )


def _figure_atom(key: str, claim) -> tuple[str, str, str, str]:
    """A printed figure as the claims name it: a key, the interval end, the comparison and
    the printed number with its digits (``19,991`` is ``19991`` and ``+0.840`` is
    ``0.840``, not ``0.84``: printed to another digit, it is another figure; a key's values
    are in one unit, so ``9.3%`` and a percentage column's ``9.3`` are one number)."""
    text = getattr(claim["published"], "text", None) or str(claim["published"])
    compare = claim.get("compare", "")
    return (
        key,
        claim.get("end", "") or "",
        compare if compare in INEQUALITIES else "",
        format(parse(text).number, "f"),
    )


def figure_ids(claims) -> list[str]:
    """The printed figure each claim checks (module docstring), as text: claims with the
    same key, end, comparison and printed number check one figure, and so do a claim and
    the claims of the key its ``figure`` names (the same end, comparison and number),
    links followed both ways and through chains; a figure is named after its first claim."""
    parent: dict[tuple, tuple] = {}
    order: dict[tuple, int] = {}

    def root(atom: tuple) -> tuple:
        while parent[atom] != atom:
            parent[atom] = parent[parent[atom]]
            atom = parent[atom]
        return atom

    atoms = []
    for claim in claims:
        own = _figure_atom(claim["key"], claim)
        linked = _figure_atom(claim.get("figure") or claim["key"], claim)
        atoms.append(own)
        for atom in (own, linked):
            if atom not in parent:
                parent[atom] = atom
                order[atom] = len(order)
        a, b = root(own), root(linked)
        if a != b:  # the earlier one names the figure
            first, second = (a, b) if order[a] < order[b] else (b, a)
            parent[second] = first
    out = []
    for atom in atoms:
        key, end, compare, number = root(atom)
        out.append(f"{key}{f' ({end})' if end else ''} {compare or '='} {number}")
    return out


def verdict(statuses) -> str:
    """The one verdict of a printed figure checked by claims of these statuses: the first
    of ``VERDICT_ORDER`` among them (findings first)."""
    present = set(statuses)
    for status in VERDICT_ORDER:
        if status in present:
            return status
    raise ValueError(f"no known status among {sorted(present)}")
