"""The ledger check: a complete ledger passes with its counts; a missing row, a moved number, a
misquoted claim, an unlocated claim and an unreviewed row under strict_ledger each fail with
the document, line and text; region and words rows; repository claims; documents declared
in paper.yaml and in the config.

The document below is small enough to count by hand: line 1 prints 0.43, 2026 and Table 1's
"1"; line 2 prints 21.1% and 0.60; line 3 is a reference list printing its item number 1,
378 to 382 and 1971: nine numbers. Their columns come from str.find on the line.
"""

from __future__ import annotations

import pytest

from reagree.pipeline.documents import expand_documents, repository_of, with_documents
from reagree.pipeline.ledger import (Document, LedgerError, check_ledger, check_paper, read_ledger,
                                     summary_section, unchecked_counts)
from reagree.pipeline.sources import SourceError, source_names
from reagree.pipeline.yamlio import PrintedNumber

TEXT = ("Human raters reach only fair 0.43 agreement in 2026 (see Table 1).\n"
        "At least 21.1% agree; kappa 0.60 on positive.\n"
        "1. Fleiss, J. L. Psychological Bulletin 378 to 382, 1971.\n")
LINES = TEXT.split("\n")
AT = {printed: LINES[line].find(printed) + 1 for line, printed in ((0, "0.43"), (0, "2026"), (0, "1)"),
                                                                   (1, "21.1%"), (1, "0.60"))}
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
    return {"key": key, "published": PrintedNumber(published), "source": source, "where": where,
            "_where_defined": f"claims/paper.tsv ({key})", **more}


CLAIMS = [claim("fleiss.raters", "0.43"), claim("share.agree", "0.211"),
          claim("band.raters", "0.305", where="abstract: fair agreement")]


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
    assert (counts["printed"], counts["claimed"], counts["dismissed"], counts["unreviewed"],
            counts["unaccounted"], counts["claimed_in_words"]) == (9, 2, 6, 1, 1, 1)
    assert list(result.table["status"]) == ["claimed", "dismissed", "dismissed", "claimed", "unreviewed",
                                           "dismissed", "dismissed", "dismissed", "dismissed"]


def test_unreviewed_rows_fail_only_under_strict(tmp_path):
    assert check(tmp_path).errors == []
    errors = check(tmp_path, strict=True).errors
    assert errors == ["ledger.tsv: 1 numbers of paper.txt are unreviewed, and strict_ledger is on (the first: "
                      f"line 2, column {AT['0.60']}, '0.60'); claim or dismiss each"]


def test_a_number_without_a_row_is_an_error_naming_its_place(tmp_path):
    rows = [row for row in COMPLETE if "\t2026\t" not in row]
    assert check(tmp_path, rows).errors == [
        f"paper.txt, line 1, column {AT['2026']}: '2026' (date) is printed but has no row in ledger.tsv"]


def test_a_moved_number_is_an_error_saying_where_it_is_now(tmp_path):
    moved = TEXT.replace("reach only fair", "reach only a fair")
    errors = check(tmp_path, text=moved).errors
    now = moved.split("\n")[0].find("0.43") + 1
    assert now == AT["0.43"] + 2
    assert f"{tmp_path / 'ledger.tsv'}, line 2: paper.txt, line 1, column {AT['0.43']}: '0.43' is not printed " \
           f"there; '0.43' is printed at line 1, column {now}" in errors
    assert f"paper.txt, line 1, column {now}: '0.43' (coefficient) is printed but has no row in ledger.tsv" in errors


def test_a_misquoted_claim_is_an_error(tmp_path):
    claims = [claim("fleiss.raters", "0.44"), *CLAIMS[1:]]
    errors = check(tmp_path, claims=claims).errors
    assert errors[0] == (f"paper.txt, line 1, column {AT['0.43']}: '0.43' is claimed by fleiss.raters, which publishes 0.44 "
                         "(claims/paper.tsv (fleiss.raters)): the claim does not quote the printed number "
                         f"({tmp_path / 'ledger.tsv'}, line 2)")
    # 0.43 printed with two decimals is not 0.430: the precision is part of the quote
    assert check(tmp_path, claims=[claim("fleiss.raters", "0.430"), *CLAIMS[1:]]).errors != []


def test_a_claim_no_row_locates_is_an_error(tmp_path):
    claims = [*CLAIMS, claim("kappa.positive", "0.60")]
    errors = check(tmp_path, claims=claims).errors
    assert errors == ["claims/paper.tsv (kappa.positive): claim kappa.positive (0.60, where 'Table 1') is located "
                      "by no row of ledger.tsv: give its printed number's row (or, for words, a words row) its key"]
    located = [row.replace("0.60\tcoefficient\tunreviewed", "0.60\tcoefficient\tclaimed\tkappa.positive")
               for row in COMPLETE]
    assert check(tmp_path, located, claims=claims).errors == []


