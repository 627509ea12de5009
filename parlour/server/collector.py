"""Keeping CPython's cyclic garbage collector from pausing play.

A full pass of the collector walks every object it tracks, and a busy server has many
that live long: each socket's tasks, coroutines and buffers, each live game. Measured
on this 2-core machine, with 1 600 players connected to one process: 130-210 ms a
pass, during which no game on the process moved; and CPython starts one whenever what
survived since the last has grown by a quarter, every 10-20 s under load. Those passes
were the 99th percentile of a move's acknowledgement, above 100 ms from 1 600 players
on (`bench.hosted_capacity`).

So what has lived a while is moved out of the collector's passes (`gc.freeze`, the
permanent generation) every `freeze_every` seconds: a pass then walks only what is
newer, a few ms. Objects are still freed as soon as nothing refers to them; only
garbage caught in reference cycles among the frozen (a closed socket's tasks, some
15 MiB per 100 viewers: see memory.py) waits for the one full pass made every
`full_pass_every` seconds (`gc.unfreeze`, then collect): once in ten minutes, where
CPython alone would pause some fifty times.
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_SECONDS = 1.0
FULL_PASS_SECONDS = 600.0


class Collector:
    """Runs on the event loop, between its callbacks: `start` once the server is up."""

    def __init__(self, freeze_every: float = FREEZE_SECONDS,
                 full_pass_every: float = FULL_PASS_SECONDS) -> None:
        self.freeze_every = freeze_every
        self.full_pass_every = full_pass_every
        self.full_passes = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.full_pass()  # what startup made (modules, schemas, kernels) lives for good
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def full_pass(self) -> None:
        """Free every cycle of garbage, frozen or not, and freeze what is left."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.full_passes += 1

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.freeze_every)
            if time.monotonic() - last_full >= self.full_pass_every:
                self.full_pass()
                last_full = time.monotonic()
            else:
                gc.freeze()
