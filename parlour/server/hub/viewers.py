"""Viewers: open WebSockets, each with its own bounded outbox, so none can stall a game.

A game never waits for a viewer. `show` and `tell` only leave a message in the viewer's
outbox and return; the viewer's own task sends it. The outbox holds the latest view
(a newer one replaces one not yet sent: a slow viewer skips positions, never falls
behind) and a few short notes (a clock's news among them, which a later view makes
stale: the view replaces it). A view is an `Edition`, shared by every viewer of its
kind and encoded once: its board goes as the parts that changed since the edition last
sent, its move list as the moves the viewer has not had. A viewer whose send does not go
through within `SEND_TIMEOUT` seconds (it stopped reading) is dropped; its browser
reconnects and is sent the whole board again.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from parlour.core.game import JSON
from parlour.server import timing
from parlour.server.hub.editions import Edition, encoded

SEND_TIMEOUT = 10.0
NOTES_KEPT = 8  # hints and errors waiting to be sent; older ones are dropped

Send = Callable[[str], Awaitable[None]]
"""Sends a message's JSON text (the WebSocket's `send_text`)."""


class Viewer:
    """One open WebSocket: the seats it sees, whether its page is visible, its outbox."""

    def __init__(
        self,
        seats: frozenset[int],
        send: Send,
        token: str | None = None,
        send_timeout: float = SEND_TIMEOUT,
        visible: bool = True,
        speed: float = 1.0,
    ) -> None:
        self.seats = seats
        self.token = token
        self.visible = visible  # the page is shown, not in a background tab (presence.py)
        self.speed = speed
        """How slowly its player wants the computers to play, as a factor of the game's
        pause between their moves (`SPEED_FACTORS`): the slowest watching sets it."""
        self.dropped = asyncio.Event()  # set when the viewer is gone or cannot keep up
        self._send = send
        self._send_timeout = send_timeout
        self._view: Edition | None = None
        self._view_answers: float | None = None  # when the action it answers arrived (timing)
        self._notes: deque[JSON] = deque(maxlen=NOTES_KEPT)
        self._ready = asyncio.Event()
        self._shown: Edition | None = None  # the view the browser has now (shared, not copied)
        self._task = asyncio.get_running_loop().create_task(self._pump())

    def show(self, view: Edition | JSON) -> None:
        """Queue `view` (an audience's edition, or a view of this viewer's own), replacing
        a view not yet sent and the clock's news: the view carries the clock as it is now."""
        if self._notes:
            self._notes = deque((note for note in self._notes if note.get("type") != "clock"),
                                maxlen=NOTES_KEPT)
        self._view = view if isinstance(view, Edition) else Edition(view)
        self._view_answers = timing.action_arrived()
        self._ready.set()

    def tell(self, note: JSON) -> None:
        """Queue a short message (a hint, an error) after any pending view."""
        self._notes.append(note)
        self._ready.set()

    def close(self) -> None:
        self._task.cancel()
        self.dropped.set()
        self._view = self._shown = None  # a closed viewer holds no board

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                await self._ready.wait()
                self._ready.clear()
                while (next_one := self._next()) is not None:
                    message, is_view = next_one
                    answers, self._view_answers = self._view_answers, None
                    # a timer, not wait_for: no task made per message
                    watchdog = loop.call_later(self._send_timeout, self._stalled)
                    try:
                        with timing.part("send"):
                            await self._send(message)
                    finally:
                        watchdog.cancel()
                    if is_view:
                        timing.sent(answers)
        except Exception:  # the socket is closed or broken
            self.dropped.set()

    def _stalled(self) -> None:
        """The viewer stopped reading: give up on it (the send in flight is cancelled)."""
        self.close()

    def _next(self) -> tuple[str, bool] | None:
        """The next message's text, and whether it is a view."""
        if self._view is not None:
            # a send that fails drops the viewer, so the edition taken is what it has
            edition, shown = self._view, self._shown
            self._view, self._shown = None, edition
            return edition.text_after(shown), True
        return (encoded(self._notes.popleft()), False) if self._notes else None
