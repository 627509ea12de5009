"""How the SQLite store reads: sessions, seat tokens, pictures and results."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from parlour.core.game import JSON
from parlour.store import assembly
from parlour.store.assembly import RESULT_COLUMNS, SERIES_COLUMNS, SESSION_COLUMNS
from parlour.store.pictures import Picture
from parlour.store.rows import (
    DailyStart,
    Identities,
    KeptSession,
    Result,
    SeriesRow,
    SessionRow,
    StatReading,
)


def load_session(db: sqlite3.Connection, sid: str) -> tuple[SessionRow, list[JSON]] | None:
    row = session_row(db, sid)
    if row is None:
        return None
    moves = [
        json.loads(text)
        for (text,) in db.execute("SELECT move FROM moves WHERE sid=? ORDER BY ply", (sid,))
    ]
    return row, moves


def session_row(db: sqlite3.Connection, sid: str) -> SessionRow | None:
    found = db.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE sid=?",
                       (sid,)).fetchone()
    return None if found is None else _session(found)


def _session(found: Sequence[Any]) -> SessionRow:
    values = list(found)
    for json_column in (3, 15, 16, 17):  # seats, stand_ins, assisted_seats, assist_seats
        values[json_column] = json.loads(values[json_column])
    return assembly.session_from(values)


def unfinished(db: sqlite3.Connection, limit: int) -> list[SessionRow]:
    sids = [
        sid
        for (sid,) in db.execute(
            "SELECT sid FROM sessions WHERE status='playing' AND cursor>0"
            " ORDER BY updated DESC LIMIT ?",
            (limit,),
        )
    ]
    return [row for sid in sids if (row := session_row(db, sid))]


def held_unfinished(db: sqlite3.Connection, tokens: Sequence[str]) -> list[tuple[str, list[int]]]:
    if not tokens:
        return []
    marks = ",".join("?" * len(tokens))
    return [
        (sid, json.loads(seats))
        for sid, seats in db.execute(
            "SELECT s.sid, t.seats FROM tokens t JOIN sessions s ON s.sid = t.sid"
            f" WHERE t.token IN ({marks}) AND t.forgotten = 0 AND t.seats != '[]'"
            " AND s.status = 'playing' AND s.cursor > 0 ORDER BY s.updated DESC",
            tuple(tokens),
        )
    ]


def series(db: sqlite3.Connection, sid: str) -> SeriesRow | None:
    found = db.execute(f"SELECT {SERIES_COLUMNS} FROM series WHERE sid=?", (sid,)).fetchone()
    return None if found is None else _series(found)


def _series(found: Sequence[Any]) -> SeriesRow:
    sid, series_sid, number, tally, next_sid, handover = found
    return assembly.series_from(
        (sid, series_sid, number, json.loads(tally), next_sid, json.loads(handover)))


def tokens(db: sqlite3.Connection, sid: str) -> dict[str, list[int]]:
    return {
        token: json.loads(seats)
        for token, seats in db.execute(
            "SELECT token, seats FROM tokens WHERE sid=? ORDER BY rowid", (sid,)
        )
    }


def load_upload(db: sqlite3.Connection, upload_id: str) -> Picture | None:
    found = db.execute(
        "SELECT media_type, width, height, data FROM uploads WHERE upload_id=?",
        (upload_id,),
    ).fetchone()
    return None if found is None else Picture(*found)


def results(db: sqlite3.Connection, game: str | None) -> list[Result]:
    query = f"SELECT {RESULT_COLUMNS} FROM results"
    args: tuple[str, ...] = ()
    if game is not None:
        query += " WHERE game=?"
        args = (game,)
    rows = db.execute(query + " ORDER BY finished, seat", args).fetchall()
    return [_result(row) for row in rows]


def _result(row: Sequence[Any]) -> Result:
    return assembly.result_from((*row[:13], json.loads(row[13])))


def result_game_ids(db: sqlite3.Connection) -> dict[str, str]:
    return dict(db.execute(
        "SELECT sid, game_id FROM sessions WHERE sid IN (SELECT sid FROM results)"))


def results_version(db: sqlite3.Connection) -> tuple[float, ...]:
    """The results' count, last row and last finish: a result added, or taken back by an
    undo and finished again, changes one. (count(*) walks an index: fast, though linear.)"""
    count, last_row, last_finished = db.execute(
        "SELECT count(*), coalesce(max(rowid), 0), coalesce(max(finished), 0) FROM results"
    ).fetchone()
    return (float(count), float(last_row), float(last_finished))


_GROUPS = """
    SELECT game, preset, mode, seat_name, played, place FROM (
        SELECT game, preset, mode, seat_name, count(*) AS played,
            row_number() OVER (PARTITION BY game
                               ORDER BY max(finished) DESC, preset, mode, seat_name) AS place
        FROM results WHERE ?1 IS NULL OR game = ?1
        GROUP BY game, preset, mode, seat_name)
