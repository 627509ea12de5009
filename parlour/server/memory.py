"""Giving memory back to the system once viewers have gone.

Each socket that connects is sent the whole board (0.5 MB of text for a 40x60
Minesweeper game) and its send buffers hold it until the browser has read it. When a
crowd of viewers leaves, Python frees all of it (nothing of theirs stays referenced:
tests/test_viewer_crowds.py), but glibc's allocator keeps the freed pages, scattered
among live ones: measured, 100 spectators that left kept the server at 542 MiB against
148 MiB before, and `malloc_trim(0)` brought it back to 156 MiB. Long work leaves the
same behind (the pickled arguments and answers of hints and imports: 50 hinted 8x8
puzzles left 26 MiB). So a socket closing, or long work ending (`compute.py`), asks
for a trim once no other has closed for `TRIM_DELAY` seconds (a trim made while a
crowd is still closing misses what the last ones free), or `TRIM_LATEST` seconds after
the first asked, whichever comes first; it runs in a thread: it takes a few ms, and the
event loop goes on. What the sockets left in reference cycles is freed only by the
collector's next full pass (forcing one costs ~0.3 s of the loop on a busy 2-core
machine: not worth ~15 MiB), and is given back at the next trim.
Elsewhere than glibc (macOS, musl) this does nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
from collections.abc import Callable

TRIM_DELAY = 2.0
"""Seconds with no socket closing before freed memory is given back: the others of a
crowd leaving close meanwhile, and are trimmed for at once."""
TRIM_LATEST = 10.0
"""Seconds after a socket closed by which memory is given back, however many go on
closing."""

log = logging.getLogger("parlour")


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where there is none."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(ctypes.util.find_library("c") or "").malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_trim = _malloc_trim()
_pending: asyncio.AbstractEventLoop | None = None  # the loop a trim is due on
_asked_first = _asked_last = 0.0  # when the sockets closed, the first and the last since
_running: set[asyncio.Task[None]] = set()


def give_back_soon() -> None:
    """Ask for freed memory to be given back to the system in `TRIM_DELAY` seconds
    (once, for every call made meanwhile)."""
    global _pending, _asked_first, _asked_last
    loop = asyncio.get_running_loop()
    if _trim is None:
        return
    _asked_last = loop.time()
    if _pending is loop:
        return
    _pending, _asked_first = loop, _asked_last  # a loop that closes leaves it stale
    loop.call_later(TRIM_DELAY, _start)


def _start() -> None:
    """Trim now, unless a socket closed meanwhile and it is not yet `TRIM_LATEST`."""
    global _pending
    loop = asyncio.get_running_loop()
    due = min(_asked_last + TRIM_DELAY, _asked_first + TRIM_LATEST)
    if loop.time() < due:
        loop.call_later(due - loop.time(), _start)
        return
    _pending = None
    task = loop.create_task(_give_back())
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _give_back() -> None:
    if _trim is not None:
        try:
            await asyncio.to_thread(_trim, 0)
        except Exception:  # never worth a crash: the memory only stays with the server
            log.exception("giving memory back failed")
