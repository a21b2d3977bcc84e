"""Agreement statistics: ratings and annotations, every coefficient, the bootstrap.

Nothing here knows a file format of the workflow, a paper or a claim. Modules:

- ``ratings``, ``annotations``: units x raters matrices and long-format annotations keyed by id
- ``undefined``: NaN that carries its reason
- ``pairwise``, ``multirater``, ``alpha``, ``meanpairwise``: the coefficients
- ``pairtables``: every pair of raters' contingency table, counted from the units each pair shares
- ``rows``: distinct rows of a matrix by one integer key per row (how units are pooled)
- ``classification``, ``reference``, ``softlabel``: scores against a reference or a panel
- ``majority``: majority vote under a named tie rule
- ``bootstrap``: the unit bootstrap, its draws, schemes and intervals
- ``variants``: the catalogue of variants (one quantity under each documented alternative choice)
- ``references``: the field's libraries' values beside reagree's (krippendorff, statsmodels, scikit-learn)
"""

__all__ = ["alpha", "annotations", "bootstrap", "classification", "majority", "meanpairwise", "multirater",
           "pairtables", "pairwise", "ratings", "reference", "references", "rows", "softlabel",
           "undefined", "variants"]
