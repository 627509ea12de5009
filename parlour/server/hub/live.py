"""A game in memory: its session, who holds which seat, who watches, and its lock.

What a handler may touch, holding `lock` (one change at a time): `session`, `round`,
`holders`, `notes`, and the state its own capability hangs here — `takeback` (seats.py,
by the rules of takebacks.py; a move, play.py, ends it), `advice` (advice.py) — and
`ai_task` only through turns.py. `observed` is a cache `observe` keeps; `viewers`
changes as sockets come and go and pages are hidden or shown (the API, telling
presence.py), `last_used` as the hub hands the game out.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from parlour.core.game import JSON, Status
from parlour.core.gameid import SHOWN
from parlour.core.session import HUMAN, Session
from parlour.server.hub.advice_state import AdviceState
from parlour.server.hub.editions import Edition
from parlour.server.hub.series import SeriesState
from parlour.server.hub.takebacks import TakebackRequest
from parlour.server.hub.viewers import Viewer

OPEN = "open"  # a human seat kept free for whoever opens the invite link

HELP_BETWEEN_PEOPLE = "no hints nor assist in a game against another person"


@dataclass(eq=False)
class Live:
    sid: str
    session: Session
    mode: str
    preset: str
    round: int
    # a token's digest (tokens.py) -> its seats; the first token is the owner's
    holders: dict[str, frozenset[int]]
    viewers: set[Viewer] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change at a time
    last_used: float = field(default_factory=time.monotonic)
    # the last observation per seat, with the state it was made from: every viewer and
    # the saved headline need the same one after each change
    observed: dict[int | None, tuple[Any, JSON]] = field(default_factory=dict)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (token, note) for the next views
    ai_task: asyncio.Task[None] | None = None  # the computer's turns (turns.py)
    takeback: TakebackRequest | None = None  # a take-back waiting for answers (seats.py)
    advice: AdviceState = field(default_factory=AdviceState)  # advice.py
    # the move list's notes made so far, each with its move (movelist.py)
    move_notes: list[tuple[Any, JSON]] = field(default_factory=list)
    series: SeriesState = field(default_factory=SeriesState)  # its series, a rematch offered
    changes: int = 0  # views shown so far: each change to the game shows them (broadcast.py)
    # the spectators' view for a page that connects, while nothing changed (broadcast.py)
    welcome: Edition | None = None
    # fair shares (shares.py): the client that started it (its work is queued as theirs),
    # whether it counts in their share (not once taken off their Resume list), and
    # whether everyone has left it (no page open, no request waiting: its computers
    # stop until someone returns), with the requests waiting for its computers now
    client: str | None = None
    counted: bool = True
    left: bool = False
    waiting: int = 0
    unopened_import: bool = False  # imported here, and no page of its player opened it yet
    # the solver's playback ended it (advice.py): its result is filed apart, Undo and Redo
    # keep it so, the player's own move or a Restart ends it (play.py)
    shown_to_end: bool = False

    @property
    def group(self) -> str:
        """The statistics group its result goes to now: its own (`preset`), or apart when
        the solver's playback ended it (`gameid.SHOWN`)."""
        return SHOWN if self.shown_to_end else self.preset

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
        return self.headline_for(self.observe(None), frozenset())

    def headline_for(self, observation: JSON, seats: Collection[int]) -> str:
        """The headline as the holder of `seats` reads it: the game's own, unless a
        solver's line played out ended the game (`Game.shown_headline`)."""
        game = self.session.game
        if self.group == SHOWN and self.session.status is not Status.PLAYING:
            return game.shown_headline(observation)
        return game.headline_for(observation, seats)

    def seats_of(self, token: str | None) -> frozenset[int]:
        return self.holders.get(token or "", frozenset())

    def attended(self) -> bool:
        """Whether a player is here: a page of someone holding a human seat is open,
        visible and connected (the game's clock runs only then, `presence.py`)."""
        session = self.session
        return any(
            viewer.visible and not viewer.dropped.is_set()
            and any(session.is_human(seat) for seat in self.seats_of(viewer.token))
            for viewer in self.viewers
        )

    def held(self) -> frozenset[int]:
        return frozenset().union(*self.holders.values())

    def sharers(self, token: str | None) -> list[str]:
        """The other players: tokens other than `token` that hold a seat."""
        return [other for other, seats in self.holders.items() if seats and other != token]

    def help_refusal(self, token: str | None) -> str | None:
        """Why a hint and the assist are refused to `token`'s player, if they are: while
        another person holds a seat (lichess gives no engine to either side of a game
        between people). Players sharing one screen hold their seats with one token."""
        return HELP_BETWEEN_PEOPLE if self.sharers(token) else None

    def open_seats(self) -> list[int]:
        """The human seats nobody holds, while the game is on: once it is over its seats
        stay with whoever played them, as its results do (each filed at its seat)."""
        if self.session.status is not Status.PLAYING:
            return []
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

    def tell(self, token: str, note: str) -> None:
        """A note for another player, sent after the view of the change it is about
        (a new view clears the note on the page)."""
        self.notes.append((token, note))

    def busy(self) -> bool:
        """Whether anyone uses it now: watched, changing, the computer thinking, or moves
        being played out."""
        return bool(self.viewers) or self.lock.locked() or any(
            task is not None and not task.done()
            for task in (self.ai_task, self.advice.playback)
        )

