"""Analytic inference for an agreement coefficient: its standard error, z, p and Wald
interval, beside (never instead of) the unit bootstrap of ``reagree.stats.bootstrap``.

What this module decides:

- **An estimate** (``Estimate``) is a coefficient's value, its observed agreement P_o and
  its chance agreement P_e (every chance-corrected coefficient is (P_o - P_e) / (1 - P_e)),
  the standard error, the units it rests on, and the reference distribution of z:
  Student's t with n - 1 degrees of freedom for Gwet's linearised variances (as Gwet's
  handbook and irrCAC use), the standard normal for the asymptotic variances of Cohen's
  kappa (Fleiss, Cohen & Everitt 1969, as statsmodels, SAS and R irr) and of Fleiss' kappa
  under the null (Fleiss, Nee & Landis 1979, as R irr's ``kappam.fleiss``).
- **z and p.** z = value / se, where se is the standard error the test uses (``se_null``
  when the variance is computed under kappa = 0, else ``se``); p is two-sided.
- **Wald interval**: value -/+ q se at the level asked for, q the quantile of the same
  distribution; not clipped to [-1, 1] (irrCAC clips the upper end at 1: a convention
  difference the tests state).
- **Undefined.** A value that is undefined, or a standard error that is 0 or undefined,
  leaves z, p and the interval undefined, with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as scipy_stats

from reagree.stats.undefined import Undefined, reason_of

__all__ = ["Estimate"]

T_DISTRIBUTION, NORMAL = "t", "normal"


@dataclass(frozen=True)
class Estimate:
    """A coefficient with its analytic inference (module docstring)."""

    name: str
    value: float
    observed: float
    chance: float
    se: float
    n_units: int
    distribution: str = T_DISTRIBUTION
    se_null: float | None = None
    method: str = ""

    @property
    def df(self) -> float:
        return float(self.n_units - 1) if self.distribution == T_DISTRIBUTION else math.inf

    def _test_se(self) -> float:
        return self.se_null if self.se_null is not None else self.se

    def _why(self) -> str:
        for part, what in ((self.value, "the value"), (self._test_se(), "the standard error")):
            if reason_of(part) or math.isnan(float(part)):
                return f"{what} is undefined" + (f": {reason_of(part)}" if reason_of(part) else "")
        if float(self._test_se()) == 0:
            return "the standard error is 0"
        if self.distribution == T_DISTRIBUTION and self.n_units < 2:
            return "fewer than two units"
        return ""

    @property
    def z(self) -> float:
        why = self._why()
        return Undefined(why) if why else float(self.value) / float(self._test_se())

    @property
    def p_value(self) -> float:
        """Two-sided p of z against the estimate's distribution."""
        z = self.z
        if math.isnan(z):
            return z
        if self.distribution == T_DISTRIBUTION:
            return float(2 * scipy_stats.t.sf(abs(z), self.df))
        return float(2 * scipy_stats.norm.sf(abs(z)))

    def quantile(self, level: float) -> float:
        upper = (1 + level) / 2
        if self.distribution == T_DISTRIBUTION:
            return float(scipy_stats.t.ppf(upper, self.df))
        return float(scipy_stats.norm.ppf(upper))

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """The Wald interval value -/+ q se (module docstring)."""
        why = ""
        for part, what in ((self.value, "the value"), (self.se, "the standard error")):
            if not why and (reason_of(part) or math.isnan(float(part))):
                why = f"{what} is undefined"
        if not why and self.distribution == T_DISTRIBUTION and self.n_units < 2:
            why = "fewer than two units"
        if why:
            return Undefined(why), Undefined(why)
        half = self.quantile(level) * float(self.se)
        return float(self.value) - half, float(self.value) + half

    def as_dict(self, level: float = 0.95) -> dict:
        """JSON-ready: value, observed, chance, se, z, p, interval, distribution (None where undefined)."""

        def defined(x):
            return None if x is None or math.isnan(float(x)) else float(x)

        low, high = self.interval(level)
        return {
            "value": defined(self.value),
            "observed": defined(self.observed),
            "chance": defined(self.chance),
            "se": defined(self.se),
            "se_null": defined(self.se_null),
            "z": defined(self.z),
            "p": defined(self.p_value),
            "wald_ci": [defined(low), defined(high)],
            "level": level,
            "distribution": self.distribution if self.distribution == NORMAL else f"t({self.n_units - 1})",
            "n_units": int(self.n_units),
            "method": self.method,
        }
