"""How far long work has got, told by the work itself to whoever waits for it.

Game code calls `report` anywhere inside a search or a table build:

    for index, pattern in enumerate(patterns):
        progress.report(index / len(patterns), "Building the pattern database")
        ...

Outside a job nobody listens and `report` returns at once. In a worker process,
`parlour.server.compute` listens for the job it runs and carries the reports to the
server, which shows them to the player after half a second of waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

Listener = Callable[[float | None, str], None]
"""Called with (done, note): done from 0 to 1, or None when nobody knows."""

MIN_INTERVAL = 0.1
"""Seconds between two reports passed on, at most (a new note goes through at once)."""


@dataclass
class _Listening:
    listener: Listener
    note: str = ""  # what the job is doing, for reports that do not say
    last_sent: float = float("-inf")
    last_note: str | None = None


_current: _Listening | None = None


def report(done: float | None, note: str = "") -> None:
    """Tell whoever waits how far the work has got: `done` from 0 to 1 (None when
    unknown); `note` says what it is doing (empty: what `doing` said, if anything).
    Cheap: at most ten reports a second are passed on, and none outside a job."""
    listening = _current
    if listening is None:
        return
    note = note or listening.note
    now = time.monotonic()
    if note == listening.last_note and now - listening.last_sent < MIN_INTERVAL:
        return
    listening.last_sent, listening.last_note = now, note
    listening.listener(None if done is None else min(1.0, max(0.0, done)), note)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Reports made inside the block go to `listener` (rate-limited)."""
    global _current
    outer, _current = _current, _Listening(listener)
    try:
        yield
    finally:
        _current = outer


@contextmanager
def doing(note: str) -> Iterator[None]:
    """Reports made inside the block without a note of their own carry `note`; the
    listener hears of it at once, as work of unknown length."""
    listening = _current
    if listening is None:
        yield
        return
    outer, listening.note = listening.note, note
    try:
        report(None)
        yield
    finally:
        listening.note = outer
