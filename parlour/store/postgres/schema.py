"""The PostgreSQL store's schema and its migrations.

The schema is versioned apart from SQLite's: `parlour_migrations` holds a row for each
version applied (and when), and each entry of MIGRATIONS takes the schema one version
on. Opening a store (or `parlour db migrate`) applies the missing ones in one
transaction, under an advisory lock, so that several processes started together
upgrade it once; a database written by a newer Parlour is refused (NewerStore).

The tables hold what SQLite's do, in PostgreSQL's own types (json, arrays, booleans,
bytea for pictures), plus what hosting on many processes needs: `leases` names the one
process that plays each live game and the epoch of its hold, which every write of the
game's progress checks in its own transaction (parlour.store.postgres.leases);
`sessions.revision` counts those writes; `made` columns keep the order rows were added
in, which SQLite's rowid gives for free.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg.types.json import Json

from parlour.store.interface import NewerStore
from parlour.store.seat_tokens import hashed_handover

Connection = psycopg.Connection[tuple[Any, ...]]

SCHEMA_LOCK = 0x7061726C6F7572  # "parlour": the advisory lock migrations hold

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS parlour_migrations (
    version integer PRIMARY KEY,
    applied timestamptz NOT NULL DEFAULT now()
)"""

_FIRST_SCHEMA = """
CREATE TABLE sessions (
    sid text PRIMARY KEY,
    game text NOT NULL,
    game_id text NOT NULL,
    seats json NOT NULL,                -- "human" or "ai:<level>" per seat
    mode text NOT NULL,                 -- "solo", "vs AI (perfect)", "two players", ...
    preset text NOT NULL,               -- preset name, "custom" or "custom position"
    cursor integer NOT NULL DEFAULT 0,
    round integer NOT NULL DEFAULT 1,
    assisted boolean NOT NULL DEFAULT false,
    elapsed_ms bigint NOT NULL DEFAULT 0,
    clock_last_at double precision,
    status text NOT NULL DEFAULT 'playing',
    headline text NOT NULL DEFAULT '',
    created double precision NOT NULL,
    updated double precision NOT NULL,
    assist boolean NOT NULL DEFAULT false,
    stand_ins json NOT NULL DEFAULT '{}',   -- seat -> the computer's level, for who left
    assisted_seats integer[] NOT NULL DEFAULT '{}',
    assist_seats integer[] NOT NULL DEFAULT '{}',
    revision bigint NOT NULL DEFAULT 0,     -- its progress's writes: what fencing checks
    made bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX sessions_by_status ON sessions (status, updated);
CREATE TABLE moves (
    sid text NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
    ply integer NOT NULL,
    move json NOT NULL,                 -- json, not jsonb: kept as written, keys in order
    PRIMARY KEY (sid, ply)
);
CREATE TABLE tokens (
    token text PRIMARY KEY,
    sid text NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
    seats integer[] NOT NULL,           -- the seats this token moves for
    forgotten boolean NOT NULL DEFAULT false,
    made bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX tokens_by_session ON tokens (sid, made);
CREATE TABLE results (
    sid text NOT NULL,
    round integer NOT NULL,
    seat integer NOT NULL,
    seat_name text NOT NULL,            -- '' when its player held every seat
    game text NOT NULL,
    preset text NOT NULL,
    mode text NOT NULL,
    outcome text NOT NULL,              -- won, lost or draw, for that seat's player
    score integer,
    elapsed_ms bigint NOT NULL,
    moves integer NOT NULL,
    assisted boolean NOT NULL,
    finished double precision NOT NULL,
    figures json NOT NULL DEFAULT '{}', -- the game's own figures, e.g. 3BV/s
    made bigint GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (sid, round, seat)
);
CREATE INDEX results_by_group ON results (game, preset, mode, seat_name, finished);
CREATE INDEX results_by_time ON results (finished);
CREATE TABLE uploads (
    upload_id text PRIMARY KEY,         -- the start of the SHA-256 of the data
    media_type text NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    data bytea NOT NULL,
    created double precision NOT NULL,
    owner text NOT NULL DEFAULT '',     -- Client.key of who uploaded it last; '' no one's
    size integer NOT NULL,
    last_uploaded double precision NOT NULL
);
CREATE INDEX uploads_by_owner ON uploads (owner, last_uploaded);
CREATE INDEX uploads_by_last_upload ON uploads (last_uploaded);
CREATE TABLE series (
    sid text PRIMARY KEY REFERENCES sessions (sid) ON DELETE CASCADE,
    series text NOT NULL,               -- the sid of the series' first game
    number integer NOT NULL,            -- 0 for the first game
    tally json NOT NULL,                -- per player, [won, drawn, lost] before it
    next_sid text NOT NULL DEFAULT '',  -- the rematch that followed it
    handover json NOT NULL DEFAULT '{}' -- each token here -> its rematch's
);
CREATE TABLE imports (
    sid text PRIMARY KEY REFERENCES sessions (sid) ON DELETE CASCADE,
    importer text NOT NULL,             -- Client.key: a player's cookie, or an address
    moves integer NOT NULL,             -- the file's moves, the redo line included
    imported double precision NOT NULL,
    opened boolean NOT NULL DEFAULT false
);
CREATE INDEX imports_by_importer ON imports (importer, opened, imported);
CREATE INDEX imports_unopened ON imports (opened, imported);
"""


