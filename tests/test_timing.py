"""Issue 14's measuring aids: the server's timer per part of an action (off unless
PARLOUR_TIMING=1, as bench/click_latency.py --parts starts it) and the store's sync
setting (`parlour --sync normal`, the default: no flush per move on the reply's path, a move
still survives a kill, and reaches the disk within a checkpoint)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from parlour.cli import parse_args
from parlour.games import GAMES
from parlour.server import timing
from parlour.server.app import create_app
from parlour.store.sqlite import CHECKPOINT_SECONDS
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS, start_server

ACTION_PARTS = {"parse", "apply", "commit", "observe", "render", "view (who acted)",
                "views (those watching)", "diff", "send", "received -> view sent",
                "received -> first view sent"}


def play_one_move(client: TestClient) -> None:
    """A tic-tac-toe move over the WebSocket, as the browser plays it; its view comes back."""
    created = client.post("/api/games", json={"game": "tictactoe",
                                              "seats": ["human", "human"]}).json()
    with client.websocket_connect(f"/ws/{created['session']}") as socket:
        socket.send_json({"type": "hello", "token": created["token"]})
        assert socket.receive_json()["view"]["moves"] == 0
        socket.send_json({"type": "move", "move": {"cell": [1, 1]}})
        assert socket.receive_json()["view"]["moves"] == 1


@pytest.fixture
def timed(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app as a server started with PARLOUR_TIMING=1 serves it."""
    monkeypatch.setattr(timing, "ENABLED", True)
    timing.taken()  # nothing left from another test
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as client:
        yield client
    timing.taken()


def test_off_by_default_nothing_is_timed_and_there_is_no_endpoint(client: TestClient) -> None:
    assert not timing.ENABLED
    play_one_move(client)
    assert timing.taken() == {}
    assert client.get("/api/debug/timing").status_code == 404


def test_each_part_of_a_websocket_move_is_timed_once(timed: TestClient) -> None:
    play_one_move(timed)
    parts = timed.get("/api/debug/timing").json()
    assert set(parts) >= ACTION_PARTS
    assert len(parts["apply"]) == len(parts["commit"]) == len(parts["parse"]) == 1
    assert len(parts["received -> view sent"]) == 1  # the hello's view is not an action's
    whole = parts["received -> view sent"][0]
    assert 0 < parts["apply"][0] + parts["commit"][0] <= whole
    assert parts["received -> first view sent"] == [whole]
    for name in ACTION_PARTS - {"received -> view sent", "received -> first view sent"}:
        assert len(parts[f"{name} CPU"]) == len(parts[name])
        assert all(0 <= cpu <= wall + 1 for cpu, wall in zip(parts[f"{name} CPU"], parts[name],
                                                              strict=True))
    assert set(timed.get("/api/debug/timing").json()) == {"objects frozen"}  # handed over once


def test_the_first_view_out_is_timed_apart_from_the_watchers(timed: TestClient) -> None:
    """Cross moves, Nought and a spectator watching: three views go out, and the first
    (Cross's: the one who acted is served first) is the server's share of the click."""
    created = timed.post("/api/games", json={"game": "tictactoe",
                                             "seats": ["human", "open"]}).json()
    sid = created["session"]
    nought = timed.post(f"/api/games/{sid}/join", json={"seat": 1}).json()["token"]
    with timed.websocket_connect(f"/ws/{sid}") as cross, \
            timed.websocket_connect(f"/ws/{sid}") as other, \
            timed.websocket_connect(f"/ws/{sid}") as spectator:
        for socket, token in ((cross, created["token"]), (other, nought), (spectator, None)):
            socket.send_json({"type": "hello", "token": token})
            assert socket.receive_json()["view"]["moves"] == 0
        timed.get("/api/debug/timing")  # forget the hellos
        cross.send_json({"type": "move", "move": {"cell": [1, 1]}})
        for socket in (cross, other, spectator):
            assert socket.receive_json()["view"]["moves"] == 1
    parts = timed.get("/api/debug/timing").json()
    assert len(parts["received -> view sent"]) == 3
    assert parts["received -> first view sent"] == [min(parts["received -> view sent"])]