def test_a_claim_of_a_repository_file_belongs_to_that_file(tmp_path):
    repository = Document("results/table1.txt", "gudea  exact=47.2%\n", ("results/table1.txt", "5241a8b" + "0" * 33))
    quoted = claim("placement.exact", "0.472", source="repository: results/table1.txt@5241a8b")
    rows = ledger(tmp_path, [*COMPLETE, "results/table1.txt\t1\t14\t47.2%\tpercent\tclaimed\tplacement.exact"])
    result = check_ledger([Document("paper.txt", TEXT), repository], rows, [*CLAIMS, quoted], "ledger.tsv")
    assert result.errors == []
    wrong = ledger(tmp_path, [*COMPLETE[:3], f"paper.txt\t2\t{AT['21.1%']}\t21.1%\tpercent\tclaimed\tplacement.exact",
                              *COMPLETE[4:]], "wrong.tsv")
    errors = check_ledger([Document("paper.txt", TEXT), repository], wrong, [*CLAIMS, quoted], "wrong.tsv").errors
    assert any("claim placement.exact is printed by repository: results/table1.txt@5241a8b, not by paper.txt" in e
               for e in errors)


def test_words_must_be_printed_where_the_row_says(tmp_path):
    rows = [*COMPLETE[:-1], "paper.txt\t2\t\tfair\twords\tclaimed\tband.raters"]
    assert any("paper.txt, line 2: the words 'fair' are not printed there" in e for e in check(tmp_path, rows).errors)


@pytest.mark.parametrize("row, message", [
    ("paper.txt\t1\t30\t0.43\tcoefficient\tdone", "status 'done' is not one of claimed, dismissed, unreviewed"),
    ("paper.txt\t1\t30\t0.43\tcoefficient\tdismissed\t\tboring", "gives a reason from the closed list"),
    ("paper.txt\t1\t30\t0.43\tcoefficient\tclaimed", "names the key of at least one claim"),
    ("paper.txt\t3-1\t\t\t\tdismissed\t\tcitation", "a region row gives lines FIRST-LAST"),
    ("paper.txt\tone\t29\t0.43\tcoefficient\tunreviewed", "line 'one' is not a whole number"),
])
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
    with pytest.raises(LedgerError, match=rf"\(2 problems\):\n- paper.txt, line 1, column {AT['0.43']}: '0.43' "
                                          r"\(coefficient\)"):
        check_paper("smith2027", CLAIMS, documents, path)
    section = summary_section({"smith2027": counts, "other": unchecked_counts([], "not checked: no document")})
    assert "- **smith2027** (1 document, 9 numbers printed): not checked: no ledger" in section
    assert "- **other**: not checked: no document" in section


def test_documents_come_from_paper_yaml_and_the_config(tmp_path):
    paper = {"id": "smith2027", "sources": [{"name": "labels.tsv", "path": "labels.tsv"}],
             "documents": [{"name": "reproduce.py", "url": "https://raw.githubusercontent.com/o/r/" + "a" * 40 +
                            "/reproduce.py"}]}
    files = expand_documents("smith2027", paper, {"documents": {"smith2027": ["../texts/smith2027.txt"]}})
    assert [(f["name"], f["url"] or f["path"], f["entry"]) for f in files] == [
        ("documents/reproduce.py", paper["documents"][0]["url"], 0),
        ("documents/smith2027.txt", "../texts/smith2027.txt", 1)]
    assert repository_of(files[0]["url"]) == ("reproduce.py", "a" * 40)
    assert repository_of("https://example.org/paper.txt") is None
    with pytest.raises(SourceError, match="the name 'smith2027.txt' is also"):
        expand_documents("smith2027", paper, {"documents": {"smith2027": ["a/smith2027.txt", "b/smith2027.txt"]}})


def test_reagree_accept_takes_a_documents_name():
    paper = {"id": "smith2027", "sources": [{"name": "labels.tsv", "path": "labels.tsv"}],
             "documents": [{"name": "{file}", "url": "https://example.org/" + "b" * 40 + "/{file}",
                            "expand": {"file": ["README.md", "results/table1.txt"]}}]}
    names = with_documents(source_names(paper), "smith2027", paper)
    assert {"labels.tsv", "documents/README.md", "documents/results/table1.txt", "documents/smith2027.txt"} <= \
        {name for name in ("labels.tsv", "documents/README.md", "documents/results/table1.txt",
                           "documents/smith2027.txt") if name in names}
    assert "documents/../labels.tsv" not in names and "documents/results/other.txt" not in names
