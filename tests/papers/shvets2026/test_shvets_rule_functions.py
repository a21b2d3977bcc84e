"""The functions behind shvets2026's rules (pairs, triples, phase_shift, anchoring and the
figures' data in plots), which the thin rule scripts call, on a six-line text and three
runs each of the human and one model, every number below worked out by hand from the
segments (or scikit-learn's Cohen's kappa on the projected labels).

The human's runs, per line 1..6 (P preparation, C contact, E exchange):

    run 1  P P C C E E   boundaries 1 0 1 0 1 0   2026-01-01
    run 2  P P P E E E   boundaries 1 0 0 1 0 0   2026-01-05
    run 3  P P C C C C   boundaries 1 0 1 0 0 0   2026-01-10
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from shvets2026 import keys
from shvets2026.anchoring import check_anchoring
from shvets2026.checks import count_checks
from shvets2026.pairs import pair_runs, placement_name
from shvets2026.phase_shift import compute_phase_shift, scheme
from shvets2026.triples import enumerate_triples, resolve_thresholds

TEXT = "".join(f"{n}\tline {word}\n" for n, word in enumerate(["one", "two", "three", "four", "five", "six"], 1))
HUMAN_RUNS = [
    [("preparation", 1, 2), ("contact", 3, 4), ("exchange", 5, 6)],
    [("preparation", 1, 3), ("exchange", 4, 6)],
    [("preparation", 1, 2), ("contact", 3, 6)],
]
MODEL_RUNS = [
    [("preparation", 1, 1), ("contact", 2, 6)],
    [("preparation", 1, 2), ("contact", 3, 6)],
    [("contact", 1, 6)],
]
DATES = ["2026-01-01", "2026-01-05", "2026-01-10"]
SETTINGS = {"fractional_lines": "line", "placement_windows": [0, 1, 2]}
HUMAN_LABELS = [list("PPCCEE"), list("PPPEEE"), list("PPCCCC")]
HUMAN_BOUNDARIES = [[1, 0, 1, 0, 1, 0], [1, 0, 0, 1, 0, 0], [1, 0, 1, 0, 0, 0]]


def write_run(path, segments, date):
    path.write_text(
        json.dumps(
            {
                "annotated_date": date,
                "segments": [
                    {"segment_id": f"s{i}", "function": f, "line_start": a, "line_end": b}
                    for i, (f, a, b) in enumerate(segments)
                ],
            }
        )
    )
    return str(path)


@pytest.fixture(scope="module")
def gudea(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gudea")
    (folder / "gudea_numbered.txt").write_text(TEXT)
    run_ids, paths = [], []
    for reader, runs in (("human1", HUMAN_RUNS), ("opus", MODEL_RUNS)):
        for number, (segments, date) in enumerate(zip(runs, DATES), start=1):
            run_ids.append((reader, number))
            paths.append(write_run(folder / f"{reader}_run{number}.json", segments, date))
    return folder, run_ids, paths


@pytest.fixture(scope="module")
def paired(gudea):
    folder, run_ids, paths = gudea
    return pair_runs("gudea", str(folder / "gudea_numbered.txt"), run_ids, paths, SETTINGS)


def values_of(outputs) -> dict[str, float]:
    return {row["key"]: row["value"] for row in outputs.values}


def test_one_myths_runs_paired(paired):
    values = values_of(paired)
    assert values[keys.UNITS.key(myth="gudea")] == 6
    pair = {"myth": "gudea", "a": 1, "b": 2}
    assert values[keys.HUMAN_PAIR.key(pair_measure="kappa_label", **pair)] == pytest.approx(
        cohen_kappa_score(HUMAN_LABELS[0], HUMAN_LABELS[1]), abs=1e-12
    )
    assert values[keys.HUMAN_PAIR.key(pair_measure="kappa_boundary", **pair)] == pytest.approx(
        cohen_kappa_score(HUMAN_BOUNDARIES[0], HUMAN_BOUNDARIES[1]), abs=1e-12
    )
    assert values[keys.HUMAN_PAIR_DAYS.key(**pair)] == 4
    mean_label = np.mean([cohen_kappa_score(HUMAN_LABELS[a], HUMAN_LABELS[b]) for a, b in ((0, 1), (0, 2), (1, 2))])
    assert values[keys.READER_MEAN.key(mean="kappa_label", reader="human", myth="gudea")] == pytest.approx(mean_label)
    assert values[keys.COLLECTION_DAYS.key(reader="human", myth="gudea")] == 10  # Jan 1 to Jan 10, both counted
    # boundaries 3 + 2 + 2 of 18 covered units
    assert values[keys.BOUNDARY_SHARE.key(reader="human", myth="gudea")] == pytest.approx(7 / 18)
    assert values[keys.SEGMENTS_PER_RUN.key(runs_of="human", myth="gudea")] == pytest.approx(7 / 3)
    assert values[keys.SEGMENT_LINES.key(myth="gudea")] == pytest.approx(18 / 7)  # 18 lines in 7 segments
    assert values[keys.DIAGNOSTICS.key(issue="segments_skipped", myth="gudea")] == 0
    assert set(paired.tables) == {"runs", "diagnostics", "pairs", "readers", "placement"}
    assert paired.tables["readers"].frame["reader"].tolist() == ["human", "opus"]
    assert len(paired.frames["projection"]) == 6 * 6  # six runs cover six units each


def test_the_placement_window_names():
    assert [placement_name(w) for w in (0, 1, 2)] == ["exact", "within_1", "within_2"]


def test_run_triples_from_the_pair_tables(paired):
    pairs = paired.tables["pairs"].frame
    assert resolve_thresholds(["human_gap", 0.25], 0.1) == {"human_gap": 0.1, "at_0_25": 0.25}
    outputs = enumerate_triples({"gudea": pairs}, ["gudea"], ["opus"], "human1", ["human_gap", 0], ["pairs.tsv"])
    values = values_of(outputs)
    assert values[keys.TRIPLES.key(triples_of="opus", myth="gudea")] == 1  # C(3, 3)
    # the one triple of three runs is every pair: its gap is the reader's mean gap
    opus_gap = values_of(paired)[keys.READER_MEAN.key(mean="gap", reader="opus", myth="gudea")]
    assert values[keys.TRIPLE_GAP.key(model="opus", myth="gudea", bound="min")] == pytest.approx(opus_gap)
    assert values[keys.RUN_FILES.key()] == 6 and values[keys.HUMAN_PAIRS.key()] == 3
    assert values[keys.GROUP_RUN_DATE.key(end="first", dated="human")] == 20260101
    assert values[keys.GROUP_RUN_DATE.key(end="last", dated="models")] == 20260110
    assert np.isnan(values[keys.LABEL_MARGIN.key()])  # it needs all three myths
    assert outputs.frames["triples"]["runs"].tolist() == ["1+2+3"]


def test_table4_and_b2_of_the_human_by_hand(gudea, paired, tmp_path):
    folder, _, _ = gudea
    projection = tmp_path / "projection_gudea.tsv"
    paired.frames["projection"].to_csv(projection, sep="\t", index=False)
    outputs = compute_phase_shift(
        ["gudea"], ["opus"], "human1", 3, [str(projection)], [str(folder / "gudea_numbered.txt")]
    )
    values = values_of(outputs)
    # pieces: (P,P,P) lines 1-2, (C,P,C), (C,E,C), (E,E,C) lines 5-6: 4 pieces; run onsets 2, 1, 1 over
    # two partners each: 8. Lags: run 3 enters C where run 1 does (0) and back (0); run 2 enters E
    # one piece before run 1 (-1) and run 1 one after run 2 (+1): same place 2, one step 2.
    assert values[keys.PIECES.key(count="pieces", myth="gudea")] == 4
    assert values[keys.PIECES.key(count="onsets", myth="gudea")] == 8
    assert values[keys.LAG.key(lag="lag_same_place", myth="gudea", seen="observed")] == 2
    assert values[keys.LAG.key(lag="lag_one_step", myth="gudea", seen="observed")] == 2
    # B2: fragments P (lines 1-2), C (3-4), E (5-6); events (run 2, C, P), (run 2, C, E), (run 3, E, C),
    # every one licensed; chance (2/2 + 2/2 + 1/2) / 3 over L - 1 = 2
    assert values[keys.B2_EVENTS.key(myth="gudea")] == 3
    assert values[keys.B2.key(b2="b2_observed", myth="gudea")] == 1.0
    assert values[keys.B2.key(b2="b2_chance_exact", myth="gudea")] == pytest.approx(5 / 6)
    assert values[keys.B2.key(b2="b2_gap_exact", myth="gudea")] == pytest.approx(1 / 6)
    replayed = next(r for r in outputs.values if r["key"] == keys.B2.key(b2="b2_chance", myth="gudea"))
    assert replayed["scheme"] == "python-random; draws=1000; seed=b2-gudea-12345"
    assert {row["own"] for row in outputs.variants} == {"yes", ""}
    assert outputs.tables["table4"].frame["pieces"].tolist() == [4]
    assert len(outputs.frames["triples"]) == 1
    assert scheme({"draws": 10}, seed="s", max_lag=3) == "python-random; draws=10; seed=s; max_lag=3"


def test_the_prompts_worked_example_against_the_runs(gudea, tmp_path):
    folder, run_ids, paths = gudea
    prompt = tmp_path / "seg_v4.txt"
    prompt.write_text(
        'Return JSON like\n[{"function": "preparation", "line_start": 1, "line_end": 2, '
        '"evidence": ["line two"]}]\nand nothing else.'
    )
    outputs = check_anchoring(
        str(prompt), str(folder / "gudea_numbered.txt"), run_ids, paths, "gudea", "human1", "line"
    )
    values = values_of(outputs)
    assert values[keys.EXAMPLE.key(line="line_start")] == 1 and values[keys.EXAMPLE.key(line="line_end")] == 2
    assert values[keys.EXAMPLE_QUOTED.key(end="first")] == 2  # "line two" is passage 2
    # human runs 1 and 3 open with lines 1-2; of opus's, run 2
    assert values[keys.ANCHORED_RUNS.key(anchored="human", myth="gudea")] == 2
    assert values[keys.ANCHORED_RUNS.key(anchored="models", myth="gudea")] == 1
    assert [values[keys.ANCHORED.key(myth="gudea", run=n)] for n in (1, 2, 3)] == [1, 0, 1]


def test_the_figures_data(paired, monkeypatch, tmp_path):
    import shvets2026.plots as plots

    drawn = {}
    monkeypatch.setattr(plots, "gap_by_reader", lambda readers, myths, path, title: drawn.setdefault("gaps", readers))
    monkeypatch.setattr(
        plots, "triple_gaps", lambda triples, human, myths, path, title: drawn.setdefault("triples", human)
    )
    monkeypatch.setattr(plots, "human_pairs", lambda pairs, path, title: drawn.setdefault("pairs", pairs))
    readers = paired.tables["readers"].frame
    table = plots.reader_gaps([readers], ["gudea"], ["readers_gudea.tsv"], tmp_path / "g.png").tables["table"]
    assert list(table.frame.columns) == plots.READER_COLUMNS and table.provenance["inputs"] == "readers_gudea.tsv"
    plots.triple_gap_figure(pd.DataFrame(), [readers], ["gudea"], tmp_path / "t.png")
    assert drawn["triples"] == {"gudea": readers.loc[readers["reader"] == "human", "gap"].iloc[0]}
    plots.human_pair_figure([paired.tables["pairs"].frame], "human1", tmp_path / "p.png")
    assert len(drawn["pairs"]) == 3 and set(drawn["pairs"]["reader"]) == {"human1"}  # the human's three pairs


def test_the_check_lines_of_a_reproduce_script_counted_from_its_text(tmp_path):
    script = tmp_path / "reproduce.py"
    # two steps: one check, and a check inside a loop over three items -> 1 + 3 lines
    script.write_text(
        "def check(label, ok):\n    print('ok' if ok else 'XX', label)\n\n"
        "def one():\n    check('a', True)\n\n"
        "def two():\n    for x in [1, 2, 3]:\n        check(x, True)\n\n"
        "STEPS = {'one': one, 'two': two}\n"
    )
    outputs = count_checks(str(script))
    assert [row["key"] for row in outputs.values] == [keys.REPRODUCE_CHECKS.key()]
    assert outputs.values[0]["value"] == 4
