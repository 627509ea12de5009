"""SQLite store: sessions, their moves, seat tokens and finished-game results.

One file, in WAL mode. The server acknowledges a move once `commit` returns, which
depends on the sync setting (`parlour --sync`):

- "normal" (the default): the move is written to the operating system at once (a tenth
  of a millisecond), so it survives the server being killed; a thread of its own flushes
  it to the disk within `CHECKPOINT_SECONDS`, so a power cut or a crash of the system may
  lose the last second of moves (never the database: SQLite keeps it whole).
- "full": the move is flushed to the disk before `commit` returns, by a writer thread that
  commits every waiting change with one flush; it survives a power cut too, and costs a
  flush per move on the reply's path: 1.6 ms median, 6.4 ms at the 95th percentile on
  the test machine, tens of milliseconds when the disk is busy (bench/click_latency.py
  --parts, "commit").

The schema is versioned (`PRAGMA user_version`): version 0 is BASELINE_SCHEMA, and each
entry of MIGRATIONS takes it one version on. Opening a store applies the missing ones
in one transaction, so a player's games and statistics survive every upgrade.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from parlour.core.game import JSON
from parlour.uploads import BadUpload, Picture, check_picture

# Version 0: the schema before it was versioned. Never edit it: add a migration.
BASELINE_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    sid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seats TEXT NOT NULL,            -- JSON list: "human" or "ai:<level>" per seat
    mode TEXT NOT NULL,             -- "solo", "vs AI (perfect)", "two players", ...
    preset TEXT NOT NULL,           -- preset name, or "custom"
    cursor INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 1,
    assisted INTEGER NOT NULL DEFAULT 0,
    elapsed_ms INTEGER NOT NULL DEFAULT 0,
    clock_last_at REAL,
    status TEXT NOT NULL DEFAULT 'playing',
    headline TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    assist INTEGER NOT NULL DEFAULT 0   -- the game's assist switch (e.g. Ishido's) is on
);
CREATE INDEX IF NOT EXISTS sessions_by_status ON sessions (status, updated);
CREATE TABLE IF NOT EXISTS moves (
    sid TEXT NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (sid, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY,
    sid TEXT NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
    seats TEXT NOT NULL             -- JSON list of seat numbers this token moves for
);
CREATE INDEX IF NOT EXISTS tokens_by_session ON tokens (sid);
CREATE TABLE IF NOT EXISTS results (
    sid TEXT NOT NULL,
    round INTEGER NOT NULL,
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    mode TEXT NOT NULL,
    outcome TEXT NOT NULL,          -- won, lost or draw, for the player who started it
    score INTEGER,
    elapsed_ms INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    assisted INTEGER NOT NULL,
    finished REAL NOT NULL,
    figures TEXT NOT NULL DEFAULT '{}',  -- JSON: the game's own figures, e.g. 3BV/s
    PRIMARY KEY (sid, round)
);
CREATE INDEX IF NOT EXISTS results_by_game ON results (game, finished);
CREATE TABLE IF NOT EXISTS uploads (
    upload_id TEXT PRIMARY KEY,     -- the start of the SHA-256 of the data
    media_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    data BLOB NOT NULL,
    created REAL NOT NULL
);
"""

UPLOADS_PER_OWNER = 20
UPLOAD_MIB_PER_OWNER = 32
UNUSED_UPLOAD_LIFETIME = 24 * 3600.0  # seconds an upload no game uses is kept


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Each statement of `script` in the caller's transaction (executescript commits)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _uploads_get_owner_size_and_last_upload(db: sqlite3.Connection) -> None:
    # owner '' is for pictures uploaded before owners were kept: no one's quota
    _run_script(db, """
        ALTER TABLE uploads ADD COLUMN owner TEXT NOT NULL DEFAULT '';
        ALTER TABLE uploads ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE uploads ADD COLUMN last_uploaded REAL NOT NULL DEFAULT 0;
        UPDATE uploads SET size = length(data), last_uploaded = created;
        CREATE INDEX uploads_by_owner ON uploads (owner, last_uploaded);
        CREATE INDEX uploads_by_last_upload ON uploads (last_uploaded);
    """)


