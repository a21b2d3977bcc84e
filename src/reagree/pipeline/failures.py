"""A paper whose claims could not be diffed fails that paper alone.

What it decides:

- **The failure is a record, not a crash.** Rule diff_claims writes, beside every paper's
  ``claims.tsv``, ``claims_error.txt``: empty when the claims were diffed, else the one
  error that stopped them (a claim key no rule produces, with its file, line and "did you
  mean"; a tolerance that is not a number; a pin that no longer holds; a variants rule
  that contradicts the value rule). On such an error the paper's ``claims.tsv`` holds
  the header and no row, so no verdict of that paper stands, and the job ends with
  status 0: Snakemake goes on building every other paper's claims, the summary and the
  report, where the failed paper has one line saying so and why.
- **The run still fails, and says why last.** Rule confirm_claims runs after the summary
  and the report; it writes ``results/claims_diffed.txt`` (every paper's claims were
  diffed) or, when a paper failed, prints one line per failed paper and exits 1. Its
  output is then missing, so every later run tries it again and fails the same way until
  the claims are fixed: a run that finds nothing else to do does not end green beside a
  failed paper. The workflow's ``onerror`` prints the same lines once more, after
  Snakemake's own report of the failed job, so the error is the last thing on the screen
  (``ending``).
- **Why not let the job fail.** A failed job stops Snakemake from starting any other, and
  the summary and report need every paper's claims: one typo would leave no summary at
  all (``reagree.pipeline.runs.withdraw_verdicts`` removed the old one when the run
  started). A stale summary never stands: the failed paper's claims are withdrawn and
  written empty, the others are rebuilt from their own inputs.
- **What counts.** A ``ValueError`` raised while the paper's claims are read and diffed
  (``reagree.pipeline.claims``, ``paperspec``, ``pins``): an error in one paper's files.
  Anything else (a defect in reagree, a full disk) fails the job as before.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Mapping

import pandas as pd

__all__ = [
    "CLAIMS_DIFFED",
    "CLAIMS_ERROR",
    "confirm_claims",
    "ending",
    "error_path",
    "failed_papers",
    "one_line",
    "paper_failure",
    "read_failure",
]

#: Beside each paper's claims.tsv: empty, or the error that stopped its claims.
CLAIMS_ERROR = "claims_error.txt"
#: What rule confirm_claims writes when every paper's claims were diffed.
CLAIMS_DIFFED = "results/claims_diffed.txt"


def error_path(results: str | Path, paper: str) -> Path:
    return Path(results) / paper / CLAIMS_ERROR


def one_line(error: BaseException | str) -> str:
    """The error as it is recorded: its lines joined (several unproduced keys are one line
    each in the error; ``; `` keeps them on the summary's one line per paper)."""
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip())


def read_failure(path: str | Path) -> str:
    """The recorded error of a paper's claims ("" when they were diffed, or no record exists)."""
    path = Path(path)
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def failed_papers(results: str | Path, papers: Iterable[str]) -> dict[str, str]:
    """{paper: its recorded error} for every paper whose claims could not be diffed."""
    found = {paper: read_failure(error_path(results, paper)) for paper in papers}
    return {paper: error for paper, error in found.items() if error}


def ending(failed: Mapping[str, str]) -> list[str]:
    """The lines a run that built everything else ends with when papers failed: which, that
    the others stand, and each error (the last line is an error)."""
    if not failed:
        return []
    names = ", ".join(failed)
    lines = [
        f"reagree: the claims of {names} could not be diffed: {'its' if len(failed) == 1 else 'their'} "
        "verdicts are withdrawn; every other paper's results stand in results/summary.md and "
        "results/report.html. Fix the file named below and run again."
    ]
    lines += [f"reagree: {paper}: {error}" for paper, error in failed.items()]
    return lines


@contextmanager
def paper_failure(claims_path: str | Path, error_file: str | Path, log: logging.Logger, paper: str) -> Iterator[None]:
    """Rule diff_claims' body runs inside: when it raises ``ValueError`` (module
    docstring), the error is recorded in ``error_file``, ``claims_path`` gets the header
    and no row, and the job ends well; otherwise ``error_file`` is written empty."""
    from reagree.pipeline.claims import CLAIM_COLUMNS
    from reagree.pipeline.tables import write_text_atomic, write_tsv

    try:
        yield
    except ValueError as error:
        said = one_line(error)
        log.error("%s: its claims could not be diffed (the other papers go on): %s", paper, said)
        write_text_atomic(error_file, said + "\n")
        write_tsv(pd.DataFrame(columns=CLAIM_COLUMNS), claims_path)
    else:
        write_text_atomic(error_file, "")


def confirm_claims(papers: Iterable[str], out: str | Path, results: str | Path = "results") -> int:
    """Rule confirm_claims: 0 with ``out`` written when no paper failed, else 1 with
    ``ending``'s lines on stderr and ``out`` not written (module docstring)."""
    import sys

    from reagree.pipeline.tables import write_text_atomic

    papers = list(papers)
    failed = failed_papers(results, papers)
    if failed:
        print("\n".join(ending(failed)), file=sys.stderr)
        return 1
    write_text_atomic(out, "".join(f"{paper}: claims diffed\n" for paper in papers))
    return 0
