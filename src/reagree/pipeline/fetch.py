"""Fetch remote files to local paths, or copy them from an offline mirror.

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
* **Local files** (``Wanted.local``): a source that is a file on this machine is copied
  from there, mirror or not, and checked, staged and renamed like any other. A local
  source or a mirror copy that is not a regular file (a folder, a device, a FIFO) is
  refused, saying what it is, and never opened in a way that could block.
* **Atomic write.** Content is written to a temporary file
  ``.<name>.part-<random>`` next to ``dest`` (parent directories are created) and
  renamed onto ``dest`` only after it is complete and its checksum matched
  (``reagree.files``). On any failure the temporary file is removed and ``dest`` is
  never created. A ``dest`` that is a symbolic link, a device, a FIFO or a folder is
  refused before anything is fetched. ``fetch_all`` stages every file of a batch this
  way and renames them only when all of them arrived, so a batch lands whole or not at
  all.
* **Checksum.** When ``sha256`` is given (hex, any case) the SHA-256 of the
  written bytes must equal it, in both modes; a mismatch is final (not retried) and
  raised as ``DigestMismatch``, which carries both hashes.
* **Retries.** Up to ``retries`` attempts in total, sleeping
  ``backoff * 2**attempt`` seconds between them (attempt counts from 0). Retried:
  network errors without an HTTP status (``URLError``, socket timeouts,
  ``ConnectionError``, other ``http.client`` protocol errors), HTTP 5xx and 429,
  truncated bodies (fewer bytes than Content-Length, or ``IncompleteRead``) and
  stalled transfers. Final at once: any other HTTP 4xx, checksum mismatches, rejected
  URLs, the deadline, the size cap, and local file-system errors.
* **Limits.** Redirects are followed only to http and https, at every hop. The
  ``deadline`` (default ``DEADLINE_FACTOR`` x ``timeout`` seconds, all attempts
  together) covers the whole exchange: connecting, the response headers and the body.
  A timer shuts the connection's socket when it passes, so a server that sends its
  headers one byte a second, or trickles its body, cannot hold a run past it. A body
  larger than ``max_bytes`` (default ``MAX_BYTES``) is stopped. ``timeout`` bounds each
  wait for data: a body that stops arriving for that long is said to have stalled; a
  server that accepts the connection and never answers is said to be silent; only a
  failure to connect at all suggests the network is unreachable (and a mirror). An
  answer that is not HTTP is said to be so.
* **Disk full.** A local write that fails names the file it was writing.
* **Concurrency.** ``fetch_all`` downloads up to ``workers`` files at once (a batch of
  many small files is bound by round trips, not bandwidth); mirror copies run one after
  another (a local disk gains nothing). SIGTERM while a fetch runs removes every
  temporary file on the way out.

Fetched files are data: this module never imports, executes or evaluates them.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import http.client
import logging
import os
import pathlib
import signal
import socket
import threading
import time
from contextlib import contextmanager
import urllib.error
import urllib.parse
import urllib.request

from reagree.files import check_output, move_into_place, naming_the_file, not_regular, open_regular, temporary_beside

__all__ = ["FetchError", "DigestMismatch", "Wanted", "mirror_path", "fetch", "fetch_all"]

USER_AGENT = "reagree-fetch"
MAX_BYTES = 4 << 30  # 4 GiB: far above any source reagree knows (the largest CLARIN file is ~40 MB)
DEADLINE_FACTOR = 20
CHUNK_SIZE = 1 << 20  # 1 MiB
PROGRESS_STEP = 8 << 20  # log at most every 8 MiB (or every 10% of the total, whichever is larger)
WORKERS = 8

OFFLINE_HINT = (
    "the network looks unreachable; to use an offline copy set `mirror` "
    "(e.g. `snakemake --configfile ../shared/offline.yaml` or `--config mirror=PATH`)"
)


class FetchError(RuntimeError):
    """A file could not be materialised (bad URL, missing from mirror, HTTP/network failure, wrong checksum)."""


class DigestMismatch(FetchError):
    """The bytes arrived whole but do not hash to the expected sha256."""

    def __init__(self, url: str, expected: str, actual: str, where: str = ""):
        super().__init__(f"sha256 mismatch for {url}{where}: expected {expected}, got {actual}")
        self.url, self.expected, self.actual = url, expected, actual


class _Transient(Exception):
    """One download attempt failed in a way worth retrying.

    ``network`` is true for failures to connect at all, the ones that suggest the
    machine is offline.
    """

    def __init__(self, message: str, *, network: bool):
        super().__init__(message)
        self.network = network


class _Cancelled(Exception):
    """The batch is being abandoned (SIGTERM): stop at once."""


@dataclasses.dataclass
class Wanted:
    """One file of a batch: where it comes from, where it goes, what it must hash to."""

    url: str
    dest: pathlib.Path
    sha256: str | None = None
    local: pathlib.Path | None = None  # a file on this machine to copy instead of the URL


# --------------------------------------------------------------------------- URLs


def _split_url(url: str) -> tuple[str, list[str]]:
    """Validate ``url`` and return (host directory name, path segments)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        raise FetchError(
            f"unsupported URL scheme {parts.scheme or '(none)'!r} in {url!r}: only http and https are allowed"
        )
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


