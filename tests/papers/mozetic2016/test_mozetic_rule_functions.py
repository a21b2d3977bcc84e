"""The functions behind mozetic2016's rules (labels, repeats, agreement, ordering,
annotators, plots.agreement_figure), which the thin rule scripts call, on the tiny
CLARIN-format file of test_mozetic_statistics whose Tables 1, 3, 4 and 5 are worked out by
hand there; the expected values below are those hand values, and the krippendorff
package's where an alpha carries a reference."""

from __future__ import annotations

from datetime import datetime, timezone
from fractions import Fraction as F

import krippendorff
import numpy as np
import pandas as pd
import pytest

from mozetic2016 import keys
from mozetic2016.agreement import score_agreement, tabulate_agreement
from mozetic2016.annotators import score_annotators
from mozetic2016.labels import count_labels
from mozetic2016.ordering import score_ordering
from mozetic2016.plots import agreement_figure
from mozetic2016.release import source_path
from mozetic2016.repeats import count_repeats

from test_mozetic_statistics import T1, T8, TINY


@pytest.fixture
def albanian(tmp_path, monkeypatch):
    """The tiny file as the build lays it out (data/mozetic2016/<language>_Twitter_sentiment.csv)."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / source_path("Albanian")
    path.parent.mkdir(parents=True)
    path.write_bytes(TINY.encode())
    return source_path("Albanian")


def values_of(outputs) -> dict[str, float]:
    return {row["key"]: row["value"] for row in outputs.values}


def month_of(tweet_id: str) -> int:
    """YYYYMM of a snowflake id by Twitter's published rule: (id >> 22) + 1288834974657 ms."""
    posted = datetime.fromtimestamp(((int(tweet_id) >> 22) + 1288834974657) / 1000, tz=timezone.utc)
    return posted.year * 100 + posted.month


def test_table1_and_the_gold_sizes(albanian):
    outputs = count_labels(["albanian"], [albanian])
    values = values_of(outputs)
    assert values[keys.LABELS.key(dataset="albanian")] == 15 and values[keys.TWEETS.key(dataset="albanian")] == 8
    assert [
        values[keys.CLASS_LABELS.key(dataset="albanian", category=c)] for c in ("negative", "neutral", "positive")
    ] == [5, 5, 5]
    assert [
        values[keys.CLASS_GOLD.key(dataset="albanian", category=c)] for c in ("negative", "neutral", "positive")
    ] == [3, 2, 3]
    assert values[keys.GOLD_READINGS_DIFFER.key(dataset="albanian")] == 1
    ids = [
        T1,
        "123456789012345678",
        "1234567890123456789",
        "1234567890123456790",
        "8876543210987654321",
        "5555555555555555555",
        "5555555555555555556",
        T8,
    ]
    assert values[keys.POSTING_MONTH.key(end="first_post", dataset="albanian")] == min(map(month_of, ids))
    assert values[keys.POSTING_MONTH.key(end="last_post", dataset="albanian")] == max(map(month_of, ids))
    assert keys.ALL_LABELS.key() not in values  # the whole release needs all 15 languages
    table = outputs.tables["table"]
    assert table.frame["dataset"].tolist() == ["Albanian"] and table.frame["tweets with 3+ labels"].tolist() == [1]
    assert table.provenance["input Albanian_Twitter_sentiment.csv"].startswith("sha256 ")


def test_table3_as_posts_and_as_pairs_with_its_variants(albanian):
    outputs = count_repeats(["albanian"], ["Albanian"], [albanian])
    values = values_of(outputs)
    where = {"dataset": "albanian"}
    assert values[keys.REPEATS.key(kind="self", reading="posts", **where)] == 3
    assert values[keys.REPEATS.key(kind="self", reading="pairs", **where)] == 5
    assert values[keys.REPEATS.key(kind="inter", reading="posts", **where)] == 3
    assert values[keys.REPEATS_PERCENT.key(kind="self", reading="pairs", **where)] == pytest.approx(100 * 5 / 15)
    assert values[keys.ANNOTATORS.key(**where)] == 2
    variants = pd.DataFrame(outputs.variants)
    self_posts = variants[variants["key"] == keys.REPEATS.key(kind="self", reading="posts", **where)]
    # t1 and t2 labelled twice, t3 three times by annotator 1: 3 items, 1 + 1 + 3 pairs, 1 + 1 + 2 repeats
    assert dict(zip(self_posts["variant"], self_posts["value"])) == {
        "count.items": 3,
        "count.label_pairs": 5,
        "count.repeat_labels": 4,
    }


