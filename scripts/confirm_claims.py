"""Rule confirm_claims: results/claims_diffed.txt when every paper's claims were diffed,
else one line per paper that failed and exit status 1 (reagree.pipeline.failures)."""

import sys

from reagree.pipeline.failures import confirm_claims

sys.exit(confirm_claims(snakemake.params.papers, snakemake.output[0]))
