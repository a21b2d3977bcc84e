"""Rerunning off-the-shelf sentiment tools on the text a paper says they read, and
showing that text.

What this module decides:

- **TextBlob**: the sign of ``TextBlob(text).sentiment.polarity`` (PatternAnalyzer, the
  lexicon bundled with the package; no corpus download): > 0 positive, < 0 negative,
  exactly 0 neutral.
- **VADER**: ``SentimentIntensityAnalyzer().polarity_scores(text)["compound"]`` with the
  thresholds of the VADER README: >= 0.05 positive, <= -0.05 negative, else neutral. The
  lexicons are read from the installed package's own files, never from the network.
- **Twitter-RoBERTa** (optional, needs ``transformers`` and ``torch`` and downloads
  weights): the model card's preprocessing (a token starting with "@" becomes "@user",
  one starting with "http" becomes "http"), then the argmax of the three logits, whose
  order in the model's config is negative, neutral, positive.
- **Versions**: every rerun records the installed version of each package it used
  (``tool_versions``), because lexicons and thresholds change between releases.
- **Excerpts**: whitespace runs collapse to one space; text longer than the limit is
  cut at the limit and ends in "...". An excerpt is for reading a table, never for
  scoring.
- **What the raters made of a text the tools never saw** (``votes_on_rows``): the
  humans' votes per category summed over those rows (the translation-error tweet);
  with no such row the votes are undefined, not zero.
"""

from __future__ import annotations

import re
from importlib import metadata
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from reagree.stats.undefined import Undefined

VADER_THRESHOLD = 0.05
ROBERTA_LABELS = ("negative", "neutral", "positive")
PACKAGES = {"textblob": ("textblob",), "vader": ("vaderSentiment",), "roberta": ("transformers", "torch")}
#: What the RoBERTa rerun imports, {import name: pip name} (rules.smk checks them before any job runs).
ROBERTA_PACKAGES = {"transformers": "transformers", "torch": "torch"}
#: What the TextBlob and VADER rerun imports: reagree's optional extra ``tools`` (pyproject.toml),
#: which the lock installs; rules.smk checks them before any job runs.
TOOL_PACKAGES = {"textblob": "textblob", "vaderSentiment": "vaderSentiment"}
TOOLS_EXTRA = "tools"
# The tools each rerun rule runs: the two lexicon tools, and RoBERTa behind its setting.
RERUN_TOOLS = {"tools": ("textblob", "vader"), "roberta": ("roberta",)}


def _sign_label(score: float, threshold: float) -> str:
    if score >= threshold and score > 0:
        return "positive"
    if score <= -threshold and score < 0:
        return "negative"
    return "neutral"


def textblob_labels(texts: Iterable[str]) -> list[str]:
    """TextBlob's label per text: the sign of its polarity (0 is neutral)."""
    from textblob import TextBlob

    return [_sign_label(TextBlob(text).sentiment.polarity, 0.0) for text in texts]


def vader_labels(texts: Iterable[str]) -> list[str]:
    """VADER's label per text: compound >= 0.05 positive, <= -0.05 negative, else neutral."""
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    analyzer = SentimentIntensityAnalyzer()
    return [_sign_label(analyzer.polarity_scores(text)["compound"], VADER_THRESHOLD) for text in texts]


def mask_handles_and_links(text: str) -> str:
    """The Twitter-RoBERTa model card's preprocessing: "@..." -> "@user", "http..." -> "http"."""
    return " ".join(
        "@user" if t.startswith("@") and len(t) > 1 else "http" if t.startswith("http") else t for t in text.split(" ")
    )


class ToolUnavailable(RuntimeError):
    """A tool's package or weights cannot be loaded; the message is one line."""


