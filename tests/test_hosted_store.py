"""The PostgreSQL store in use: a game played through the API to its end, a picture
kept in the database, a commit that leaves the event loop free, the schema's versions,
`parlour db migrate` and `parlour --database`. Against a real PostgreSQL server that the
tests start (tests/support/postgres.py); the Store's own round trips run on both stores
in tests/test_store_stats.py."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg  # the hosted extra, which the dev extra installs
import pytest
from fastapi.testclient import TestClient

from parlour import cli
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.store import (
    NewerStore,
    Result,
    SeriesRow,
    Store,
    progress_saved,
    series_saved,
    session_created,
)
from parlour.store.postgres import SCHEMA_VERSION, PostgresStore
from parlour.store.postgres.writes import apply
from parlour.store.sqlite import SqliteStore
from tests.support import postgres as support_postgres
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS, start_server
from tests.test_api import CROSS_WINS, auth, get_view, play_out, two_humans
from tests.test_backup import backup_of, parlour_on, restore, some_games, views_of
from tests.test_store_stats import NOW, progress, session_row
from tests.test_uploads import png, post_picture


@pytest.fixture
def store(postgres_store: Store) -> Store:
    """This module's `client` plays on the PostgreSQL store."""
    return postgres_store


def test_a_game_is_played_through_to_its_end_and_counted_on_postgresql(
    client: TestClient, store: PostgresStore,
) -> None:
    sid, token = two_humans(client)
    view = play_out(client, sid, token, CROSS_WINS)
    assert (view["status"], view["winners"], view["text"]) == ("won", [0], "XXX\nOO.\n...")
    (result,) = store.results()
    assert (result.sid, result.outcome, result.moves) == (sid, "won", 5)
    (group,) = client.get("/api/stats").json()["groups"]
    assert (group["played"], group["won"]) == (1, 1)

    again = PostgresStore(store.url)  # another process, or this one restarted
    try:
        with TestClient(create_app(again, GAMES, ai_delay_scale=0,
                                   allowed_hosts=TEST_HOSTS)) as restarted:
            assert get_view(restarted, sid, token)["text"] == "XXX\nOO.\n..."
            assert restarted.get("/api/sessions", headers=auth(token)).json() == []  # over
    finally:
        again.close()


def test_an_uploaded_picture_is_kept_in_the_database_not_on_a_disk(
    client: TestClient, store: PostgresStore,
) -> None:
    upload = post_picture(client, png(6, 4)).json()["upload"]
    served = client.get(f"/api/uploads/{upload}")
    assert served.status_code == 200
    with psycopg.connect(store.url) as db:
        (kept,) = db.execute("SELECT data FROM uploads WHERE upload_id = %s",
                             (upload,)).fetchone() or pytest.fail("not kept")
    assert kept == served.content


def test_each_write_of_a_games_progress_counts_in_its_revision(store: PostgresStore) -> None:
    """What a fenced commit of a later step will check: the writes a game has had."""
    store.create_session(session_row("s1"), {"t": [0, 1]}, NOW)
    for cursor in (1, 2, 1):
        store.save(progress("s1", cursor=cursor))
    with psycopg.connect(store.url) as db:
        assert db.execute("SELECT revision FROM sessions").fetchall() == [(3,)]


def test_a_process_not_yet_upgraded_still_saves_with_version_4s_function(
    store: PostgresStore,
) -> None:
    """Schema 5's save_progress takes two more values; version 4's stays beside it, so a
    process of the older Parlour saves on during a rolling upgrade."""
    store.create_session(session_row("s1"), {"t": [0, 1]}, NOW)
    with psycopg.connect(store.url) as db:
        db.execute(
            "SELECT save_progress('s1', 1, 1, false, 5, NULL, 'playing', 'h', 1.0, false,"
            " '{}'::integer[], '{}'::integer[], NULL::integer, '[]'::json, '[]'::json,"
            " NULL::text, NULL::bigint)")
        assert db.execute("SELECT cursor, moves_made FROM sessions").fetchall() == [(1, None)]


def test_a_commit_leaves_the_event_loop_free_and_returns_once_committed(
    store: PostgresStore,
) -> None:
    def slow_change(db: psycopg.Connection) -> None:
        db.execute("SELECT pg_sleep(0.3)")  # a commit that takes its time
        apply(db, session_created(session_row("s1"), {"t": [0, 1]}, NOW))

    async def ticks_while_committing() -> int:
        ticks = 0
        commit = asyncio.create_task(store.commit(slow_change))
        while not commit.done():
            await asyncio.sleep(0.01)
            ticks += 1
        await commit
        return ticks

    assert run_async(ticks_while_committing()) >= 10  # the loop ran during the 0.3 s
    assert [kept.row.sid for kept in store.kept_sessions()] == ["s1"]


