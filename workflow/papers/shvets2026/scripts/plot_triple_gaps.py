"""Rule plot_shvets2026_triple_gaps: the gap of each of the 120 run-triples per model and
myth, with the human's own gap as a line."""
import pandas as pd

from reagree.pipeline.rulekit import rule_log
from shvets2026.plots import triple_gaps

with rule_log(snakemake):
    triples = pd.read_csv(snakemake.input.triples, sep="\t")
    readers = pd.concat([pd.read_csv(path, sep="\t") for path in snakemake.input.readers], ignore_index=True)
    human = readers[readers["reader"] == "human"].set_index("myth")["gap"].to_dict()
    triple_gaps(triples, human, snakemake.params.myths, snakemake.output[0],
                "Shvets (2026), recomputed from the released runs: every model run-triple (120 per model and myth)\n"
                "against the human's own boundary-label gap")
