"""Reading an annotation table for the audit (``reagree.audit``'s module docstring says
what it decides: long and wide layouts, the majority column, which units take part,
repeated labels, the category order).

Errors name the file, the line and, for a missing column, the columns found; a long
read of a table that looks wide, and a file in another encoding, say how to read them.
The table is kept as labels (``AnnotationView``): nothing here builds a units x raters
matrix, which at 1.4 million units and 83 raters would hold 116 million cells.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from reagree.io.annotations import (
    MAX_TABLE_BYTES,
    EncodingError,
    MissingColumns,
    read_annotations,
    read_wide_annotations,
)
from reagree.stats.labels import Annotations, AnnotationView
from reagree.stats.ratings import MISSING, Ratings

__all__ = ["LAYOUTS", "REPEAT_RULES", "AuditTable", "read_table"]

LAYOUTS = ("long", "wide")
# What counts when a rater labelled one unit more than once (long tables): the first label
# in file order, the last, or none of them where they differ.
REPEAT_RULES = ("first", "last", "drop")
# A wide-looking table holds at most this many distinct labels in its rater columns.
_WIDE_MAX_LABELS = 100


@dataclass(frozen=True, eq=False)
class AuditTable:
    """What an audit reads: the labels of the units with at least one rating, one label
    per rater and unit (``view``: units x raters, never made dense unless ``ratings`` is
    asked for), the unit ids in the same order, and an optional majority column's codes
    per unit. ``repeats``: how labels of one rater on one unit were reduced to one
    (``rule``, ``units`` rated more than once by one rater, ``conflicting`` ones with
    different labels, an ``example``)."""

    view: AnnotationView
    unit_ids: np.ndarray
    source: str
    layout: str
    columns: dict
    ordered: bool
    numbers: tuple | None
    majority: np.ndarray | None = None
    majority_column: str | None = None
    units_without_rating: int = 0
    repeats_ignored: int = 0
    repeats: dict = dataclasses.field(default_factory=lambda: {"rule": "first", "units": 0, "conflicting": 0})

    @property
    def categories(self) -> tuple:
        return self.view.categories

    @property
    def raters(self) -> tuple:
        return self.view.columns

    @property
    def n_units(self) -> int:
        return self.view.n_units

    @property
    def n_raters(self) -> int:
        return len(self.view.columns)

    @property
    def counts(self) -> np.ndarray:
        """(n_units, K) ratings of each unit in each category."""
        return self.view.counts

    def labels_per_rater(self) -> np.ndarray:
        """How many units each rater labelled, in ``raters`` order."""
        return np.bincount(self.view.label_column, minlength=self.n_raters)

    @cached_property
    def ratings(self) -> Ratings:
        """The dense units x raters codes (for few raters: the pairs' own statistics)."""
        return self.view.ratings()


def _split(text: str | Sequence[str] | None) -> list[str] | None:
    if text is None:
        return None
    items = text.split(",") if isinstance(text, str) else list(text)
    return [str(item).strip() for item in items if str(item).strip()]


def _numbers(categories: Sequence[str]) -> tuple | None:
    """Each category as a number, when every one is a finite number; else None."""
    try:
        numbers = tuple(float(c) for c in categories)
    except (TypeError, ValueError):
        return None
    if not categories or not all(math.isfinite(n) for n in numbers):
        return None
    return numbers


def _reordered(annotations: Annotations, order: Sequence[str]) -> Annotations:
    position = [list(order).index(c) for c in annotations.categories]
    codes = np.asarray(position, dtype=np.int64)[annotations.code] if annotations.code.size else annotations.code
    return dataclasses.replace(
        annotations, categories=tuple(order), code=np.asarray(codes, dtype=annotations.code.dtype)
    )


def _ordered_categories(annotations: Annotations, order: list[str] | None, source: str) -> tuple[Annotations, bool]:
    """Declared order as given; numbers in numerical order; else sorted text (unordered)."""
    if order is not None:
        return annotations, True
    numbers = _numbers(annotations.categories)
    if numbers is None:
        return annotations, False
    if len(set(numbers)) != len(numbers):
        twins = sorted(c for c, n in zip(annotations.categories, numbers) if numbers.count(n) > 1)
        raise ValueError(
            f"{source}: labels {twins} are the same number written differently; write them alike or give --order"
        )
    by_value = [c for _, c in sorted(zip(numbers, annotations.categories))]
    return _reordered(annotations, by_value), True


def _one_label_each(annotations: Annotations, rule: str) -> tuple[Annotations, dict]:
    """Each rater's labels on a unit reduced to one under ``rule`` (``REPEAT_RULES``), and
    what was found: units labelled more than once by one rater, how many of them with
    different labels, one example."""
    if rule not in REPEAT_RULES:
        raise ValueError(f"repeats must be one of {REPEAT_RULES}, got {rule!r}")
    found = {"rule": rule, "units": 0, "conflicting": 0}
    again = annotations.occasion > 0
    if not again.any():
        return annotations, found
    key = annotations.unit.astype(np.int64) * max(annotations.n_raters, 1) + annotations.rater
    repeated = np.isin(key, np.unique(key[again]))
    labels = pd.DataFrame(
        {
            "key": key[repeated],
            "code": annotations.code[repeated],
            "occasion": annotations.occasion[repeated],
            "row": np.flatnonzero(repeated),
        }
    )
    by_key = labels.groupby("key", sort=False)
    differs = by_key["code"].transform("nunique").to_numpy() > 1
    found["units"] = int(by_key.ngroups)
    found["conflicting"] = int(labels.loc[differs, "key"].nunique())
    if found["conflicting"]:
        example = labels[differs]
        example = example[example["key"] == example["key"].iloc[0]].sort_values("occasion")
        row = int(example["row"].iloc[0])
        found["example"] = {
            "unit": str(annotations.unit_ids[annotations.unit[row]]),
            "rater": str(annotations.rater_ids[annotations.rater[row]]),
            "labels": [str(annotations.categories[c]) for c in example["code"]],
        }
    keep = np.ones(annotations.n_labels, dtype=bool)
    if rule == "first":
        keep[labels["row"].to_numpy()] = labels["occasion"].to_numpy() == 0
    elif rule == "last":
        last = by_key["occasion"].transform("max").to_numpy()
        keep[labels["row"].to_numpy()] = labels["occasion"].to_numpy() == last
    else:  # drop: a unit's labels by a rater who disagreed with themselves there; agreeing repeats count once
        keep[labels["row"].to_numpy()] = ~differs & (labels["occasion"].to_numpy() == 0)
    reduced = dataclasses.replace(
        annotations,
        unit=annotations.unit[keep],
        rater=annotations.rater[keep],
        code=annotations.code[keep],
        occasion=np.zeros(int(keep.sum()), dtype=np.int32),
    )
    return reduced, found


def _assemble(
    annotations: Annotations,
    layout: str,
    columns: dict,
    order: list[str] | None,
    majority: str | None,
    source: str,
    repeats: str = "first",
) -> AuditTable:
    index_of = {rater: i for i, rater in enumerate(annotations.rater_ids)}
    if majority is not None and majority not in index_of:
        found = [columns["unit"], *annotations.rater_ids]
        raise ValueError(f"{source}: missing column(s) [{majority!r}] (the majority column); found {_shown(found)}")
    annotations, ordered = _ordered_categories(annotations, order, source)
    raters = [r for r in annotations.rater_ids if r != majority]
    if not raters:
        raise ValueError(f"{source}: no rater columns" if layout == "wide" else f"{source}: no ratings")
    before = annotations
    annotations, found = _one_label_each(annotations, repeats)
    view = annotations.raters(raters, min_raters=1)
    chosen = np.ones(annotations.n_raters, dtype=bool)
    if majority is not None:
        chosen[index_of[majority]] = False
    repeats_ignored = int(chosen[before.rater].sum() - chosen[annotations.rater].sum())
    unit_ids = np.asarray(view.unit_ids, dtype=object)
    majority_codes = None
    if majority is not None:
        mine = annotations.rater == index_of[majority]
        by_unit = pd.Series(annotations.code[mine].astype(np.int64), index=annotations.unit_ids[annotations.unit[mine]])
        majority_codes = by_unit.reindex(unit_ids).fillna(MISSING).astype(np.int64).to_numpy()
    return AuditTable(
        view=view,
        unit_ids=unit_ids,
        source=source,
        layout=layout,
        columns=columns,
        ordered=ordered,
        numbers=_numbers(view.categories) if ordered else None,
        majority=majority_codes,
        majority_column=majority,
        units_without_rating=int(annotations.n_units - view.n_units),
        repeats_ignored=repeats_ignored,
        repeats=found,
    )


def _shown(names: list, limit: int = 20) -> str:
    """A list of column names for a message: all of a short one, the first ``limit`` of a long one."""
    if len(names) <= limit:
        return str(list(names))
    return "[" + ", ".join(repr(n) for n in names[:limit]) + f", ... ({len(names)} columns)]"


def _wide_unit_column(path: Path, found: list, unit: str, encoding: str, max_bytes: int) -> str | None:
    """The unit column a long read that found no rater and label columns should have
    read wide with: ``unit`` when the header has it, else the first column, when that
    column holds one row per unit and the other columns a few labels; else None."""
    candidate = unit if unit in found else found[0] if found else None
    if candidate is None or len(found) < 3:
        return None
    try:
        wide = read_wide_annotations(path, unit=candidate, encoding=encoding, max_bytes=max_bytes)
    except ValueError:  # a unit on two rows, an empty id: not one row per unit
        return None
    return candidate if len(wide.categories) <= _WIDE_MAX_LABELS else None


# Words in a column's name that say which role it plays (a guess for the hint, never a reading).
_ROLE_WORDS = {
    "unit": (
        "unit",
        "item",
        "id",
        "subject",
        "text",
        "doc",
        "tweet",
        "ticket",
        "sentence",
        "segment",
        "example",
        "instance",
        "case",
        "patient",
        "post",
    ),
    "rater": (
        "rater",
        "annotator",
        "coder",
        "judge",
        "worker",
        "user",
        "reviewer",
        "labeller",
        "labeler",
        "assessor",
        "observer",
        "psychiatrist",
        "author",
    ),
    "label": (
        "label",
        "code",
        "category",
        "class",
        "rating",
        "score",
        "answer",
        "response",
        "tag",
        "value",
        "severity",
        "sentiment",
        "diagnosis",
        "grade",
    ),
}


def _role_of(column: object) -> str | None:
    """The role the first telling word of a column's name says ("judge_id": rater), or None."""
    for word in re.split(r"[^a-z]+", str(column).lower()):
        for role, words in _ROLE_WORDS.items():
            if word and any(word.startswith(w) for w in words):
                return role
    return None


def _naming_hint(found: list, named: dict[str, str]) -> str:
    """The options that name a long table's columns, filled in for this table: a column
    given by name stays; a missing one is guessed from the words of the header's names
    (``_role_of``), else from the columns left, in order; else ``COL``."""
    chosen = {role: column for role, column in named.items() if column in found}
    left = [c for c in found if c not in chosen.values()]
    for role in [r for r in named if r not in chosen]:
        guess = next((c for c in left if _role_of(c) == role), None)
        if guess is not None:
            chosen[role] = guess
            left.remove(guess)
    unguessed = [r for r in named if r not in chosen]
    if len(left) == len(unguessed):  # exactly one column left for each role: take them in order
        chosen.update(zip(unguessed, left))
    return " ".join(f"--{role} {chosen.get(role, 'COL')}" for role in named)


def _encoding_hint(error: EncodingError) -> str:
    if error.encoding.replace("_", "-").lower() in ("utf-8", "utf8"):
        return (
            f"{error}; if the file is in another encoding, name it with --encoding (e.g. --encoding latin-1, "
            "or --encoding cp1252 for a file saved on Windows)"
        )
    return f"{error}; name the file's encoding with --encoding"


def read_table(
    path: str | Path,
    layout: str = "long",
    unit: str = "unit",
    rater: str = "rater",
    label: str = "label",
    raters: str | Sequence[str] | None = None,
    order: str | Sequence[str] | None = None,
    majority: str | None = None,
    encoding: str = "utf-8",
    repeats: str | None = None,
    max_bytes: int | None = None,
) -> AuditTable:
    """Read an annotation table for ``audit`` (see the module docstring).

    Long: the ``unit``, ``rater`` and ``label`` columns (other columns are ignored); a
    rater's labels on one unit are reduced to one by ``repeats`` (``REPEAT_RULES``; default
    first). Wide (where ``repeats`` is refused: one cell per rater and unit leaves nothing to choose):
    the ``unit`` column, the ``raters`` columns (default: every other column but
    ``majority``) and the optional ``majority`` column. ``order`` (a list, or text
    "a,b,c") fixes the categories and their order. ``encoding``: the file's text encoding.
    ``max_bytes``: the most bytes read (None: ``reagree.files.MAX_TABLE_BYTES``); a
    longer file, or one that is not a regular file, is refused before it is parsed.
    Raises ValueError naming the file and line for anything unreadable.
    """
    path = Path(path)
    max_bytes = MAX_TABLE_BYTES if max_bytes is None else max_bytes
    order = _split(order)
    raters = _split(raters)
    if layout not in LAYOUTS:
        raise ValueError(f"format must be one of {LAYOUTS}, got {layout!r}")
    if repeats is not None and layout == "wide":
        raise ValueError(
            f"repeats {repeats} applies to the long format (a rater's several labels on one unit); a "
            "wide table has one cell per rater and unit, so there is nothing to choose: leave it out"
        )
    repeats = repeats or "first"
    if repeats not in REPEAT_RULES:
        raise ValueError(f"repeats must be one of {REPEAT_RULES}, got {repeats!r}")
    try:
        if layout == "long":
            if majority is not None:
                raise ValueError(
                    "a majority column needs the wide format (--format wide): one majority label per unit row"
                )
            if raters is not None:
                raise ValueError(
                    "rater columns (--raters) belong to the wide format; in the long format --rater "
                    "names the column that holds the rater ids"
                )
            try:
                annotations = read_annotations(
                    path, unit=unit, rater=rater, label=label, categories=order, encoding=encoding, max_bytes=max_bytes
                )
            except MissingColumns as error:
                wide_unit = (
                    None
                    if rater in error.found or label in error.found
                    else _wide_unit_column(path, error.found, unit, encoding, max_bytes)
                )
                if wide_unit is None:
                    raise ValueError(
                        f"{error}; name the columns that hold the unit, the rater and the label: "
                        f"{_naming_hint(error.found, {'unit': unit, 'rater': rater, 'label': label})}"
                    ) from None
                raise ValueError(
                    f"{error}: this looks like a wide table (one row per unit, one column per rater); "
                    f"read it with --format wide --unit {wide_unit}"
                ) from None
            columns = {"unit": unit, "rater": rater, "label": label}
        else:
            wanted = None if raters is None else [*raters, *([majority] if majority else [])]
            annotations = read_wide_annotations(
                path, unit=unit, raters=wanted, categories=order, encoding=encoding, max_bytes=max_bytes
            )
            columns = {"unit": unit, "raters": [r for r in annotations.rater_ids if r != majority]}
            if majority is not None:
                columns["majority"] = majority
    except EncodingError as error:
        raise ValueError(_encoding_hint(error)) from None
    return _assemble(annotations, layout, columns, order, majority, str(path), repeats)
