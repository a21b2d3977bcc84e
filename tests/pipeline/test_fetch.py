"""Tests for reagree.pipeline.fetch: mirror path rule, mirror copies, HTTP downloads, retries, atomicity."""

from __future__ import annotations

import hashlib
import http.server
import os
import socket
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from reagree.pipeline.fetch import FetchError, fetch, mirror_path

PAYLOAD = b"gene\tscore\nBRCA1\t0.9\nTP53\t0.7\n" * 100
PAYLOAD_SHA = hashlib.sha256(PAYLOAD).hexdigest()
WRONG_SHA = "0" * 64


def no_part_files(directory: Path) -> bool:
    return not [p for p in directory.iterdir() if ".part" in p.name]


# ----------------------------------------------------------------- mirror_path


def test_mirror_path_drops_scheme_and_query(tmp_path):
    url = "https://raw.githubusercontent.com/o/r/abc/d/f.tsv?raw=1"
    assert mirror_path(url, tmp_path) == tmp_path / "raw.githubusercontent.com/o/r/abc/d/f.tsv"


def test_mirror_path_drops_fragment_and_userinfo_keeps_port(tmp_path):
    assert mirror_path("http://user:pw@Example.org:8080/a/b.gz#x", tmp_path) == tmp_path / "example.org:8080/a/b.gz"


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/pub/f.tsv",
        "https://example.org/a/../../etc/passwd",
        "https://example.org/a/%2e%2e/b",
        "https:///no/host",
        "https://../etc/passwd",
        "https://example.org/",
        "relative/path.tsv",
    ],
)
def test_mirror_path_rejects(url, tmp_path):
    with pytest.raises(FetchError):
        mirror_path(url, tmp_path)


@settings(max_examples=200, deadline=None)
@given(path=st.text(alphabet="ab./%2e\\:?#", max_size=30))
def test_mirror_path_stays_inside_mirror(path):
    mirror = Path("/srv/mirror")
    try:
        result = mirror_path("https://example.org/" + path, mirror)
    except FetchError:
        return
    assert os.path.normpath(result).startswith(str(mirror) + os.sep)


# ----------------------------------------------------------------- mirror mode

URL = "https://example.org/data/f.tsv?raw=1"


@pytest.fixture
def mirror(tmp_path):
    root = tmp_path / "mirror"
    target = mirror_path(URL, root)
    target.parent.mkdir(parents=True)
    target.write_bytes(PAYLOAD)
    return root


def test_mirror_copy(tmp_path, mirror):
    dest = tmp_path / "out" / "f.tsv"
    lines = []
    assert fetch(URL, dest, mirror=mirror, timeout=5, retries=3, log=lines.append) == PAYLOAD_SHA
    assert dest.read_bytes() == PAYLOAD
    assert lines  # start and end lines were logged
    assert no_part_files(dest.parent)


def test_mirror_copy_pinned_hash_any_case(tmp_path, mirror):
    dest = tmp_path / "f.tsv"
    assert (
        fetch(URL, dest, mirror=mirror, sha256=PAYLOAD_SHA.upper(), timeout=5, retries=3, log=lambda s: None)
        == PAYLOAD_SHA
    )
    assert dest.read_bytes() == PAYLOAD


def test_mirror_missing_file(tmp_path, mirror):
    url = "https://example.org/data/other.tsv"
    with pytest.raises(FetchError) as info:
        fetch(url, tmp_path / "o.tsv", mirror=mirror, timeout=5, retries=3, log=lambda s: None)
    message = str(info.value)
    assert url in message
    assert str(mirror_path(url, mirror)) in message
    assert not (tmp_path / "o.tsv").exists()


def test_mirror_checksum_mismatch(tmp_path, mirror):
    out = tmp_path / "out"
    dest = out / "f.tsv"
    with pytest.raises(FetchError) as info:
        fetch(URL, dest, mirror=mirror, sha256=WRONG_SHA, timeout=5, retries=3, log=lambda s: None)
    message = str(info.value)
    assert WRONG_SHA in message and PAYLOAD_SHA in message and URL in message
    assert not dest.exists()
    assert no_part_files(out)


def test_mirror_mode_never_uses_network(tmp_path, mirror, free_port):
    url = f"http://127.0.0.1:{free_port}/data/f.tsv"
    target = mirror_path(url, mirror)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"x")
    assert (
        fetch(url, tmp_path / "x", mirror=mirror, timeout=5, retries=3, log=lambda s: None)
        == hashlib.sha256(b"x").hexdigest()
    )


