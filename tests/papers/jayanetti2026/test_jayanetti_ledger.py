"""jayanetti2026's ledger held against its document, the replication write-up (seed 000),
as the build's check_ledger rule holds it under ``strict_ledger``, without a build: every
number the write-up prints is claimed or dismissed, every claim of the paper's tables is
located at a number (or words) the write-up prints there, and the numbers the scan turned
up that no claim checked before are claimed.

The places asserted are read from the write-up (../shared/seeds/000_bf7d41fdc7212778.txt):
line 1 (the title) prints "11 of the 100 tweets ... are 3-3 rater splits" at columns 1, 11,
64 and 66; line 9 quotes the paper's Section 3, "No ties occurred", the paper's 0 in words;
line 19 says the translation-error tweet is one "which all six humans called neutral"
("six" at column 376); line 41 says the tie rule "changed one of four model rankings"
("four" at column 192); line 47 says "8 items is 8 points of accuracy" (the second 8 at
column 184); line 37 prints one 0.43 for Table 1's two framings ("0.43 on both", column 319);
lines 55 to 78 are the check script, whose comments print results (line 65, column 82:
"# 0.385") among its constants (line 66, column 12: "/600"); lines 90 to 98 list the
sources, printing 26 numbers (item numbers 1 to 7, four dates, the sections and tables
of item 1, the years of items 1, 3, 4 and 5, item 5's volume, issue and pages, and item
6's "three" and "eight"). The scan of this text finds 291 numbers (tests/pipeline/test_scan.py, SEED_COUNTS).
"""

from __future__ import annotations

import pytest

from reagree.pipeline.ledger import LedgerError, check_paper, read_ledger
from reagree.pipeline.paperspec import load_paper

from conftest import ROOT

PAPER = ROOT / "workflow" / "papers" / "jayanetti2026"
LEDGER = PAPER / "ledger.tsv"
WRITEUP = ROOT.parent / "shared" / "seeds" / "000_bf7d41fdc7212778.txt"


@pytest.fixture(scope="module")
def claims():
    return load_paper(PAPER / "paper.yaml")["claims"]


@pytest.fixture(scope="module")
def document():
    if not WRITEUP.is_file():
        pytest.skip(f"{WRITEUP} is not here (the seed texts sit in ../shared/seeds beside the checkout)")
    return [{"name": WRITEUP.name, "path": str(WRITEUP)}]


@pytest.fixture(scope="module")
def checked(claims, document):
    return check_paper("jayanetti2026", claims, document, LEDGER, strict=True)


def test_every_number_the_write_up_prints_is_claimed_or_dismissed(checked):
    table, counts = checked
    count = counts.iloc[0]
    assert (count["document"], count["checked"], count["printed"]) == (WRITEUP.name, "yes", 291)
    assert (count["unreviewed"], count["unaccounted"]) == (0, 0)
    assert count["claimed"] + count["dismissed"] == 291 and count["claimed"] > 0
    assert set(table["status"]) == {"claimed", "dismissed"}
    assert (table.loc[table["status"] == "dismissed", "reason"] != "").all()


def test_the_numbers_the_scan_turned_up_are_claimed(checked):
    table = checked[0].set_index(["line", "column"])
    assert table.loc[(1, 1), "claims"] == "count.ties.three_class"
    assert table.loc[(1, 11), "claims"] == "count.tweets"
    assert table.loc[(19, 376), "claims"] == "count.humans.translation_error.neutral"
    assert table.loc[(41, 192), "claims"] == "count.rankings.tie_rule"
    assert table.loc[(47, 184), "claims"] == "percent.tweets.translated"
    # one printed 0.43 for two framings: one row, the two claims joined as one figure
    assert table.loc[(37, 319), "claims"] == "fleiss.tools.three_class;fleiss.tools.pos_vs_rest"
    # the check script: the results its comments print are claimed, its constants dismissed
    assert table.loc[(65, 82), ["status", "claims"]].tolist() == ["claimed", "fleiss.humans.three_class"]
    assert table.loc[(66, 12), ["status", "reason"]].tolist() == ["dismissed", "code"]
    assert table.loc[(1, 64), ["status", "reason"]].tolist() == ["dismissed", "design"]
    sources = table.index.get_level_values("line").isin(range(90, 99))
    assert sources.sum() == 26 and (table.loc[sources, "reason"] == "citation").all()


def test_the_papers_no_ties_is_located_by_its_words(checked):
    words = [row for row in read_ledger(LEDGER) if row.kind == "words" and row.line == 9]
    assert [(row.printed, row.claims) for row in words] == [("No ties occurred", ["count.ties.three_class"])]
    assert checked[1].iloc[0]["claimed_in_words"] == 7


def test_a_claim_the_ledger_no_longer_locates_stops_the_check(claims, document, tmp_path):
    # the row of "all six humans called neutral" left unreviewed: under strict_ledger the
    # check names that number, and the claim it located is located nowhere
    text = LEDGER.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith(f"{WRITEUP.name}\t19\t376\t"))
    cells = row.split("\t")
    cells[5:8] = ["unreviewed", "", ""]
    ledger = tmp_path / "ledger.tsv"
    ledger.write_text(text.replace(row, "\t".join(cells)), encoding="utf-8")
    with pytest.raises(LedgerError) as raised:
        check_paper("jayanetti2026", claims, document, ledger, strict=True)
    said = str(raised.value)
    assert "1 numbers of 000_bf7d41fdc7212778.txt are unreviewed" in said and "line 19, column 376" in said
    assert "claim count.humans.translation_error.neutral (6, where" in said and "is located by no row" in said
