"""Every input is pinned: by its sha256 in paper.yaml, or at its first fetch (trust on first use).

What it decides:

- **Pinned files** carry a sha256 in paper.yaml. A fetch that brings other bytes is
  refused, naming both hashes; a pinned file changed on disk is removed and fetched
  again at the start of the next run.
- **Unpinned files are pinned on first use.** Where upstream bytes are not fixed (or
  the offline mirror's copies differ from upstream, so the repository must never pin
  them), the first fetch records the file's sha256 in ``data/<paper>.sha256``: one
  ``<sha256>  <paper>/<name>`` line per file, the format ``sha256sum -c`` reads from
  ``data/``. The record lives beside the paper's folder, not in it and not in git, so
  it survives deleting a data file, the paper's folder and ``make clean``; only
  deleting it (or ``rm -rf data``) or ``reagree accept`` changes it.
- **A copy the record does not list is fetched again, never recorded.** When the
  record is deleted (or loses a line) while fetched files are still in ``data/``, their
  origin is unknown (a ``path:`` source edited since, a mirror changed since): the start
  of a run says so in one line and removes them, so their fetch jobs bring them again
  from this run's sources and record what arrives. Results then follow the sources, and
  an unchanged source gives the same bytes. (reagree's older records beside the files,
  below, are still moved in.)
- **A changed input stops the run.** A fetch that brings bytes other than the recorded
  ones, or a file on disk that no longer hashes to its record, stops the run with one
  message naming the file, both hashes and the command that accepts the new version:
  ``reagree accept PAPER NAME SHA256``. reagree never computes from an input whose hash
  is not the pinned or recorded one, because a silently changed input turns into false
  findings.
- **Accepting takes a source's name, never a path.** ``accept`` takes only a name the
  paper's sources produce under some setting (``reagree.pipeline.sources.SourceNames``:
  a relative path inside ``data/<paper>/``) whose file, if any, is a regular file; a
  record line naming anything else is malformed. Anything else is refused before
  anything changes.
- **Accepting rebuilds what read it.** ``accept`` records the new sha256. A file on
  disk with those bytes is touched, so everything that read it is older than it and is
  rebuilt; a file with other bytes is removed, so the next run fetches the accepted
  version (and refuses any other).
- **A local source is checked at every start** (a ``path:`` source,
  ``reagree.pipeline.sources``): its file is hashed against its pin or record even when
  its copy in ``data/`` is there, so an edited file stops the run with the command that
  takes it, instead of an old copy standing in for it.
- **Checked again before a claim is written** (``verify_read_inputs``): the claims rule
  holds ``results/<paper>/inputs.sha256``, the hashes of the files when ``hash_inputs``
  read them, against the pins and the record; a difference stops the rule before it
  writes a single status.
- **The bytes a number was computed from are the ones checked** (``verify_rule_reads``):
  a computing rule hashes each data file in the same read it parses it
  (``reagree.io.reads``) and writes those hashes beside its values and variants
  (``<file>.reads``). The claims rule holds every one against ``inputs.sha256`` and the
  pins and the record, so a file edited while a run is under way (after ``hash_inputs``
  hashed it, before a rule read it) stops the rule, one line per file naming the output,
  both hashes and what to do, instead of giving false mismatches with exit 0.
- **A number computed from moved bytes is computed again** (``inspect_rule_reads``, at
  the start of every run): when a ``.reads`` names bytes other than the pinned or
  recorded ones and the file has those bytes again, the file is touched (a dry run only
  says so), so everything that read it is computed again from the checked bytes instead
  of the claims rule refusing forever.
- Files fetched by reagree before this record existed kept their hash in
  ``.<name>.sha256`` beside them; the first run moves those into the record.
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

from reagree.io.reads import READS_SUFFIX, load_reads, reads_path
from reagree.pipeline.fetch import (
    FetchError,
    DigestMismatch,
    FetchErrors,
    Wanted,
    fetch_all,
    legacy_digest_record,
    mirror_path,
)
from reagree.files import not_regular
from reagree.pipeline.sources import SourceNames, expand_entry, is_name, local_path, origin
from reagree.pipeline.tables import sha256_of, write_text_atomic

__all__ = [
    "DATA",
    "InputChanged",
    "Inspection",
    "accept",
    "accept_command",
    "changed_at_source",
    "changed_on_disk",
    "fetch_entry",
    "inspect_inputs",
    "inspect_rule_reads",
    "read_record",
    "record_path",
    "update_record",
    "verify_read_inputs",
    "verify_rule_reads",
]

DATA = Path("data")


class InputChanged(FetchError):
    """An input's bytes are not the pinned or recorded ones; the message says what to do."""


