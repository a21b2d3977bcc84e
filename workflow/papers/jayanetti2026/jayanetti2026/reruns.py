"""The tool reruns of jayanetti2026 (rules rerun_jayanetti2026_tools and
rerun_jayanetti2026_roberta: ``rerun_tools``): sentiment tools rerun on
``tweet_translated`` (the text the paper's tools read), compared with the released tool
labels, and the reruns scored against the released majority columns.

The rule names the tools (textblob and vader; roberta behind the ``rerun_roberta``
setting, since it downloads model weights). The TextBlob/VADER rule also shows what the
tools read: the rows whose translation differs from the tweet (how many, and per 100
tweets) and the row whose translation is the error string (how the six humans labelled
it), with every tool's label and an excerpt. Package versions
go into every table's provenance and into the values' notes. The labelling rules are
``jayanetti2026.toolrerun``'s.
"""

from __future__ import annotations

import logging
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from reagree.io.reads import sha256_read
from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.stats.bootstrap import bootstrap_intervals
from reagree.stats.ratings import Ratings
from reagree.stats.reference import kappa_statistic
from reagree.stats.references import cohen_against

from jayanetti2026 import keys
from jayanetti2026.keys import Reruns
from jayanetti2026.release import (
    FRAMINGS,
    MAJORITY,
    SENTIMENT,
    TEXT,
    TOOLS,
    TRANSLATED,
    TRANSLATION_ERROR,
    Release,
    framed,
    provenance,
)
from jayanetti2026.toolrerun import (
    changed_texts,
    differing_rows,
    excerpt,
    rerun,
    rows_with_text,
    same_label_count,
    tool_versions,
    votes_on_rows,
)


def rerun_values(
    release: Release,
    reruns: Mapping[str, list[str]],
    versions: Mapping[str, str],
    bootstrap: Mapping[str, float],
    families: Reruns,
) -> list[dict]:
    """Agreement of each rerun with the released labels; each rerun's kappa per framing."""
    released = release.three_class.labels()
    built_with = ", ".join(f"{package} {version}" for package, version in versions.items())
    values = []
    rerun_ratings = Ratings.from_labels(pd.DataFrame(reruns), categories=SENTIMENT)
    translated = changed_texts(release.texts[TEXT], release.texts[TRANSLATED])
    for tool, labels in reruns.items():
        values.append(
            families.same.row(
                same_label_count(labels, released[tool]), tool=tool, note=f"of {len(labels)} tweets; {built_with}"
            )
        )
        differing = differing_rows(labels, released[tool])
        values.append(
            families.differs.row(len(differing), tool=tool, note="rows " + (", ".join(map(str, differing)) or "-"))
        )
        values.append(
            families.differs_translated.row(
                len(differing_rows(np.asarray(labels, dtype=object)[translated], released[tool].iloc[translated])),
                tool=tool,
                note=f"of the {len(translated)} tweets whose {TRANSLATED} differs from {TEXT}",
            )
        )
    for framing in FRAMINGS:
        reference = release.ratings[framing].select([MAJORITY]).codes[:, 0]
        ratings = framed(rerun_ratings, framing)
        statistics = [kappa_statistic(ratings, tool, reference) for tool in reruns]
        intervals = bootstrap_intervals(statistics, bootstrap["draws"], bootstrap["seed"], bootstrap["level"])
        values += [
            families.kappa.row(
                statistic.value(),
                tool=tool,
                framing=framing,
                interval=interval,
                note=f"rerun on {TRANSLATED}; {built_with}",
                reference=cohen_against(ratings, tool, reference),
            )
            for tool, statistic, interval in zip(reruns, statistics, intervals)
        ]
    return values


def label_table(release: Release, reruns: Mapping[str, list[str]], characters: int) -> pd.DataFrame:
    """One row per tweet: released and rerun labels, whether they agree, the scored text."""
    released = release.three_class.labels()
    table = pd.DataFrame({"row": np.arange(release.three_class.n_units), "line": release.lines.to_numpy()})
    for tool, labels in reruns.items():
        table[f"{tool}_released"] = released[tool].to_numpy()
        table[f"{tool}_rerun"] = labels
        table[f"{tool}_same"] = table[f"{tool}_released"] == table[f"{tool}_rerun"]
    table["text_scored"] = [excerpt(text, characters) for text in release.texts[TRANSLATED]]
    return table


