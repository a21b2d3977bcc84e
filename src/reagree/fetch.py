"""Fetch a remote file to a local path, or copy it from an offline mirror.

This module decides:

* **Mirror path rule.** A URL ``http(s)://HOST[:PORT]/PATH?QUERY#FRAG`` lives in a
  mirror directory at ``<mirror>/HOST[:PORT]/PATH``: the scheme, any user info,
  the query and the fragment are dropped; the path is used as written (not
  percent-decoded); empty and ``.`` segments are ignored. URLs whose scheme is not
  http/https, that have no host, that name no file, or whose path contains a
  ``..`` segment (also when written ``%2e%2e``) are rejected, so a mirror path
  always stays inside the mirror.
* **Mirror mode** (``mirror`` given): the file is copied from the mirror path; no
  network access happens at all. A file the mirror does not hold is an error.
* **Atomic write.** Content is written to a temporary file
  ``.<name>.part-<random>`` next to ``dest`` (parent directories are created) and
  moved onto ``dest`` with ``os.replace`` only after it is complete and its
  checksum matched. On any failure the temporary file is removed and ``dest`` is
  never created.
* **Checksum.** When ``sha256`` is given (hex, any case) the SHA-256 of the
  written bytes must equal it, in both modes; a mismatch is final (not retried).
* **Retries.** Up to ``retries`` attempts in total, sleeping
  ``backoff * 2**attempt`` seconds between them (attempt counts from 0). Retried:
  network errors without an HTTP status (``URLError``, socket timeouts,
  ``ConnectionError``, other ``http.client`` protocol errors), HTTP 5xx and 429,
  and truncated bodies (fewer bytes than Content-Length, or ``IncompleteRead``).
  Final at once: any other HTTP 4xx, checksum mismatches, rejected URLs, and
  local file-system errors.

Fetched files are data: this module never imports, executes or evaluates them.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import os
import pathlib
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["FetchError", "mirror_path", "fetch"]

USER_AGENT = "reagree-fetch"
CHUNK_SIZE = 1 << 20  # 1 MiB
PROGRESS_STEP = 8 << 20  # log at most every 8 MiB (or every 10% of the total, whichever is larger)

OFFLINE_HINT = (
    "the network looks unreachable; to use an offline copy set `mirror` "
    "(e.g. `snakemake --configfile ../shared/offline.yaml` or `--config mirror=PATH`)"
)


class FetchError(RuntimeError):
    """A file could not be materialised (bad URL, missing from mirror, HTTP/network failure, wrong checksum)."""


class _Transient(Exception):
    """One download attempt failed in a way worth retrying.

    ``network`` is true for connection-level failures (no HTTP status at all),
    which are the ones that suggest the machine is offline.
    """

    def __init__(self, message: str, *, network: bool):
        super().__init__(message)
        self.network = network


# --------------------------------------------------------------------------- URLs

def _split_url(url: str) -> tuple[str, list[str]]:
    """Validate ``url`` and return (host directory name, path segments)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        raise FetchError(f"unsupported URL scheme {parts.scheme or '(none)'!r} in {url!r}: only http and https are allowed")
    try:
        hostname, port = parts.hostname, parts.port
    except ValueError as exc:  # e.g. a non-numeric port
        raise FetchError(f"malformed URL {url!r}: {exc}") from None
    if not hostname or hostname in (".", ".."):
        raise FetchError(f"URL {url!r} has no (valid) host")
    host = hostname if port is None else f"{hostname}:{port}"

    segments = []
    for segment in parts.path.split("/"):
        if segment in ("", "."):
            continue
        if segment == ".." or urllib.parse.unquote(segment) in ("..", "."):
            raise FetchError(f"URL {url!r} has a '..' or encoded '.' path segment; refusing to map it into a mirror")
        segments.append(segment)
    if not segments or parts.path.endswith("/"):
        raise FetchError(f"URL {url!r} does not name a file")
    return host, segments


def mirror_path(url: str, mirror: str | os.PathLike) -> pathlib.Path:
    """Return where ``url`` is stored in the mirror directory ``mirror``.

    ``https://HOST/PATH?Q`` maps to ``<mirror>/HOST/PATH``: scheme, user info,
    query and fragment are dropped, an explicit port is kept as ``HOST:PORT``.
    Raises FetchError for URLs whose scheme is not http/https, that have no host,
    that do not name a file, or whose path has ``..`` segments (a mirror path must
    stay inside the mirror).
    """
    host, segments = _split_url(url)
    return pathlib.Path(mirror).joinpath(host, *segments)


# ----------------------------------------------------------------------- helpers

def _human(n: int) -> str:
    """Format a byte count for log lines."""
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n /= 1024
        if n < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}"
    raise AssertionError("unreachable")


def _normalise_sha256(sha256: str | None) -> str | None:
    """Lower-case and validate an expected hex digest."""
    if sha256 is None:
        return None
    value = sha256.strip().lower()
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise ValueError(f"sha256 must be 64 hex characters, got {sha256!r}")
    return value


