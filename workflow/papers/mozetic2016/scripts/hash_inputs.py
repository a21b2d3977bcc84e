"""Rule hash_mozetic2016_inputs: the sha256 of every language file this run read, in
`sha256sum -c` format. Bosnian, Croatian and Serbian are pinned in paper.yaml (checked at
fetch); the other twelve are recorded here, whatever the download gave."""
from reagree.rulekit import rule_log
from reagree.tables import sha256_of, write_text_atomic

with rule_log(snakemake) as log:
    lines = [f"{sha256_of(path)}  {path}" for path in sorted(snakemake.input)]
    write_text_atomic(snakemake.output[0], "\n".join(lines) + "\n")
    log.info("%d files hashed (%d pinned in paper.yaml)", len(lines), len(snakemake.params.pinned))
