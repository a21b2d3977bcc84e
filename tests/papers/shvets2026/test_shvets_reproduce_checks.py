"""Counting the check lines of the authors' reproduce.py from its text
(workflow/papers/shvets2026/shvets2026/reproduce_checks.py): parsed, never run."""

import pytest

from shvets2026.reproduce_checks import count_check_lines

# A small script in the authors' style; its check lines counted by hand:
# first: 1 loop of 3 x 2 checks = 6, plus 1 = 7; second: the dict's 2 items x zip(MYTHS (3), vals[:2]) = 2 x 2 = 4,
# plus one "ok"/"XX" print per item of a 2-list = 2; third runs nothing. 7 + 4 + 2 = 13.
SCRIPT = """
MYTHS = ["a", "b", "c"]
def check(label, got, paper, decimals):
    ok = abs(got - paper) < 1
    print(f"  {'ok ' if ok else 'XX '} {label}")

def first():
    for myth, n in [("a", 1), ("b", 2), ("c", 3)]:
        check(myth, n, n, 0)
        check(myth, n, n, 0)
    check("all", 1, 1, 0)

def second():
    paper = {"x": (1, 2, 3), "y": (4, 5, 6)}
    for s, vals in paper.items():
        for m, v in zip(MYTHS, vals[:2]):
            check(m, v, v, 0)
    for sel in ["far", "med"]:
        ok = True
        if not ok: print("bad")
        print(f"  {'ok ' if ok else 'XX '} order {sel}")

def third():
    print("no check here")

STEPS = {"first": first, "second": second, "third": third}
"""


def test_check_lines_counted_from_the_text_by_hand():
    assert count_check_lines(SCRIPT) == 13


def test_a_loop_whose_length_cannot_be_read_is_an_error_naming_its_line():
    unreadable = SCRIPT.replace('for myth, n in [("a", 1), ("b", 2), ("c", 3)]:', "for myth, n in load():")
    with pytest.raises(ValueError, match=r"reproduce.py: step first: line 8: the length of load\(\) cannot be read"):
        count_check_lines(unreadable)
    branched = SCRIPT.replace('    check("all", 1, 1, 0)', '    if True:\n        check("all", 1, 1, 0)')
    with pytest.raises(ValueError, match="a check line inside a If statement is not counted"):
        count_check_lines(branched)


def test_the_authors_reproduce_py_prints_the_88_check_lines_the_write_up_counted(mirror):
    # the write-up (seed 003): "printed 88 ok lines" (`python3 reproduce.py | grep -c '^  ok'`)
    path = (
        mirror
        / "raw.githubusercontent.com/Malificenta883/intra-annotator-dynamics"
        / "5241a8bc2cb91b3ad39c0b79f26679427fd75491/reproduce.py"
    )
    if not path.is_file():
        pytest.skip("the mirror has no reproduce.py")
    assert count_check_lines(path.read_text(encoding="utf-8")) == 88
