"""SQLite store: sessions, their moves, seat tokens and finished-game results.

One file, in WAL mode with synchronous=FULL: a move is on disk when `save` returns,
which the server waits for before it acknowledges the move.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from parlour.core.game import JSON
from parlour.uploads import Picture

SCHEMA = """
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
    updated REAL NOT NULL
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
    new_moves_from: int | None = None  # the line is cut here and `new_moves` appended
    new_moves: Sequence[JSON] = ()


@dataclass(frozen=True)
class Result:
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


class Store:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

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
        with self._transaction() as db:
            db.execute(
                "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, round,"
                " assisted, elapsed_ms, clock_last_at, status, headline, created, updated)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.sid, row.game, row.game_id, json.dumps(row.seats), row.mode, row.preset,
                 row.cursor, row.round, int(row.assisted), row.elapsed_ms, row.clock_last_at,
                 row.status, row.headline, now, row.updated),
            )
            db.executemany(
                "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)",
                [(token, row.sid, json.dumps(seats)) for token, seats in tokens.items()],
            )

    def load_session(self, sid: str) -> tuple[SessionRow, list[JSON]] | None:
        found = self.db.execute(
            "SELECT sid, game, game_id, seats, mode, preset, cursor, round, assisted,"
            " elapsed_ms, clock_last_at, status, headline, updated FROM sessions WHERE sid=?",
            (sid,),
        ).fetchone()
        if found is None:
            return None
        values = list(found)
        values[3] = json.loads(values[3])
        values[8] = bool(values[8])
        moves = [
            json.loads(text)
            for (text,) in self.db.execute(
                "SELECT move FROM moves WHERE sid=? ORDER BY ply", (sid,)
            )
        ]
        return SessionRow(*values), moves

    def save(self, progress: Progress, result: Result | None = None) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE sessions SET cursor=?, round=?, assisted=?, elapsed_ms=?,"
                " clock_last_at=?, status=?, headline=?, updated=? WHERE sid=?",
                (progress.cursor, progress.round, int(progress.assisted), progress.elapsed_ms,
                 progress.clock_last_at, progress.status, progress.headline, progress.now,
                 progress.sid),
            )
            if progress.new_moves_from is not None:
                start = progress.new_moves_from
                db.execute("DELETE FROM moves WHERE sid=? AND ply>=?", (progress.sid, start))
                db.executemany(
                    "INSERT INTO moves (sid, ply, move) VALUES (?,?,?)",
                    [
                        (progress.sid, start + i, json.dumps(move))
                        for i, move in enumerate(progress.new_moves)
                    ],
                )
            # the game's result, or none while it is (again, after an undo) in play
            db.execute("DELETE FROM results WHERE sid=? AND round=?",
                       (progress.sid, progress.round))
            if result is not None:
                db.execute(
                    "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (result.sid, result.round, result.game, result.preset, result.mode,
                     result.outcome, result.score, result.elapsed_ms, result.moves,
                     int(result.assisted), result.finished, json.dumps(result.figures)),
                )

    def unfinished(self, limit: int = 20) -> list[SessionRow]:
        sids = [
            sid
            for (sid,) in self.db.execute(
                "SELECT sid FROM sessions WHERE status='playing' AND cursor>0"
                " ORDER BY updated DESC LIMIT ?",
                (limit,),
            )
        ]
        return [loaded[0] for sid in sids if (loaded := self.load_session(sid))]

    # -- seat tokens ----------------------------------------------------------------
    def tokens(self, sid: str) -> dict[str, list[int]]:
        return {
            token: json.loads(seats)
            for token, seats in self.db.execute(
                "SELECT token, seats FROM tokens WHERE sid=? ORDER BY rowid", (sid,)
            )
        }

    def add_token(self, sid: str, token: str, seats: list[int]) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tokens (token, sid, seats) VALUES (?,?,?)",
                (token, sid, json.dumps(seats)),
            )

    # -- uploaded pictures ----------------------------------------------------------
    def save_upload(self, picture: Picture, now: float) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO uploads VALUES (?,?,?,?,?,?)",
                (picture.upload_id, picture.media_type, picture.width, picture.height,
                 picture.data, now),
            )

    def load_upload(self, upload_id: str) -> Picture | None:
        found = self.db.execute(
            "SELECT media_type, width, height, data FROM uploads WHERE upload_id=?",
            (upload_id,),
        ).fetchone()
        return None if found is None else Picture(*found)

    # -- results --------------------------------------------------------------------
    def results(self, game: str | None = None) -> list[Result]:
        query = "SELECT * FROM results"
        args: tuple[str, ...] = ()
        if game is not None:
            query += " WHERE game=?"
            args = (game,)
        rows = self.db.execute(query + " ORDER BY finished", args).fetchall()
        return [
            Result(
                sid=row[0], round=row[1], game=row[2], preset=row[3], mode=row[4],
                outcome=row[5], score=row[6], elapsed_ms=row[7], moves=row[8],
                assisted=bool(row[9]), finished=row[10], figures=json.loads(row[11]),
            )
            for row in rows
        ]