def roberta_labels(texts: Sequence[str], model: str, batch_size: int = 16) -> list[str]:
    """Twitter-RoBERTa's label per text: argmax over (negative, neutral, positive) after the
    model card's masking. Raises ``ToolUnavailable`` (one line) when transformers/torch
    are missing or the weights cannot be loaded."""
    from reagree.pipeline.requirements import Requirement, unmet

    missing = unmet(Requirement("jayanetti2026", "rerun_roberta", ROBERTA_PACKAGES))
    if missing:
        raise ToolUnavailable(f"RoBERTa rerun: {missing}")
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(model)
        classifier = AutoModelForSequenceClassification.from_pretrained(model).eval()
    except Exception as error:  # noqa: BLE001 - the hub raises many kinds; one line says which
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ToolUnavailable(
            f"RoBERTa rerun: cannot load {model} weights ({first}); set jayanetti2026: "
            "{rerun_roberta: false} to leave it out"
        ) from None
    labels = []
    with torch.no_grad():
        for start in range(0, len(texts), batch_size):
            batch = [mask_handles_and_links(t) for t in texts[start : start + batch_size]]
            encoded = tokenizer(batch, return_tensors="pt", padding=True, truncation=True)
            labels += [ROBERTA_LABELS[i] for i in classifier(**encoded).logits.argmax(dim=1).tolist()]
    return labels


def rerun(tool: str, texts: Sequence[str], **options) -> list[str]:
    """Labels of ``tool`` ("textblob", "vader" or "roberta") on ``texts``."""
    runners = {"textblob": textblob_labels, "vader": vader_labels, "roberta": roberta_labels}
    if tool not in runners:
        raise ValueError(f"unknown tool {tool!r}; known: {sorted(runners)}")
    return list(runners[tool](list(texts), **options))


def tool_versions(tools: Iterable[str]) -> dict[str, str]:
    """Installed version of every package the named tools use ("not installed" if absent)."""
    versions = {}
    for tool in tools:
        for package in PACKAGES[tool]:
            try:
                versions[package] = metadata.version(package)
            except metadata.PackageNotFoundError:
                versions[package] = "not installed"
    return versions


def same_label_count(labels_a: Sequence, labels_b: Sequence) -> int:
    """Number of units on which two labellings give the same label (both present)."""
    a, b = pd.Series(list(labels_a), dtype=object), pd.Series(list(labels_b), dtype=object)
    return int((a.notna() & b.notna() & (a == b)).sum())


def differing_rows(labels_a: Sequence, labels_b: Sequence) -> np.ndarray:
    """Rows on which two labellings both give a label and the labels differ."""
    a, b = pd.Series(list(labels_a), dtype=object), pd.Series(list(labels_b), dtype=object)
    return np.flatnonzero((a.notna() & b.notna() & (a != b)).to_numpy())


def excerpt(text: str, characters: int) -> str:
    """A short one-line excerpt of ``text`` (module docstring)."""
    flat = re.sub(r"\s+", " ", str(text)).strip()
    return flat if len(flat) <= characters else flat[:characters].rstrip() + "..."


def changed_texts(original: Sequence[str], scored: Sequence[str]) -> np.ndarray:
    """Rows whose scored text differs from the original (after stripping outer whitespace)."""
    a = pd.Series(list(original), dtype=object).fillna("").str.strip()
    b = pd.Series(list(scored), dtype=object).fillna("").str.strip()
    return np.flatnonzero((a != b).to_numpy())


def rows_with_text(texts: Sequence[str], text: str) -> np.ndarray:
    """Rows whose text is exactly ``text`` (outer whitespace ignored), e.g. a translation
    service's error string."""
    return np.flatnonzero(pd.Series(list(texts), dtype=object).fillna("").str.strip().to_numpy() == text)


def votes_on_rows(unit_counts: np.ndarray, rows: Sequence[int], absent: str) -> list[float]:
    """Each category's votes summed over ``rows`` of a units x categories count table (how
    the raters labelled the tweets a translation service failed on); with no such row,
    each is Undefined with ``absent`` as the reason (no tweet, no votes to count)."""
    counts = np.asarray(unit_counts)
    if not len(rows):
        return [Undefined(absent)] * counts.shape[1]
    return [float(votes) for votes in counts[np.asarray(rows, dtype=int)].sum(axis=0)]
