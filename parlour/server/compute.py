"""Long work — deals, slow moves, hints, AI moves, solvers — in worker processes.

Python runs one thread of game code at a time, so a no-guess Minesweeper board or a deep
search run on the server's own process would hold up every other game's requests.
`Compute.run` sends the work to a pool of worker processes (pebble's `ProcessPool`,
which can stop a task that runs too long or is no longer wanted by ending its worker),
gives it a time budget, and lets the caller cancel it when the position changes.

What is sent must pickle: module-level functions, game objects, states and moves.
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # pebble is imported when the first work is sent: a quicker start
    from pebble import ProcessPool

T = TypeVar("T")

DEAL_BUDGET = 30.0
"""Seconds to deal a game, or rebuild a saved one from its moves."""
MOVE_BUDGET = 30.0
"""Seconds for a move the game declares slow (e.g. laying a no-guess minefield)."""
THINK_BUDGET = 20.0
"""Seconds for a hint or an AI move."""


class TooSlow(Exception):
    """The work did not finish within its budget."""


class WorkerFailed(Exception):
    """The worker process died (for instance out of memory)."""


def _worker_count() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class Compute:
    """A lazily started pool of worker processes with time budgets and cancellation."""

    def __init__(self, workers: int | None = None) -> None:
        self._workers = workers or _worker_count()
        self._pool: ProcessPool | None = None
        self._starting = threading.Lock()

    def pool(self) -> ProcessPool:
        from pebble import ProcessPool

        with self._starting:
            if self._pool is None or not self._pool.active:
                # spawn, not fork: the server has threads (the store's writer) and an
                # event loop, which a forked child must not inherit
                self._pool = ProcessPool(
                    max_workers=self._workers,
                    context=multiprocessing.get_context("spawn"),
                    initializer=_warm_up,
                )
            return self._pool

    def warm_up(self) -> None:
        """Start the workers now (they take a moment to import the games)."""
        pool = self.pool()
        for _ in range(self._workers):
            pool.schedule(_warm_up)

    async def run(self, budget: float, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker process; TooSlow after `budget` seconds. Cancelling
        the caller stops the work."""
        from pebble import ProcessExpired

        future = self.pool().schedule(work, args=args, timeout=budget)
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            raise TooSlow(f"gave up after {budget:g} s") from None
        except (ProcessExpired, BrokenProcessPool) as error:
            raise WorkerFailed(str(error) or type(error).__name__) from None
        except FutureCancelled:  # stopped by the pool (it is closing)
            raise asyncio.CancelledError() from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join(timeout=10)
            self._pool = None


def _warm_up() -> None:
    import parlour.games  # noqa: F401  (imports every game once per worker)


_shared: Compute | None = None


def shared_compute() -> Compute:
    """One pool per process, for every app it serves (tests make many apps)."""
    global _shared
    if _shared is None:
        _shared = Compute()
        atexit.register(_shared.close)
    return _shared
