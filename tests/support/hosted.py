"""A hosted Parlour for the tests, all real: Parlour processes sharing a throwaway
PostgreSQL database and Redis server, and nginx in front of them with the configuration
the repository ships (deploy/nginx/parlour.conf) as it is, on free loopback ports. A test
may kill, pause or restart any process, Redis, or PostgreSQL."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.support.postgres import PostgresServer
from tests.support.redis import RedisServer, free_port
from tests.support.servers import RunningServer, drain_output, start_server

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "parlour.conf"
START_SECONDS = 10.0


class NoNginx(RuntimeError):
    """This machine cannot run nginx: why, and what to install."""


def nginx_binary() -> str:
    found = shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(path)),
        None)
    if found is None:
        raise NoNginx("nginx is not installed (apt-get install nginx)")
    return found


@dataclass
class Nginx:
    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_nginx(upstreams: list[str]) -> Nginx:
    """nginx on a free port in front of `upstreams` ("127.0.0.1:8001"...), running the
    shipped configuration inside a main one of the test's own (its own folders, no
    daemon, no logs kept)."""
    binary = nginx_binary()
    folder = Path(tempfile.mkdtemp(prefix="parlour-nginx-"))
    port = free_port()
    (folder / "parlour-processes.conf").write_text(
        "".join(f"server {address} max_fails=1 fail_timeout=2s;\n" for address in upstreams))
    (folder / "parlour-listen.conf").write_text(f"listen 127.0.0.1:{port};\n")
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    user = "user root;\n" if os.getuid() == 0 else ""
    (folder / "nginx.conf").write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log warn;\n"
        "worker_rlimit_nofile 16384;\nevents { worker_connections 8192; }\n"  # 2 a player
        "http {\n  access_log off;\n"
        + "".join(f"  {name}_temp_path {path};\n" if name != "body" else
                  f"  client_body_temp_path {path};\n" for name, path in temp.items())
        + f"  include {SHIPPED};\n}}\n")
    process = subprocess.Popen([binary, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return Nginx(folder, port, process)
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            error = process.stderr.read().decode() if process.stderr else ""
            shutil.rmtree(folder, ignore_errors=True)
            raise NoNginx(f"nginx did not start: {error[-600:]}")
        time.sleep(0.05)


@dataclass
class Hosted:
    """Processes of one hosted Parlour (`processes[i]`), the services they share, and
    nginx in front (`url`)."""

    database: str
    postgres: PostgresServer
    redis: RedisServer
    processes: list[RunningServer] = field(default_factory=list)
    outputs: list[object] = field(default_factory=list)
    nginx: Nginx | None = None

    @property
    def url(self) -> str:
        assert self.nginx is not None
        return self.nginx.url

    def start_process(self, port: int = 0) -> RunningServer:
        server = start_server(self.database, port, options=("--bus", self.redis.url))
        self.outputs.append(drain_output(server))
        return server

    def restart(self, index: int) -> None:
        """Start process `index` again, on its port (after a kill)."""
        port = int(self.processes[index].url.rsplit(":", 1)[1])
        self.processes[index].stop()
        self.processes[index] = self.start_process(port)

    def pause(self, index: int) -> None:
        self.processes[index].process.send_signal(signal.SIGSTOP)

    def resume(self, index: int) -> None:
        self.processes[index].process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        for server in self.processes:
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGCONT)
            server.stop()
        if self.nginx is not None:
            self.nginx.stop()


def start_hosted(postgres: PostgresServer, redis: RedisServer, count: int = 3) -> Hosted:
    """`count` processes on a new database (a schema of its own) and `redis`, behind
    nginx."""
    hosted = Hosted(postgres.new_schema(), postgres, redis)
    try:
        for _ in range(count):
            hosted.processes.append(hosted.start_process())
        hosted.nginx = start_nginx([p.url.removeprefix("http://") for p in hosted.processes])
    except BaseException:
        hosted.stop()
        raise
    return hosted
