"""What a store keeps, as plain values: a session, its progress and its results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from parlour.core.game import JSON


@dataclass(frozen=True)
class SessionRow:
    sid: str
    game: str
    game_id: str
    seats: list[str]
    mode: str
    preset: str
    cursor: int
    round: int
    assisted: bool
    elapsed_ms: int
    clock_last_at: float | None
    status: str
    headline: str
    updated: float
    assist: bool = False
    stand_ins: dict[int, str] = field(default_factory=dict)  # seat -> AI level
    assisted_seats: frozenset[int] = frozenset()  # whose players used help (`assisted`: any)
    assist_seats: frozenset[int] = frozenset()  # whose players have the assist on
    # the moves made as the game counts them (`Game.moves_made`: the sliding puzzle counts
    # tiles moved, not clicks); None in a row kept before it was (then: `cursor`)
    moves_made: int | None = None
    shown_to_end: bool = False  # a solver's line played out ended it (`gameid.SHOWN`)


@dataclass(frozen=True)
class Progress:
    """What changed in a session, saved together in one transaction."""

    sid: str
    cursor: int
    round: int
    assisted: bool
    elapsed_ms: int
    clock_last_at: float | None
    status: str
    headline: str
    now: float
    assist: bool = False
    assisted_seats: frozenset[int] = frozenset()  # whose players used help (`assisted`: any)
    assist_seats: frozenset[int] = frozenset()  # whose players have the assist on
    moves_made: int | None = None  # as the game counts them (SessionRow.moves_made)
    shown_to_end: bool = False  # (SessionRow.shown_to_end)
    new_moves_from: int | None = None  # the line is cut here and `new_moves` appended
    new_moves: Sequence[JSON] = ()


@dataclass(frozen=True)
class Result:
    """A finished game for one seat's player."""

    sid: str
    round: int
    game: str
    preset: str
    mode: str
    outcome: str
    score: int | None
    elapsed_ms: int
    moves: int
    assisted: bool
    finished: float
    figures: dict[str, float] = field(default_factory=dict)
    seat: int = 0
    seat_name: str = ""  # '' when its player held every seat (alone, or hot seat)


@dataclass(frozen=True)
class ResultGroup:
    """A statistics group's latest results, oldest first, and how many it has in all."""

    game: str
    preset: str
    mode: str
    seat_name: str
    played: int
    latest: list[Result]


@dataclass(frozen=True)
class StatReading:
    """What the statistics read of a store: the most recently played groups of each game,
    each with its latest results, and how many groups of each game were left out."""

    version: tuple[float, ...]
    groups: list[ResultGroup]
    left_off: dict[str, int]


@dataclass(frozen=True)
class DailyStart:
    """A game started on a deal whose seed names a date (`parlour.core.daily`)."""

    sid: str
    game: str
    game_id: str
    created: float
    round: int
    status: str


@dataclass(frozen=True)
class SeriesRow:
    """A game's place in a series: consecutive games with the same seats, each a rematch
    of the one before. A game with no row is a series' first game, with no rematch yet."""

    sid: str
    series: str  # the sid of the series' first game
    number: int  # 0 for the first game
    # per player (in the order of the first game's seats): [won, drawn, lost] before this game
    tally: list[list[int]]
    next_sid: str = ""  # the rematch, once it has started
    handover: dict[str, str] = field(default_factory=dict)  # a token here -> its rematch's


@dataclass(frozen=True)
class KeptSession:
    """A session whole, as a backup holds it: its row, when it was created, its line of
    moves, its seat tokens (token -> seats, oldest first), the tokens whose player took
    it off their Resume list, and its place in its series of rematches (if it has one)."""

    row: SessionRow
    created: float
    moves: Sequence[JSON]
    tokens: dict[str, list[int]]
    forgotten: frozenset[str] = frozenset()
    series: SeriesRow | None = None


@dataclass(frozen=True)
class Identities:
    """Which of a backup's stable identities a store keeps already: sessions (sid ->
    game id), seat tokens (token -> sid), results ((sid, round, seat)) and pictures."""

    sessions: dict[str, str]
    tokens: dict[str, str]
    results: frozenset[tuple[str, int, int]]
    uploads: frozenset[str]