# ------------------------------------------------------------------- HTTP mode


@pytest.fixture
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server():
    """A local HTTP server; yields (base_url, per-path request counts, user agents seen)."""
    counts: dict[str, int] = {}
    agents: list[str] = []
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format, *args):  # silence request logging
            pass

        def do_GET(self):
            with lock:
                counts[self.path] = counts.get(self.path, 0) + 1
                n = counts[self.path]
                agents.append(self.headers.get("User-Agent", ""))
            if self.path == "/ok":
                self._send(200, PAYLOAD)
            elif self.path == "/missing":
                self.send_error(404)
            elif self.path == "/truncated":
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"0123456789")
                self.wfile.flush()
                self.close_connection = True
            elif self.path == "/flaky":
                if n == 1:
                    self.send_error(500)
                else:
                    self._send(200, PAYLOAD)
            elif self.path == "/down":
                self.send_error(503)
            elif self.path == "/to-ftp":
                self.send_response(302)
                self.send_header("Location", "ftp://example.org/pub/f.tsv")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif self.path == "/to-ok":
                self.send_response(302)
                self.send_header("Location", "/ok")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif self.path == "/trickle":
                self.send_response(200)
                self.send_header("Content-Length", "400")
                self.end_headers()
                for _ in range(40):  # bounded: 40 bytes over 2 s, then the handler stops
                    try:
                        self.wfile.write(b"x")
                        self.wfile.flush()
                    except OSError:
                        return
                    time.sleep(0.05)
            elif self.path == "/endless":
                self.send_response(200)
                self.end_headers()
                for _ in range(64):  # bounded: 64 KiB at most, far past the test's 4 KiB cap
                    try:
                        self.wfile.write(b"y" * 1024)
                    except OSError:
                        return
                self.close_connection = True
            elif self.path == "/garbage":
                self.wfile.write(b"this is not an HTTP answer\r\n\r\n")
                self.close_connection = True
            else:
                self.send_error(404)

        def _send(self, status, body):
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", counts, agents
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def quiet(**kwargs):
    return {"log": lambda s: None, "backoff": 0, "timeout": 5, "retries": 3, **kwargs}


def test_http_ok(tmp_path, server):
    base, counts, agents = server
    dest = tmp_path / "a" / "b" / "ok.tsv"
    lines = []
    assert fetch(f"{base}/ok", dest, timeout=60, retries=3, log=lines.append, backoff=0) == PAYLOAD_SHA
    assert dest.read_bytes() == PAYLOAD
    assert counts["/ok"] == 1
    assert agents == ["reagree-fetch"]
    assert any("fetching" in line for line in lines) and any("fetched" in line for line in lines)
    assert no_part_files(dest.parent)


def test_http_ok_with_sha256(tmp_path, server):
    base, _, _ = server
    dest = tmp_path / "ok.tsv"
    assert fetch(f"{base}/ok", dest, sha256=PAYLOAD_SHA, **quiet()) == PAYLOAD_SHA
    assert dest.read_bytes() == PAYLOAD


def test_http_checksum_mismatch(tmp_path, server):
    base, counts, _ = server
    dest = tmp_path / "ok.tsv"
    with pytest.raises(FetchError) as info:
        fetch(f"{base}/ok", dest, sha256=WRONG_SHA, **quiet(retries=3))
    message = str(info.value)
    assert WRONG_SHA in message and PAYLOAD_SHA in message and f"{base}/ok" in message
    assert counts["/ok"] == 1  # a checksum mismatch is final
    assert not dest.exists()
    assert no_part_files(tmp_path)


def test_http_404_not_retried(tmp_path, server):
    base, counts, _ = server
    dest = tmp_path / "missing.tsv"
    with pytest.raises(FetchError) as info:
        fetch(f"{base}/missing", dest, **quiet(retries=3))
    assert "HTTP 404 Not Found" in str(info.value)
    assert f"{base}/missing" in str(info.value)
    assert counts["/missing"] == 1
    assert not dest.exists()
    assert no_part_files(tmp_path)


def test_http_truncated(tmp_path, server):
    base, counts, _ = server
    dest = tmp_path / "t.tsv"
    with pytest.raises(FetchError) as info:
        fetch(f"{base}/truncated", dest, **quiet(retries=2))
    assert "truncated" in str(info.value)
    assert "10 of 1000" in str(info.value)
    assert counts["/truncated"] == 2  # truncation is retried
    assert not dest.exists()
    assert no_part_files(tmp_path)