def test_a_database_of_a_newer_parlour_is_refused(store: PostgresStore) -> None:
    with psycopg.connect(store.url) as db:
        db.execute("INSERT INTO parlour_migrations (version) VALUES (%s)",
                   (SCHEMA_VERSION + 1,))
    with pytest.raises(NewerStore, match=f"schema version {SCHEMA_VERSION + 1}"):
        PostgresStore(store.url)


def test_processes_opening_a_new_database_together_create_its_schema_once(
    postgres_url: str,
) -> None:
    with ThreadPoolExecutor(4) as openers:
        stores = list(openers.map(lambda _: PostgresStore(postgres_url, pool_size=1), range(4)))
    for opened in stores:
        opened.close()
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT version FROM parlour_migrations").fetchall() == [
            (number,) for number in range(1, SCHEMA_VERSION + 1)]


def test_many_games_commit_at_once_each_on_a_connection_of_the_pool(
    store: PostgresStore,
) -> None:
    sids = [f"s{i}" for i in range(30)]
    for sid in sids:
        store.create_session(session_row(sid), {f"t-{sid}": [0, 1]}, NOW)

    async def moves_everywhere() -> None:
        await asyncio.gather(*(store.commit(progress_saved(progress(
            sid, cursor=1, now=NOW + 1, new_moves_from=0, new_moves=[{"cell": [1, 1]}])))
            for sid in sids))

    run_async(moves_everywhere())
    assert all(store.load_session(sid) == (store.session_row(sid), [{"cell": [1, 1]}])
               for sid in sids)


