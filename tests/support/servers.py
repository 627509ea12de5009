"""A real Parlour server process for tests and benchmarks: started on a free port, its
address read from its output, its output drained; and the names an in-process app
answers to."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

TEST_HOSTS = ("testserver", "127.0.0.1", "localhost")
"""The names an in-process app answers to in tests: the test client's, and the local ones."""
READY = re.compile(r"ready at (http://\S+?)/?\s")


@dataclass
class RunningServer:
    process: subprocess.Popen[str]
    url: str
    db: Path | str  # its SQLite file; or, for a server on PostgreSQL, its database's URL

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


def start_server(db: Path | str, port: int = 0, timeout: float = 20.0,
                 options: tuple[str, ...] = ()) -> RunningServer:
    """Start `python -m parlour` on 127.0.0.1 and wait until it prints its address; its
    games kept in the SQLite file `db`, or in the PostgreSQL database whose URL `db` is;
    `options`: more of its command line (`--bus URL`...)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    kept = ["--db", str(db)] if isinstance(db, Path) else ["--database", db]
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "--no-browser", "--port", str(port), *kept, *options],
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


def drain_output(server: RunningServer, keep: int = 200) -> deque[str]:
    """Read the server's output in a thread, so that a full pipe never stalls it; the
    returned deque holds its last `keep` lines (tracebacks, warnings)."""
    lines: deque[str] = deque(maxlen=keep)
    stream = server.process.stdout

    def read() -> None:
        if stream is not None:
            for line in stream:
                lines.append(line.rstrip("\n"))

    threading.Thread(target=read, name="server-output", daemon=True).start()
    return lines
