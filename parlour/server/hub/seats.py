"""Seats: players join a shared game and leave it, and answer each other's take-backs.

A seat's key is its token: joining with one held before gives the seat back, a new
player gets a new token (never one they chose). A player who leaves opens their seats,
and the computer stands in meanwhile if the game has one. With other players in the
game, Undo asks them to accept a take-back (`ask_takeback`; the rules are in
takebacks.py) and `answer_takeback` carries out their answers.
"""

from __future__ import annotations

import secrets

from parlour.core.game import GameError, Status
from parlour.server.hub.broadcast import Broadcast
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.messages import Answer, AnswerTakeback
from parlour.server.hub.takebacks import GAME_OVER, answered, asked, may_ask
from parlour.server.hub.tokens import Presented, raw_token
from parlour.server.hub.turns import ComputerTurns
from parlour.store import Store, seating_changed

SEATS_SETTLED = ("this game is over: its seats stay with those who played them (watch it, or "
                 "start a new one)")
"""A seat is neither taken nor given up once the game has ended: its result is filed at
the seat, and each player's own results are those of the seats they hold."""


class Seats:
    def __init__(self, store: Store, broadcast: Broadcast, turns: ComputerTurns) -> None:
        self.store = store
        self.broadcast = broadcast
        self.turns = turns

    async def join(
        self, live: Live, token: str | None = None, seat: int | None = None
    ) -> tuple[str | None, frozenset[int]]:
        """Give the caller `seat`, or the first open one if None; with none open they may
        still watch. A caller who held seats here before (`token`, as presented) keeps
        their token, so their browser comes back to the seat; the computer, if it stood
        in, gives it up. Answers the token itself (what the caller keeps), and the seats."""
        async with live.lock:
            free = live.open_seats()
            if seat is None and free:
                seat = free[0]
            if seat is None:
                kept = raw_token(token) if token in live.holders else None
                return kept, live.seats_of(token)
            if live.session.status is not Status.PLAYING:
                raise ApiError(409, SEATS_SETTLED)
            if seat not in free:
                raise ApiError(409, _taken(live, seat))
            if token not in live.holders:
                token = Presented(secrets.token_urlsafe(18))  # never one the caller chose
            live.holders[str(token)] = live.seats_of(token) | {seat}
            live.session.stand_ins.pop(seat, None)
            live.takeback = None
            await self._seating_saved(live, token)
        self.broadcast.show_all(live, "join")
        return raw_token(token), live.seats_of(token)

    async def leave(self, live: Live, token: str | None) -> None:
        """The caller gives up their seats: they become open, and the computer plays them
        meanwhile if the game has one (`GameSpec.stand_in_level`)."""
        seats = live.seats_of(token)
        if not seats or token is None:
            raise ApiError(403, "you hold no seat in this game")
        if not live.sharers(token):
            raise ApiError(409, "you are the only player here: start a new game instead")
        if live.session.status is not Status.PLAYING:
            raise ApiError(409, SEATS_SETTLED)
        async with live.lock:
            session = live.session
            live.holders[token] = frozenset()
            level = session.spec.stand_in_level
            if level is not None and session.status is Status.PLAYING:
                session.stand_ins.update(dict.fromkeys(seats, level))
            live.takeback = None
            await self._seating_saved(live, token)
        self.broadcast.show_all(live, "leave")
        self.turns.kick(live)

    async def _seating_saved(self, live: Live, token: str) -> None:
        await self.store.commit(seating_changed(  # the digest, a plain str: what is kept
            live.sid, {str(token): sorted(live.seats_of(token))}, live.session.stand_ins))


def ask_takeback(live: Live, token: str | None, seats: frozenset[int]) -> str:
    """Undo when others play too: the others are asked first, as on chess servers."""
    if live.session.status is not Status.PLAYING:
        raise GameError(GAME_OVER)
    live.takeback = asked(live.takeback, token, may_ask(live.session, seats),
                          live.sharers(token))
    return "Asked to take back your last move: waiting for an answer"


async def answer_takeback(
    live: Live, token: str | None, seats: frozenset[int], message: AnswerTakeback
) -> Answer:
    """Accept or refuse the take-back asked for; the asker may withdraw it."""
    request = live.takeback
    verdict = answered(request, token, message.accept)
    assert request is not None
    if verdict == "waiting":
        return "Accepted: waiting for the other players"
    live.takeback = None
    if verdict == "withdrawn":
        return "Take-back withdrawn"
    if verdict == "refused":
        live.tell(request.asker, "Your take-back was refused")
        return "Take-back refused"
    live.session.undo(live.seats_of(request.asker))
    live.tell(request.asker, "Your take-back was accepted")
    return "Take-back accepted"


def _taken(live: Live, seat: int) -> str:
    names = live.session.game.seat_names(live.session.game_id.params)
    if not 0 <= seat < len(names):
        return f"there is no seat {seat}: this game has {len(names)}"
    if not live.session.is_human(seat):
        return f"{names[seat]} is the computer's seat"
    return f"{names[seat]} is taken"
