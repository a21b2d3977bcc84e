"""Self- and inter-annotator agreement per dataset as bars with intervals (Mozetič et al.
2016, Fig 1, without the classifier bar). Matplotlib with the Agg backend and no
timestamps (``reagree.plots``), so reruns give the same bytes.

Layout: datasets ordered by decreasing self-agreement (undefined last); a dataset's
parts (``parent`` names the dataset they split) stand right after it, hatched and
labelled in italics, so the joint Ser/Cro/Bos set and its three languages sit side by
side. Green: self-agreement; blue: inter-agreement; error bars: the bootstrap interval;
a kind with no units has no bar and is marked "n/a". A part whose bar equals its
dataset's because the dataset's units of that kind are all the part's says "same data as
<dataset>" on the bar; a note under the axis says what "n/a" means here and why a bar
repeats.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from reagree.plots import plain_text, plt, save_figure

from mozetic2016.release import JOINT, JOINT_SLUG, display_name

COLOURS = {"self": "#2e8b57", "inter": "#3b6fb6"}
KINDS = ("self", "inter")
NO_UNITS = {
    "self": "no tweet was labelled twice by the same annotator",
    "inter": "no tweet was labelled by two annotators",
}


def repeats(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(part, kind, dataset) of every part whose bar repeats its dataset's: the same value
    from the same units, because the dataset's other parts have no units of that kind.
    ``frame`` as for :func:`self_inter_bars`."""
    found = []
    for kind in KINDS:
        rows = frame[frame["kind"] == kind]
        for parent in dict.fromkeys(rows.loc[rows["parent"] != "", "parent"]):
            whole = rows[rows["label"] == parent]
            parts = rows[rows["parent"] == parent]
            defined = parts[parts["alpha"].notna()]
            others = list(parts.loc[parts["alpha"].isna(), "label"])
            if len(whole) != 1 or len(defined) != 1 or not others or not np.isfinite(whole["alpha"].iloc[0]):
                continue
            part, same = defined.iloc[0], whole.iloc[0]
            units_agree = "units" not in frame or part["units"] == same["units"]
            if np.isclose(part["alpha"], same["alpha"], rtol=0, atol=1e-12) and units_agree:
                found.append((part["label"], kind, parent))
    return found


def notes(frame: pd.DataFrame) -> list[str]:
    """What the bars cannot say themselves: which bars are "n/a" and why, and which part
    repeats its dataset's bar (``repeats``; the bar itself says "same data as ..."). ``frame``
    as for :func:`self_inter_bars`."""
    said = []
    for kind in KINDS:
        rows = frame[frame["kind"] == kind]
        missing = list(rows.loc[rows["alpha"].isna(), "label"])
        if missing:
            said.append(f'"n/a" ({kind}): {", ".join(missing)}: {NO_UNITS[kind]}.')
    for label, kind, parent in repeats(frame):
        rows = frame[frame["kind"] == kind]
        part = rows[rows["label"] == label].iloc[0]
        others = list(rows.loc[(rows["parent"] == parent) & rows["alpha"].isna(), "label"])
        units = f"{int(part['units']):,} " if "units" in frame else ""
        said.append(
            f"{label}'s {kind}-agreement equals {parent}'s: its {units}{kind} units are "
            f"all {label}'s ({', '.join(others)} have none)."
        )
    return said


def _order(frame: pd.DataFrame) -> list[str]:
    """Top-level datasets by decreasing self alpha (ties and NaN in first-seen order),
    each followed by its parts in first-seen order."""
    labels = list(dict.fromkeys(frame["label"]))
    parent_of = dict(zip(frame["label"], frame["parent"].fillna("")))
    self_alpha = frame[frame["kind"] == "self"].set_index("label")["alpha"].to_dict()
    top = [label for label in labels if not parent_of.get(label)]
    top.sort(key=lambda label: (np.isnan(self_alpha.get(label, np.nan)), -np.nan_to_num(self_alpha.get(label, np.nan))))
    order = []
    for label in top:
        order.append(label)
        order += [child for child in labels if parent_of.get(child) == label]
    order += [label for label in labels if label not in order]  # parts whose parent is absent
    return order


