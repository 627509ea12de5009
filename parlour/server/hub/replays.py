"""Replays: the board after any number of moves of a game, and what a replay page needs
to step through it (`replay_of`), for its audience (`audience`).

Who may look: once a game is over, anyone (the hidden information of its positions, a
Minesweeper's mines or Escalator's stock, is then no secret, as the game id is not);
while it is on, only those holding a seat, as their seats saw it.

What it costs: a position is rebuilt from the session's snapshots (at most
`positions.SNAPSHOT_INTERVAL` moves replayed, on the event loop, as an undo is), and
observed, rendered and written as text in a thread (`asyncio.to_thread`): states are
immutable and the renderers' caches thread-safe, and a big board's render is the slow part
(`bench/replay_positions.py` measures both on a long Minesweeper game).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from parlour.core.game import RenderContext, Status, counted
from parlour.core.gameid import params_text
from parlour.core.outcome import outcome
from parlour.core.session import Session
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.movelist import move_list
from parlour.server.hub.views import EndFigure, MoveListEntry, end_figures

MAX_PLY = 10_000_000
"""The largest move number a request may name (a line is far shorter): bounds the input."""

_ACTIONS = re.compile(
    r'\s(data-move|data-alt-move|data-drag|data-drop|data-command|data-preset|tabindex)="[^"]*"')
"""What makes a board playable, or starts a game from it: gone from a past position (its
ids stay: a board's drawings may refer to its own definitions, as Escalator's cards to
their suits)."""
_BUTTON = re.compile(r"<button((?:\s[^>]*)?)>")
_ATTRIBUTE = re.compile(r'\s([\w:-]+)(?:="[^"]*")?')


class Position(BaseModel):
    """The board after `ply` moves, with what the game's view says of that position."""

    ply: int = Field(description="the moves played before it (0: the start)")
    plies: int = Field(description="the moves of the whole game, up to where it stands")
    game: str
    title: str
    session: str
    id: str | None = Field(description="the game id: to its owner while the game is on, to "
                           "anyone once it is over")
    status: str = Field(description="playing, won, lost or draw, at this position")
    to_move: int | None
    scores: list[int]
    winners: list[int]
    moves: int = Field(description="moves played, as the game counts them")
    headline: str
    text: str = Field(description="the position as plain text")
    html: str = Field(description="the board's markup without its moves and actions, its "
                      "buttons disabled: nothing on it can be played")


class Replay(BaseModel):
    """What a replay page needs: the game, its result, and its moves to step through."""

    session: str
    game: str
    title: str
    id: str | None = Field(description="the game id (the same deal again: /play/GAME?id=ID)")
    status: str = Field(description="playing, won, lost or draw, where the game stands")
    outcome: str | None = Field(description="won, lost or draw for this viewer at the end, "
                                "as the game's page colours it (a solitaire's result for "
                                "anyone; none to a watcher of a game of several seats)")
    headline: str = Field(description="the result (or the position's title line)")
    plies: int = Field(description="the moves there are to step through")
    seats: list[str] = Field(description="the seats' names")
    params_text: str
    elapsed_ms: int
    time_shown: str = Field(description="elapsed_ms as the game writes a time (1:05, or "
                            "Minesweeper's 4.32)")
    end_figures: list[EndFigure]
    move_list: list[MoveListEntry] | None = Field(
        description="games of several players: a note per move; null for the others")


@dataclass(frozen=True)
class Audience:
    """Who looks at a replay: the seats whose eyes it is seen through, and whether the
    viewer holds them."""

    seats: frozenset[int]
    perspective: int | None
    reveals_id: bool


def audience(live: Live, token: str | None) -> Audience:
    """Whose view a replay of `live` shows `token`'s holder; 403 to a watcher while the
    game is on (its positions may hold what only its players may see)."""
    session = live.session
    seats = live.seats_of(token)
    if not seats and session.status is Status.PLAYING:
        raise ApiError(403, "This game is still being played: its replay is open to everyone "
                       "once it is over, and until then only to its players")
    public = min((seat for seat in range(len(session.seats)) if session.is_human(seat)),
                 default=0)
    return Audience(seats, public if not seats else None, live.reveals_id(token))


