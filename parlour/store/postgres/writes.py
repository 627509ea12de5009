"""How the PostgreSQL store applies each Change: its SQL, run inside the caller's
transaction. The order of work and the quota policy are SQLite's (parlour.store.quota);
what differs is PostgreSQL's own: arrays for seats, json for JSON, upserts, and each
write of a game's progress counted in `sessions.revision`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

from psycopg.types.json import Json

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
from parlour.store.postgres.schema import Connection
from parlour.store.quota import (
    expired_before,
    imports_to_drop,
    make_room,
    over_quota,
    unopened_imports_expire_before,
)
from parlour.store.rows import Result, SeriesRow, SessionRow

PgWrite: TypeAlias = Callable[[Connection], None]
"""A write in PostgreSQL's own terms (a migration, a test's): also accepted by this store."""


def apply(db: Connection, change: Change | PgWrite) -> None:
    """Write `change` with `db`, inside the caller's transaction."""
    if callable(change):
        change(db)
    else:
        WRITES.apply(db, change)


_SESSION_INSERT = (
    "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, round,"
    " assisted, elapsed_ms, clock_last_at, status, headline, created, updated, assist,"
    " stand_ins, assisted_seats, assist_seats, moves_made, shown_to_end)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
    " %s, %s)"
)


def _session_values(row: SessionRow, created: float, clock_last_at: float | None
                    ) -> tuple[Any, ...]:
    return (row.sid, row.game, row.game_id, Json(row.seats), row.mode, row.preset,
            row.cursor, row.round, row.assisted, row.elapsed_ms, clock_last_at, row.status,
            row.headline, created, row.updated, row.assist,
            Json({str(seat): level for seat, level in row.stand_ins.items()}),
            sorted(row.assisted_seats), sorted(row.assist_seats), row.moves_made,
            row.shown_to_end)


def _session_created(db: Connection, change: SessionCreated) -> None:
    row = change.row
    db.execute(_SESSION_INSERT, _session_values(row, change.now, row.clock_last_at))
    _insert_tokens(db, row.sid, change.tokens.items())
    _insert_moves(db, row.sid, 0, change.moves)
    db.cursor().executemany(
        "INSERT INTO moves (sid, ply, move) VALUES (%s, %s, %s::json)",
        [(row.sid, ply, text) for ply, text in enumerate(change.moves_text)])


def _insert_tokens(db: Connection, sid: str, held: Iterable[tuple[str, list[int]]],
                   forgotten: frozenset[str] = frozenset()) -> None:
    db.cursor().executemany(
        "INSERT INTO tokens (token, sid, seats, forgotten) VALUES (%s, %s, %s, %s)",
        [(token, sid, seats, token in forgotten) for token, seats in held])


def _insert_moves(db: Connection, sid: str, start: int, moves: Sequence[JSON]) -> None:
    db.cursor().executemany(
        "INSERT INTO moves (sid, ply, move) VALUES (%s, %s, %s)",
        [(sid, start + i, Json(move)) for i, move in enumerate(moves)])


_RESULT_INSERT = (f"INSERT INTO results ({RESULT_COLUMNS}) VALUES"
                  " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)")


def _insert_results(db: Connection, results: Sequence[Result], on_conflict: str = "") -> None:
    db.cursor().executemany(
        _RESULT_INSERT + on_conflict,
        [(*result_values(result)[:13], Json(result.figures)) for result in results])


def _restored(db: Connection, change: Restored) -> None:
    """Add what is not kept yet; what is (the same identity) stays as it is. A token
    already kept for another session fails the whole transaction (UniqueViolation)."""
    for kept in change.sessions:
        row = kept.row
        added = db.execute(_SESSION_INSERT + " ON CONFLICT (sid) DO NOTHING",
                           _session_values(row, kept.created, None)).rowcount
        if not added:
            continue
        _insert_tokens(db, row.sid, kept.tokens.items(), kept.forgotten)
        _insert_moves(db, row.sid, 0, kept.moves)
        if kept.series is not None:  # its place in its series comes with it, never alone
            _series_saved(db, kept.series)
    _insert_results(db, change.results, " ON CONFLICT (sid, round, seat) DO NOTHING")
    db.cursor().executemany(
        "INSERT INTO uploads (upload_id, media_type, width, height, data, created,"
        " owner, size, last_uploaded) VALUES (%s, %s, %s, %s, %s, %s, '', %s, %s)"
        " ON CONFLICT (upload_id) DO NOTHING",
        [(upload_id, picture.media_type, picture.width, picture.height, picture.data,
          change.now, len(picture.data), change.now)
         for upload_id, picture in change.pictures])


_SAVE_PROGRESS = (
    "SELECT save_progress(%s::text, %s::integer, %s::integer, %s::boolean, %s::bigint,"
    " %s::float8, %s::text, %s::text, %s::float8, %s::boolean, %s::integer[],"
    " %s::integer[], %s::integer, %s::json, %s::json, %s::text, %s::bigint, %s::integer,"
    " %s::boolean)"
)
FENCED = "PFENC"
"""The SQLSTATE save_progress raises when the writer does not hold the game's lease."""


def save_progress(db: Connection, change: ProgressSaved, lease: tuple[str, int] | None = None
                  ) -> None:
    """Write a session's progress and results with one call of the schema's function
    save_progress: inside the caller's transaction, or on an autocommit connection (a
    move's write) a transaction of its own; fenced by `lease`, the writer's (owner,
    epoch), if given."""
    progress = change.progress
    owner, epoch = lease if lease is not None else (None, None)
    db.execute(_SAVE_PROGRESS, (
        progress.sid, progress.cursor, progress.round, progress.assisted,
        progress.elapsed_ms, progress.clock_last_at, progress.status, progress.headline,
        progress.now, progress.assist, sorted(progress.assisted_seats),
        sorted(progress.assist_seats), progress.new_moves_from, Json(list(progress.new_moves)),
        Json([dict(zip(_RESULT_FIELDS, result_values(result), strict=True))
              for result in change.results]),
        owner, epoch, progress.moves_made, progress.shown_to_end))


