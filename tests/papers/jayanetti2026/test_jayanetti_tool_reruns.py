"""Tool reruns: TextBlob's and VADER's labels on strings whose scores can be read off their
lexicons, the thresholds, that neither touches the network, and the text helpers."""

import importlib.util
import math
import socket

import numpy as np
import pytest

from jayanetti2026 import toolrerun
from jayanetti2026.toolrerun import (
    ToolUnavailable,
    changed_texts,
    differing_rows,
    excerpt,
    mask_handles_and_links,
    rerun,
    rows_with_text,
    same_label_count,
    textblob_labels,
    tool_versions,
    vader_labels,
    votes_on_rows,
)
from reagree.stats.undefined import reason_of


def test_textblob_is_the_sign_of_polarity():
    # Pattern lexicon bundled with TextBlob: "good" 0.7, "bad" -0.7; "the table" has no entry (0)
    assert textblob_labels(["good", "bad", "the table"]) == ["positive", "negative", "neutral"]


def test_vader_thresholds_its_compound_score():
    # VADER lexicon: "good" 1.9, "bad" -2.5; compound = x / sqrt(x^2 + 15)
    assert 1.9 / math.sqrt(1.9**2 + 15) == pytest.approx(0.4404, abs=1e-4)  # >= 0.05
    assert -2.5 / math.sqrt(2.5**2 + 15) == pytest.approx(-0.5423, abs=1e-4)  # <= -0.05
    assert vader_labels(["good", "bad", "the table"]) == ["positive", "negative", "neutral"]


def test_threshold_edges():
    sign = toolrerun._sign_label
    assert [sign(s, 0.05) for s in (0.05, 0.0499, 0.0, -0.0499, -0.05)] == [
        "positive",
        "neutral",
        "neutral",
        "neutral",
        "negative",
    ]
    assert [sign(s, 0.0) for s in (1e-9, 0.0, -1e-9)] == ["positive", "neutral", "negative"]


def test_lexicons_come_from_the_packages_not_the_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a tool rerun tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert rerun("vader", ["good"]) == ["positive"]
    assert rerun("textblob", ["bad"]) == ["negative"]


def test_versions_are_recorded():
    versions = tool_versions(["textblob", "vader"])
    assert set(versions) == {"textblob", "vaderSentiment"}
    assert all(v[0].isdigit() for v in versions.values())
    with pytest.raises(ValueError, match="unknown tool"):
        rerun("sentiwordnet", ["good"])


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) for m in ("transformers", "torch")),
    reason="transformers or torch is installed: the RoBERTa rerun would download weights",
)
def test_roberta_without_transformers_says_so_in_one_line():
    with pytest.raises(ToolUnavailable) as raised:
        rerun("roberta", ["good"], model="cardiffnlp/twitter-roberta-base-sentiment")
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(
        "RoBERTa rerun: jayanetti2026: rerun_roberta: true needs the Python packages "
        "transformers and torch (not installed). To get them: "
    )
    assert "-m pip install transformers torch" in message


def test_model_card_masking():
    assert mask_handles_and_links("@kmosebetsi see https://t.co/x now @") == "@user see http now @"


def test_text_helpers():
    original = ["Site C", "Molo  ", "List of slums", "same"]
    scored = ["Site C", "Hello", "Error in translation", "same "]
    assert changed_texts(original, scored).tolist() == [1, 2]  # outer whitespace is not a change
    assert rows_with_text(scored, "Error in translation").tolist() == [2]
    assert excerpt("a  long\ttext\nwith breaks", 12) == "a long text..."
    assert excerpt("short", 12) == "short"
    assert same_label_count(["positive", "neutral", None], ["positive", "negative", None]) == 1
    assert differing_rows(["positive", "neutral", None], ["positive", "negative", "neutral"]).tolist() == [1]
    assert isinstance(differing_rows([], []), np.ndarray)


def test_votes_on_rows_sum_each_category_over_the_rows():
    # three tweets, six raters, categories negative/neutral/positive; by hand: rows 0 and 2
    # give 0+1 negative, 6+2 neutral, 0+3 positive
    counts = np.array([[0, 6, 0], [3, 3, 0], [1, 2, 3]])
    assert votes_on_rows(counts, np.array([0, 2]), "none") == [1.0, 8.0, 3.0]
    assert votes_on_rows(counts, [0], "none") == [0.0, 6.0, 0.0]  # all six called it neutral
    # no row: each category undefined, with the reason, never 0
    empty = votes_on_rows(counts, np.array([], dtype=int), "no row's tweet_translated is 'Error in translation'")
    assert len(empty) == 3 and all(math.isnan(v) for v in empty)
    assert {reason_of(v) for v in empty} == {"no row's tweet_translated is 'Error in translation'"}