# -- the command line ----------------------------------------------------------------------
def tables_of(url: str) -> set[str]:
    with psycopg.connect(url) as db:
        return {name for (name,) in db.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()")}


def test_db_migrate_creates_the_schema_and_again_does_nothing(
    postgres_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    cli.main(["db", "migrate", "--database", postgres_url])
    assert capsys.readouterr().out == f"Schema version {SCHEMA_VERSION} created.\n"
    assert {"sessions", "moves", "tokens", "results", "uploads", "series", "imports",
            "parlour_migrations"} <= tables_of(postgres_url)
    cli.main(["db", "migrate", "--database", postgres_url])
    assert capsys.readouterr().out == (
        f"The schema is at version {SCHEMA_VERSION} already: nothing to do.\n")
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT version FROM parlour_migrations").fetchall() == [
            (number,) for number in range(1, SCHEMA_VERSION + 1)]


def test_db_migrate_says_which_database_it_cannot_reach(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"parlour: cannot connect to .*nobody"):
        cli.main(["db", "migrate", "--database",
                  f"postgresql://nobody@/parlour?host={tmp_path}"])


def test_db_migrate_takes_the_database_from_the_environment_or_asks_for_it(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv(cli.DATABASE_VARIABLE, raising=False)
    with pytest.raises(SystemExit):
        cli.main(["db", "migrate"])
    assert "give --database URL or set $PARLOUR_DATABASE" in capsys.readouterr().err
    monkeypatch.setenv(cli.DATABASE_VARIABLE, postgres_url)
    cli.main(["db", "migrate"])
    assert "created" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "variable", "kept"), [
    ([], None, Path("default.sqlite3")),
    (["--db", "mine.sqlite3"], None, Path("mine.sqlite3")),
    (["--database", "postgresql://h/p"], None, "postgresql://h/p"),
    ([], "postgresql://h/env", "postgresql://h/env"),
    (["--db", "mine.sqlite3"], "postgresql://h/env", Path("mine.sqlite3")),  # the flag wins
    (["--database", "postgresql://h/p"], "postgresql://h/env", "postgresql://h/p"),
])
def test_the_games_are_kept_in_postgresql_when_a_database_is_named(
    argv: list[str], variable: str | None, kept: Path | str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PARLOUR_DB", "default.sqlite3")
    if variable is None:
        monkeypatch.delenv(cli.DATABASE_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(cli.DATABASE_VARIABLE, variable)
    assert cli.where_kept(cli.parse_args(argv)) == kept


def test_a_sqlite_file_and_a_database_at_once_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        cli.parse_args(["--db", "a.sqlite3", "--database", "postgresql://h/p"])
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.fixture
def hosted_server(postgres_url: str) -> Iterator[str]:
    """A real `parlour --database ...` process: its address."""
    running = start_server(postgres_url, timeout=60)
    yield running.url
    running.stop()


def test_a_server_started_with_database_keeps_its_games_in_postgresql(
    hosted_server: str, postgres_url: str,
) -> None:
    request = urllib.request.Request(
        f"{hosted_server}/api/games", data=b'{"game": "tictactoe"}', method="POST",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        sid = json.load(response)["session"]
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT sid FROM sessions").fetchall() == [(sid,)]


def test_a_home_backup_restored_on_postgresql_reads_back_the_same(
    tmp_path: Path, store: PostgresStore,
) -> None:
    """Every read the backup, the views and the statistics make gives on PostgreSQL what
    it gave on SQLite: the games' backup made there again is the same file."""
    with parlour_on(SqliteStore(tmp_path / "home.sqlite3")) as home:
        games = some_games(home)
        data = backup_of(home)
        views, stats = views_of(home, games), home.get("/api/stats").json()
    with parlour_on(store) as hosted:
        assert restore(hosted, data).status_code == 200
        assert views_of(hosted, games) == views
        assert hosted.get("/api/stats").json() == stats
        again = backup_of(hosted)
    made_again = json.loads(again) | {"made": None}
    assert made_again == json.loads(data) | {"made": None}  # all but when it was made


def same_writes(store: Store) -> None:
    """Games whose times tie (updated, finished, created), with results, tokens, a series
    and a daily deal: where an order rests on ties, each store must break them alike."""
    for i in range(6):
        sid = f"s{i}"
        daily = f"tictactoe:standard#daily-2026-11-0{i % 2 + 1}"
        row = dataclasses.replace(session_row(sid), game_id=daily)
        store.create_session(row, {f"t{i}": [0], f"u{i}": [1]}, NOW)
        store.save(progress(sid, cursor=1 + i % 2, status="playing" if i % 3 else "won",
                            now=NOW + i // 3, new_moves_from=0, new_moves=[{"cell": [i, 0]}]),
                   *([] if i % 3 else [result_of(sid, seat, NOW + i // 4) for seat in (1, 0)]))
    run_async(store.commit(series_saved(SeriesRow("s1", "s0", 1, [[1, 0, 0], [0, 0, 1]]))))


def result_of(sid: str, seat: int, finished: float) -> Result:
    return Result(sid=sid, round=1, game="tictactoe", preset="standard", mode="two players",
                  outcome="won" if seat == 0 else "lost", score=None, elapsed_ms=5,
                  moves=5, assisted=False, finished=finished, seat=seat)


def every_read(store: Store) -> dict[str, object]:
    tokens = [f"{kind}{i}" for kind in "tu" for i in range(6)]
    return {
        "unfinished": store.unfinished(), "held": store.held_unfinished(tokens),
        "results": store.results(), "of a game": store.results("tictactoe"),
        "game ids": store.result_game_ids(), "latest": store.latest_results(None, 3),
        "statistics": dataclasses.replace(store.stat_reading(None, 5, 2), version=()),
        "daily starts": store.daily_starts(), "daily results": store.daily_results(),
        "kept": store.kept_sessions(), "tokens": store.tokens("s1"), "series": store.series("s1"),
        "identities": store.identities(["s0", "nope"], ["t1", "nope"], ["nope"]),
        "session": store.load_session("s2"),
    }


def test_the_same_writes_read_back_the_same_on_both_stores_ties_and_all(
    tmp_path: Path, store: PostgresStore,
) -> None:
    home = SqliteStore(tmp_path / "home.sqlite3")
    try:
        for each in (home, store):
            same_writes(each)
        read = every_read(home)  # s1 and s2 tie, and s4 and s5: the newest first
        assert [row.sid for row in read["unfinished"]] == ["s5", "s4", "s2", "s1"]
        assert every_read(store) == read
    finally:
        home.close()


@pytest.mark.parametrize(("ci", "outcome"), [("", pytest.skip.Exception),
                                             ("true", pytest.fail.Exception)])
def test_without_postgresql_its_tests_skip_and_say_why_but_fail_in_ci(
    ci: str, outcome: type[BaseException], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(support_postgres.glob, "glob", lambda pattern: [])  # not installed
    with pytest.raises(outcome, match="apt-get install postgresql"):
        next(support_postgres.postgres_fixture())
