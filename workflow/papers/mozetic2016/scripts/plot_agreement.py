"""Rule plot_mozetic2016_agreement: self- and inter-agreement Alpha of each built dataset
with its bootstrap interval, ordered by self-agreement (the paper's Fig 1 without the
classifier bar); Serbian, Croatian and Bosnian beside the joint Ser/Cro/Bos set."""
import pandas as pd

from mozetic2016.release import JOINT, JOINT_SLUG, display_name
from mozetic2016.plots import self_inter_bars
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake):
    table = pd.read_csv(snakemake.input.table, sep="\t")
    joint_built = display_name(JOINT_SLUG) in set(table["dataset"])
    parts = set(JOINT) if joint_built else set()
    frame = pd.DataFrame({"label": table["dataset"], "kind": table["kind"], "alpha": table["alpha_interval"],
                          "ci_low": table["ci_low"], "ci_high": table["ci_high"], "units": table["units"],
                          "parent": [display_name(JOINT_SLUG) if name in parts else "" for name in table["dataset"]]})
    self_inter_bars(frame, snakemake.output[0],
                    "Mozetič et al. (2016): self- and inter-annotator agreement, recomputed from the labels\n"
                    f"on CLARIN.SI (hdl 11356/1054); 95% bootstrap intervals ({snakemake.params.draws:,} draws)")
