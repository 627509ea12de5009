"""A game in memory: its session, who holds which seat, who watches, and its lock."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from parlour.core.game import JSON, GameSpec, Status
from parlour.core.session import AI_PREFIX, HUMAN, Session
from parlour.server.viewers import Viewer

OPEN = "open"  # a human seat kept free for whoever opens the invite link


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(eq=False)
class Live:
    sid: str
    session: Session
    mode: str
    preset: str
    round: int
    holders: dict[str, frozenset[int]]  # token -> seats; the first token is the owner's
    viewers: set[Viewer] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change at a time
    ai_task: asyncio.Task[None] | None = None
    last_used: float = field(default_factory=time.monotonic)
    # the last observation per seat, with the state it was made from: every viewer and
    # the saved headline need the same one after each change
    observed: dict[int | None, tuple[Any, JSON]] = field(default_factory=dict)

    @property
    def owner(self) -> str | None:
        """The token of whoever started the game."""
        return next(iter(self.holders), None)

    def observe(self, seat: int | None) -> JSON:
        state = self.session.state
        cached = self.observed.get(seat)
        if cached is None or cached[0] is not state:
            cached = (state, self.session.game.observe(state, seat))
            self.observed[seat] = cached
        return cached[1]

    def headline(self) -> str:
        """The headline as a spectator sees it (saved for the list of games to resume)."""
        return self.session.game.headline(self.observe(None))

    def seats_of(self, token: str | None) -> frozenset[int]:
        return self.holders.get(token or "", frozenset())

    def held(self) -> frozenset[int]:
        return frozenset().union(*self.holders.values())

    def open_seats(self) -> list[int]:
        return [
            seat
            for seat, kind in enumerate(self.session.seats)
            if kind == HUMAN and seat not in self.held()
        ]

    def reveals_id(self, token: str | None) -> bool:
        """The game id holds the deal (mines, pouch order): only its owner sees it while
        the game is on; once it is over, anyone may."""
        return (token is not None and token == self.owner) or (
            self.session.status is not Status.PLAYING
        )

    def busy(self) -> bool:
        """Whether anyone uses it now: watched, changing, or the computer thinking."""
        return bool(self.viewers) or self.lock.locked() or (
            self.ai_task is not None and not self.ai_task.done()
        )


def describe_mode(spec: GameSpec, seats: list[str]) -> str:
    """How the seats were filled, for grouping statistics: "solo", "vs AI (perfect)"..."""
    if len(seats) == 1:
        return "solo"
    levels = sorted({kind[len(AI_PREFIX) :] for kind in seats if kind.startswith(AI_PREFIX)})
    if not levels:
        return "two players" if len(seats) == 2 else f"{len(seats)} players"
    return f"vs AI ({', '.join(levels)})"
