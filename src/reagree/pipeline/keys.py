"""Value keys, declared once per paper: families of keys, the slots they are built from,
and the rule and the one function behind each family.

What it decides:

- **A key** is lowercase dot-separated segments, general to specific (design.md,
  "Names"): ``kappa.model.vs_majority.pos_vs_rest``. Each paper declares its keys in
  one module, ``workflow/papers/<id>/<id>/keys.py``, holding one ``KeyGrammar`` named
  ``KEYS`` that its package's ``PAPER`` carries (``reagree.pipeline.paper``): its *slots* (the vocabulary of its keys: measures' subjects, raters,
  framings, datasets, qualifiers), each a tuple of allowed values or a regular
  expression, and its *families*.
- **A family** is a key pattern of literal text and ``{slot}`` fields
  (``kappa.{rater}.vs_majority.{framing}``); ``{field:slot}`` lets one slot fill two
  fields (``run{a:run}_run{b:run}``). A family names the Snakemake rule whose script
  writes its values and the one function that computes them (written
  ``module.qualified_name``). values.tsv and claims.tsv carry both (columns ``rule`` and
  ``function``), so a claim key leads to its rule and its function without a search.
- **Keys are built, never typed.** ``Family.key(**fields)`` refuses a field value its
  slot does not declare; ``Family.row(value, **fields)`` is
  ``reagree.pipeline.tables.value_row`` under the family's key, with its rule and
  function. ``reagree.pipeline.tables.write_values`` refuses a row declared for another
  rule than the script's, and the generic rule gather_values refuses a key that no
  family of the paper declares (``KeyGrammar.check``).
- **One key, one family.** A key that two families of one paper match is an error, so
  the rule and function a key names are never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from reagree.pipeline.papercode import resolve_function

__all__ = ["Family", "KeyGrammar", "function_name", "key_part", "resolve_function"]

_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z_][a-z0-9_]*))?\}")
_RESERVED = {"value", "note", "interval", "ci", "reference"}  # Family.row's own arguments


def function_name(function: Callable | property | str) -> str:
    """``module.qualified_name`` of a function, method or property (a string stays)."""
    if isinstance(function, str):
        return function
    target = function.fget if isinstance(function, property) else function
    return f"{target.__module__}.{target.__qualname__}"


@dataclass(frozen=True, eq=False)
class Family:
    """One family of value keys: its pattern, rule and function, and the allowed values
    of each of its fields (see the module docstring)."""

    pattern: str
    rule: str
    function: str
    domains: Mapping[str, tuple[str, ...] | re.Pattern]  # field -> allowed values
    slots: Mapping[str, str]  # field -> slot name
    regex: re.Pattern

    def key(self, **fields: object) -> str:
        """The key with every field filled; ValueError naming the family and the field
        for a missing, extra or undeclared field value."""
        if set(fields) != set(self.domains):
            raise ValueError(f"key {self.pattern}: fields {sorted(fields)} given, {sorted(self.domains)} declared")
        texts = {}
        for name, value in fields.items():
            text, domain = str(value), self.domains[name]
            allowed = domain.fullmatch(text) if isinstance(domain, re.Pattern) else text in domain
            if not allowed:
                shown = domain.pattern if isinstance(domain, re.Pattern) else list(domain)
                raise ValueError(f"key {self.pattern}: {name}={text!r} is not a declared {self.slots[name]} ({shown})")
            texts[name] = text
        return _FIELD.sub(lambda match: texts[match.group(1)], self.pattern)

    def row(
        self,
        value: object,
        *,
        note: str = "",
        interval: object | None = None,
        ci: tuple[float, float] | None = None,
        reference: object | None = None,
        **fields: object,
    ) -> dict:
        """A values.tsv row of this family (``reagree.pipeline.tables.value_row``);
        ``reference``: the field library's value of the same coefficient
        (``reagree.stats.references.Reference``)."""
        from reagree.pipeline.tables import value_row

        row = value_row(self.key(**fields), value, ci=ci, note=note, interval=interval, reference=reference)
        row.update(rule=self.rule, function=self.function)
        return row

    def matches(self, key: str) -> bool:
        return self.regex.fullmatch(key) is not None


class KeyGrammar:
    """A paper's key declarations: its slots and its families, grouped by rule."""

    def __init__(self, paper: str, slots: Mapping[str, Sequence[object] | str | re.Pattern]):
        self.paper = paper
        self.slots: dict[str, tuple[str, ...] | re.Pattern] = {}
        for name, domain in slots.items():
            if isinstance(domain, str):
                domain = re.compile(domain)
            self.slots[name] = domain if isinstance(domain, re.Pattern) else tuple(str(v) for v in domain)
        self.families: list[Family] = []

    def rule(self, rule: str) -> "_RuleFamilies":
        """Families declared for one rule: ``KEYS.rule("score_x_values").family(...)``."""
        return _RuleFamilies(self, rule)

    def family(self, pattern: str, function: Callable | property | str, rule: str) -> Family:
        domains, slots, regex, at = {}, {}, "", 0
        for match in _FIELD.finditer(pattern):
            field, slot = match.group(1), match.group(2) or match.group(1)
            if slot not in self.slots:
                raise ValueError(f"{self.paper} key {pattern}: no slot {slot!r} (slots: {sorted(self.slots)})")
            if field in _RESERVED or field in domains:
                raise ValueError(f"{self.paper} key {pattern}: field name {field!r} is reserved or repeated")
            domain = self.slots[slot]
            domains[field], slots[field] = domain, slot
            alternatives = (
                domain.pattern
                if isinstance(domain, re.Pattern)
                else "|".join(re.escape(v) for v in sorted(domain, key=len, reverse=True))
            )
            regex += re.escape(pattern[at : match.start()]) + f"(?P<{field}>{alternatives})"
            at = match.end()
        regex += re.escape(pattern[at:])
        family = Family(pattern, rule, function_name(function), domains, slots, re.compile(regex))
        if any(f.pattern == pattern for f in self.families):
            raise ValueError(f"{self.paper}: key family {pattern} is declared twice")
        self.families.append(family)
        return family

    def fields(self, key: str) -> tuple[Family, dict[str, str]]:
        """The family declaring ``key`` and the values of its fields
        (``kappa.{rater}.{framing}`` and ``kappa.a.three_class`` -> (that family, {rater: a, ...}));
        ValueError when no family declares it."""
        family = self.family_of(key)
        if family is None:
            raise ValueError(f"{self.paper}: no family of its keys.py declares {key!r}")
        return family, family.regex.fullmatch(key).groupdict()

    def families_of(self, key: str) -> list[Family]:
        return [family for family in self.families if family.matches(key)]

    def family_of(self, key: str) -> Family | None:
        """The one family declaring ``key`` (None when none does; ValueError when two do)."""
        found = self.families_of(key)
        if len(found) > 1:
            raise ValueError(f"{self.paper}: key {key} matches several families: {[f.pattern for f in found]}")
        return found[0] if found else None

    def check(self, rows: Iterable[Mapping]) -> None:
        """Every row's key declared by exactly one family, with that family's rule and
        function; ValueError listing what is not (the paper's keys.py is where to look)."""
        undeclared, disagree, writers = [], [], set()
        for row in rows:
            family = self.family_of(row["key"])
            if family is None:
                undeclared.append(row["key"])
            elif (row.get("rule"), row.get("function")) != (family.rule, family.function):
                disagree.append(
                    f"{row['key']} (written by {row.get('rule')!r} with {row.get('function')!r}; "
                    f"declared for {family.rule!r} with {family.function!r})"
                )
                writers.add(str(row.get("rule")))
        where = f"workflow/papers/{self.paper}/{self.paper}/keys.py"
        if undeclared:
            shown = undeclared[:10] + ([f"... {len(undeclared) - 10} more"] if len(undeclared) > 10 else [])
            raise ValueError(f"{self.paper}: value key(s) no family of {where} declares: {shown}")
        if disagree:
            # a function renamed or moved since an earlier build wrote the rows: its rule's
            # script did not change, so nothing told the workflow to run it again
            raise ValueError(
                f"{self.paper}: value row(s) disagree with {where}: {disagree[:5]}; if the code "
                "moved since these values were written, run their rule(s) again: snakemake "
                f"--forcerun {' '.join(sorted(writers))}"
            )

    def unused(self, keys: Iterable[str]) -> list[Family]:
        """The families none of ``keys`` belongs to."""
        keys = list(keys)
        return [family for family in self.families if not any(family.matches(key) for key in keys)]

    def describe(self) -> list[dict]:
        """One row per family: pattern, rule, function (for documentation and tests)."""
        return [{"key": f.pattern, "rule": f.rule, "function": f.function} for f in self.families]


@dataclass(frozen=True)
class _RuleFamilies:
    grammar: KeyGrammar
    name: str

    def family(self, pattern: str, function: Callable | property | str) -> Family:
        return self.grammar.family(pattern, function, self.name)


_NOT_KEY_TEXT = re.compile(r"[^a-z0-9]+")


def key_part(label: object) -> str:
    """One segment of a key made from a label: lower case, every run of spaces and
    punctuation one ``_``, none at either end (``"Personality disorder"`` ->
    ``personality_disorder``, ``"3-3 split"`` -> ``3_3_split``). A key segment holds
    lower-case letters, digits and ``_`` only (module docstring), so a label as printed
    ("personality disorder") cannot be one. Letters outside a-z are punctuation here
    (``"naïve"`` -> ``na_ve``). ValueError for a label with no letter or digit, which has
    no key part. Two labels that give one part ("a-b", "a b") are the caller's to tell apart:
    a slot built as ``{key_part(label): label for label in CATEGORIES}`` checks its length.
    """
    part = _NOT_KEY_TEXT.sub("_", str(label).lower()).strip("_")
    if not part:
        raise ValueError(
            f"label {label!r} has no letter or digit, so no key part can be made from it: "
            "name it in the key with a word of your own"
        )
    return part
