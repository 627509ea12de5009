"""How the SQLite store applies each Change: its SQL, run inside the caller's transaction."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from parlour.core.game import JSON
from parlour.store.assembly import RESULT_COLUMNS, result_values
from parlour.store.changes import (
    Change,
    ImportKept,
    ProgressSaved,
    Restored,
    SeatingChanged,
    SessionCreated,
    UploadSaved,
    Writes,
)
from parlour.store.quota import (
    expired_before,
    imports_to_drop,
    make_room,
    over_quota,
    unopened_imports_expire_before,
)
from parlour.store.rows import Result, SeriesRow

SqlWrite: TypeAlias = Callable[[sqlite3.Connection], None]
"""A write in SQLite's own terms (a migration, a test's): also accepted by this store."""


def apply(db: sqlite3.Connection, change: Change | SqlWrite) -> None:
    """Write `change` with `db`, inside the caller's transaction."""
    if callable(change):
        change(db)
    else:
        WRITES.apply(db, change)


def _session_created(db: sqlite3.Connection, change: SessionCreated) -> None:
    row = change.row
    db.execute(
        "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, round,"
        " assisted, elapsed_ms, clock_last_at, status, headline, created, updated,"
        " assist, assisted_seats, assist_seats, moves_made, shown_to_end)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (row.sid, row.game, row.game_id, json.dumps(row.seats), row.mode, row.preset,
         row.cursor, row.round, int(row.assisted), row.elapsed_ms, row.clock_last_at,
         row.status, row.headline, change.now, row.updated, int(row.assist),
         _seat_list(row.assisted_seats), _seat_list(row.assist_seats), row.moves_made,
         int(row.shown_to_end)),
    )
    db.executemany(
        "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)",
        [(token, row.sid, json.dumps(seats)) for token, seats in change.tokens.items()],
    )
    _insert_moves(db, row.sid, 0, change.moves)
    db.executemany("INSERT INTO moves (sid, ply, move) VALUES (?,?,?)",
                   [(row.sid, ply, text) for ply, text in enumerate(change.moves_text)])


def _restored(db: sqlite3.Connection, change: Restored) -> None:
    """Add what is not kept yet; what is (the same identity) stays as it is. A token
    already kept for another session fails the whole transaction (IntegrityError)."""
    for kept in change.sessions:
        row = kept.row
        added = db.execute(
            "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, round,"
            " assisted, elapsed_ms, clock_last_at, status, headline, created, updated,"
            " assist, stand_ins, assisted_seats, assist_seats, moves_made, shown_to_end)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (sid) DO NOTHING",
            (row.sid, row.game, row.game_id, json.dumps(row.seats), row.mode, row.preset,
             row.cursor, row.round, int(row.assisted), row.elapsed_ms, None, row.status,
             row.headline, kept.created, row.updated, int(row.assist),
             json.dumps({str(seat): level for seat, level in row.stand_ins.items()}),
             _seat_list(row.assisted_seats), _seat_list(row.assist_seats), row.moves_made,
             int(row.shown_to_end)),
        ).rowcount
        if not added:
            continue
        db.executemany(
            "INSERT INTO tokens (token, sid, seats, forgotten) VALUES (?,?,?,?)",
            [(token, row.sid, json.dumps(seats), int(token in kept.forgotten))
             for token, seats in kept.tokens.items()],
        )
        _insert_moves(db, row.sid, 0, kept.moves)
        if kept.series is not None:  # its place in its series comes with it, never alone
            _series_saved(db, kept.series)
    db.executemany(
        f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT (sid, round, seat) DO NOTHING",
        [_result_row(result) for result in change.results],
    )
    db.executemany(
        "INSERT INTO uploads (upload_id, media_type, width, height, data, created,"
        " owner, size, last_uploaded) VALUES (?,?,?,?,?,?,'',?,?)"
        " ON CONFLICT (upload_id) DO NOTHING",
        [(upload_id, picture.media_type, picture.width, picture.height, picture.data,
          change.now, len(picture.data), change.now)
         for upload_id, picture in change.pictures],
    )


def _result_row(result: Result) -> tuple[Any, ...]:
    values = result_values(result)
    return (*values[:11], int(result.assisted), result.finished, json.dumps(result.figures))


def _seat_list(seats: frozenset[int]) -> str:
    return json.dumps(sorted(seats))


def _insert_moves(db: sqlite3.Connection, sid: str, start: int, moves: Sequence[JSON]) -> None:
    db.executemany(
        "INSERT INTO moves (sid, ply, move) VALUES (?,?,?)",
        [(sid, start + i, json.dumps(move)) for i, move in enumerate(moves)],
    )


def _progress_saved(db: sqlite3.Connection, change: ProgressSaved) -> None:
    progress = change.progress
    db.execute(
        "UPDATE sessions SET cursor=?, round=?, assisted=?, elapsed_ms=?,"
        " clock_last_at=?, status=?, headline=?, updated=?, assist=?, assisted_seats=?,"
        " assist_seats=?, moves_made=?, shown_to_end=? WHERE sid=?",
        (progress.cursor, progress.round, int(progress.assisted), progress.elapsed_ms,
         progress.clock_last_at, progress.status, progress.headline, progress.now,
         int(progress.assist), _seat_list(progress.assisted_seats),
         _seat_list(progress.assist_seats), progress.moves_made, int(progress.shown_to_end),
         progress.sid),
    )
    # a saved move or clock: someone plays the game, which is kept for good if imported
    db.execute("UPDATE imports SET opened=1 WHERE sid=? AND opened=0", (progress.sid,))
    if progress.new_moves_from is not None:
        start = progress.new_moves_from
        db.execute("DELETE FROM moves WHERE sid=? AND ply>=?", (progress.sid, start))
        _insert_moves(db, progress.sid, start, progress.new_moves)
    # the round's results once it ends: they stand while an Undo has it in play again
    # (a loss taken back is still a loss if the player restarts or leaves it) and are
    # replaced when it ends again
    if change.results:
        db.execute(
            "DELETE FROM results WHERE sid=? AND round=?", (progress.sid, progress.round)
        )
        db.executemany(
            f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [_result_row(result) for result in change.results],
        )


