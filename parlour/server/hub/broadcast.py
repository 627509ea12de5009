"""Views to viewers: after each change, every open WebSocket of a game is left the view
of its own seats (rendered once per kind of viewer, `views.py`) and the notes meant for
it, without waiting for any of them (`viewers.py`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection

from parlour.core.game import JSON, Status
from parlour.core.session import Session
from parlour.server import timing
from parlour.server.hub.live import Live
from parlour.server.hub.takebacks import role_of
from parlour.server.hub.viewers import Viewer
from parlour.server.hub.views import build_view

ViewKind = tuple[frozenset[int], bool, str | None]
"""What a viewer's view hangs on: its seats, whether it sees the game's id, its part in
a take-back. Viewers of one kind share one render."""


class Broadcast:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock  # the game clocks' time (`Hub.clock`)

    def view_for(self, live: Live, token: str | None, sound: str | None = None) -> JSON:
        """The view of the seats `token` holds (None: a spectator's)."""
        return build_view(live, live.seats_of(token), token, self.clock(), sound)

    def show_all(self, live: Live, sound: str | None) -> None:
        """Leave every viewer its view (one render per kind of viewer); never waits."""
        notes, live.notes = live.notes, []
        self._show(live, sound, notes, {}, live.viewers)

    async def answer(self, live: Live, sound: str | None, token: str | None) -> None:
        """`show_all` after the action of player `token`, their own views first: those
        watching have theirs worked out only once the player's has gone out (on a machine
        the players share, their browsers then start after the player's has). The caller
        holds the game's lock, so every view is of the same position."""
        notes, live.notes = live.notes, []
        views: dict[ViewKind, JSON] = {}
        with timing.part("view (who acted)"):
            self._show(live, sound, notes, views,
                       [viewer for viewer in live.viewers if viewer.token == token])
        await asyncio.sleep(0)  # the player's outbox sends it now (see Viewer._pump)
        with timing.part("views (those watching)"):
            self._show(live, sound, notes, views,
                       [viewer for viewer in live.viewers if viewer.token != token])

    def _show(self, live: Live, sound: str | None, notes: list[tuple[str, str]],
              views: dict[ViewKind, JSON], viewers: Collection[Viewer]) -> None:
        """Leave each of `viewers` its view, rendered once per kind of viewer (`views`
        keeps those rendered), and the `notes` meant for it."""
        for viewer in list(viewers):
            if viewer.dropped.is_set():
                live.viewers.discard(viewer)
                continue
            viewer.seats = live.seats_of(viewer.token)
            key = (viewer.seats, live.reveals_id(viewer.token),
                   role_of(live.takeback, viewer.token))
            if key not in views:
                views[key] = self.view_for(live, viewer.token, sound)
            viewer.show(views[key])
            for token, note in notes:
                if viewer.token == token:
                    viewer.tell({"type": "note", "note": note})


def sound_after(kind: str, session: Session) -> str:
    """The sound the views play after a change of `kind` (a client message's type)."""
    if kind == "takeback":
        return "undo"
    if kind != "move":
        return kind
    return "end" if session.status is not Status.PLAYING else session.last_move_sound()
