# What the main process checks and does once every rule is known and before any job runs:
# what the enabled settings need beyond the lock (packages, model weights: one line naming
# what is missing and how to get it; reagree.pipeline.requirements), and, once Snakemake
# has planned the jobs, removing the summary, report and claims this run will rebuild, so
# that a run that fails leaves none of them to be read as current
# (reagree.pipeline.runs.withdraw_verdicts). When a paper's claims could not be diffed, the
# run ends with its error (reagree.pipeline.failures).
from reagree.pipeline.failures import ending, failed_papers
from reagree.pipeline.requirements import unmet_requirements
from reagree.pipeline.runs import planned_outputs, verdict_files, withdraw_verdicts

if INVOCATION in ("run", "dry-run"):
    _unmet = unmet_requirements(REGISTRY.requirements(), timeout=min(5, config["fetch"]["timeout"]))
    if _unmet:
        stop("\n".join(f"reagree: {line}" for line in _unmet))

_WITHDRAWN = []


onstart:
    if INVOCATION == "run":  # not --touch and the like, which also start the scheduler
        _WITHDRAWN[:] = withdraw_verdicts(verdict_files(PAPERS), planned_outputs(workflow))


onerror:
    _gone = [path for path in _WITHDRAWN if not Path(path).exists()]
    if _gone:
        print(
            f"reagree: this run failed before rebuilding {', '.join(_gone)}; they were removed when it "
            "started, so no summary from an earlier run stands as current. Fix the error above and run again.",
            file=sys.stderr,
        )
    # a paper whose claims could not be diffed (rule confirm_claims): its error, the last line on
    # the screen (Snakemake would print its log's path and its own one-line error after this hook)
    _failed = failed_papers("results", PAPERS) if INVOCATION == "run" else {}
    if _failed:
        print("\n".join(ending(_failed)), file=sys.stderr, flush=True)
        raise SystemExit(1)
