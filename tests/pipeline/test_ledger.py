"""The ledger check: a complete ledger passes with its counts; a missing row, a moved number, a
misquoted claim, an unlocated claim and an unreviewed row under strict_ledger each fail with
the document, line and text; region and words rows; one printed number is one figure (the
claims of a row, an internal claim located through its figure); repository claims, held
against their file with or without a ledger; documents declared in paper.yaml and in the
config; the summary's ledger columns and lines.

The document below is small enough to count by hand: line 1 prints 0.43, 2026 and Table 1's
"1"; line 2 prints 21.1% and 0.60; line 3 is a reference list printing its item number 1,
378 to 382 and 1971: nine numbers. Their columns come from str.find on the line.
"""

from __future__ import annotations

import pandas as pd
import pytest

from reagree.pipeline.documents import expand_documents, repository_of, with_documents
from reagree.pipeline.ledger import (
    Document,
    LedgerError,
    check_ledger,
    check_paper,
    read_ledger,
    unchecked_counts,
    unquoted,
)
from reagree.pipeline.sources import SourceError, source_names
from reagree.pipeline.summary import LEDGER_COLUMNS, summarise
from reagree.pipeline.yamlio import PrintedNumber

TEXT = (
    "Human raters reach only fair 0.43 agreement in 2026 (see Table 1).\n"
    "At least 21.1% agree; kappa 0.60 on positive.\n"
    "1. Fleiss, J. L. Psychological Bulletin 378 to 382, 1971.\n"
)
LINES = TEXT.split("\n")
AT = {
    printed: LINES[line].find(printed) + 1
    for line, printed in ((0, "0.43"), (0, "2026"), (0, "1)"), (1, "21.1%"), (1, "0.60"))
}
HEADER = "document\tline\tcolumn\tprinted\tkind\tstatus\tclaims\treason\tnote\n"
COMPLETE = [
    f"paper.txt\t1\t{AT['0.43']}\t0.43\tcoefficient\tclaimed\tfleiss.raters",
    f"paper.txt\t1\t{AT['2026']}\t2026\tdate\tdismissed\t\tdate",
    f"paper.txt\t1\t{AT['1)']}\t1\treference\tdismissed\t\treference",
    f"paper.txt\t2\t{AT['21.1%']}\t21.1%\tpercent\tclaimed\tshare.agree",
    f"paper.txt\t2\t{AT['0.60']}\t0.60\tcoefficient\tunreviewed",
    "paper.txt\t3-3\t\t\t\tdismissed\t\tcitation\tthe reference list",
    "paper.txt\t1\t\tfair\twords\tclaimed\tband.raters",
]


def claim(key, published, source="paper", where="Table 1", **more):
    return {
        "key": key,
        "published": PrintedNumber(published),
        "source": source,
        "where": where,
        "_where_defined": f"claims/paper.tsv ({key})",
        **more,
    }


CLAIMS = [
    claim("fleiss.raters", "0.43"),
    claim("share.agree", "0.211"),
    claim("band.raters", "0.305", where="abstract: fair agreement"),
]


