"""Rule fetch_source: copy or download one declared source, sha256-checked, atomically."""
from reagree.fetch import fetch
from reagree.rulekit import rule_log

with rule_log(snakemake) as log:
    settings = snakemake.config.get("fetch", {})
    digest = fetch(
        snakemake.params.url,
        snakemake.output[0],
        sha256=snakemake.params.sha256 or None,
        mirror=snakemake.config.get("mirror"),
        timeout=settings.get("timeout", 60),
        retries=settings.get("retries", 3),
        log=log.info,
    )
    log.info("%s sha256 %s (%s)", snakemake.output[0], digest,
             "pinned and checked" if snakemake.params.sha256 else "not pinned upstream")
