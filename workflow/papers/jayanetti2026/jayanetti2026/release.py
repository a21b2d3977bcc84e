"""What the jayanetti2026 release holds and how this paper's numbers are keyed.

Conventions (the rule scripts of this folder import them; no statistics here):

- **Units** are the 100 tweets of ``majorityvote.tsv`` (himarshaj/hard-to-reach-environments
  @ e74bb77), identified by 0-based row (the replication write-up's numbering) and 1-based
  file line. The tweetID column is Excel-mangled (``1.68E+18``) and never used; the
  tweetURL column (``https://x.com/<user>/status/<id>``) holds each tweet's id intact,
  which dates the tweet (``status_ids``, ``reagree.methods.snowflake``). Every one of the nine raters and
  the majority labelled every tweet in every framing: an empty label cell is a damaged
  file, refused naming its line and column (never a missing rating, which would leave
  Fleiss' kappa with unequal raters per tweet).
- **Raters**: six humans (``sentiment_Rater1`` .. ``6`` -> rater1 .. rater6) and three tools
  (``sentiment_textblob``, ``sentiment_VADER``, ``sentiment_roBERTa`` -> textblob, vader,
  roberta). The released human majority is ``majority_sentiment_human_raters``.
- **Framings**: three_class (negative, neutral, positive); neg_vs_rest (negative,
  non-negative); pos_vs_rest (non-positive, positive). Released labels, the released
  majority included, are read from their released recoded columns (suffixes ``_NvsNonN``,
  ``_PvsNonP``); the released binary majority was computed separately and twice
  contradicts the three-class one. A labelling reagree makes (a tie rule's majority, a
  tool rerun) enters the binary framings as the recoding of its three-class labels, as
  the write-up does.
- **Tie rules** (the ``{tie_rule}`` wildcard): ``released`` reads the majority columns as
  released; ``neutral``, ``polar``, ``drop``, ``random`` are ``reagree.stats.majority`` rules
  applied to the six human votes. Keys name the majority a score is against:
  ``vs_majority`` (released) or ``vs_majority_ties_<rule>``.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from reagree.stats.ratings import MISSING, Ratings
from reagree.pipeline.readers import read_label_table, read_text, require_complete, require_labels

PAPER = "jayanetti2026"
RELEASE = "himarshaj/hard-to-reach-environments @ e74bb77"
HUMANS = {f"rater{i}": f"sentiment_Rater{i}" for i in range(1, 7)}
TOOLS = {"textblob": "sentiment_textblob", "vader": "sentiment_VADER", "roberta": "sentiment_roBERTa"}
RATERS = {**HUMANS, **TOOLS}
MAJORITY = "majority"
MAJORITY_COLUMN = "majority_sentiment_human_raters"
SENTIMENT = ("negative", "neutral", "positive")
TEXT, TRANSLATED = "tweet", "tweet_translated"
URL = "tweetURL"
_STATUS = re.compile(r"/status/([0-9]+)(?:[/?#]|$)")
TRANSLATION_ERROR = "Error in translation"
FRAMINGS = {  # framing: (released column suffix, categories, recoding of the three classes)
    "three_class": ("", SENTIMENT, {c: c for c in SENTIMENT}),
    "neg_vs_rest": (
        "_NvsNonN",
        ("negative", "non-negative"),
        {"negative": "negative", "neutral": "non-negative", "positive": "non-negative"},
    ),
    "pos_vs_rest": (
        "_PvsNonP",
        ("non-positive", "positive"),
        {"negative": "non-positive", "neutral": "non-positive", "positive": "positive"},
    ),
}
TIE_RULES = ("released", "neutral", "polar", "drop", "random")


@dataclass(frozen=True)
class Release:
    """The release read once: per framing, the nine raters and the released majority as
    ``Ratings``; the texts; each row's file line; the file's path."""

    ratings: dict[str, Ratings]
    texts: pd.DataFrame
    lines: pd.Series
    path: str

    @property
    def three_class(self) -> Ratings:
        return self.ratings["three_class"]

    @property
    def humans(self) -> Ratings:
        return self.three_class.select(list(HUMANS))


def read_release(path: str | Path) -> Release:
    """Read and check ``majorityvote.tsv``: every label column in every framing, and the texts."""
    columns = [column + suffix for suffix, _, _ in FRAMINGS.values() for column in [*RATERS.values(), MAJORITY_COLUMN]]
    text = read_text(path)  # read once: the labels and the texts come from the same bytes
    labels = read_label_table(path, columns, text=text)
    require_complete(labels, path)
    ratings = {}
    names = {**RATERS, MAJORITY: MAJORITY_COLUMN}
    for framing, (suffix, categories, _) in FRAMINGS.items():
        framed = [column + suffix for column in names.values()]
        require_labels(labels[["line", *framed]], categories, path)
        ratings[framing] = Ratings.from_labels(
            labels[framed].set_axis(list(names), axis=1), categories=categories, source=str(path)
        )
    wanted = [TEXT, TRANSLATED, URL]
    texts = pd.read_csv(io.StringIO(text), sep="\t", dtype=str, keep_default_na=False, usecols=lambda c: c in wanted)
    absent = [column for column in wanted if column not in texts.columns]
    if absent:
        raise ValueError(f"{path}: missing column(s) {absent}")
    return Release(ratings, texts, labels["line"], str(path))


def status_ids(release: Release) -> list[str]:
    """Each tweet's id, read from its tweetURL (``.../status/<id>``); ValueError naming the
    file line of a URL without one."""
    ids = []
    for line, url in zip(release.lines, release.texts[URL]):
        found = _STATUS.search(url.strip())
        if not found:
            raise ValueError(f"{release.path}, line {line}: column {URL} {url!r} holds no /status/<id>")
        ids.append(found.group(1))
    return ids


def framed(three_class: Ratings, framing: str) -> Ratings:
    """Three-class ratings recoded into ``framing`` (the write-up's recoding)."""
    _, categories, recoding = FRAMINGS[framing]
    return three_class.recode(recoding, categories)


def framing_table(framing: str) -> np.ndarray:
    """Three-class category codes -> the framing's codes as an index table (the last entry
    keeps ``MISSING``): ``framing_table(f)[codes]`` recodes any array of codes, one
    labelling (n,) or many (R, n), as ``framed`` recodes ratings."""
    _, categories, recoding = FRAMINGS[framing]
    return np.array([categories.index(recoding[c]) for c in SENTIMENT] + [MISSING])


def against(tie_rule: str) -> str:
    """The key segment naming the majority a score is against."""
    return "vs_majority" if tie_rule == "released" else f"vs_majority_ties_{tie_rule}"


def majority_name(tie_rule: str) -> str:
    """The key segment naming the majority itself (for its label counts)."""
    return "majority" if tie_rule == "released" else f"majority_ties_{tie_rule}"


def provenance(release: Release, sha256: str, **settings) -> dict:
    """Provenance lines every table of this paper carries."""
    return {
        "paper": PAPER,
        "source": f"{release.path} ({RELEASE})",
        "sha256": sha256,
        "units": f"{release.three_class.n_units} tweets; row = 0-based (the replication's numbering), "
        "line = 1-based file line",
        **settings,
    }
