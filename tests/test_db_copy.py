"""`parlour db copy`: a home SQLite file copied into a PostgreSQL database and back reads
the same through every read of the Store, plays on from the same positions, and a copy
that would clash, or cannot start, says why and writes nothing. Against real stores."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import psycopg  # the hosted extra, which the dev extra installs
import pytest

from parlour import cli
from parlour.store import Store
from parlour.store.postgres import SCHEMA_VERSION, PostgresStore
from parlour.store.sqlite import SqliteStore
from tests.test_api import auth
from tests.test_backup import a_series_of_two, parlour_on, some_games, views_of


def every_read(store: Store, sids: list[str], pictures: list[str]) -> dict[str, Any]:
    """What each read of the Store gives of the games copied."""
    tokens = [token for kept in store.kept_sessions() for token in kept.tokens]
    return {
        "kept": store.kept_sessions(), "results": store.results(),
        "game ids": store.result_game_ids(), "unfinished": store.unfinished(),
        "held": store.held_unfinished(tokens), "latest": store.latest_results(None, 50),
        "statistics": dataclasses.replace(store.stat_reading(None, 40, 1000), version=()),
        "daily starts": store.daily_starts(), "daily results": store.daily_results(),
        "sessions": [store.load_session(sid) for sid in sids],
        "series": [store.series(sid) for sid in sids],
        "tokens": [store.tokens(sid) for sid in sids],
        "pictures": [store.load_upload(upload) for upload in pictures],
        "identities": store.identities(sids, tokens, pictures),
    }


def test_a_home_file_copied_to_postgresql_and_back_reads_and_plays_the_same(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    home = tmp_path / "home.sqlite3"
    with parlour_on(SqliteStore(home)) as client:
        games = some_games(client) + list(a_series_of_two(client))
        views = views_of(client, games)
    pictures = [games[3]["view"]["params"]["picture"]]
    sids = [game["session"] for game in games]
    before = SqliteStore(home)
    read = every_read(before, sids, pictures)
    before.close()

    cli.main(["db", "copy", "--from", str(home), "--to", postgres_url])
    assert capsys.readouterr().out.startswith(
        "Copied 6 games, 4 results and 1 picture from ")
    back = tmp_path / "back.sqlite3"
    cli.main(["db", "copy", "--from", postgres_url, "--to", str(back)])
    assert "; 0 games there already.\n" in capsys.readouterr().out
    for store in (PostgresStore(postgres_url), SqliteStore(back)):
        try:
            assert every_read(store, sids, pictures) == read
            with parlour_on(store) as client:  # the same deals, the same positions
                assert views_of(client, games) == views
                mines = games[2]
                hint = client.post(f"/api/games/{mines['session']}/hint",
                                   headers=auth(mines["token"])).json()
                moved = client.post(f"/api/games/{mines['session']}/moves",
                                    json={"move": hint["move"]}, headers=auth(mines["token"]))
                assert moved.status_code == 200, moved.text
        finally:
            store.close()


def test_copying_again_skips_what_is_there_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    home, there = tmp_path / "home.sqlite3", tmp_path / "there.sqlite3"
    with parlour_on(SqliteStore(home)) as client:
        some_games(client)
    cli.main(["db", "copy", "--from", str(home), "--to", str(there)])
    capsys.readouterr()
    cli.main(["db", "copy", "--from", str(home), "--to", str(there)])
    assert capsys.readouterr().out.startswith(
        "Copied 0 games, 0 results and 0 pictures from ")


def test_a_session_id_of_another_game_there_refuses_the_whole_copy(tmp_path: Path) -> None:
    home, there = tmp_path / "home.sqlite3", tmp_path / "there.sqlite3"
    with parlour_on(SqliteStore(home)) as client:
        some_games(client)
    with parlour_on(SqliteStore(there)) as client:
        some_games(client)
    db = sqlite3.connect(home)
    (sid,) = db.execute("SELECT sid FROM sessions LIMIT 1").fetchone()
    db.close()
    db = sqlite3.connect(there)
    with db:
        db.execute("UPDATE sessions SET sid = ? WHERE rowid = 1", (sid,))
    before = db.execute("SELECT count(*) FROM sessions").fetchone()
    db.close()
    with pytest.raises(SystemExit, match=rf"cannot copy into .*its game {sid} is not the game"
                                         r" kept here under that id\. Nothing was copied"):
        cli.main(["db", "copy", "--from", str(home), "--to", str(there)])
    db = sqlite3.connect(there)
    assert db.execute("SELECT count(*) FROM sessions").fetchone() == before
    db.close()


def test_a_copy_that_cannot_start_says_why(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a server that is not there is waited for this long (10 s when serving)
    monkeypatch.setattr("parlour.store.postgres.store.CONNECT_SECONDS", 1.0)
    with pytest.raises(SystemExit, match="no such SQLite file to copy from"):
        cli.main(["db", "copy", "--from", str(tmp_path / "nope.sqlite3"), "--to", postgres_url])
    assert not (tmp_path / "nope.sqlite3").exists()
    SqliteStore(tmp_path / "home.sqlite3").close()
    with pytest.raises(SystemExit, match=r"parlour: cannot connect to .*nobody"):
        cli.main(["db", "copy", "--from", str(tmp_path / "home.sqlite3"),
                  "--to", f"postgresql://nobody@/parlour?host={tmp_path}"])
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url) as db:
        db.execute("INSERT INTO parlour_migrations (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(SystemExit, match="written by a newer Parlour"):
        cli.main(["db", "copy", "--from", postgres_url, "--to", str(tmp_path / "x.sqlite3")])
    with pytest.raises(SystemExit):
        cli.main(["db", "copy", "--from", str(tmp_path / "home.sqlite3")])
    assert "give --from and --to" in capsys.readouterr().err
