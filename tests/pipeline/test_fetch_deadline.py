"""Fetching against hostile servers and full disks, and a batch of files fetched at once.

The servers listen on 127.0.0.1 only. Each is bounded (it stops sending after a few
seconds), so a fetch that ignored the deadline fails its assertion instead of hanging.
"""

from __future__ import annotations

import errno
import hashlib
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from reagree import files
from reagree.pipeline.fetch import FetchError, FetchErrors, Wanted, fetch, fetch_all, mirror_path

from conftest import ROOT


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".part" in p.name]


class DribblingServer:
    """Accepts one connection at a time and sends ``response`` ``step`` bytes every
    ``interval`` seconds, for at most ``budget`` seconds, then keeps the connection open
    (``hold``) or closes it. Records how many bytes the client took before it left."""

    def __init__(
        self, response: bytes, *, step: int = 1, interval: float = 1.0, budget: float = 8.0, hold: float = 0.0
    ):
        self.response, self.step, self.interval, self.budget, self.hold = response, step, interval, budget, hold
        self.sent = 0
        self.finished = threading.Event()  # the whole response went out
        self.stopping = threading.Event()  # the test is over: stop sending
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/data.tsv"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        self.listener.settimeout(15)
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        with connection:
            connection.recv(65536)  # the request
            started = time.monotonic()
            try:
                while (
                    self.sent < len(self.response)
                    and time.monotonic() - started < self.budget
                    and not self.stopping.is_set()
                ):
                    connection.sendall(self.response[self.sent : self.sent + self.step])
                    self.sent += self.step
                    self.stopping.wait(self.interval)
                if self.sent >= len(self.response):
                    self.finished.set()
                self.stopping.wait(self.hold)
            except OSError:
                pass

    def close(self):
        self.stopping.set()
        self.listener.close()
        self.thread.join(timeout=20)


@pytest.fixture
def dribbling():
    servers = []

    def start(*args, **kwargs):
        server = DribblingServer(*args, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


HEADERS = b"HTTP/1.1 200 OK\r\nContent-Type: text/tab-separated-values\r\nContent-Length: 4\r\n\r\n"


def test_response_headers_sent_a_byte_a_second_meet_the_deadline(tmp_path, dribbling):
    server = dribbling(HEADERS + b"a\tb\n", step=1, interval=1.0, budget=12.0)
    with pytest.raises(FetchError) as info:
        fetch(server.url, tmp_path / "x.tsv", timeout=5, deadline=3, retries=1, backoff=0, log=lambda s: None)
    assert str(info.value) == (
        f"{server.url} was still arriving after the deadline of 3 s (its response headers "
        "were not complete); stopped (raise fetch.timeout for a slow link)"
    )
    # it gave up while the server was still sending its headers, not when they ended
    assert not server.finished.is_set() and server.sent < len(HEADERS)
    assert not (tmp_path / "x.tsv").exists() and not leftovers(tmp_path)


def test_a_body_that_stops_arriving_says_it_stalled(tmp_path, dribbling):
    body = b"item\tA\tB\n" * 100
    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
    server = dribbling(head + body[:10], step=len(head) + 10, interval=0, budget=5, hold=6)
    with pytest.raises(FetchError) as info:
        fetch(server.url, tmp_path / "x.tsv", timeout=1, deadline=20, retries=1, backoff=0, log=lambda s: None)
    assert str(info.value) == (
        f"could not fetch {server.url} after 1 attempt(s): the transfer stalled: nothing arrived for 1 s after 10 B"
    )
    assert "unreachable" not in str(info.value)
    assert not (tmp_path / "x.tsv").exists() and not leftovers(tmp_path)


def test_a_server_that_never_answers_is_not_called_unreachable(tmp_path, dribbling):
    server = dribbling(b"", budget=0, hold=6)
    with pytest.raises(FetchError) as info:
        fetch(server.url, tmp_path / "x.tsv", timeout=1, deadline=20, retries=1, backoff=0, log=lambda s: None)
    assert str(info.value) == (
        f"could not fetch {server.url} after 1 attempt(s): the server at "
        f"{server.url.split('/')[2]} accepted the connection but sent no answer for 1 s"
    )


def test_header_lines_trickling_past_the_deadline_say_the_headers_never_completed(tmp_path, dribbling):
    """The status line arrives at once, the header lines a few bytes at a time: when the
    deadline shuts the socket, http.client takes the end of the stream for the end of the
    headers, which must not read as an answer with "0 B so far"."""
    status = b"HTTP/1.1 200 OK\r\n"
    head = status + b"".join(b"X-Slow-%d: %s\r\n" % (i, b"y" * 20) for i in range(20)) + b"Content-Length: 4\r\n\r\n"
    server = dribbling(head + b"a\tb\n", step=len(status), interval=0.25, budget=12.0)
    with pytest.raises(FetchError) as info:
        fetch(server.url, tmp_path / "x.tsv", timeout=5, deadline=1, retries=1, backoff=0, log=lambda s: None)
    assert str(info.value) == (
        f"{server.url} was still arriving after the deadline of 1 s (its response headers "
        "were not complete); stopped (raise fetch.timeout for a slow link)"
    )
    assert server.sent < len(head) and not (tmp_path / "x.tsv").exists() and not leftovers(tmp_path)


def test_more_than_100_response_headers_are_named_not_called_unreachable(tmp_path, dribbling):
    head = b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(101)) + b"\r\n"
    server = dribbling(head, step=len(head), interval=0, budget=5)
    with pytest.raises(FetchError) as info:
        fetch(server.url, tmp_path / "x.tsv", timeout=5, deadline=20, retries=1, backoff=0, log=lambda s: None)
    assert str(info.value) == (
        f"could not fetch {server.url} after 1 attempt(s): the server at "
        f"{server.url.split('/')[2]} answered with a response that is not valid HTTP: got "
        "more than 100 headers"
    )


