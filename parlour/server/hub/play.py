"""Playing: the handlers of a move, Undo, Redo and Restart (`Hub.act` runs them under
the game's lock, then saves and shows the change).

A move the game declares slow is worked out in a worker. With other players in the
game, Undo asks them first (`seats.ask_takeback`), and Redo and Restart are off. A
finished game is not restarted: the page plays its deal again as a new game.
"""

from __future__ import annotations

from parlour.core import work
from parlour.core.game import GameError, Status
from parlour.server.compute import MOVE_BUDGET
from parlour.server.hub.live import Live
from parlour.server.hub.messages import Answer, PlayMove, Redo, Restart, Undo
from parlour.server.hub.seats import ask_takeback
from parlour.server.hub.workers import Workers


class Play:
    def __init__(self, workers: Workers) -> None:
        self.workers = workers

    async def move(
        self, live: Live, token: str | None, seats: frozenset[int], message: PlayMove
    ) -> Answer:
        session, move = live.session, message.move
        seat = session.to_move
        if seat not in seats:
            raise GameError("the game is over" if seat is None else "it is not your turn")
        after = None
        if session.game.slow_move(session.state, session.game.parse_move(move)):
            after = await self.workers.long(
                live, MOVE_BUDGET, "this move", work.apply_move, session.game, session.state,
                move,
            )
        session.play(move, seat, after=after)
        live.shown_to_end = False  # an end from here on is the player's own (not Redo's)
        live.takeback = None  # a take-back is of the last move: it is no longer
        return None

    @staticmethod
    async def undo(live: Live, token: str | None, seats: frozenset[int], message: Undo) -> Answer:
        if live.sharers(token):
            return ask_takeback(live, token, seats)
        seen = live.session.undo_help(seats)
        live.session.undo(seats)
        return _counted_as_help("Undo counts as help here", seen) if seen else None

    @staticmethod
    async def redo(live: Live, token: str | None, seats: frozenset[int], message: Redo) -> Answer:
        _alone(live, seats, message.type)
        live.session.redo(seats)
        return None

    @staticmethod
    async def restart(
        live: Live, token: str | None, seats: frozenset[int], message: Restart
    ) -> Answer:
        _alone(live, seats, message.type)
        if live.session.status is not Status.PLAYING:
            # its moves are its replay and its place among past games: kept as played
            raise GameError("this game has ended and is kept as it was played: start its "
                            "deal again as a new game")
        helps = live.session.restart_helps(seats)
        live.session.restart()
        live.shown_to_end = False
        live.round += 1
        return _counted_as_help("Started again", live.session.game.hidden_seen) if helps else None


def _counted_as_help(what: str, seen: str) -> str:
    """The note of an Undo or a Restart that made the game one played with help, which
    the player is told (a badge alone goes unseen); `seen`: what made it so."""
    return f"{what}: you had seen {seen}, so this game now counts as played with help."


def _alone(live: Live, seats: frozenset[int], action: str) -> None:
    if live.held() - seats:
        raise GameError(f"{action} is off while another player shares this game")
