"""Intraclass correlation for numeric ratings: ICC(2,1) and ICC(3,1) of Shrout & Fleiss.

What this module decides:

- **Input.** A units x raters array of numbers with every cell filled (the two-way ANOVA
  needs a complete table; the audit passes the complete units and says how many).
- **Forms.** ICC(2,1), two-way random effects, absolute agreement of single ratings:
  (MS_R - MS_E) / (MS_R + (k - 1) MS_E + k (MS_C - MS_E) / n). ICC(3,1), two-way mixed
  effects, consistency of single ratings: (MS_R - MS_E) / (MS_R + (k - 1) MS_E). MS_R, MS_C,
  MS_E: the mean squares of units (rows), raters (columns) and the residual.
- **Inference.** The test of ICC = 0 is, for both forms, F = MS_R / MS_E on (n - 1,
  (n - 1)(k - 1)) degrees of freedom, its p one-sided (McGraw & Wong 1996, Tables 7-8
  with r0 = 0, where their a = 0 and b = 1; R psych's and DescTools' ``ICC``). ICC(3,1)'s
  interval from the F quantiles (Shrout & Fleiss 1979, Table 3); ICC(2,1)'s that of
  McGraw & Wong (1996, Table 7) with Satterthwaite's degrees of freedom v computed from
  the estimate. R irr 0.84.1's ``icc(model="twoway", type="agreement")`` tests on v too
  (it reuses the estimate's a and b), so its p differs; its interval is the same.
- **Undefined.** Fewer than two units or two raters, or no variance at all.

Shrout, P. E., Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
reliability. Psychological Bulletin 86(2), 420-428; McGraw, K. O., Wong, S. P. (1996).
Forming inferences about some intraclass correlation coefficients. Psychological Methods
1(1), 30-46.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as scipy_stats

from reagree.stats.undefined import Undefined

__all__ = ["FORMS", "icc"]

FORMS = ("ICC(2,1)", "ICC(3,1)")


def _mean_squares(values: np.ndarray) -> tuple[float, float, float]:
    n, k = values.shape
    grand = values.mean()
    rows = k * ((values.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    columns = n * ((values.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    total = ((values - grand) ** 2).sum()
    error = (total - rows * (n - 1) - columns * (k - 1)) / ((n - 1) * (k - 1))
    return float(rows), float(columns), float(error)


def icc(values, form: str = "ICC(2,1)", level: float = 0.95) -> dict:
    """The ICC of ``form`` on a complete units x raters array of numbers, with its F test
    and interval: {form, value, F, df1, df2, p, ci, n_units, n_raters}.

    ICC(2,1) = (MS_R - MS_E) / (MS_R + (k - 1) MS_E + k (MS_C - MS_E) / n); ICC(3,1) =
    (MS_R - MS_E) / (MS_R + (k - 1) MS_E) (Shrout & Fleiss 1979, Table 1; McGraw & Wong 1996,
    ICC(A,1) and ICC(C,1)); the test and the intervals in the module docstring.

    Parameters
    ----------
    values : array_like, shape (n_units, n_raters)
        Numbers, every cell present.
    form : {"ICC(2,1)", "ICC(3,1)"}
        Two-way random effects, absolute agreement; or two-way mixed, consistency.
    level : float
        The confidence level of the interval.

    Returns
    -------
    dict

    References
    ----------
    Shrout, P. E., Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420-428; McGraw, K. O., Wong, S. P. (1996).
    Forming inferences about some intraclass correlation coefficients. Psychological
    Methods 1(1), 30-46.

    Examples
    --------
    Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges; Table 4 prints
    ICC(2,1) = .29 and ICC(3,1) = .71 (the mean squares of statsmodels' two-way ``anova_lm`` give
    0.2898 and 0.7148):

    >>> targets = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> round(icc(targets, "ICC(2,1)")["value"], 2), round(icc(targets, "ICC(3,1)")["value"], 2)
    (0.29, 0.71)
    """
    if form not in FORMS:
        raise ValueError(f"form must be one of {FORMS}, got {form!r}")
    values = np.asarray(values, dtype=float)
    if values.ndim != 2 or not np.isfinite(values).all():
        raise ValueError("the ICC needs a complete units x raters array of finite numbers")
    n, k = values.shape
    found = {"form": form, "n_units": int(n), "n_raters": int(k)}
    if n < 2 or k < 2:
        why = Undefined("fewer than two units or two raters")
        return {**found, "value": why, "F": why, "df1": why, "df2": why, "p": why, "ci": (why, why)}
    rows, columns, error = _mean_squares(values)
    if rows + error == 0:
        why = Undefined("no variance: every rating is the same")
        return {**found, "value": why, "F": why, "df1": why, "df2": why, "p": why, "ci": (why, why)}
    tail = (1 - level) / 2
    df1, df2 = n - 1, (n - 1) * (k - 1)
    f_value = rows / error if error > 0 else np.inf
    if form == "ICC(3,1)":
        value = (rows - error) / (rows + (k - 1) * error)
        low_f = f_value / scipy_stats.f.ppf(1 - tail, df1, df2)
        high_f = f_value * scipy_stats.f.ppf(1 - tail, df2, df1)
        low, high = (low_f - 1) / (low_f + k - 1), (high_f - 1) / (high_f + k - 1)
    else:
        value = (rows - error) / (rows + (k - 1) * error + k * (columns - error) / n)
        a = k * value / (n * (1 - value))
        b = 1 + k * value * (n - 1) / (n * (1 - value))
        v = (a * columns + b * error) ** 2 / ((a * columns) ** 2 / (k - 1) + (b * error) ** 2 / ((n - 1) * (k - 1)))
        low_q, high_q = scipy_stats.f.ppf(1 - tail, n - 1, v), scipy_stats.f.ppf(1 - tail, v, n - 1)
        low = n * (rows - low_q * error) / (low_q * (k * columns + (k * n - k - n) * error) + n * rows)
        high = n * (high_q * rows - error) / (k * columns + (k * n - k - n) * error + n * high_q * rows)
    p = float(scipy_stats.f.sf(f_value, df1, df2)) if np.isfinite(f_value) else 0.0
    return {
        **found,
        "value": float(value),
        "F": float(f_value),
        "df1": df1,
        "df2": df2,
        "p": p,
        "ci": (float(low), float(high)),
    }
