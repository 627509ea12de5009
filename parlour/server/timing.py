"""Where an action's time goes on the server, part by part, for bench/click_latency.py.

Off unless the server starts with PARLOUR_TIMING=1: then each part of carrying out a
WebSocket action (parse, apply, commit, observe, render, view, diff, send) is timed, in
wall time and in the server thread's CPU time, and so is each pause of the garbage
collector; the last `KEPT` durations of each are kept, and GET /api/debug/timing hands
them over (and forgets them). Off, a timed part costs one attribute check.
"""

from __future__ import annotations

import gc
import os
import time
from collections import deque
from types import TracebackType

ENABLED = os.environ.get("PARLOUR_TIMING") == "1"
KEPT = 10_000

_taken: dict[str, deque[float]] = {}
_received_at: float | None = None  # when the action being carried out arrived
_answered: float | None = None  # when the last action whose first view went out arrived


class part:  # lower case: used as `with timing.part("render"):`, like a function
    """Time the block as `name` (in ms) when timing is on: its wall time, and as
    "`name` CPU" the thread's CPU time in it. On a busy machine the wall time also counts
    the waits for a core; in a block that awaits, both count the loop's other tasks."""

    __slots__ = ("name", "started", "started_cpu")

    def __init__(self, name: str) -> None:
        self.name = name
        self.started = self.started_cpu = 0.0

    def __enter__(self) -> None:
        if ENABLED:
            self.started, self.started_cpu = time.perf_counter(), time.thread_time()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if ENABLED:
            record(self.name, (time.perf_counter() - self.started) * 1000)
            record(f"{self.name} CPU", (time.thread_time() - self.started_cpu) * 1000)


def record(name: str, ms: float) -> None:
    _taken.setdefault(name, deque(maxlen=KEPT)).append(ms)


def received() -> None:
    """An action arrived: the views it makes are timed from here (`sent`)."""
    global _received_at
    if ENABLED:
        _received_at = time.perf_counter()


def carried_out() -> None:
    """The action is done: views shown from now on (a page that connects, a light worked
    out later) are not its own."""
    global _received_at
    _received_at = None


def action_arrived() -> float | None:
    """When the action being carried out arrived: a view queued now is its answer."""
    return _received_at


def sent(arrived: float | None) -> None:
    """A view went out to one viewer: the time since the action it answers arrived. The
    first of an action's views answers the player who acted (served first): the server's
    share of that player's click, timed apart from the views of those watching."""
    global _answered
    if ENABLED and arrived is not None:
        took = (time.perf_counter() - arrived) * 1000
        record("received -> view sent", took)
        if arrived != _answered:
            _answered = arrived
            record("received -> first view sent", took)


def _time_collections() -> None:
    """Record each pause of Python's garbage collector as "GC pause" (ms), wherever it
    falls: a collection of the oldest objects can stop the server in any part."""
    started: list[float] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            record(f"GC pause (generation {info['generation']})",
                   (time.perf_counter() - started.pop()) * 1000)

    gc.callbacks.append(watch)


if ENABLED:
    _time_collections()


def taken() -> dict[str, list[float]]:
    """The durations kept so far, by part, and forget them."""
    global _received_at
    found = {name: list(samples) for name, samples in _taken.items()}
    _taken.clear()
    _received_at = None
    return found