def _legacy_pictures_rechecked(db: sqlite3.Connection) -> None:
    """Pictures kept before uploads were decoded may be damaged or decode bombs: each is
    re-encoded like a new upload, under the id games already refer to, or dropped."""
    upload_ids = [upload_id for (upload_id,) in db.execute("SELECT upload_id FROM uploads")]
    for upload_id in upload_ids:
        (data,) = db.execute(
            "SELECT data FROM uploads WHERE upload_id=?", (upload_id,)
        ).fetchone()
        try:
            picture = check_picture(data)
        except BadUpload:
            db.execute("DELETE FROM uploads WHERE upload_id=?", (upload_id,))
            continue
        db.execute(
            "UPDATE uploads SET media_type=?, width=?, height=?, data=?, size=?"
            " WHERE upload_id=?",
            (picture.media_type, picture.width, picture.height, picture.data,
             len(picture.data), upload_id),
        )


def _seats_apart(db: sqlite3.Connection) -> None:
    """Sessions keep the computer standing in for players who left; results are kept
    per seat (every human's, not only the starter's). A result saved before is the
    starter's: the lowest seat of the session's first token."""
    _run_script(db, """
        ALTER TABLE sessions ADD COLUMN stand_ins TEXT NOT NULL DEFAULT '{}';
        CREATE TABLE results_per_seat (
            sid TEXT NOT NULL,
            round INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            seat_name TEXT NOT NULL,    -- '' when its player held every seat
            game TEXT NOT NULL,
            preset TEXT NOT NULL,
            mode TEXT NOT NULL,
            outcome TEXT NOT NULL,      -- won, lost or draw, for that seat's player
            score INTEGER,
            elapsed_ms INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            assisted INTEGER NOT NULL,
            finished REAL NOT NULL,
            figures TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (sid, round, seat)
        );
        INSERT INTO results_per_seat
            SELECT r.sid, r.round,
                coalesce((SELECT min(seat.value) FROM json_each((
                    SELECT t.seats FROM tokens t WHERE t.sid = r.sid ORDER BY t.rowid LIMIT 1
                )) AS seat), 0),
                '', r.game, r.preset, r.mode, r.outcome, r.score, r.elapsed_ms, r.moves,
                r.assisted, r.finished, r.figures
            FROM results r;
        DROP TABLE results;
        ALTER TABLE results_per_seat RENAME TO results;
        CREATE INDEX results_by_game ON results (game, finished);
    """)


def _tokens_may_forget(db: sqlite3.Connection) -> None:
    """A player may take an unfinished game off their Resume list (their token's)."""
    db.execute("ALTER TABLE tokens ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _uploads_get_owner_size_and_last_upload,  # 0 -> 1
    _legacy_pictures_rechecked,  # 1 -> 2
    _seats_apart,  # 2 -> 3
    _tokens_may_forget,  # 3 -> 4
)
SCHEMA_VERSION = len(MIGRATIONS)


class NewerStore(RuntimeError):
    """The database was written by a newer Parlour, whose schema this one cannot read."""


