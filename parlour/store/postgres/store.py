"""The PostgreSQL store, for hosting Parlour (`parlour --database postgresql://...`).

Every read and write takes a connection from one pool (psycopg_pool's ConnectionPool,
thread-safe): the Store's reads are synchronous, some called on the event loop and some
in threads (the statistics, backups), and a pool of synchronous connections serves them
all. `commit`, the write a move waits for, runs `write` in a thread of the store's own,
one per pooled connection: the event loop goes on while PostgreSQL commits, and commits
from many games at once go on their own connections, whose flushes PostgreSQL's group
commit shares. An asynchronous pool (psycopg's AsyncConnectionPool) for the moves would
spare that hop to a thread, but be a second pool beside the one the synchronous reads
need. Measured (bench.hosted_capacity, 3 runs each), it cut a process's CPU per move by
12-18 % at 1 600 players, and cost two processes 18 % of their moves/s at saturation,
where the event loop, now also waiting on PostgreSQL, is the limit: not kept.

A change is durable when `write` returns: PostgreSQL has committed it (with the
server's own synchronous_commit, on by default, it is flushed to its disk).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from parlour.store.changes import Change, ProgressSaved
from parlour.store.interface import Fenced
from parlour.store.postgres import reads as postgres_reads
from parlour.store.postgres.leases import LEASE_SECONDS, Leases
from parlour.store.postgres.schema import SCHEMA_VERSION, Connection, migrate
from parlour.store.postgres.writes import FENCED, PgWrite, apply, save_progress
from parlour.store.sql import SqlStore

POOL_SIZE = 8
"""Connections one process keeps at most: commits of that many games at once, the rest
wait for one (a PostgreSQL server takes some 100 by default, shared by every process)."""
CONNECT_SECONDS = 10.0
WAIT_SECONDS = 5.0
"""How long a read or a commit waits for a connection of the pool (psycopg_pool's default
is 30 s). Commits are milliseconds and at most POOL_SIZE run at once, so a longer wait
means the server is down: the player is told so (503) rather than kept waiting."""


class Unreachable(RuntimeError):
    """The PostgreSQL server cannot be reached: the URL's host, or the server, is wrong."""


class PostgresStore(SqlStore[Connection]):
    """A Store kept by a PostgreSQL server; `url` is a libpq URL, e.g.
    postgresql://parlour@db.example/parlour. Opening it creates or upgrades its schema."""

    reads = postgres_reads

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.leases: Leases | None = None  # set by `hold_leases` (many processes)
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=False, name="parlour-store",
            timeout=WAIT_SECONDS,
            kwargs={"autocommit": True})  # a transaction is begun where one is wanted
        try:
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
        except PoolTimeout:
            self._pool.close()
            raise Unreachable(f"cannot connect to {shown(url)} within"
                              f" {CONNECT_SECONDS:.0f} seconds") from None
        self._committers = ThreadPoolExecutor(pool_size, thread_name_prefix="parlour-commit")
        try:
            with self._pool.connection() as db, db.transaction():
                migrate(db)
            self.expire_uploads(time.time())  # as on each upload: also after a long pause
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self._committers.shutdown(wait=True)  # the commits under way finish first
        self._pool.close()

    def write(self, change: Change | PgWrite) -> None:
        """Make `change` durable now, in its own transaction."""
        if isinstance(change, ProgressSaved):  # a move: the write that must be quick
            self._save_progress(change)
            return
        claimed: dict[str, int] = {}
        with self._pool.connection() as db, db.transaction():
            apply(db, change)
            if self.leases is not None and not callable(change):
                claimed = self.leases.fence(db, change)
        if self.leases is not None:
            self.leases.held.update(claimed)  # committed: the new games are this process's

    def _save_progress(self, change: ProgressSaved) -> None:
        """One statement, committed on its own (autocommit), fenced in the same call."""
        lease = None if self.leases is None else self.leases.lease_of(change.progress.sid)
        try:
            with self._pool.connection() as db:
                save_progress(db, change, lease)
        except psycopg.Error as error:
            if error.sqlstate == FENCED:
                raise Fenced(error.diag.message_primary or "fenced") from None
            raise

    def unavailable(self, error: Exception) -> bool:
        return isinstance(error, (psycopg.OperationalError, PoolTimeout))

    def hold_leases(self, owner: str, ttl: float = LEASE_SECONDS) -> Leases:
        """From now on, play only the games this process holds the lease of, as `owner`
        (one of many processes on this database): writes of any other game's play are
        refused (leases.Fenced), and games it creates are its own."""
        self.leases = Leases(self._transaction, owner, ttl)
        return self.leases

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self._pool.connection() as db, db.transaction():
            yield db

    async def commit(self, change: Change | PgWrite) -> None:
        """Make `change` durable; returns once PostgreSQL has committed it, the event loop
        going on meanwhile. Raises what it raised (nothing of it is then kept)."""
        await asyncio.get_running_loop().run_in_executor(self._committers, self.write, change)

    @contextmanager
    def _apart(self) -> Iterator[Connection]:
        """A connection in a read-only transaction that sees one moment of the store,
        whatever is written meanwhile (as a read of SQLite's does)."""
        with self._pool.connection() as db, db.transaction():
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield db

    def _at_once(self) -> AbstractContextManager[Connection]:
        return self._apart()  # every read is made alike: the pool serves any thread


def shown(url: str) -> str:
    """`url` without its password, to be printed."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the database"
    info.pop("password", None)
    return psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items()})


def migrate_database(url: str) -> tuple[int, int]:
    """Create or upgrade the schema of the database at `url` (`parlour db migrate`):
    the schema version it had, and the one it has now."""
    try:
        db = psycopg.connect(url, connect_timeout=int(CONNECT_SECONDS))
    except psycopg.OperationalError as error:
        raise Unreachable(f"cannot connect to {shown(url)}: {error}") from None
    with db, db.transaction():
        before = migrate(db)
    return before, SCHEMA_VERSION
