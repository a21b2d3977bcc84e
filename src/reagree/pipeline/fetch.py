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

* **Limits.** Redirects are followed only to http and https, at every hop. A download
  that takes longer than ``deadline`` seconds in all (default ``DEADLINE_FACTOR`` x
  ``timeout``) or grows past ``max_bytes`` (default ``MAX_BYTES``) is stopped: a server
  trickling a byte every half second, or sending an endless body, never fills the disk or
  hangs the run. Both are final. An answer that is not HTTP at all is said to be so, not
  taken for a missing network.

Fetched files are data: this module never imports, executes or evaluates them.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import os
import pathlib
import signal
import tempfile
import threading
import time
from contextlib import contextmanager
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["FetchError", "mirror_path", "fetch"]

USER_AGENT = "reagree-fetch"
MAX_BYTES = 4 << 30  # 4 GiB: far above any source reagree knows (the largest CLARIN file is ~40 MB)
DEADLINE_FACTOR = 20
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
        from reagree.pipeline.tables import readable_mode

        os.chmod(tmp_path, readable_mode())
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

class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to http and https only (never file://, ftp://, ...)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        scheme = urllib.parse.urlsplit(newurl).scheme.lower()
        if scheme not in ("http", "https"):
            raise FetchError(f"{req.full_url} redirects to {newurl!r}: only http and https are followed")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_HttpOnlyRedirects)


def _download_once(url: str, out, timeout: float, log, deadline: float = float("inf"),
                   max_bytes: int = MAX_BYTES) -> str:
    """One HTTP attempt: stream the body into ``out``; return its sha256.

    Raises _Transient for retryable failures and FetchError for final ones.
    """
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    hasher = hashlib.sha256()
    received = 0
    total = None
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            if length is not None and length.strip().isdigit():
                total = int(length)
            step = max(total // 10, PROGRESS_STEP) if total else PROGRESS_STEP
            next_report = step
            if total is not None and total > max_bytes:
                raise FetchError(f"{url} announces {_human(total)}, more than the limit of {_human(max_bytes)}")
            while chunk := response.read1(CHUNK_SIZE) if hasattr(response, "read1") else response.read(CHUNK_SIZE):
                hasher.update(chunk)
                out.write(chunk)
                received += len(chunk)
                if received > max_bytes:
                    raise FetchError(f"{url} sent more than {_human(max_bytes)}; stopped (the limit on one file)")
                if time.monotonic() > deadline:
                    raise FetchError(f"{url} was still arriving after the deadline ({_human(received)} so far); "
                                     "stopped (raise fetch.timeout for a slow link)")
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
    except (http.client.BadStatusLine, http.client.LineTooLong) as exc:
        host = urllib.parse.urlsplit(url).netloc
        raise _Transient(f"the server at {host} answered something that is not HTTP ({type(exc).__name__})",
                         network=False) from exc
    except (TimeoutError, ConnectionError, http.client.HTTPException) as exc:
        raise _Transient(f"{type(exc).__name__}: {exc}", network=True) from exc
    if total is not None and received < total:
        raise _Transient(f"truncated: got {received} of {total} bytes", network=False)
    return hasher.hexdigest()


def _download(url, dest, expected, timeout, retries, backoff, log, deadline_seconds, max_bytes) -> str:
    """Download ``url`` to ``dest`` with retries."""
    _split_url(url)  # same URL rules as the mirror: http(s) only, a host, a file
    log(f"fetching {url} -> {dest}")
    deadline = time.monotonic() + deadline_seconds
    all_network = True
    last = None
    for attempt in range(retries):
        if attempt:
            delay = backoff * 2 ** (attempt - 1)
            log(f"retrying {url} in {delay:g} s (attempt {attempt + 1} of {retries}) after: {last}")
            time.sleep(delay)

        def produce(out) -> str:
            digest = _download_once(url, out, timeout, log, deadline, max_bytes)
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
          timeout: float = 60.0, retries: int = 3, backoff: float = 1.0, log=None, deadline: float | None = None,
          max_bytes: int = MAX_BYTES) -> str:
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
    if not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    deadline = DEADLINE_FACTOR * timeout if deadline is None else deadline
    if log is None:
        log = logging.getLogger(__name__).info
    dest = pathlib.Path(dest)
    expected = _normalise_sha256(sha256)
    with _termination_unwinds():
        if mirror is not None:
            return _copy_from_mirror(url, dest, mirror, expected, log)
        return _download(url, dest, expected, timeout, retries, backoff, log, deadline, max_bytes)


