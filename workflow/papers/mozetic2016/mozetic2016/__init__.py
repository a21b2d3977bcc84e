"""The mozetic2016 paper's own code: its readers, keys and figures (rule scripts and tests import it).

``PAPER`` is what the pipeline reads of it (``reagree.pipeline.paper``): its keys, its
variant plan and its relations over printed numbers, each declared in its own module.
"""

from reagree.pipeline.paper import Paper

from mozetic2016.internal import RELATIONS
from mozetic2016.keys import KEYS
from mozetic2016.variants import PLAN

__all__ = ["PAPER"]

PAPER = Paper(keys=KEYS, variants=PLAN, relations=RELATIONS)
