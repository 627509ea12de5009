"""Caps on open WebSockets: per game (its spectators) and per client (all of theirs).

A viewer costs little once views are shared (`editions.py`): a reference to an edition
and a send of its text per change. What it still costs is that send, and the whole
board when it connects (0.5 MB of a 40x60 Minesweeper view), so one client opening
sockets by the thousand could still fill the server's memory and its event loop. A
socket beyond a cap is refused with close code 4429 and a reason the page shows; the
sockets already open play on. A player's page is never refused for the game's crowd:
the game cap counts and refuses spectators only.
"""

from __future__ import annotations

from collections import Counter

from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live

SPECTATORS_PER_GAME = 64
"""A game's spectators at once: a table of friends and a room of onlookers. Each costs a
send per change (a ~0.5 MB whole board on connecting, to a page that gets behind): 64
such sends are ~32 MB in flight at worst, and a few ms of the loop per change."""
SOCKETS_PER_CLIENT = 16
"""One client's sockets at once, over all games: a player with a game in each of many
tabs stays well under it; a script opening sockets by the hundred does not."""


class ViewerCaps:
    """Counts the sockets each client has open, and refuses those beyond the caps."""

    def __init__(self, per_game: int = SPECTATORS_PER_GAME,
                 per_client: int = SOCKETS_PER_CLIENT) -> None:
        self.per_game = per_game
        self.per_client = per_client
        self._open: Counter[str] = Counter()  # client key -> sockets open

    def admit(self, live: Live, client: str, token: str | None) -> None:
        """Count a socket of `client` (its key) to `live`, or raise ApiError(429) if it
        is one too many; the caller releases it once closed (`release`)."""
        if self._open[client] >= self.per_client:
            raise ApiError(429, f"too many connections from your browser (at most "
                           f"{self.per_client}): close some of your tabs of Parlour")
        spectators = sum(1 for viewer in live.viewers if not viewer.seats)
        if not live.seats_of(token) and spectators >= self.per_game:
            raise ApiError(429, f"this game has as many spectators as it can take "
                           f"({self.per_game}): try again later")
        self._open[client] += 1

    def open_sockets(self) -> int:
        """Sockets counted and not released, over all clients."""
        return sum(self._open.values())

    def release(self, client: str) -> None:
        """A socket counted by `admit` closed."""
        self._open[client] -= 1
        if self._open[client] <= 0:
            del self._open[client]  # nothing kept for a client gone
