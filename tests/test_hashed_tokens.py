"""Seat tokens are kept as their digests (parlour.store.seat_tokens), in both stores: a
copy of the database seats no one, while every way a player comes back to a seat still
works (a seat link, the Resume list, a rematch's handover, an older backup, a database
kept before tokens were hashed)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.store import Store
from parlour.store.seat_tokens import seal, token_digest, unseal
from parlour.store.sqlite import SqliteStore
from parlour.store.sqlite.schema import BASELINE_SCHEMA, MIGRATIONS, _run_script, _tokens_hashed
from tests.support.stores import on_both_stores
from tests.test_api import auth, error_of, new_game
from tests.test_backup import a_series_of_two, backup_of, parlour_on, restore


def tokens_handed_out(client: TestClient) -> list[str]:
    """Play what hands out tokens: a game joined by its seat link, a series of two."""
    created = new_game(client, seats=["human", "open"])
    joined = client.post(f"/api/games/{created['session']}/join").json()
    assert joined["seats"] == [1]
    first, second = a_series_of_two(client)
    return [created["token"], joined["token"], first["token"], second["token"]]


def everything_kept(store: Store) -> bytes:
    """Every byte the store keeps: the SQLite file (its log too), or every row of every
    table of the PostgreSQL schema as text."""
    if isinstance(store, SqliteStore):
        files = [store.path, store.path.with_name(store.path.name + "-wal")]
        return b"".join(path.read_bytes() for path in files if path.exists())
    import psycopg

    from parlour.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    with psycopg.connect(store.url) as db:
        tables = [name for (name,) in db.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()")]
        return "".join(str(db.execute(f'SELECT string_agg(t::text, \'\') FROM "{table}" t'
                                      ).fetchone()) for table in tables).encode()


@on_both_stores
def test_no_seat_token_is_kept_only_its_digest(client: TestClient, store: Store) -> None:
    tokens = tokens_handed_out(client)
    kept = everything_kept(store)
    for token in tokens:
        assert token.encode() not in kept
    assert token_digest(tokens[0]).encode() in kept


@on_both_stores
def test_a_player_comes_back_to_their_seats_by_the_token_they_hold(
    client: TestClient, store: Store,
) -> None:
    created = new_game(client, seats=["human", "open"])
    sid = created["session"]
    joined = client.post(f"/api/games/{sid}/join").json()
    client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}},
                headers=auth(created["token"]))
    with parlour_on(reopened_store(store)) as restarted:  # read back from the store
        assert restarted.get(f"/api/games/{sid}", headers=auth(joined["token"])
                             ).json()["you"] == [1]
        held = restarted.post("/api/sessions/mine", json={"tokens": [created["token"]]})
        assert [game["session"] for game in held.json()["games"]] == [sid]
        again = restarted.post(f"/api/games/{sid}/join", headers=auth(joined["token"]))
        assert again.json()["token"] == joined["token"]  # their own, handed back
        assert restarted.get(f"/api/games/{sid}", headers=auth(token_digest(
            created["token"]))).json()["you"] == []  # a digest is no token


def reopened_store(store: Store) -> Store:
    from tests.support.stores import reopened

    return reopened(store)


def test_a_rematch_token_is_sealed_with_the_token_it_hands_over_from() -> None:
    sealed = seal("new-token-of-24-letters!", "old-token")
    assert "new-token" not in sealed
    assert unseal(sealed, "old-token") == "new-token-of-24-letters!"
    assert unseal(sealed, "another-token") != "new-token-of-24-letters!"


LINES = {"old": [{"cell": [r, c]} for r, c in ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0))],
         "new": [{"cell": [1, 1]}]}
"""The older database's games: the first won by Cross, its rematch with a move made."""


