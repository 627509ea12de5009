"""How the SQLite store makes a write durable: its connection's settings, and the two
threads that flush to the disk. The sync setting (`parlour --sync`) decides when a
commit returns, and so when the server acknowledges a move:

- "normal" (the default): the move is written to the operating system at once (a tenth
  of a millisecond), so it survives the server being killed; the Checkpointer's thread
  flushes it to the disk within `CHECKPOINT_SECONDS`, so a power cut or a crash of the
  system may lose the last second of moves (never the database: SQLite keeps it whole).
- "full": the move is flushed to the disk before `commit` returns, by the GroupCommitter,
  a writer thread that commits every waiting change with one flush; it survives a power
  cut too, and costs a flush per move on the reply's path: 1.6 ms median, 6.4 ms at the
  95th percentile on the test machine, tens of milliseconds when the disk is busy
  (bench/click_latency.py --parts, "commit").
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from concurrent.futures import Future
from pathlib import Path

from parlour.store.sqlite.writes import SqlWrite

SYNC_MODES = ("normal", "full")  # the first is the default
CHECKPOINT_SECONDS = 1.0  # with sync "normal": how long a move may wait for its flush


def connect(path: Path | str, sync: str) -> sqlite3.Connection:
    if sync not in SYNC_MODES:
        raise ValueError(f"sync is one of {', '.join(SYNC_MODES)}, not {sync!r}")
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={sync.upper()}")
    if sync == "normal":  # the Checkpointer's thread flushes: never a commit on the loop
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("PRAGMA busy_timeout=10000")
    db.execute("PRAGMA foreign_keys=ON")
    return db


class Checkpointer:
    """A thread with its own connection that flushes a sync "normal" store to the disk
    every CHECKPOINT_SECONDS: a passive checkpoint, which never blocks a writer, moves
    the commits since the last one from the write-ahead log into the database and flushes
    both (the work a commit would otherwise do on the event loop now and then). What came
    after the last one is flushed when the store closes: SQLite checkpoints the log as the
    last connection to the database closes."""

    def __init__(self, path: Path, every: float = CHECKPOINT_SECONDS) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(path, every), name="parlour-store-checkpointer", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)

    def _run(self, path: Path, every: float) -> None:
        db = connect(path, "full")  # (a checkpoint flushes in either mode)
        try:
            while not self._stopping.wait(every):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()


class GroupCommitter:
    """A thread with its own connection that commits waiting changes in batches.

    Each change runs in a savepoint, so one that fails is undone alone and reported to
    its caller; the batch then commits with one flush to disk for all the others.
    """

    def __init__(self, path: Path) -> None:
        self._queue: queue.SimpleQueue[tuple[SqlWrite, Future[None]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(
            target=self._run, args=(path,), name="parlour-store-writer", daemon=True
        )
        self._thread.start()

    def submit(self, change: SqlWrite) -> Future[None]:
        done: Future[None] = Future()
        self._queue.put((change, done))
        return done

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self, path: Path) -> None:
        db = connect(path, "full")  # only a "full" store hands its commits to this thread
        try:
            while (first := self._queue.get()) is not None:
                batch = [first]
                stopping = False
                while not self._queue.empty():
                    waiting = self._queue.get()
                    if waiting is None:
                        stopping = True
                        break
                    batch.append(waiting)
                self._commit(db, batch)
                if stopping:
                    break
        finally:
            db.close()

    @staticmethod
    def _commit(db: sqlite3.Connection, batch: list[tuple[SqlWrite, Future[None]]]) -> None:
        errors: list[BaseException | None] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for change, _ in batch:
                db.execute("SAVEPOINT change")
                try:
                    change(db)
                    errors.append(None)
                except Exception as error:
                    db.execute("ROLLBACK TO change")
                    errors.append(error)
                db.execute("RELEASE change")
            db.execute("COMMIT")
        except Exception as failure:
            if db.in_transaction:
                db.execute("ROLLBACK")
            errors = [failure] * len(batch)
        for (_, done), outcome in zip(batch, errors, strict=True):
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)