def _perspective(session: Session, state: Any, viewer: Audience) -> int | None:
    """The seat a position is seen as: the viewer's seat to move, else their first; the
    players' first seat for anyone once the game is over."""
    if not viewer.seats:
        return viewer.perspective
    to_move = session.game.to_move(state)
    return to_move if to_move in viewer.seats else min(viewer.seats)


async def position(live: Live, token: str | None, ply: int) -> dict[str, Any]:
    """The board after `ply` moves as `token`'s holder may see it (404: no such move)."""
    viewer = audience(live, token)
    session = live.session
    if not 0 <= ply <= session.cursor:
        raise ApiError(404, f"There is no move {ply}: this game has "
                       f"{counted(session.cursor, 'move')}")
    state = session.position(ply)  # at most a snapshot's interval replayed (module doc)
    seen = await asyncio.to_thread(_seen, session, state, viewer)
    if ply == session.cursor:  # the game as it stands: headed as its view is (a solver's end)
        seat = _perspective(session, state, viewer)
        seen["headline"] = live.headline_for(live.observe(seat), viewer.seats)
    return {"ply": ply, "plies": session.cursor, "game": session.game.name,
            "title": session.game.title, "session": live.sid,
            "id": session.id_text if viewer.reveals_id else None,
            "moves": session.game.moves_made(state, ply), **seen}


def _seen(session: Session, state: Any, viewer: Audience) -> dict[str, Any]:
    """A position observed, rendered and written out (in a thread: pure work)."""
    game = session.game
    seat = _perspective(session, state, viewer)
    observation = game.observe(state, seat)
    markup = past_board(session.spec.render(observation, RenderContext(seat, False)))
    return {"status": game.status(state).value, "to_move": game.to_move(state),
            "scores": list(game.scores(state)), "winners": list(game.winners(state)),
            "headline": game.headline_for(observation, viewer.seats),
            "text": game.text(observation), "html": markup}


def past_board(markup: str) -> str:
    """A board's markup as a replay shows it: nothing on it changes the game. Its moves
    and actions go (`_ACTIONS`), and its buttons (a game's own bar: Minesweeper's face,
    which starts a game of the board's size) are disabled, out of the tab order, without
    the title that said what they would do: a control that does nothing must not look
    live. A button that is only a look (`data-peek`: the sliding puzzle's finished
    picture, held to see it full size) stays live, as it is in play."""
    return _BUTTON.sub(_inert_button, _ACTIONS.sub("", markup))


def _inert_button(tag: re.Match[str]) -> str:
    attributes = list(_ATTRIBUTE.finditer(tag.group(1)))
    if any(attribute.group(1) == "data-peek" for attribute in attributes):
        return tag.group()
    kept = "".join(attribute.group() for attribute in attributes
                   if attribute.group(1) not in ("title", "disabled"))
    return f"<button{kept} disabled>"


def _outcome(session: Session, seats: Collection[int]) -> str | None:
    """The result as the viewer takes it: their own (Tribolo's "Green wins" is a loss to
    Blue's player), a solitaire's to anyone, nothing to a watcher of several players."""
    if len(session.seats) == 1 and session.status is not Status.PLAYING:
        return session.status.value
    return outcome(session, seats)


def replay_of(live: Live, token: str | None) -> dict[str, Any]:
    """The game as a replay page shows it around the board (the board: `position`)."""
    viewer = audience(live, token)
    session, game = live.session, live.session.game
    seat = _perspective(session, session.state, viewer)
    return {"session": live.sid, "game": game.name, "title": game.title,
            "id": session.id_text if viewer.reveals_id else None,
            "status": session.status.value,
            "outcome": _outcome(session, viewer.seats),
            "headline": live.headline_for(live.observe(seat), viewer.seats),
            "plies": session.cursor,
            "seats": list(game.seat_names(session.game_id.params)),
            "params_text": params_text(game, session.game_id.params),
            "elapsed_ms": session.clock.elapsed_ms,
            "time_shown": session.spec.time_written(session.clock.elapsed_ms),
            "end_figures": end_figures(session, seat, viewer.seats),
            "move_list": move_list(live)}