def migrate(db: sqlite3.Connection) -> None:
    """Bring `db`, inside the caller's transaction, to SCHEMA_VERSION: a new file gets
    the baseline and every migration, an older one just those it lacks."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise NewerStore(
            f"this database has schema version {version}, written by a newer Parlour"
            f" (this one reads up to {SCHEMA_VERSION}): upgrade Parlour, or use another --db"
        )
    if version == SCHEMA_VERSION:
        return
    if version == 0:
        _run_script(db, BASELINE_SCHEMA)  # IF NOT EXISTS: a file from before versioning too
    for migration in MIGRATIONS[version:]:
        migration(db)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def default_path() -> Path:
    configured = os.environ.get("PARLOUR_DB")
    if configured:
        return Path(configured)
    return Path(platformdirs.user_data_dir("parlour", appauthor=False)) / "parlour.sqlite3"


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


Change = Callable[[sqlite3.Connection], None]
"""A write to the store, run inside a transaction."""


def session_created(
    row: SessionRow, tokens: dict[str, list[int]], now: float, moves: Sequence[JSON] = ()
) -> Change:
    """A new session; `moves`: its line, when it starts with one (an imported game)."""

    def write(db: sqlite3.Connection) -> None:
        db.execute(
            "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, round,"
            " assisted, elapsed_ms, clock_last_at, status, headline, created, updated,"
            " assist) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row.sid, row.game, row.game_id, json.dumps(row.seats), row.mode, row.preset,
             row.cursor, row.round, int(row.assisted), row.elapsed_ms, row.clock_last_at,
             row.status, row.headline, now, row.updated, int(row.assist)),
        )
        db.executemany(
            "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)",
            [(token, row.sid, json.dumps(seats)) for token, seats in tokens.items()],
        )
        _insert_moves(db, row.sid, 0, moves)

    return write


def _insert_moves(db: sqlite3.Connection, sid: str, start: int, moves: Sequence[JSON]) -> None:
    db.executemany(
        "INSERT INTO moves (sid, ply, move) VALUES (?,?,?)",
        [(sid, start + i, json.dumps(move)) for i, move in enumerate(moves)],
    )


def together(*changes: Change) -> Change:
    """One change made of `changes`, written in order in the same transaction."""

    def write(db: sqlite3.Connection) -> None:
        for change in changes:
            change(db)

    return write


def progress_saved(progress: Progress, results: Sequence[Result] = ()) -> Change:
    """The session's new position, and its results if it is over (one per player)."""

    def write(db: sqlite3.Connection) -> None:
        db.execute(
            "UPDATE sessions SET cursor=?, round=?, assisted=?, elapsed_ms=?,"
            " clock_last_at=?, status=?, headline=?, updated=?, assist=? WHERE sid=?",
            (progress.cursor, progress.round, int(progress.assisted), progress.elapsed_ms,
             progress.clock_last_at, progress.status, progress.headline, progress.now,
             int(progress.assist), progress.sid),
        )
        if progress.new_moves_from is not None:
            start = progress.new_moves_from
            db.execute("DELETE FROM moves WHERE sid=? AND ply>=?", (progress.sid, start))
            _insert_moves(db, progress.sid, start, progress.new_moves)
        # the game's results, or none while it is (again, after an undo) in play
        db.execute(
            "DELETE FROM results WHERE sid=? AND round=?", (progress.sid, progress.round)
        )
        db.executemany(
            f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(r.sid, r.round, r.seat, r.seat_name, r.game, r.preset, r.mode, r.outcome,
              r.score, r.elapsed_ms, r.moves, int(r.assisted), r.finished,
              json.dumps(r.figures)) for r in results],
        )

    return write


_RESULT_COLUMNS = ("sid, round, seat, seat_name, game, preset, mode, outcome, score,"
                   " elapsed_ms, moves, assisted, finished, figures")


def token_added(sid: str, token: str, seats: list[int]) -> Change:
    def write(db: sqlite3.Connection) -> None:
        db.execute(
            "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)",
            (token, sid, json.dumps(seats)),
        )

    return write


def forgotten_set(sid: str, token: str, forgotten: bool) -> Change:
    """Take the game off the Resume list of `token`'s player, or put it back."""

    def write(db: sqlite3.Connection) -> None:
        db.execute("UPDATE tokens SET forgotten=? WHERE sid=? AND token=?",
                   (int(forgotten), sid, token))

    return write


def seating_changed(
    sid: str, holders: dict[str, list[int]], stand_ins: dict[int, str]
) -> Change:
    """Who holds which seat now (`holders`: the tokens that changed, added if new; a
    token that left every seat is kept, so its browser may take a seat again) and which
    seats the computer plays for a player who left."""

    def write(db: sqlite3.Connection) -> None:
        db.executemany(
            "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)"
            " ON CONFLICT (token) DO UPDATE SET seats=excluded.seats",
            [(token, sid, json.dumps(seats)) for token, seats in holders.items()],
        )
        db.execute("UPDATE sessions SET stand_ins=? WHERE sid=?",
                   (json.dumps(stand_ins), sid))

    return write


