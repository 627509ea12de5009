"""The hub's scheduling of long work: the computer thinks without holding the game, and
a player's undo stops it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from parlour.devtools import run_async
from parlour.games import GAMES
from parlour.server.compute import Compute
from parlour.server.hub import Hub, Live
from parlour.store import Store

T = TypeVar("T")


class SlowInline(Compute):
    """Runs work in this process after a pause, counting what was started and finished."""

    def __init__(self, pause: float) -> None:
        super().__init__(workers=1)
        self.pause = pause
        self.started = self.finished = 0

    async def run(self, budget: float, work: Callable[..., T], *args: Any) -> T:
        self.started += 1
        await asyncio.sleep(self.pause)
        self.finished += 1
        return work(*args)


async def against_the_computer(path: Path) -> tuple[Hub, SlowInline, Live, str]:
    """A hub whose work is inline, and a Tic-Tac-Toe game of a player against it."""
    compute = SlowInline(pause=0.0)
    hub = Hub(Store(path / "db.sqlite3"), GAMES, ai_delay_scale=0, compute=compute)
    live, token = await hub.create("tictactoe", seats=["human", "ai:perfect"])
    return hub, compute, live, token


def test_undo_stops_the_computer_thinking(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        compute.pause = 5.0
        await hub.act(live, token, "move", {"cell": [1, 1]})
        await asyncio.sleep(0.1)
        assert compute.started == 1 and live.ai_task is not None  # the computer is thinking
        await asyncio.wait_for(hub.act(live, token, "undo"), 1.0)  # not held up by the AI
        await asyncio.wait_for(hub.settle(live), 1.0)
        assert live.session.cursor == 0 and live.session.line_length == 1
        assert compute.finished == 0  # the thinking was stopped, not finished
        hub.store.close()

    run_async(scenario())


def test_the_game_can_be_read_while_the_computer_thinks(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, compute, live, token = await against_the_computer(tmp_path)
        compute.pause = 0.5
        await hub.act(live, token, "move", {"cell": [0, 0]})
        assert not live.lock.locked()
        view = hub.view_for(live, token)
        assert view["to_move"] == 1 and view["moves"] == 1
        await hub.settle(live)
        assert live.session.cursor == 2
        hub.store.close()

    run_async(scenario())
