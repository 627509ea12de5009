"""Fair shares: what one client (`api/clients.py`'s key) may have going at once, so that
no client can take the server from the others.

The worker pool serves clients in turn (`compute.FairQueue`); the limits here keep any
one client's queue, memory and games bounded. Each is far above what a player meets;
going over one is a 429 that names the limit and what to do. A game's computers play
only while someone is there for them (`Live.left`): its page open, or a request
waiting for their move.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from parlour.core.game import Status
from parlour.core.session import AI_PREFIX
from parlour.server.compute import ANYONE
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live

LIVE_GAMES_PER_CLIENT = int(os.environ.get("PARLOUR_GAMES_PER_CLIENT", "50"))
"""Unfinished games one client started that are in memory (used in the last minutes):
a player with a game in every tab has a dozen; those left alone leave memory after
`core.IDLE_SECONDS`, and a game over or taken off the Resume list no longer counts. A
host may set it (PARLOUR_GAMES_PER_CLIENT): the browser tests' one shared server, whose
every test is one client, does."""
COMPUTER_GAMES_PER_CLIENT = 6
"""Games of computers only (every seat a computer) one client has running: a club
player may watch a few side by side; a game nobody watches stops and does not count."""
COMPUTER_GAMES_RUNNING = 24
"""Games of computers only running on the server, whoever started them: each keeps a
worker busy all game long, and the server has a few workers."""
HINTS_PER_CLIENT = 4
"""Hints and solvers one client waits for at once: a player asks one at a time."""
LONG_WORK_PER_CLIENT = 8
"""Long work one client waits for at once (hints, solvers, slow moves and deals, games
replayed from their moves): a player waits for one or two."""


def computer_only(seats: list[str] | tuple[str, ...]) -> bool:
    return bool(seats) and all(kind.startswith(AI_PREFIX) for kind in seats)


def _running(live: Live) -> bool:
    return live.session.status is Status.PLAYING and not live.left


class Shares:
    def __init__(self, live: Mapping[str, Live]) -> None:
        self.live = live
        self._long: Counter[str] = Counter()
        self._advice: Counter[str] = Counter()

    def check_new_game(self, client: str, seats: list[str]) -> None:
        """Refuse (429) a new game over `client`'s share or the server's."""
        games = [live for live in self.live.values() if live.client == client
                 and live.counted and live.session.status is Status.PLAYING]
        if len(games) >= LIVE_GAMES_PER_CLIENT:
            raise ApiError(429, f"too many unfinished games at once ({LIVE_GAMES_PER_CLIENT}"
                           " per player): finish some or take them off your Resume list")
        if not computer_only(seats):
            return
        if sum(computer_only(g.session.seats) and _running(g) for g in games) >= \
                COMPUTER_GAMES_PER_CLIENT:
            raise ApiError(429, "too many games of computers only running at once "
                           f"({COMPUTER_GAMES_PER_CLIENT} per player): close one first")
        running = sum(computer_only(g.session.seats) and _running(g)
                      for g in self.live.values())
        if running >= COMPUTER_GAMES_RUNNING:
            raise ApiError(429, "the server runs as many games of computers only as it can "
                           f"({COMPUTER_GAMES_RUNNING}): try again when one has ended")

    @contextmanager
    def long_work(self, client: str, advice: bool) -> Iterator[None]:
        """Count long work `client` waits for while it runs; 429 over its share. Work for
        no client in particular (a saved game read back for whoever asks) is not."""
        if client == ANYONE:
            yield
            return
        if self._long[client] >= LONG_WORK_PER_CLIENT:
            raise ApiError(429, f"too much long work at once ({LONG_WORK_PER_CLIENT} per "
                           "player): wait for what you asked for, or cancel it")
        if advice and self._advice[client] >= HINTS_PER_CLIENT:
            raise ApiError(429, f"too many hints at once ({HINTS_PER_CLIENT} per player): "
                           "wait for those you asked for, or cancel them")
        self._long[client] += 1
        self._advice[client] += advice
        try:
            yield
        finally:
            self._long[client] -= 1
            self._advice[client] -= advice
            if not self._long[client]:
                del self._long[client]
            if not self._advice[client]:
                self._advice.pop(client, None)
