"""Agreement statistics: ratings and annotations, every coefficient, the bootstrap.

Nothing here knows a file format, a paper or a claim: arrays in, numbers out (files are read
by ``reagree.io``). Modules:

- ``ratings``, ``labels``: units x raters matrices, and labels keyed by id as codes with their views
- ``undefined``: NaN that carries its reason
- ``pairwise``, ``multirater``, ``alpha``, ``meanpairwise``: the coefficients
- ``gwet``, ``weights``: Gwet's weighted family (AC2, Brennan-Prediger, Fleiss in Gwet's form,
  Conger, percent agreement) with its variance, and the standard weight schemes
- ``inference``, ``asymptotic``, ``icc``: analytic standard errors, z, p and Wald intervals;
  Fleiss' and Cohen's large-sample variances; the intraclass correlation
- ``registry``: every coefficient the audit reports, declared once (function, variance,
  reference, label)
- ``pairtables``: every pair of raters' contingency table, counted from the units each pair shares
- ``rows``: distinct rows of a matrix by one integer key per row (how units are pooled)
- ``classification``, ``reference``, ``softlabel``: scores against a reference or a panel
- ``majority``: majority vote under a named tie rule
- ``bootstrap``: the unit bootstrap, its draws, schemes and intervals
- ``variants``: the catalogue of variants (one quantity under each documented alternative choice)
- ``references``: the field's libraries' values beside reagree's (krippendorff, statsmodels, scikit-learn)
"""

__all__ = [
    "alpha",
    "asymptotic",
    "bootstrap",
    "classification",
    "gwet",
    "icc",
    "inference",
    "labels",
    "majority",
    "meanpairwise",
    "multirater",
    "pairtables",
    "pairwise",
    "raters",
    "ratings",
    "reference",
    "references",
    "registry",
    "rows",
    "softlabel",
    "undefined",
    "variants",
    "weights",
]
