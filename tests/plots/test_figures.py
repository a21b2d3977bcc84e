"""Every figure read at a glance (issue 18), asserted on the figure objects the paper
packages draw (each plotting function returns its closed figure): the tie rules are a dot
plot, not lines; the forest plot's write-up panel spans its data; Mozetič's "n/a" bars and
the Serbian inter bar equal to the pooled one are explained under the axis; shvets2026's
"k/120" counts are explained; the Agreement Before Accuracy figures name the document and
mark the values they used; every figure's rule gives it a caption that the report shows.

Small inputs written in each test; the expected texts and ranges are worked by hand.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from agreement_before_accuracy import plots as aba_plots
from jayanetti2026 import plots as j_plots
from jayanetti2026.plots import FRAMING_WORDS
from jayanetti2026.release import FRAMINGS, TOOLS
from mozetic2016.plots import notes, self_inter_bars
from reagree.plots import TITLE_CHARACTERS
from reagree.report import figure_captions, rst_html
from shvets2026.plots import triple_gaps

from conftest import PAPERS, ROOT

RULES = ["released", "neutral", "polar", "drop", "random"]


def _texts(figure) -> list[str]:
    return [t.get_text() for axis in figure.axes for t in axis.texts]


@pytest.fixture
def scores() -> pd.DataFrame:
    """Every tool under every tie rule in every framing; kappas made up, distinct."""
    rows = []
    for f, framing in enumerate(FRAMINGS):
        for t, tool in enumerate(TOOLS):
            for r, rule in enumerate(RULES):
                kappa = 0.3 + 0.2 * t + 0.01 * r + 0.05 * f
                rows.append(
                    {
                        "framing": framing,
                        "tie_rule": rule,
                        "rater": tool,
                        "kappa": kappa,
                        "ci_low": kappa - 0.1,
                        "ci_high": kappa + 0.1,
                    }
                )
    return pd.DataFrame(rows)


def test_tie_rules_are_a_dot_plot_not_lines_joining_categories(scores, tmp_path):
    figure = j_plots.tie_rules(scores, RULES, tmp_path / "tie_rules.png")
    assert (tmp_path / "tie_rules.png").stat().st_size > 10_000
    panels = [axis for axis in figure.axes if axis.get_title() in FRAMING_WORDS.values()]
    assert [axis.get_title() for axis in panels] == [FRAMING_WORDS[f] for f in FRAMINGS]  # in words
    for axis in panels:
        assert [t.get_text() for t in axis.get_xticklabels()] == ["released", "neutral", "polar", "drop"]
        dots = [line for line in axis.get_lines() if line.get_marker() == "o"]
        assert len(dots) == len(TOOLS)  # one series of dots per tool...
        assert all(line.get_linestyle() == "None" for line in dots)  # ...never joined by a line
        assert sum(len(line.get_xdata()) for line in dots) == 4 * len(TOOLS)
        # the tools stand side by side within their rule's column, not on one x
        xs = sorted(x for line in dots for x in line.get_xdata())
        assert all(-0.5 < x < 3.5 for x in xs) and len(set(np.round(xs, 6))) == len(xs)
    title = figure._suptitle.get_text()
    assert "Jayanetti et al. (2026)" in title and "recomputed from the released labels" in title
    assert "dots: one tie rule each" in title


def test_forest_write_up_panel_spans_its_data_with_numbers_beside_it(scores, tmp_path):
    # the write-up's five intervals (value, low, high) as it printed them
    printed = [
        (0.385, 0.312, 0.455),
        (0.069, 0.014, 0.128),
        (0.099, 0.010, 0.181),
        (-0.124, -0.291, 0.010),
        (0.610, 0.386, 0.787),
    ]
    writeup = pd.DataFrame(
        {
            "key": [f"k{i}" for i in range(5)],
            "value": [p[0] for p in printed],
            "ci_low": [p[1] for p in printed],
            "ci_high": [p[2] for p in printed],
            "scheme": "numpy; draws=2000; seed=0; level=0.95",
        }
    )
    labels = {f"k{i}": f"interval {i}" for i in range(5)}
    figure = j_plots.intervals(scores, RULES, writeup, labels, tmp_path / "forest.png")
    (panel,) = [axis for axis in figure.axes if axis.get_title().startswith("the write-up's intervals")]
    low, high = panel.get_xlim()
    # -0.291 to 0.787 with 6% margins: -0.356 to 0.852 (it ran to 1.5 before)
    assert low == pytest.approx(-0.291 - 0.06 * 1.078) and high == pytest.approx(0.787 + 0.06 * 1.078)
    beside = [t for t in panel.texts if t.get_text() == "0.610 (0.386 to 0.787)"]
    assert len(beside) == 1 and beside[0].xycoords == ("axes fraction", "data") and beside[0].xy[0] == 1.0
    for framing in FRAMINGS:  # the tool panels share one range over every tool's interval
        (axis,) = [a for a in figure.axes if a.get_title() == FRAMING_WORDS[framing]]
        span = (scores["ci_low"].min(), scores["ci_high"].max())
        margin = 0.04 * (span[1] - span[0])
        assert axis.get_xlim() == pytest.approx((span[0] - margin, span[1] + margin))


def test_the_random_tie_breaks_spread_is_drawn_unlike_an_interval_and_named_in_the_legend(scores, tmp_path):
    writeup = pd.DataFrame(
        {
            "key": ["k0"],
            "value": [0.4],
            "ci_low": [0.3],
            "ci_high": [0.5],
            "scheme": "numpy; draws=2000; seed=0; level=0.95",
        }
    )
    figure = j_plots.intervals(scores, RULES, writeup, {"k0": "interval 0"}, tmp_path / "forest.png")
    (axis,) = [a for a in figure.axes if a.get_title() == FRAMING_WORDS["three_class"]]
    labels = [t.get_text() for t in axis.get_yticklabels()]
    spread_rows = {len(labels) - 1 - i for i, label in enumerate(labels) if label.endswith(", random")}
    assert len(spread_rows) == len(TOOLS)
    for line in axis.get_lines():
        y = set(np.round(line.get_ydata(), 6))
        if y <= spread_rows and len(line.get_xdata()) == 2 and line.get_marker() in ("None", ""):
            assert line.get_linestyle() != "-" and line.get_linewidth() < 2  # dotted and thin, never a bar
        if y <= spread_rows and line.get_marker() == "o":
            raise AssertionError("a spread is drawn with an interval's filled point")
    diamonds = [line for line in axis.get_lines() if line.get_marker() == "D"]
    assert len(diamonds) == len(TOOLS) and all(line.get_markerfacecolor() == "white" for line in diamonds)
    (legend,) = figure.legends
    said = [t.get_text() for t in legend.get_texts()]
    assert said[1].startswith("random tie rule: middle 95% of its seeded tie breaks (a spread, not an interval)")


def test_pairwise_kappa_draws_each_pair_once_below_a_blank_diagonal(tmp_path):
    pairs = pd.DataFrame(
        {"framing": "pos_vs_rest", "rater_a": ["a", "a", "b"], "rater_b": ["b", "c", "c"], "kappa": [0.1, 0.2, 0.3]}
    )
    figure = j_plots.pairwise(pairs, tmp_path / "pairwise.png")
    axis = figure.axes[0]
    assert axis.get_title() == "positive vs the rest"
    assert sorted(_texts(figure)) == ["0.10", "0.20", "0.30"]  # each value once
    grid = axis.get_images()[0].get_array()
    assert np.ma.getmaskarray(grid).sum() + np.isnan(np.ma.filled(grid, np.nan)).sum() >= 6  # diagonal and above
    assert [t.get_text() for t in axis.get_yticklabels()] == ["b", "c"]  # no row without a pair
    assert [t.get_text() for t in axis.get_xticklabels()] == ["a", "b"]


def test_a_line_charts_title_is_wrapped_inside_the_figure(tmp_path):
    sweep = pd.DataFrame(
        {"prevalence": [0.01, 0.5], "agreement": 0.9, "kappa": [0.1, 0.8], "pabak": 0.8, "ac1": [0.9, 0.8]}
    )
    figure = aba_plots.prevalence_sweep(sweep, tmp_path / "sweep.png")
    title = figure.axes[0].get_title()
    assert all(len(line) <= TITLE_CHARACTERS for line in title.splitlines()) and len(title.splitlines()) >= 2
    figure.canvas.draw()  # drawn: the title's box lies inside the figure's
    box = figure.axes[0].title.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width


def _mozetic(serbian_inter: float = 0.329378) -> pd.DataFrame:
    """Table 4 of the offline build, shortened: Croatian and Bosnian have no inter units."""
    rows = [
        ("Ser/Cro/Bos", "self", 0.763, 19909, ""),
        ("Ser/Cro/Bos", "inter", 0.329378, 1880, ""),
        ("Serbian", "self", 0.208, 182, "Ser/Cro/Bos"),
        ("Serbian", "inter", serbian_inter, 1880, "Ser/Cro/Bos"),
        ("Croatian", "self", 0.781, 13290, "Ser/Cro/Bos"),
        ("Croatian", "inter", np.nan, 0, "Ser/Cro/Bos"),
        ("Bosnian", "self", 0.722, 6437, "Ser/Cro/Bos"),
        ("Bosnian", "inter", np.nan, 0, "Ser/Cro/Bos"),
    ]
    frame = pd.DataFrame(rows, columns=["label", "kind", "alpha", "units", "parent"])
    return frame.assign(ci_low=frame["alpha"] - 0.04, ci_high=frame["alpha"] + 0.04)


def test_mozetic_explains_its_na_bars_and_the_serbian_bar_equal_to_the_pooled_one(tmp_path):
    figure = self_inter_bars(_mozetic(), tmp_path / "agreement.png", "Mozetič et al. (2016)")
    said = figure._supxlabel.get_text().replace("\n", " ")
    assert '"n/a" (inter): Croatian, Bosnian: no tweet was labelled by two annotators.' in said
    assert (
        "Serbian's inter-agreement equals Ser/Cro/Bos's: its 1,880 inter units are all Serbian's "
        "(Croatian, Bosnian have none)."
    ) in said
    assert _texts(figure).count("n/a") == 2
    # said on the bar itself, too: the Serbian inter bar is the Ser/Cro/Bos data
    assert "0.329 (same data as Ser/Cro/Bos)" in _texts(figure) and _texts(figure).count("0.329") == 1


def test_mozetic_says_nothing_of_a_serbian_bar_that_differs():
    assert notes(_mozetic(serbian_inter=0.31)) == [
        '"n/a" (inter): Croatian, Bosnian: no tweet was labelled by two annotators.'
    ]


def test_shvets_counts_are_explained_on_the_figure(tmp_path):
    # gaps 0.1, 0.5, 0.6 against a human gap of 0.5: 2 of 3 at or above; 0.2, 0.3: 0 of 2
    triples = pd.DataFrame({"model": ["opus"] * 3 + ["gemini"] * 2, "myth": "gudea", "gap": [0.1, 0.5, 0.6, 0.2, 0.3]})
    figure = triple_gaps(triples, {"gudea": 0.5}, ["gudea"], tmp_path / "triples.png", "Shvets (2026)")
    assert "2/3" in _texts(figure) and "0/2" in _texts(figure)
    title = figure._suptitle.get_text()
    assert "k/n above a model: k of its n run-triples have a gap at or above the human's (dashed line)" in title


def test_agreement_before_accuracy_figures_name_the_document_and_mark_the_values_used(tmp_path):
    widths = pd.DataFrame(
        {
            "n": [50, 100, 200, 400, 800, 2000],
            "kappa_width": [0.31, 0.22, 0.13, 0.11, 0.07, 0.05],
            "alpha_width": [0.27, 0.16, 0.14, 0.09, 0.07, 0.04],
        }
    )
    figure = aba_plots.interval_widths(widths, 2000, tmp_path / "widths.png")
    (axis,) = figure.axes
    assert axis.get_xscale() == "log"
    assert [t.get_text() for t in axis.get_xticklabels()] == ["50", "100", "200", "400", "800", "2000"]
    assert axis.xaxis.get_minor_ticks() == []
    title = " ".join(axis.get_title().split())  # wrapped to the figure's width (TITLE_CHARACTERS a line)
    assert '"Agreement Before Accuracy"' in title and "2,000 draws" in title
    sweep = pd.DataFrame(
        {
            "prevalence": [0.01, 0.02, 0.05, 0.1, 0.25, 0.5],
            "agreement": 0.9,
            "kappa": [0.14, 0.24, 0.43, 0.59, 0.75, 0.8],
            "pabak": 0.8,
            "ac1": [0.89, 0.88, 0.88, 0.87, 0.83, 0.8],
        }
    )
    (axis,) = aba_plots.prevalence_sweep(sweep, tmp_path / "sweep.png").axes
    assert [t.get_text() for t in axis.get_xticklabels()] == ["0.01", "0.02", "0.05", "0.1", "0.25", "0.5"]
    title = " ".join(axis.get_title().split())
    assert '"Agreement Before Accuracy"' in title and "held at 0.900" in title


def _declared_figures() -> list[tuple[str, str, str]]:
    """(paper, figure name, caption name) of every report() PNG a paper's rules declare."""
    found = []
    for rules in sorted((ROOT / "workflow" / "papers").glob("*/rules.smk")):
        text = rules.read_text(encoding="utf-8")
        for name, caption in re.findall(
            r'report\(\s*f"\{\w+\}/figures/(\w+)\.png",[^)]*?caption="report/(\w+)\.rst"', text
        ):
            found.append((rules.parent.name, name, caption))
    return found


def test_every_paper_figure_has_a_caption_the_report_shows():
    declared = _declared_figures()
    assert {paper for paper, _, _ in declared} == set(PAPERS)  # every paper draws a figure
    assert len(declared) >= 9  # the four papers' nine at least: not a vacuous pass
    figures = [f"results/{paper}/figures/{name}.png" for paper, name, _ in declared]
    captions = figure_captions(figures, ROOT / "workflow")
    for (paper, name, caption), figure in zip(declared, figures):
        assert caption == name, f"{paper}: {name}.png is captioned by report/{caption}.rst: name it {name}.rst"
        assert len(captions[figure]) > 100, figure


def test_captions_keep_their_markup_and_escape_the_rest():
    assert rst_html("the **random** rule, ``config.bootstrap`` <draws>") == (
        "the <b>random</b> rule, <code>config.bootstrap</code> &lt;draws&gt;"
    )
