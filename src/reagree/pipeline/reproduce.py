"""Which variants reproduce a printed value: the search behind ``explained_by``.

What this module decides:

- **Input.** A printed value's text (``reagree.pipeline.printed``) and a mapping
  {variant name: computed value}, in the order the variants were tried (a family of
  ``reagree.stats.variants``, or several families merged). Optionally ``reference``: the
  name, among them, of the value reagree reports for the claim (the paper's stated
  definition); the search then says whether that value matches.
- **What is tried.** Every variant with a finite value; an ``Undefined`` one (the
  variant does not apply to these data) is listed apart with its reason and is not
  counted among the N tried.
- **What reproduces.** A variant reproduces the printed value when its value passes the
  default reading (``match``: within half a unit of the last printed digit). Nothing
  else does: that truncating or rounding up a value would give the printed digits is a
  note (``reagree.pipeline.verdicts.rounding_note``), never an explanation.
- **A match that others share.** When the reference matches, the other variants that
  match too are listed: the printed number cannot tell them apart.
- **Candidates, not causes.** Every variant that reproduces a mismatch is named; when
  more than one does, none of them is the cause (``first_cause`` gives one only for a
  single candidate). A family of many variants (more than ``MANY``: one per left-out
  unit, say) is named by how many of its members reproduce the print ("12 of 182
  alpha_leave_one_unit_out variants").
- **A printed result against printed inputs** (``printed_search``, for internal claims):
  a variant reproduces it when the range its printed inputs allow
  (``reagree.pipeline.internal``) holds a value that prints as the result.
- **Words.** "reproduced by alpha.expected_n_squared (0.205255)", "none of 6 variants
  tried reproduces 0.205". Evidence that a reading gives the printed digits, never a
  statement of what the authors did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from reagree.pipeline import printed
from reagree.stats.undefined import reason_of

__all__ = [
    "MANY",
    "REAGREE",
    "Search",
    "Tried",
    "claim_search",
    "explanation",
    "first_cause",
    "printed_search",
    "search",
]

#: A family with more tried variants than this is named by a count of those that reproduce.
MANY = 6


def _number(value: float) -> str:
    return f"{value:.6g}"


@dataclass(frozen=True)
class Tried:
    """One variant held against the printed value: its value, its family (when known) and
    the readings under which it gives the printed digits
    (``reagree.pipeline.printed.READINGS``)."""

    name: str
    value: float
    readings: tuple[str, ...]
    family: str = ""

    @property
    def matches(self) -> bool:
        return printed.MATCH in self.readings

    @property
    def reproduces(self) -> bool:
        """Only a match reproduces a printed value (module docstring)."""
        return self.matches

    def words(self) -> str:
        """ "name (value)"."""
        return f"{self.name} ({_number(self.value)})"


def _grouped_words(found: Sequence[Tried], tried: Sequence[Tried]) -> list[str]:
    """Words for the variants that reproduce: one by one, except that a family of more
    than ``MANY`` tried variants is one count ("3 of 182 f variants (0.2051 to 0.2054)")."""
    sizes: dict[str, int] = {}
    for t in tried:
        if t.family:
            sizes[t.family] = sizes.get(t.family, 0) + 1
    words, done = [], set()
    for t in found:
        if t.family and sizes.get(t.family, 0) > MANY:
            if t.family in done:
                continue
            done.add(t.family)
            members = [m for m in found if m.family == t.family]
            values = [m.value for m in members]
            spread = (
                f"{_number(min(values))} to {_number(max(values))}"
                if min(values) != max(values)
                else _number(values[0])
            )
            words.append(f"{len(members)} of {sizes[t.family]} {t.family} variants ({spread})")
        else:
            words.append(t.words())
    return words


@dataclass(frozen=True)
class Search:
    """The outcome of ``search``: every variant tried, those that did not apply, and
    what reproduces the printed value."""

    published: str
    reference: str | None
    tried: tuple[Tried, ...]
    undefined: tuple[tuple[str, str], ...]

    def _get(self, name: str) -> Tried | None:
        return next((t for t in self.tried if t.name == name), None)

    @property
    def n_tried(self) -> int:
        """How many variants had a value (the reference included)."""
        return len(self.tried)

    @property
    def status(self) -> str | None:
        """``match`` / ``mismatch`` of the reference; None without one, ``missing`` when
        the reference has no value."""
        if self.reference is None:
            return None
        found = self._get(self.reference)
        if found is None:
            return "missing"
        return "match" if found.matches else "mismatch"

    @property
    def reproducing(self) -> tuple[Tried, ...]:
        """Every variant other than the reference that reproduces the print."""
        return tuple(t for t in self.tried if t.reproduces and t.name != self.reference)

    @property
    def candidates(self) -> int:
        """How many variants reproduce the print (a family counted by its members)."""
        return len(self.reproducing)

    @property
    def also(self) -> tuple[str, ...]:
        """For a matching reference: the other variants that match too."""
        if self.status != "match":
            return ()
        return tuple(t.name for t in self.tried if t.matches and t.name != self.reference)

    def explained_by(self) -> str:
        """ "reproduced by A (v)", "reproduced by A (v); B (v): 2 candidates, none singled
        out", "none of N variants tried reproduces <printed>" (module docstring), or, when
        the key has no variant to try, "no variant tried (none declared for this key)"."""
        found = self.reproducing
        if found:
            words = "reproduced by " + "; ".join(_grouped_words(found, self.tried))
            return words if len(found) == 1 else f"{words}: {len(found)} candidates, none singled out"
        n = self.n_tried - (1 if self.status in ("match", "mismatch") else 0)
        if n == 0:
            # nothing was searched: the paper declares no variant family for the key
            return f"no variant tried (none declared for this key); reagree's value does not reproduce {self.published}"
        return f"none of {n} variant{'s' if n != 1 else ''} tried reproduces {self.published}"

    def summary(self) -> str:
        """One line for a claim: its status, what else reproduces it, or what explains it."""
        status = self.status
        if status == "match":
            if self.also:
                return (
                    f"matches at printed precision; also reproduced by {', '.join(self.also)}: "
                    "the printed value cannot tell them apart"
                )
            return "matches at printed precision; no other variant tried reproduces it"
        return self.explained_by()


def search(
    published: object,
    variants: Mapping[str, float],
    *,
    reference: str | None = None,
    proportion: bool = False,
    families: Mapping[str, str] | None = None,
) -> Search:
    """Hold every variant's value against the printed ``published`` text (module
    docstring). ``proportion=True``: the values are proportions and the print a
    percentage. ``reference`` must be one of the variants' names; ``families`` names the
    family of each variant where known."""
    text = getattr(published, "text", None) or published
    printed.parse(text)  # a bad printed value fails here, naming itself
    if reference is not None and reference not in variants:
        raise ValueError(f"reference {reference!r} is not among the variants {list(variants)}")
    tried, undefined = [], []
    for name, value in variants.items():
        if value is None or not math.isfinite(float(value)):
            undefined.append((name, reason_of(value) or "no value"))
            continue
        tried.append(
            Tried(
                name,
                float(value),
                printed.readings(text, float(value), proportion=proportion),
                (families or {}).get(name, ""),
            )
        )
    return Search(str(text), reference, tuple(tried), tuple(undefined))


# --- one claim: reagree's value against the variants of its key ----------------------------

#: The name reagree's own value goes by in a claim's search ("rounding up of reagree's value").
REAGREE = "reagree's value"


def claim_search(
    published: object, key: str, computed: float, variants: Sequence[Mapping] = (), *, magnitude: bool = False
) -> Search:
    """The search for one claim: reagree's value for the claim's ``key`` (the reference,
    named ``REAGREE``: the paper's stated definition) and every variant row of that key
    (``reagree.pipeline.variantplan``: ``variant``, ``value``, ``own``), in their order.
    The ``own`` variants are reagree's value computed again and are left out (the caller
    holds them against it); a variant named twice counts once. ``magnitude``: the claim
    states a magnitude (``compare: abs``), so every value is compared as |value|."""
    values: dict[str, float] = {REAGREE: computed}
    families: dict[str, str] = {}
    for row in variants:
        if row.get("own") == "yes" or row["variant"] in values:
            continue
        values[row["variant"]] = row["value"]
        families[row["variant"]] = row.get("family", "")
    if magnitude:
        values = {name: abs(v) if isinstance(v, (int, float)) and v == v else v for name, v in values.items()}
    return search(published, values, reference=REAGREE, families=families)


def explanation(found: Search, status: str) -> str:
    """claims.tsv's ``explained_by`` for a claim of this status (module docstring's words):

    - mismatch: "reproduced by A (v)", "reproduced by A (v); B (v): 2 candidates, none
      singled out", or "none of N variants tried reproduces P";
    - match: "also reproduced by A (v), B (v): the printed value cannot tell these
      readings apart", "no other of the N variants tried reproduces it", or "" when no
      variant was tried;
    - within tolerance: "reproduced at printed precision by A (v)" when a variant does,
      else "" (the tolerance's reason says the rest)."""
    others = found.n_tried - 1
    if status == "mismatch":
        return found.explained_by()
    if status == "match":
        also = [t for t in found.tried if t.matches and t.name != found.reference]
        mine = next(t for t in found.tried if t.name == found.reference)
        same = [t.name for t in also if _same_value(t.value, mine.value)]
        other = [t for t in also if t.name not in same]
        equal = (
            f"{', '.join(same)} give{'s' if len(same) == 1 else ''} reagree's value itself on these data"
            if same
            else ""
        )
        if other:
            return (
                "also reproduced by "
                + ", ".join(_grouped_words(other, found.tried))
                + ": the printed value cannot tell these readings apart"
                + (f"; {equal}" if equal else "")
            )
        if equal:
            return f"no other value tried reproduces it ({equal})"
        if others == 1:
            return "the one other variant tried does not reproduce it"
        return f"no other of the {others} variants tried reproduces it" if others else ""
    if status == "within tolerance":
        exact = [t for t in found.tried if t.matches and t.name != found.reference]
        return "reproduced at printed precision by " + "; ".join(_grouped_words(exact, found.tried)) if exact else ""
    return ""


def _same_value(a: float, b: float) -> bool:
    """Two variants that give the same number here (to float noise): not two readings."""
    return abs(a - b) <= printed.SLACK * max(1.0, abs(a), abs(b))


def first_cause(found: Search) -> str:
    """The variant a mismatch is grouped under in the summary when no cause is declared:
    "reproduced by <the variant>" when exactly one variant reproduces it; "" when none
    does, or when several do (candidates, none of them the cause)."""
    reproducing = found.reproducing
    return f"reproduced by {reproducing[0].name}" if len(reproducing) == 1 else ""


# --- an internal claim: a printed result against the ranges of its variants ------------------


def printed_search(
    published: object, tolerance: float | None, rows: Sequence[Mapping], relation: str = "value"
) -> tuple[str, list[str]]:
    """``explained_by`` of an internal claim, and the names of the variants that reproduce
    it: which of its variants (variants-file rows with their range, ``low`` and ``high``:
    ``reagree.pipeline.internal``) the printed result is consistent with
    (``reagree.pipeline.verdicts.internal_status``; ``tolerance`` None: half a unit of its
    last digit), or "none of N variants tried reproduces P"; ("", []) when the relation
    declares none."""
    from reagree.pipeline.verdicts import internal_status

    text = getattr(published, "text", None) or str(published)
    tried = [
        row
        for row in rows
        if math.isfinite(float(row.get("low", math.nan))) and math.isfinite(float(row.get("high", math.nan)))
    ]
    if not tried:
        return "", []
    found = [
        row
        for row in tried
        if internal_status(published, float(row["low"]), float(row["high"]), relation, tolerance) == "consistent"
    ]
    if not found:
        return f"none of {len(tried)} variant{'s' if len(tried) != 1 else ''} tried reproduces {text}", []
    words = "; ".join(
        f"{row['variant']} ({_number(float(row['value']))}, printed inputs allow "
        f"{_number(float(row['low']))} to {_number(float(row['high']))}: {row.get('note', '')})"
        for row in found
    )
    return (
        f"reproduced by {words}" + (f": {len(found)} candidates, none singled out" if len(found) > 1 else ""),
        [row["variant"] for row in found],
    )