class OverQuota(Exception):
    """The uploader's pictures in saved games already fill their quota."""


# an upload is in use while a session's game id has it as a parameter value
_UNUSED = (
    "NOT EXISTS (SELECT 1 FROM sessions"
    " WHERE instr(sessions.game_id, '=' || uploads.upload_id) > 0)"
)


def uploads_expired(now: float) -> Change:
    """Drop the uploads no game uses that were last uploaded over a day before `now`."""

    def write(db: sqlite3.Connection) -> None:
        db.execute(
            f"DELETE FROM uploads WHERE last_uploaded < ? AND {_UNUSED}",
            (now - UNUSED_UPLOAD_LIFETIME,),
        )

    return write


def upload_saved(
    picture: Picture, owner: str, now: float, upload_id: str | None = None
) -> Change:
    """Keep `picture` for `owner` (the uploader's address), first expiring old uploads.
    `upload_id`: the id to keep it under, when a game already names it (an imported
    game's picture, re-encoded here, keeps the id its game id holds); an upload already
    kept under that id stays as it is.

    A picture belongs to whoever uploaded it last. Each owner keeps at most
    UPLOADS_PER_OWNER pictures and UPLOAD_MIB_PER_OWNER MiB: a new one makes room by
    dropping that owner's least recently uploaded pictures that no game uses, as a player
    expects a new picture to just work. Pictures in saved games are never dropped, so
    when those alone fill the quota the upload raises OverQuota and nothing changes.
    """

    kept_as = upload_id or picture.upload_id

    def write(db: sqlite3.Connection) -> None:
        uploads_expired(now)(db)
        db.execute(
            "INSERT INTO uploads (upload_id, media_type, width, height, data, created,"
            " owner, size, last_uploaded) VALUES (?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT (upload_id) DO UPDATE"
            " SET owner=excluded.owner, last_uploaded=excluded.last_uploaded",
            (kept_as, picture.media_type, picture.width, picture.height,
             picture.data, now, owner, len(picture.data), now),
        )
        _make_room(db, owner, keep=kept_as)

    return write


def _make_room(db: sqlite3.Connection, owner: str, keep: str) -> None:
    count, size = db.execute(
        "SELECT count(*), coalesce(sum(size), 0) FROM uploads WHERE owner=?", (owner,)
    ).fetchone()
    max_size = UPLOAD_MIB_PER_OWNER * 2**20

    def over() -> bool:
        return bool(count > UPLOADS_PER_OWNER or size > max_size)

    if not over():
        return
    unused_oldest_first = db.execute(
        f"SELECT upload_id, size FROM uploads WHERE owner=? AND upload_id!=? AND {_UNUSED}"
        " ORDER BY last_uploaded, created",
        (owner, keep),
    ).fetchall()
    for upload_id, dropped_size in unused_oldest_first:
        if not over():
            return
        db.execute("DELETE FROM uploads WHERE upload_id=?", (upload_id,))
        count, size = count - 1, size - dropped_size
    if over():
        raise OverQuota(
            f"your saved games already use the most pictures Parlour keeps for one player"
            f" ({UPLOADS_PER_OWNER} pictures, {UPLOAD_MIB_PER_OWNER} MiB), so this one was"
            f" not kept: start your game with a picture you uploaded before"
        )


SYNC_MODES = ("normal", "full")  # the first is the default
CHECKPOINT_SECONDS = 1.0  # with sync "normal": how long a move may wait for its flush


def connect(path: Path | str, sync: str) -> sqlite3.Connection:
    if sync not in SYNC_MODES:
        raise ValueError(f"sync is one of {', '.join(SYNC_MODES)}, not {sync!r}")
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={sync.upper()}")
    if sync == "normal":  # the Checkpointer's thread flushes: never a commit on the loop
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("PRAGMA busy_timeout=10000")
    db.execute("PRAGMA foreign_keys=ON")
    return db