def _stage(dest: pathlib.Path, produce) -> tuple[pathlib.Path, str]:
    """Call ``produce(fileobj)`` on a temporary file next to ``dest``
    (``reagree.files.temporary_beside``); return the temporary path and the sha256
    ``produce`` returned. On any exception the temporary file is removed; ``dest`` is
    never touched."""
    tmp = temporary_beside(dest)
    tmp_path = pathlib.Path(tmp.name)
    try:
        try:
            with tmp:
                digest = produce(tmp)
        except OSError as error:
            raise naming_the_file(dest, error) from error
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    return tmp_path, digest


def _check_digest(actual: str, expected: str | None, url: str, where: str = "") -> None:
    """Raise DigestMismatch if ``expected`` is set and differs from ``actual``."""
    if expected is not None and actual != expected:
        raise DigestMismatch(url, expected, actual, where)


# ------------------------------------------------------ mirror and local copies


def _mirror_copier(url, mirror, expected, log):
    """``produce`` for one mirror copy (no network); raises if the mirror lacks it."""
    src = mirror_path(url, mirror)
    if not src.exists():
        where = "" if pathlib.Path(mirror).is_dir() else f" (mirror directory {os.fspath(mirror)} does not exist)"
        raise FetchError(f"the mirror does not hold {url}: looked for {src}{where}")
    if not_regular(src):
        raise FetchError(f"the mirror's {src} for {url} {not_regular(src)}")
    log(f"copying {url} from mirror {src}")
    return _file_copier(src, url, expected, f" (mirror file {src})", f"mirror file {src} for {url}")


def _local_copier(src: pathlib.Path, expected, log):
    """``produce`` for a source that is a file on this machine."""
    if not_regular(src):
        raise FetchError(f"the local source file {src} {not_regular(src)}")
    log(f"copying local file {src}")
    return _file_copier(src, f"local file {src}", expected, "", f"local file {src}")


def _file_copier(src: pathlib.Path, url: str, expected, where: str, reading: str):
    """``produce`` for a copy of the file ``src``: hashed as it is copied, then checked."""

    def produce(out) -> str:
        hasher = hashlib.sha256()
        try:
            fh = open_regular(src)
        except (OSError, ValueError) as exc:
            raise FetchError(f"could not read {reading}: {exc}") from exc
        with fh:
            while True:
                try:
                    chunk = fh.read(CHUNK_SIZE)
                except OSError as exc:
                    raise FetchError(f"could not read {reading}: {exc}") from exc
                if not chunk:
                    break
                hasher.update(chunk)
                out.write(chunk)
        digest = hasher.hexdigest()
        _check_digest(digest, expected, url, where)
        return digest

    return produce


