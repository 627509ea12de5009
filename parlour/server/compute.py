"""Long work — deals, slow moves, hints, AI moves, solvers — in worker processes.

Python runs one thread of game code at a time, so a no-guess Minesweeper board or a deep
search run on the server's own process would hold up every other game's requests.
`Compute.run` sends the work to a pool of worker processes (pebble's `ProcessPool`,
which can stop a task that runs too long or is no longer wanted by ending its worker),
gives it a time budget, and lets the caller cancel it when the position changes.

What is sent must pickle: module-level functions, game objects, states and moves.

Progress: every worker gets one queue at start-up; a job run with a `progress` callback
is wrapped so that its `parlour.core.progress.report` calls go into that queue tagged with
the job's number, and one thread here reads the queue and hands each report to its job's
callback on that job's event loop. Reports of a job that has ended are dropped.

Fair shares: work waits in a `FairQueue` in front of the pool, one line per client (the
`working_for` of the caller, `api/clients.py`'s key), and a free worker takes the next
job from each client in turn. One client's burst of a hundred jobs then delays only
itself; another client's single move waits for at most one job per client ahead of it.
Work whose caller stopped waiting while it was queued is dropped without running. And
while another client has asked for work lately (`AROUND`), no client may hold every
worker: one is kept for the others, so a move never waits behind a stranger's long hint
or import, however long that runs.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from parlour.core.progress import Listener, listening
from parlour.server import memory

logger = logging.getLogger(__name__)

if TYPE_CHECKING:  # pebble is imported when the first work is sent: a quicker start
    from pebble import ProcessPool

T = TypeVar("T")

DEAL_BUDGET = 30.0
"""Seconds to deal a game, or rebuild a saved one from its moves."""
MOVE_BUDGET = 30.0
"""Seconds for a move the game declares slow (e.g. laying a no-guess minefield)."""
THINK_BUDGET = 20.0
"""Seconds for a hint or an AI move."""
TABLE_BUDGET = 600.0
"""Seconds for work that may first build a game's solver table (`GameSpec.tables`)."""
AROUND = 120.0
"""Seconds a client counts as around after it last asked for work: while another client
is, a client may hold every worker but one. A player alone has the whole pool."""


class TooSlow(Exception):
    """The work did not finish within its budget."""


class WorkerFailed(Exception):
    """The worker process died (for instance out of memory)."""


Progress = Listener
"""Told (done, note) as the work reports it: done from 0 to 1, or None when unknown."""
Report = tuple[int, float | None, str]
"""What a worker puts in the queue: (job number, done, note)."""


ANYONE = "anyone"
"""The line of work asked for on behalf of no client in particular."""
working_for: ContextVar[str] = ContextVar("working_for", default=ANYONE)
"""The client the work now asked for is done for: its line in the fair queue."""

Item = TypeVar("Item")


class FairQueue(Generic[Item]):
    """Items waiting, one line per client, each first come, first served. `take` serves
    the clients in turn: next is the waiting client served longest ago (or never), so
    a client whose job was just started waits behind every other client with work."""

    def __init__(self) -> None:
        self._lines: dict[str, deque[Item]] = {}
        self._served_at: dict[str, int] = {}  # of clients with work waiting or started
        self._started: Counter[str] = Counter()
        self._serving = itertools.count()

    def put(self, client: str, item: Item) -> None:
        self._lines.setdefault(client, deque()).append(item)

    def take(self, may_start: Callable[[str], bool] = lambda client: True) -> Item | None:
        """The first item of the client whose turn it is (`started` for it), or None.
        Clients that `may_start` refuses keep their place and are skipped."""
        allowed = [client for client in self._lines if may_start(client)]
        if not allowed:
            return None
        client = min(allowed, key=lambda waiting: self._served_at.get(waiting, -1))
        line = self._lines[client]
        item = line.popleft()
        if not line:
            del self._lines[client]
        self.started(client)
        return item

    def started(self, client: str) -> None:
        """`client`'s job went in (`take` calls this for the item it hands out)."""
        self._served_at[client] = next(self._serving)
        self._started[client] += 1

    def running(self, client: str) -> int:
        """Jobs of `client` started and not finished."""
        return self._started[client]

    def finished(self, client: str) -> None:
        """A job of `client` that `started` has ended: its turn is forgotten once it has
        nothing waiting or running (clients come and go: this stays small)."""
        self._started[client] -= 1
        if self._started[client] <= 0:
            del self._started[client]
            if client not in self._lines:
                self._served_at.pop(client, None)

    def drop(self, client: str, item: Item) -> None:
        """Take back an item nobody waits for any more (no-op if it was taken)."""
        line = self._lines.get(client)
        if line is not None and item in line:
            line.remove(item)
            if not line:
                del self._lines[client]
                if client not in self._started:
                    self._served_at.pop(client, None)

    def __len__(self) -> int:
        return sum(len(line) for line in self._lines.values())


