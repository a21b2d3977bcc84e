"""`reagree scan`: every printed form read to its value and precision, the number words that
count and those that do not, ranges and ± pairs, names that are not numbers, the kind
guesses, and a run on each seed text in which every number is at its place.

Expected values are worked by hand from the printed text (``.430`` is 430/1000 with three
decimals; ``one in five`` is 1/5); expected places come from ``str.find`` on the line,
never from the scanner.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from reagree.cli import main
from reagree.pipeline.scan import RESULT_KINDS, agrees, claim_text, scan_text, scan_tsv
from reagree.pipeline.yamlio import PrintedNumber

from conftest import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"


def only(text: str, printed: str):
    """The one number of ``text`` printed as ``printed``, checked to sit where str.find says."""
    found = [n for n in scan_text(text) if n.printed == printed]
    assert len(found) == 1, [(n.printed, n.line, n.column) for n in scan_text(text)]
    number = found[0]
    line = text.split("\n")[number.line - 1]
    assert number.column == line.find(printed) + 1
    return number


# (sentence, printed text, value, decimals, unit, form): each worked by hand from the print
FORMS = [
    ("Fleiss kappa was .430 on all units.", ".430", Fraction(430, 1000), 3, "", "numeral"),
    ("Le kappa vaut 0,67 ici.", "0,67", Fraction(67, 100), 2, "", "numeral"),
    ("Ser/Cro/Bos\t19,991\t9.3%", "19,991", Fraction(19991), 0, "", "numeral"),
    ("Ser/Cro/Bos\t19,991\t9.3%", "9.3%", Fraction(93, 10), 1, "%", "numeral"),
    ("gap +6.08e-04 at 240 items", "+6.08e-04", Fraction(608, 10**6), 6, "", "scientific"),
    (r"the gap: $6.08\times10^{-4}$ at 240 items", r"6.08\times10^{-4}", Fraction(608, 10**6), 6, "", "scientific"),
    ("the gap: 6.08×10⁻⁴ at 240 items", "6.08×10⁻⁴", Fraction(608, 10**6), 6, "", "scientific"),
    ("scores are −0.137 and +0.015, respectively", "−0.137", Fraction(-137, 1000), 3, "", "numeral"),
    ("scores are −0.137 and +0.015, respectively", "+0.015", Fraction(15, 1000), 3, "", "numeral"),
    ("over 1.6 million tweets", "1.6 million", Fraction(1_600_000), -5, "", "numeral"),
    ("RANGE = 100_000", "100_000", Fraction(100_000), 0, "", "numeral"),
    ("ThreePlaneSVM (ranked 3rd) wins", "3rd", Fraction(3), 0, "", "ordinal"),
    ("posted on 7 October 2026 (v1)", "7 October 2026", Fraction(20261007), 0, "", "date"),
    ("Slovak\t70,425\tSep. 2014", "Sep. 2014", Fraction(201409), 0, "", "date"),
    ("last commit 2026-07-19 on main", "2026-07-19", Fraction(20260719), 0, "", "date"),
    ("about 15% of tweets", "15%", Fraction(15), 0, "%", "numeral"),
    ("improved for 10% points (new Alpha)", "10%", Fraction(10), 0, "%", "numeral"),
    ("Seven percent of cells are missing", "Seven percent", Fraction(7), 0, "%", "word"),
    ("disagree on one item in five.", "one item in five", Fraction(1, 5), None, "", "word"),
    ("one in five raters", "one in five", Fraction(1, 5), None, "", "word"),
    ("Four hundred items halve that", "Four hundred", Fraction(400), 0, "", "word"),
    ("Four hundred items halve that", "halve", Fraction(1, 2), None, "", "word"),
    ("twenty-one pairs", "twenty-one", Fraction(21), 0, "", "word"),
    ("is roughly twice the chance level", "twice", Fraction(2), 0, "", "word"),
    ("about a third of the units", "a third", Fraction(1, 3), None, "", "word"),
    ("two thirds of the runs", "two thirds", Fraction(2, 3), None, "", "word"),
    ("none of 360 model triples", "none", Fraction(0), 0, "", "word"),
    ("shrinking tenfold each time", "tenfold", Fraction(10), 0, "", "word"),
    ("changed one of four model rankings", "one", Fraction(1), 0, "", "word"),
    ("within one to three days", "one", Fraction(1), 0, "", "word"),
]


@pytest.mark.parametrize("text, printed, value, decimals, unit, form", FORMS, ids=[f[1] for f in FORMS])
def test_every_printed_form_is_read_to_its_value_and_precision(text, printed, value, decimals, unit, form):
    number = only(text, printed)
    assert (number.value, number.decimals, number.unit, number.form) == (value, decimals, unit, form)


def test_a_date_without_its_year_takes_the_next_dates():
    first, second = scan_text("Albanian\t53,005\tJune—Sep. 2013")[1:]
    assert (first.printed, first.value, second.printed, second.value) == ("June", 201306, "Sep. 2013", 201309)
    runs = scan_text("each ran ten times between 29 June and 13 August 2026.")
    assert [(n.printed, n.value) for n in runs[1:]] == [("29 June", 20260629), ("13 August 2026", 20260813)]


# Digits that are part of a name, and words that are no number: nothing is read from them.
NOT_NUMBERS = [
    "Qwen3-32B and GPT-OSS-120B",
    "raters R1 to R6",
    "prompt seg_v4.txt",
    "commit 6baa8a8",
    "CDLI P468903",
    "GPT-4 labels",
    "Llama-4-Maverick scores",
    "TextBlob 0.20.1",
    "RIME 3/1.01.07",
    "see https://example.org/v2/table3.txt",
    "arXiv:2610.10318 (v1)",
    r"$\overline{F_1}$",
    "Acc±1",
    "a 2x2 table",
    "one might argue",
    "the first line",
    "zero-shot prompts",
    "no ties occurred",
]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_names_and_other_words_are_not_numbers(text):
    assert scan_text(text) == []


def test_ranges_keep_both_ends_and_their_relation():
    low, high = scan_text("The classifier is in the range 0.55-0.67 on most sets.")
    assert (low.printed, low.value, low.relation, low.partner) == (
        "0.55",
        Fraction(55, 100),
        "range from",
        f"1:{high.column}",
    )
    assert (high.printed, high.value, high.relation, high.partner) == (
        "0.67",
        Fraction(67, 100),
        "range to",
        f"1:{low.column}",
    )
    two, four = scan_text("(2–4% only)")
    assert (two.printed, two.unit, four.printed, four.unit) == ("2", "%", "4%", "%")
    assert (two.relation, four.relation) == ("range from", "range to")
    start, end = scan_text("match on 74 to 79 percent of the items")
    assert (start.unit, end.printed, end.relation) == ("%", "79 percent", "range to")
    votes = scan_text("a 3-3 split, or 2-2-1")
    assert [(n.printed, n.relation) for n in votes] == [("3", ""), ("3", ""), ("2", ""), ("2", ""), ("1", "")]
    centre, half = scan_text("Albanian\t0.447 ± 0.032")
    assert (centre.relation, half.relation, half.kind) == ("± centre", "±", "interval_end")


KINDS = [
    ("as Table 3 shows", "3", "reference"),
    ("Sections 3, 4, 5, Tables 1 and 2.", "5", "reference"),
    ("bootstrapping [12]. The", "12", "citation"),
    ("leave-one-out (p=0.006) holds", "0.006", "p_value"),
    ("numpy seed 0 throughout", "0", "setting"),
    ("A 2,000-draw tweet bootstrap", "2,000", "setting"),
    ("(95% interval 0.014 to 0.128)", "0.128", "interval_end"),
    ("kappa +0.766 CI [+0.601,+0.909] width", "+0.909", "interval_end"),
    ("the three tools together score 0.43 on both", "0.43", "coefficient"),
    ("in 13 European languages", "13", "count"),
    ("posted in 2023 by", "2023", "date"),
    ("     1964 complete units", "1964", "count"),
    ("    p = pi * (1 - Q) + 0.5", "0.5", "code"),
    ("print(round(k, 3))   # 0.385", "0.385", "coefficient"),
    (r"where $D_e = \frac{1}{n}$ holds", "1", "formula"),
    ("returned $-0.0021$ on data", "-0.0021", "coefficient"),
    ("5. Fleiss, J. L. Measuring agreement. Psychological Bulletin 76(5), 378 to 382, 1971.", "378", "citation"),
    ("1. Are the sentiment classes ordered?", "1", "reference"),
    ("the one-step ratio is 1.04 on Enki", "1.04", "number"),
    ("about half the time", "half", "ratio"),
    ("at 44.3% of all labels", "44.3%", "percent"),
]


@pytest.mark.parametrize("text, printed, kind", KINDS, ids=[f"{k[2]}:{k[1]}" for k in KINDS])
def test_the_kind_guesses(text, printed, kind):
    assert only(text, printed).kind == kind


def test_claim_text_reads_back_to_the_same_value_and_precision():
    for text, printed, *_ in FORMS:
        number = only(text, printed)
        claimed = claim_text(number)
        assert agrees(number, claimed), (printed, claimed)
        assert PrintedNumber(claimed) == pytest.approx(float(number.value), abs=5e-4 if number.decimals is None else 0)
    assert claim_text(only("kappa −0.137", "−0.137")) == "-0.137"
    assert claim_text(only(r"$6.08\times10^{-4}$", r"6.08\times10^{-4}")) == "6.08e-04"
    assert claim_text(only("Seven percent of", "Seven percent")) == "7%"


def test_a_claim_agrees_with_the_same_digits_only():
    number = only("chance 21.1% of units", "21.1%")
    assert agrees(number, "21.1%") and agrees(number, "21.1") and agrees(number, "0.211")
    assert not agrees(number, "0.21") and not agrees(number, "21.10") and not agrees(number, "21.2")
    kappa = only("kappa 0.40 on positive", "0.40")
    assert agrees(kappa, "0.40") and not agrees(kappa, "0.4") and not agrees(kappa, "0.41")
    assert agrees(only("scores −0.137", "−0.137"), "0.137", compare="abs")
    assert not agrees(only("scores −0.137", "−0.137"), "0.137")
    third = only("about one third cannot", "one third")
    assert agrees(third, "0.33") and agrees(third, "0.333") and not agrees(third, "0.34")


def test_an_approximate_whole_percent_may_drop_its_trailing_zeros_as_a_proportion():
    # "almost 10% points" (Mozetic et al. 2016) is read to one significant digit (docs/claims.md's
    # approximate-words rule: a whole number's trailing zeros are not significant), so its claim
    # writes the proportion 0.1; without the word, 10% is two decimals of a proportion, 0.10.
    ten = only("is almost 10% points lower", "10%")
    assert not agrees(ten, "0.1") and agrees(ten, "0.10")
    assert agrees(ten, "0.1", approximate="almost") and agrees(ten, "0.10", approximate="almost")
    assert not agrees(ten, "0.01", approximate="almost") and not agrees(ten, "0.100", approximate="almost")
    fifteen = only("about 15% of tweets", "15%")
    assert agrees(fifteen, "0.15", approximate="about") and not agrees(fifteen, "0.2", approximate="about")
    tenth = only("about 10.0% of tweets", "10.0%")
    assert not agrees(tenth, "0.1", approximate="about") and agrees(tenth, "0.100", approximate="about")


def test_scan_command_writes_the_table(tmp_path, capsys):
    document = tmp_path / "paper.txt"
    document.write_text("Fleiss 0.39 (Table 1).\nOne in five, 2–4%.\n", encoding="utf-8")
    assert main(["scan", str(document)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:4] == ["line", "column", "printed", "value"]
    assert [line.split("\t")[:5] for line in lines[1:]] == [
        ["1", "8", "0.39", "0.39", "2"],
        ["1", "20", "1", "1", "0"],
        ["2", "1", "One in five", "0.2", ""],
        ["2", "14", "2", "2", "0"],
        ["2", "16", "4%", "4", "0"],
    ]
    out = tmp_path / "numbers.tsv"
    assert main(["scan", str(document), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == "\n".join(lines) + "\n"
    (tmp_path / "latin1.txt").write_bytes("Kappa 0,5 \xe9t\xe9".encode("latin-1"))
    assert main(["scan", str(tmp_path / "latin1.txt")]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err


# --------------------------------------------------------------------------- the seed texts

#: Numbers each seed prints as the scanner reads them; the ledgers of the four papers hold
#: exactly this many rows, so a change to the scanner's rules shows here first.
SEED_COUNTS = {
    "000_bf7d41fdc7212778.txt": 291,
    "001_ed4d21bbea36bdcb.txt": 498,
    "002_248694d7fc996358.txt": 1005,
    "003_a9ecd1df83fb1f5d.txt": 290,
}
_NAMELIKE = re.compile(r"[A-Za-z_]|^[0-9]+(?:[./][0-9]+){2,}$|://|\.(?:com|org|net|si|uk)\b")


@pytest.mark.parametrize("seed", sorted(SEED_COUNTS))
def test_each_seed_is_scanned_whole_and_in_place(seed):
    path = SEEDS / seed
    if not path.is_file():
        pytest.skip(f"{path} is not here (the seed texts sit in ../shared/seeds beside the checkout)")
    text = path.read_text(encoding="utf-8")
    numbers = scan_text(text)
    assert len(numbers) == SEED_COUNTS[seed]
    assert scan_tsv(scan_text(text)) == scan_tsv(numbers)  # deterministic
    lines = text.split("\n")
    for number in numbers:
        line = lines[number.line - 1]
        assert line[number.column - 1 : number.column - 1 + len(number.printed)] == number.printed
        assert text[number.start : number.end] == number.printed
        assert agrees(number, claim_text(number)) or number.value is None, number
    # every run of digits is inside a scanned number, or inside a name, a version or a link
    covered = [False] * len(text)
    for number in numbers:
        covered[number.start : number.end] = [True] * (number.end - number.start)
    for digits in re.finditer(r"[0-9]+", text):
        if covered[digits.start()]:
            continue
        token_start = max(text.rfind(c, 0, digits.start()) for c in " \t\n(\"'[{$") + 1
        token_end = min([i for i in (text.find(c, digits.end()) for c in " \t\n)\"',;]}$") if i >= 0] + [len(text)])
        token = text[token_start:token_end].rstrip(".:")
        assert _NAMELIKE.search(token), (seed, text.count("\n", 0, digits.start()) + 1, token)
    assert {n.kind for n in numbers} <= set(RESULT_KINDS) | {
        "date",
        "reference",
        "citation",
        "setting",
        "code",
        "formula",
    }