def _first_schema(db: Connection) -> None:
    """Everything SQLite's schema version 8 keeps (parlour.store.sqlite.schema); its
    tokens hashed (version 9 there) come with `_tokens_hashed`."""
    db.execute(_FIRST_SCHEMA)  # (a script of many statements: no parameters)


_LEASES = """
CREATE SEQUENCE lease_epochs;
CREATE TABLE leases (
    sid text PRIMARY KEY REFERENCES sessions (sid) ON DELETE CASCADE,
    owner text NOT NULL,       -- the process playing the game
    epoch bigint NOT NULL,     -- from lease_epochs: new at each takeover, never reused
    expires timestamptz NOT NULL
);
CREATE INDEX leases_by_owner ON leases (owner);
"""


def _leases(db: Connection) -> None:
    """Which process plays each live game, for many processes on one database."""
    db.execute(_LEASES)


def _tokens_hashed(db: Connection) -> None:
    """Seat tokens are kept as their digests, a rematch's handover sealed with the token
    it hands over from (parlour.store.seat_tokens): a copy of the database seats no one.
    (SQL's sha256 of the UTF-8 text is `token_digest`'s.)"""
    db.execute("UPDATE tokens SET token = encode(sha256(convert_to(token, 'UTF8')), 'hex')")
    for sid, handover in db.execute("SELECT sid, handover FROM series").fetchall():
        db.execute("UPDATE series SET handover = %s WHERE sid = %s",
                   (Json(hashed_handover(handover)), sid))


_SAVE_PROGRESS = """
CREATE FUNCTION save_progress(
    p_sid text, p_cursor integer, p_round integer, p_assisted boolean, p_elapsed_ms bigint,
    p_clock_last_at double precision, p_status text, p_headline text,
    p_updated double precision, p_assist boolean, p_assisted_seats integer[],
    p_assist_seats integer[], p_moves_from integer, p_moves json, p_results json,
    p_owner text, p_epoch bigint
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF p_owner IS NOT NULL THEN  -- fenced: see parlour.store.postgres.leases.check
        PERFORM 1 FROM leases WHERE sid = p_sid AND owner = p_owner AND epoch = p_epoch
            FOR SHARE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'game % is played by another process now', p_sid
                USING ERRCODE = 'PFENC';
        END IF;
    END IF;
    UPDATE sessions SET cursor = p_cursor, round = p_round, assisted = p_assisted,
        elapsed_ms = p_elapsed_ms, clock_last_at = p_clock_last_at, status = p_status,
        headline = p_headline, updated = p_updated, assist = p_assist,
        assisted_seats = p_assisted_seats, assist_seats = p_assist_seats,
        revision = revision + 1
    WHERE sid = p_sid;
    -- a saved move or clock: someone plays the game, which is kept for good if imported
    UPDATE imports SET opened = true WHERE sid = p_sid AND NOT opened;
    IF p_moves_from IS NOT NULL THEN
        DELETE FROM moves WHERE sid = p_sid AND ply >= p_moves_from;
        INSERT INTO moves (sid, ply, move)
            SELECT p_sid, p_moves_from + number::integer - 1, move
            FROM json_array_elements(p_moves) WITH ORDINALITY AS line (move, number);
    END IF;
    -- the game's results, or none while it is (again, after an undo) in play
    DELETE FROM results WHERE sid = p_sid AND round = p_round;
    INSERT INTO results (sid, round, seat, seat_name, game, preset, mode, outcome, score,
                         elapsed_ms, moves, assisted, finished, figures)
        SELECT sid, round, seat, seat_name, game, preset, mode, outcome, score,
               elapsed_ms, moves, assisted, finished, figures
        FROM json_populate_recordset(NULL::results, p_results);
END $$;
"""


