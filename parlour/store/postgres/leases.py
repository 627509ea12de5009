"""Leases: which process plays each live game, when many processes share one database.

A process plays a game only while it holds the game's lease: a row naming it, with an
epoch (new at each takeover, from a sequence, so never reused) and an expiry that the
holder pushes on every second. Another process may take the lease once it has expired:
the holder died, hung or lost the database. Every write of a game's progress checks, in
its own transaction, that the lease is still the writer's at the epoch it took
(`check`; for a move, the same check inside the schema's save_progress): a process
that was paused past its lease, or cut off, and comes back can never write again, even
if it still believes it plays the game. That check, not the expiry, is what keeps one
writer per game; the expiry only decides when a takeover may happen. The check locks
the lease row for share, so a takeover (an UPDATE of the row) waits for a write under
way, and the new holder reads the game after it.

All times are the database's (`now()`): the processes' clocks never need to agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from parlour.store.changes import (
    Change,
    ProgressSaved,
    SeatingChanged,
    SessionCreated,
    Together,
    TokenAdded,
)
from parlour.store.interface import Fenced
from parlour.store.postgres.schema import Connection


class Epoch(int):
    """A lease's epoch, as taken: `taken_over` if the game had a holder before, whose
    lease had expired (a row updated, where PostgreSQL's xmax is set)."""

    taken_over: bool

    def __new__(cls, value: int, taken_over: bool = False) -> Epoch:
        epoch = super().__new__(cls, value)
        epoch.taken_over = taken_over
        return epoch


@dataclass(frozen=True)
class Holder:
    """Who holds a game's lease, and whether it is still running (not yet expired)."""

    owner: str
    live: bool


_TAKE = """
INSERT INTO leases (sid, owner, epoch, expires)
SELECT %(sid)s, %(owner)s, nextval('lease_epochs'), now() + make_interval(secs => %(ttl)s)
WHERE EXISTS (SELECT 1 FROM sessions WHERE sid = %(sid)s)
ON CONFLICT (sid) DO UPDATE
    SET owner = EXCLUDED.owner, epoch = EXCLUDED.epoch, expires = EXCLUDED.expires
    WHERE leases.expires < now() OR leases.owner = EXCLUDED.owner
RETURNING epoch, xmax <> '0'
"""


def take(db: Connection, sid: str, owner: str, ttl: float) -> Epoch | Holder | None:
    """Take game `sid`'s lease for `owner` if it is free, expired or already `owner`'s: its
    new epoch. Otherwise who holds it; None if there is no such game."""
    taken = db.execute(_TAKE, {"sid": sid, "owner": owner, "ttl": ttl}).fetchone()
    if taken is not None:
        return Epoch(taken[0], taken_over=bool(taken[1]))
    return holder(db, sid)


def holder(db: Connection, sid: str) -> Holder | None:
    """Who holds game `sid`'s lease, if anyone ever did."""
    held = db.execute("SELECT owner, expires > now() FROM leases WHERE sid = %s",
                      (sid,)).fetchone()
    return Holder(held[0], bool(held[1])) if held else None


def renew(db: Connection, owner: str, ttl: float) -> dict[str, int]:
    """Push on the expiry of every lease `owner` still holds: those leases and epochs."""
    renewed = db.execute(
        "UPDATE leases SET expires = now() + make_interval(secs => %s) WHERE owner = %s"
        " RETURNING sid, epoch", (ttl, owner))
    return {sid: int(epoch) for sid, epoch in renewed}


def release(db: Connection, sid: str, owner: str, epoch: int) -> None:
    """Let game `sid` go: any process may take it at once."""
    db.execute("DELETE FROM leases WHERE sid = %s AND owner = %s AND epoch = %s",
               (sid, owner, epoch))


def check(db: Connection, sid: str, owner: str, epoch: int) -> None:
    """Fenced unless `owner` still holds game `sid`'s lease at `epoch`; held for share
    until the caller's transaction ends, so no takeover comes between."""
    held = db.execute(
        "SELECT 1 FROM leases WHERE sid = %s AND owner = %s AND epoch = %s FOR SHARE",
        (sid, owner, epoch)).fetchone()
    if held is None:
        raise Fenced(f"game {sid} is played by another process now")


LEASE_SECONDS = 3.0
"""How long a lease lasts unrenewed: a dead process's games wait this long for another."""

Connect = Callable[[], AbstractContextManager[Connection]]
"""A connection in a transaction of its own, committed when the block ends."""


class Leases:
    """The leases one process (`owner`) holds, and their epochs: the store's writes of a
    game's progress are fenced with them (`fence`), and the server takes, renews and
    lets go of them. `held` is read and written from the event loop and from the
    store's commit threads: each access is one dict operation."""

    def __init__(self, connect: Connect, owner: str, ttl: float = LEASE_SECONDS) -> None:
        self.connect = connect
        self.owner = owner
        self.ttl = ttl
        self.held: dict[str, int] = {}

    def take(self, sid: str) -> Epoch | Holder | None:
        """Hold game `sid` (see `take`): its epoch, who holds it, or None: no such game."""
        if sid in self.held:
            return Epoch(self.held[sid])
        with self.connect() as db:
            taken = take(db, sid, self.owner, self.ttl)
        if isinstance(taken, int):
            self.held[sid] = taken
        return taken

    def renew(self) -> set[str]:
        """Renew every lease still held: the games lost meanwhile (taken by another)."""
        before = dict(self.held)  # a lease taken meanwhile is not one this renews
        with self.connect() as db:
            renewed = renew(db, self.owner, self.ttl)
        lost = {sid for sid, epoch in before.items() if renewed.get(sid) != epoch}
        for sid in lost:
            if self.held.get(sid) == before[sid]:
                del self.held[sid]
        return lost

    def release(self, sids: Iterable[str]) -> None:
        """Let these games go (they left memory, or the process stops)."""
        let_go = [(sid, epoch) for sid in sids if (epoch := self.held.pop(sid, None))]
        if let_go:
            with self.connect() as db:
                for sid, epoch in let_go:
                    release(db, sid, self.owner, epoch)

    def lease_of(self, sid: str) -> tuple[str, int]:
        """This process's hold on game `sid` (owner, epoch), to fence a write of its play
        with; Fenced if it holds none."""
        held = self.held.get(sid)
        if held is None:
            raise Fenced(f"game {sid} is not played by this process")
        return self.owner, held

    def fence(self, db: Connection, change: Change) -> dict[str, int]:
        """Inside `change`'s transaction, after it is applied: Fenced unless this process
        holds every game whose play it writes; the leases of the games it creates (kept
        in `held` by the caller once the transaction has committed)."""
        created, written = touched(change)
        claimed: dict[str, int] = {}
        for sid in created:
            taken = take(db, sid, self.owner, self.ttl)
            if not isinstance(taken, int):  # a session id is new: nobody can hold it yet
                raise Fenced(f"game {sid} was taken while it was being created")
            claimed[sid] = taken
        for sid in written - created:
            check(db, sid, *self.lease_of(sid))
        return claimed


def touched(change: Change) -> tuple[set[str], set[str]]:
    """The games `change` creates, and those whose play (moves, seats) it writes."""
    match change:
        case SessionCreated():
            return {change.row.sid}, set()
        case ProgressSaved():
            return set(), {change.progress.sid}
        case TokenAdded() | SeatingChanged():
            return set(), {change.sid}
        case Together(parts):
            created: set[str] = set()
            written: set[str] = set()
            for part in parts:
                more_created, more_written = touched(part)
                created |= more_created
                written |= more_written
            return created, written
    return set(), set()