@dataclass(eq=False)
class _Turn:
    """A job's place in the fair queue: `ready` is set on its loop when a worker is free."""

    loop: asyncio.AbstractEventLoop
    client: str
    ready: asyncio.Future[None] = field(init=False)
    granted: bool = False

    def __post_init__(self) -> None:
        self.ready = self.loop.create_future()

    def grant(self) -> bool:
        """Give it a worker (under `Compute._turns_lock`); False if its loop has closed."""
        try:
            self.loop.call_soon_threadsafe(_set_ready, self.ready)
        except RuntimeError:
            return False
        self.granted = True
        return True


def _set_ready(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)


def _worker_count() -> int:
    return max(1, min(4, os.cpu_count() or 1))


class Compute:
    """A lazily started pool of worker processes with time budgets and cancellation."""

    def __init__(self, workers: int | None = None) -> None:
        self._workers = workers or _worker_count()
        self._pool: ProcessPool | None = None
        self._starting = threading.Lock()
        self._reports: Queue[Report | None] | None = None
        self._reader: threading.Thread | None = None
        self._job_numbers = itertools.count(1)
        self._listeners: dict[int, tuple[asyncio.AbstractEventLoop, Progress]] = {}
        # jobs handed to the pool (at most one per worker) and those waiting their turn;
        # callers may run on several loops (tests), hence a thread lock
        self._turns_lock = threading.Lock()
        self._in_pool = 0
        self._waiting: FairQueue[_Turn] = FairQueue()
        self._asked_at: dict[str, float] = {}  # clients around: when they last asked

    def pool(self) -> ProcessPool:
        from pebble import ProcessPool

        with self._starting:
            if self._pool is None or not self._pool.active:
                # spawn, not fork: the server has threads (the store's writer) and an
                # event loop, which a forked child must not inherit
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPool(
                    max_workers=self._workers,
                    context=context,
                    initializer=_start_worker,
                    initargs=(self._open_reports(context),),
                )
            return self._pool

    def warm_up(self) -> None:
        """Start the workers now (they take a moment to import the games) and do the
        games' own warm-ups (`GameSpec.warm_up`: compiled kernels) as one job: what it
        compiles the first time is cached on disk for every worker, and the other
        workers stay free for players meanwhile."""
        pool = self.pool()
        pool.schedule(_warm_up)

    async def run(
        self, budget: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
        started: Callable[[], None] | None = None,
    ) -> T:
        """`work(*args)` in a worker process, when the fair queue comes to its client
        (`working_for`); TooSlow after `budget` seconds of work. Cancelling the caller
        drops the work from the queue, or stops it. `progress`, if given, is called on
        this event loop with what the work reports (`parlour.core.progress.report`)
        until it ends; `started`, when it leaves the queue for a worker."""
        client = working_for.get()
        await self._wait_turn(client)
        try:
            if started is not None:
                started()
            return await self._run_now(budget, work, args, progress)
        finally:
            self._turn_over(client)
            memory.give_back_soon()  # what its arguments and answer took (memory.py)

    async def _wait_turn(self, client: str) -> None:
        turn = _Turn(asyncio.get_running_loop(), client)
        with self._turns_lock:
            if client != ANYONE:  # work for no one in particular keeps no worker free
                self._asked_at[client] = time.monotonic()
            self._waiting.put(client, turn)
            self._fill()
        try:
            await turn.ready
        except asyncio.CancelledError:
            with self._turns_lock:
                granted = turn.granted
                self._waiting.drop(client, turn)
            if granted:  # a worker was given to it meanwhile: pass it on
                self._turn_over(client)
            raise

    def _turn_over(self, client: str) -> None:
        """A job of `client` left the pool: the next jobs in the queue may go in."""
        with self._turns_lock:
            self._waiting.finished(client)
            self._in_pool -= 1
            self._fill()

    def _fill(self) -> None:
        """Give free workers to waiting jobs, clients in turn (under `_turns_lock`)."""
        now = time.monotonic()
        for gone in [asker for asker, at in self._asked_at.items() if now - at > AROUND]:
            del self._asked_at[gone]
        while self._in_pool < self._workers:
            following = self._waiting.take(self._may_start)
            if following is None:
                return
            if following.grant():
                self._in_pool += 1
            else:
                self._waiting.finished(following.client)  # its loop has closed

    def _may_start(self, client: str) -> bool:
        """Not the last free worker for a client that holds the others while another
        client is around (`AROUND`): that one is kept for them."""
        if self._workers < 2 or self._waiting.running(client) < self._workers - 1:
            return True
        return not any(asker != client for asker in self._asked_at)

    def waiting(self) -> int:
        """Jobs waiting their turn (for tests and the benchmark)."""
        with self._turns_lock:
            return len(self._waiting)

    async def _run_now(
        self, budget: float, work: Callable[..., T], args: tuple[Any, ...],
        progress: Progress | None,
    ) -> T:
        from pebble import ProcessExpired

        pool = self.pool()
        job = next(self._job_numbers)
        if progress is None:
            future = pool.schedule(work, args=args, timeout=budget)
        else:
            self._listeners[job] = (asyncio.get_running_loop(), progress)
            future = pool.schedule(_reporting, args=(job, work, *args), timeout=budget)
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            raise TooSlow(f"gave up after {budget:g} s") from None
        except (ProcessExpired, BrokenProcessPool) as error:
            raise WorkerFailed(str(error) or type(error).__name__) from None
        except FutureCancelled:  # stopped by the pool (it is closing)
            raise asyncio.CancelledError() from None
        finally:
            self._listeners.pop(job, None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join(timeout=10)
            self._pool = None
        if self._reports is not None and self._reader is not None:
            self._reports.put(None)  # the reader's signal to stop
            self._reader.join(timeout=10)
            self._reports.close()
            self._reports.join_thread()  # its feeder thread holds the queue's semaphores
            self._reports = self._reader = None

    # -- progress from the workers --------------------------------------------------------
    def _open_reports(self, context: Any) -> Queue[Report | None]:
        """The queue every worker reports into, and the thread that reads it."""
        if self._reports is None:
            self._reports = context.Queue()
            self._reader = threading.Thread(
                target=self._read_reports, args=(self._reports,),
                name="parlour-progress", daemon=True,
            )
            self._reader.start()
        assert self._reports is not None
        return self._reports

    def _read_reports(self, reports: Queue[Report | None]) -> None:
        while (report := reports.get()) is not None:
            job, done, note = report
            listener = self._listeners.get(job)
            if listener is None:
                continue  # the job has ended
            loop, _ = listener
            with contextlib.suppress(RuntimeError):  # its loop has closed since
                loop.call_soon_threadsafe(self._hand_over, job, done, note)

    def _hand_over(self, job: int, done: float | None, note: str) -> None:
        """On the job's loop: `run` stops listening there, so none arrives after it ends."""
        listener = self._listeners.get(job)
        if listener is not None:
            listener[1](done, note)


# -- in the worker processes -----------------------------------------------------------
_reports_here: Queue[Report | None] | None = None
"""In a worker: the queue its jobs' progress goes into."""


def _start_worker(reports: Queue[Report | None]) -> None:
    global _reports_here
    _reports_here = reports
    import parlour.games  # noqa: F401  (imports every game once per worker)


def _reporting(job: int, work: Callable[..., T], *args: Any) -> T:
    """`work(*args)`, its progress reports sent to the server tagged with `job`."""
    reports = _reports_here
    assert reports is not None, "run in a worker started by Compute.pool"

    def send(done: float | None, note: str) -> None:
        reports.put((job, done, note))

    with listening(send):
        return work(*args)


def _warm_up() -> None:
    """Do what the games ask of a new worker (`GameSpec.warm_up`); a warm-up that fails
    only leaves that work for the first job that needs it."""
    from parlour.games import GAMES

    for spec in GAMES.values():
        if spec.warm_up is not None:
            try:
                spec.warm_up()
            except Exception:
                logger.exception("warming up %s failed", spec.name)


_shared: Compute | None = None


def shared_compute() -> Compute:
    """One pool per process, for every app it serves (tests make many apps)."""
    global _shared
    if _shared is None:
        _shared = Compute()
        atexit.register(_shared.close)
    return _shared