def test_table4_for_one_dataset_and_the_table_of_all(albanian):
    outputs = score_agreement("albanian", 50, 0, 0.95)
    values = values_of(outputs)
    where = {"dataset": "albanian"}
    assert values[keys.MEASURE.key(measure="acc", kind="self", **where)] == pytest.approx(3 / 7)
    assert values[keys.ALPHA_INTERVAL.key(kind="self", **where)] == pytest.approx(2 / 7)
    assert values[keys.ALPHA_INTERVAL.key(kind="inter", **where)] == pytest.approx(12 / 17)
    assert values[keys.SELF_MINUS_INTER.key(**where)] == pytest.approx(2 / 7 - 12 / 17)
    # the self units t1 (+, +), t2 (-, 0), t3 (-, +, -) as coders x units for the krippendorff package
    self_units = np.array([[1, -1, -1], [1, 0, 1], [np.nan, np.nan, -1]])
    row = next(r for r in outputs.values if r["key"] == keys.ALPHA_INTERVAL.key(kind="self", **where))
    assert row["reference_value"] == pytest.approx(
        krippendorff.alpha(reliability_data=self_units, level_of_measurement="interval"), abs=1e-12
    )
    rows = outputs.frames["rows"]
    assert (
        rows["kind"].tolist() == ["self", "inter"]
        and rows["scheme"].iloc[0] == "percentile; draws=50; seed=0; level=0.95"
    )
    half = values[keys.HALF_WIDTH.key(kind="self", **where)]
    # three self units: most resamples leave alpha undefined, and so the interval and its half
    assert half == pytest.approx((rows["ci_high"].iloc[0] - rows["ci_low"].iloc[0]) / 2, nan_ok=True)
    own = {r["family"]: r["variant"] for r in outputs.variants if r["own"] == "yes"}
    assert own == {"alpha_expected_disagreement": "alpha.expected_n_minus_1", "alpha_distance": "alpha.interval"}
    table = tabulate_agreement([rows, rows.assign(dataset="Bosnian")], [albanian]).tables["table"]
    assert table.frame["dataset"].tolist() == ["Albanian", "Albanian", "Bosnian", "Bosnian"]


def test_table5_on_the_union(albanian):
    outputs = score_ordering(["albanian"], [albanian])
    values = values_of(outputs)
    assert values[keys.GAIN.key(dataset="albanian")] == pytest.approx(float(F(9, 145)))
    assert values[keys.RATIO.key(dataset="albanian", ratio="neutral_positive")] == pytest.approx(8 / 9)
    # Albanian is one of the paper's datasets the Average* row leaves out
    assert keys.AVERAGE_GAIN.key() not in values


def test_the_annotators_named_in_the_text(albanian):
    outputs = score_annotators(["Albanian"], [albanian])
    values = values_of(outputs)
    who = {"language": "albanian", "named": "main_annotator"}
    assert values[keys.ANNOTATOR_ALPHA.key(**who)] == pytest.approx(2 / 7)  # annotator 1: 10 labels
    assert values[keys.ANNOTATOR_LABELS.key(**who)] == pytest.approx(100 * 10 / 15)
    assert values[keys.TOP_ANNOTATORS_LABELS.key(language="albanian")] == pytest.approx(100.0)
    # annotator 2 labelled no tweet twice: no alpha, so no A and B are named
    assert keys.ANNOTATOR_ALPHA.key(language="albanian", named="annotator_a") not in values
    assert outputs.tables["table"].frame["named"].tolist() == ["main_annotator", ""]


def test_the_figure_parts_the_joint_set_only_when_it_is_built(tmp_path, monkeypatch):
    import mozetic2016.plots as plots

    drawn = []
    monkeypatch.setattr(plots, "self_inter_bars", lambda frame, path, title: drawn.append((frame, title)))
    table = pd.DataFrame(
        {
            "dataset": ["Ser/Cro/Bos", "Serbian", "English"],
            "kind": "self",
            "alpha_interval": 0.5,
            "ci_low": 0.4,
            "ci_high": 0.6,
            "units": 10,
        }
    )
    agreement_figure(table, 1000, tmp_path / "f.png")
    agreement_figure(table[table["dataset"] != "Ser/Cro/Bos"], 1000, tmp_path / "f.png")
    assert drawn[0][0]["parent"].tolist() == ["", "Ser/Cro/Bos", ""]
    assert drawn[1][0]["parent"].tolist() == ["", ""]
    assert "(1,000 draws)" in drawn[0][1]
