"""One cap by work for both bootstrap schemes, and progress block by block (issue 22,
item 7): `--ci-scheme numpy --bootstrap 100000` on 50,000 units ran past 300 s without a
word, because the numpy scheme draws n unit indices per draw where the default scheme
draws one count per rating row. The work is counted in cells (worked by hand below), the
audit refuses past the cap in one line naming the draws that fit, and a terminal shows
the cells done after every block of draws."""

from __future__ import annotations

import io

import numpy as np
import pytest

from reagree.audit import compute
from reagree.cli import main
from reagree.stats import bootstrap as engine
from reagree.stats.multirater import fleiss_statistic

# 8 units of 3 ratings over 2 categories, in 3 distinct count rows: (3,0) x3, (2,1) x3, (0,3) x2
COUNTS = np.array([[3, 0]] * 3 + [[2, 1]] * 3 + [[0, 3]] * 2)


def test_the_work_is_cells_drawn_and_counted_by_hand():
    statistic = fleiss_statistic(COUNTS)
    # numpy scheme: 8 unit indices per draw; default scheme: a multinomial over 3 rows (3 <= 8 / 4 is false:
    # more rows than a quarter of the units, so it draws the 8 indices too)
    assert engine.bootstrap_work([statistic], 100, "numpy") == 100 * 8
    assert engine.bootstrap_work([statistic], 100, "percentile") == 100 * 8
    many = fleiss_statistic(np.repeat(COUNTS, 10, axis=0))  # 80 units, still 3 rows: a multinomial
    assert engine.bootstrap_work([many, many], 100, "percentile") == 2 * 100 * 3
    assert engine.bootstrap_work([many, many], 100, "numpy") == 2 * 100 * 80


@pytest.mark.parametrize("scheme", ["numpy", "percentile"])
def test_progress_counts_up_to_the_work_block_by_block_and_changes_no_value(scheme, monkeypatch):
    statistic = fleiss_statistic(np.repeat(COUNTS, 10, axis=0))
    plain = engine.bootstrap([statistic, statistic], 500, 3, scheme=scheme)
    monkeypatch.setattr(engine, "BLOCK_CELLS", 100)  # a draw of 80 indices, or 33 draws of 3 row counts, a block
    done: list[int] = []
    values = engine.bootstrap([statistic, statistic], 500, 3, scheme=scheme, progress=done.append)
    np.testing.assert_array_equal(values, plain)
    assert sum(done) == engine.bootstrap_work([statistic, statistic], 500, scheme) and len(done) > 1


def table(tmp_path):
    path = tmp_path / "t.csv"
    rows = [(u, r, "xy"[(u * 7 + i) % 3 == 0]) for u in range(40) for i, r in enumerate("abc")]
    path.write_text("unit,rater,label\n" + "".join(f"{u},{r},{label}\n" for u, r, label in rows))
    return path


def test_the_audit_refuses_a_bootstrap_past_the_cap_in_one_line(tmp_path, capsys, monkeypatch):
    path = table(tmp_path)
    monkeypatch.setattr(compute, "MAX_BOOTSTRAP_CELLS", 10_000_000)
    assert main(["audit", str(path), "--ci-scheme", "numpy", "--bootstrap", "100000"]) == 2
    said = capsys.readouterr().err.strip()
    assert "\n" not in said
    assert said.startswith("reagree audit: bootstrap: 100,000 draws of ")
    assert "under the numpy scheme would draw and count" in said and "over 40 units, more than the cap of 1e+07" in said
    most = int(said.split("give at most ")[1].split(" draws")[0].replace(",", ""))
    assert said.endswith("or the percentile scheme, which draws counts per distinct rating row")
    # the draws it names fit, and the default scheme (a few rows per draw) fits at 100,000
    assert main(["audit", str(path), "--ci-scheme", "numpy", "--bootstrap", str(most)]) == 0
    assert main(["audit", str(path), "--bootstrap", "100000"]) == 0
    capsys.readouterr()


class Bar:
    """What the audit updates: the cells done, call by call."""

    def __init__(self, total, desc, unit):
        self.total, self.desc, self.updates = total, desc, []

    def update(self, cells):
        self.updates.append(cells)

    def close(self):
        pass


def test_a_terminal_sees_the_cells_done_block_by_block(tmp_path, monkeypatch):
    path = table(tmp_path)
    monkeypatch.setattr(engine, "BLOCK_CELLS", 400)  # 10 draws of 40 indices a block
    bars: list[Bar] = []
    monkeypatch.setattr(compute, "progress_bar", lambda **kw: bars.append(Bar(**kw)) or bars[-1])
    compute.audit_file(path, draws=200, ci_scheme="numpy", show_progress=True)
    (bar,) = bars
    assert bar.desc.startswith("bootstrap: 200 draws of ") and bar.desc.endswith("(numpy)")
    assert sum(bar.updates) == bar.total and len(bar.updates) >= 20  # 20 blocks of draws per batch of values
    compute.audit_file(path, draws=200, ci_scheme="numpy", show_progress=False)
    assert len(bars) == 1  # piped or asked for none: no bar


def test_the_bar_is_drawn_on_a_terminal_only(monkeypatch):
    from reagree.pipeline.progress import progress_bar

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert progress_bar(total=10) is None
    monkeypatch.setattr("sys.stderr", Terminal())
    bar = progress_bar(total=10, desc="bootstrap", unit="cell")
    bar.update(10)
    bar.close()
