"""The shvets2026 paper's own code: its readers, keys and figures (rule scripts and tests import it).

``PAPER`` is what the pipeline reads of it (``reagree.pipeline.paper``): its keys, its
variant plan and its relations over printed numbers, each declared in its own module.
"""

from reagree.pipeline.paper import Paper

from shvets2026.internal import RELATIONS
from shvets2026.keys import KEYS
from shvets2026.variants import PLAN

__all__ = ["PAPER"]

PAPER = Paper(keys=KEYS, variants=PLAN, relations=RELATIONS)
