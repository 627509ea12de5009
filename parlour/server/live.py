"""A game in memory: its session, who holds which seat, who watches, and its lock."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from parlour.core import tables
from parlour.core.game import JSON, GameSpec, Status
from parlour.core.session import AI_PREFIX, HUMAN, Session
from parlour.server.compute import TABLE_BUDGET, Progress
from parlour.server.viewers import Viewer

OPEN = "open"  # a human seat kept free for whoever opens the invite link
QUIET_SECONDS = 0.5
"""Long work says nothing to the players for this long: most answers come sooner."""


@dataclass(frozen=True)
class Opened:
    """A new game opened for a player (a command's replay): where, and their token."""

    sid: str
    token: str
    note: str


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Takeback:
    """A player's request to take back their last move, until every other player who
    holds a seat has accepted it (one refusal ends it)."""

    asker: str  # the asking player's token
    waiting_for: set[str]  # the tokens that have not accepted yet


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
    takeback: Takeback | None = None
    assist_facts: tuple[Any, JSON] | None = None  # (state, what GameSpec.assist_facts said)
    assist_task: asyncio.Task[None] | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)  # (token, note) for the next views
    work: asyncio.Future[Any] | None = None  # long work a player asked for: they may cancel it
    advice: asyncio.Future[Any] | None = None  # that work, if playing on makes it moot (a hint)
    playback: asyncio.Task[None] | None = None  # moves a command plays out (`Playback`)

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

    def sharers(self, token: str | None) -> list[str]:
        """The other players: tokens other than `token` that hold a seat."""
        return [other for other, seats in self.holders.items() if seats and other != token]

    def takeback_role(self, token: str | None) -> str | None:
        """'asker' or 'asked' while a take-back waits for `token`'s player; else None."""
        request = self.takeback
        if request is None or token is None:
            return None
        if token == request.asker:
            return "asker"
        return "asked" if token in request.waiting_for else None

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

    def budget(self, seconds: float) -> float:
        """The time long work for this game gets: more while a table its solvers read
        is not built yet (the work builds it first, once)."""
        if all(tables.ready(table) for table in self.session.spec.tables):
            return seconds
        return max(seconds, TABLE_BUDGET)

    @contextmanager
    def reporting(self, what: str, cancellable: bool) -> Iterator[Progress]:
        """A progress listener for long work (`Compute.run`) that tells every viewer how
        it goes: nothing for QUIET_SECONDS, then that it is under way, then each report,
        and at last that it has ended."""
        started = time.monotonic()

        def quiet() -> bool:
            return time.monotonic() - started < QUIET_SECONDS

        def tell(message: dict[str, Any]) -> None:
            for viewer in self.viewers:
                viewer.tell(message)

        def report(done: float | None, note: str) -> None:
            if not quiet():
                tell({"type": "progress", "what": what, "done": done, "note": note,
                      "elapsed_ms": int((time.monotonic() - started) * 1000),
                      "cancellable": cancellable})

        announced = asyncio.get_running_loop().call_later(QUIET_SECONDS, report, None, "")
        try:
            yield report
        finally:
            announced.cancel()
            if not quiet():
                tell({"type": "progress-end"})

    def facts_now(self) -> JSON:
        """The assist facts of the current position, if worked out."""
        known = self.assist_facts
        return known[1] if known is not None and known[0] is self.session.state else None

    def busy(self) -> bool:
        """Whether anyone uses it now: watched, changing, the computer thinking, or moves
        being played out."""
        return bool(self.viewers) or self.lock.locked() or any(
            task is not None and not task.done() for task in (self.ai_task, self.playback)
        )


def describe_mode(spec: GameSpec, seats: list[str]) -> str:
    """How the seats were filled, for grouping statistics: "solo", "vs AI (perfect)"..."""
    if len(seats) == 1:
        return "solo"
    levels = sorted({kind[len(AI_PREFIX) :] for kind in seats if kind.startswith(AI_PREFIX)})
    if not levels:
        return "two players" if len(seats) == 2 else f"{len(seats)} players"
    return f"vs AI ({', '.join(levels)})"
