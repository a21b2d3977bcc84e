"""The rating matrix every coefficient in reagree reads: units x raters.

Orientation: one row per unit (tweet, message, text line), one column per rater. That
is how annotation tables are laid out, and it is the *opposite* of what the
`krippendorff` package takes (coders x units); `reagree.stats.alpha` does that transposition
in one place and nowhere else.

A plain array is ambiguous: a 3 x 240 array might be three units rated by 240 raters or
the transpose of 240 units rated by three. ``Ratings.from_labels`` therefore rejects an
array or nested list with more columns than rows; pass a pandas DataFrame (index = units,
columns = raters) or set ``units_by_raters=True`` to say the orientation out loud.

Missing cells are ``None``, NaN or an empty string. Categories are coded 0..K-1 in a
declared order, which is also the order ordinal and interval metrics use; a label outside
the declared categories is an error naming the unit and the rater. Without declared
categories they are the labels seen, sorted (numbers in numerical order; text sorted as
text is marked unordered, ``Ratings.ordered``, and ordered metrics refuse it); labels that cannot be sorted together
(numbers beside text: a column read as numbers beside one read as text) are an error
naming one of each, never a guess. Category names and rater names are unique.

Counts (``check_unit_counts``): every coefficient that reads per-unit category counts
takes finite, non-negative whole numbers, and names the first cell that is not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Sequence

import numpy as np
import pandas as pd

from reagree.stats.rows import row_ids

__all__ = ["MISSING", "Ratings", "check_unit_counts", "counts_from_table"]

MISSING = -1


@dataclass(frozen=True)
class Ratings:
    """Category codes of shape (n_units, n_raters); ``MISSING`` (-1) marks an empty cell.

    ``ordered``: whether the category order means something (declared, or numbers in
    numerical order); False only for text labels that ``from_labels`` sorted as text,
    which ordinal and interval metrics refuse (``reagree.stats.alpha``)."""

    codes: np.ndarray
    categories: tuple
    raters: tuple
    ordered: bool = field(default=True, kw_only=True, compare=False)

    def __post_init__(self) -> None:
        codes = np.asarray(self.codes)
        if codes.ndim != 2:
            raise ValueError(f"ratings must be 2-D (units x raters), got shape {codes.shape}")
        if codes.dtype.kind not in "iu":
            codes = _whole_codes(codes)
            object.__setattr__(self, "codes", codes)
        if codes.shape[1] != len(self.raters):
            raise ValueError(f"{codes.shape[1]} rater columns but {len(self.raters)} rater names")
        if codes.size and (codes.min() < MISSING or codes.max() >= len(self.categories)):
            raise ValueError("codes must lie in -1..K-1")
        _require_unique(self.categories, "category")
        _require_unique(self.raters, "rater")

    @classmethod
    def from_labels(
        cls,
        table: Any,
        categories: Sequence | None = None,
        raters: Sequence | None = None,
        *,
        units_by_raters: bool = False,
        source: str = "ratings",
    ) -> "Ratings":
        """Code a table of labels. ``source`` names the file in error messages."""
        if isinstance(table, pd.DataFrame):
            frame = table
        else:
            array = np.asarray(table, dtype=object)
            if array.ndim != 2:
                raise ValueError(f"{source}: ratings must be 2-D (units x raters), got shape {array.shape}")
            if array.shape[1] > array.shape[0] and not units_by_raters:
                raise ValueError(
                    f"{source}: ambiguous orientation: {array.shape[0]} rows x {array.shape[1]} columns. "
                    "reagree reads units as rows and raters as columns; this looks transposed. "
                    "Transpose it, pass a DataFrame, or pass units_by_raters=True if it is right."
                )
            frame = pd.DataFrame(array)
        repeated = frame.columns[frame.columns.duplicated()].tolist()
        if repeated and raters is None:
            raise ValueError(
                f"{source}: rater column(s) {repeated} appear more than once; name each rater once (or pass raters=)"
            )
        if raters is not None and len(raters) != frame.shape[1]:
            raise ValueError(f"{source}: {len(raters)} rater names for {frame.shape[1]} rater columns")
        if categories is not None:
            categories = tuple(categories)
            _require_unique(categories, "category", source)
        frame = frame.apply(_blank_to_missing)
        present = frame.notna().to_numpy()
        ordered = True
        if categories is None:
            observed = pd.unique(frame.to_numpy().ravel()[present.ravel()])
            categories = _sorted_labels(observed, source)
            ordered = all(isinstance(c, (int, float, np.number)) and not isinstance(c, bool) for c in categories)
        categories = tuple(categories)
        codes = np.full(frame.shape, MISSING, dtype=np.int64)
        lookup = pd.Index(categories)
        for j, column in enumerate(frame.columns):
            cells = frame.iloc[:, j]
            coded = np.where(present[:, j], lookup.get_indexer(cells.where(present[:, j])), MISSING)
            unknown = (coded == MISSING) & present[:, j]
            if unknown.any():
                row = int(np.flatnonzero(unknown)[0])
                raise ValueError(
                    f"{source}: unit {frame.index[row]!r}, rater {column!r}: label "
                    f"{frame.iloc[row, j]!r} is not one of the categories {list(categories)}"
                )
            codes[:, j] = coded
        names = tuple(raters) if raters is not None else tuple(str(c) for c in frame.columns)
        return cls(codes=codes, categories=categories, raters=names, ordered=ordered)

    @property
    def n_units(self) -> int:
        return self.codes.shape[0]

    @property
    def n_raters(self) -> int:
        return self.codes.shape[1]

    @property
    def n_cells(self) -> int:
        """Cells of the units x raters table, filled or not."""
        return int(self.codes.size)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @cached_property
    def rating_rows(self) -> np.ndarray:
        """Each unit's full row of codes as a number, 0, 1, ... in order of first
        appearance (equal rows, equal numbers): the rows every statistic of these ratings
        is bootstrapped over (``reagree.stats.bootstrap``)."""
        return row_ids(self.codes)[0]

    @classmethod
    def from_table(cls, table, categories: Sequence, raters: Sequence[str] = ("a", "b")) -> "Ratings":
        """Two raters' ratings whose K x K contingency table is ``table`` (whole counts;
        cell (i, j): units the first rater put in category i and the second in j), one unit
        per count, units in row-major cell order."""
        table = np.asarray(table)
        k = len(categories)
        if table.shape != (k, k) or (table < 0).any() or not np.all(table == np.round(table)):
            raise ValueError(f"a contingency table of whole counts, {k} x {k}, is needed; got {table.tolist()}")
        cells = np.repeat(np.arange(k * k), table.astype(np.int64).ravel())
        return cls(np.column_stack([cells // k, cells % k]), tuple(categories), tuple(raters))

    def missing_count(self) -> int:
        """How many cells (units x raters) nobody filled."""
        return int((self.codes == MISSING).sum())

    def missing_share(self) -> float:
        """Share of cells (units x raters) nobody filled."""
        return float((self.codes == MISSING).mean()) if self.codes.size else float("nan")

    def category_shares(self) -> np.ndarray:
        """Share of all given ratings that fall in each category."""
        totals = self.unit_counts().sum(axis=0)
        return totals / totals.sum()

    def unit_counts(self) -> np.ndarray:
        """(n_units, K) matrix: how many raters put each unit in each category."""
        n, k = self.n_units, self.n_categories
        rows, cols = np.nonzero(self.codes != MISSING)
        flat = rows * k + self.codes[rows, cols]
        return np.bincount(flat, minlength=n * k).reshape(n, k)

    def select(self, raters: Sequence[str]) -> "Ratings":
        """The same units, only the named raters, in the given order."""
        index = [self.raters.index(r) for r in raters]
        return Ratings(self.codes[:, index], self.categories, tuple(raters), ordered=self.ordered)

    def subset(self, units: np.ndarray) -> "Ratings":
        """Rows picked by a boolean mask or index array."""
        return Ratings(self.codes[units], self.categories, self.raters, ordered=self.ordered)

    def complete(self) -> "Ratings":
        """Only the units every rater labelled."""
        return self.subset((self.codes != MISSING).all(axis=1))

    def recode(self, mapping: dict, categories: Sequence) -> "Ratings":
        """Map every category to a new one (e.g. three classes to "negative vs the rest");
        missing stays missing. Every old category must be mapped into ``categories``."""
        categories = tuple(categories)
        unmapped = [c for c in self.categories if mapping.get(c) not in categories]
        if unmapped:
            raise ValueError(f"recode: {unmapped} map to nothing in {list(categories)}")
        table = np.array([categories.index(mapping[c]) for c in self.categories] + [MISSING])
        return Ratings(table[self.codes], categories, self.raters)

    def with_column(self, rater: str, codes: np.ndarray) -> "Ratings":
        """These ratings plus one more rater column (codes in the same categories)."""
        return Ratings(
            np.column_stack([self.codes, codes]), self.categories, (*self.raters, rater), ordered=self.ordered
        )

    def labels(self) -> pd.DataFrame:
        """Back to labels: a units x raters DataFrame with None for missing cells."""
        lookup = np.array(list(self.categories) + [None], dtype=object)
        return pd.DataFrame(lookup[self.codes], columns=list(self.raters))


def _whole_codes(codes: np.ndarray) -> np.ndarray:
    """Category codes given as floats (or anything numeric) as int64, if they are whole."""
    try:
        numbers = np.asarray(codes, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            "ratings codes must be integers (category codes 0..K-1, -1 for missing); use Ratings.from_labels for labels"
        ) from None
    bad = ~np.isfinite(numbers) | (numbers != np.round(numbers))
    if bad.any():
        unit, rater = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"ratings codes must be whole numbers (-1 for missing, not NaN): unit {unit}, rater {rater} "
            f"holds {float(numbers[unit, rater])!r}"
        )
    return numbers.astype(np.int64)


def _require_unique(names: Sequence, what: str, source: str = "ratings") -> None:
    seen, repeated = set(), []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    if repeated:
        raise ValueError(f"{source}: {what} name(s) {repeated} appear more than once; each {what} is named once")


def _sorted_labels(observed, source: str) -> tuple:
    """The labels seen, sorted; labels of kinds that do not sort together are an error."""
    try:
        return tuple(sorted(observed))
    except TypeError:
        kinds: dict[str, object] = {}
        for label in observed:
            kinds.setdefault(type(label).__name__, label)
        examples = ", ".join(f"{example!r} ({kind})" for kind, example in kinds.items())
        raise ValueError(
            f"{source}: labels mix kinds that cannot be ordered: {examples}. A column read as numbers "
            "beside one read as text? Read every label as text, or declare categories="
        ) from None


def _blank_to_missing(column: pd.Series) -> pd.Series:
    """Empty or all-whitespace strings are missing cells (checked once per distinct value)."""
    blanks = [v for v in pd.unique(column) if isinstance(v, str) and not v.strip()]
    return column.mask(column.isin(blanks)) if blanks else column


def counts_from_table(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A two-rater K x K contingency table as pseudo-units for the multi-rater formulas.

    Cell (i, j) becomes one unit with one rating in category i and one in j, weighted by
    the cell's count (or probability). Returns (unit_counts of shape (K*K, K), weights).
    """
    table = np.asarray(table, dtype=float)
    k = table.shape[0]
    if table.shape != (k, k):
        raise ValueError(f"a contingency table must be square, got shape {table.shape}")
    eye = np.eye(k)
    counts = (eye[:, None, :] + eye[None, :, :]).reshape(k * k, k)
    return counts, table.reshape(k * k)


