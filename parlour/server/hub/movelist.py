"""The move list of a game of several players, as lichess shows one: every move up to
the current position, who made it and what it took (the game's words,
`GameSpec.describe_move`), and any position along it to look at (`past_view`).

Each move is described once: `Live.move_notes` keeps the notes made, and only the moves
past the first one that changed (after an undo and another move) are described again.
A viewer is sent only the notes it has not had yet (`viewers.notes_tail`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from pydantic import BaseModel, Field

from parlour.core.game import JSON, GameError, RenderContext
from parlour.server.hub.live import Live


class PastPosition(BaseModel):
    """A position along the line, to look at."""

    ply: int = Field(description="the moves played before it")
    html: str = Field(description="the board's markup, without ids or moves")
    text: str = Field(description="the position as plain text")


_IDS = re.compile(r'\s(id|data-move|data-alt-move|data-drag|data-drop|tabindex)="[^"]*"')


def move_list(live: Live) -> list[JSON] | None:
    """A note per move up to the current position: {"ply": 1.., "seat", "text",
    "passed": [seats]}; None for a game without a move list."""
    session = live.session
    describe = session.spec.describe_move
    if describe is None:
        return None
    notes, count = live.move_notes, session.cursor
    kept = 0
    while kept < min(len(notes), count) and notes[kept][0] == session.move_at(kept):
        kept += 1
    if kept < min(len(notes), count):
        del notes[kept:]  # the line changed here: what follows is another game's
    game = session.game
    for ply in range(len(notes), count):
        before, move, after = session.position(ply), session.move_at(ply), session.position(ply + 1)
        note = describe(before, move, after)
        notes.append((move, {"ply": ply + 1, "seat": game.to_move(before), "text": note.text,
                             "passed": list(note.passed)}))
    return [entry for _, entry in notes[:count]]


def past_view(live: Live, seats: Collection[int], ply: int) -> JSON:
    """The board after the first `ply` moves as `seats` saw it, to look at: no moves on
    it, its elements without ids (it is shown beside the live board, which keeps them)."""
    session = live.session
    if not 0 <= ply <= session.cursor:
        raise GameError(f"there is no move {ply} yet: the game is at move {session.cursor}")
    state: Any = session.position(ply)
    to_move = session.game.to_move(state)
    seat = to_move if to_move in seats else min(seats, default=None)
    observation = session.game.observe(state, seat)
    markup = session.spec.render(observation, RenderContext(seat, False))
    markup = _IDS.sub("", markup)
    return {"ply": ply, "html": markup, "text": session.game.text(observation)}