# --------------------------------------------------------------------- HTTP mode


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to http and https only (never file://, ftp://, ...)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        scheme = urllib.parse.urlsplit(newurl).scheme.lower()
        if scheme not in ("http", "https"):
            raise FetchError(f"{req.full_url} redirects to {newurl!r}: only http and https are followed")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _WriteFailed(Exception):
    """Writing a downloaded chunk to the local file failed (a disk error, not the network)."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


class _Exchange:
    """The sockets of one download attempt (redirects included), shut when the deadline
    passes or the batch is cancelled: a socket timeout bounds one wait for data, not a
    server that keeps sending a byte just often enough; shutting the socket from a timer
    ends any read at once, headers included."""

    def __init__(self, deadline: float):
        self.sockets: list[socket.socket] = []
        self.expired = False
        self.cancelled = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self.sockets.append(sock)
            if self.expired or self.cancelled:
                self._shut(sock)
        return sock

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        try:
            # the plain socket's shutdown, also under TLS: it ends a read blocked in another thread
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        except OSError:
            pass

    def _shut_all(self) -> None:
        with self._lock:
            for sock in self.sockets:
                self._shut(sock)

    def _expire(self) -> None:
        self.expired = True
        self._shut_all()

    def cancel(self) -> None:
        self.cancelled = True
        self._shut_all()

    def close(self) -> None:
        self._timer.cancel()


def _watched(connection_class, exchange: _Exchange):
    def connect(host, **kwargs):
        connection = connection_class(host, **kwargs)
        create = connection._create_connection  # http.client's documented hook for the socket factory
        connection._create_connection = lambda *args, **kw: exchange.watch(create(*args, **kw))
        return connection

    return connect


class _Watching:
    """Mixed into urllib's HTTP(S) handlers: every connection they open is watched by the
    exchange (its deadline covers headers and body)."""

    def __init__(self, exchange: _Exchange):
        super().__init__()
        self.exchange = exchange

    def do_open(self, http_class, req, **kwargs):
        return super().do_open(_watched(http_class, self.exchange), req, **kwargs)


class _WatchedHTTP(_Watching, urllib.request.HTTPHandler):
    pass


class _WatchedHTTPS(_Watching, urllib.request.HTTPSHandler):
    pass


def _download_once(
    url: str,
    out,
    timeout: float,
    log,
    deadline: float = float("inf"),
    max_bytes: int = MAX_BYTES,
    deadline_seconds: float | None = None,
    exchanges: "_Batch | None" = None,
) -> str:
    """One HTTP attempt: stream the body into ``out``; return its sha256.

    Raises _Transient for retryable failures and FetchError for final ones.
    """
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    exchange = _Exchange(deadline)
    if exchanges is not None:
        exchanges.add(exchange)
    opener = urllib.request.build_opener(_HttpOnlyRedirects, _WatchedHTTP(exchange), _WatchedHTTPS(exchange))
    hasher = hashlib.sha256()
    received = 0
    total = None
    answered = False
    host = urllib.parse.urlsplit(url).netloc
    try:
        try:
            with opener.open(request, timeout=timeout) as response:
                # A deadline that shut the socket mid-headers ends them early (http.client reads
                # the end of the stream as their end): that is no answer.
                answered = not (exchange.expired or exchange.cancelled)
                length = response.headers.get("Content-Length")
                if length is not None and length.strip().isdigit():
                    total = int(length)
                step = max(total // 10, PROGRESS_STEP) if total else PROGRESS_STEP
                next_report = step
                if total is not None and total > max_bytes:
                    raise FetchError(f"{url} announces {_human(total)}, more than the limit of {_human(max_bytes)}")
                while chunk := response.read1(CHUNK_SIZE) if hasattr(response, "read1") else response.read(CHUNK_SIZE):
                    hasher.update(chunk)
                    try:
                        out.write(chunk)
                    except OSError as error:
                        raise _WriteFailed(error) from None
                    received += len(chunk)
                    if received > max_bytes:
                        raise FetchError(f"{url} sent more than {_human(max_bytes)}; stopped (the limit on one file)")
                    if exchange.expired or exchange.cancelled:
                        break
                    if received >= next_report:
                        suffix = f" / {_human(total)} ({100 * received // total}%)" if total else ""
                        log(f"  {url}: {_human(received)}{suffix}")
                        next_report = received + step
        except _WriteFailed as failed:
            raise failed.error from None  # a local write: final, and _stage names the file
        except Exception as exc:
            if exchange.cancelled:
                raise _Cancelled() from None
            if exchange.expired:
                raise _past_deadline(url, answered, received, deadline_seconds) from None
            classified = _classify(exc, url, host, answered, received, timeout)
            if classified is exc:
                raise
            raise classified from exc
        if exchange.cancelled:
            raise _Cancelled()
        if exchange.expired:
            raise _past_deadline(url, answered, received, deadline_seconds)
    finally:
        exchange.close()
    if total is not None and received < total:
        raise _Transient(f"truncated: got {received} of {total} bytes", network=False)
    return hasher.hexdigest()


def _past_deadline(url: str, answered: bool, received: int, deadline_seconds: float | None) -> FetchError:
    limit = f" of {deadline_seconds:g} s" if deadline_seconds is not None else ""
    so_far = f"{_human(received)} so far" if answered else "its response headers were not complete"
    return FetchError(
        f"{url} was still arriving after the deadline{limit} ({so_far}); stopped (raise fetch.timeout for a slow link)"
    )


def _classify(exc: Exception, url: str, host: str, answered: bool, received: int, timeout: float) -> Exception:
    """What one failed attempt was, as a final FetchError or a retryable _Transient."""
    if isinstance(exc, (FetchError, _Transient, _Cancelled)):
        return exc
    if isinstance(exc, urllib.error.HTTPError):
        exc.close()
        status = f"HTTP {exc.code} {exc.reason}"
        if exc.code >= 500 or exc.code == 429:
            return _Transient(status, network=False)
        return FetchError(f"{status} for {url}")
    if isinstance(exc, http.client.IncompleteRead):
        got = received + len(exc.partial)
        expected = exc.expected + got if exc.expected is not None else "?"
        return _Transient(f"truncated: got {got} of {expected} bytes", network=False)
    if isinstance(exc, TimeoutError) and answered:
        return _Transient(
            f"the transfer stalled: nothing arrived for {timeout:g} s after {_human(received)}", network=False
        )
    if isinstance(exc, TimeoutError):
        return _Transient(
            f"the server at {host} accepted the connection but sent no answer for {timeout:g} s", network=False
        )
    if isinstance(exc, urllib.error.URLError):
        return _Transient(f"{exc.reason}", network=True)
    if isinstance(exc, http.client.RemoteDisconnected):
        return _Transient(f"the server at {host} closed the connection without answering", network=False)
    if isinstance(exc, (http.client.BadStatusLine, http.client.LineTooLong)):
        return _Transient(
            f"the server at {host} answered something that is not HTTP ({type(exc).__name__})", network=False
        )
    if isinstance(exc, (ConnectionError, http.client.HTTPException)) and answered:
        return _Transient(f"the connection broke after {_human(received)}: {type(exc).__name__}: {exc}", network=False)
    if isinstance(exc, http.client.HTTPException):  # e.g. more than 100 headers: an answer, if a bad one
        return _Transient(f"the server at {host} answered with a response that is not valid HTTP: {exc}", network=False)
    if isinstance(exc, (ConnectionError, OSError)):
        return _Transient(f"{type(exc).__name__}: {exc}", network=True)
    return exc


class _Batch:
    """The exchanges of a batch of downloads, so SIGTERM can shut every socket at once."""

    def __init__(self):
        self._exchanges: list[_Exchange] = []
        self._lock = threading.Lock()
        self.cancelled = False

    def add(self, exchange: _Exchange) -> None:
        with self._lock:
            self._exchanges.append(exchange)
            if self.cancelled:
                exchange.cancel()

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            for exchange in self._exchanges:
                exchange.cancel()


def _download_staged(
    url, dest, expected, timeout, retries, backoff, log, deadline_seconds, max_bytes, batch: _Batch | None = None
) -> tuple[pathlib.Path, str]:
    """Download ``url`` to a temporary file beside ``dest`` with retries; return it and its sha256."""
    _split_url(url)  # same URL rules as the mirror: http(s) only, a host, a file
    log(f"fetching {url} -> {dest}")
    deadline = time.monotonic() + deadline_seconds
    all_network = True
    last = None
    for attempt in range(retries):
        if attempt:
            delay = backoff * 2 ** (attempt - 1)
            log(f"retrying {url} in {delay:g} s (attempt {attempt + 1} of {retries}) after: {last}")
            time.sleep(max(0.0, min(delay, deadline - time.monotonic())))
            if batch is not None and batch.cancelled:
                raise _Cancelled()
            if time.monotonic() >= deadline:
                raise FetchError(
                    f"could not fetch {url} before the deadline of {deadline_seconds:g} s "
                    f"({attempt} attempt(s)): {last}"
                )

        def produce(out) -> str:
            digest = _download_once(url, out, timeout, log, deadline, max_bytes, deadline_seconds, batch)
            _check_digest(digest, expected, url)
            return digest

        try:
            return _stage(dest, produce)
        except _Transient as exc:
            last = exc
            all_network = all_network and exc.network
            continue

    message = f"could not fetch {url} after {retries} attempt(s): {last}"
    if all_network:
        message += f"; {OFFLINE_HINT}"
    raise FetchError(message) from last


def _check_arguments(retries: int, timeout: float) -> None:
    if retries < 1:
        raise ValueError(f"retries must be at least 1, got {retries}")
    if not 0 < timeout < float("inf"):
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")


# ------------------------------------------------------------------------ public


def fetch(
    url: str,
    dest: str | os.PathLike,
    *,
    sha256: str | None = None,
    mirror: str | os.PathLike | None = None,
    timeout: float,
    retries: int,
    backoff: float = 1.0,
    log=None,
    deadline: float | None = None,
    max_bytes: int = MAX_BYTES,
) -> str:
    """Materialise ``url`` at ``dest``; return the sha256 hex digest of what was written.

    With ``mirror`` set the file is copied from ``mirror_path(url, mirror)`` and the
    network is never touched. Otherwise it is downloaded over HTTP(S) (``timeout``
    seconds per wait for data, ``deadline`` seconds for the whole exchange, User-Agent
    ``reagree-fetch``), with up to ``retries`` attempts for transient failures and a
    ``backoff * 2**attempt`` sleep between attempts. If ``sha256`` is given the written
    bytes must match it (else ``DigestMismatch``). The write is atomic: on failure
    ``dest`` is not created. ``log`` is a callable taking one string (default: this
    module's logger at INFO level). Raises FetchError on failure; local file-system
    errors propagate as OSError naming the file; a ``dest`` that is not a regular file
    or a new path is refused (``reagree.files.UnsafePath``, a ValueError) before any
    byte is fetched.
    """
    wanted = Wanted(url, pathlib.Path(dest), sha256)
    return fetch_all(
        [wanted],
        mirror=mirror,
        timeout=timeout,
        retries=retries,
        backoff=backoff,
        log=log,
        deadline=deadline,
        max_bytes=max_bytes,
        workers=1,
        raise_first=True,
    )[wanted.dest]


class FetchErrors(FetchError):
    """Several files of a batch failed; ``failures`` pairs each Wanted with its error."""

    def __init__(self, failures: list[tuple[Wanted, BaseException]]):
        super().__init__("\n".join(str(error) for _, error in failures))
        self.failures = failures


def fetch_all(
    wanted: list[Wanted],
    *,
    mirror: str | os.PathLike | None = None,
    timeout: float,
    retries: int,
    backoff: float = 1.0,
    log=None,
    deadline: float | None = None,
    max_bytes: int = MAX_BYTES,
    workers: int = WORKERS,
    raise_first: bool = False,
) -> dict[pathlib.Path, str]:
    """Materialise every file of ``wanted`` (as ``fetch`` does one), all or nothing: each is
    staged under a temporary name and only when every one arrived whole and matched its
    sha256 are they renamed into place. Returns ``{dest: sha256}``. On failure nothing
    is renamed and no temporary file is left; the error is FetchErrors pairing every
    file that failed with its error (``raise_first``: the first error itself), or
    OSError for a local write, naming the file.
    """
    _check_arguments(retries, timeout)
    deadline = DEADLINE_FACTOR * timeout if deadline is None else deadline
    if log is None:
        log = logging.getLogger(__name__).info
    items = [dataclasses.replace(w, dest=pathlib.Path(w.dest), sha256=_normalise_sha256(w.sha256)) for w in wanted]
    for item in items:  # before any byte is fetched: a destination that is a link, a device, a FIFO or a folder
        check_output(item.dest)
    staged: dict[pathlib.Path, tuple[pathlib.Path, str]] = {}
    failures: list[tuple[Wanted, BaseException]] = []
    batch = _Batch()
    futures: dict[concurrent.futures.Future, Wanted] = {}

    def materialise(item: Wanted) -> tuple[pathlib.Path, str]:
        if item.local is not None:
            return _stage(item.dest, _local_copier(pathlib.Path(item.local), item.sha256, log))
        if mirror is not None:
            return _stage(item.dest, _mirror_copier(item.url, mirror, item.sha256, log))
        return _download_staged(
            item.url, item.dest, item.sha256, timeout, retries, backoff, log, deadline, max_bytes, batch
        )

    def settle(item: Wanted, outcome) -> None:
        try:
            staged[item.dest] = outcome()
        except (FetchError, OSError) as error:
            failures.append((item, error))

    written: dict[pathlib.Path, str] = {}
    try:
        with _termination_unwinds():
            if mirror is not None or workers <= 1 or len(items) <= 1:
                for item in items:
                    settle(item, lambda item=item: materialise(item))
                    if failures and raise_first:
                        break
            else:
                pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=min(workers, len(items)), thread_name_prefix="reagree-fetch"
                )
                try:
                    futures.update({pool.submit(materialise, item): item for item in items})
                    for future in concurrent.futures.as_completed(futures):
                        settle(futures[future], future.result)
                except BaseException:
                    batch.cancel()  # SIGTERM: shut every socket so the workers stop at once
                    raise
                finally:
                    pool.shutdown(wait=True, cancel_futures=True)
            if failures:
                local = [error for _, error in failures if not isinstance(error, FetchError)]
                if local:
                    raise local[0]
                if raise_first:
                    raise failures[0][1]
                raise FetchErrors(failures)
            for item in items:
                tmp_path, digest = staged[item.dest]
                move_into_place(tmp_path, item.dest)
                written[item.dest] = digest
                how = "copied" if mirror is not None or item.local is not None else "fetched"
                log(f"{how} {item.url} -> {item.dest} ({_human(item.dest.stat().st_size)}, sha256 {digest})")
    finally:
        # whatever was staged and not renamed (a failure elsewhere in the batch, SIGTERM),
        # including files a worker finished after the batch was abandoned
        leftovers = [tmp for tmp, _ in staged.values()]
        leftovers += [f.result()[0] for f in futures if f.done() and not f.cancelled() and f.exception() is None]
        for tmp_path in leftovers:
            tmp_path.unlink(missing_ok=True)
    return written


@contextmanager
def _termination_unwinds():
    """SIGTERM raises SystemExit while a fetch runs, so the temporary files are removed on
    the way out (the default action would kill the process and leave them). SIGKILL cannot
    be caught: ``sweep_partial_files`` removes what it leaves at the next run."""
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


def legacy_digest_record(path: str | os.PathLike) -> pathlib.Path:
    """Where reagree before the per-paper record (``reagree.pipeline.pins``) kept the sha256
    of a fetched file: ``.<name>.sha256`` beside it. Read once, moved into the record."""
    path = pathlib.Path(path)
    return path.with_name(f".{path.name}.sha256")


def sweep_partial_files(folder: str | os.PathLike, remove: bool = True) -> list[pathlib.Path]:
    """The ``.NAME.part-*`` files a killed fetch left under ``folder``, removed unless
    ``remove`` is false. Only called before a run schedules any job, holding the folder's
    run lock (``reagree.pipeline.runs``), so no fetch can be writing one."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        return []
    stale = [p for p in folder.rglob(".*.part-*") if p.is_file()]
    for path in stale if remove else ():
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


#: The offline settings of the project's CI, in the shared folder beside a checkout.
SHARED_OFFLINE_CONFIG = "../shared/offline.yaml"


def offline_message(hosts: list[str], missing: int) -> str:
    """What to do when sources must be downloaded and the network cannot reach them (the
    shared offline config is suggested only where it exists)."""
    shared = (
        f"  use one:   make all CONFIG={SHARED_OFFLINE_CONFIG}\n             "
        if pathlib.Path(SHARED_OFFLINE_CONFIG).is_file()
        else "  use one:   "
    )
    return (
        f"reagree cannot download its {missing} missing source file(s): no connection to {', '.join(hosts)}.\n"
        "A mirror is a folder holding the sources laid out by URL (https://HOST/PATH -> MIRROR/HOST/PATH); "
        "with one, nothing is downloaded and every file is still checked against its sha256.\n"
        f"{shared}snakemake --cores 4 --config mirror=/path/to/mirror\n"
        "  make one:  reagree mirror /path/to/mirror   (on a machine with network; "
        "or --mirror OTHER to copy another mirror), then carry the folder over."
    )
