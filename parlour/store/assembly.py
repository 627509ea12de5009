"""What every backend builds from the rows it reads, the same whatever keeps them: the
columns both schemas name alike, the values made of a row (once the backend has decoded
its own types: JSON, booleans, arrays), and the reads made of several queries whose
order of work is the same everywhere (the statistics' groups, a backup's sessions)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from parlour.core.game import JSON
from parlour.store.rows import KeptSession, Result, ResultGroup, SeriesRow, SessionRow

RESULT_COLUMNS = ("sid, round, seat, seat_name, game, preset, mode, outcome, score,"
                  " elapsed_ms, moves, assisted, finished, figures")
"""The results table's columns, in the order a Result's fields are written and read."""

SESSION_COLUMNS = (
    "sid, game, game_id, seats, mode, preset, cursor, round, assisted, elapsed_ms,"
    " clock_last_at, status, headline, updated, assist, stand_ins, assisted_seats,"
    " assist_seats, moves_made, shown_to_end"
)
"""The sessions table's columns, in the order of a SessionRow's fields."""

SERIES_COLUMNS = "sid, series, number, tally, next_sid, handover"


def result_from(row: Sequence[Any]) -> Result:
    """A result from its RESULT_COLUMNS, decoded (`figures` a dict, `assisted` a bool)."""
    return Result(
        sid=row[0], round=row[1], seat=row[2], seat_name=row[3], game=row[4],
        preset=row[5], mode=row[6], outcome=row[7], score=row[8],
        elapsed_ms=row[9], moves=row[10], assisted=bool(row[11]),
        finished=row[12], figures=row[13],
    )


def result_values(result: Result) -> tuple[Any, ...]:
    """A result's values in RESULT_COLUMNS order, `figures` left for the backend to encode."""
    r = result
    return (r.sid, r.round, r.seat, r.seat_name, r.game, r.preset, r.mode, r.outcome,
            r.score, r.elapsed_ms, r.moves, r.assisted, r.finished, r.figures)


def session_from(values: Sequence[Any]) -> SessionRow:
    """A session from its SESSION_COLUMNS, decoded (JSON values as lists and dicts):
    a stand-in's seat is a JSON object's key, so a string until made a number here."""
    decoded = list(values)
    decoded[8], decoded[14], decoded[19] = bool(decoded[8]), bool(decoded[14]), bool(decoded[19])
    decoded[15] = {int(seat): level for seat, level in decoded[15].items()}
    decoded[16], decoded[17] = frozenset(decoded[16]), frozenset(decoded[17])
    return SessionRow(*decoded)


def series_from(row: Sequence[Any]) -> SeriesRow:
    """A place in a series from its SERIES_COLUMNS, decoded."""
    return SeriesRow(*row)


GroupRow = tuple[str, str, str, str, int, int]
"""A statistics group as the backends read it: game, preset, mode, seat name, how many
results it has, and its place among its game's groups (1: played most recently)."""


def stat_groups(
    groups: Iterable[GroupRow], groups_per_game: int,
    latest: Callable[[str, str, str, str], list[Result]],
) -> tuple[list[ResultGroup], dict[str, int]]:
    """The groups kept, each with the results `latest` reads of it (oldest first), and
    how many of each game's were left out."""
    kept: list[ResultGroup] = []
    left_off: dict[str, int] = {}
    for game, preset, mode, seat_name, played, place in groups:
        if place > groups_per_game:
            left_off[game] = left_off.get(game, 0) + 1
            continue
        kept.append(ResultGroup(game, preset, mode, seat_name, played,
                                latest(game, preset, mode, seat_name)))
    return kept, left_off


def with_sessions(results: Iterable[Result], session_row: Callable[[str], SessionRow | None]
                  ) -> list[tuple[Result, SessionRow | None]]:
    """Each result with its session as it is now, each session read once."""
    sessions: dict[str, SessionRow | None] = {}
    paired = []
    for result in results:
        if result.sid not in sessions:
            sessions[result.sid] = session_row(result.sid)
        paired.append((result, sessions[result.sid]))
    return paired


def kept_sessions(
    sessions: Iterable[tuple[SessionRow, float]], moves: Mapping[str, list[JSON]],
    holders: Mapping[str, list[tuple[str, list[int], bool]]],
    places: Mapping[str, SeriesRow],
) -> list[KeptSession]:
    """Every session whole from four reads: the sessions with when each was created, each
    one's moves, its tokens (token, seats, forgotten; oldest first) and its place in a
    series."""
    kept = []
    for row, created in sessions:
        held = holders.get(row.sid, [])
        kept.append(KeptSession(
            row, created, moves.get(row.sid, []),
            {token: seats for token, seats, _ in held},
            frozenset(token for token, _, forgotten in held if forgotten),
            places.get(row.sid),
        ))
    return kept
