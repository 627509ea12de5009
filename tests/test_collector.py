"""The server's garbage collector policy (parlour.server.collector): what lives a while
is left out of the collector's passes, and garbage in cycles among it is still freed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from parlour.server.collector import Collector
from tests.support.loops import run_async


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    """Two objects referring to each other: freed only by a pass of the collector."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """The policy acts on this whole test process: leave it as it was found."""
    yield
    gc.unfreeze()


def test_objects_that_lived_a_while_leave_the_collectors_passes() -> None:
    async def passed_over_after_a_while() -> int:
        collector = Collector(freeze_every=0.05, full_pass_every=60)
        collector.start()
        kept = [Node() for _ in range(1000)]
        ids = {id(node) for node in kept}
        assert sum(id(thing) in ids for thing in gc.get_objects()) == 1000  # not yet
        await asyncio.sleep(0.2)
        collector.stop()
        assert all(node.other is None for node in kept)  # alive through the wait
        # frozen: in none of the generations a pass looks at (the freeze count is no
        # measure of it: frozen objects of other tests may be freed meanwhile)
        return sum(id(thing) in ids for thing in gc.get_objects())

    assert run_async(passed_over_after_a_while()) == 0


def test_a_cycle_frozen_then_dropped_is_freed_by_the_next_full_pass() -> None:
    collector = Collector()
    held, freed = cycle()
    gc.freeze()
    del held
    gc.collect()
    assert freed() is not None  # frozen: no ordinary pass looks at it
    collector.full_pass()
    assert freed() is None
    assert gc.get_freeze_count() > 0  # what was left is frozen again


def test_the_full_pass_comes_round_by_itself() -> None:
    async def dropped_and_waited() -> tuple[bool, int]:
        collector = Collector(freeze_every=0.02, full_pass_every=0.2)
        collector.start()
        held, freed = cycle()
        await asyncio.sleep(0.1)  # frozen by now
        del held
        gc.collect()
        still_there = freed() is not None
        await asyncio.sleep(0.3)
        collector.stop()
        return still_there and freed() is None, collector.full_passes

    freed_later, passes = run_async(dropped_and_waited())
    assert freed_later
    assert passes >= 2  # at start, and once since