def record_path(paper_id: str, data: str | os.PathLike = DATA) -> Path:
    """``data/<paper>.sha256``: the hashes recorded when the paper's unpinned files were first fetched."""
    return Path(data) / f"{paper_id}.sha256"


def read_record(paper_id: str, data: str | os.PathLike = DATA) -> dict[str, str]:
    """``{name: sha256}`` of the record (empty when there is none). A line that is not
    UTF-8 or not ``<sha256>  <paper>/<name>`` with a source name (a relative path inside
    the paper's folder) is a ValueError naming the file and the line."""
    path = record_path(paper_id, data)
    if not path.is_file():
        return {}
    expected = f"expected '<sha256>  {paper_id}/<name>'"
    prefix = f"{paper_id}/"
    recorded = {}
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(
                f"{path}, line {number}: not UTF-8 text; {expected} (delete the line: the file it "
                "names is then fetched again and recorded)"
            ) from None
        if not line.strip():
            continue
        digest, _, where = line.partition("  ")
        name = where[len(prefix) :]
        if (
            len(digest) != 64
            or any(c not in "0123456789abcdef" for c in digest)
            or not where.startswith(prefix)
            or not is_name(name)
        ):
            raise ValueError(f"{path}, line {number}: {expected}, got {line!r}")
        recorded[name] = digest
    return recorded