# ----------------------------------------------------------------- disk full


class FullDisk:
    """A temporary file whose writes fail as on a full disk (ENOSPC from the kernel's
    wording), otherwise the real thing."""

    def __init__(self, real):
        self.real = real
        self.name = real.name

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()
        return False

    def close(self):
        self.real.close()


def test_a_full_disk_names_the_file_a_fetch_could_not_write(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    url = "https://example.org/d/labels.tsv"
    mirror_path(url, mirror).parent.mkdir(parents=True)
    mirror_path(url, mirror).write_bytes(b"x" * 1000)
    real = tempfile.NamedTemporaryFile
    monkeypatch.setattr(files.tempfile, "NamedTemporaryFile", lambda *a, **k: FullDisk(real(*a, **k)))
    dest = tmp_path / "data" / "labels.tsv"
    with pytest.raises(OSError) as info:
        fetch(url, dest, mirror=mirror, timeout=5, retries=3, log=lambda s: None)
    assert str(info.value) == f"[Errno 28] could not write {dest}: No space left on device"
    assert not dest.exists() and not leftovers(tmp_path / "data")


def test_a_full_disk_names_the_table_it_could_not_write(tmp_path, monkeypatch):
    from reagree.pipeline import tables

    real = tempfile.NamedTemporaryFile
    monkeypatch.setattr(files.tempfile, "NamedTemporaryFile", lambda *a, **k: FullDisk(real(*a, **k)))
    target = tmp_path / "results" / "values.tsv"
    with pytest.raises(OSError) as info:
        tables.write_text_atomic(target, "key\tvalue\n")
    assert str(info.value) == f"[Errno 28] could not write {target}: No space left on device"
    assert not target.exists() and not leftovers(tmp_path)


def _tmpfs_available() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _tmpfs_available(), reason="needs unshare and user namespaces to mount a small tmpfs")
def test_reagree_fetch_onto_a_full_tmpfs_names_the_path(tmp_path):
    """A real full disk: a 64 KiB tmpfs mounted in a user namespace, and a 1 MiB source."""
    mirror = tmp_path / "mirror"
    url = "https://example.org/d/big.tsv"
    mirror_path(url, mirror).parent.mkdir(parents=True)
    mirror_path(url, mirror).write_bytes(b"y" * (1 << 20))
    small = tmp_path / "small"
    small.mkdir()
    script = (
        f"mount -t tmpfs -o size=64k tmpfs {small} && "
        f"{sys.executable} -m reagree.cli fetch {url} {small}/data/big.tsv --mirror {mirror}"
    )
    result = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        f"reagree fetch: [Errno 28] could not write {small}/data/big.tsv: No space left on device"
    )


