"""Ownership: which games this process plays, among many processes on one database.

A game is played by the one process holding its lease (parlour.store.postgres.leases):
the process a request reaches takes a free or expired lease on the spot, or hands the
request to the holder (relay.py). Leases are renewed every second; one found taken by
another process (this one was paused or cut off past its lease) is a game lost, and the
hub lets it go at once, ending its pages' sockets so that they reconnect to the new
owner. Games that leave memory, and every game when the process stops, are let go, so
that another process may take them without waiting for the lease to expire.

The leases' SQL runs in threads: the event loop never waits on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Iterable

from parlour.server.hub.errors import ApiError
from parlour.store.postgres.leases import Holder, Leases

log = logging.getLogger("parlour")

REMEMBER_SECONDS = 1.0
"""How long the holder of another process's game is taken as known (a database read
saved per request); a holder that died is asked about afresh."""
REMEMBERED = 100_000
UNUSED_SECONDS = 30.0
"""A lease taken for a game that never reached memory (its request failed) is let go
after this long."""


class Ownership:
    def __init__(self, leases: Leases, lose: Callable[[str], None],
                 in_memory: Callable[[], Collection[str]],
                 took_over: Callable[[], None] = lambda: None) -> None:
        """`lose(sid)`: the hub lets a game go that another process now plays;
        `in_memory()`: the games the hub holds (or is loading) now; `took_over()`: a game
        was taken from a holder whose lease had expired (counted in the metrics)."""
        self.leases = leases
        self.lose = lose
        self.in_memory = in_memory
        self.took_over = took_over
        self._taken_at: dict[str, float] = {}
        self._holders: dict[str, tuple[str, float]] = {}  # another's game: who, until when
        self._renewing: asyncio.Task[None] | None = None

    async def route(self, sid: str, fresh: bool = False) -> str | None:
        """Who plays game `sid`: None for this process (taking the game if it is free,
        or if there is no such game: the routes say so), else the holder's id, which is
        remembered for a second (`fresh`: asked of the database even so)."""
        if sid in self.leases.held:
            return None
        remembered = self._holders.get(sid)
        if remembered and not fresh and remembered[1] > time.monotonic():
            return remembered[0]
        taken = await asyncio.to_thread(self.leases.take, sid)
        if isinstance(taken, Holder):
            if len(self._holders) > REMEMBERED:
                self._holders.clear()
            self._holders[sid] = (taken.owner, time.monotonic() + REMEMBER_SECONDS)
            return taken.owner
        self._holders.pop(sid, None)
        if taken is not None:
            self._taken_at[sid] = time.monotonic()
            if taken.taken_over:
                self.took_over()
        return None

    async def hold(self, sid: str) -> None:
        """Before the hub plays game `sid`: 503 if another process plays it."""
        owner = await self.route(sid, fresh=True)
        if owner is not None:
            raise ApiError(503, "this game is played on another server just now: try again")

    def let_go(self, sids: Iterable[str]) -> None:
        """The hub no longer holds these games: any process may take them."""
        going = [sid for sid in sids if sid in self.leases.held]
        if going:
            task = asyncio.get_running_loop().create_task(self._release(going))
            task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _release(self, sids: list[str]) -> None:
        try:
            await asyncio.to_thread(self.leases.release, sids)
        except Exception as error:  # their leases expire by themselves
            log.warning("leases not let go (%s): they expire in %.0f s", error, self.leases.ttl)

    def start(self) -> None:
        self._renewing = asyncio.get_running_loop().create_task(self._renew_forever())

    async def stop(self) -> None:
        """Let every game go (the process stops)."""
        if self._renewing is not None:
            self._renewing.cancel()
            await asyncio.gather(self._renewing, return_exceptions=True)
        await self._release(list(self.leases.held))

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.leases.ttl / 3)
            try:
                lost = await asyncio.to_thread(self.leases.renew)
            except Exception as error:  # the database is away: its writes fail meanwhile
                log.warning("leases not renewed: %s", error)
                continue
            for sid in lost:
                log.warning("game %s is played by another process now", sid)
                self.lose(sid)
            self._let_go_unused()

    def _let_go_unused(self) -> None:
        """Let go of the games held here that have not been in memory for UNUSED_SECONDS
        since this process took them (or first saw them held, as a game it has just
        created, whose hub may have it a moment after its lease is held)."""
        now, playing = time.monotonic(), self.in_memory()
        self._taken_at = {sid: self._taken_at.get(sid, now) for sid in self.leases.held
                          if sid not in playing}
        unused = [sid for sid, taken in self._taken_at.items() if now - taken > UNUSED_SECONDS]
        for sid in unused:
            del self._taken_at[sid]
        self.let_go(unused)
