"""How the PostgreSQL store reads: sessions, seat tokens, pictures and results, in the
orders SQLite gives. Where SQLite breaks a tie by rowid (the order rows were added in),
these read the `made` column that keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.game import JSON
from parlour.store import assembly
from parlour.store.assembly import RESULT_COLUMNS, SERIES_COLUMNS, SESSION_COLUMNS
from parlour.store.pictures import Picture
from parlour.store.postgres.schema import Connection
from parlour.store.rows import (
    DailyStart,
    Identities,
    KeptSession,
    Result,
    SeriesRow,
    SessionRow,
    StatReading,
)


def load_session(db: Connection, sid: str) -> tuple[SessionRow, list[JSON]] | None:
    row = session_row(db, sid)
    if row is None:
        return None
    found = db.execute("SELECT move FROM moves WHERE sid = %s ORDER BY ply", (sid,))
    return row, [move for (move,) in found]


def session_row(db: Connection, sid: str) -> SessionRow | None:
    found = db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE sid = %s",
                       (sid,)).fetchone()
    return None if found is None else assembly.session_from(found)


def unfinished(db: Connection, limit: int) -> list[SessionRow]:
    found = db.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status = 'playing' AND cursor > 0"
        " ORDER BY updated DESC, made DESC LIMIT %s", (limit,))
    return [assembly.session_from(row) for row in found]


def held_unfinished(db: Connection, tokens: Sequence[str]) -> list[tuple[str, list[int]]]:
    found = db.execute(
        "SELECT s.sid, t.seats FROM tokens t JOIN sessions s ON s.sid = t.sid"
        " WHERE t.token = ANY(%s) AND NOT t.forgotten AND cardinality(t.seats) > 0"
        " AND s.status = 'playing' AND s.cursor > 0 ORDER BY s.updated DESC, s.made DESC",
        (list(tokens),))
    return [(sid, seats) for sid, seats in found]


def series(db: Connection, sid: str) -> SeriesRow | None:
    found = db.execute(f"SELECT {SERIES_COLUMNS} FROM series WHERE sid = %s",
                       (sid,)).fetchone()
    return None if found is None else assembly.series_from(found)


def tokens(db: Connection, sid: str) -> dict[str, list[int]]:
    found = db.execute("SELECT token, seats FROM tokens WHERE sid = %s ORDER BY made", (sid,))
    return {token: seats for token, seats in found}


def load_upload(db: Connection, upload_id: str) -> Picture | None:
    found = db.execute(
        "SELECT media_type, width, height, data FROM uploads WHERE upload_id = %s",
        (upload_id,)).fetchone()
    return None if found is None else Picture(*found)


def _results(db: Connection, where: str, args: dict[str, Any], order: str) -> list[Result]:
    found = db.execute(f"SELECT {RESULT_COLUMNS} FROM results WHERE {where} ORDER BY {order}",
                       args)
    return [assembly.result_from(row) for row in found]


_OF_GAME = "(%(game)s::text IS NULL OR game = %(game)s::text)"


def results(db: Connection, game: str | None) -> list[Result]:
    return _results(db, _OF_GAME, {"game": game}, "finished, seat, made")


def result_game_ids(db: Connection) -> dict[str, str]:
    found = db.execute("SELECT sid, game_id FROM sessions"
                       " WHERE sid IN (SELECT sid FROM results)")
    return {sid: game_id for sid, game_id in found}


def results_version(db: Connection) -> tuple[float, ...]:
    """The results' count, last row and last finish: a result added, or taken back by an
    undo and finished again, changes one (the row added again has a new `made`)."""
    found = db.execute("SELECT count(*), coalesce(max(made), 0), coalesce(max(finished), 0)"
                       " FROM results").fetchone()
    return tuple(float(value) for value in found) if found else (0.0, 0.0, 0.0)


_GROUPS = f"""
    SELECT game, preset, mode, seat_name, played, place FROM (
        SELECT game, preset, mode, seat_name, count(*) AS played,
            row_number() OVER (PARTITION BY game
                               ORDER BY max(finished) DESC, preset, mode, seat_name) AS place
        FROM results WHERE {_OF_GAME}
        GROUP BY game, preset, mode, seat_name) AS groups
    ORDER BY game, place
