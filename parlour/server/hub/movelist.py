"""The move list of a game of several players, as lichess shows one: every move up to
the current position, who made it and what it took (the game's words,
`GameSpec.describe_move`); any position along it is `replays.position`.

Each move is described once: `Live.move_notes` keeps the notes made, and only the moves
past the first one that changed (after an undo and another move) are described again.
A viewer is sent only the notes it has not had yet (`viewers.notes_tail`).
"""

from __future__ import annotations

from parlour.core.game import JSON
from parlour.server.hub.live import Live


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

