"""Headless Chromium driven over its DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages ending in a NUL byte on file descriptors 3 and 4), with nothing but the
standard library: open a page at a given window size, run a script in it, capture the
whole page as PNG. The report's browser test measures the page with it
(tests/report/test_report.py); Debian's ``chromium`` is what .ci/run installs.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

#: Chromium's flags for a quiet, local, throwaway run (with a new empty profile each time).
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    """One page of a headless Chromium, ``width`` x ``height`` CSS pixels (device scale 1)."""

    def __init__(self, executable: str, profile: Path, width: int, height: int, timeout: float = 120):
        to_browser, from_us = os.pipe()
        to_us, from_browser = os.pipe()

        def descriptors() -> None:  # the browser reads commands on 3 and writes answers on 4
            read, write = os.dup(to_browser), os.dup(from_browser)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            preexec_fn=descriptors,
            close_fds=False,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._out, self._in = os.fdopen(from_us, "wb"), os.fdopen(to_us, "rb")
        self._buffer, self._id, self.timeout = b"", 0, timeout
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            page=True,
        )

    def send(self, method: str, params: dict | None = None, page: bool = False) -> dict:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        self._out.write(json.dumps(message).encode() + b"\0")
        self._out.flush()
        while True:
            while b"\0" not in self._buffer:
                chunk = self._in.read1(1 << 20)
                if not chunk:
                    raise RuntimeError(f"chromium ended: {self.process.stderr.read().decode()[-300:]}")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def open(self, url: str) -> None:
        """Load ``url`` and wait until the document and every image are loaded."""
        self.send("Page.navigate", {"url": url}, page=True)
        deadline = time.monotonic() + self.timeout
        while self.evaluate("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not finish loading in {self.timeout} s")
            time.sleep(0.1)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (awaited when a promise)."""
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, page=True
        )
        return result["result"].get("value")

    def capture(self, path: Path) -> None:
        """The whole page, beyond the window, as PNG."""
        shot = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, page=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