def ledger(tmp_path, rows, name="ledger.tsv"):
    path = tmp_path / name
    path.write_text(HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return read_ledger(path)


def check(tmp_path, rows=COMPLETE, text=TEXT, claims=CLAIMS, strict=False):
    return check_ledger([Document("paper.txt", text)], ledger(tmp_path, rows), claims, "ledger.tsv", strict=strict)


def test_a_complete_ledger_passes_with_its_counts(tmp_path):
    result = check(tmp_path)
    assert result.errors == []
    counts = result.counts.iloc[0]
    # by hand: 0.43 2026 1 | 21.1% 0.60 | 1 378 382 1971 (the reference list's four, dismissed by its region)
    assert (
        counts["printed"],
        counts["claimed"],
        counts["dismissed"],
        counts["unreviewed"],
        counts["unaccounted"],
        counts["claimed_in_words"],
    ) == (9, 2, 6, 1, 1, 1)
    assert list(result.table["status"]) == [
        "claimed",
        "dismissed",
        "dismissed",
        "claimed",
        "unreviewed",
        "dismissed",
        "dismissed",
        "dismissed",
        "dismissed",
    ]


def test_unreviewed_rows_fail_only_under_strict(tmp_path):
    assert check(tmp_path).errors == []
    errors = check(tmp_path, strict=True).errors
    assert errors == [
        "ledger.tsv: 1 numbers of paper.txt are unreviewed, and strict_ledger is on (the first: "
        f"line 2, column {AT['0.60']}, '0.60'); claim or dismiss each"
    ]


def test_a_number_without_a_row_is_an_error_naming_its_place(tmp_path):
    rows = [row for row in COMPLETE if "\t2026\t" not in row]
    assert check(tmp_path, rows).errors == [
        f"paper.txt, line 1, column {AT['2026']}: '2026' (date) is printed but has no row in ledger.tsv"
    ]


def test_a_moved_number_is_an_error_saying_where_it_is_now(tmp_path):
    moved = TEXT.replace("reach only fair", "reach only a fair")
    errors = check(tmp_path, text=moved).errors
    now = moved.split("\n")[0].find("0.43") + 1
    assert now == AT["0.43"] + 2
    assert (
        f"{tmp_path / 'ledger.tsv'}, line 2: paper.txt, line 1, column {AT['0.43']}: '0.43' is not printed "
        f"there; '0.43' is printed at line 1, column {now}" in errors
    )
    assert f"paper.txt, line 1, column {now}: '0.43' (coefficient) is printed but has no row in ledger.tsv" in errors


def test_a_misquoted_claim_is_an_error(tmp_path):
    claims = [claim("fleiss.raters", "0.44"), *CLAIMS[1:]]
    errors = check(tmp_path, claims=claims).errors
    assert errors[0] == (
        f"paper.txt, line 1, column {AT['0.43']}: '0.43' is claimed by fleiss.raters, which publishes 0.44 "
        "(claims/paper.tsv (fleiss.raters)): the claim does not quote the printed number "
        f"({tmp_path / 'ledger.tsv'}, line 2)"
    )
    # 0.43 printed with two decimals is not 0.430: the precision is part of the quote
    assert check(tmp_path, claims=[claim("fleiss.raters", "0.430"), *CLAIMS[1:]]).errors != []


def test_a_claim_no_row_locates_is_an_error(tmp_path):
    claims = [*CLAIMS, claim("kappa.positive", "0.60")]
    errors = check(tmp_path, claims=claims).errors
    assert errors == [
        "claims/paper.tsv (kappa.positive): claim kappa.positive (0.60, where 'Table 1') is located "
        "by no row of ledger.tsv: give its printed number's row (or, for words, a words row) its key"
    ]
    located = [
        row.replace("0.60\tcoefficient\tunreviewed", "0.60\tcoefficient\tclaimed\tkappa.positive") for row in COMPLETE
    ]
    assert check(tmp_path, located, claims=claims).errors == []


def test_a_claim_of_a_repository_file_belongs_to_that_file(tmp_path):
    repository = Document("results/table1.txt", "gudea  exact=47.2%\n", ("results/table1.txt", "5241a8b" + "0" * 33))
    quoted = claim("placement.exact", "0.472", source="repository: results/table1.txt@5241a8b")
    rows = ledger(tmp_path, [*COMPLETE, "results/table1.txt\t1\t14\t47.2%\tpercent\tclaimed\tplacement.exact"])
    result = check_ledger([Document("paper.txt", TEXT), repository], rows, [*CLAIMS, quoted], "ledger.tsv")
    assert result.errors == []
    wrong = ledger(
        tmp_path,
        [*COMPLETE[:3], f"paper.txt\t2\t{AT['21.1%']}\t21.1%\tpercent\tclaimed\tplacement.exact", *COMPLETE[4:]],
        "wrong.tsv",
    )
    errors = check_ledger([Document("paper.txt", TEXT), repository], wrong, [*CLAIMS, quoted], "wrong.tsv").errors
    assert any(
        "claim placement.exact is printed by repository: results/table1.txt@5241a8b, not by paper.txt" in e
        for e in errors
    )


def test_rows_of_a_document_the_build_left_out_are_not_checked(tmp_path):
    # the paper's text comes from the config's documents: (../shared/documents.yaml); a build without it
    # still holds the repository file to its rows, and the text's claims need no row (no text to find them in)
    repository = Document("results/table1.txt", "gudea  exact=47.2%\n", ("results/table1.txt", "5241a8b" + "0" * 33))
    quoted = claim("placement.exact", "0.472", source="repository: results/table1.txt@5241a8b")
    rows = ledger(tmp_path, [*COMPLETE, "results/table1.txt\t1\t14\t47.2%\tpercent\tclaimed\tplacement.exact"])
    result = check_ledger([repository], rows, [*CLAIMS, quoted], "ledger.tsv", strict=True)
    assert result.errors == []
    assert list(result.counts["document"]) == ["results/table1.txt"]
    assert tuple(result.counts.iloc[0][["printed", "claimed", "unaccounted"]]) == (1, 1, 0)
    # a misspelt name is no escape: the real document's numbers then have no rows
    misspelt = ledger(tmp_path, [row.replace("paper.txt", "paper.text") for row in COMPLETE], "misspelt.tsv")
    errors = check_ledger([Document("paper.txt", TEXT)], misspelt, CLAIMS, "misspelt.tsv").errors
    assert (
        f"paper.txt, line 1, column {AT['0.43']}: '0.43' (coefficient) is printed but has no row in misspelt.tsv"
        in errors
    )


def test_one_printed_number_checked_twice_is_one_row_of_one_figure(tmp_path):
    # 0.43 checked against the data and against other printed numbers: the internal claim joins the data
    # claim's figure (its figure column), so one row names both and the summary sees one figure
    internal = claim("fleiss.raters.from_printed", "0.43", source="internal", figure="fleiss.raters")
    both = [
        row.replace("claimed\tfleiss.raters", "claimed\tfleiss.raters;fleiss.raters.from_printed") for row in COMPLETE
    ]
    result = check(tmp_path, both, claims=[*CLAIMS, internal])
    assert result.errors == [] and result.counts.iloc[0]["claimed"] == 2  # 0.43 and 21.1%: two printed numbers
    assert result.table.iloc[0]["claims"] == "fleiss.raters;fleiss.raters.from_printed"
    # the row may name the data claim alone: the internal claim is located through its figure
    assert check(tmp_path, claims=[*CLAIMS, internal]).errors == []
    # without the figure link they are two figures to the summary: one printed number counted twice
    unlinked = claim("fleiss.raters.from_printed", "0.43", source="internal")
    errors = check(tmp_path, both, claims=[*CLAIMS, unlinked]).errors
    assert errors == [
        f"paper.txt, line 1, column {AT['0.43']}: '0.43' is one printed number, but the claims "
        f"{tmp_path / 'ledger.tsv'}, line 2 names are 2 figures to the summary (fleiss.raters = 0.43; "
        "fleiss.raters.from_printed = 0.43): join them with the figure column (docs/claims.md, 'One "
        "printed figure, one verdict')"
    ]
    # and an internal claim of a figure of its own is a printed number like any other: a row must locate it
    errors = check(tmp_path, claims=[*CLAIMS, unlinked]).errors
    assert errors == [
        "claims/paper.tsv (fleiss.raters.from_printed): claim fleiss.raters.from_printed (0.43, where "
        "'Table 1') is located by no row of ledger.tsv: give its printed number's row (or, for words, a "
        "words row) its key"
    ]


def test_a_repository_claim_is_located_only_in_its_own_file(tmp_path):
    # the same figure as the text's 21.1% (figure column), but its quote is of results/table1.txt: the text's
    # row does not locate it, so the file is read where the claim says
    repository = Document("results/table1.txt", "gudea  exact=47.2%\n", ("results/table1.txt", "5241a8b" + "0" * 33))
    quoted = claim("placement.share", "0.211", source="repository: results/table1.txt@5241a8b", figure="share.agree")
    rows = ledger(tmp_path, [*COMPLETE, "results/table1.txt\t1\t14\t47.2%\tpercent\tdismissed\t\tdesign"])
    errors = check_ledger([Document("paper.txt", TEXT), repository], rows, [*CLAIMS, quoted], "ledger.tsv").errors
    assert errors == [
        "claims/paper.tsv (placement.share): claim placement.share (0.211, where 'Table 1') is located "
        "by no row of ledger.tsv: give its printed number's row (or, for words, a words row) its key"
    ]


def test_a_repository_quote_is_checked_against_its_file_without_a_ledger(tmp_path):
    # the files as the authors' repository prints them (w23's cases): a number in code, a percentage
    files = {
        "reproduce.py": 'paper = {"opus": (-0.095, 0.160, 0.065)}\ncheck("gap", got, 77.8, 1)\n',
        "results/t.txt": "inanna_enki  exact=77.8%  +-1=100.0%  chance=21.1%\n",
    }
    commit = "5241a8b" + "0" * 33
    documents = [Document(name, text, (name, commit)) for name, text in files.items()]
    quoting = [
        claim("gap.opus.b", "+0.160", source="repository: reproduce.py@5241a8b"),
        claim("gap.opus.a", "-0.095", source="repository: reproduce.py@5241a8b"),
        claim("placement.exact", "0.778", source="repository: results/t.txt@5241a8b", note="printed as 77.8%"),
        claim("placement.within_1", "1.000", source="repository: results/t.txt@5241a8b"),
        claim("not.quoted", "0.5"),
    ]
    assert unquoted(quoting, documents, "p") == []
    # 0.16 has one digit fewer than the printed 0.160; 0.095 without its minus sign is not -0.095
    wrong = [
        claim("gap.opus.c", "0.16", source="repository: reproduce.py@5241a8b"),
        claim("gap.opus.d", "-0.095", source="repository: results/t.txt@5241a8b"),
    ]
    assert unquoted(wrong, documents, "p") == [
        "claims/paper.tsv (gap.opus.c): claim gap.opus.c says reproduce.py@5241a8b prints 0.16; the fetched "
        "reproduce.py prints no such number",
        "claims/paper.tsv (gap.opus.d): claim gap.opus.d says results/t.txt@5241a8b prints -0.095; the fetched "
        "results/t.txt prints no such number",
    ]
    assert unquoted(quoting, documents[:1], "p") == [
        "claims/paper.tsv (placement.exact): claim placement.exact cites results/t.txt@5241a8b, which is no document "
        "of p (declare it under documents: in paper.yaml, so the quote can be checked)",
        "claims/paper.tsv (placement.within_1): claim placement.within_1 cites results/t.txt@5241a8b, which is no "
        "document of p (declare it under documents: in paper.yaml, so the quote can be checked)",
    ]
    # a build without a ledger still stops on a misquote, before counting anything
    (tmp_path / "reproduce.py").write_text(files["reproduce.py"], encoding="utf-8")
    params = [{"name": "reproduce.py", "path": str(tmp_path / "reproduce.py"), "repository": ["reproduce.py", commit]}]
    assert check_paper("p", quoting[:2], params, None)[1].iloc[0]["checked"] == "no"
    with pytest.raises(
        LedgerError,
        match=r"^p: claims that quote the authors' repository, held against its files "
        r"\(1 problem\):\n- claims/paper.tsv \(gap.opus.c\): claim gap.opus.c says",
    ):
        check_paper("p", [*quoting[:2], wrong[0]], params, None)
    with pytest.raises(LedgerError, match=r"claim gap.opus.a cites reproduce.py@5241a8b, which is no document of p"):
        check_paper("p", quoting[:2], [], None)


def test_words_must_be_printed_where_the_row_says(tmp_path):
    rows = [*COMPLETE[:-1], "paper.txt\t2\t\tfair\twords\tclaimed\tband.raters"]
    assert any("paper.txt, line 2: the words 'fair' are not printed there" in e for e in check(tmp_path, rows).errors)


@pytest.mark.parametrize(
    "row, message",
    [
        ("paper.txt\t1\t30\t0.43\tcoefficient\tdone", "status 'done' is not one of claimed, dismissed, unreviewed"),
        ("paper.txt\t1\t30\t0.43\tcoefficient\tdismissed\t\tboring", "gives a reason from the closed list"),
        ("paper.txt\t1\t30\t0.43\tcoefficient\tclaimed", "names the key of at least one claim"),
        ("paper.txt\t3-1\t\t\t\tdismissed\t\tcitation", "a region row gives lines FIRST-LAST"),
        ("paper.txt\tone\t29\t0.43\tcoefficient\tunreviewed", "line 'one' is not a whole number"),
    ],
)
def test_a_malformed_row_is_one_line_naming_file_and_line(tmp_path, row, message):
    with pytest.raises(LedgerError, match=message) as error:
        ledger(tmp_path, [row])
    assert str(error.value).startswith(f"{tmp_path / 'ledger.tsv'}, line 2: ")


def test_check_paper_says_why_nothing_was_checked(tmp_path):
    (tmp_path / "paper.txt").write_text(TEXT, encoding="utf-8")
    documents = [{"name": "paper.txt", "path": str(tmp_path / "paper.txt"), "repository": None}]
    table, counts = check_paper("smith2027", CLAIMS, [], None)
    assert counts.iloc[0]["note"].startswith("not checked: smith2027 declares no document")
    table, counts = check_paper("smith2027", CLAIMS, documents, None)
    assert (counts.iloc[0]["printed"], counts.iloc[0]["checked"]) == (9, "no")
    assert set(table["status"]) == {"no ledger"}
    with pytest.raises(LedgerError, match="no ledger .*strict_ledger is on"):
        check_paper("smith2027", CLAIMS, documents, None, strict=True)
    path = tmp_path / "ledger.tsv"
    path.write_text(HEADER + "\n".join(COMPLETE[1:]) + "\n", encoding="utf-8")
    with pytest.raises(
        LedgerError,
        match=rf"\(2 problems\):\n- paper.txt, line 1, column {AT['0.43']}: '0.43' "
        r"\(coefficient\)",
    ):
        check_paper("smith2027", CLAIMS, documents, path)
    checked = check(tmp_path).counts  # the complete ledger: 9 printed, 2 claimed, 6 dismissed, 1 unreviewed
    ledgers = {"smith2027": counts, "other": unchecked_counts([], "not checked: no document"), "jones2028": checked}
    summary, markdown = summarise({paper: CLAIMS_TABLE for paper in ledgers}, ledgers=ledgers)
    assert summary.set_index("paper")[LEDGER_COLUMNS].to_dict("index") == {
        "smith2027": {
            "documents": 1,
            "documents_checked": 0,
            "numbers_printed": 9,
            "numbers_claimed": 0,
            "numbers_dismissed": 0,
            "numbers_unaccounted": 9,
        },
        "other": {
            "documents": 0,
            "documents_checked": 0,
            "numbers_printed": 0,
            "numbers_claimed": 0,
            "numbers_dismissed": 0,
            "numbers_unaccounted": 0,
        },
        "jones2028": {
            "documents": 1,
            "documents_checked": 1,
            "numbers_printed": 9,
            "numbers_claimed": 2,
            "numbers_dismissed": 6,
            "numbers_unaccounted": 1,
        },
    }
    assert "- **smith2027** (1 document, 9 numbers printed): not checked: no ledger" in markdown
    assert "- **other**: not checked: no document" in markdown
    assert "| jones2028 | paper.txt | 9 | 2 | 6 | 1 | 1 | 1 |" in markdown
    # without the ledgers (a library call), the columns are there and zero, and no section is written
    bare, text = summarise({"other": CLAIMS_TABLE})
    assert bare[LEDGER_COLUMNS].eq(0).all(axis=None) and "(the ledger)" not in text


# a claims.tsv of one match, for the summary
CLAIMS_TABLE = pd.DataFrame(
    [
        {
            "key": "fleiss.raters",
            "end": "",
            "where": "Table 1",
            "source": "paper",
            "published": "0.43",
            "computed": 0.431,
            "status": "match",
            "reason": "",
            "cause": "",
            "explained_by": "",
            "figure": "fleiss.raters = 0.43",
        }
    ]
)


def test_documents_come_from_paper_yaml_and_the_config(tmp_path):
    paper = {
        "id": "smith2027",
        "sources": [{"name": "labels.tsv", "path": "labels.tsv"}],
        "documents": [
            {"name": "reproduce.py", "url": "https://raw.githubusercontent.com/o/r/" + "a" * 40 + "/reproduce.py"}
        ],
    }
    files = expand_documents("smith2027", paper, {"documents": {"smith2027": ["../texts/smith2027.txt"]}})
    assert [(f["name"], f["url"] or f["path"], f["entry"]) for f in files] == [
        ("documents/reproduce.py", paper["documents"][0]["url"], 0),
        ("documents/smith2027.txt", "../texts/smith2027.txt", 1),
    ]
    assert repository_of(files[0]["url"]) == ("reproduce.py", "a" * 40)
    assert repository_of("https://example.org/paper.txt") is None
    with pytest.raises(SourceError, match="the name 'smith2027.txt' is also"):
        expand_documents("smith2027", paper, {"documents": {"smith2027": ["a/smith2027.txt", "b/smith2027.txt"]}})


def test_reagree_accept_takes_a_documents_name():
    paper = {
        "id": "smith2027",
        "sources": [{"name": "labels.tsv", "path": "labels.tsv"}],
        "documents": [
            {
                "name": "{file}",
                "url": "https://example.org/" + "b" * 40 + "/{file}",
                "expand": {"file": ["README.md", "results/table1.txt"]},
            }
        ],
    }
    names = with_documents(source_names(paper), "smith2027", paper)
    assert {"labels.tsv", "documents/README.md", "documents/results/table1.txt", "documents/smith2027.txt"} <= {
        name
        for name in ("labels.tsv", "documents/README.md", "documents/results/table1.txt", "documents/smith2027.txt")
        if name in names
    }
    assert "documents/../labels.tsv" not in names and "documents/results/other.txt" not in names
