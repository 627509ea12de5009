"""Series and rematches: their rules and state, with no I/O.

A series is consecutive games with the same seats (the same people, the same computers,
the same game and options), each a rematch of the one before. A rematch passes the first
move on: the seats rotate by one, so the player of seat 1 sits in seat 0 and moves first
(with three seats, each player moves one seat up). The series' players are the first
game's seats, in order: in game `number`, seat s is played by player (s + number) % n.
Each game keeps the series' score before it, per player: [won, drawn, lost].

A rematch is offered, once a game is over, by a player holding seats; it starts when every
player holding seats has accepted (at once for a player alone with the computer, or with
every seat on one screen). A refusal, or a player leaving, ends the offer; each player
accepts once, and offers at most `MAX_OFFERS` times a game. `rematch.py` carries these
out under the game's lock (`Live.series` holds this state).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

from parlour.core.game import GameError, Status
from parlour.core.outcome import outcome
from parlour.core.session import Session
from parlour.store import SeriesRow

MAX_OFFERS = 3
"""How many times one player may offer a rematch of one game (a refused offer may be
made again, but not without end)."""
OUTCOME_COLUMN = {"won": 0, "draw": 1, "lost": 2}
"""Where an outcome counts in a player's [won, drawn, lost]."""


@dataclass
class RematchOffer:
    """A rematch offered by one player, until every player holding seats accepts."""

    asker: str  # the token of the player who offered it
    accepted: set[str]  # the tokens that accepted (the asker's included)


@dataclass
class SeriesState:
    """What a live game knows of its series: its place (None: a first game no rematch
    followed yet), the offer waiting, and how many offers each player made."""

    place: SeriesRow | None = None
    offer: RematchOffer | None = None
    offers_made: dict[str, int] = field(default_factory=dict)

    def number(self) -> int:
        return self.place.number if self.place else 0

    def next_sid(self) -> str:
        return self.place.next_sid if self.place else ""


def first_place(sid: str, seat_count: int) -> SeriesRow:
    """The place of a game that starts a series."""
    return SeriesRow(sid, sid, 0, [[0, 0, 0] for _ in range(seat_count)])


def player_of(seat: int, number: int, seat_count: int) -> int:
    """The series' player who sits in `seat` in its game `number`."""
    return (seat + number) % seat_count


def rotated_kinds(kinds: Sequence[str]) -> list[str]:
    """The seats of the rematch: each one's occupant moves one seat up (seat 1's to 0)."""
    return [kinds[(seat + 1) % len(kinds)] for seat in range(len(kinds))]


def rotated_seats(seats: Collection[int], seat_count: int) -> list[int]:
    """Where the player of `seats` sits in the rematch."""
    return sorted((seat - 1) % seat_count for seat in seats)


def tally_with(place: SeriesRow, session: Session) -> list[list[int]]:
    """The series' score per player once the game `session` (of that place) is counted:
    nothing added while it is on."""
    tally = [list(counts) for counts in place.tally]
    if session.status is Status.PLAYING:
        return tally
    seat_count = len(session.seats)
    for seat in range(seat_count):
        column = OUTCOME_COLUMN[outcome(session, {seat}) or "draw"]
        tally[player_of(seat, place.number, seat_count)][column] += 1
    return tally


def seat_scores(state: SeriesState, sid: str, session: Session) -> list[list[int]]:
    """Each seat's [won, drawn, lost] in the series so far, this game included if over."""
    seat_count = len(session.seats)
    place = state.place or first_place(sid, seat_count)
    tally = tally_with(place, session)
    return [tally[player_of(seat, place.number, seat_count)] for seat in range(seat_count)]


Verdict = Literal["waiting", "start", "withdrawn", "refused"]


def answered(
    state: SeriesState, session: Session, token: str, accept: bool, players: Collection[str]
) -> Verdict:
    """What `token`'s offer, acceptance or refusal does (`players`: the tokens holding
    seats); GameError, changing nothing, if it may not be made now."""
    if session.status is Status.PLAYING:
        raise GameError("the game is not over yet: a rematch comes after it")
    if len(session.seats) < 2:
        raise GameError("a rematch is for games of several players")
    if state.next_sid():
        raise GameError("the rematch has started already")
    offer = state.offer
    if not accept:
        if offer is None:
            raise GameError("no rematch offer is waiting for your answer")
        state.offer = None
        return "withdrawn" if token == offer.asker else "refused"
    if offer is None:
        made = state.offers_made.get(token, 0)
        if made >= MAX_OFFERS:
            raise GameError("you have offered a rematch of this game enough times")
        state.offers_made[token] = made + 1
        offer = state.offer = RematchOffer(token, {token})
    elif token in offer.accepted:
        raise GameError("you have accepted the rematch already: waiting for the others")
    else:
        offer.accepted.add(token)
    return "start" if set(players) <= offer.accepted else "waiting"
