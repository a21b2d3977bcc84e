"""What the shvets2026 release holds and how this paper's runs are named.

Conventions (the rule scripts and rules.smk of this folder import them; no statistics
here, those are ``shvets2026.segments`` and ``reagree.methods``' ``runtriples`` and ``phaseshift``):

- **Texts** (``texts/<myth>_numbered.txt`` at Malificenta883/intra-annotator-dynamics @
  5241a8b): three Sumerian myths. Section 3.3 scores Inanna and Enki on its 71
  translation blocks and the other two texts line by line: ``UNIT_GRANULARITY`` holds that
  choice (``per_line`` of ``shvets2026.segments.read_units``).
- **Readers**: one human (``human1``, three runs per text, keyed ``human``) and three model
  families (``opus``, ``gemini``, ``qwen``, ten runs each), run files
  ``<myth>/<reader>_run<n>.json``.
- **The authors' random streams** (scheme ``python-random``, replayed by
  ``shvets2026.streams``): their code at the pinned commit (``src/lag_test.py``,
  ``src/b2_models_matched.py``, ``src/paper_results.py``) seeds ``random.Random`` with a
  string and draws in a fixed order. Table 4's expected lag counts over the human's runs
  (the human was once called "mine"): seed ``lag-<myth>-mine-own``, 1,000 draws, after
  the permutation test that ``lag_test.analyse`` runs first on the same stream
  (``max_lag + 1`` blocks of shuffles: the printed figures are replayed with max lag 3
  only). B2's chance level: seed ``b2-<myth>-12345``, 1,000 draws, the seven function
  labels by name. Each model's run-triples: seed ``lagT-<myth>-<model>``, 200 draws per
  triple, triples in ``combinations(range(10), 3)`` order, models in ``MODELS`` order.
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


# The authors' seeded streams (module docstring): seed templates and draws.
STREAM = {
    "lags": {"seed": "lag-{myth}-mine-own", "draws": 1000},
    "b2": {"seed": "b2-{myth}-12345", "draws": 1000},
    "triples": {"seed": "lagT-{myth}-{model}", "draws": 200},
}


def shuffle_blocks(max_lag: int) -> int:
    """The blocks of shuffles the authors' permutation test draws before the rotations."""
    return max_lag + 1