def _first_cell(bad: np.ndarray, counts: np.ndarray) -> str:
    """ "unit 3, category 1 holds nan": the first cell flagged in ``bad``."""
    i, j = (int(x) for x in np.argwhere(bad)[0])
    return f"unit {i}, category {j} holds {float(counts[i, j])!r}"


def check_unit_counts(counts) -> np.ndarray:
    """A per-unit category-count matrix (n_units x K) as floats, after checking it: 2-D,
    finite, non-negative whole numbers (a missing rating is a count of 0). A ValueError
    names the first cell that breaks a rule."""
    if isinstance(counts, Ratings):
        raise ValueError(
            "this coefficient reads per-unit category counts; pass ratings.unit_counts() "
            "(or ratings.complete().unit_counts() for Fleiss' kappa)"
        )
    try:
        counts = np.asarray(counts, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("counts must be numbers (units x categories)") from None
    if counts.ndim != 2:
        raise ValueError(f"counts must be units x categories, got shape {counts.shape}")
    if not np.isfinite(counts).all():
        raise ValueError(
            "counts must be finite (no NaN or inf): a missing rating is a count of 0; "
            + _first_cell(~np.isfinite(counts), counts)
        )
    if (counts < 0).any():
        raise ValueError("counts must be non-negative; " + _first_cell(counts < 0, counts))
    if not np.array_equal(counts, np.round(counts)):
        raise ValueError(
            "counts must be whole numbers of ratings (weight units with weights= where offered); "
            + _first_cell(counts != np.round(counts), counts)
        )
    return counts
