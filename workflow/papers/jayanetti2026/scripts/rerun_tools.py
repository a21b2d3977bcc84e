"""Rules rerun_jayanetti2026_tools and rerun_jayanetti2026_roberta: the rule's tools rerun on
the text the paper's tools read, compared with the released tool labels and scored against
the released majority; the TextBlob/VADER rule also shows what the tools read
(jayanetti2026.reruns.rerun_tools)."""

import sys

from jayanetti2026 import keys
from jayanetti2026.release import read_release
from jayanetti2026.reruns import rerun_tools
from jayanetti2026.toolrerun import ToolUnavailable
from reagree.pipeline.rulekit import rule_log, write_outputs

with rule_log(snakemake) as log:
    release = read_release(snakemake.input.labels)
    try:
        outputs = rerun_tools(
            release,
            list(snakemake.params.tools),
            keys.RERUNS[snakemake.rule],
            snakemake.params.settings,
            snakemake.params.bootstrap,
            show_read="translated" in snakemake.output.keys(),
            log=log,
        )
    except ToolUnavailable as unavailable:
        log.error("%s", unavailable)
        sys.exit(str(unavailable))  # names what is missing, how to get it, and how to leave the rerun out
    write_outputs(outputs, snakemake)
