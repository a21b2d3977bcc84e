"""Which variants a paper searches for which of its claims, and the variants.tsv they land in.

What it decides:

- **One line per family.** A paper declares, in ``workflow/papers/<id>/<id>/variants.py``,
  a ``VariantPlan`` named ``PLAN``, carried by its package's ``PAPER``
  (``reagree.pipeline.paper``): for each family of the catalogue
  (``reagree.stats.variants.FAMILIES``) the claim keys it applies to, as key patterns:
  ``*`` stands for any text within one dot-separated segment, ``**`` for any number of
  whole segments (``fleiss.*`` matches ``fleiss.humans`` but not
  ``fleiss.humans.three_class``; ``fleiss.**`` matches both), e.g.
  ``"chance_model": ["fleiss.*.*"]``. A family
  name the catalogue does not hold, or a pattern no claim key of the paper matches, is an
  error (``check``), so a declaration cannot silently apply to nothing.
- **Rule scripts compute them.** A paper's rules (each ``variants`` output, written to
  ``results/<id>/variants/<part>.tsv`` and registered by ``PaperBuild.add_outputs``)
  evaluate, for every checkable claim key a family applies to, that family's function of
  the catalogue on the data behind the key, and write one row per variant (``variant_rows``): ``key``, ``family``, ``variant``, ``value``,
  ``own`` (``yes`` on the variant that is reagree's own reading of the key: the paper's
  stated definition, the value values.tsv holds) and ``note`` (why a variant has no value);
  ``low`` and ``high`` are the range a variant of an internal relation takes over its
  printed inputs (``reagree.pipeline.internal``), empty for variants computed from data.
- **The diff holds them against the print.** ``reagree.pipeline.claims.diff_claims``
  reads the rows of each claim's key (``read_variants``): a declared family with no rows
  for a compared claim is a defect (an error naming the rule), an ``own`` variant that
  differs from the value reagree reports is a defect too, and the other variants go into
  the search (``reagree.pipeline.reproduce``) that fills claims.tsv's ``explained_by``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from reagree.stats.undefined import reason_of
from reagree.stats.variants import FAMILIES, Family, Variant, describe

__all__ = ["VARIANT_COLUMNS", "VariantPlan", "read_variants", "variant_rows", "write_variants"]

VARIANT_COLUMNS = ["key", "family", "variant", "value", "own", "note", "low", "high"]


def key_pattern(pattern: str) -> re.Pattern:
    """A key pattern as a regular expression (module docstring: ``*`` within a segment,
    ``**`` across whole segments)."""
    parts = []
    for segment in pattern.split("."):
        if segment == "**":
            parts.append(None)
        else:
            parts.append("[^.]*".join(re.escape(piece) for piece in segment.split("*")))
    regex = ""
    for index, part in enumerate(parts):
        dot = r"\." if index else ""
        regex += (
            f"(?:{dot}[^.]+)*" if part is None and index else "(?:[^.]+(?:\\.[^.]+)*)?" if part is None else dot + part
        )
    return re.compile(regex)


def _matches(key: str, patterns: Sequence[str]) -> bool:
    return any(key_pattern(pattern).fullmatch(key) for pattern in patterns)


@dataclass(frozen=True)
class VariantPlan:
    """A paper's declaration: family name -> the claim-key patterns it applies to, and the
    families and variants of its own (module docstring)."""

    paper: str
    applies: Mapping[str, tuple[str, ...]]
    families: Mapping[str, Family]
    variants: Mapping[str, Variant]

    def __init__(
        self,
        paper: str,
        applies: Mapping[str, str | Sequence[str]],
        families: Iterable[Family] = (),
        variants: Iterable[Variant] = (),
    ):
        own = {family.name: family for family in families}
        shadowing = sorted(set(own) & set(FAMILIES))
        if shadowing:
            raise ValueError(
                f"{paper}: its own variant families {shadowing} have the names of catalogue families "
                "(reagree.stats.variants.FAMILIES): give them names of their own"
            )
        strays = [variant.name for variant in variants if variant.family not in own]
        if strays:
            raise ValueError(f"{paper}: variants {strays} name no family the plan declares")
        unknown = [family for family in applies if family not in FAMILIES and family not in own]
        if unknown:
            raise ValueError(
                f"{paper}: variant famil{'ies' if len(unknown) > 1 else 'y'} {unknown} not in the "
                f"catalogue (reagree.stats.variants.FAMILIES: {sorted(FAMILIES)})"
                + (f" nor the plan's own ({sorted(own)})" if own else "")
            )
        normalised = {
            family: (patterns,) if isinstance(patterns, str) else tuple(patterns)
            for family, patterns in applies.items()
        }
        object.__setattr__(self, "paper", paper)
        object.__setattr__(self, "applies", normalised)
        object.__setattr__(self, "families", own)
        object.__setattr__(self, "variants", {variant.name: variant for variant in variants})

    def describe(self, variant: str) -> str:
        """The one-line reading of ``variant``: the plan's own, else the catalogue's
        (``reagree.stats.variants.describe``; ValueError for a name neither holds)."""
        if variant in self.variants:
            return self.variants[variant].reading
        return describe(variant)

    def families_for(self, key: str) -> list[str]:
        """The families declared for ``key``, in declaration order."""
        return [family for family, patterns in self.applies.items() if _matches(key, patterns)]

    def keys_for(self, family: str, keys: Iterable[str]) -> list[str]:
        """Those of ``keys`` the family applies to, in their order, each once."""
        patterns = self.applies.get(family, ())
        return list(dict.fromkeys(k for k in keys if _matches(k, patterns)))

    def jobs(
        self, claims: Iterable[Mapping], settings: Mapping | None = None, expansions: Mapping | None = None
    ) -> list[tuple[str, str]]:
        """(claim key, family) for every claim this configuration compares with a value
        (checkable, its ``needs`` met, not an interval end) that a family applies to, each
        pair once, in claim order: what a paper's variants rule computes."""
        from reagree.pipeline.claims import unmet_need

        pairs: dict[tuple[str, str], None] = {}
        for claim in claims:
            if claim.get("uncheckable") or claim.get("not_recomputed") or claim.get("end"):
                continue
            if unmet_need(claim.get("needs", {}), self.paper, dict(settings or {}), dict(expansions or {})):
                continue
            for family in self.families_for(claim["key"]):
                pairs[(claim["key"], family)] = None
        return list(pairs)

    def check(self, claim_keys: Iterable[str]) -> None:
        """Every pattern matches at least one of the paper's claim keys (ValueError naming
        the patterns that match none)."""
        keys = list(claim_keys)
        idle = [
            f"{family}: {pattern}"
            for family, patterns in self.applies.items()
            for pattern in patterns
            if not any(_matches(k, [pattern]) for k in keys)
        ]
        if idle:
            raise ValueError(
                f"{self.paper}: variant declarations that match no claim key "
                f"(workflow/papers/{self.paper}/{self.paper}/variants.py): {idle}"
            )


