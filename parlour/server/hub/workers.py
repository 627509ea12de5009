"""Long work in the pool of worker processes (`compute.py`), as the hub asks for it.

Deals and replays of saved games run here when they are quick, in a worker when they
are slow or long (`dealt`); a game's players' long work (a slow move, a hint, a solver)
runs in a worker with its progress told to the game's viewers, and any of its players
may cancel it (`cancel`); advice is dropped as soon as they play on (`drop_advice`).
Every failure is a clear 503, every cancellation a 409. Long work is counted against
the share of the client it is for (`shares.py`, `compute.working_for`): 429 over it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from parlour.core import tables
from parlour.core.game import GameSpec
from parlour.core.gameid import GameId
from parlour.server.compute import (
    DEAL_BUDGET,
    TABLE_BUDGET,
    Compute,
    Progress,
    TooSlow,
    WorkerFailed,
    working_for,
)
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.shares import Shares

T = TypeVar("T")
QUICK_REPLAY_MOVES = 100
"""Saved games of at most this many moves are replayed in place (a few ms at most),
longer ones in a worker process."""
QUIET_SECONDS = 0.5
"""Long work says nothing to the players for this long: most answers come sooner."""


class Workers:
    def __init__(self, compute: Compute, shares: Shares | None = None) -> None:
        self.compute = compute
        self.shares = shares or Shares({})
        # per game, while it lasts: the long work a player asked for (they may cancel
        # it), and whether playing on makes it moot (a hint, a solver)
        self._running: dict[Live, tuple[asyncio.Future[Any], bool]] = {}

    async def dealt(
        self, spec: GameSpec, game_id: GameId, moves: int, what: str,
        job: Callable[..., T], *args: Any,
    ) -> T:
        """A deal, or a deal and its moves replayed: here when that is quick (no worker to
        wait for when the server has just started), in a worker when the game says its
        deals or its replay are slow (`Game.slow_replay`) or the line is long."""
        if spec.game.slow_replay(game_id.params, moves) or moves > QUICK_REPLAY_MOVES:
            with self.shares.long_work(working_for.get(), advice=False):
                return await self._in_worker(DEAL_BUDGET, what, job, args, None)
        return job(*args)

    async def apart(self, budget: float, what: str, job: Callable[..., T], *args: Any) -> T:
        """`job(*args)` in a worker process, for work no game waits on (reading a file)."""
        return await self._in_worker(budget, what, job, args, None)

    async def long(
        self, live: Live, budget: float, what: str, job: Callable[..., T], *args: Any,
        advice: bool = False,
    ) -> T:
        """`job(*args)` in a worker process for a game's players; a clear 503 if it cannot
        be done in time. Its progress is told to the viewers after half a second, and any
        of them may cancel it (`cancel`); `advice` (a hint, a solver) is also dropped when
        they play on (`drop_advice`)."""
        budget = budget_for(live, budget)
        with self.shares.long_work(working_for.get(), advice), \
                reporting(live, what[:1].upper() + what[1:], cancellable=True) as progress:
            running = asyncio.ensure_future(self._in_worker(budget, what, job, args, progress))
            self._running[live] = (running, advice)
            try:
                return await running
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if running.cancelled() and not (task and task.cancelling()):
                    raise ApiError(409, f"{what} was cancelled") from None
                raise
            finally:
                self._running.pop(live, None)

    async def _in_worker(
        self, budget: float, what: str, job: Callable[..., T], args: tuple[Any, ...],
        progress: Progress | None,
    ) -> T:
        try:
            return await self.compute.run(budget, job, *args, progress=progress)
        except TooSlow:
            raise ApiError(503, f"{what} took too long ({budget:g} s): try again") from None
        except WorkerFailed as error:
            raise ApiError(503, f"{what} failed in its worker ({error}): try again") from None

    def running(self, live: Live) -> asyncio.Future[Any] | None:
        """The long work a player of `live` asked for, while it runs."""
        running = self._running.get(live)
        return running[0] if running is not None else None

    def cancel(self, live: Live, token: str | None) -> None:
        """Stop the long work a player of the game asked for (a hint, a solver...)."""
        running = self._running.get(live)
        if live.seats_of(token) and running is not None:
            running[0].cancel()

    def drop_advice(self, live: Live) -> None:
        """A player played on: the advice being worked out is no longer wanted."""
        running = self._running.get(live)
        if running is not None and running[1]:
            running[0].cancel()


def budget_for(live: Live, seconds: float) -> float:
    """The time long work for this game gets: more while a table its solvers read is not
    built yet (the work builds it first, once)."""
    if all(tables.ready(table) for table in live.session.spec.tables):
        return seconds
    return max(seconds, TABLE_BUDGET)


@contextmanager
def reporting(live: Live, what: str, cancellable: bool) -> Iterator[Progress]:
    """A progress listener for long work (`Compute.run`) that tells every viewer of
    `live` how it goes: nothing for QUIET_SECONDS, then that it is under way, then each
    report, and at last that it has ended."""
    started = time.monotonic()

    def quiet() -> bool:
        return time.monotonic() - started < QUIET_SECONDS

    def tell(message: dict[str, Any]) -> None:
        for viewer in live.viewers:
            viewer.tell(message)

    def report(done: float | None, note: str) -> None:
        if not quiet():
            tell({"type": "progress", "what": what, "done": done, "note": note,
                  "elapsed_ms": int((time.monotonic() - started) * 1000),
                  "cancellable": cancellable})

    announced = asyncio.get_running_loop().call_later(QUIET_SECONDS, report, None, "")
    try:
        yield report
    finally:
        announced.cancel()
        if not quiet():
            tell({"type": "progress-end"})
