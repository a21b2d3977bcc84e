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
- **What reproduces.** A variant reproduces the printed value at printed precision when
  its value passes the default reading (``match``); it reproduces it *by truncation* or
  *by rounding up* when only that reading of the print gives the printed digits. Every
  variant is read all these ways, the reference too: a reference that fails ``match``
  but truncates to the printed digits is "reproduced by truncation of <reference>".
- **A match that others share.** When the reference matches, the other variants that
  match too are listed: the printed number cannot tell them apart.
- **Words.** "reproduced by alpha.expected_n_squared (0.205255)", "reproduced by
  truncation of kappa.fleiss (0.43781)", or "none of 6 variants tried reproduces 0.205".
  Evidence that a reading gives the printed digits, never a statement of what the
  authors did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from reagree.pipeline import printed
from reagree.stats.undefined import reason_of

#: Readings that, alone, make a variant reproduce a printed value other than by ``match``.
ROUNDING_READINGS = ("truncation", "rounding_up")
_ROUNDING_WORDS = {"truncation": "truncation", "rounding_up": "rounding up"}


def _number(value: float) -> str:
    return f"{value:.6g}"


@dataclass(frozen=True)
class Tried:
    """One variant held against the printed value: its value and the readings under
    which it reproduces the print (``reagree.pipeline.printed.READINGS``)."""

    name: str
    value: float
    readings: tuple[str, ...]

    @property
    def matches(self) -> bool:
        return printed.MATCH in self.readings

    @property
    def by_rounding(self) -> tuple[str, ...]:
        """The rounding readings (truncation, rounding up) that reproduce the print when
        ``match`` does not."""
        return () if self.matches else tuple(r for r in ROUNDING_READINGS if r in self.readings)

    @property
    def reproduces(self) -> bool:
        return self.matches or bool(self.by_rounding)

    def words(self) -> str:
        """"name (value)" or "truncation of name (value)"."""
        if self.matches:
            return f"{self.name} ({_number(self.value)})"
        how = " or ".join(_ROUNDING_WORDS[r] for r in self.by_rounding)
        return f"{how} of {self.name} ({_number(self.value)})"


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
        """Every variant that reproduces the print other than the reference's own match:
        the matches first, then those reproduced only by truncation or rounding up (the
        reference among these if its print is a truncation or a rounding up)."""
        others = [t for t in self.tried if t.reproduces and not (t.name == self.reference and t.matches)]
        return tuple([t for t in others if t.matches] + [t for t in others if not t.matches])

    @property
    def also(self) -> tuple[str, ...]:
        """For a matching reference: the other variants that match too."""
        if self.status != "match":
            return ()
        return tuple(t.name for t in self.tried if t.matches and t.name != self.reference)

    def explained_by(self) -> str:
        """"reproduced by A (v); truncation of B (v)", "none of N variants tried
        reproduces <printed>" (module docstring), or, when the key has no variant to try,
        "no variant tried (none declared for this key)"."""
        found = self.reproducing
        if found:
            return "reproduced by " + "; ".join(t.words() for t in found)
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
                return (f"matches at printed precision; also reproduced by {', '.join(self.also)}: "
                        "the printed value cannot tell them apart")
            return "matches at printed precision; no other variant tried reproduces it"
        return self.explained_by()


def search(published: object, variants: Mapping[str, float], *, reference: str | None = None,
           proportion: bool = False) -> Search:
    """Hold every variant's value against the printed ``published`` text (module
    docstring). ``proportion=True``: the values are proportions and the print a
    percentage. ``reference`` must be one of the variants' names."""
    text = getattr(published, "text", None) or published
    printed.parse(text)  # a bad printed value fails here, naming itself
    if reference is not None and reference not in variants:
        raise ValueError(f"reference {reference!r} is not among the variants {list(variants)}")
    tried, undefined = [], []
    for name, value in variants.items():
        if value is None or not math.isfinite(float(value)):
            undefined.append((name, reason_of(value) or "no value"))
            continue
        tried.append(Tried(name, float(value), printed.readings(text, float(value), proportion=proportion)))
    return Search(str(text), reference, tuple(tried), tuple(undefined))


# --- one claim: reagree's value against the variants of its key ----------------------------

#: The name reagree's own value goes by in a claim's search ("rounding up of reagree's value").
REAGREE = "reagree's value"


def claim_search(published: object, key: str, computed: float, variants: Sequence[Mapping] = (), *,
                 magnitude: bool = False) -> Search:
    """The search for one claim: reagree's value for the claim's ``key`` (the reference,
    named ``REAGREE``: the paper's stated definition) and every variant row of that key
    (``reagree.pipeline.variantplan``: ``variant``, ``value``, ``own``), in their order.
    The ``own`` variants are reagree's value computed again and are left out (the caller
    holds them against it); a variant named twice counts once. ``magnitude``: the claim
    states a magnitude (``compare: abs``), so every value is compared as |value|."""
    values: dict[str, float] = {REAGREE: computed}
    for row in variants:
        if row.get("own") == "yes" or row["variant"] in values:
            continue
        values[row["variant"]] = row["value"]
    if magnitude:
        values = {name: abs(v) if isinstance(v, (int, float)) and v == v else v for name, v in values.items()}
    return search(published, values, reference=REAGREE)


def explanation(found: Search, status: str) -> str:
    """claims.tsv's ``explained_by`` for a claim of this status (module docstring's words):

    - mismatch: "reproduced by A (v); rounding up of B (v)", or "none of N variants tried
      reproduces P";
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
        equal = (f"{', '.join(same)} give{'s' if len(same) == 1 else ''} reagree's value itself on these data"
                 if same else "")
        if other:
            return ("also reproduced by " + ", ".join(t.words() for t in other)
                    + ": the printed value cannot tell these readings apart" + (f"; {equal}" if equal else ""))
        if equal:
            return f"no other value tried reproduces it ({equal})"
        if others == 1:
            return "the one other variant tried does not reproduce it"
        return f"no other of the {others} variants tried reproduces it" if others else ""
    if status == "within tolerance":
        exact = [t for t in found.tried if t.matches and t.name != found.reference]
        return "reproduced at printed precision by " + "; ".join(t.words() for t in exact) if exact else ""
    return ""


def _same_value(a: float, b: float) -> bool:
    """Two variants that give the same number here (to float noise): not two readings."""
    return abs(a - b) <= printed.SLACK * max(1.0, abs(a), abs(b))


def first_cause(found: Search) -> str:
    """The variant a mismatch is grouped under in the summary when no cause is declared:
    "reproduced by <the first variant that reproduces it>" ("" when none does)."""
    reproducing = found.reproducing
    if not reproducing:
        return ""
    first = reproducing[0]
    return f"reproduced by {first.name}" if first.matches else f"reproduced by {first.words().rsplit(' (', 1)[0]}"
