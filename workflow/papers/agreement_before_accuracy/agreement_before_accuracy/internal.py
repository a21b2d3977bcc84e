"""Agreement Before Accuracy: the prose's figures held against the printed tables they read
(``reagree.pipeline.internal``).

"The widths are the useful part. A 100-item reliability sample gives a kappa interval
about 0.22 wide, ... and 2,000 items give roughly plus or minus 0.025": the prose reads
block 3's printed width table, so its "plus or minus" is half the printed 2,000-item kappa
width, 0.051 (each printed number the interval its digits allow). The claim is in
``claims/prose_statements.tsv`` (``source: internal``); the rule
``check_agreement_before_accuracy_printed`` writes the value.
"""

from reagree.pipeline.internal import Printed, relate

from agreement_before_accuracy import keys

RELATIONS = [
    relate(keys.HALF_WIDTH_PRINTED, Printed("width.kappa.a_b.width_study.n2000", where="block 3"), 2, n=2000),
]