"""


def stat_reading(db: sqlite3.Connection, game: str | None, groups_per_game: int,
                 per_group: int) -> StatReading:
    """One pass of SQLite over the groups, then an indexed read of each group kept."""
    version = results_version(db)

    def latest(name: str, preset: str, mode: str, seat_name: str) -> list[Result]:
        rows = db.execute(
            f"SELECT {RESULT_COLUMNS} FROM results"
            " WHERE game=? AND preset=? AND mode=? AND seat_name=?"
            " ORDER BY finished DESC, seat DESC LIMIT ?",
            (name, preset, mode, seat_name, per_group)).fetchall()
        return [_result(row) for row in reversed(rows)]

    groups, left_off = assembly.stat_groups(db.execute(_GROUPS, (game,)), groups_per_game,
                                            latest)
    return StatReading(version, groups, left_off)


_DAILY = "game_id LIKE '%#daily-____-__-__'"


def daily_results(db: sqlite3.Connection) -> list[Result]:
    rows = db.execute(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE round=1 AND seat=0"
        f" AND sid IN (SELECT sid FROM sessions WHERE {_DAILY}) ORDER BY finished, seat"
    ).fetchall()
    return [_result(row) for row in rows]


def result_and_group(db: sqlite3.Connection, sid: str, seat: int | None, per_group: int
                     ) -> tuple[Result, list[Result]] | None:
    found = db.execute(f"SELECT {RESULT_COLUMNS} FROM results WHERE sid=?1"
                       " AND (?2 IS NULL OR seat=?2) ORDER BY round DESC, seat LIMIT 1",
                       (sid, seat)).fetchone()
    if found is None:
        return None
    this = _result(found)
    rows = db.execute(
        f"SELECT {RESULT_COLUMNS} FROM results"
        " WHERE game=? AND preset=? AND mode=? AND seat_name=? AND finished<=?"
        " ORDER BY finished DESC, seat DESC LIMIT ?",
        (this.game, this.preset, this.mode, this.seat_name, this.finished, per_group)
    ).fetchall()
    return this, [_result(row) for row in reversed(rows)]


def latest_results(db: sqlite3.Connection, game: str | None, limit: int
                   ) -> list[tuple[Result, SessionRow | None]]:
    rows = db.execute(
        f"SELECT {RESULT_COLUMNS} FROM results WHERE ?1 IS NULL OR game = ?1"
        " ORDER BY finished DESC, seat DESC LIMIT ?2", (game, limit)).fetchall()
    return assembly.with_sessions((_result(row) for row in rows),
                                  lambda sid: session_row(db, sid))


def daily_starts(db: sqlite3.Connection, sids: Sequence[str] | None) -> list[DailyStart]:
    # `_` is LIKE's any-one-character, fine here: the date is checked by the caller
    query = f"SELECT sid, game, game_id, created, round, status FROM sessions WHERE {_DAILY}"
    if sids is None:
        rows = db.execute(query).fetchall()
    else:
        rows = [row for marks, chunk in _each_chunk(sids)
                for row in db.execute(f"{query} AND sid IN ({marks})", chunk)]
    return [DailyStart(*row) for row in sorted(rows, key=lambda row: (row[3], row[0]))]


def held_seats(db: sqlite3.Connection, tokens: Sequence[str]) -> dict[str, list[int]]:
    held: dict[str, list[int]] = {}
    for marks, chunk in _each_chunk(tokens):
        for sid, seats in db.execute(
                f"SELECT sid, seats FROM tokens WHERE token IN ({marks})", chunk):
            held[sid] = sorted({*held.get(sid, ()), *json.loads(seats)})
    return held


def results_of(db: sqlite3.Connection, sids: Sequence[str], limit: int) -> list[Result]:
    # the latest `limit` of each chunk's, then of them all
    rows = [row for marks, chunk in _each_chunk(sids) for row in db.execute(
        f"SELECT {RESULT_COLUMNS}, rowid FROM results WHERE sid IN ({marks})"
        " ORDER BY finished DESC, seat DESC, rowid DESC LIMIT ?", (*chunk, limit))]
    rows.sort(key=lambda row: (row[12], row[2], row[-1]))  # finished, seat, as added
    return [_result(row[:-1]) for row in rows[-limit:]]


def session_rows(db: sqlite3.Connection, sids: Sequence[str]) -> dict[str, SessionRow]:
    return {row[0]: _session(row) for marks, chunk in _each_chunk(sids) for row in db.execute(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE sid IN ({marks})", chunk)}


def kept_sessions(db: sqlite3.Connection) -> list[KeptSession]:
    """Every session whole, in four queries (not four per session)."""
    moves: dict[str, list[JSON]] = {}
    for sid, move in db.execute("SELECT sid, move FROM moves ORDER BY sid, ply"):
        moves.setdefault(sid, []).append(json.loads(move))
    holders: dict[str, list[tuple[str, list[int], bool]]] = {}
    for sid, token, seats, forgotten in db.execute(
        "SELECT sid, token, seats, forgotten FROM tokens ORDER BY rowid"
    ):
        holders.setdefault(sid, []).append((token, json.loads(seats), bool(forgotten)))
    places = {found[0]: _series(found)
              for found in db.execute(f"SELECT {SERIES_COLUMNS} FROM series")}
    sessions = ((_session(found[:-1]), found[-1]) for found in db.execute(
        f"SELECT {SESSION_COLUMNS}, created FROM sessions ORDER BY created, sid"))
    return assembly.kept_sessions(sessions, moves, holders, places)


_CHUNK = 500  # SQLite's host parameters per statement are limited


def _each_chunk(values: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """`values` in chunks, each with the `?,?,...` its IN (...) takes."""
    chunks = [tuple(values[i:i + _CHUNK]) for i in range(0, len(values), _CHUNK)]
    return [(",".join("?" * len(chunk)), chunk) for chunk in chunks]


def identities(db: sqlite3.Connection, sids: Sequence[str], tokens: Sequence[str],
               uploads: Sequence[str]) -> Identities:
    sessions: dict[str, str] = {}
    results: set[tuple[str, int, int]] = set()
    for marks, chunk in _each_chunk(sids):
        sessions.update(db.execute(
            f"SELECT sid, game_id FROM sessions WHERE sid IN ({marks})", chunk).fetchall())
        results.update(db.execute(
            f"SELECT sid, round, seat FROM results WHERE sid IN ({marks})", chunk).fetchall())
    held: dict[str, str] = {}
    for marks, chunk in _each_chunk(tokens):
        held.update(db.execute(
            f"SELECT token, sid FROM tokens WHERE token IN ({marks})", chunk).fetchall())
    kept: set[str] = set()
    for marks, chunk in _each_chunk(uploads):
        kept.update(upload_id for (upload_id,) in db.execute(
            f"SELECT upload_id FROM uploads WHERE upload_id IN ({marks})", chunk))
    return Identities(sessions, held, frozenset(results), frozenset(kept))
