"""A throwaway Redis server for the tests: Debian's redis-server on a free loopback port,
keeping nothing on disk, stopped at the end. It can be stopped and started again on the
same port (a test of what a restart of Redis costs)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.support.postgres import require_hosted_extra, unavailable

START_SECONDS = 10.0


class NoRedis(RuntimeError):
    """This machine cannot run a Redis server: why, and what to install."""


@dataclass
class RedisServer:
    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (again) on its port; returns once it answers."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_SECONDS
        while not _answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise NoRedis(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop the server at once (SIGKILL: what it held is gone, as in a crash)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_redis() -> RedisServer:
    """A Redis server of its own, running until its `remove`; NoRedis if this machine
    cannot run one."""
    if shutil.which("redis-server") is None:
        raise NoRedis("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(free_port(), Path(tempfile.mkdtemp(prefix="parlour-redis-")))
    server.start()
    return server


def redis_fixture() -> Iterator[RedisServer]:
    """A Redis server (the `redis` fixture). When it cannot start, its tests fail in CI
    and are skipped elsewhere."""
    require_hosted_extra()
    try:
        server = start_redis()
    except NoRedis as error:
        unavailable(f"no Redis server for the tests: {error}")
    yield server
    server.remove()