def _save_progress_function(db: Connection) -> None:
    """A move's write as one call (parlour.store.postgres.writes.save_progress): one
    round trip to the server, where the statements one by one took nine."""
    db.execute(_SAVE_PROGRESS)


def _moves_made_kept(db: Connection) -> None:
    """Each session keeps its moves as the game counts them, for the Resume list (the
    sliding puzzle counts tiles moved, not clicks), and whether a solver's line played
    out ended it: two columns, and a save_progress that takes them last (version 4's,
    writing them too). Version 4's stays beside it, an overload, so that a process not
    yet upgraded saves on meanwhile (leaving the two as they were). Rows from before have
    no count: their cursor stands in until their next move."""
    db.execute("ALTER TABLE sessions ADD COLUMN moves_made integer,"
               " ADD COLUMN shown_to_end boolean NOT NULL DEFAULT false")
    db.execute(_with_moves_made(_SAVE_PROGRESS))


def _with_moves_made(function: str) -> str:
    """Version 4's save_progress made version 5's: taking and writing the two columns."""
    taking = "p_owner text, p_epoch bigint, p_moves_made integer, p_shown_to_end boolean\n"
    function = function.replace("p_owner text, p_epoch bigint\n", taking).replace(
        "revision = revision + 1",
        "revision = revision + 1, moves_made = p_moves_made, shown_to_end = p_shown_to_end")
    if function.count("p_moves_made") != 2:
        raise RuntimeError("version 4's save_progress is not as it was")
    return function


_RESULTS_REPLACED = _SAVE_PROGRESS[_SAVE_PROGRESS.index("    -- the game's results"):
                                   _SAVE_PROGRESS.index("END $$;")]
"""Version 4's and 5's results: deleted at every save, so an Undo after the end took
them back."""
_RESULTS_STAND = (
    "    -- the round's results once it ends: they stand while an Undo has it in play again\n"
    "    -- (a loss taken back is still a loss if the player restarts or leaves it) and are\n"
    "    -- replaced when it ends again\n"
    "    IF json_array_length(p_results) > 0 THEN\n"
    + textwrap.indent(_RESULTS_REPLACED.split("\n", 1)[1], "    ")
    + "    END IF;\n"
)


def _results_stand(db: Connection) -> None:
    """A round's results stand once it has ended, while an Undo has it in play again:
    both save_progress functions (version 5's and version 4's, which a process not yet
    upgraded calls) replace them only with the results of its next end."""
    for function in (_SAVE_PROGRESS, _with_moves_made(_SAVE_PROGRESS)):
        if _RESULTS_REPLACED not in function:
            raise RuntimeError("save_progress is not as it was")
        db.execute(function.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")
                   .replace(_RESULTS_REPLACED, _RESULTS_STAND))


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (
    _first_schema,  # 0 -> 1
    _leases,  # 1 -> 2
    _tokens_hashed,  # 2 -> 3
    _save_progress_function,  # 3 -> 4
    _moves_made_kept,  # 4 -> 5
    _results_stand,  # 5 -> 6
)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(db: Connection) -> int:
    """The version of the schema in `db`: 0 for an empty database."""
    db.execute(_VERSION_TABLE)
    row = db.execute("SELECT coalesce(max(version), 0) FROM parlour_migrations").fetchone()
    return int(row[0]) if row else 0


def migrate(db: Connection) -> int:
    """Bring `db`, inside the caller's transaction, to SCHEMA_VERSION; the version it
    had. Processes that open the store together wait for each other's upgrade."""
    db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
    version = schema_version(db)
    if version > SCHEMA_VERSION:
        raise NewerStore(
            f"this database has schema version {version}, written by a newer Parlour"
            f" (this one reads up to {SCHEMA_VERSION}): upgrade Parlour, or use another"
            " --database"
        )
    for number, migration in enumerate(MIGRATIONS[version:], start=version + 1):
        migration(db)
        db.execute("INSERT INTO parlour_migrations (version) VALUES (%s)", (number,))
    return version
