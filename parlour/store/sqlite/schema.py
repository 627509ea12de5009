"""The SQLite store's schema and its migrations.

The schema is versioned (`PRAGMA user_version`): version 0 is BASELINE_SCHEMA, and each
entry of MIGRATIONS takes it one version on. Opening a store applies the missing ones
in one transaction, so a player's games and statistics survive every upgrade.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from parlour.store.interface import NewerStore
from parlour.store.pictures import BadUpload, check_picture
from parlour.store.seat_tokens import hashed_handover, token_digest

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


def _help_per_seat(db: sqlite3.Connection) -> None:
    """Help is each player's own: a session keeps which seats used help and which have
    the assist switch on. A game saved before counted help for everyone: every seat."""
    _run_script(db, """
        ALTER TABLE sessions ADD COLUMN assisted_seats TEXT NOT NULL DEFAULT '[]';
        ALTER TABLE sessions ADD COLUMN assist_seats TEXT NOT NULL DEFAULT '[]';
        UPDATE sessions SET assisted_seats =
            (SELECT json_group_array(seat.key) FROM json_each(sessions.seats) AS seat)
            WHERE assisted != 0;
        UPDATE sessions SET assist_seats =
            (SELECT json_group_array(seat.key) FROM json_each(sessions.seats) AS seat)
            WHERE assist != 0;
    """)


def _series_of_rematches(db: sqlite3.Connection) -> None:
    """Games follow one another in a series (Rematch): each rematch's place in it, the
    score of the games before it, and the rematch that followed a game. Games saved
    before have no row: each is a series of its own."""
    db.execute("""
        CREATE TABLE series (
            sid TEXT PRIMARY KEY REFERENCES sessions (sid) ON DELETE CASCADE,
            series TEXT NOT NULL,           -- the sid of the series' first game
            number INTEGER NOT NULL,        -- 0 for the first game
            tally TEXT NOT NULL,            -- JSON: per player, [won, drawn, lost] before it
            next_sid TEXT NOT NULL DEFAULT '',  -- the rematch that followed it
            handover TEXT NOT NULL DEFAULT '{}' -- JSON: each token here -> its rematch's
        ) WITHOUT ROWID
    """)


def _results_filed_apart(db: sqlite3.Connection) -> None:
    """Results of a start position the player gave (an id without a '#seed') are filed
    apart (`parlour.core.gameid.FILED_APART`); the statistics read a group's latest
    results, and the past games the latest results, by an index."""
    _run_script(db, """
        UPDATE sessions SET preset = 'custom position' WHERE instr(game_id, '#') = 0;
        UPDATE results SET preset = 'custom position'
            WHERE sid IN (SELECT sid FROM sessions WHERE instr(game_id, '#') = 0);
        CREATE INDEX results_by_group ON results (game, preset, mode, seat_name, finished);
        CREATE INDEX results_by_time ON results (finished);
    """)


def _imports_kept_apart(db: sqlite3.Connection) -> None:
    """Games imported from a file are their importer's, within a quota of moves, until
    a page of theirs opens them; those nobody opens expire (parlour.store.quota). Games
    imported before are kept as opened."""
    _run_script(db, """
        CREATE TABLE imports (
            sid TEXT PRIMARY KEY REFERENCES sessions (sid) ON DELETE CASCADE,
            importer TEXT NOT NULL,         -- Client.key: a player's cookie, or an address
            moves INTEGER NOT NULL,         -- the file's moves, the redo line included
            imported REAL NOT NULL,
            opened INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE INDEX imports_by_importer ON imports (importer, opened, imported);
        CREATE INDEX imports_unopened ON imports (opened, imported)
    """)


def _tokens_hashed(db: sqlite3.Connection) -> None:
    """Seat tokens are kept as their digests, a rematch's handover sealed with the token
    it hands over from (parlour.store.seat_tokens): a copy of the file seats no one.
    secure_delete: the pages the tokens leave are zeroed, not left in the file."""
    (secure_delete,) = db.execute("PRAGMA secure_delete").fetchone()
    db.execute("PRAGMA secure_delete = ON")
    kept = db.execute("SELECT rowid, token FROM tokens").fetchall()
    db.executemany("UPDATE tokens SET token=? WHERE rowid=?",
                   [(token_digest(token), rowid) for rowid, token in kept])
    for sid, handover in db.execute("SELECT sid, handover FROM series").fetchall():
        db.execute("UPDATE series SET handover=? WHERE sid=?",
                   (json.dumps(hashed_handover(json.loads(handover))), sid))
    db.execute(f"PRAGMA secure_delete = {int(secure_delete)}")


def _moves_made_kept(db: sqlite3.Connection) -> None:
    """Each session keeps its moves as the game counts them, for the Resume list (the
    sliding puzzle counts tiles moved, not clicks), and whether a solver's line played
    out ended it (its result filed apart, through an Undo and a Redo, after a restart
    too). Rows from before have no count: their cursor stands in until their next move."""
    db.execute("ALTER TABLE sessions ADD COLUMN moves_made INTEGER")
    db.execute("ALTER TABLE sessions ADD COLUMN shown_to_end INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _uploads_get_owner_size_and_last_upload,  # 0 -> 1
    _legacy_pictures_rechecked,  # 1 -> 2
    _seats_apart,  # 2 -> 3
    _tokens_may_forget,  # 3 -> 4
    _help_per_seat,  # 4 -> 5
    _series_of_rematches,  # 5 -> 6
    _results_filed_apart,  # 6 -> 7
    _imports_kept_apart,  # 7 -> 8
    _tokens_hashed,  # 8 -> 9
    _moves_made_kept,  # 9 -> 10
)
SCHEMA_VERSION = len(MIGRATIONS)


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