def variant_rows(
    key: str, family: str, values: Mapping[str, float], own: str | None = None, note: str = ""
) -> list[dict]:
    """variants.tsv rows of one family evaluated for one claim key: one per variant, in
    the family's order; ``own`` names the variant that is reagree's own reading of the key
    (None when none is); an ``Undefined`` value brings its reason into the note."""
    if own is not None and own not in values:
        raise ValueError(f"{key}: own variant {own!r} is not among the family's variants {list(values)}")
    rows = []
    for name, value in values.items():
        reason = reason_of(value)
        number = np.nan if value is None else float(value)
        rows.append(
            {
                "key": key,
                "family": family,
                "variant": name,
                "value": number,
                "own": "yes" if name == own else "",
                "note": "; ".join(p for p in (note, reason) if p),
            }
        )
    return rows


def write_variants(rows: Iterable[Mapping], path: str | Path) -> None:
    """variants.tsv (``VARIANT_COLUMNS``); a (key, family, variant) written twice is an error."""
    from reagree.pipeline.tables import write_reads_beside, write_tsv

    frame = pd.DataFrame(list(rows), columns=VARIANT_COLUMNS)
    repeated = frame[frame.duplicated(["key", "family", "variant"], keep=False)]
    if len(repeated):
        shown = repeated[["key", "family", "variant"]].head(5).values.tolist()
        raise ValueError(f"{path}: variants written twice: {shown}")
    write_reads_beside(path)
    write_tsv(frame, path)


def read_variants(paths: str | Path | Sequence[str | Path]) -> pd.DataFrame:
    """The rows of one or several variants.tsv files."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    frames = [
        pd.read_csv(
            p,
            sep="\t",
            dtype={"key": str, "family": str, "variant": str, "own": str, "note": str},
            keep_default_na=False,
            na_values={"value": [""], "low": [""], "high": [""]},
        )
        for p in paths
    ]
    if not frames:
        return pd.DataFrame(columns=VARIANT_COLUMNS)
    frame = pd.concat(frames, ignore_index=True)
    for column in ("low", "high"):  # a variants file of data variants written without ranges
        if column not in frame.columns:
            frame[column] = np.nan
    missing = [c for c in VARIANT_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{paths}: missing columns {missing}")
    return frame
