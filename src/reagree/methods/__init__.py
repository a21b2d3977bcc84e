"""General methods built on the statistics, for any paper with the same design.

Labels, columns and conventions are the caller's parameters; no module here knows a paper.

- ``runtriples``: every pair and every triple of repeated runs, thresholds over them
- ``phaseshift``: boundary placement, onset lags between runs against rotations (the
  phase-shift test) and relabels taken from a neighbouring fragment
- ``snowflake``: when a post was made, read from its snowflake id
"""

__all__ = ["phaseshift", "runtriples", "snowflake"]
