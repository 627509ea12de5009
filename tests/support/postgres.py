"""A throwaway PostgreSQL server for the tests: Debian's initdb and pg_ctl run a cluster
in a temporary folder, reached only through a unix socket there (no port to collide
with another run), and stopped at the end. Each test gets a schema of its own, as good
as a database of its own for the store and much faster to make.

PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user
(Debian's package makes it), in a folder that user owns.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import pytest

SUPERUSER = "parlour"
START_SECONDS = 30


class NoPostgres(RuntimeError):
    """This machine cannot run a PostgreSQL server: why, and what to install."""


@dataclass
class PostgresServer:
    folder: Path  # the cluster's data folder and its socket's
    bin_folder: Path

    _made: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, database: str = "postgres") -> str:
        """A libpq URL of `database` on this server, through its socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}"

    def new_schema(self) -> str:
        """The URL of a new, empty schema, which every connection made with it uses (its
        `search_path`): a database of the caller's own, made in a millisecond where a
        CREATE DATABASE takes tenths of a second."""
        import psycopg

        with self._lock:
            self._made += 1
            name = f"test_{os.getpid()}_{self._made}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url()}&options=-csearch_path%3D{name}"

    def start(self) -> None:
        """Start the server (again, after `halt`)."""
        # a throwaway server: fsync off keeps CREATE DATABASE and each commit fast on a
        # busy machine (what a commit waits for is still PostgreSQL's commit)
        settings = (f"-c listen_addresses='' -c unix_socket_directories='{self.folder}'"
                    " -c fsync=off -c full_page_writes=off")
        _run([str(self.bin_folder / "pg_ctl"), "--pgdata", str(self.folder), "--wait",
              "--timeout", str(START_SECONDS), "--log", str(self.folder / "server.log"),
              "--options", settings, "start"])

    def halt(self) -> None:
        """Stop the server, keeping its data (as an outage does): `start` brings it back."""
        _run([str(self.bin_folder / "pg_ctl"), "--pgdata", str(self.folder), "--wait",
              "--mode", "fast", "stop"])

    def stop(self) -> None:
        """Stop the server at once (nothing in it is kept) and remove its folder."""
        try:
            _run([str(self.bin_folder / "pg_ctl"), "--pgdata", str(self.folder), "--wait",
                  "--mode", "immediate", "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def binaries() -> Path:
    """The folder of the newest PostgreSQL installed by Debian's packages."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda path: int(Path(path).parts[-3]))
    if not found:
        raise NoPostgres("PostgreSQL is not installed (apt-get install postgresql)")
    return Path(found[-1]).parent


def _as_server_user(command: list[str]) -> list[str]:
    """`command` as the user the server runs as: the `postgres` user when we are root."""
    if os.getuid() != 0:
        return command
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise NoPostgres("running as root, and there is no `postgres` user to run the"
                         " server as (apt-get install postgresql makes it)") from None
    return ["runuser", "-u", "postgres", "--", *command]


def _run(command: list[str]) -> None:
    finished = subprocess.run(_as_server_user(command), capture_output=True, text=True,
                              timeout=START_SECONDS, check=False)
    if finished.returncode != 0:
        raise NoPostgres(f"{Path(command[0]).name} failed: {finished.stderr.strip()[-600:]}")


def start_postgres() -> PostgresServer:
    """A PostgreSQL server of its own, running until its `stop`; NoPostgres if this
    machine cannot run one."""
    bin_folder = binaries()
    folder = Path(tempfile.mkdtemp(prefix="parlour-postgres-"))
    try:
        if os.getuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        _run([str(bin_folder / "initdb"), "--pgdata", str(folder), "--username", SUPERUSER,
              "--auth", "trust", "--encoding", "UTF8", "--no-sync", "--no-instructions"])
        server = PostgresServer(folder, bin_folder)
        server.start()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server


def unavailable(message: str) -> NoReturn:
    """What tests that need PostgreSQL do without it: fail in CI, skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def require_hosted_extra() -> None:
    """Without the `hosted` extra (which the dev extra installs), the tests that need
    PostgreSQL or Redis are skipped, or in CI fail, saying what to install."""
    try:
        import psycopg  # noqa: F401
        import redis  # noqa: F401
    except ImportError as error:
        unavailable(f"the hosted extra is not installed ({error}): pip install -e '.[dev]'")


def postgres_fixture() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (the `postgres` fixture): started by the first test
    that needs it. When it cannot start, its tests fail in CI and are skipped elsewhere."""
    require_hosted_extra()
    try:
        server = start_postgres()
    except NoPostgres as error:
        unavailable(f"no PostgreSQL server for the tests: {error}")
    yield server
    server.stop()

