"""General methods built on the statistics, for any paper with the same design.

- ``segments``: runs of segments projected onto the units of a numbered text
- ``runtriples``: every pair and every triple of repeated runs, thresholds over them
- ``phaseshift``: onset lags between runs against rotations (the phase-shift test)
"""

__all__ = ["phaseshift", "runtriples", "segments"]
