"""Giving memory back to the system once viewers have gone.

Each socket that connects is sent the whole board (0.5 MB of text for a 40x60
Minesweeper game) and its send buffers hold it until the browser has read it. When a
crowd of viewers leaves, Python frees all of it (nothing of theirs stays referenced:
tests/test_viewer_crowds.py), but glibc's allocator keeps the freed pages, scattered
among live ones: measured, 100 spectators that left kept the server at 542 MiB against
148 MiB before, and `malloc_trim(0)` brought it back to 156 MiB. So a socket closing
asks for a trim `TRIM_DELAY` seconds later (one at a time, however many close
meanwhile), run in a thread: it takes a few ms, and the event loop goes on.
Elsewhere than glibc (macOS, musl) this does nothing.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
from collections.abc import Callable

TRIM_DELAY = 2.0
"""Seconds after a socket closed before freed memory is given back: the others of a
crowd leaving close meanwhile, and are trimmed for at once."""

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
_running: set[asyncio.Task[None]] = set()


def give_back_soon() -> None:
    """Ask for freed memory to be given back to the system in `TRIM_DELAY` seconds
    (once, for every call made meanwhile)."""
    global _pending
    loop = asyncio.get_running_loop()
    if _trim is None or _pending is loop:
        return
    _pending = loop  # a loop that closes first leaves it stale: another loop re-arms
    loop.call_later(TRIM_DELAY, _start)


def _start() -> None:
    global _pending
    _pending = None
    task = asyncio.get_running_loop().create_task(_give_back())
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _give_back() -> None:
    if _trim is not None:
        try:
            await asyncio.to_thread(_trim, 0)
        except Exception:  # never worth a crash: the memory only stays with the server
            log.exception("giving memory back failed")
