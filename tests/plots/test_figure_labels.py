"""Labels are text, never markup, in every figure (issue 22, item 11): a label such as
``$\\frac{$`` once stopped matplotlib's mathtext and left `reagree audit --out` without its
coefficients.png. Every function that draws a figure, in the library and in the papers'
packages, draws under ``reagree.plots.plain_text``; the texts are kept as written.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pandas as pd

from mozetic2016.plots import self_inter_bars
from reagree.cli import main
from reagree.plots import lines, pairwise_heatmaps
from reagree.plots.intervals import dots_with_band, forest

from conftest import ROOT

MARKUP = "$\\frac{$"  # mathtext cannot parse it
TEX = "$x^2$ & 100% #1 _a_"  # would render as math or break a TeX run


def texts(figure) -> set[str]:
    found = {t.get_text() for t in figure.findobj(lambda artist: hasattr(artist, "get_text"))}
    return found | {figure._suptitle.get_text()} if figure._suptitle else found


def test_the_audit_figure_is_written_with_labels_and_raters_that_look_like_markup(tmp_path, capsys):
    path = tmp_path / "math.csv"
    rows = [
        ("1", MARKUP, MARKUP),
        ("1", "$b", "y"),
        ("2", MARKUP, MARKUP),
        ("2", "$b", MARKUP),
        ("3", MARKUP, "y"),
        ("3", "$b", "y"),
        ("4", MARKUP, TEX),
        ("4", "$b", TEX),
    ]
    path.write_text("unit,rater,label\n" + "".join(f"{u},{r},{label}\n" for u, r, label in rows))
    out = tmp_path / "out"
    assert main(["audit", str(path), "--bootstrap", "50", "--out", str(out)]) == 0, capsys.readouterr().err
    assert (out / "coefficients.png").stat().st_size > 10_000
    assert set(json.loads((out / "audit.json").read_text())["label_distribution"]) == {MARKUP, "y", TEX}


def test_every_library_figure_keeps_markup_as_text(tmp_path):
    pairs = pd.DataFrame({"panel": [MARKUP], "rater_a": [MARKUP], "rater_b": [TEX], "kappa": [0.4]})
    figure = pairwise_heatmaps(pairs, [MARKUP, TEX], [MARKUP], tmp_path / "heat.png", MARKUP)
    assert {MARKUP, TEX} <= texts(figure) if figure is not None else (tmp_path / "heat.png").is_file()
    frame = pd.DataFrame({"x": [1, 2], "a": [0.1, 0.2]})
    figure = lines(frame, "x", ["a"], tmp_path / "lines.png", MARKUP, TEX, MARKUP, labels={"a": TEX})
    assert {MARKUP, TEX} <= texts(figure)
    long = pd.DataFrame(
        {
            "panel": MARKUP,
            "condition": [MARKUP, TEX, MARKUP, TEX],
            "series": [TEX, TEX, MARKUP, MARKUP],
            "value": [0.1, 0.2, 0.3, 0.4],
            "low": 0.0,
            "high": 0.5,
        }
    )
    figure = dots_with_band(
        long, [MARKUP], TEX, [MARKUP], [TEX, MARKUP], tmp_path / "dots.png", MARKUP, TEX, xlabel=MARKUP
    )
    assert {MARKUP, TEX} <= texts(figure)
    rows = pd.DataFrame({"panel": MARKUP, "label": [MARKUP, TEX], "value": [0.1, 0.2], "low": 0.0, "high": 0.3})
    figure = forest(rows, [MARKUP], tmp_path / "forest.png", MARKUP, TEX, annotate=[MARKUP])
    assert {MARKUP, TEX} <= texts(figure)
    for name in ("heat", "lines", "dots", "forest"):
        assert (tmp_path / f"{name}.png").stat().st_size > 5_000, name


def test_a_paper_figure_keeps_markup_as_text(tmp_path):
    frame = pd.DataFrame(
        [(MARKUP, "self", 0.7, 100, ""), (MARKUP, "inter", np.nan, 0, "")],
        columns=["label", "kind", "alpha", "units", "parent"],
    ).assign(ci_low=0.6, ci_high=0.8)
    figure = self_inter_bars(frame, tmp_path / "bars.png", TEX)
    assert (tmp_path / "bars.png").stat().st_size > 5_000 and MARKUP in texts(figure)


def drawing_functions() -> list[tuple[Path, str, bool]]:
    """(file, function, decorated with plain_text) of every function that makes a figure
    (calls plt.subplots or plt.figure) in the library and in the papers' packages."""
    files = [*(ROOT / "src" / "reagree").rglob("*.py"), *(ROOT / "workflow" / "papers").glob("*/*/*.py")]
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            draws = any(
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in ("subplots", "figure", "subplot_mosaic")
                for call in ast.walk(node)
            )
            if draws:
                decorated = any(
                    (isinstance(d, ast.Name) and d.id == "plain_text")
                    or (isinstance(d, ast.Attribute) and d.attr == "plain_text")
                    for d in node.decorator_list
                )
                found.append((path.relative_to(ROOT), node.name, decorated))
    return found


def test_every_function_that_draws_a_figure_draws_plain_text():
    found = drawing_functions()
    assert len(found) >= 9  # the library's four, the audit's one, the papers' four: not a vacuous pass
    assert [f"{path}: {name}" for path, name, decorated in found if not decorated] == []
