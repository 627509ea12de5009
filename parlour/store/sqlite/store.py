"""The SQLite store: one file in WAL mode, written on the caller's thread or, with sync
"full", by a writer thread that commits many changes with one flush (see durability)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import platformdirs

from parlour.store.changes import Change
from parlour.store.sql import SqlStore
from parlour.store.sqlite import reads as sqlite_reads
from parlour.store.sqlite.durability import SYNC_MODES, Checkpointer, GroupCommitter, connect
from parlour.store.sqlite.schema import migrate
from parlour.store.sqlite.writes import SqlWrite, apply


def default_path() -> Path:
    configured = os.environ.get("PARLOUR_DB")
    if configured:
        return Path(configured)
    return Path(platformdirs.user_data_dir("parlour", appauthor=False)) / "parlour.sqlite3"


class SqliteStore(SqlStore[sqlite3.Connection]):
    """Reads and writes on the caller's thread, except a sync "full" store's `commit`:
    a writer thread commits every change waiting in one transaction, so that many players'
    moves share one disk flush and the event loop never waits on the disk (a sync
    "normal" store's flushes are the Checkpointer's). Besides Changes, it writes
    SqlWrites, SQLite's own (its migrations, a test's). The reads the event loop makes use
    its connection; those that may run in a thread, one of their own (`_apart`)."""

    reads = sqlite_reads

    def __init__(self, path: Path | str, sync: str = SYNC_MODES[0]) -> None:
        self.path = Path(path)
        self.sync = sync  # "full" or "normal": see parlour.store.sqlite.durability
        self.in_memory = str(path) == ":memory:"
        if not self.in_memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = connect(path, sync)
        self._writer: GroupCommitter | None = None
        self._checkpointer = (
            Checkpointer(self.path) if sync == "normal" and not self.in_memory else None
        )
        self.write(migrate)
        self.expire_uploads(time.time())  # as on each upload: also after a long pause

    def close(self) -> None:
        if self._writer is not None:
            self._writer.stop()
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.db.close()

    def write(self, change: Change | SqlWrite) -> None:
        """Make `change` durable now, in its own transaction."""
        with transaction(self.db):
            apply(self.db, change)

    async def commit(self, change: Change | SqlWrite) -> None:
        """Make `change` durable; returns once it is on disk (with sync "normal", once the
        system has it, to be flushed by the Checkpointer). Raises what it raised."""
        if self.in_memory or self.sync == "normal":
            # no flush to wait for: written here at once (a tenth of a millisecond), not
            # handed to the writer thread and back, which costs more on a busy machine
            self.write(change)
            return
        if self._writer is None:
            self._writer = GroupCommitter(self.path)
        await asyncio.wrap_future(self._writer.submit(partial(apply, change=change)))

    @contextmanager
    def _at_once(self) -> Iterator[sqlite3.Connection]:
        yield self.db

    @contextmanager
    def _apart(self) -> Iterator[sqlite3.Connection]:
        """A connection of its own in one read transaction (a file's store), for reads
        made in a thread while the event loop goes on with the store's own."""
        if self.in_memory:
            yield self.db
            return
        db = connect(self.path, self.sync)
        try:
            db.execute("BEGIN")
            yield db
        finally:
            db.close()

    async def commit_apart(self, change: Change) -> None:
        """A file's store writes `change` from a thread, with a connection of its own: the
        event loop goes on meanwhile (its own writes wait for SQLite's lock)."""
        if self.in_memory:
            self.write(change)
            return
        await asyncio.to_thread(self._write_apart, change)

    def _write_apart(self, change: Change) -> None:
        db = connect(self.path, self.sync)
        try:
            with transaction(db):
                apply(db, change)
        finally:
            db.close()


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """A write transaction on `db`, taking SQLite's write lock at once: committed when the
    block ends, rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
