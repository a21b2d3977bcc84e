# Before `configfile:` merges them: config.yaml and every --configfile read with reagree's
# strict YAML reader (alias bombs, repeated keys with both lines, non-finite numbers, one
# line each). Snakemake has loaded the --configfile files already, but its loader shares an
# alias's object instead of copying it; the merge that follows this file would expand it.
import sys
from pathlib import Path

# Rule scripts import reagree (this checkout's src/) and their paper's own package
# (workflow/papers/<id>/<id>/, imported as `from <id> import ...`). Snakemake hands the
# parent's sys.path to every script, conda jobs included, so these two lines serve them all.
sys.path.insert(0, str(Path(workflow.basedir) / "src"))
sys.path[1:1] = [
    str(folder)
    for folder in sorted((Path(workflow.basedir) / "workflow" / "papers").iterdir())
    if (folder / folder.name / "__init__.py").is_file()
]

from reagree.pipeline.halt import stop
from reagree.pipeline.settings import check_config_files

try:
    check_config_files(["config.yaml", *workflow.overwrite_configfiles], config)
except ValueError as error:
    stop(str(error))
