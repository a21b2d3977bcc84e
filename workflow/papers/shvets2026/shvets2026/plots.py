"""Figures for Shvets (2026): the boundary-label gap per reader, the gap of every model
run-triple against the human's, and the human's run pairs.

Matplotlib with the Agg backend and no timestamps in the PNG, so reruns give the same
bytes (the convention of ``reagree.plots``). The functions draw what they are given: no
statistic is computed here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence


import numpy as np
import pandas as pd

from reagree.pipeline.rulekit import RuleOutputs
from reagree.pipeline.tables import Table
from reagree.plots import plain_text, plt, save_figure

READER_COLOURS = {"human": "#222222", "opus": "#d95f02", "gemini": "#1b9e77", "qwen": "#7570b3"}
COUNT_NOTE = "k/n above a model: k of its n run-triples have a gap at or above the human's (dashed line)"
MYTH_TITLES = {"inanna_enki": "Inanna and Enki", "inanna_descent": "Inanna's Descent", "gudea": "Gudea Cyl. A"}


def _title(myth: str) -> str:
    return MYTH_TITLES.get(myth, myth)


@plain_text
def gap_by_reader(readers: pd.DataFrame, myths: Sequence[str], path: str | Path, title: str) -> None:
    """Grouped bars: boundary kappa - label kappa per reader, one group per myth.
    ``readers`` has columns myth, reader, gap."""
    names = list(dict.fromkeys(readers["reader"]))
    width = 0.8 / len(names)
    figure, axis = plt.subplots(figsize=(7.6, 4.8), layout="constrained")
    for k, reader in enumerate(names):
        rows = readers[readers["reader"] == reader].set_index("myth")
        gaps = [float(rows.at[m, "gap"]) if m in rows.index else np.nan for m in myths]
        x = np.arange(len(myths)) + (k - (len(names) - 1) / 2) * width
        bars = axis.bar(
            x,
            gaps,
            width * 0.92,
            label=reader,
            color=READER_COLOURS.get(reader, f"C{k}"),
            edgecolor="black" if reader == "human" else "none",
            linewidth=0.8,
        )
        for bar, gap in zip(bars, gaps):
            if np.isfinite(gap):
                axis.annotate(
                    f"{gap:+.3f}",
                    (bar.get_x() + bar.get_width() / 2, gap),
                    xytext=(0, 3 if gap >= 0 else -3),
                    textcoords="offset points",
                    ha="center",
                    va="bottom" if gap >= 0 else "top",
                    fontsize=7,
                )
    axis.axhline(0, color="black", linewidth=0.8)
    axis.set_xticks(np.arange(len(myths)), [_title(m) for m in myths])
    axis.set_ylabel("gap = boundary kappa - label kappa")
    low, high = np.nanmin(readers["gap"]), np.nanmax(readers["gap"])
    axis.set_ylim(min(0, low) - 0.08, high + 0.08)
    axis.grid(axis="y", alpha=0.3)
    figure.legend(
        title="reader (mean over all pairs of its runs)",
        fontsize=8,
        title_fontsize=8,
        ncols=len(names),
        loc="outside lower center",
    )
    axis.set_title(title, fontsize=10)
    save_figure(figure, path)


@plain_text
def triple_gaps(
    triples: pd.DataFrame, human_gaps: Mapping[str, float], myths: Sequence[str], path: str | Path, title: str
):
    """For each myth, every model run-triple's gap (one dot per triple, a box per model)
    with the human's own gap as a line; the count of triples at or above it is printed
    above each model as "k/n" and explained under the title. Returns the (closed) figure.
    ``triples`` has columns model, myth, gap."""
    models = list(dict.fromkeys(triples["model"]))
    figure, axes = plt.subplots(
        1, len(myths), figsize=(4.0 * len(myths), 4.4), sharey=True, constrained_layout=True, squeeze=False
    )
    rng = np.random.default_rng(0)  # jitter only: the positions of dots, never a number
    for axis, myth in zip(axes[0], myths):
        human = human_gaps.get(myth, np.nan)
        for k, model in enumerate(models):
            gaps = triples.loc[(triples["model"] == model) & (triples["myth"] == myth), "gap"].to_numpy(float)
            axis.boxplot(
                [gaps],
                positions=[k],
                widths=0.55,
                showfliers=False,
                medianprops={"color": "black"},
                boxprops={"color": "grey"},
                whiskerprops={"color": "grey"},
                capprops={"color": "grey"},
            )
            axis.scatter(
                k + rng.uniform(-0.2, 0.2, len(gaps)),
                gaps,
                s=7,
                alpha=0.55,
                color=READER_COLOURS.get(model, f"C{k}"),
                zorder=3,
            )
            reached = int((gaps >= human).sum()) if np.isfinite(human) else 0
            axis.annotate(
                f"{reached}/{len(gaps)}",
                (k, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
                annotation_clip=False,
            )  # above the frame, clear of the dots
        if np.isfinite(human):
            axis.axhline(human, color=READER_COLOURS["human"], linestyle="--", linewidth=1.2)
            axis.annotate(
                f"human {human:+.3f}",
                (len(models) - 0.5, human),
                xytext=(0, 3),
                textcoords="offset points",
                ha="right",
                va="bottom",
                fontsize=8,
            )
        axis.axhline(0, color="black", linewidth=0.5)
        axis.set_xticks(range(len(models)), models)
        axis.set_title(_title(myth), fontsize=10, pad=16)
        axis.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("gap of a run-triple (mean over its 3 pairs)")
    figure.suptitle(f"{title}\n{COUNT_NOTE}", fontsize=10)
    save_figure(figure, path)
    return figure


@plain_text
def human_pairs(pairs: pd.DataFrame, path: str | Path, title: str) -> None:
    """Label kappa against boundary kappa for each pair of the human's runs, one colour
    per myth, each point labelled with its runs and the days between them (``*`` when a
    date was read from a malformed value: column ``date_note``). ``pairs`` has columns
    myth, run_a, run_b, kappa_label, kappa_boundary, interval_days[, date_note]."""
    figure, axis = plt.subplots(figsize=(6.6, 5.8), layout="constrained")
    line = np.linspace(-0.1, 1.0, 2)
    axis.plot(line, line, color="grey", linewidth=0.8, label="gap 0 (labels as stable as boundaries)")
    axis.plot(line, line + 0.25, color="grey", linewidth=0.8, linestyle=":", label="gap +0.25")
    points = pairs[["kappa_label", "kappa_boundary"]].to_numpy(float)
    flagged = False
    for k, (myth, rows) in enumerate(pairs.groupby("myth", sort=False)):
        axis.scatter(rows["kappa_label"], rows["kappa_boundary"], s=36, color=f"C{k}", label=_title(myth), zorder=3)
        for row in rows.itertuples(index=False):
            days = "" if pd.isna(row.interval_days) else f", {int(row.interval_days)} d"
            star = "*" if isinstance(getattr(row, "date_note", ""), str) and row.date_note else ""
            flagged |= bool(star)
            # A neighbour just to the right would collide with the label: put it on the left.
            dx = points[:, 0] - row.kappa_label
            crowded = ((dx > 0) & (dx < 0.15) & (np.abs(points[:, 1] - row.kappa_boundary) < 0.02)).any()
            axis.annotate(
                f"r{row.run_a}-r{row.run_b}{days}{star}",
                (row.kappa_label, row.kappa_boundary),
                xytext=(-5 if crowded else 5, -3),
                textcoords="offset points",
                fontsize=7,
                ha="right" if crowded else "left",
            )
    axis.set_xlim(-0.12, 0.8)
    axis.set_ylim(0.2, 0.9)
    axis.set_xlabel("label kappa (7 functions)")
    axis.set_ylabel("boundary kappa (boundary / not)")
    axis.grid(alpha=0.3)
    if flagged:
        axis.plot([], [], " ", label="* a date read from a malformed annotated_date")
    figure.legend(fontsize=8, loc="outside lower center", ncols=2)
    axis.set_title(title, fontsize=10)
    save_figure(figure, path)


# --- the figures of the rules plot_shvets2026_*, from the tables the rules read -------------

READER_COLUMNS = [
    "myth",
    "reader",
    "runs",
    "pairs",
    "kappa_boundary",
    "kappa_label",
    "gap",
    "agreement_label",
    "chance_label",
    "agreement_boundary",
    "chance_boundary",
    "share_boundary",
]


def reader_gaps(
    readers: Sequence[pd.DataFrame], myths: Sequence[str], inputs: Sequence[str], figure: str | Path
) -> RuleOutputs:
    """Rule plot_shvets2026_reader_gaps: Tables 1 and 2 in one table (``table``, from the
    readers tables ``inputs`` of ``shvets2026.pairs``), and the Table 2 chart redrawn with
    the human added (gap per reader per myth) at ``figure``."""
    frame = pd.concat(list(readers), ignore_index=True)
    gap_by_reader(
        frame,
        myths,
        figure,
        "Shvets (2026), Tables 1-2 recomputed from the released runs:\nboundary kappa minus label kappa per reader",
    )
    return RuleOutputs(
        tables={
            "table": Table(
                frame[READER_COLUMNS],
                "Tables 1 and 2: mean Cohen's kappa over all pairs of each reader's runs",
                {"paper": "shvets2026", "inputs": ", ".join(inputs)},
            )
        }
    )


def triple_gap_figure(
    triples: pd.DataFrame, readers: Sequence[pd.DataFrame], myths: Sequence[str], path: str | Path
) -> None:
    """Rule plot_shvets2026_triple_gaps: the gap of each run-triple per model and myth
    (``triples``: ``shvets2026.triples``), with the human's own gap (from the readers
    tables) as a line."""
    frame = pd.concat(list(readers), ignore_index=True)
    human = frame[frame["reader"] == "human"].set_index("myth")["gap"].to_dict()
    triple_gaps(
        triples,
        human,
        myths,
        path,
        "Shvets (2026), recomputed from the released runs: every model run-triple (120 per model and myth)\n"
        "against the human's own boundary-label gap",
    )


def human_pair_figure(pairs: Sequence[pd.DataFrame], human: str, path: str | Path) -> None:
    """Rule plot_shvets2026_human_pairs: label kappa against boundary kappa for each pair of
    ``human``'s runs (from the pairs tables of ``shvets2026.pairs``), labelled by the days
    between them."""
    frame = pd.concat(list(pairs), ignore_index=True)
    human_pairs(
        frame[frame["reader"] == human],
        path,
        "Shvets (2026), recomputed from the released runs:\nthe human's run pairs, label vs boundary kappa "
        "(days between runs)",
    )