def test_http_flaky_succeeds_on_retry(tmp_path, server):
    base, counts, _ = server
    dest = tmp_path / "f.tsv"
    lines = []
    assert fetch(f"{base}/flaky", dest, retries=3, backoff=0, timeout=5, log=lines.append) == PAYLOAD_SHA
    assert dest.read_bytes() == PAYLOAD
    assert counts["/flaky"] == 2
    assert any("retrying" in line for line in lines)
    assert no_part_files(tmp_path)


def test_http_5xx_gives_up_without_offline_hint(tmp_path, server):
    base, counts, _ = server
    with pytest.raises(FetchError) as info:
        fetch(f"{base}/down", tmp_path / "d", **quiet(retries=3))
    assert "HTTP 503" in str(info.value)
    assert "mirror" not in str(info.value)  # the server answered: not an offline problem
    assert counts["/down"] == 3
    assert not (tmp_path / "d").exists()


def test_unreachable_mentions_mirror(tmp_path, free_port):
    url = f"http://127.0.0.1:{free_port}/x.tsv"
    dest = tmp_path / "x.tsv"
    with pytest.raises(FetchError) as info:
        fetch(url, dest, retries=2, backoff=0, timeout=2, log=lambda s: None)
    message = str(info.value)
    assert url in message
    assert "mirror" in message
    assert not dest.exists()
    assert no_part_files(tmp_path)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/f"])
def test_fetch_rejects_non_http_schemes(tmp_path, url):
    with pytest.raises(FetchError):
        fetch(url, tmp_path / "x", timeout=5, retries=3, log=lambda s: None)
    assert not (tmp_path / "x").exists()


# ----------------------------------------------------------------- limits and odd servers


def test_a_redirect_to_another_scheme_is_refused(tmp_path, server):
    base, _, _ = server
    with pytest.raises(FetchError, match="only http and https are followed"):
        fetch(f"{base}/to-ftp", tmp_path / "x", **quiet())
    assert not (tmp_path / "x").exists() and no_part_files(tmp_path)


def test_a_redirect_within_http_is_followed(tmp_path, server):
    base, _, _ = server
    assert fetch(f"{base}/to-ok", tmp_path / "x", **quiet()) == PAYLOAD_SHA


def test_a_trickling_server_meets_the_overall_deadline(tmp_path, server):
    base, _, _ = server
    started = time.monotonic()
    with pytest.raises(FetchError, match="after the deadline"):
        fetch(f"{base}/trickle", tmp_path / "x", log=lambda s: None, backoff=0, timeout=5, retries=3, deadline=0.5)
    assert time.monotonic() - started < 4
    assert not (tmp_path / "x").exists() and no_part_files(tmp_path)


def test_an_endless_body_is_stopped_at_the_size_cap(tmp_path, server):
    base, _, _ = server
    with pytest.raises(FetchError, match="more than 4.0 KiB"):
        fetch(f"{base}/endless", tmp_path / "x", max_bytes=4096, **quiet())
    assert not (tmp_path / "x").exists() and no_part_files(tmp_path)


def test_a_server_that_answers_garbage_is_not_called_unreachable(tmp_path, server):
    base, _, _ = server
    with pytest.raises(FetchError) as info:
        fetch(f"{base}/garbage", tmp_path / "x", **quiet(retries=1))
    assert "not HTTP" in str(info.value) and "unreachable" not in str(info.value)


def test_a_zero_timeout_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ValueError, match="timeout must be a positive"):
        fetch("https://example.org/x", tmp_path / "x", timeout=0, retries=3, log=lambda s: None)


def test_sigterm_during_a_fetch_leaves_no_partial_file(tmp_path, server):
    import signal
    import subprocess
    import sys

    base, _, _ = server
    code = (
        "import sys; from reagree.pipeline.fetch import fetch; "
        f"fetch('{base}/trickle', sys.argv[1], timeout=5, retries=3, deadline=30, log=lambda s: None)"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "x")])
    for _ in range(100):
        if list(tmp_path.glob(".x.part-*")):
            break
        time.sleep(0.05)
    assert list(tmp_path.glob(".x.part-*")), "the download never started"
    child.send_signal(signal.SIGTERM)
    child.wait(timeout=10)
    assert not (tmp_path / "x").exists()
    assert no_part_files(tmp_path)
