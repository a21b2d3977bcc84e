"""What the mozetic2016 release holds and how this paper's numbers are keyed.

Conventions (the rule scripts of this folder import them; no statistics here, those are
``mozetic2016.selfagreement``):

- **Files.** CLARIN.SI hdl 11356/1054: one ``<Language>_Twitter_sentiment.csv`` per
  language, header ``TweetID,HandLabel,AnnotatorID``, labels Negative, Neutral, Positive
  (categories in that order: values -1, 0, +1). Tweet ids are 17 to 19 digits and stay
  text; annotator ids are integers. A row that breaks this stops the run with the file
  and line (``reagree.io.annotations.read_annotations``).
- **Datasets.** Every built language is a dataset (key slug: the language in lower
  case). ``ser_cro_bos`` is the paper's joint Serbian + Croatian + Bosnian set, scored
  when all three are built: the three files concatenated (ids matched as text). The
  paper's 13 datasets are the 12 other languages and ser_cro_bos; Serbian, Croatian and
  Bosnian alone appear in its text (Fig 7 paragraph) and in the figure.
- **Keys.** ``<measure>.<kind>.<dataset>[.<qualifier>]``: kinds ``self``, ``inter``,
  ``union`` (self and inter units together); measures ``acc_within_one``, ``acc``,
  ``f1_polar``, ``alpha_interval``, ``alpha_nominal``, ``alpha_interval_half_width`` (the
  paper's "+-"); counts ``count.labels``, ``count.tweets``, ``count.gold``,
  ``count.annotators``, ``count.{self,inter}_repeats.<dataset>.{posts,pairs}`` and their
  ``percent.*`` shares of all labels; Table 5 ``alpha_gain.union.<dataset>`` and
  ``alpha_ratio.union.<dataset>.{negative_neutral,neutral_positive}``.
- **Annotators named in the text.** ``main_annotator``: the annotator with the most labels
  in a language; ``annotator_a`` / ``annotator_b``: the two with the most labels, A the
  one with the lower self-agreement (the paper names German annotators A and B by
  quality only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from reagree.io.annotations import read_annotations
from reagree.io.reads import sha256_read
from reagree.stats.labels import Annotations

PAPER = "mozetic2016"
RELEASE = "CLARIN.SI hdl 11356/1054"
LANGUAGES = (
    "Albanian",
    "Bosnian",
    "Bulgarian",
    "Croatian",
    "English",
    "German",
    "Hungarian",
    "Polish",
    "Portuguese",
    "Russian",
    "Serbian",
    "Slovak",
    "Slovenian",
    "Spanish",
    "Swedish",
)
JOINT = ("Serbian", "Croatian", "Bosnian")
JOINT_SLUG = "ser_cro_bos"
# The paper's dataset order (Tables 1-6): the 13 datasets, Ser/Cro/Bos in its alphabetical place.
PAPER_DATASETS = (
    "albanian",
    "bulgarian",
    "english",
    "german",
    "hungarian",
    "polish",
    "portuguese",
    "russian",
    JOINT_SLUG,
    "slovak",
    "slovenian",
    "spanish",
    "swedish",
)
# The paper's four application datasets (Tables 1-6, bottom rows): not in the release. Emojis
# has no classifier (Tables 2 and 6 leave it out).
APPLICATIONS = ("facebook_it", "djia30", "environment", "emojis")
CLASSIFIED_APPLICATIONS = ("facebook_it", "djia30", "environment")
# Every row of the paper's Tables 1, 3, 4 and 5, in its order.
TABLE_DATASETS = (*PAPER_DATASETS, *APPLICATIONS)
# Left out of the paper's Table 5 average ("low quality" Albanian and Spanish; Emojis is not a language file).
AVERAGE_EXCLUDES = ("albanian", "spanish")
CATEGORIES = ("Negative", "Neutral", "Positive")
COLUMNS = {"unit": "TweetID", "rater": "AnnotatorID", "label": "HandLabel"}
TWEET_ID = r"[0-9]{17,19}"
ANNOTATOR_ID = r"[0-9]+"


def source_name(language: str) -> str:
    return f"{language}_Twitter_sentiment.csv"


def source_path(language: str) -> str:
    return f"data/{PAPER}/{source_name(language)}"


def datasets(languages: Sequence[str]) -> list[str]:
    """The datasets scored for these languages: each language, then ser_cro_bos when all
    three of its languages are built."""
    unknown = [language for language in languages if language not in LANGUAGES]
    if unknown:
        raise ValueError(f"{PAPER}: unknown language(s) {unknown}; the release has {list(LANGUAGES)}")
    built = [language.lower() for language in LANGUAGES if language in languages]
    return built + ([JOINT_SLUG] if all(language in languages for language in JOINT) else [])


def table_order(built: Sequence[str]) -> list[str]:
    """The built datasets in the paper's table order, the joint set's three languages
    right after it."""
    joint = [language.lower() for language in JOINT]
    at = PAPER_DATASETS.index(JOINT_SLUG) + 1
    order = [*PAPER_DATASETS[:at], *joint, *PAPER_DATASETS[at:]]
    return [dataset for dataset in order if dataset in built]


def dataset_languages(dataset: str) -> list[str]:
    if dataset == JOINT_SLUG:
        return list(JOINT)
    matches = [language for language in LANGUAGES if language.lower() == dataset]
    if not matches:
        raise ValueError(f"{PAPER}: no dataset {dataset!r}")
    return matches


def display_name(dataset: str) -> str:
    return "Ser/Cro/Bos" if dataset == JOINT_SLUG else dataset_languages(dataset)[0]


def read_language(path: str | Path) -> Annotations:
    """One language file, checked row by row (see the module docstring)."""
    return read_annotations(
        path,
        COLUMNS["unit"],
        COLUMNS["rater"],
        COLUMNS["label"],
        categories=CATEGORIES,
        unit_pattern=TWEET_ID,
        rater_pattern=ANNOTATOR_ID,
    )


def read_dataset(paths: Sequence[str | Path], dataset: str) -> Annotations:
    """A dataset's files read and, for ser_cro_bos, concatenated in Serbian, Croatian,
    Bosnian order."""
    parts = [read_language(path) for path in paths]
    return parts[0] if len(parts) == 1 else Annotations.concat(parts, source=display_name(dataset))


def dataset_paths(dataset: str) -> list[str]:
    return [source_path(language) for language in dataset_languages(dataset)]


def provenance(paths: Sequence[str | Path], **settings) -> dict:
    """Where a table came from: the release, the sha256 of each input as this job read it,
    the settings used."""
    out: dict = {"paper": PAPER, "release": RELEASE}
    for path in paths:
        out[f"input {Path(path).name}"] = f"sha256 {sha256_read(path)}"
    out.update({name: value for name, value in settings.items()})
    return out