def _seating_changed(db: sqlite3.Connection, change: SeatingChanged) -> None:
    db.executemany(
        "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)"
        " ON CONFLICT (token) DO UPDATE SET seats=excluded.seats",
        [(token, change.sid, json.dumps(seats)) for token, seats in change.holders.items()],
    )
    db.execute("UPDATE sessions SET stand_ins=? WHERE sid=?",
               (json.dumps(change.stand_ins), change.sid))


def _series_saved(db: sqlite3.Connection, row: SeriesRow) -> None:
    db.execute(
        "INSERT OR REPLACE INTO series (sid, series, number, tally, next_sid, handover)"
        " VALUES (?,?,?,?,?,?)",
        (row.sid, row.series, row.number, json.dumps(row.tally), row.next_sid,
         json.dumps(row.handover)),
    )


# an upload is in use while a session's game id has it as a parameter value
_UNUSED = (
    "NOT EXISTS (SELECT 1 FROM sessions"
    " WHERE instr(sessions.game_id, '=' || uploads.upload_id) > 0)"
)


def _uploads_expired(db: sqlite3.Connection, now: float) -> None:
    db.execute(
        f"DELETE FROM uploads WHERE last_uploaded < ? AND {_UNUSED}", (expired_before(now),)
    )


def _upload_saved(db: sqlite3.Connection, change: UploadSaved) -> None:
    picture, owner, now = change.picture, change.owner, change.now
    kept_as = picture.upload_id
    _uploads_expired(db, now)
    db.execute(
        "INSERT INTO uploads (upload_id, media_type, width, height, data, created,"
        " owner, size, last_uploaded) VALUES (?,?,?,?,?,?,?,?,?)"
        " ON CONFLICT (upload_id) DO UPDATE"
        " SET owner=excluded.owner, last_uploaded=excluded.last_uploaded",
        (kept_as, picture.media_type, picture.width, picture.height,
         picture.data, now, owner, len(picture.data), now),
    )
    _make_room(db, owner, keep=kept_as)


def _make_room(db: sqlite3.Connection, owner: str, keep: str) -> None:
    """Drop what the quota policy says of `owner`'s uploads, all but `keep`."""
    count, size = db.execute(
        "SELECT count(*), coalesce(sum(size), 0) FROM uploads WHERE owner=?", (owner,)
    ).fetchone()
    if not over_quota(count, size):
        return
    unused_oldest_first = db.execute(
        f"SELECT upload_id, size FROM uploads WHERE owner=? AND upload_id!=? AND {_UNUSED}"
        " ORDER BY last_uploaded, created",
        (owner, keep),
    ).fetchall()
    for upload_id in make_room(count, size, unused_oldest_first):
        db.execute("DELETE FROM uploads WHERE upload_id=?", (upload_id,))


def _import_kept(db: sqlite3.Connection, change: ImportKept) -> None:
    """Expire the imports nobody opened, then keep `change.sid` as its importer's within
    their quota, dropping their oldest unopened imports to make room."""
    db.execute("DELETE FROM sessions WHERE sid IN (SELECT sid FROM imports"
               " WHERE opened=0 AND imported < ?)",
               (unopened_imports_expire_before(change.now),))
    db.execute("INSERT INTO imports (sid, importer, moves, imported) VALUES (?,?,?,?)",
               (change.sid, change.importer, change.moves, change.now))
    (moves,) = db.execute("SELECT coalesce(sum(moves), 0) FROM imports WHERE importer=?",
                          (change.importer,)).fetchone()
    unopened_oldest_first = db.execute(
        "SELECT sid, moves FROM imports WHERE importer=? AND opened=0 AND sid!=?"
        " ORDER BY imported", (change.importer, change.sid)).fetchall()
    for sid in imports_to_drop(moves, unopened_oldest_first):
        db.execute("DELETE FROM sessions WHERE sid=?", (sid,))


WRITES: Writes[sqlite3.Connection] = Writes(
    session_created=_session_created,
    progress_saved=_progress_saved,
    token_added=lambda db, change: db.execute(
        "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)",
        (change.token, change.sid, json.dumps(change.seats))),
    forgotten_set=lambda db, change: db.execute(
        "UPDATE tokens SET forgotten=? WHERE sid=? AND token=?",
        (int(change.forgotten), change.sid, change.token)),
    seating_changed=_seating_changed,
    uploads_expired=lambda db, change: _uploads_expired(db, change.now),
    upload_saved=_upload_saved,
    series_saved=lambda db, change: _series_saved(db, change.row),
    restored=_restored,
    import_kept=_import_kept,
    import_opened=lambda db, change: db.execute(
        "UPDATE imports SET opened=1 WHERE sid=?", (change.sid,)),
)
"""Each Change in SQLite's SQL."""
