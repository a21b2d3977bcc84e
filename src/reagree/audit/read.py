"""Reading an annotation table for the audit (``reagree.audit``'s module docstring says
what it decides: long and wide layouts, the majority column, which units take part,
repeated labels, the category order).

Errors name the file, the line and, for a missing column, the columns found.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from reagree.stats.annotations import Annotations, read_annotations, read_wide_annotations
from reagree.stats.ratings import MISSING, Ratings

LAYOUTS = ("long", "wide")


@dataclass(frozen=True, eq=False)
class AuditTable:
    """What an audit reads: the ratings (units with at least one rating x raters), the
    unit ids in the same order, and an optional majority column's codes per unit."""

    ratings: Ratings
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
    return dataclasses.replace(annotations, categories=tuple(order), code=np.asarray(codes, dtype=annotations.code.dtype))


def _ordered_categories(annotations: Annotations, order: list[str] | None, source: str) -> tuple[Annotations, bool]:
    """Declared order as given; numbers in numerical order; else sorted text (unordered)."""
    if order is not None:
        return annotations, True
    numbers = _numbers(annotations.categories)
    if numbers is None:
        return annotations, False
    if len(set(numbers)) != len(numbers):
        twins = sorted(c for c, n in zip(annotations.categories, numbers) if numbers.count(n) > 1)
        raise ValueError(f"{source}: labels {twins} are the same number written differently; write them alike "
                         "or give --order")
    by_value = [c for _, c in sorted(zip(numbers, annotations.categories))]
    return _reordered(annotations, by_value), True


def _assemble(annotations: Annotations, layout: str, columns: dict, order: list[str] | None,
              majority: str | None, source: str) -> AuditTable:
    if majority is not None and majority not in annotations.rater_ids:
        raise ValueError(f"{source}: missing column(s) [{majority!r}] (the majority column); "
                         f"found {[columns['unit'], *annotations.rater_ids]}")
    annotations, ordered = _ordered_categories(annotations, order, source)
    raters = [r for r in annotations.rater_ids if r != majority]
    if not raters:
        raise ValueError(f"{source}: no rater columns" if layout == "wide" else f"{source}: no ratings")
    view = annotations.raters(raters, min_raters=1)
    ratings = view.ratings()
    unit_ids = np.asarray(view.unit_ids, dtype=object)
    chosen = np.isin(annotations.rater, [annotations.rater_ids.index(r) for r in raters])
    repeats = int((chosen & (annotations.occasion > 0)).sum())
    majority_codes = None
    if majority is not None:
        column = annotations.rater_ids.index(majority)
        mine = annotations.rater == column
        by_unit = pd.Series(annotations.code[mine].astype(np.int64), index=annotations.unit_ids[annotations.unit[mine]])
        majority_codes = by_unit.reindex(unit_ids).fillna(MISSING).astype(np.int64).to_numpy()
    rated = set(annotations.unit_ids[annotations.unit[chosen]])
    return AuditTable(ratings=ratings, unit_ids=unit_ids, source=source, layout=layout, columns=columns,
                      ordered=ordered, numbers=_numbers(ratings.categories) if ordered else None,
                      majority=majority_codes, majority_column=majority,
                      units_without_rating=int(annotations.n_units - len(rated)), repeats_ignored=repeats)


def read_table(path: str | Path, layout: str = "long", unit: str = "unit", rater: str = "rater",
               label: str = "label", raters: str | Sequence[str] | None = None,
               order: str | Sequence[str] | None = None, majority: str | None = None) -> AuditTable:
    """Read an annotation table for ``audit`` (see the module docstring).

    Long: the ``unit``, ``rater`` and ``label`` columns (other columns are ignored). Wide:
    the ``unit`` column, the ``raters`` columns (default: every other column but
    ``majority``) and the optional ``majority`` column. ``order`` (a list, or text
    "a,b,c") fixes the categories and their order. Raises ValueError naming the file and
    line for anything unreadable.
    """
    path = Path(path)
    order = _split(order)
    raters = _split(raters)
    if layout not in LAYOUTS:
        raise ValueError(f"format must be one of {LAYOUTS}, got {layout!r}")
    if layout == "long":
        if majority is not None:
            raise ValueError("a majority column needs the wide format (--format wide): one majority label per unit row")
        if raters is not None:
            raise ValueError("rater columns (--raters) belong to the wide format; in the long format --rater names "
                             "the column that holds the rater ids")
        annotations = read_annotations(path, unit=unit, rater=rater, label=label, categories=order)
        columns = {"unit": unit, "rater": rater, "label": label}
    else:
        wanted = None if raters is None else [*raters, *([majority] if majority else [])]
        annotations = read_wide_annotations(path, unit=unit, raters=wanted, categories=order)
        columns = {"unit": unit, "raters": [r for r in annotations.rater_ids if r != majority]}
        if majority is not None:
            columns["majority"] = majority
    return _assemble(annotations, layout, columns, order, majority, str(path))
