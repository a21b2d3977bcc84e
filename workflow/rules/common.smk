# What every rule file needs: the configuration checked and completed, the enabled papers,
# the files they fetch under their settings, and the paper registry (REGISTRY) whose
# PaperBuild each paper's rules.smk imports and fills (reagree.pipeline.paper_registry).
# (sys.path already holds this checkout's src/ and the papers' packages: rules/configfiles.smk.)
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from reagree.pipeline import settings as reagree_settings
from reagree.pipeline.documents import paper_documents
from reagree.pipeline.halt import stop
from reagree.pipeline.fetch import offline_message, sweep_partial_files, unreachable_hosts
from reagree.pipeline.paper_registry import load_enabled_papers, open_registry, paper_files
from reagree.pipeline.pins import Inspection, inspect_inputs, inspect_rule_reads
from reagree.pipeline.runs import RunAlive, RunLock, invocation

WORKFLOW_DIR = Path(workflow.basedir) / "workflow"
_schema = reagree_settings.load_schema(WORKFLOW_DIR / "schemas" / "config.schema.yaml")
try:
    config.update(reagree_settings.coerce_strings(dict(config), _schema))
    _paper_settings = reagree_settings.split_paper_settings(config, WORKFLOW_DIR, _schema)
    # One line naming the key, before Snakemake's own validation (which fills defaults).
    reagree_settings.validate(reagree_settings.fill_defaults(dict(config), _schema), _schema, "config")
except ValueError as error:
    stop(str(error))
# Snakemake's own validation fills the defaults; its error, too, is one line and the last.
try:
    validate(config, "../schemas/config.schema.yaml")
except WorkflowError as error:
    stop(str(error).strip())
for _paper_id in reagree_settings.paper_folders(WORKFLOW_DIR):
    _settings_schema = reagree_settings.paper_settings_schema(WORKFLOW_DIR, _paper_id)
    if _settings_schema is not None:
        _paper_schema = reagree_settings.load_schema(_settings_schema)
        _values = reagree_settings.coerce_strings(_paper_settings.get(_paper_id) or {}, _paper_schema)
        try:
            reagree_settings.validate(
                reagree_settings.fill_defaults(dict(_values), _paper_schema), _paper_schema, f"config key {_paper_id!r}"
            )
        except ValueError as error:
            stop(str(error))
        try:
            validate(_values, str(_settings_schema))
        except WorkflowError as error:
            stop(str(error).strip())
        _paper_settings[_paper_id] = _values
config.update(_paper_settings)

try:
    PAPERS = load_enabled_papers(config["papers"], WORKFLOW_DIR)
    SOURCES = paper_files(PAPERS, config)
    # The documents each paper's ledger reads (paper.yaml and the config's documents:),
    # fetched and pinned like sources under data/<paper>/documents/ (rules/ledger.smk).
    DOCUMENTS = paper_documents(PAPERS, config, WORKFLOW_DIR)
except (ValueError, KeyError) as error:
    stop(str(error))
# The paper folders this run does not build (config papers): the summary and the report say so.
LEFT_OUT = [paper for paper in reagree_settings.paper_folders(WORKFLOW_DIR) if paper not in PAPERS]
# Each paper's rules.smk takes its PaperBuild from this registry (`registry().paper(id)`)
# and registers its value files and targets there. Every file the configuration needs is
# a target from the start, so a deleted input is fetched again, and every paper that
# fetches records the sha256 of what it read (rule hash_inputs).
REGISTRY = open_registry(PAPERS, config)

# Only the main Snakemake process looks at data/ and the network: jobs run in processes
# of their own that read this file again, and must not touch files other jobs are writing.
# Only a run changes anything (after taking the folder's run lock, so no other run is
# writing); a dry run (-n) checks and says what a run would do; --unlock, --lint, --summary
# and the like read no data at all (reagree.pipeline.runs).
INVOCATION = invocation(workflow)
if INVOCATION == "run":
    try:
        RUN_LOCK = RunLock().acquire()  # held until this process ends
    except RunAlive as error:
        stop(error)
elif INVOCATION == "dry-run":  # a live run's half-done outputs would otherwise fail the plan
    try:
        RunLock().check("dry run")
    except RunAlive as error:
        stop(error)
if INVOCATION in ("run", "dry-run"):
    if config["mirror"] is not None and not Path(config["mirror"]).is_dir():
        stop(
            f"config key mirror: {config['mirror']!r} is not a folder (seen from {Path.cwd()}); "
            "point it at an offline mirror laid out by URL, or set mirror: null to download"
        )
    # Inputs are checked where they are used, not only when fetched (reagree.pipeline.pins):
    # a pinned file with other bytes is fetched again; an unpinned one whose bytes differ
    # from those recorded at its first fetch stops the run, as does a mirror copy that differs.
    _inspection = Inspection()
    for _paper_id in PAPERS:
        for _stale in sweep_partial_files(f"data/{_paper_id}", remove=INVOCATION == "run"):
            _done = "removed" if INVOCATION == "run" else "a run removes"
            print(f"reagree: {_done} {_stale}, left by an interrupted fetch", file=sys.stderr)
        # each input against its pin or record; then what a rule computed from other bytes (a file
        # that moved while a run read it) is computed again, once the file has its bytes back
        try:
            inspect_inputs(
                _paper_id,
                SOURCES[_paper_id] + DOCUMENTS[_paper_id],
                mirror=config["mirror"],
                act=INVOCATION == "run",
                found=_inspection,
            )
            inspect_rule_reads(
                _paper_id, SOURCES[_paper_id] + DOCUMENTS[_paper_id], act=INVOCATION == "run", found=_inspection
            )
        except ValueError as error:  # a malformed record, a source that is not a regular file: one line
            stop(error)
    for _note in _inspection.notes:
        print(f"reagree: {_note}", file=sys.stderr)
    if _inspection.problems:
        stop(_inspection.message())

    # Without a mirror, stop before scheduling anything when the sources cannot be reached.
    _missing = [
        s for p in PAPERS for s in SOURCES[p] + DOCUMENTS[p] if s["url"] and not Path(f"data/{p}/{s['name']}").exists()
    ]
    if config["mirror"] is None and _missing:
        _hosts = unreachable_hosts([s["url"] for s in _missing], timeout=min(5, config["fetch"]["timeout"]))
        if len(_hosts) == len({s["url"].split("/")[2] for s in _missing}):
            stop(offline_message(_hosts, len(_missing)))