def older_sqlite_database(path: Path, version: int = MIGRATIONS.index(_tokens_hashed)
                          ) -> None:
    """A file at schema `version` with a game and its rematch, tokens in clear."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    _run_script(db, BASELINE_SCHEMA)
    for migration in MIGRATIONS[:version]:
        migration(db)
    db.execute(f"PRAGMA user_version = {version}")
    for sid, token in (("old", "old-token-0123456789"), ("new", "new-token-0123456789")):
        db.execute(
            "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor,"
            " status, created, updated) VALUES (?, 'tictactoe', 'tictactoe:standard#abc',"
            " '[\"human\", \"human\"]', 'two players', 'standard', 1, 'playing', 1, 1)",
            (sid,))
        db.executemany("INSERT INTO moves (sid, ply, move) VALUES (?, ?, ?)",
                       [(sid, ply, json.dumps(move)) for ply, move in enumerate(LINES[sid])])
        db.execute("INSERT INTO tokens (token, sid, seats) VALUES (?, ?, '[0, 1]')",
                   (token, sid))
    db.execute("UPDATE sessions SET status='won', cursor=5 WHERE sid='old'")
    db.execute("INSERT INTO series VALUES ('old', 'old', 0, '[[0,0,0],[0,0,0]]', 'new', ?)",
               (json.dumps({"old-token-0123456789": "new-token-0123456789"}),))
    db.execute("COMMIT")
    db.close()


def test_a_sqlite_database_kept_before_hashing_seats_its_players_after_migrating(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    older_sqlite_database(path)
    store = SqliteStore(path)
    with parlour_on(store) as client:
        assert_old_players_seated(client)
    assert b"old-token-0123456789" not in path.read_bytes()


def assert_old_players_seated(client: TestClient) -> None:
    view = client.get("/api/games/new", headers=auth("new-token-0123456789")).json()
    assert view["you"] == [0, 1] and view["moves"] == 1
    held = client.post("/api/sessions/mine", json={"tokens": ["new-token-0123456789"]})
    assert [game["session"] for game in held.json()["games"]] == ["new"]
    old = client.get("/api/games/old", headers=auth("old-token-0123456789")).json()
    assert old["rematch"]["next"] == {"session": "new", "token": "new-token-0123456789"}


def test_a_postgresql_database_kept_before_hashing_seats_its_players_after_migrating(
    postgres_url: str,
) -> None:
    import psycopg

    from parlour.store.postgres import PostgresStore
    from parlour.store.postgres.schema import MIGRATIONS as PG_MIGRATIONS
    from parlour.store.postgres.schema import schema_version

    with psycopg.connect(postgres_url) as db:
        schema_version(db)  # its table of versions
        PG_MIGRATIONS[0](db)
        db.execute("INSERT INTO parlour_migrations (version) VALUES (1)")
        for sid, token in (("old", "old-token-0123456789"), ("new", "new-token-0123456789")):
            db.execute(
                "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor,"
                " status, created, updated) VALUES (%s, 'tictactoe',"
                " 'tictactoe:standard#abc', '[\"human\", \"human\"]', 'two players',"
                " 'standard', 1, 'playing', 1, 1)", (sid,))
            db.cursor().executemany(
                "INSERT INTO moves (sid, ply, move) VALUES (%s, %s, %s)",
                [(sid, ply, json.dumps(move)) for ply, move in enumerate(LINES[sid])])
            db.execute("INSERT INTO tokens (token, sid, seats) VALUES (%s, %s, '{0,1}')",
                       (token, sid))
        db.execute("UPDATE sessions SET status = 'won', cursor = 5 WHERE sid = 'old'")
        db.execute("INSERT INTO series VALUES ('old', 'old', 0, '[[0,0,0],[0,0,0]]', 'new', %s)",
                   (json.dumps({"old-token-0123456789": "new-token-0123456789"}),))
    store = PostgresStore(postgres_url)
    try:
        with parlour_on(store) as client:
            assert_old_players_seated(client)
        assert b"old-token-0123456789" not in everything_kept(store)
    finally:
        store.close()


def as_version_1(data: bytes, tokens: dict[str, str]) -> bytes:
    """`data`, a backup, as Parlour wrote it before tokens were hashed: `tokens` (a game's
    session -> its player's token) in clear."""
    doc: dict[str, Any] = json.loads(data)
    doc["version"] = 1
    for game in doc["games"]:
        assert len(game["tokens"]) == 1
        game["tokens"][0]["token"] = tokens[game["session"]]
    return json.dumps(doc).encode()


def test_an_older_backup_holding_tokens_is_kept_hashed_and_hands_them_back(
    tmp_path: Path,
) -> None:
    with parlour_on(SqliteStore(tmp_path / "here.sqlite3")) as here:
        created = new_game(here, seats=["human", "human"])
        here.post(f"/api/games/{created['session']}/moves", json={"move": {"cell": [0, 0]}},
                  headers=auth(created["token"]))
        data = as_version_1(backup_of(here), {created["session"]: created["token"]})
    there = tmp_path / "there.sqlite3"
    with parlour_on(SqliteStore(there)) as client:
        report = restore(client, data).json()
        assert report["tokens"] == {created["session"]: created["token"]}
        view = client.get(f"/api/games/{created['session']}", headers=auth(created["token"]))
        assert view.json()["you"] == [0, 1]
        # what was restored is a digest too, and a backup of it holds the digest
        assert json.loads(backup_of(client))["games"][0]["tokens"][0]["token"] == (
            token_digest(created["token"]))
    assert created["token"].encode() not in there.read_bytes()


@on_both_stores
def test_a_backup_carrying_its_players_tokens_is_restored_as_digests(
    store: Store, tmp_path: Path,
) -> None:
    """The backup file is its player's own: it carries the tokens of the browser that
    asked for it, and the browser restoring it gets them back; the store keeps digests."""
    with parlour_on(SqliteStore(tmp_path / "here.sqlite3")) as here:
        tokens = tokens_handed_out(here)
        data = backup_of(here, held=tokens)
    carried = {token for token in tokens if token.encode() in data}
    assert len(carried) == 3  # one per game (the seat link's game has two tokens)
    with parlour_on(store) as there:
        handed = restore(there, data).json()["tokens"]
        assert set(handed.values()) == carried
        for sid, token in handed.items():
            assert there.get(f"/api/games/{sid}", headers=auth(token)).json()["you"]
    kept = everything_kept(store)
    for token in tokens:
        assert token.encode() not in kept
    assert token_digest(tokens[1]).encode() in kept


@pytest.mark.parametrize("token", ["a" * 24, "f" * 63])
def test_a_backup_of_digests_refuses_a_token_that_is_none(token: str, tmp_path: Path) -> None:
    with parlour_on(SqliteStore(tmp_path / "here.sqlite3")) as here:
        new_game(here, seats=["human", "human"])
        doc = json.loads(backup_of(here))
        doc["games"][0]["tokens"][0]["token"] = token
        assert "not a digest" in error_of(restore(here, json.dumps(doc).encode()), 422)