def _write_atomically(dest: pathlib.Path, produce) -> str:
    """Call ``produce(fileobj)`` on a temp file next to ``dest``; on success move it to ``dest``.

    ``produce`` writes the content and returns its sha256 hex digest (raising to
    abort). On any exception the temp file is removed and ``dest`` is not created.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.NamedTemporaryFile(dir=dest.parent, prefix=f".{dest.name}.part-", delete=False)
    tmp_path = pathlib.Path(tmp.name)
    try:
        with tmp:
            digest = produce(tmp)
        os.replace(tmp_path, dest)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    return digest


def _check_digest(actual: str, expected: str | None, what: str) -> None:
    """Raise FetchError if ``expected`` is set and differs from ``actual``."""
    if expected is not None and actual != expected:
        raise FetchError(f"sha256 mismatch for {what}: expected {expected}, got {actual}")


# ------------------------------------------------------------------- mirror mode

def _copy_from_mirror(url, dest, mirror, expected, log) -> str:
    """Copy ``url``'s mirror file to ``dest`` (no network)."""
    src = mirror_path(url, mirror)
    if not src.is_file():
        where = "" if pathlib.Path(mirror).is_dir() else f" (mirror directory {os.fspath(mirror)} does not exist)"
        raise FetchError(f"the mirror does not hold {url}: looked for {src}{where}")
    log(f"copying {url} from mirror {src} -> {dest}")

    def produce(out) -> str:
        hasher = hashlib.sha256()
        try:
            with open(src, "rb") as fh:
                while chunk := fh.read(CHUNK_SIZE):
                    hasher.update(chunk)
                    out.write(chunk)
        except OSError as exc:
            raise FetchError(f"could not read mirror file {src} for {url}: {exc}") from exc
        digest = hasher.hexdigest()
        _check_digest(digest, expected, f"{url} (mirror file {src})")
        return digest

    digest = _write_atomically(dest, produce)
    log(f"copied {url} from mirror ({_human(dest.stat().st_size)}, sha256 {digest})")
    return digest


# --------------------------------------------------------------------- HTTP mode

def _download_once(url: str, out, timeout: float, log) -> str:
    """One HTTP attempt: stream the body into ``out``; return its sha256.

    Raises _Transient for retryable failures and FetchError for final ones.
    """
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    hasher = hashlib.sha256()
    received = 0
    total = None
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            if length is not None and length.strip().isdigit():
                total = int(length)
            step = max(total // 10, PROGRESS_STEP) if total else PROGRESS_STEP
            next_report = step
            while chunk := response.read(CHUNK_SIZE):
                hasher.update(chunk)
                out.write(chunk)
                received += len(chunk)
                if received >= next_report:
                    suffix = f" / {_human(total)} ({100 * received // total}%)" if total else ""
                    log(f"  {url}: {_human(received)}{suffix}")
                    next_report = received + step
    except urllib.error.HTTPError as exc:
        exc.close()
        status = f"HTTP {exc.code} {exc.reason}"
        if exc.code >= 500 or exc.code == 429:
            raise _Transient(status, network=False) from exc
        raise FetchError(f"{status} for {url}") from exc
    except http.client.IncompleteRead as exc:
        got = received + len(exc.partial)
        raise _Transient(f"truncated: got {got} of {total if total is not None else '?'} bytes", network=False) from exc
    except urllib.error.URLError as exc:
        raise _Transient(f"{exc.reason}", network=True) from exc
    except (TimeoutError, ConnectionError, http.client.HTTPException) as exc:
        raise _Transient(f"{type(exc).__name__}: {exc}", network=True) from exc
    if total is not None and received < total:
        raise _Transient(f"truncated: got {received} of {total} bytes", network=False)
    return hasher.hexdigest()


def _download(url, dest, expected, timeout, retries, backoff, log) -> str:
    """Download ``url`` to ``dest`` with retries."""
    _split_url(url)  # same URL rules as the mirror: http(s) only, a host, a file
    log(f"fetching {url} -> {dest}")
    all_network = True
    last = None
    for attempt in range(retries):
        if attempt:
            delay = backoff * 2 ** (attempt - 1)
            log(f"retrying {url} in {delay:g} s (attempt {attempt + 1} of {retries}) after: {last}")
            time.sleep(delay)

        def produce(out) -> str:
            digest = _download_once(url, out, timeout, log)
            _check_digest(digest, expected, url)
            return digest

        try:
            digest = _write_atomically(dest, produce)
        except _Transient as exc:
            last = exc
            all_network = all_network and exc.network
            continue
        log(f"fetched {url} ({_human(dest.stat().st_size)}, sha256 {digest})")
        return digest

    message = f"could not fetch {url} after {retries} attempt(s): {last}"
    if all_network:
        message += f"; {OFFLINE_HINT}"
    raise FetchError(message) from last


# ------------------------------------------------------------------------ public

def fetch(url: str, dest: str | os.PathLike, *, sha256: str | None = None, mirror: str | os.PathLike | None = None,
          timeout: float = 30.0, retries: int = 3, backoff: float = 1.0, log=None) -> str:
    """Materialise ``url`` at ``dest``; return the sha256 hex digest of what was written.

    With ``mirror`` set the file is copied from ``mirror_path(url, mirror)`` and the
    network is never touched. Otherwise it is downloaded over HTTP(S) (``timeout``
    seconds per socket operation, User-Agent ``reagree-fetch``), with up to
    ``retries`` attempts for transient failures and a ``backoff * 2**attempt``
    sleep between attempts. If ``sha256`` is given the written bytes must match it.
    The write is atomic: on failure ``dest`` is not created. ``log`` is a callable
    taking one string (default: this module's logger at INFO level). Raises
    FetchError on failure; local file-system errors propagate as OSError.
    """
    if retries < 1:
        raise ValueError(f"retries must be at least 1, got {retries}")
    if log is None:
        log = logging.getLogger(__name__).info
    dest = pathlib.Path(dest)
    expected = _normalise_sha256(sha256)
    if mirror is not None:
        return _copy_from_mirror(url, dest, mirror, expected, log)
    return _download(url, dest, expected, timeout, retries, backoff, log)