def what_the_tools_read(
    release: Release, reruns: Mapping[str, list[str]], characters: int
) -> tuple[pd.DataFrame, list[dict]]:
    """The translated rows and the translation-error row, with every tool's label."""
    original, scored = release.texts[TEXT], release.texts[TRANSLATED]
    changed = changed_texts(original, scored)
    errors = rows_with_text(scored, TRANSLATION_ERROR)
    released = release.three_class.labels()
    table = pd.DataFrame(
        {"row": changed, "line": release.lines.iloc[changed].to_numpy(), "translation_error": np.isin(changed, errors)}
    )
    votes = release.humans.unit_counts()
    for code, category in enumerate(SENTIMENT):
        table[f"votes_{category}"] = votes[changed, code]
    for tool in TOOLS:
        table[f"{tool}_released"] = released[tool].iloc[changed].to_numpy()
    for tool, labels in reruns.items():
        table[f"{tool}_rerun"] = np.asarray(labels, dtype=object)[changed]
    table["tweet"] = [excerpt(original.iloc[row], characters) for row in changed]
    table["tweet_translated"] = [excerpt(scored.iloc[row], characters) for row in changed]
    values = [
        keys.TRANSLATED.row(
            len(changed), note=f"rows whose {TRANSLATED} differs from {TEXT}: " + ", ".join(map(str, changed))
        ),
        keys.TRANSLATED_SHARE.row(
            100 * len(changed) / release.three_class.n_units,
            note=f"rows whose {TRANSLATED} differs from {TEXT}, per 100 tweets",
        ),
        keys.TRANSLATION_ERRORS.row(
            len(errors), note=f"rows whose {TRANSLATED} is '{TRANSLATION_ERROR}': " + ", ".join(map(str, errors))
        ),
    ]
    on_errors = votes_on_rows(votes, errors, f"no row's {TRANSLATED} is '{TRANSLATION_ERROR}'")
    values += [
        keys.TRANSLATION_ERROR_VOTES.row(
            on_errors[code],
            sentiment=category,
            note=f"the six human votes on the rows whose {TRANSLATED} is '{TRANSLATION_ERROR}'",
        )
        for code, category in enumerate(SENTIMENT)
    ]
    return table, values


def rerun_tools(
    release: Release,
    tools: Sequence[str],
    families: Reruns,
    settings: Mapping[str, object],
    bootstrap: Mapping[str, float],
    show_read: bool,
    log: logging.Logger | None = None,
) -> RuleOutputs:
    """``tools`` rerun on the release's translated texts (the setting ``roberta_model``
    names RoBERTa's weights), their values under ``families`` (the rule's key families,
    ``jayanetti2026.keys.RERUNS``) with ``bootstrap``'s intervals, and the table ``labels``;
    with ``show_read``, also what the tools read (the table ``translated`` and its counts).
    Raises ``toolrerun.ToolUnavailable`` (one line) when a tool cannot be loaded."""
    log = log or logging.getLogger(__name__)
    characters = settings["excerpt_characters"]
    versions = tool_versions(tools)
    log.info("rerunning %s on %s (%s)", ", ".join(tools), TRANSLATED, versions)
    options = {"roberta": {"model": settings["roberta_model"]}}
    reruns = {tool: rerun(tool, release.texts[TRANSLATED].tolist(), **options.get(tool, {})) for tool in tools}
    about = provenance(
        release,
        sha256_read(release.path),
        text=TRANSLATED,
        packages=", ".join(f"{p} {v}" for p, v in versions.items()),
        rules="TextBlob: sign of polarity (0 neutral); VADER: compound >= 0.05 positive, "
        "<= -0.05 negative; RoBERTa: argmax after @user/http masking",
    )
    values = rerun_values(release, reruns, versions, bootstrap, families)
    tables = {
        "labels": Table(
            label_table(release, reruns, characters),
            f"Tool reruns on {TRANSLATED} against the released tool labels",
            about,
        )
    }
    if show_read:
        translated, text_values = what_the_tools_read(release, reruns, characters)
        values += text_values
        tables["translated"] = Table(
            translated, f"What the tools read: rows whose {TRANSLATED} differs from {TEXT}", about
        )
    log.info("%d values", len(values))
    return RuleOutputs(values=values, tables=tables)
