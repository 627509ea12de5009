"""Presence: a game's clock runs only while one of its players' pages is open, visible
and connected.

A page says when it is hidden or shown (`SetVisibility`, and its hello); a closed page
or a lost connection counts as hidden, and so does a page of someone holding no seat.
One visible page of a player is enough in a game of several. When the clock starts or
stops, every viewer is told (`{"type": "clock"}`: its clock stands still or ticks with
the server's), and a stopped clock is saved, so that a server started later finds the
time played; a game read back from the store waits, stopped, for a page to connect.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.viewers import Viewer

log = logging.getLogger("parlour")


class Presence:
    def __init__(self, clock: Callable[[], float], save: Callable[[Live], Awaitable[None]]
                 ) -> None:
        self.clock = clock
        self._save = save
        self._saving: set[asyncio.Task[None]] = set()

    def update(self, live: Live, asking: Viewer | None = None) -> None:
        """A page of `live` came, went, or was hidden or shown: start or stop the clock
        with it. `asking`: a page that said it was shown or hidden, told the clock even
        if it did not change (another player's page kept it running)."""
        changed = live.session.set_present(live.attended(), self.clock())
        if changed:
            self._tell(live, live.viewers)
            if not live.session.clock.running:
                self._save_soon(live)
        elif asking is not None:
            self._tell(live, [asking])

    async def stop_all(self, games: Iterable[Live]) -> None:
        """Stop every clock and save it (the server is stopping): the time played until
        now is kept, and none of the time it is down."""
        for live in list(games):
            if live.session.set_present(False, self.clock()):
                self._save_soon(live)
        while self._saving:
            await asyncio.gather(*self._saving, return_exceptions=True)

    def _tell(self, live: Live, viewers: Iterable[Viewer]) -> None:
        """Tell `viewers` what their clocks show: the time played now, and whether it
        runs on (a later view says the same, and replaces it: `Viewer.show`)."""
        clock = live.session.clock
        told = {"type": "clock", "elapsed_ms": clock.reading_ms(self.clock()),
                "clock_running": clock.running}
        for viewer in list(viewers):
            viewer.tell(told)

    def _save_soon(self, live: Live) -> None:
        """Save the stopped clock, after any change in hand (under the game's lock, so
        saves keep their order); nobody waits for it."""
        task = asyncio.get_running_loop().create_task(self._save_clock(live))
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    async def _save_clock(self, live: Live) -> None:
        async with live.lock:
            try:
                await self._save(live)
            except ApiError as error:  # the next change saves the clock with it
                log.warning("the clock of %s was not saved: %s", live.sid, error.message)