@contextmanager
def _termination_unwinds():
    """SIGTERM raises SystemExit while a fetch runs, so the temporary file is removed on the
    way out (the default action would kill the process and leave it). SIGKILL cannot be
    caught: ``sweep_partial_files`` removes what it leaves at the next run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# ------------------------------------------------------------ checks at the point of use

def digest_record(path: str | os.PathLike) -> pathlib.Path:
    """Where the sha256 of a fetched file is recorded: ``.<name>.sha256`` beside it."""
    path = pathlib.Path(path)
    return path.with_name(f".{path.name}.sha256")


def record_digest(path: str | os.PathLike, digest: str) -> None:
    """Remember what was fetched, so a file changed afterwards is noticed even unpinned."""
    from reagree.pipeline.tables import write_text_atomic

    write_text_atomic(digest_record(path), digest + "\n")


def changed_since_fetch(path: str | os.PathLike, pinned: str | None) -> str:
    """Why an existing fetched file cannot be used as it is ("" when it can): its bytes no
    longer hash to the pin, or to the digest recorded when it was fetched."""
    path = pathlib.Path(path)
    record = digest_record(path)
    expected = _normalise_sha256(pinned) if pinned else (
        record.read_text().strip() if record.is_file() else None)
    if expected is None:
        return ""
    from reagree.pipeline.tables import sha256_of

    actual = sha256_of(path)
    if actual == expected:
        return ""
    what = "its pinned sha256" if pinned else "the sha256 recorded when it was fetched"
    return f"{path} changed since it was fetched: sha256 {actual}, {what} is {expected}"


def sweep_partial_files(folder: str | os.PathLike) -> list[pathlib.Path]:
    """Remove ``.NAME.part-*`` files a killed fetch left under ``folder``; return them.
    Only called before a run schedules any job, when no fetch can be writing one."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        return []
    stale = [p for p in folder.rglob(".*.part-*") if p.is_file()]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def unreachable_hosts(urls, timeout: float = 3.0) -> list[str]:
    """The hosts of ``urls`` that do not accept a connection within ``timeout`` seconds
    (name lookup failures included). Used before a build schedules any download, so that a
    machine without network stops with one message instead of one error per file."""
    import socket

    failed, tried = [], set()
    for url in urls:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
        port = parts.port or (443 if parts.scheme == "https" else 80)
        if not host or (host, port) in tried:
            continue
        tried.add((host, port))
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError:
            failed.append(host if port in (80, 443) else f"{host}:{port}")
    return failed


def offline_message(hosts: list[str], missing: int) -> str:
    """What to do when sources must be downloaded and the network cannot reach them."""
    return (
        f"reagree cannot download its {missing} missing source file(s): no connection to {', '.join(hosts)}.\n"
        "A mirror is a folder holding the sources laid out by URL (https://HOST/PATH -> MIRROR/HOST/PATH); "
        "with one, nothing is downloaded and every file is still checked against its sha256.\n"
        "  use one:   make all CONFIG=../shared/offline.yaml\n"
        "             snakemake --cores 4 --config mirror=/path/to/mirror\n"
        "  make one:  reagree mirror /path/to/mirror   (on a machine with network; "
        "or --mirror OTHER to copy another mirror), then carry the folder over."
    )


def fetch_source(url: str, dest: str | os.PathLike, *, sha256: str | None, mirror: str | None, timeout: float,
                 retries: int, log_path: str | os.PathLike | None = None) -> str:
    """What ``rule fetch_source`` does for one file: fetch it, record its digest beside it,
    and log to the rule's log file (through a logger of its own per file)."""
    logger = logging.getLogger(f"reagree.pipeline.fetch.{os.fspath(dest)}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    handler = None
    if log_path:
        pathlib.Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(log_path, mode="w", encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    try:
        digest = fetch(url, dest, sha256=sha256 or None, mirror=mirror, timeout=timeout, retries=retries,
                       log=logger.info)
        record_digest(dest, digest)
        logger.info("%s sha256 %s (%s)", dest, digest, "pinned and checked" if sha256 else "not pinned upstream")
        return digest
    except (FetchError, OSError, ValueError) as error:
        logger.error("%s", error)
        raise FetchError(str(error)) from None
    finally:
        if handler is not None:
            logger.removeHandler(handler)
            handler.close()
