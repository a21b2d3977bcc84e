"""The synthetic support-desk fixture of "Agreement Before Accuracy" (paper-only code: it
lives in the paper's folder and is imported by its rule scripts, which Snakemake runs with
this folder on the path).

What it decides: the document specifies its fixture as a program driven by Python's
``random.Random``; the numbers it prints depend on the exact sequence of calls. These
generators make the same calls in the same order (seed, then per item: the truth draw,
then per annotator A, B, C: missing? error? dumped into "other"? which wrong label?), so
they reproduce the fixture exactly. ``resample_indices`` reproduces the document's
bootstrap scheme (one ``random.Random(100_000 + draw)`` per draw, ``randrange(n)`` n
times). Missing cells are ``None``.
"""

from __future__ import annotations

import random

LABELS = ("other", "balance", "pin", "agent")
PRIOR = (("other", 0.46), ("balance", 0.24), ("pin", 0.18), ("agent", 0.12))
PROFILE = {"A": (0.10, 0.55), "B": (0.16, 0.65), "C": (0.22, 0.75)}  # error rate, share of errors dumped into "other"
CODERS = tuple(PROFILE)
SEVERITY_PRIOR = ((1, 0.50), (2, 0.35), (3, 0.15))
SEVERITY_ERROR = {"A": 0.12, "B": 0.18, "C": 0.24}
# The document's studies: the alpha-minus-Fleiss gap at three sizes, the prevalence
# sweep at a fixed observed agreement, the bootstrap width study's sample sizes.
GAP_SIZES = (240, 2400, 24000)
OBSERVED_AGREEMENT = 0.900
PREVALENCES = (0.01, 0.02, 0.05, 0.10, 0.25, 0.50)
WIDTH_STUDY_SIZES = (50, 100, 200, 400, 800, 2000)
WIDTH_STUDY_DRAWS = 2000  # its figures are only reproducible with its own scheme and count
# the sizes whose kappa interval widths the prose compares ("Four hundred items halve that")
WIDTH_COMPARISONS = ((400, 100),)


def prevalence_tag(prevalence: float) -> str:
    """The key segment of a prevalence: 0.05 -> "p5"."""
    return f"p{round(prevalence * 100)}"


def _draw(rng: random.Random, prior) -> object:
    r, cumulative = rng.random(), 0.0
    for label, p in prior:
        cumulative += p
        if r < cumulative:
            return label
    return prior[0][0]


def _mislabel(rng: random.Random, truth: str, dump: float) -> str:
    if rng.random() < dump:
        return "other"
    return rng.choice([label for label in LABELS if label != truth])


def intent_round(seed: int = 7, n_items: int = 240, missing: float = 0.07) -> tuple[list[dict], list[str]]:
    """Intent labels of coders A, B, C (None = missing) and the latent truth."""
    rng, units, truth = random.Random(seed), [], []
    for _ in range(n_items):
        true_label = _draw(rng, PRIOR)
        truth.append(true_label)
        row = {}
        for name, (error, dump) in PROFILE.items():
            if rng.random() < missing:
                row[name] = None
            elif rng.random() < error:
                row[name] = _mislabel(rng, true_label, dump)
            else:
                row[name] = true_label
        units.append(row)
    return units, truth


def severity_round(seed: int = 11, n_items: int = 240, missing: float = 0.07) -> list[dict]:
    """Severity 1..3 of coders A, B, C; an error moves one step, clipped to the scale."""
    rng, rows = random.Random(seed), []
    for _ in range(n_items):
        true_value = _draw(rng, SEVERITY_PRIOR)
        row = {}
        for name, error in SEVERITY_ERROR.items():
            if rng.random() < missing:
                row[name] = None
            elif rng.random() >= error:
                row[name] = true_value
            else:
                row[name] = min(3, max(1, true_value + rng.choice([-1, 1])))
        rows.append(row)
    return rows


def complete_round(n_items: int, seed: int, coders=CODERS) -> list[dict]:
    """The bootstrap section's fixture: no missing cells, only the named coders."""
    rng, rows = random.Random(seed), []
    for _ in range(n_items):
        true_label = _draw(rng, PRIOR)
        row = {}
        for name in coders:
            error, dump = PROFILE[name]
            row[name] = _mislabel(rng, true_label, dump) if rng.random() < error else true_label
        rows.append(row)
    return rows


def resample_indices(n_items: int, draws: int, first_seed: int = 100_000) -> list[list[int]]:
    """The document's resamples: draw d uses random.Random(first_seed + d).randrange(n), n times."""
    out = []
    for draw in range(draws):
        rng = random.Random(first_seed + draw)
        out.append([rng.randrange(n_items) for _ in range(n_items)])
    return out


def flip_rate_for_agreement(observed_agreement: float) -> float:
    """The flip rate q at which two coders who each mislabel independently with rate q
    agree with probability p_o = (1 - q)^2 + q^2, i.e. q = (1 - sqrt(2 p_o - 1)) / 2."""
    if not 0.5 <= observed_agreement <= 1.0:
        raise ValueError(f"two independent flippers agree at least half the time; got {observed_agreement}")
    return (1.0 - (2.0 * observed_agreement - 1.0) ** 0.5) / 2.0


def two_coder_table(prevalence: float, flip_rate: float) -> list[list[float]]:
    """Expected 2x2 table (rows coder 1, columns coder 2; category order positive,
    negative) when a fraction ``prevalence`` of items is truly positive and each coder
    flips the true label independently with probability ``flip_rate``."""
    right, wrong = 1.0 - flip_rate, flip_rate
    both_positive = prevalence * right * right + (1 - prevalence) * wrong * wrong
    both_negative = prevalence * wrong * wrong + (1 - prevalence) * right * right
    split = prevalence * right * wrong + (1 - prevalence) * wrong * right
    return [[both_positive, split], [split, both_negative]]
