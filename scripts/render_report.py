"""Rule render_report: results/report.html from the run's claims, figures, tables and audits."""

from pathlib import Path

from reagree.report import build_report
from reagree.pipeline.rulekit import rule_log

with rule_log(snakemake) as log:
    out = Path(snakemake.output[0])
    figures = [t for t in snakemake.input.targets if t.endswith(".png")]
    build_report(
        out.parent,
        snakemake.params.papers,
        snakemake.params.datasets,
        out,
        figures=figures,
        settings=snakemake.params.settings,
        captions=snakemake.params.captions,
        left_out=snakemake.params.left_out,
    )
    log.info("%s: %d bytes", out, out.stat().st_size)
