# What every rule file needs: the configuration checked and completed, the enabled papers,
# the files they fetch under their settings, and the paper registry (REGISTRY) whose
# PaperBuild each paper's rules.smk imports and fills (reagree.pipeline.paper_registry).
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

# Rule scripts import reagree (this checkout's src/) and their paper's own package
# (workflow/papers/<id>/<id>/, imported as `from <id> import ...`). Snakemake hands the
# parent's sys.path to every script, conda jobs included, so these two lines serve them all.
sys.path.insert(0, str(Path(workflow.basedir) / "src"))
sys.path[1:1] = [str(folder) for folder in sorted((Path(workflow.basedir) / "workflow" / "papers").iterdir())
                 if (folder / folder.name / "__init__.py").is_file()]

from reagree.pipeline import settings as reagree_settings
from reagree.pipeline.fetch import changed_since_fetch, offline_message, sweep_partial_files, unreachable_hosts
from reagree.pipeline.paper_registry import load_enabled_papers, open_registry, paper_files, source_of

WORKFLOW_DIR = Path(workflow.basedir) / "workflow"
_schema = reagree_settings.load_schema(WORKFLOW_DIR / "schemas" / "config.schema.yaml")
try:
    config.update(reagree_settings.coerce_strings(dict(config), _schema))
    _paper_settings = reagree_settings.split_paper_settings(config, WORKFLOW_DIR, _schema)
    # One line naming the key, before Snakemake's own validation (which fills defaults).
    reagree_settings.validate(reagree_settings.fill_defaults(dict(config), _schema), _schema, "config")
except ValueError as error:
    raise WorkflowError(str(error)) from None
validate(config, "../schemas/config.schema.yaml")
for _paper_id in reagree_settings.paper_folders(WORKFLOW_DIR):
    _settings_schema = reagree_settings.paper_settings_schema(WORKFLOW_DIR, _paper_id)
    if _settings_schema is not None:
        _paper_schema = reagree_settings.load_schema(_settings_schema)
        _values = reagree_settings.coerce_strings(_paper_settings.get(_paper_id) or {}, _paper_schema)
        try:
            reagree_settings.validate(reagree_settings.fill_defaults(dict(_values), _paper_schema), _paper_schema,
                                      f"config key {_paper_id!r}")
        except ValueError as error:
            raise WorkflowError(str(error)) from None
        validate(_values, str(_settings_schema))
        _paper_settings[_paper_id] = _values
config.update(_paper_settings)

try:
    PAPERS = load_enabled_papers(config["papers"], WORKFLOW_DIR)
    SOURCES = paper_files(PAPERS, config)
except (ValueError, KeyError) as error:
    raise WorkflowError(str(error)) from None
# Each paper's rules.smk takes its PaperBuild from this registry (`registry().paper(id)`)
# and registers its value files and targets there. Every file the configuration needs is
# a target from the start, so a deleted input is fetched again, and every paper that
# fetches records the sha256 of what it read (rule hash_inputs).
REGISTRY = open_registry(PAPERS, config)

# Only the main Snakemake process looks at data/ and the network: jobs run in processes
# of their own that read this file again, and must not touch files other jobs are writing.
if workflow.is_main_process:
    if config["mirror"] is not None and not Path(config["mirror"]).is_dir():
        raise WorkflowError(f"config key mirror: {config['mirror']!r} is not a folder (seen from {Path.cwd()}); "
                            "point it at an offline mirror laid out by URL, or set mirror: null to download")
    # Inputs are checked where they are used, not only when fetched: a file whose bytes no
    # longer hash to its pin (or to what was fetched) is removed here and fetched again.
    for _paper_id in PAPERS:
        for _stale in sweep_partial_files(f"data/{_paper_id}"):
            print(f"reagree: removed {_stale}, left by an interrupted fetch", file=sys.stderr)
        for _source in SOURCES[_paper_id]:
            _path = Path(f"data/{_paper_id}/{_source['name']}")
            if _path.is_file():
                _why = changed_since_fetch(_path, _source["sha256"])
                if _why:
                    print(f"reagree: {_why}; fetching it again", file=sys.stderr)
                    _path.unlink()

    # Without a mirror, stop before scheduling anything when the sources cannot be reached.
    _missing = [s for p in PAPERS for s in SOURCES[p] if not Path(f"data/{p}/{s['name']}").exists()]
    if config["mirror"] is None and _missing:
        _hosts = unreachable_hosts([s["url"] for s in _missing], timeout=min(5, config["fetch"]["timeout"]))
        if len(_hosts) == len({s["url"].split("/")[2] for s in _missing}):
            raise WorkflowError(offline_message(_hosts, len(_missing)))