@plain_text
def self_inter_bars(frame: pd.DataFrame, path: str | Path, title: str, ylabel: str = "Krippendorff's Alpha (interval)"):
    """``frame``: one row per (label, kind) with columns label, kind ("self" / "inter"),
    alpha, ci_low, ci_high, parent ("" for a dataset, else the dataset it is part of) and
    optionally units. Returns the (closed) figure."""
    frame = frame.copy()
    frame["parent"] = frame.get("parent", pd.Series("", index=frame.index)).fillna("")
    order = _order(frame)
    parts = {label for label, parent in zip(frame["label"], frame["parent"]) if parent}
    width = 0.38
    figure, axis = plt.subplots(figsize=(max(7.6, 0.85 * len(order) + 2.0), 5.2), constrained_layout=True)
    x = np.arange(len(order), dtype=float)
    lows = []
    repeated = {(label, kind): parent for label, kind, parent in repeats(frame)}
    for offset, kind in zip((-width / 2, width / 2), KINDS):
        rows = frame[frame["kind"] == kind].set_index("label").reindex(order)
        alpha = rows["alpha"].to_numpy(dtype=float)
        low, high = rows["ci_low"].to_numpy(dtype=float), rows["ci_high"].to_numpy(dtype=float)
        lows.append(np.nanmin(np.r_[alpha, low, 0.0]))
        hatch = ["//" if label in parts else "" for label in order]
        for i, value in enumerate(alpha):
            if np.isnan(value):
                axis.text(x[i] + offset, 0.01, "n/a", ha="center", va="bottom", fontsize=8, color="0.4")
                continue
            axis.bar(
                x[i] + offset,
                value,
                width,
                color=COLOURS[kind],
                alpha=0.55 if hatch[i] else 0.9,
                hatch=hatch[i],
                edgecolor="white" if not hatch[i] else COLOURS[kind],
                label=f"{kind}-agreement" if i == int(np.flatnonzero(~np.isnan(alpha))[0]) else None,
            )
            if np.isfinite(low[i]) and np.isfinite(high[i]):
                axis.errorbar(
                    x[i] + offset,
                    value,
                    yerr=[[value - low[i]], [high[i] - value]],
                    color="black",
                    capsize=3,
                    linewidth=1,
                )
            # a bar that repeats its dataset's says so on the bar itself, not only in the note
            same = f" (same data as {repeated[order[i], kind]})" if (order[i], kind) in repeated else ""
            axis.text(
                x[i] + offset,
                max(value, high[i] if np.isfinite(high[i]) else value) + 0.015,
                f"{value:.3f}{same}",
                ha="center",
                va="bottom",
                fontsize=7,
                rotation=90,
            )
    for parent in dict.fromkeys(frame.loc[frame["parent"] != "", "parent"]):
        members = [
            i
            for i, label in enumerate(order)
            if label in parts and frame.loc[frame["label"] == label, "parent"].iloc[0] == parent
        ]
        if members:  # a light band behind a dataset's parts, named after it
            axis.axvspan(min(members) - 0.5, max(members) + 0.5, color="0.94", zorder=0)
            axis.text(
                (min(members) + max(members)) / 2,
                1.0,
                f"{parent} by language",
                ha="center",
                va="top",
                fontsize=8,
                color="0.35",
                fontstyle="italic",
            )
    axis.set_xlim(-0.6, len(order) - 0.4)
    axis.set_xticks(x, order, rotation=35, ha="right")
    for tick, label in zip(axis.get_xticklabels(), order):
        if label in parts:
            tick.set_fontstyle("italic")
    axis.axhline(0, color="0.3", linewidth=0.8)
    axis.set_ylim(min(-0.05, min(lows) - 0.05), 1.05)
    axis.set_ylabel(ylabel)
    axis.set_title(title, fontsize=10)
    axis.legend(loc="upper left", frameon=False, fontsize=8)
    axis.grid(axis="y", color="0.9")
    axis.set_axisbelow(True)
    said = notes(frame)
    if said:
        figure.supxlabel(
            "\n".join(textwrap.fill(line, 125) for line in said), fontsize=8, color="0.3", x=0.01, ha="left"
        )
    save_figure(figure, path)
    return figure


def agreement_figure(table: pd.DataFrame, draws: int, path: str | Path):
    """The figure of rule plot_mozetic2016_agreement from Table 4 (``table``: the rows of
    ``mozetic2016.agreement``): every built dataset's self and inter Alpha with its interval
    (``draws`` bootstrap draws), Serbian, Croatian and Bosnian as parts of the joint
    Ser/Cro/Bos set when it is built."""
    joint_built = display_name(JOINT_SLUG) in set(table["dataset"])
    parts = set(JOINT) if joint_built else set()
    frame = pd.DataFrame(
        {
            "label": table["dataset"],
            "kind": table["kind"],
            "alpha": table["alpha_interval"],
            "ci_low": table["ci_low"],
            "ci_high": table["ci_high"],
            "units": table["units"],
            "parent": [display_name(JOINT_SLUG) if name in parts else "" for name in table["dataset"]],
        }
    )
    return self_inter_bars(
        frame,
        path,
        "Mozetič et al. (2016): self- and inter-annotator agreement, recomputed from the labels\n"
        f"on CLARIN.SI (hdl 11356/1054); 95% bootstrap intervals ({draws:,} draws)",
    )
