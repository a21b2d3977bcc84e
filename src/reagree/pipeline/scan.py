"""Every number a text prints: where it is, its exact text, its value, its printed precision.

``reagree scan DOCUMENT`` and the ledger check (``reagree.pipeline.ledger``) read a
document through ``scan_text``. What it decides, so that two readers of one document
always find the same numbers at the same places:

- **Places.** Lines are split on ``\\n`` (a trailing ``\\r`` dropped) and counted from 1;
  a column is the 1-based index of the number's first character in its line, counted in
  characters (not bytes; a tab is one character). The printed text is the exact slice of
  the line: ``lines[line - 1][column - 1:column - 1 + len(printed)]``.
- **Numeral forms** read to a value and a precision (``decimals``: digits after the
  decimal point in the printed units, negative for a scale word): ``.430`` (0.430, 3),
  ``0,67`` (a decimal comma: 0.67, 2; ``19,991`` with three digits after the comma is
  thousands: 19991, 0), ``100_000``, ``9.3%`` (9.3 in percent, 1: ``unit`` ``%``, as for
  ``74 percent`` and ``10% points``), ``6.08e-04`` (0.000608, 6), ``6.08\\times10^{-4}``
  and ``6.08×10⁻⁴`` (the same, in LaTeX and in Unicode), ``−0.137`` (a Unicode minus),
  ``+0.015``, ``1.6 million`` (1600000, -5), ``3rd`` (3). A sign belongs to a number only
  where nothing but space, an opening bracket or an operator stands before it, so
  ``0.55-0.67`` is two numbers.
- **Ranges.** ``0.55-0.67``, ``2–4%``, ``74 to 79 percent``, ``0.014 to 0.128``: each end
  is a number of its own, with ``relation`` ``range from`` / ``range to`` and ``partner``
  the other end's ``line:column``. A hyphen or a dash makes a range only when the second
  end is the larger (``3-3`` and ``2-2-1`` are votes, not ranges); ``to`` always does. A
  percent unit printed after the second end (``2–4%``) belongs to the first too.
  ``0.127 ± 0.024``: the half-width has relation ``±``, the centre ``± centre``.
- **A date is one number**: ``7 October 2026`` is 20261007, ``Sep. 2014`` 201409,
  ``2026-07-19`` 20260719 (``form`` ``date``). In ``June—Sep. 2013`` and ``29 June and 13
  August 2026`` the first date takes its year from the second. A bare year (``2023``) is
  an ordinary number whose kind is guessed ``date``.
- **Names are not numbers.** Digits touching a letter or an underscore belong to a name
  (``Qwen3-32B``, ``R1``, ``seg_v4``, ``P468903``, a commit ``6baa8a8``, ``2x2``, ``F_1``,
  ``Acc±1``), and so does a number inside a hyphenated name (``GPT-4``,
  ``Llama-4-Maverick``), a dotted version or catalogue number (``0.20.1``, ``1.3.1``,
  ``3/1.01.07``), a URL, a domain and an ``arXiv:``/``doi:`` identifier. Ordinals (``3rd``)
  and decades (``2000s``) are numbers.
- **Number words count where they state a number**: the cardinals ``zero`` and ``two`` to
  ``ninety-nine``, with ``hundred``/``thousand``/``million`` (``Seven``, ``Four hundred``);
  ``one`` only in a ratio (``one in five``, ``one item in ten``: one number, 0.2 and 0.1),
  before ``of``, ``to`` or ``or`` and a count (``one of four``, ``one to three``) or before
  ``percent``; ``none of 360`` (0);
  fractions (``half``, ``halve``, ``a third of``, ``one third``, ``two thirds``: 0.5, 1/3,
  2/3); multipliers (``twice`` 2, ``thrice`` 3, ``tenfold`` 10). A word that is not a whole
  number has no ``decimals``: it is exact, and a claim may round it to any digits. The
  pronoun ``one``, ordinal words (``first``, ``the third line``), ``no``, ``single``,
  ``double``, ``pair`` and ``dozen`` are not numbers.
- **Kinds are guesses** (``KINDS``) from the number and the words around it, for a reader
  to confirm: a number on a line of code (Python or shell; a ``#`` comment on such a line
  is prose) is ``code``; inside a LaTeX formula (unless the formula is the number alone,
  like ``$-0.0021$``) ``formula``; after ``Table``, ``Fig``, ``Section``, ``§`` or ``row``, or a
  list item's number, ``reference``; in ``[12]``-style brackets or in a reference-list
  entry ``citation``; after ``p =`` ``p_value``; a date or a year ``date``; a seed, draws or
  folds ``setting``; with a percent unit ``percent``; a range end near "interval", "CI" or
  "bootstrap", or a ``±`` half-width, ``interval_end``; a decimal within [-1, 1]
  ``coefficient``; a whole number ``count``; a fraction or multiplier word ``ratio``; else
  ``number``. ``RESULT_KINDS`` are the ones that look like results.

One regular-expression pass over the text, then one pass over its matches: the same text
always gives the same numbers, in document order.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pandas as pd

from reagree.io import reads

#: Every kind a number may be guessed as (module docstring).
KINDS = (
    "coefficient",
    "interval_end",
    "percent",
    "p_value",
    "count",
    "ratio",
    "number",
    "date",
    "reference",
    "citation",
    "setting",
    "code",
    "formula",
)
#: Kinds that look like results: the numbers ``reagree new-paper --document`` drafts claims for.
RESULT_KINDS = ("coefficient", "interval_end", "percent", "p_value", "count", "ratio", "number")
#: The columns of ``reagree scan``'s table, in order.
SCAN_COLUMNS = (
    "line",
    "column",
    "printed",
    "value",
    "decimals",
    "unit",
    "form",
    "kind",
    "relation",
    "partner",
    "context",
)
CONTEXT_CHARS = 40


@dataclass(frozen=True)
class Printed:
    """One number as a text prints it (module docstring): its place, its exact text, its
    exact value (a fraction: 1/3 stays 1/3) and precision, and what it looks like."""

    line: int
    column: int
    printed: str
    value: Fraction | None
    decimals: int | None
    unit: str = ""
    form: str = "numeral"
    kind: str = "number"
    relation: str = ""
    partner: str = ""
    context: str = ""
    start: int = 0
    end: int = 0

    @property
    def place(self) -> str:
        return f"{self.line}:{self.column}"

    @property
    def value_text(self) -> str:
        """The value as decimal text, to its printed precision (``0.430``; ``1600000``);
        a fraction word to 12 digits; empty when unknown (a date without its year)."""
        if self.value is None:
            return ""
        if self.decimals is None:
            return _decimal_text(self.value, 12).rstrip("0").rstrip(".") or "0"
        return _decimal_text(self.value, max(self.decimals, 0))


def _decimal_text(value: Fraction, places: int) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{exact.quantize(Decimal(1).scaleb(-places)):f}"


# --------------------------------------------------------------------------- the pattern

_MINUS = "\u2212"
_SIGN = rf"[-+{_MINUS}]"
# A sign stands at the start or after space, an opening bracket or an operator; anything
# else before a '-' makes it a hyphen or a dash (0.55-0.67 is two numbers).
_SIGN_HERE = r"(?<![^\s(\[{=,:;$/<>~\u2248\u2264\u2265|\"'])"
_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar"
    r"|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
_DAY = r"(?:[12][0-9]|3[01]|0?[1-9])"
_YEAR = r"[12][0-9]{3}"
_SMALL = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "zero": 0,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
_DENOMINATORS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fifth": 5,
    "fifths": 5,
    "tenth": 10,
    "tenths": 10,
}
_CARD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven"
    r"|eight|nine)\b)?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|zero"
    r"|one|two|three|four|five|six|seven|eight|nine)"
)
_CARDINAL = rf"{_CARD}(?:\s+hundred(?:\s+(?:and\s+)?{_CARD})?)?(?:\s+(?:thousand|million|billion))?"
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", f"0123456789{_MINUS}+")
_PERCENT = r"(?:\s?%|\s+(?:percent|per\s+cent|percentage\s+points)\b)"
_SCALE = r"(?:\s+(?:thousand|million|billion)\b)"

_PARTS = [
    # skipped: links and identifiers whose digits are not numbers
    (
        "url",
        r"(?:https?://|www\.)\S+|\b(?:[A-Za-z0-9-]+\.)+(?:com|org|net|io|edu|gov|si|uk|de|ac)\b(?:/[^\s)\]]*)?"
        r"|\b(?:arXiv|doi|DOI|hdl|ISBN|ISSN):\s?\S+",
    ),
    # dates: each one number
    (
        "iso",
        rf"(?<![\w.])(?P<iso_y>{_YEAR})-(?P<iso_m>0[1-9]|1[0-2])(?:-(?P<iso_d>0[1-9]|[12][0-9]|3[01]))?"
        r"(?![\w-])",
    ),
    ("dmy", rf"(?<![\w.])(?P<dmy_d>{_DAY})\s+(?P<dmy_m>{_MONTH})\b\.?(?:,?\s+(?P<dmy_y>{_YEAR})\b)?"),
    ("mdy", rf"\b(?P<mdy_m>{_MONTH})\.?\s+(?P<mdy_d>{_DAY}),\s+(?P<mdy_y>{_YEAR})\b"),
    ("my", rf"\b(?P<my_m>{_MONTH})\b\.?,?\s+(?P<my_y>{_YEAR})\b"),
    ("mrange", rf"\b(?P<mrange_m>{_MONTH})\b\.?(?=\s*[-\u2013\u2014]\s*{_MONTH}\b\.?\s+{_YEAR}\b)"),
    # scientific notation in LaTeX or Unicode, then e-notation
    (
        "latex",
        rf"(?:{_SIGN_HERE}(?P<latex_s>{_SIGN}))?(?P<latex_m>[0-9]+(?:\.[0-9]+)?)\s*(?:\\times|\\cdot|×|·)\s*"
        rf"10\s*(?:\^\s*(?:\{{\s*(?P<latex_e1>{_SIGN}?[0-9]+)\s*\}}|(?P<latex_e2>{_SIGN}?[0-9]+))"
        r"|(?P<latex_e3>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))",
    ),
    (
        "enote",
        rf"(?:{_SIGN_HERE}(?P<enote_s>{_SIGN}))?(?P<enote_m>[0-9]+(?:\.[0-9]+)?|\.[0-9]+)[eE]"
        rf"(?P<enote_e>{_SIGN}?[0-9]+)(?![\w.])",
    ),
    ("ordinal", r"(?<![\w.])(?P<ordinal_n>[0-9]+)(?:st|nd|rd|th)\b"),
    ("decade", r"(?<![\w.])(?P<decade_n>[12][0-9]{2}0)s\b"),
    # names: digits touching letters (and what is hyphenated or dotted to them), versions
    (
        "name",
        r"(?<![\w.])(?![0-9]{1,3}(?:_[0-9]{3})+(?!\w))(?:[A-Za-z_]\w*[-.])*\w*(?:[A-Za-z_][0-9]|[0-9][A-Za-z_])"
        r"\w*(?:[-.]\w+)*"
        r"|(?<![\w.])[0-9]+(?:\.[0-9]+){2,}(?![0-9])|(?<![\w.])[0-9]+/[0-9]+(?:\.[0-9]+)+"
        r"|\b[A-Za-z]+(?:±|\\pm\s?)[0-9]+\b",
    ),
    # numerals: a sign, thousands separators or a decimal comma, a scale word, a percent unit
    (
        "number",
        rf"(?:{_SIGN_HERE}(?P<number_s>{_SIGN}))?"
        r"(?P<number_n>[0-9]{1,3}(?:_[0-9]{3})+(?!\w)|[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?(?![0-9])"
        r"|[1-9][0-9]{0,2}(?:[\u2009\u202f\u00a0][0-9]{3})+(?![0-9])"
        r"|(?<![0-9,({\[])[0-9]+,[0-9]+(?![0-9,])|[0-9]+\.[0-9]+|\.[0-9]+|[0-9]+)"
        rf"(?P<number_scale>{_SCALE})?(?P<number_pct>{_PERCENT})?",
    ),
    # number words (any case)
    ("none", rf"(?i:\bnone(?=\s+of\s+(?:the\s+)?(?:[0-9]|{_CARD}\b)))"),
    ("ratio", rf"(?i:\bone\s+(?:[a-z]+\s+){{0,2}}?in\s+(?:every\s+)?(?P<ratio_d>{_CARD}|[0-9]{{1,3}})\b)"),
    (
        "fraction",
        r"(?i:\b(?:a|one)[\s-](?:third|quarter|fifth|tenth)\b(?=\s+of\b)|\bone[\s-](?:third|quarter|fifth"
        r"|tenth)\b|\b(?:a|one)[\s-]half\b|\bhalve[sd]?\b|\bhalf\b)",
    ),
    ("multiplier", rf"(?i:\b(?:twice|thrice)\b|\b{_CARD}fold\b)"),
    (
        "word",
        rf"(?i:\b(?P<word_n>{_CARDINAL})\b(?P<word_frac>\s+(?:thirds|quarters|fifths|tenths)\b)?"
        rf"(?P<word_pct>\s+(?:percent|per\s+cent)\b)?)",
    ),
]
_PATTERN = re.compile("|".join(f"(?P<{name}>{regex})" for name, regex in _PARTS))
_NAMES = [name for name, _ in _PARTS]
_SKIPPED = ("url", "name")

# --------------------------------------------------------------------------- reading values


def _numeral(text: str) -> tuple[Fraction, int]:
    """Value and decimals of a numeral's digits (thousands separators, a decimal comma)."""
    digits = text.replace("_", "").replace("\u2009", "").replace("\u202f", "").replace("\u00a0", "")
    if re.fullmatch(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+(?:\.[0-9]+)?", digits):
        digits = digits.replace(",", "")
    else:
        digits = digits.replace(",", ".")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return Fraction(Decimal(digits)), decimals


def _signed(value: Fraction, sign: str | None) -> Fraction:
    return -value if sign in ("-", _MINUS) else value


def _exponent(text: str) -> int:
    return int(text.translate(_SUPERSCRIPT).replace(_MINUS, "-"))


def _cardinal(text: str) -> int:
    """The value of a cardinal phrase ("Four hundred", "twenty-one", "seven thousand")."""
    total, current = 0, 0
    for word in re.split(r"[\s-]+", text.lower()):
        if word in _SMALL:
            current += _SMALL[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
    return total + current


def _word_value(text: str) -> Fraction:
    text = text.lower()
    return Fraction(_SMALL[text]) if text in _SMALL else Fraction(_cardinal(text))


def _date(year: str | None, month: str, day: str | None) -> Fraction | None:
    if year is None:
        return None
    number = int(year) * 100 + month_number(month)
    return Fraction(number * 100 + int(day) if day else number)


def month_number(name: str) -> int:
    """1 to 12 for a month's name, abbreviation (``Sep.``) or two digits (``07``)."""
    return int(name) if name.isdigit() else _MONTHS[name.lower().rstrip(".")]


def _read(match: re.Match) -> dict | None:
    """The number one match of the pattern stands for, or None for a skipped name."""
    group = next(name for name in _NAMES if match.group(name) is not None)
    if group in _SKIPPED:
        return None
    item = {"start": match.start(), "end": match.end(), "unit": "", "form": "numeral", "group": group, "sign": False}
    g = match.group
    if group == "iso":
        item.update(value=_date(g("iso_y"), g("iso_m"), g("iso_d")), decimals=0, form="date")
    elif group in ("dmy", "mdy", "my", "mrange"):
        year, day = g(f"{group}_y") if group != "mrange" else None, g(f"{group}_d") if group in ("dmy", "mdy") else None
        value = _date(year, g(f"{group}_m"), day)
        item.update(value=value, decimals=0, form="date", year=year, month=g(f"{group}_m"), day=day)
    elif group == "latex":
        value, decimals = _numeral(g("latex_m"))
        exponent = _exponent(g("latex_e1") or g("latex_e2") or g("latex_e3"))
        item.update(
            value=_signed(value * Fraction(10) ** exponent, g("latex_s")),
            decimals=decimals - exponent,
            form="scientific",
            sign=bool(g("latex_s")),
        )
    elif group == "enote":
        value, decimals = _numeral(g("enote_m"))
        exponent = _exponent(g("enote_e"))
        item.update(
            value=_signed(value * Fraction(10) ** exponent, g("enote_s")),
            decimals=decimals - exponent,
            form="scientific",
            sign=bool(g("enote_s")),
        )
    elif group == "ordinal":
        item.update(value=Fraction(int(g("ordinal_n"))), decimals=0, form="ordinal")
    elif group == "decade":
        item.update(value=Fraction(int(g("decade_n"))), decimals=0, decade=True)
    elif group == "number":
        value, decimals = _numeral(g("number_n"))
        if g("number_scale"):
            scale = _SCALES[g("number_scale").strip().lower()]
            value, decimals = value * scale, decimals - len(str(scale)) + 1
        item.update(
            value=_signed(value, g("number_s")),
            decimals=decimals,
            unit="%" if g("number_pct") else "",
            sign=bool(g("number_s")),
        )
        if g("number_pct"):  # the printed text ends at the unit, but "10% points" keeps " points" as words
            item["end"] = match.start("number_pct") + len(g("number_pct"))
    elif group == "none":
        item.update(value=Fraction(0), decimals=0, form="word")
    elif group == "ratio":
        denominator = g("ratio_d")
        count = int(denominator) if denominator.isdigit() else _word_value(denominator)
        item.update(value=Fraction(1, int(count)) if count else None, decimals=None, form="word", ratio=True)
    elif group == "fraction":
        words = re.split(r"[\s-]+", g("fraction").lower())
        item.update(value=Fraction(1, _DENOMINATORS.get(words[-1], 2)), decimals=None, form="word", ratio=True)
    elif group == "multiplier":
        text = g("multiplier").lower()
        factor = {"twice": 2, "thrice": 3}.get(text) or _word_value(text[:-4])
        item.update(value=Fraction(factor), decimals=0, form="word", ratio=True)
    else:  # word
        value = _word_value(g("word_n"))
        if g("word_frac"):
            item.update(
                value=value / _DENOMINATORS[g("word_frac").strip().lower()], decimals=None, form="word", ratio=True
            )
        else:
            if value == 1 and not g("word_pct") and not _ONE_OF.match(match.string, match.end()):
                return None  # the pronoun "one"
            if match.string.startswith("-shot", match.end()):
                return None  # zero-shot, two-shot: a method's name
            item.update(value=value, decimals=0, form="word", unit="%" if g("word_pct") else "")
    return item


_ONE_OF = re.compile(rf"(?i:\s+(?:of\s+(?:the\s+)?|to\s+|or\s+)(?:[0-9]+|{_CARD})\b)")

# --------------------------------------------------------------------------- lines: code, formulas

_CODE_START = re.compile(
    r"\s*(?:def |class |import |from \S+ import |for |while |if |elif |else:|try:|except\b|with |return\b|print\("
    r"|raise |yield |lambda |@\w|assert |pass$|break$|continue$|\"\"\"|'''|curl |git |cd |python3? |pip3? "
    r"|mkdir |sha256sum |snakemake |\S+/bin/\S+ )"
)
_ASSIGN = re.compile(r"(?: {4})*[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\s*,\s*[A-Za-z_][\w.]*)*\s*[-+*/]?=(?!=)\s*\S")
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+?\$|\\\[.+?\\\]|\\\(.+?\\\)")


def _code_part(line: str) -> int:
    """Where the code of a code line ends: at its ``#`` comment outside quotes, or its end."""
    single = double = False
    for index, char in enumerate(line):
        if char == '"' and not single:
            double = not double
        elif char == "'" and not double:
            single = not single
        elif char == "#" and not single and not double and (index == 0 or line[index - 1].isspace()):
            return index
    return len(line)


def _code_lines(lines: list[str]) -> dict[int, int]:
    """``{line index: end of its code}`` for the lines that are code: a Python or shell
    statement, an indented line of a block, a line inside a docstring or inside brackets
    a code line opened. A line starting with ``#`` is a comment, read as prose."""
    code: dict[int, int] = {}
    in_docstring, depth = False, 0
    for index, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        is_code = (
            in_docstring
            or depth > 0
            or (
                not stripped.startswith("#")
                and (
                    bool(_CODE_START.match(line))
                    or bool(_ASSIGN.match(line))
                    or (indent >= 4 and indent % 4 == 0 and any(c in stripped for c in "()[]=:") and "\t" not in line)
                )
            )
        )
        if not is_code:
            continue
        end = _code_part(line)
        code[index] = end
        statement = line[:end]
        if statement.count('"""') % 2 or statement.count("'''") % 2:
            in_docstring = not in_docstring
        if not in_docstring:
            depth = max(0, depth + sum(statement.count(c) for c in "([{") - sum(statement.count(c) for c in ")]}"))
    return code


# --------------------------------------------------------------------------- kinds

_REFERENCE_BEFORE = re.compile(
    r"(?:\b(?:Table|Tables|Fig|Figs|Figure|Figures|Section|Sections|Sec|Eq|Eqs|Equation|Equations|Appendix|Chapter"
    r"|Chapters|Step|Steps|row|rows|Row|Rows)\.?|§)\s*(?:[0-9]+(?:\.[0-9]+)*[a-z]?\s*(?:,|and|to|or|-|–|&)\s*)*$"
)
_CITATION_BRACKETS = re.compile(r"\[\s*[0-9]+(?:\s*[-–,]\s*[0-9]+)*\s*\]")
_LIST_ITEM = re.compile(r"\s*[0-9]+\.\s")
_REFERENCE_ENTRY = re.compile(r"\s*(?:[0-9]+\.|•|\[[0-9]+\])\s+(?:.*?\b)?[A-Z][a-zà-ž]+,\s+(?:[A-Z]\.|[A-Z][a-z]+,)")
_P_VALUE_BEFORE = re.compile(r"(?:\bp\s*(?:=|<|>|≤|≥)|\bp[- ]values?\s*(?:of|=|<|is)?)\s*$")
_SETTING_AFTER = re.compile(
    r"\s*(?:-|\s)?(?:draws?|resamples?|bootstrap\s+samples?|folds?|random\s+rotations?"
    r"|iterations?|seeds?)\b"
)
_SETTING_BEFORE = re.compile(r"\b(?:seed|seeds|random_state)\s*[=:]?\s*$")
_INTERVAL_NEAR = re.compile(r"interval|\bCI\b|confidence|bootstrap|percentile|±|plus or minus")
_INTERVAL_BRACKET = re.compile(r"(?:\bCI|interval)\s*[\[(][^\])]*$")
_COUNT_BEFORE = re.compile(r"\bn\s*=\s*$")
_PLURAL = re.compile(r"[a-z]{3,}s\b")


def _kind(item: dict, line: str, column: int, code_end: int | None, math: list[tuple[int, int]]) -> str:
    start, end = column, column + len(item["printed"])
    before, after = line[:start], line[end:]
    if item["form"] == "date" or item.get("decade"):
        return "date"
    if code_end is not None and start < code_end:
        return "code"
    for low, high in math:
        if low <= start and end <= high:
            inner = line[low:high].strip("$").removeprefix("\\[").removesuffix("\\]").strip()
            return "formula" if inner != item["printed"] else _plain_kind(item, before, after)
    for bracket in _CITATION_BRACKETS.finditer(line):
        if bracket.start() <= start and end <= bracket.end():
            return "citation"
    if _REFERENCE_BEFORE.search(before) or (start == len(line) - len(line.lstrip()) and _LIST_ITEM.match(line)):
        return "reference"
    if _REFERENCE_ENTRY.match(line):
        return "citation"
    return _plain_kind(item, before, after)


def _plain_kind(item: dict, before: str, after: str) -> str:
    value, decimals = item["value"], item["decimals"]
    if _P_VALUE_BEFORE.search(before):
        return "p_value"
    if _SETTING_AFTER.match(after) or _SETTING_BEFORE.search(before):
        return "setting"
    if item["unit"] == "%":
        return "percent"
    if (
        item["relation"] == "±"
        or _INTERVAL_BRACKET.search(before)
        or (item["relation"].startswith("range") and _INTERVAL_NEAR.search(before[-60:]))
    ):
        return "interval_end"
    if item.get("ratio"):
        return "ratio"
    if value is None:
        return "number"
    whole = decimals is not None and decimals <= 0 and value.denominator == 1
    if (
        whole
        and item["form"] == "numeral"
        and not item["sign"]
        and 1900 <= value <= 2099
        and re.fullmatch(r"[0-9]{4}", item["printed"])
        and not _COUNT_BEFORE.search(before)
        and not any(_PLURAL.fullmatch(w) for w in after.split()[:2])
    ):
        return "date"
    if whole:
        return "count"
    if decimals is not None and decimals > 0 and abs(value) <= 1:
        return "coefficient"
    return "number"


# --------------------------------------------------------------------------- relations

_RANGE_DASH = re.compile(r"[-\u2013\u2014]|\s[\u2013\u2014]\s")
_RANGE_TO = re.compile(r"\s+to\s+")
_PLUS_MINUS = re.compile(r"\s*(?:±|\+-|\+/-|\\pm)\s*")
_YEAR_FROM_NEXT = re.compile(r"\s*(?:[-\u2013\u2014]|and|to|until|through)\s*")


def _relate(items: list[dict], text: str) -> None:
    """Ranges, ± pairs and dates that take their year from the next date (docstring)."""
    for a, b in zip(items, items[1:]):
        if a["line"] != b["line"]:
            continue
        gap = text[a["end"] : b["start"]]
        if (
            a["form"] == "date"
            and a["value"] is None
            and b["form"] == "date"
            and b.get("year")
            and _YEAR_FROM_NEXT.fullmatch(gap)
        ):
            a["value"] = _date(b["year"], a["month"], a.get("day"))
            continue
        numeric = {"numeral", "scientific", "word"}
        if (
            a["form"] not in numeric
            or b["form"] not in numeric
            or a["value"] is None
            or b["value"] is None
            or a.get("ratio")
            or b.get("ratio")
        ):
            continue
        if _PLUS_MINUS.fullmatch(gap) and not a["relation"]:
            a.update(relation="± centre", partner=b)
            b.update(relation="±", partner=a)
        elif (
            not a["relation"]
            and ((_RANGE_DASH.fullmatch(gap) and b["value"] > a["value"] and not b["sign"]) or _RANGE_TO.fullmatch(gap))
            and a["unit"] in ("", b["unit"])
        ):
            a.update(relation="range from", partner=b, unit=b["unit"])
            b.update(relation="range to", partner=a)


# --------------------------------------------------------------------------- the scan


def _rejected(item: dict, line: str, column: int, in_math: bool) -> bool:
    """Digits that belong to a name after all (docstring): touching a letter, or inside a
    hyphenated name."""
    if item["form"] in ("date", "word"):
        return False
    before = line[:column]
    after = line[column + item["end"] - item["start"] :]
    if before[-1:].isalnum() or before[-1:] == "_" or (before[-1:] == "." and before[-2:-1].isalnum()):
        return True
    if after[:1].isalpha() or after[:1] == "_":
        return True
    if not in_math and not item["sign"]:
        if re.search(r"[A-Z]-$", before):
            return True
        if re.search(r"[A-Za-z]-$", before) and re.match(r"-[A-Za-z]", after):
            return True
    return False


def scan_text(text: str) -> list[Printed]:
    """Every number ``text`` prints, in document order (module docstring)."""
    lines = text.split("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    starts = [0]
    for line in text.split("\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    code = _code_lines(lines)
    math = {
        index: [(m.start(), m.end()) for m in _MATH.finditer(line)]
        for index, line in enumerate(lines)
        if "$" in line or "\\[" in line or "\\(" in line
    }
    items = []
    for match in _PATTERN.finditer(text):
        item = _read(match)
        if item is None:
            continue
        index = bisect.bisect_right(starts, item["start"]) - 1
        line, column = lines[index], item["start"] - starts[index]
        if item["end"] > starts[index] + len(line):  # a match never spans lines; a "\r" is not printed
            item["end"] = starts[index] + len(line)
        in_math = any(low <= column < high for low, high in math.get(index, []))
        if _rejected(item, line, column, in_math):
            continue
        item.update(
            line=index + 1, column=column + 1, printed=text[item["start"] : item["end"]], relation="", partner=None
        )
        items.append(item)
    _relate(items, text)
    for item in items:
        index = item["line"] - 1
        item["kind"] = _kind(item, lines[index], item["column"] - 1, code.get(index), math.get(index, []))
    for item in items:  # the two ends of an interval are both its ends
        if (
            item["relation"].startswith("range")
            and item["partner"]["kind"] == "interval_end"
            and item["kind"] == "coefficient"
        ):
            item["kind"] = "interval_end"
    numbers = []
    for item in items:
        index, column = item["line"] - 1, item["column"] - 1
        line, kind = lines[index], item["kind"]
        end = column + len(item["printed"])
        context = (
            re.sub(r"\s+", " ", line[max(0, column - CONTEXT_CHARS) : column])
            + "«"
            + item["printed"]
            + "»"
            + re.sub(r"\s+", " ", line[end : end + CONTEXT_CHARS])
        )
        partner = item["partner"]
        numbers.append(
            Printed(
                line=item["line"],
                column=item["column"],
                printed=item["printed"],
                value=item["value"],
                decimals=item["decimals"],
                unit=item["unit"],
                form=item["form"],
                kind=kind,
                relation=item["relation"],
                partner=f"{partner['line']}:{partner['column']}" if partner else "",
                context=context.strip(),
                start=item["start"],
                end=item["end"],
            )
        )
    return numbers


def read_document(path: str | Path) -> str:
    """A document's text (UTF-8; a BOM dropped); anything else is one line naming the file.
    Read through ``reagree.io.reads``, so a rule job remembers the sha256 of the very bytes
    it scanned."""
    path = Path(path)
    try:
        return reads.read_text(path, encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path}: not UTF-8 text ({error.reason} at byte {error.start}); reagree reads text and "
            "Markdown documents (a PDF: convert it first, docs/adding-a-paper.md)"
        ) from None
    except FileNotFoundError:
        raise ValueError(f"{path}: no such document") from None


def scan_document(path: str | Path) -> list[Printed]:
    return scan_text(read_document(path))


def scan_table(numbers: list[Printed]) -> pd.DataFrame:
    """The numbers as ``reagree scan`` prints them (``SCAN_COLUMNS``)."""
    rows = [
        {
            "line": n.line,
            "column": n.column,
            "printed": n.printed,
            "value": n.value_text,
            "decimals": "" if n.decimals is None else n.decimals,
            "unit": n.unit,
            "form": n.form,
            "kind": n.kind,
            "relation": n.relation,
            "partner": n.partner,
            "context": n.context,
        }
        for n in numbers
    ]
    return pd.DataFrame(rows, columns=list(SCAN_COLUMNS))


def scan_tsv(numbers: list[Printed]) -> str:
    """The scan table as TSV text (no quoting: a cell never holds a tab or a newline)."""
    lines = ["\t".join(SCAN_COLUMNS)]
    for row in scan_table(numbers).astype(str).itertuples(index=False):
        lines.append("\t".join(cell.replace("\t", " ") for cell in row))
    return "\n".join(lines) + "\n"


def claim_text(number: Printed) -> str:
    """The number as a claim's ``published`` cell writes it: read back by
    ``reagree.pipeline.yamlio.PrintedNumber`` to the same value and precision (``−0.137``
    -> ``-0.137``, ``0,67`` -> ``0.67``, ``6.08\\times10^{-4}`` -> ``6.08e-04``, ``1.6
    million`` -> ``1.6e6``, ``Seven percent`` -> ``7%``, ``one in five`` -> ``0.2``,
    ``7 October 2026`` -> ``20261007``)."""
    percent = "%" if number.unit == "%" else ""
    if number.value is None:
        return ""
    if number.decimals is None:  # an exact fraction word: to three decimals unless it ends sooner
        exact = number.value_text
        places = len(exact.split(".")[1]) if "." in exact else 0
        return (exact if places <= 3 else _decimal_text(number.value, 3)) + percent
    if number.form == "numeral" and number.decimals >= 0 and not re.search(r"[a-z]", number.printed, re.I):
        text = re.sub(r"\s?%$", "", number.printed).replace(_MINUS, "-")
        text = re.sub(r"[\u2009\u202f\u00a0_]", "", text)
        if re.fullmatch(r"[-+]?[0-9]+,[0-9]+", text) and not re.fullmatch(r"[-+]?[1-9][0-9]{0,2}(?:,[0-9]{3})+", text):
            text = text.replace(",", ".")
        return text + percent
    if number.decimals < 0 or number.form == "scientific":
        digits = Decimal(number.value.numerator) / Decimal(number.value.denominator)
        exponent = -number.decimals
        mantissa = digits.scaleb(-exponent).quantize(Decimal(1))
        sign = "+" if number.printed.startswith("+") else ""
        if number.form == "scientific":  # keep the printed mantissa's digits: 6.08e-04
            shift = len(str(abs(int(mantissa)))) - 1
            return f"{sign}{mantissa.scaleb(-shift)}e{exponent + shift:+03d}".replace("e+", "e+") + percent
        return f"{sign}{mantissa}e{exponent}" + percent
    return number.value_text + percent


def agrees(number: Printed, published: str, compare: str = "value", approximate: str = "") -> bool:
    """Whether a claim's printed text ``published`` quotes ``number``: the same value at the
    same precision, or the number read as a proportion (``77.8`` or ``31.6%`` claimed as
    ``0.778``, ``0.316``: two more decimals), or its magnitude (``compare: abs``); a fraction
    word agrees with its value rounded to the claim's digits (``one in five`` -> ``0.2``).
    A claim with an ``approximate`` word reads a whole percent's trailing zeros as not
    significant (``reagree.pipeline.printed.significant_unit``), so its proportion may drop
    them: "almost 10% points" is ``0.1`` (one significant digit) as well as ``0.10``."""
    from reagree.pipeline.yamlio import plain_number_text

    text, _ = plain_number_text(published)
    try:
        claimed = Decimal(text)
    except ArithmeticError:
        return False
    if number.value is None or not claimed.is_finite():
        return False
    places = -claimed.as_tuple().exponent
    value = Fraction(claimed)
    printed = number.value
    if compare == "abs":
        value, printed = abs(value), abs(printed)
    if number.decimals is None:
        return abs(value - printed) <= Fraction(1, 2) * Fraction(10) ** -places
    if value == printed and places == number.decimals:
        return True
    fewest = number.decimals + 2
    if approximate and number.decimals == 0 and printed != 0:
        whole = str(abs(printed.numerator))
        fewest -= len(whole) - len(whole.rstrip("0"))
    return value == printed / 100 and fewest <= places <= number.decimals + 2


__all__ = [
    "KINDS",
    "RESULT_KINDS",
    "SCAN_COLUMNS",
    "Printed",
    "agrees",
    "claim_text",
    "month_number",
    "read_document",
    "scan_document",
    "scan_table",
    "scan_text",
    "scan_tsv",
]
