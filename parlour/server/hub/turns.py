"""The computer's turns: a task per game that plays while an AI seat is to move.

The computer thinks in a worker process without holding the game, so a player's undo
stops it at once; a move thought out for a position since left is dropped, and the
computer thinks again about the new one. While people watch, the computers' moves come
at least the game's pause apart (`GameSpec.ai_delay_seconds`, times the slowest speed
their players chose, `Viewer.speed`), so each can be seen: the pause runs while the
computer thinks, holds no lock, and is none when nobody watches. They play only while
someone is there for them (not `Live.left`: a page open, a request waiting), as the
game's starter's work (`compute.working_for`), and stop when everyone has left, until
someone returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from parlour.core import work
from parlour.core.game import JSON
from parlour.server.compute import THINK_BUDGET, Compute, TooSlow, WorkerFailed, working_for
from parlour.server.hub.live import Live
from parlour.server.hub.workers import budget_for, reporting

log = logging.getLogger("parlour")

PlayMove = Callable[[Live, Any, JSON], Awaitable[bool]]
"""Plays a move in `live` if its position is still `state`; False if it moved on."""


class ComputerTurns:
    def __init__(self, compute: Compute, play: PlayMove, delay_scale: float = 1.0) -> None:
        self.compute = compute
        self.play = play
        self.delay_scale = delay_scale
        self._in_worker: set[Live] = set()  # games whose thinking has left the queue

    def kick(self, live: Live) -> None:
        """Start playing if an AI seat is to move and the computer is not at it yet."""
        session = live.session
        if live.left or not session.is_ai(session.to_move):
            return
        if live.ai_task is None or live.ai_task.done():
            with contextlib.suppress(RuntimeError):  # no running loop: played on load
                live.ai_task = asyncio.get_running_loop().create_task(self._turns(live))

    def stop_if_queued(self, live: Live) -> None:
        """Stop the computer if its thinking still waits for a worker (dropped unrun);
        thinking under way ends on its own (stopping it would end its worker)."""
        if live not in self._in_worker:
            self.stop(live)

    @staticmethod
    def stop(live: Live) -> None:
        if live.ai_task is not None and not live.ai_task.done():
            live.ai_task.cancel()

    @staticmethod
    async def settle(live: Live) -> None:
        """Wait until the computer is not thinking: a bot gets the position to answer."""
        while live.ai_task is not None and not live.ai_task.done():
            await asyncio.wait({live.ai_task})

    def pause(self, live: Live) -> float:
        """Seconds between the computers' moves for the people watching now: the players'
        choice (a spectator's only when no player watches); none once every person's seat
        is out of the game (`Game.can_move_again`): they wait for the end alone."""
        session = live.session
        people = [seat for seat in range(len(session.seats)) if session.is_human(seat)]
        if people and not any(session.game.can_move_again(session.state, seat)
                              for seat in people):
            return 0.0
        watching = live.viewers
        speeds = [v.speed for v in watching if v.seats] or [v.speed for v in watching]
        return live.session.spec.ai_delay_seconds * self.delay_scale * max(speeds, default=0.0)

    async def _turns(self, live: Live) -> None:
        loop = asyncio.get_running_loop()
        if live.client is not None:
            working_for.set(live.client)  # this task's own context: its thinking is theirs
        while live.session.is_ai(live.session.to_move) and not live.left:
            shown_at = loop.time()  # the position before this move, as people see it
            session = live.session
            state = session.state
            move = await self._think(live, state)
            wait = self.pause(live) - (loop.time() - shown_at)
            if wait > 0:
                await asyncio.sleep(wait)  # let people see the last move and whose turn it is
            await self.play(live, state, move)

    async def _think(self, live: Live, state: Any) -> JSON:
        session = live.session
        player, rng = session.ai_player()
        try:
            with reporting(live, "The computer is thinking", cancellable=False) as progress:
                return await self.compute.run(
                    budget_for(live, THINK_BUDGET), work.ai_move, session.game, player, state, rng,
                    progress=progress, started=lambda: self._in_worker.add(live),
                )
        except (TooSlow, WorkerFailed) as error:  # never leave the game waiting
            log.warning("%s: the AI failed (%s); it plays a random move", session.id_text, error)
        except Exception:  # a fault in the AI's own code: the game still goes on
            log.exception("%s: the AI raised; it plays a random move", session.id_text)
        finally:
            self._in_worker.discard(live)
        moves = session.game.legal_moves(state)
        return session.game.move_to_json(random.Random(session.cursor).choice(moves))
