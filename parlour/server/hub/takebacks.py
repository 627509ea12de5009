"""Take-backs: with other players in a game, Undo asks them first (as on chess servers).

The state of one request and its rules, with no I/O: who asked, whose acceptance it
still waits for, and what an answer does. `seats.py` carries them out under the game's
lock (`Live.takeback` holds the request waiting, if any).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from parlour.core.game import GameError, Status
from parlour.core.session import Session

Role = Literal["asker", "asked"]


@dataclass
class TakebackRequest:
    """A player's request to take back their last move, until every other player who
    holds a seat has accepted it (one refusal ends it)."""

    asker: str  # the asking player's token
    waiting_for: set[str]  # the tokens that have not accepted yet

    def role(self, token: str | None) -> Role | None:
        """'asker' or 'asked' while the request waits for `token`'s player; else None."""
        if token is None:
            return None
        if token == self.asker:
            return "asker"
        return "asked" if token in self.waiting_for else None


def role_of(request: TakebackRequest | None, token: str | None) -> Role | None:
    """`token`'s part in the take-back waiting, if any."""
    return None if request is None else request.role(token)


def asked(
    waiting: TakebackRequest | None, token: str | None, can_undo: bool, others: Collection[str]
) -> TakebackRequest:
    """The request `token`'s player makes of the `others`; GameError if they have no
    move to take back or a request is waiting already."""
    if token is None or not can_undo:
        raise GameError("there is no move of yours to take back")
    if waiting is not None:
        raise GameError("a take-back is already waiting for an answer")
    return TakebackRequest(token, set(others))


GAME_OVER = "the game is over: its moves are no longer taken back"


def may_ask(session: Session, seats: Collection[int]) -> bool:
    """Whether the player of `seats` may ask the others to take back their last move:
    while the game is on (once it is over, its result stands for every player)."""
    return session.status is Status.PLAYING and session.can_undo(seats)


Verdict = Literal["withdrawn", "refused", "waiting", "accepted"]


def answered(request: TakebackRequest | None, token: str | None, accept: bool) -> Verdict:
    """What `token`'s answer does to the request (`waiting`: it records the acceptance
    and still waits for others); GameError if it waits for no answer of theirs."""
    role = role_of(request, token)
    if request is None or role is None or token is None:
        raise GameError("no take-back is waiting for your answer")
    if role == "asker" and accept:
        raise GameError("your take-back is waiting for the other players")
    if not accept:
        return "withdrawn" if role == "asker" else "refused"
    request.waiting_for.discard(token)
    return "waiting" if request.waiting_for else "accepted"
