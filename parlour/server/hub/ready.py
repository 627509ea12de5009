"""A newcomer's first deal, made while the game's page loads, in the games whose
newcomer's deal is slow (Escalator's winnable deals: the solver checks shuffles until one
can be won, which is done in a worker process).

No worker is up when the server has just started: one takes half a second to start on
an idle machine (a new interpreter that imports every game), over a second while a
browser loads a page beside it, and they start two seconds after the server or with
the first work. So the first page of Escalator after a start waited for one: its cards
came 0.7 to 2 s after those of a later visit. When such a game's page is first asked
for, `expect` deals one newcomer's game in a thread (a winnable deal takes 20 ms, 58 ms
at the 95th percentile) while the page loads (0.4 s or more), and `take` gives it to the
first new game that asks for a deal of the same parameters and no id; later games are
dealt in a worker as before, as those are up by then. (Dealt when the server starts
instead, it took 50 ms from the first page of any game, Tic-Tac-Toe's.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from parlour.core import work
from parlour.core.game import GameSpec, Params
from parlour.core.gameid import GameId, new_seed


class ReadyDeals:
    def __init__(self, games: Mapping[str, GameSpec]) -> None:
        self.games = games
        self._ready: dict[str, tuple[GameId, Any]] = {}  # per game: its id, its start
        self._expected: set[str] = set()  # games whose page has been asked for
        self._dealing: set[asyncio.Task[None]] = set()

    def expect(self, spec: GameSpec) -> None:
        """A page of `spec`'s game is loading: the first time, if a newcomer's deal
        there is slow, deal one now, off the event loop."""
        if spec.name in self._expected:
            return
        self._expected.add(spec.name)
        preset = spec.game.new_game_preset
        params = spec.game.validate(spec.game.presets[preset] if preset else {})
        if spec.game.slow_deal(params):
            dealing = asyncio.get_running_loop().create_task(self._deal(spec, params))
            self._dealing.add(dealing)
            dealing.add_done_callback(self._dealing.discard)

    async def _deal(self, spec: GameSpec, params: Params) -> None:
        game_id = GameId(spec.name, params, new_seed(), spec.game.deal_version)
        self._ready[spec.name] = (game_id, await asyncio.to_thread(work.deal, spec.game, game_id))

    def take(self, spec: GameSpec, params: Params) -> tuple[GameId, Any] | None:
        """The deal made ready for a new game of `spec` with `params`, once; else None."""
        ready = self._ready.get(spec.name)
        if ready is None or ready[0].params != params:
            return None
        del self._ready[spec.name]
        return ready