"""


def stat_reading(db: Connection, game: str | None, groups_per_game: int,
                 per_group: int) -> StatReading:
    """One pass over the groups, then an indexed read of each group kept."""
    version = results_version(db)

    def latest(name: str, preset: str, mode: str, seat_name: str) -> list[Result]:
        newest_first = _results(
            db, "game = %(game)s AND preset = %(preset)s AND mode = %(mode)s"
            " AND seat_name = %(seat_name)s",
            {"game": name, "preset": preset, "mode": mode, "seat_name": seat_name,
             "limit": per_group}, "finished DESC, seat DESC, made DESC LIMIT %(limit)s")
        return newest_first[::-1]

    groups, left_off = assembly.stat_groups(
        db.execute(_GROUPS, {"game": game}).fetchall(), groups_per_game, latest)
    return StatReading(version, groups, left_off)


# `_` is LIKE's any-one-character, fine here: the date is checked by the caller; ILIKE,
# as SQLite's LIKE ignores case
_DAILY = "game_id ILIKE %(daily)s"
_DAILY_PATTERN = {"daily": "%#daily-____-__-__"}


def daily_results(db: Connection) -> list[Result]:
    return _results(db, f"round = 1 AND seat = 0 AND sid IN (SELECT sid FROM sessions"
                        f" WHERE {_DAILY})", _DAILY_PATTERN, "finished, seat, made")


def latest_results(db: Connection, game: str | None, limit: int
                   ) -> list[tuple[Result, SessionRow | None]]:
    latest = _results(db, _OF_GAME, {"game": game, "limit": limit},
                      "finished DESC, seat DESC, made DESC LIMIT %(limit)s")
    return assembly.with_sessions(latest, lambda sid: session_row(db, sid))


def result_and_group(db: Connection, sid: str, seat: int | None, per_group: int
                     ) -> tuple[Result, list[Result]] | None:
    mine = _results(db, "sid = %(sid)s AND (%(seat)s::integer IS NULL OR seat = %(seat)s)",
                    {"sid": sid, "seat": seat}, "round DESC, seat LIMIT 1")
    if not mine:
        return None
    this = mine[0]
    newest_first = _results(
        db, "game = %(game)s AND preset = %(preset)s AND mode = %(mode)s"
        " AND seat_name = %(seat_name)s AND finished <= %(finished)s",
        {"game": this.game, "preset": this.preset, "mode": this.mode,
         "seat_name": this.seat_name, "finished": this.finished, "limit": per_group},
        "finished DESC, seat DESC, made DESC LIMIT %(limit)s")
    return this, newest_first[::-1]


def daily_starts(db: Connection, sids: Sequence[str] | None) -> list[DailyStart]:
    found = db.execute(
        "SELECT sid, game, game_id, created, round, status FROM sessions"
        f" WHERE {_DAILY} AND (%(sids)s::text[] IS NULL OR sid = ANY(%(sids)s::text[]))"
        " ORDER BY created, sid", _DAILY_PATTERN | {"sids": None if sids is None else list(sids)})
    return [DailyStart(*row) for row in found]


def held_seats(db: Connection, tokens: Sequence[str]) -> dict[str, list[int]]:
    held: dict[str, list[int]] = {}
    for sid, seats in db.execute("SELECT sid, seats FROM tokens WHERE token = ANY(%s)",
                                 (list(tokens),)):
        held[sid] = sorted({*held.get(sid, ()), *seats})
    return held


def results_of(db: Connection, sids: Sequence[str], limit: int) -> list[Result]:
    latest = _results(db, "sid = ANY(%(sids)s)", {"sids": list(sids), "limit": limit},
                      "finished DESC, seat DESC, made DESC LIMIT %(limit)s")
    return latest[::-1]


def session_rows(db: Connection, sids: Sequence[str]) -> dict[str, SessionRow]:
    found = db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE sid = ANY(%s)",
                       (list(sids),))
    return {row[0]: assembly.session_from(row) for row in found}


def kept_sessions(db: Connection) -> list[KeptSession]:
    """Every session whole, in four queries (not four per session)."""
    moves: dict[str, list[JSON]] = {}
    for sid, move in db.execute("SELECT sid, move FROM moves ORDER BY sid, ply"):
        moves.setdefault(sid, []).append(move)
    holders: dict[str, list[tuple[str, list[int], bool]]] = {}
    for sid, token, seats, forgotten in db.execute(
            "SELECT sid, token, seats, forgotten FROM tokens ORDER BY made"):
        holders.setdefault(sid, []).append((token, seats, forgotten))
    places = {row[0]: assembly.series_from(row)
              for row in db.execute(f"SELECT {SERIES_COLUMNS} FROM series")}
    sessions = [(assembly.session_from(row[:-1]), row[-1]) for row in db.execute(
        f"SELECT {SESSION_COLUMNS}, created FROM sessions ORDER BY created, sid")]
    return assembly.kept_sessions(sessions, moves, holders, places)


def identities(db: Connection, sids: Sequence[str], tokens: Sequence[str],
               uploads: Sequence[str]) -> Identities:
    """One query each, however many: PostgreSQL takes a whole list as one parameter."""
    sids, tokens, uploads = list(sids), list(tokens), list(uploads)
    sessions = db.execute("SELECT sid, game_id FROM sessions WHERE sid = ANY(%s)", (sids,))
    results = db.execute("SELECT sid, round, seat FROM results WHERE sid = ANY(%s)", (sids,))
    held = db.execute("SELECT token, sid FROM tokens WHERE token = ANY(%s)", (tokens,))
    kept = db.execute("SELECT upload_id FROM uploads WHERE upload_id = ANY(%s)", (uploads,))
    return Identities(dict(sessions.fetchall()), dict(held.fetchall()),
                      frozenset(results.fetchall()),
                      frozenset(upload_id for (upload_id,) in kept))