def test_the_endpoint_stays_out_of_the_api_docs(timed: TestClient) -> None:
    assert "/api/debug/timing" not in timed.get("/openapi.json").json()["paths"]


@pytest.mark.parametrize(("sync", "pragma"), [("full", 2), ("normal", 1)])
def test_the_store_syncs_as_asked(tmp_path: Path, sync: str, pragma: int) -> None:
    store = Store(tmp_path / "parlour.sqlite3", sync=sync)
    assert store.db.execute("PRAGMA synchronous").fetchone() == (pragma,)
    store.close()


def test_with_sync_normal_a_commit_is_written_at_once_without_the_writer_thread(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "parlour.sqlite3", sync="normal")
    run_async(store.commit(lambda db: db.execute("CREATE TABLE kept (x INTEGER)")))
    assert store._writer is None
    other = sqlite3.connect(tmp_path / "parlour.sqlite3")  # another connection sees it
    assert other.execute("SELECT name FROM sqlite_master WHERE name='kept'").fetchone()
    other.close()
    store.close()


def test_with_sync_normal_a_commit_reaches_the_database_file_within_a_checkpoint(
    tmp_path: Path,
) -> None:
    path = tmp_path / "parlour.sqlite3"
    store = Store(path, sync="normal")
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)  # not on the loop
    marker = "flushed-by-the-checkpointer"
    run_async(store.commit(lambda db: db.execute(f"CREATE TABLE kept (x TEXT DEFAULT '{marker}')")))
    deadline = time.monotonic() + 10 * CHECKPOINT_SECONDS
    while marker.encode() not in path.read_bytes():
        assert time.monotonic() < deadline, "no checkpoint moved the commit into the database"
        time.sleep(0.05)
    store.close()


def test_an_unknown_sync_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="normal, full"):
        Store(tmp_path / "parlour.sqlite3", sync="off")


def test_the_cli_takes_sync_from_its_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PARLOUR_SYNC", raising=False)
    assert parse_args([]).sync == "normal"
    assert parse_args(["--sync", "full"]).sync == "full"
    monkeypatch.setenv("PARLOUR_SYNC", "full")
    assert parse_args([]).sync == "full"
    with pytest.raises(SystemExit):
        parse_args(["--sync", "off"])


def test_with_sync_normal_an_acknowledged_move_survives_a_kill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PARLOUR_SYNC", "normal")
    db = tmp_path / "parlour.sqlite3"
    server = start_server(db)
    try:
        created = httpx.post(f"{server.url}/api/games", json={
            "game": "tictactoe", "seats": ["human", "human"]}, timeout=10).json()
        sid, headers = created["session"], {"Authorization": f"Bearer {created['token']}"}
        for cell in ([0, 0], [1, 1], [2, 2]):
            reply = httpx.post(f"{server.url}/api/games/{sid}/moves", headers=headers,
                               json={"move": {"cell": cell}}, timeout=10)
            assert reply.status_code == 200, reply.text
        server.kill()  # SIGKILL straight after the last acknowledgement
        server = start_server(db)
        view = httpx.get(f"{server.url}/api/games/{sid}", headers=headers, timeout=10).json()
        assert view["moves"] == 3
    finally:
        server.stop()


def test_the_server_leaves_its_startup_heap_out_of_garbage_collection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full round of the collector walked the ~100k objects made at startup, and no
    game moved for its 75-90 ms: `parlour` freezes them once it has started."""
    monkeypatch.setenv("PARLOUR_TIMING", "1")
    server = start_server(tmp_path / "parlour.sqlite3")
    try:
        frozen = httpx.get(f"{server.url}/api/debug/timing", timeout=30).json()["objects frozen"]
    finally:
        server.stop()
    assert frozen[0] > 50_000