@contextmanager
def _record_lock(data: str | os.PathLike):
    """Several fetch jobs of one paper record at once: a flock on ``data/`` serialises
    their read-modify-write of the record (and leaves no lock file behind)."""
    Path(data).mkdir(parents=True, exist_ok=True)
    fd = os.open(data, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write_record(paper_id: str, recorded: dict[str, str], data: str | os.PathLike) -> None:
    path = record_path(paper_id, data)
    if not recorded:
        path.unlink(missing_ok=True)
        return
    write_text_atomic(path, "".join(f"{digest}  {paper_id}/{name}\n" for name, digest in sorted(recorded.items())))


def update_record(paper_id: str, changes: dict[str, str | None], data: str | os.PathLike = DATA) -> None:
    """Set (or, for None, forget) the recorded sha256 of each name."""
    if not changes:
        return
    with _record_lock(data):
        recorded = read_record(paper_id, data)
        for name, digest in changes.items():
            if digest is None:
                recorded.pop(name, None)
            else:
                recorded[name] = digest
        _write_record(paper_id, recorded, data)


# --------------------------------------------------------------------------- messages


def accept_command(paper_id: str, name: str, digest: str) -> str:
    return f"reagree accept {paper_id} {name} {digest}"


def changed_on_disk(paper_id: str, name: str, actual: str, recorded: str, data: str | os.PathLike = DATA) -> str:
    path = Path(data) / paper_id / name
    return (
        f"{path} changed since it was first fetched: its sha256 is {actual}, the one recorded in "
        f"{record_path(paper_id, data)} is {recorded}. reagree does not compute from a changed input. "
        f"To use the file as it is now: {accept_command(paper_id, name, actual)} "
        f"(to get the recorded version back instead: delete {path} and run again)"
    )


def changed_at_source(
    paper_id: str, name: str, url: str, actual: str, recorded: str, where: str = "", data: str | os.PathLike = DATA
) -> str:
    path = Path(data) / paper_id / name
    return (
        f"{path}: its source now has sha256 {actual}, not the {recorded} recorded when it was first fetched "
        f"({record_path(paper_id, data)}); source: {url}{where}. reagree does not compute from a changed "
        f"input. To take the new version: {accept_command(paper_id, name, actual)}"
    )


def _several(problems: list[str], paper_ids: set[str]) -> str:
    if len(problems) == 1:
        return problems[0]
    every = "; ".join(f"reagree accept {p} --all" for p in sorted(paper_ids))
    return (
        f"{len(problems)} inputs differ from the sha256 recorded when they were first fetched:\n"
        + "\n".join(f"- {problem}" for problem in problems)
        + f"\n(to take every new version of a paper at once: {every})"
    )


# ---------------------------------------------------------------- the start of a run


@dataclasses.dataclass
class Inspection:
    """What the start of a run found in ``data/``: lines to print, and problems that stop it."""

    notes: list[str] = dataclasses.field(default_factory=list)
    problems: list[str] = dataclasses.field(default_factory=list)
    papers_with_problems: set[str] = dataclasses.field(default_factory=set)

    def message(self) -> str:
        return _several(self.problems, self.papers_with_problems) if self.problems else ""


def inspect_inputs(
    paper_id: str,
    sources: list[dict],
    *,
    mirror: str | os.PathLike | None = None,
    act: bool,
    data: str | os.PathLike = DATA,
    found: Inspection | None = None,
) -> Inspection:
    """Check every source of a paper already in ``data/`` against its pin or record, and
    (with a mirror) every unpinned one still to be copied against its record.

    With ``act`` (a run) a pinned file with other bytes is removed so that it is fetched
    again, and so is an unpinned file the record does not list (the record was deleted,
    or lost its line: a copy of unknown origin is never recorded; its fetch records what
    the source brings); reagree's older records beside the files are moved in. Without
    ``act`` (a dry run) nothing on disk changes and the notes say what a run would do.
    Files with other bytes than their record are problems: the run stops before any job."""
    found = found or Inspection()
    recorded = read_record(paper_id, data)
    legacy_digests: dict[str, str] = {}
    legacy: list[Path] = []
    unrecorded: list[str] = []
    for source in sources:
        name, pin = source["name"], (source.get("sha256") or "").lower() or None
        path = Path(data) / paper_id / name
        expected = recorded.get(name)
        if expected is None and not pin and legacy_digest_record(path).is_file():
            expected = legacy_digest_record(path).read_text(encoding="utf-8").strip()
            legacy_digests[name] = expected
            legacy.append(legacy_digest_record(path))
        if path.is_file():
            if pin:
                actual = sha256_of(path)
                if actual != pin:
                    found.notes.append(
                        f"{path} changed since it was fetched: sha256 {actual}, its pinned sha256 "
                        f"is {pin}; "
                        + ("fetching it again" if act else "a run fetches it again (this dry run changes nothing)")
                    )
                    if act:
                        path.unlink()
            elif expected is None:
                # neither pinned nor recorded (the record was deleted): where this copy came from is
                # unknown, so it is fetched again from this run's source, never recorded as it is
                unrecorded.append(name)
                if act:
                    path.unlink()
            elif (actual := sha256_of(path)) != expected:
                found.problems.append(changed_on_disk(paper_id, name, actual, expected, data))
                found.papers_with_problems.add(paper_id)
                legacy_digests.pop(name, None)
        elif mirror is not None and not pin and expected is not None and source.get("url"):
            copy = mirror_path(source["url"], mirror)
            if copy.is_file():
                actual = sha256_of(copy)
                if actual != expected:
                    found.problems.append(
                        changed_at_source(
                            paper_id, name, source["url"], actual, expected, f" (mirror file {copy})", data
                        )
                    )
                    found.papers_with_problems.add(paper_id)
                    legacy_digests.pop(name, None)
        _inspect_local_source(paper_id, source, path, pin, expected, found, data)
    if unrecorded:
        found.notes.append(_unrecorded_note(paper_id, unrecorded, act, data))
    if act and legacy_digests:
        update_record(paper_id, legacy_digests, data)
        for path in legacy:
            path.unlink(missing_ok=True)
        found.notes.append(
            f"moved the sha256 of {len(legacy_digests)} file(s) of {paper_id} that an older reagree "
            f"kept beside them into {record_path(paper_id, data)}"
        )
    return found


def _unrecorded_note(paper_id: str, names: list[str], act: bool, data: str | os.PathLike) -> str:
    record = record_path(paper_id, data)
    shown = ", ".join(names[:5]) + (f", ... {len(names) - 5} more" if len(names) > 5 else "")
    missing = "" if record.is_file() else " (the record is missing)"
    done = "removed them" if act else "a run removes them"
    return (
        f"{Path(data) / paper_id} holds {len(names)} file(s) of {paper_id} ({shown}) without a sha256 in "
        f"{record}{missing}: a copy whose origin is not this run's source is never recorded; {done}, to fetch "
        "them again from their sources and record what they bring" + ("" if act else " (this dry run changes nothing)")
    )


def _inspect_local_source(
    paper_id: str,
    source: dict,
    path: Path,
    pin: str | None,
    expected: str | None,
    found: Inspection,
    data: str | os.PathLike,
) -> None:
    """A source that is a file on this machine is checked at every start, copied or not:
    other bytes than its pin or record stop the run (a copy made earlier would otherwise
    stand in silently for a file the user has since changed), and a missing file stops it
    when nothing was copied yet."""
    local = local_path(source)
    if local is None:
        return
    what = not_regular(local)  # "does not exist", "is a folder, not a regular file", ...
    if what:
        if not path.is_file():
            found.problems.append(
                f"{path}: its local source file {local} {what} (seen from {Path.cwd()}); "
                f"fix its path under sources in workflow/papers/{paper_id}/paper.yaml"
            )
            found.papers_with_problems.add(paper_id)
        return
    actual = sha256_of(local)
    if pin and actual != pin:
        found.problems.append(
            f"{local}, the local source of {path}, has sha256 {actual}, not the {pin} pinned in "
            f"workflow/papers/{paper_id}/paper.yaml. reagree does not compute from a changed "
            "input. To use the file as it is now, put its new sha256 there"
        )
        found.papers_with_problems.add(paper_id)
    elif not pin and expected is not None and actual != expected:
        found.problems.append(changed_at_source(paper_id, source["name"], origin(source), actual, expected, data=data))
        found.papers_with_problems.add(paper_id)


# ------------------------------------------------------------------ the fetch rule


def fetch_entry(
    paper_id: str,
    entry: dict,
    settings: dict,
    outputs: list[str],
    *,
    mirror: str | None,
    timeout: float,
    retries: int,
    log,
    data: str | os.PathLike = DATA,
    **limits,
) -> dict[str, str]:
    """What a fetch rule does for one source entry of paper.yaml: fetch the files of the
    entry among ``outputs`` (all at once, each checked against its pin or recorded
    sha256), record the sha256 of those fetched for the first time, and return
    ``{name: sha256}``. A file whose bytes differ from its record raises InputChanged
    naming every such file and the command that accepts it; other failures FetchError."""
    where = f"paper {paper_id}, source entry {entry.get('name')}"
    files = {str(Path(data) / paper_id / item["name"]): item for item in expand_entry(entry, settings, where)}
    unknown = [out for out in outputs if str(Path(out)) not in files]
    if unknown:
        raise ValueError(f"{where}: {unknown} are not files of this entry under the configuration")
    recorded = read_record(paper_id, data)
    wanted, by_dest = [], {}
    for out in outputs:
        item = files[str(Path(out))]
        expected = item["sha256"] or recorded.get(item["name"])
        wanted.append(Wanted(item["url"] or origin(item), Path(out), expected, local=local_path(item)))
        by_dest[Path(out)] = item
    try:
        digests = fetch_all(wanted, mirror=mirror, timeout=timeout, retries=retries, log=log, **limits)
    except FetchErrors as error:
        problems, other = [], []
        for failed, failure in error.failures:
            item = by_dest[failed.dest]
            if isinstance(failure, DigestMismatch) and not item["sha256"]:
                where_from = f" (mirror file {mirror_path(item['url'], mirror)})" if mirror and item["url"] else ""
                problems.append(
                    changed_at_source(
                        paper_id, item["name"], origin(item), failure.actual, failure.expected, where_from, data
                    )
                )
            else:
                other.append(str(failure))
        if problems:
            raise InputChanged("\n".join([_several(problems, {paper_id}), *other])) from None
        raise FetchError(str(error)) from None
    names = {by_dest[dest]["name"]: digest for dest, digest in digests.items()}
    first = {
        name: digest
        for name, digest in names.items()
        if not files[str(Path(data) / paper_id / name)]["sha256"] and name not in recorded
    }
    if first:
        update_record(paper_id, first, data)
        log(f"recorded the sha256 of {len(first)} file(s) fetched for the first time in {record_path(paper_id, data)}")
    return names


# ------------------------------------------------------------ before a claim is written


def verify_read_inputs(
    paper_id: str, checksums: str | os.PathLike, pins: dict[str, str], data: str | os.PathLike = DATA
) -> None:
    """Hold ``results/<paper>/inputs.sha256`` (``<sha256>  data/<paper>/<name>`` lines, the
    files as the paper read them) against the pins and the record; raise InputChanged
    naming every file that differs, or that has neither."""
    recorded = read_record(paper_id, data)
    prefix = f"{Path(data) / paper_id}/"
    problems = []
    for number, line in enumerate(Path(checksums).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        actual, _, path = line.partition("  ")
        if not path.startswith(prefix):
            raise ValueError(f"{checksums}, line {number}: {path!r} is not a file of {paper_id} under {data}/")
        name = path[len(prefix) :]
        pin = (pins.get(name) or "").lower() or None
        expected = pin or recorded.get(name)
        if expected is None:
            problems.append(
                f"{path} was read with sha256 {actual}, but it has no pin and nothing is recorded for "
                f"it in {record_path(paper_id, data)}; run the workflow again to fetch and record it"
            )
        elif actual != expected:
            if pin:
                problems.append(f"{path} was read with sha256 {actual}, but its pinned sha256 is {pin}")
            else:
                problems.append(changed_on_disk(paper_id, name, actual, expected, data))
    if problems:
        raise InputChanged(
            f"{paper_id}: no claim is written from inputs whose bytes are not the pinned or "
            f"recorded ones ({checksums}):\n" + "\n".join(f"- {p}" for p in problems)
        )


def _expected(
    paper_id: str, name: str, pins: dict, recorded: dict[str, str], data: str | os.PathLike
) -> tuple[str | None, str]:
    """(the sha256 a file of the paper must have, where that is said)."""
    pin = (pins.get(name) or "").lower() or None
    if pin:
        return pin, "its pinned sha256 (paper.yaml)"
    return recorded.get(name), f"the sha256 recorded in {record_path(paper_id, data)}"


def _reads_of(sidecar: Path, prefix: str) -> dict[str, str]:
    """``{name: sha256}`` of the paper's data files a ``.reads`` file lists."""
    return {path[len(prefix) :]: digest for path, digest in load_reads(sidecar).items() if path.startswith(prefix)}


def verify_rule_reads(
    paper_id: str,
    outputs: list[str],
    checksums: str | os.PathLike | None,
    pins: dict[str, str],
    data: str | os.PathLike = DATA,
) -> None:
    """Hold the bytes each of ``outputs`` (a paper's values and variants files) was
    computed from, their ``<output>.reads``, against ``checksums`` (inputs.sha256: what
    hash_inputs read) and the pins and the record; raise InputChanged with one line per
    file that differs. An output without ``.reads`` read no data."""
    prefix = f"{Path(data) / paper_id}/"
    recorded = read_record(paper_id, data)
    hashed = {}
    if checksums is not None and Path(checksums).is_file():
        hashed = {
            line.partition("  ")[2]: line.partition("  ")[0]
            for line in Path(checksums).read_text(encoding="utf-8").splitlines()
            if line.strip()
        }
    problems = []
    for output in outputs:
        sidecar = reads_path(output)
        if not Path(output).is_file():  # gathered into values.tsv, then lost: its numbers cannot be traced
            problems.append(
                f"{output} is missing: the numbers it gave values.tsv cannot be traced to the bytes they "
                "were computed from. Compute it again: snakemake --cores 4 --forcerun gather_values"
            )
            continue
        if not sidecar.is_file():
            continue
        for name, read in sorted(_reads_of(sidecar, prefix).items()):
            path = f"{prefix}{name}"
            expected, said = _expected(paper_id, name, pins, recorded, data)
            if expected is not None and read != expected:
                differs = f"{said} is {expected}"
            elif path in hashed and read != hashed[path]:
                differs = f"hash_inputs hashed it as {hashed[path]} ({checksums})"
            else:
                continue
            problems.append(
                f"{path}: {output} was computed from its bytes with sha256 {read}, but {differs}: the "
                f"file changed while the run read it. Run again (make all): the start of the run checks "
                f"{path} against its pin or record and computes {output} again"
            )
    if problems:
        raise InputChanged(
            f"{paper_id}: no claim is written from numbers computed from bytes that are not the "
            "pinned or recorded ones:\n" + "\n".join(f"- {p}" for p in problems)
        )


def inspect_rule_reads(
    paper_id: str,
    sources: list[dict],
    *,
    act: bool,
    results: str | os.PathLike = "results",
    data: str | os.PathLike = DATA,
    found: Inspection | None = None,
) -> Inspection:
    """At the start of a run: a ``.reads`` under ``results/<paper>/`` that names other bytes
    than a file's pin or record means its output was computed from a file that moved
    while a run read it. When the file on disk has its pinned or recorded bytes again,
    with ``act`` it is touched, so that everything that read it is computed again (as
    ``accept`` does); without it (a dry run) a note says a run would. A file that still
    differs is ``inspect_inputs``' business (fetched again, or the run stops)."""
    found = found or Inspection()
    folder = Path(results) / paper_id
    if not folder.is_dir():
        return found
    prefix = f"{Path(data) / paper_id}/"
    pins = {source["name"]: source.get("sha256") for source in sources}
    recorded = read_record(paper_id, data)
    moved: dict[str, str] = {}
    for sidecar in sorted(folder.rglob(f"*{READS_SUFFIX}")):
        output = str(sidecar)[: -len(READS_SUFFIX)]
        try:
            listed = _reads_of(sidecar, prefix)
        except ValueError as error:  # a damaged .reads: what its output was computed from is unknown
            found.notes.append(f"{error}; {output} is computed again")
            if act:
                sidecar.unlink()
                Path(output).unlink(missing_ok=True)
            continue
        for name, read in sorted(listed.items()):
            expected, said = _expected(paper_id, name, pins, recorded, data)
            if expected is not None and read != expected and name not in moved:
                moved[name] = f"{output} was computed from {prefix}{name} with sha256 {read}, but {said} is {expected}"
    for name, said in moved.items():
        path = Path(data) / paper_id / name
        expected, _ = _expected(paper_id, name, pins, recorded, data)
        if not path.is_file() or sha256_of(path) != expected:
            continue
        found.notes.append(
            f"{said}; computing again what read it"
            if act
            else f"{said}; a run computes again what read it (this dry run changes nothing)"
        )
        if act:
            os.utime(path)  # newer than everything that read it: all of that is computed again
    return found


# ---------------------------------------------------------------------- reagree accept


def accept(
    paper_id: str,
    name: str | None,
    digest: str | None = None,
    *,
    names: SourceNames,
    pins: dict[str, str] | None = None,
    data: str | os.PathLike = DATA,
) -> list[str]:
    """Take a new version of an unpinned input (``name``), or of every unpinned input of
    the paper (``name`` None): record ``digest`` (or, without one, the bytes on disk; with
    neither, forget the record so the next fetch records what it brings). Returns what
    was done, one line per file.

    ``name`` must be one of ``names``, the names the paper's sources produce (so a
    relative path inside ``data/<paper>/``), and its file, when there is one, a regular
    file; anything else is a ValueError before anything changes. ``--all`` takes the
    recorded names and the files on disk among ``names``, and nothing else."""
    pins = pins or {}
    if name is not None:
        try:
            names.check(name)
        except ValueError as error:
            raise ValueError(f"{error}; nothing was changed") from None
    if name is not None and name in pins:
        raise ValueError(
            f"{paper_id}/{name} is pinned in paper.yaml (sha256 {pins[name]}); a pinned file changes only with its pin"
        )
    if digest is not None:
        digest = digest.strip().lower()
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ValueError(f"sha256 must be 64 hex characters, got {digest!r}")
        if name is None:
            raise ValueError("a sha256 names the version of one file: give its NAME too")
    recorded = read_record(paper_id, data)
    folder = Path(data) / paper_id
    if name is None:
        on_disk = (
            {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_symlink() or not p.is_dir()}
            if folder.is_dir()
            else set()
        )
        chosen = sorted(n for n in set(recorded) | on_disk if n in names and n not in pins)
    else:
        if name not in recorded and not (folder / name).is_file():
            known = sorted(recorded)
            shown = known if len(known) <= 12 else known[:12] + [f"... {len(known) - 12} more"]
            raise ValueError(
                f"nothing is recorded for {paper_id}/{name} in {record_path(paper_id, data)} and "
                f"{folder / name} does not exist; recorded: {shown}"
            )
        chosen = [name]
    for one in chosen:
        what = os.path.lexists(folder / one) and not_regular(folder / one, follow=False)
        if what:
            raise ValueError(
                f"{folder / one} {what}: reagree accept reads and changes only regular files inside "
                f"{folder}; nothing was changed"
            )
    changes: dict[str, str | None] = {}
    said = []
    for one in chosen:
        path = folder / one
        on_disk = sha256_of(path) if path.is_file() else None
        wanted = digest or on_disk
        changes[one] = wanted
        if wanted is None:
            said.append(f"{path}: forgot its recorded sha256; the next run fetches it and records what it brings")
        elif on_disk == wanted:
            os.utime(path)  # newer than everything that read it, so all of that is rebuilt
            said.append(
                f"{path}: recorded sha256 {wanted} (the file as it is); what read it is rebuilt by the next run"
            )
        else:
            if on_disk is not None:
                path.unlink()
            said.append(f"{path}: recorded sha256 {wanted}; the next run fetches it (and refuses other bytes)")
    update_record(paper_id, changes, data)
    return said
