"""Viewers: open WebSockets, each with its own bounded outbox, so none can stall a game.

A game never waits for a viewer. `show` and `tell` only leave a message in the viewer's
outbox and return; the viewer's own task sends it. The outbox holds the latest view
(a newer one replaces one not yet sent: a slow viewer skips positions, never falls
behind) and a few short notes (a clock's news among them, which a later view makes
stale: the view replaces it). A view's board goes as the parts that changed since the
last one sent, its move list as the moves the viewer has not had. A viewer whose send
does not go through within `SEND_TIMEOUT` seconds (it stopped reading) is dropped; its
browser reconnects and is sent the whole board again.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from parlour.core.game import JSON
from parlour.server import timing
from parlour.server.patch import board_patch

SEND_TIMEOUT = 10.0
NOTES_KEPT = 8  # hints and errors waiting to be sent; older ones are dropped

Send = Callable[[JSON], Awaitable[None]]


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
        self._view: JSON | None = None
        self._view_answers: float | None = None  # when the action it answers arrived (timing)
        self._notes: deque[JSON] = deque(maxlen=NOTES_KEPT)
        self._ready = asyncio.Event()
        self._shown_html: str | None = None  # the board the browser has now
        self._shown_moves: list[JSON] | None = None  # the move list it has now
        self._task = asyncio.get_running_loop().create_task(self._pump())

    def show(self, view: JSON) -> None:
        """Queue `view`, replacing a view not yet sent and the clock's news: the view
        carries the clock as it is now."""
        if self._notes:
            self._notes = deque((note for note in self._notes if note.get("type") != "clock"),
                                maxlen=NOTES_KEPT)
        self._view = view
        self._view_answers = timing.action_arrived()
        self._ready.set()

    def tell(self, note: JSON) -> None:
        """Queue a short message (a hint, an error) after any pending view."""
        self._notes.append(note)
        self._ready.set()

    def close(self) -> None:
        self._task.cancel()
        self.dropped.set()

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                await self._ready.wait()
                self._ready.clear()
                while (message := self._next()) is not None:
                    answers, self._view_answers = self._view_answers, None
                    # a timer, not wait_for: no task made per message
                    watchdog = loop.call_later(self._send_timeout, self._stalled)
                    try:
                        with timing.part("send"):
                            await self._send(message)
                    finally:
                        watchdog.cancel()
                    if message.get("type") == "view":
                        timing.sent(answers)
        except Exception:  # the socket is closed or broken
            self.dropped.set()

    def _stalled(self) -> None:
        """The viewer stopped reading: give up on it (the send in flight is cancelled)."""
        self.close()

    def _next(self) -> JSON | None:
        if self._view is not None:
            view, self._view = self._view, None
            return self._as_parts(view)
        return self._notes.popleft() if self._notes else None

    def _as_parts(self, view: JSON) -> JSON:
        """The view with its board as only the parts that changed since the last one sent,
        with the new order of the runs of elements that moved and the ids of those gone
        (a send that fails drops the viewer, so the last one sent is what it has)."""
        html = view["html"]
        old, self._shown_html = self._shown_html, html
        # a board not laid out a part per line (a small one) is sent whole
        with timing.part("diff"):
            patch = None if old is None or "\n" not in html else board_patch(old, html)
        if patch is not None:
            view = {**view, "html": None, "parts": patch.parts}
            if patch.orders:
                view["orders"] = patch.orders
            if patch.gone:
                view["gone"] = patch.gone
        notes = view.get("move_list")
        if notes is not None:
            start, fresh = notes_tail(self._shown_moves, notes)
            self._shown_moves = notes
            view = {**view, "move_list": fresh, "move_list_from": start}
        return {"type": "view", "view": view}


def notes_tail(shown: list[JSON] | None, notes: list[JSON]) -> tuple[int, list[JSON]]:
    """What a viewer that has the move list `shown` needs of `notes`: the index they
    start from, and the notes from there (all of them when `shown` is not their start)."""
    if shown is None or len(shown) > len(notes):
        return 0, notes
    same = all(a is b or a == b for a, b in zip(shown, notes, strict=False))
    return (len(shown), notes[len(shown):]) if same else (0, notes)
