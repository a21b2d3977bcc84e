"""What the shvets2026 release holds and how this paper's runs are named.

Conventions (the rule scripts and rules.smk of this folder import them; no statistics
here, those are ``reagree.methods.segments``, ``runtriples`` and ``phaseshift``):

- **Texts** (``texts/<myth>_numbered.txt`` at Malificenta883/intra-annotator-dynamics @
  5241a8b): three Sumerian myths. Section 3.3 scores Inanna and Enki on its 71
  translation blocks and the other two texts line by line: ``UNIT_GRANULARITY`` holds that
  choice (``per_line`` of ``reagree.methods.segments.read_units``).
- **Readers**: one human (``human1``, three runs per text, keyed ``human``) and three model
  families (``opus``, ``gemini``, ``qwen``, ten runs each), run files
  ``<myth>/<reader>_run<n>.json``.
"""

from __future__ import annotations

# Shvets (2026), Section 3.3: True = every line is a unit; False = every translation block.
UNIT_GRANULARITY = {"inanna_enki": False, "inanna_descent": True, "gudea": True}
MYTHS = tuple(UNIT_GRANULARITY)
HUMAN = "human1"
MODELS = ("opus", "gemini", "qwen")
# The prompt's worked example quotes Gudea: the anchoring check reads that text's runs.
ANCHORING_MYTH = "gudea"


def reader_key(reader: str) -> str:
    """The key segment of a reader: the human's runs are keyed ``human``."""
    return "human" if reader == HUMAN else reader