class Store:
    """Reads and writes on the caller's thread, except a sync "full" store's `commit`:
    a writer thread commits every change waiting in one transaction, so that many players'
    moves share one disk flush and the event loop never waits on the disk (a sync
    "normal" store's flushes are the Checkpointer's)."""

    def __init__(self, path: Path | str, sync: str = SYNC_MODES[0]) -> None:
        self.path = Path(path)
        self.sync = sync  # "full" or "normal": see the module's docstring
        self.in_memory = str(path) == ":memory:"
        if not self.in_memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = connect(path, sync)
        self._writer: GroupCommitter | None = None
        self._checkpointer = (
            Checkpointer(self.path) if sync == "normal" and not self.in_memory else None
        )
        self.write(migrate)
        self.expire_uploads(time.time())  # as on each upload: also after a long pause

    def close(self) -> None:
        if self._writer is not None:
            self._writer.stop()
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.db.close()

    def write(self, change: Change) -> None:
        """Make `change` durable now, in its own transaction."""
        with self._transaction() as db:
            change(db)

    async def commit(self, change: Change) -> None:
        """Make `change` durable; returns once it is on disk (with sync "normal", once the
        system has it, to be flushed by the Checkpointer). Raises what it raised."""
        if self.in_memory or self.sync == "normal":
            # no flush to wait for: written here at once (a tenth of a millisecond), not
            # handed to the writer thread and back, which costs more on a busy machine
            self.write(change)
            return
        if self._writer is None:
            self._writer = GroupCommitter(self.path)
        await asyncio.wrap_future(self._writer.submit(change))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- sessions -----------------------------------------------------------------
    def create_session(
        self, row: SessionRow, tokens: dict[str, list[int]], now: float
    ) -> None:
        self.write(session_created(row, tokens, now))

    def load_session(self, sid: str) -> tuple[SessionRow, list[JSON]] | None:
        row = self.session_row(sid)
        if row is None:
            return None
        moves = [
            json.loads(text)
            for (text,) in self.db.execute(
                "SELECT move FROM moves WHERE sid=? ORDER BY ply", (sid,)
            )
        ]
        return row, moves

    def session_row(self, sid: str) -> SessionRow | None:
        """A session without its moves."""
        found = self.db.execute(
            "SELECT sid, game, game_id, seats, mode, preset, cursor, round, assisted,"
            " elapsed_ms, clock_last_at, status, headline, updated, assist, stand_ins"
            " FROM sessions WHERE sid=?",
            (sid,),
        ).fetchone()
        if found is None:
            return None
        values = list(found)
        values[3] = json.loads(values[3])
        values[8] = bool(values[8])
        values[14] = bool(values[14])
        values[15] = {int(seat): level for seat, level in json.loads(values[15]).items()}
        return SessionRow(*values)

    def save(self, progress: Progress, *results: Result) -> None:
        self.write(progress_saved(progress, results))

    def unfinished(self, limit: int = 20) -> list[SessionRow]:
        sids = [
            sid
            for (sid,) in self.db.execute(
                "SELECT sid FROM sessions WHERE status='playing' AND cursor>0"
                " ORDER BY updated DESC LIMIT ?",
                (limit,),
            )
        ]
        return [row for sid in sids if (row := self.session_row(sid))]

    def held_unfinished(self, tokens: Sequence[str]) -> list[tuple[str, list[int]]]:
        """The unfinished games (with a move made) in which one of `tokens` holds a seat
        and has not taken the game off its Resume list, most recent first: (sid, seats)."""
        if not tokens:
            return []
        marks = ",".join("?" * len(tokens))
        return [
            (sid, json.loads(seats))
            for sid, seats in self.db.execute(
                "SELECT s.sid, t.seats FROM tokens t JOIN sessions s ON s.sid = t.sid"
                f" WHERE t.token IN ({marks}) AND t.forgotten = 0 AND t.seats != '[]'"
                " AND s.status = 'playing' AND s.cursor > 0 ORDER BY s.updated DESC",
                tuple(tokens),
            )
        ]

    # -- seat tokens ----------------------------------------------------------------
    def tokens(self, sid: str) -> dict[str, list[int]]:
        return {
            token: json.loads(seats)
            for token, seats in self.db.execute(
                "SELECT token, seats FROM tokens WHERE sid=? ORDER BY rowid", (sid,)
            )
        }

    def add_token(self, sid: str, token: str, seats: list[int]) -> None:
        self.write(token_added(sid, token, seats))

    # -- uploaded pictures ----------------------------------------------------------
    def save_upload(self, picture: Picture, owner: str, now: float) -> None:
        """Keep `picture` for `owner`; raises OverQuota (see `upload_saved`)."""
        self.write(upload_saved(picture, owner, now))

    def expire_uploads(self, now: float) -> None:
        self.write(uploads_expired(now))

    def load_upload(self, upload_id: str) -> Picture | None:
        found = self.db.execute(
            "SELECT media_type, width, height, data FROM uploads WHERE upload_id=?",
            (upload_id,),
        ).fetchone()
        return None if found is None else Picture(*found)

    # -- results --------------------------------------------------------------------
    def results(self, game: str | None = None) -> list[Result]:
        query = f"SELECT {_RESULT_COLUMNS} FROM results"
        args: tuple[str, ...] = ()
        if game is not None:
            query += " WHERE game=?"
            args = (game,)
        rows = self.db.execute(query + " ORDER BY finished, seat", args).fetchall()
        return [
            Result(
                sid=row[0], round=row[1], seat=row[2], seat_name=row[3], game=row[4],
                preset=row[5], mode=row[6], outcome=row[7], score=row[8],
                elapsed_ms=row[9], moves=row[10], assisted=bool(row[11]),
                finished=row[12], figures=json.loads(row[13]),
            )
            for row in rows
        ]