# ----------------------------------------------------------------- a batch: all or nothing, several at once


def small_mirror(root: Path, names: list[str]) -> dict[str, str]:
    urls = {}
    for name in names:
        url = f"https://example.org/batch/{name}"
        path = mirror_path(url, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"item\t{name}\n")
        urls[name] = url
    return urls


def test_a_batch_lands_whole_or_not_at_all(tmp_path):
    urls = small_mirror(tmp_path / "mirror", ["a.tsv", "b.tsv"])
    wanted = [
        Wanted(urls["a.tsv"], tmp_path / "out" / "a.tsv"),
        Wanted(urls["b.tsv"], tmp_path / "out" / "b.tsv"),
        Wanted("https://example.org/batch/gone.tsv", tmp_path / "out" / "gone.tsv"),
    ]
    with pytest.raises(FetchErrors) as info:
        fetch_all(wanted, mirror=tmp_path / "mirror", timeout=5, retries=3, log=lambda s: None)
    assert str(info.value) == (
        f"the mirror does not hold https://example.org/batch/gone.tsv: looked for "
        f"{tmp_path / 'mirror' / 'example.org/batch/gone.tsv'}"
    )
    assert not list((tmp_path / "out").iterdir())  # neither a.tsv nor b.tsv, and no .part file
    digests = fetch_all(wanted[:2], mirror=tmp_path / "mirror", timeout=5, retries=3, log=lambda s: None)
    assert digests == {w.dest: hashlib.sha256(w.dest.read_bytes()).hexdigest() for w in wanted[:2]}
    assert (tmp_path / "out" / "b.tsv").read_text() == "item\tb.tsv\n"


@pytest.fixture
def many_files_server():
    """Serves /f<i>.tsv (distinct bodies), each answer delayed a little; counts requests
    in flight at once."""
    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            with lock:
                state["now"] += 1
                state["most"] = max(state["most"], state["now"])
            time.sleep(0.2)
            body = f"item\t{self.path}\n".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            with lock:
                state["now"] -= 1

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", state
    httpd.shutdown()
    httpd.server_close()


def test_a_batch_downloads_several_files_at_once(tmp_path, many_files_server):
    base, state = many_files_server
    wanted = [Wanted(f"{base}/f{i}.tsv", tmp_path / f"f{i}.tsv") for i in range(12)]
    digests = fetch_all(wanted, timeout=5, retries=1, log=lambda s: None, workers=4)
    for item in wanted:
        assert item.dest.read_bytes() == f"item\t/{item.dest.name}\n".encode()
        assert digests[item.dest] == hashlib.sha256(item.dest.read_bytes()).hexdigest()
    assert state["most"] > 1  # downloads overlapped
    assert not leftovers(tmp_path)


def test_sigterm_during_a_batch_leaves_no_partial_file(tmp_path, dribbling):
    server = dribbling(HEADERS.replace(b"4", b"400") + b"x" * 400, step=1, interval=0.05, budget=20)
    code = (
        "import sys; from reagree.pipeline.fetch import Wanted, fetch_all; "
        f"fetch_all([Wanted('{server.url}', sys.argv[1] + '/a'), Wanted('{server.url}?2', sys.argv[1] + '/b')], "
        "timeout=5, retries=3, deadline=60, log=lambda s: None)"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)])
    for _ in range(200):
        if leftovers(tmp_path):
            break
        time.sleep(0.05)
    assert leftovers(tmp_path), "the download never started"
    child.terminate()
    child.wait(timeout=20)
    assert child.returncode != 0
    assert not leftovers(tmp_path) and not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