_RESULT_FIELDS = RESULT_COLUMNS.split(", ")


def _seating_changed(db: Connection, change: SeatingChanged) -> None:
    db.cursor().executemany(
        "INSERT INTO tokens (token, sid, seats) VALUES (%s, %s, %s)"
        " ON CONFLICT (token) DO UPDATE SET seats = excluded.seats",
        [(token, change.sid, seats) for token, seats in change.holders.items()])
    db.execute("UPDATE sessions SET stand_ins = %s, revision = revision + 1 WHERE sid = %s",
               (Json({str(seat): level for seat, level in change.stand_ins.items()}),
                change.sid))


def _series_saved(db: Connection, row: SeriesRow) -> None:
    db.execute(
        "INSERT INTO series (sid, series, number, tally, next_sid, handover)"
        " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (sid) DO UPDATE SET"
        " series = excluded.series, number = excluded.number, tally = excluded.tally,"
        " next_sid = excluded.next_sid, handover = excluded.handover",
        (row.sid, row.series, row.number, Json(row.tally), row.next_sid, Json(row.handover)))


# an upload is in use while a session's game id has it as a parameter value
_UNUSED = ("NOT EXISTS (SELECT 1 FROM sessions"
           " WHERE strpos(sessions.game_id, '=' || uploads.upload_id) > 0)")


def _uploads_expired(db: Connection, now: float) -> None:
    db.execute(f"DELETE FROM uploads WHERE last_uploaded < %s AND {_UNUSED}",
               (expired_before(now),))


def _upload_saved(db: Connection, change: UploadSaved) -> None:
    picture, owner, now = change.picture, change.owner, change.now
    kept_as = picture.upload_id
    _uploads_expired(db, now)
    db.execute(
        "INSERT INTO uploads (upload_id, media_type, width, height, data, created,"
        " owner, size, last_uploaded) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (upload_id) DO UPDATE"
        " SET owner = excluded.owner, last_uploaded = excluded.last_uploaded",
        (kept_as, picture.media_type, picture.width, picture.height, picture.data, now,
         owner, len(picture.data), now))
    _make_room(db, owner, keep=kept_as)


def _make_room(db: Connection, owner: str, keep: str) -> None:
    """Drop what the quota policy says of `owner`'s uploads, all but `keep`. The owner's
    rows are locked first, so that two uploads of theirs at once count each other."""
    counted = db.execute(
        "SELECT count(*), coalesce(sum(size), 0) FROM"
        " (SELECT size FROM uploads WHERE owner = %s FOR UPDATE) AS theirs", (owner,)
    ).fetchone()
    count, size = counted if counted else (0, 0)
    if not over_quota(count, size):
        return
    unused_oldest_first = db.execute(
        f"SELECT upload_id, size FROM uploads WHERE owner = %s AND upload_id != %s"
        f" AND {_UNUSED} ORDER BY last_uploaded, created", (owner, keep)).fetchall()
    dropped = make_room(count, size, unused_oldest_first)
    db.execute("DELETE FROM uploads WHERE upload_id = ANY(%s)", (dropped,))


def _import_kept(db: Connection, change: ImportKept) -> None:
    """Expire the imports nobody opened, then keep `change.sid` as its importer's within
    their quota, dropping their oldest unopened imports to make room."""
    db.execute("DELETE FROM sessions WHERE sid IN (SELECT sid FROM imports"
               " WHERE NOT opened AND imported < %s)",
               (unopened_imports_expire_before(change.now),))
    db.execute("INSERT INTO imports (sid, importer, moves, imported) VALUES (%s, %s, %s, %s)",
               (change.sid, change.importer, change.moves, change.now))
    summed = db.execute("SELECT coalesce(sum(moves), 0) FROM imports WHERE importer = %s",
                        (change.importer,)).fetchone()
    unopened_oldest_first = db.execute(
        "SELECT sid, moves FROM imports WHERE importer = %s AND NOT opened AND sid != %s"
        " ORDER BY imported", (change.importer, change.sid)).fetchall()
    dropped = imports_to_drop(int(summed[0]) if summed else 0, unopened_oldest_first)
    db.execute("DELETE FROM sessions WHERE sid = ANY(%s)", (dropped,))


WRITES: Writes[Connection] = Writes(
    session_created=_session_created,
    progress_saved=save_progress,
    token_added=lambda db, change: db.execute(
        "INSERT INTO tokens (token, sid, seats) VALUES (%s, %s, %s)",
        (change.token, change.sid, change.seats)),
    forgotten_set=lambda db, change: db.execute(
        "UPDATE tokens SET forgotten = %s WHERE sid = %s AND token = %s",
        (change.forgotten, change.sid, change.token)),
    seating_changed=_seating_changed,
    uploads_expired=lambda db, change: _uploads_expired(db, change.now),
    upload_saved=_upload_saved,
    series_saved=lambda db, change: _series_saved(db, change.row),
    restored=_restored,
    import_kept=_import_kept,
    import_opened=lambda db, change: db.execute(
        "UPDATE imports SET opened = true WHERE sid = %s", (change.sid,)),
)
"""Each Change in PostgreSQL's SQL."""
