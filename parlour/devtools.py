"""Helpers for tests and benchmarks: run a real Parlour server, launch Chromium, and
open a WebSocket that never reads (a hostile viewer)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
T = TypeVar("T")

TEST_HOSTS = ("testserver", "127.0.0.1", "localhost")
"""The names an in-process app answers to in tests: the test client's, and the local ones."""
READY = re.compile(r"ready at (http://\S+?)/?\s")


@dataclass
class RunningServer:
    process: subprocess.Popen[str]
    url: str
    db: Path

    def kill(self) -> None:
        """Kill hard, as a crash or a power cut would: no clean shutdown."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(db: Path, port: int = 0, timeout: float = 20.0) -> RunningServer:
    """Start `python -m parlour` on 127.0.0.1 and wait until it prints its address."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "--no-browser", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        return RunningServer(process, wait_until_ready(process, timeout), db)
    except RuntimeError:
        process.kill()
        raise


def wait_until_ready(process: subprocess.Popen[str], timeout: float = 20.0) -> str:
    """The address from the server's "ready at" line; RuntimeError if it never comes."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        match = READY.search(line)
        if match:
            return match.group(1)
    raise RuntimeError("Parlour did not start:\n" + "".join(seen))


def chromium_available() -> bool:
    return Path(CHROMIUM).exists()


def launch_chromium(playwright: Any, **options: Any) -> Any:
    return launch_chromium_from(playwright.chromium, **options)


def launch_chromium_from(browser_type: Any, **options: Any) -> Any:
    """Debian's Chromium, headless with Parlour's flags, from Playwright's `browser_type`
    (a browser's own `browser_type` starts another beside it)."""
    return browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True, **options
    )


def masked_text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (clients must mask what they send)."""
    payload = text.encode()
    if len(payload) >= 126:
        raise ValueError("a short message only")
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def stalled_viewer(url: str, sid: str) -> socket.socket:
    """A WebSocket on game `sid` that says hello and then never reads a byte: its
    receive buffer (made tiny) stays full, as a hostile or frozen client's would."""
    address = urlsplit(url)
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    raw.connect((address.hostname or "127.0.0.1", address.port or 80))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET /ws/{sid} HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    raw.sendall(masked_text_frame(json.dumps({"type": "hello", "token": None})))
    return raw


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: in a test run, Playwright's sync API keeps an
    event loop running in the main thread, where `asyncio.run` is refused."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
