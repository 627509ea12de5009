"""Views to viewers: after each change, every open WebSocket of a game is left the view
of its own seats and the notes meant for it, without waiting for any of them
(`viewers.py`). A view is rendered once per kind of viewer (`views.py`) and goes out as
one edition (`editions.py`), encoded and diffed once for all the viewers of that kind;
a spectator's page that connects is given the spectators' edition made for the last
page that connected, while the game has not changed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection

from parlour.core.game import JSON, Status
from parlour.core.session import Session
from parlour.server import timing
from parlour.server.hub.editions import Edition
from parlour.server.hub.live import Live
from parlour.server.hub.takebacks import role_of
from parlour.server.hub.viewers import Viewer
from parlour.server.hub.views import build_view

ViewKind = tuple[frozenset[int], bool, str | None]
"""What a viewer's view hangs on: its seats, whether it sees the game's id, its part in
a take-back. Viewers of one kind share one render."""

WELCOME_SECONDS = 1.0
"""While the clock runs, how long the spectators' view given to a page that connects
serves the next ones: its clock is at most this much behind, until the next view."""


class Broadcast:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock  # the game clocks' time (`Hub.clock`)

    def view_for(self, live: Live, token: str | None, sound: str | None = None) -> JSON:
        """The view of the seats `token` holds (None: a spectator's)."""
        return build_view(live, live.seats_of(token), token, self.clock(), sound)

    def welcome(self, live: Live, token: str | None) -> Edition:
        """The view for a page that connected with `token`: a spectators' page shares
        the one given to the last page that connected, while the game has not changed."""
        if live.seats_of(token) or kind_of(live, token) != kind_of(live, None):
            return Edition(self.view_for(live, token))  # a player's (or the owner's) own
        clock = live.session.clock
        stamp = (live.changes, live.session.state, clock.running,
                 self.clock() // WELCOME_SECONDS if clock.running else None)
        kept = live.welcome
        if kept is None or kept.stamp != stamp:
            kept = live.welcome = Edition(self.view_for(live, token), stamp)
        return kept

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
              views: dict[ViewKind, Edition], viewers: Collection[Viewer]) -> None:
        """Leave each of `viewers` its view, rendered once per kind of viewer (`views`
        keeps those rendered), and the `notes` meant for it."""
        live.changes += 1
        live.welcome = None
        for viewer in list(viewers):
            if viewer.dropped.is_set():
                live.viewers.discard(viewer)
                continue
            viewer.seats = live.seats_of(viewer.token)
            key = kind_of(live, viewer.token)
            if key not in views:
                views[key] = Edition(self.view_for(live, viewer.token, sound))
            viewer.show(views[key])
            for token, note in notes:
                if viewer.token == token:
                    viewer.tell({"type": "note", "note": note})


def kind_of(live: Live, token: str | None) -> ViewKind:
    """The kind of viewer `token` is: those of one kind are sent the same view."""
    return live.seats_of(token), live.reveals_id(token), role_of(live.takeback, token)


def sound_after(kind: str, session: Session) -> str:
    """The sound the views play after a change of `kind` (a client message's type)."""
    if kind == "takeback":
        return "undo"
    if kind != "move":
        return kind
    return "end" if session.status is not Status.PLAYING else session.last_move_sound()
