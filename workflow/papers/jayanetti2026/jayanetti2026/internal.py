"""Jayanetti et al. (2026): printed numbers held against one another (``reagree.pipeline.internal``).

The three LLMs' labels were never released, so the write-up's statements about them can
only be checked against the numbers the paper and its README print: Qwen3-32B's zero-shot
scores against its one-shot ones, Llama-4-Maverick's positive-vs-rest score against the
RoBERTa scores it "sits between", the best LLM's negative-vs-rest score against
RoBERTa's. The claims are in ``claims/internal.tsv``; the rule
``check_jayanetti2026_printed`` writes these values.
"""

from reagree.pipeline.internal import Printed, relate

from jayanetti2026 import keys

FRAMINGS = ("three_class", "neg_vs_rest", "pos_vs_rest")

RELATIONS = [
    *[
        relate(
            keys.ZERO_SHOT_GAIN,
            f"kappa.qwen3_32b_zero_shot.vs_majority.{framing}",
            f"kappa.qwen3_32b.vs_majority.{framing}",
            framing=framing,
        )
        for framing in FRAMINGS
    ],
    # "Llama-4-Maverick at 0.71 on positive vs non-positive, sits between those values" (0.610 ... 0.751)
    relate(
        keys.LLAMA_MINUS_ROBERTA,
        "kappa.llama4_maverick.vs_majority.pos_vs_rest",
        Printed("kappa.roberta.vs_majority.pos_vs_rest", where="tie section"),
        against="vs_majority",
    ),
    relate(
        keys.LLAMA_MINUS_ROBERTA,
        "kappa.llama4_maverick.vs_majority.pos_vs_rest",
        "kappa.roberta.vs_majority_ties_drop.pos_vs_rest",
        against="vs_majority_ties_drop",
    ),
    # "plausible on negative sentiment (0.88 against 0.71 at best)"
    relate(
        keys.ROBERTA_MINUS_BEST_LLM,
        Printed("kappa.roberta.vs_majority.neg_vs_rest", where="Table 2"),
        "kappa.best_llm.vs_majority.neg_vs_rest",
    ),
]
