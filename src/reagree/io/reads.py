"""What a computing rule read: the sha256 of the very bytes it parsed.

What it decides:

- **Hash what you read, in the same read.** Every data file a rule computes from is read
  through ``read_bytes`` (or ``read_text``, its decoded text): the file is read once,
  those bytes are hashed and handed to the parser, and the job remembers ``(path,
  sha256)``. A hash taken in another open of the file (``hash_inputs`` before the job, a
  provenance line after it) can describe other bytes than the ones parsed when the file
  changes in between; this one cannot.
- **A job is a block.** Reads are remembered inside ``recording()`` (every rule script's
  ``rulekit.rule_log`` opens one; so does an audit); outside it ``read_bytes`` only reads.
- **A file read twice in one job with other bytes** is an error naming both hashes: it
  changed while the job read it, and the job's numbers would mix two versions.
- **The reads go beside the outputs.** ``reagree.pipeline.tables.write_reads_beside(path)``
  writes ``<path>.reads`` (``reads_text``: ``<sha256>  <file>`` lines, the ``sha256sum -c``
  format, sorted), atomically and before ``path`` itself: ``tables.write_values`` and
  ``variantplan.write_variants`` call it, so a values or variants file computed from
  data never stands without the hashes of what it was computed from. A job that read no
  data writes no ``.reads``.
- **What is done with them** (``reagree.pipeline.pins``): the claims rule holds every
  read against ``results/<paper>/inputs.sha256`` and the pins and record, and writes no
  status when one differs (``verify_rule_reads``); the start of the next run removes a
  values file read from other bytes than the pinned or recorded ones, so that it is
  computed again (``inspect_rule_reads``).
"""

from __future__ import annotations

import hashlib
import io
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from reagree.files import open_regular

__all__ = [
    "READS_SUFFIX",
    "ReadChanged",
    "load_reads",
    "read_bytes",
    "read_text",
    "reads_path",
    "reads_text",
    "recording",
    "remember",
    "sha256_read",
]

READS_SUFFIX = ".reads"

#: The reads of the job under way (``recording``): normalised path -> sha256 of the bytes
#: read; None outside a job, where nothing is remembered (a notebook that audits a file,
#: edits it and audits it again is not a job reading a file that moves).
_READS: dict[str, str] | None = None


def _key(path: str | os.PathLike) -> str:
    return os.path.normpath(str(path))


@contextmanager
def recording() -> Iterator[dict[str, str]]:
    """Remember what is read inside this block (one rule job: ``rulekit.rule_log`` opens
    it; one audit), in a ledger of its own; yields it."""
    global _READS
    outer, _READS = _READS, {}
    try:
        yield _READS
    finally:
        _READS = outer


class ReadChanged(ValueError):
    """A file gave other bytes on a second read in the same job."""


def remember(path: str | os.PathLike, data: bytes) -> bytes:
    """Remember ``data``, the bytes just read from ``path`` by another reader (a bounded
    table read), as what this job read; returns them."""
    if _READS is None:
        return data
    digest = hashlib.sha256(data).hexdigest()
    before = _READS.setdefault(_key(path), digest)
    if before != digest:
        raise ReadChanged(
            f"{path} changed while this job read it: sha256 {before} on its first read, {digest} "
            "on a later one; reagree does not compute from a file that moves under it. Run again "
            "once nothing writes to it"
        )
    return data


def read_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of the regular file ``path`` (``reagree.files.open_regular``: a folder, a
    FIFO or a device is refused, naming it), read once; their sha256 is remembered as what
    this job read."""
    with open_regular(path) as handle:
        return remember(path, handle.read())


def read_text(path: str | os.PathLike, encoding: str = "utf-8") -> str:
    """``read_bytes`` decoded as ``Path.read_text`` decodes (universal newlines)."""
    with io.TextIOWrapper(io.BytesIO(read_bytes(path)), encoding=encoding) as text:
        return text.read()


def sha256_read(path: str | os.PathLike) -> str:
    """The sha256 of the bytes this job read from ``path`` (for a table's provenance); a
    file not read yet is read now (and, in a job, remembered)."""
    key = _key(path)
    if _READS is None or key not in _READS:
        return hashlib.sha256(read_bytes(path)).hexdigest()
    return _READS[key]


def reads_text() -> str:
    """This job's reads as ``<sha256>  <path>`` lines, sorted by path ("" for none, and
    outside a job)."""
    return "".join(f"{digest}  {name}\n" for name, digest in sorted((_READS or {}).items()))


def reads_path(path: str | os.PathLike) -> Path:
    """Where the reads of ``path``'s job are written: ``<path>.reads``."""
    return Path(f"{path}{READS_SUFFIX}")


def load_reads(sidecar: str | os.PathLike) -> dict[str, str]:
    """``{path: sha256}`` of a ``.reads`` file; a line that is not ``<sha256>  <path>`` is
    an error naming the file and line."""
    found = {}
    for number, line in enumerate(Path(sidecar).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        digest, _, name = line.partition("  ")
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) or not name:
            raise ValueError(f"{sidecar}, line {number}: expected '<sha256>  <path>', got {line!r}")
        found[name] = digest
    return found