class Checkpointer:
    """A thread with its own connection that flushes a sync "normal" store to the disk
    every CHECKPOINT_SECONDS: a passive checkpoint, which never blocks a writer, moves
    the commits since the last one from the write-ahead log into the database and flushes
    both (the work a commit would otherwise do on the event loop now and then)."""

    def __init__(self, path: Path, every: float = CHECKPOINT_SECONDS) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(path, every), name="parlour-store-checkpointer", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)

    def _run(self, path: Path, every: float) -> None:
        db = connect(path, "full")  # (a checkpoint flushes in either mode)
        try:
            while not self._stopping.wait(every):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # what came before the stop
        finally:
            db.close()


class GroupCommitter:
    """A thread with its own connection that commits waiting changes in batches.

    Each change runs in a savepoint, so one that fails is undone alone and reported to
    its caller; the batch then commits with one flush to disk for all the others.
    """

    def __init__(self, path: Path) -> None:
        self._queue: queue.SimpleQueue[tuple[Change, Future[None]] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(
            target=self._run, args=(path,), name="parlour-store-writer", daemon=True
        )
        self._thread.start()

    def submit(self, change: Change) -> Future[None]:
        done: Future[None] = Future()
        self._queue.put((change, done))
        return done

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self, path: Path) -> None:
        db = connect(path, "full")  # only a "full" store hands its commits to this thread
        try:
            while (first := self._queue.get()) is not None:
                batch = [first]
                stopping = False
                while not self._queue.empty():
                    waiting = self._queue.get()
                    if waiting is None:
                        stopping = True
                        break
                    batch.append(waiting)
                self._commit(db, batch)
                if stopping:
                    break
        finally:
            db.close()

    @staticmethod
    def _commit(db: sqlite3.Connection, batch: list[tuple[Change, Future[None]]]) -> None:
        errors: list[BaseException | None] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for change, _ in batch:
                db.execute("SAVEPOINT change")
                try:
                    change(db)
                    errors.append(None)
                except Exception as error:
                    db.execute("ROLLBACK TO change")
                    errors.append(error)
                db.execute("RELEASE change")
            db.execute("COMMIT")
        except Exception as failure:
            if db.in_transaction:
                db.execute("ROLLBACK")
            errors = [failure] * len(batch)
        for (_, done), outcome in zip(batch, errors, strict=True):
            if outcome is None:
                done.set_result(None)
            else:
                done.set_exception(outcome)
