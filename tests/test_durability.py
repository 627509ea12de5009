"""Durability: a move the server acknowledged survives a hard kill of the server.

Each test runs a real `parlour` process on a temporary database (the first test on
SQLite's and on PostgreSQL's), plays over the REST API, kills the process with SIGKILL
straight after the last acknowledgement (no clean shutdown, as in a crash or power cut),
starts a new process on the same database and checks that every acknowledged change is
there and that play goes on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.support.servers import RunningServer, start_server
from tests.support.stores import STORES

Cell = tuple[int, int]


class Parlour:
    """One database, served by one process at a time; `crash` swaps the process."""

    def __init__(self, db: Path | str) -> None:
        self.db = db
        self.server: RunningServer = start_server(db)
        self.http = httpx.Client(base_url=self.server.url, timeout=10)

    def crash_and_restart(self) -> None:
        self.http.close()
        self.server.kill()
        assert self.server.process.returncode is not None
        assert self.server.process.returncode < 0, "the server should die by a signal"
        self.server = start_server(self.db)
        self.http = httpx.Client(base_url=self.server.url, timeout=10)

    def stop_and_restart(self) -> None:
        """A clean stop (Ctrl+C, SIGTERM), then a new process on the same file."""
        self.http.close()
        self.server.stop()  # uvicorn shuts down, then dies of the signal it caught
        self.server = start_server(self.db)
        self.http = httpx.Client(base_url=self.server.url, timeout=10)

    def close(self) -> None:
        self.http.close()
        self.server.stop()

    @contextmanager
    def page(self, sid: str, token: str) -> Iterator[ClientConnection]:
        """A page of the game open (its WebSocket, hello said, first view read)."""
        address = self.server.url.replace("http://", "ws://") + f"/ws/{sid}"
        with connect(address, open_timeout=10) as socket:
            socket.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(socket.recv(timeout=10))["type"] != "view":
                pass
            yield socket

    # -- the API -----------------------------------------------------------------------
    def create(self) -> tuple[str, str]:
        reply = self.http.post(
            "/api/games", json={"game": "tictactoe", "seats": ["human", "human"]}
        )
        assert reply.status_code == 201, reply.text
        body = reply.json()
        assert body["view"]["moves"] == 0
        return body["session"], body["token"]

    def view(self, sid: str, token: str) -> dict[str, Any]:
        reply = self.http.get(f"/api/games/{sid}", headers=auth(token))
        assert reply.status_code == 200, reply.text
        view: dict[str, Any] = reply.json()
        return view

    def move(self, sid: str, token: str, cell: Cell) -> dict[str, Any]:
        reply = self.http.post(
            f"/api/games/{sid}/moves", json={"move": {"cell": list(cell)}}, headers=auth(token)
        )
        assert reply.status_code == 200, reply.text
        view: dict[str, Any] = reply.json()
        return view

    def action(self, sid: str, token: str, name: str) -> dict[str, Any]:
        reply = self.http.post(f"/api/games/{sid}/{name}", headers=auth(token))
        assert reply.status_code == 200, reply.text
        view: dict[str, Any] = reply.json()
        return view

    def sessions(self, token: str) -> list[dict[str, Any]]:
        reply = self.http.get("/api/sessions", headers=auth(token))
        assert reply.status_code == 200, reply.text
        listed: list[dict[str, Any]] = reply.json()
        return listed


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def board(cells: list[Cell]) -> str:
    """The view's text after `cells` were played in turn, Cross first."""
    rows = [["."] * 3 for _ in range(3)]
    for ply, (x, y) in enumerate(cells):
        rows[y][x] = "XO"[ply % 2]
    return "\n".join("".join(row) for row in rows)


# A game with no line of three in its first seven moves.
OPENING: list[Cell] = [(1, 1), (0, 0), (2, 0), (0, 2), (0, 1), (2, 1), (1, 0)]


@pytest.fixture
def parlour(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Parlour]:
    """A Parlour on a SQLite file, or (a test marked `@on_both_stores`) on each store."""
    on_postgres = getattr(request, "param", "sqlite") == "postgres"
    running = Parlour(request.getfixturevalue("postgres_url") if on_postgres
                      else tmp_path / "parlour.sqlite3")
    try:
        yield running
    finally:
        running.close()


def test_board_helper_matches_the_server_text() -> None:
    assert board(OPENING[:3]) == "O.X\n.X.\n..."


@pytest.mark.parametrize("parlour", STORES, indirect=True)
def test_acknowledged_moves_survive_a_kill(parlour: Parlour) -> None:
    sid, token = parlour.create()
    played = OPENING[:5]
    for ply, cell in enumerate(played, start=1):
        view = parlour.move(sid, token, cell)
        assert view["moves"] == ply
    parlour.crash_and_restart()

    view = parlour.view(sid, token)
    assert view["moves"] == len(played)
    assert view["line_length"] == len(played)
    assert view["text"] == board(played)
    assert view["text"] == "O.X\nXX.\nO.."
    assert view["status"] == "playing"
    assert view["to_move"] == 1
    assert view["can_move"]

    after = parlour.move(sid, token, OPENING[5])
    assert after["moves"] == 6
    assert after["text"] == board(OPENING[:6])
    parlour.crash_and_restart()
    assert parlour.view(sid, token)["text"] == board(OPENING[:6])


def test_every_acknowledged_move_survives_repeated_kills(parlour: Parlour) -> None:
    """Kill after each move in turn: nothing acknowledged is ever lost."""
    sid, token = parlour.create()
    for ply, cell in enumerate(OPENING[:4], start=1):
        assert parlour.move(sid, token, cell)["moves"] == ply
        parlour.crash_and_restart()
        view = parlour.view(sid, token)
        assert view["moves"] == ply
        assert view["text"] == board(OPENING[:ply])


def test_a_finished_game_survives_a_kill(parlour: Parlour) -> None:
    sid, token = parlour.create()
    win: list[Cell] = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]  # Cross takes the top row
    for cell in win:
        view = parlour.move(sid, token, cell)
    assert view["status"] == "won"
    parlour.crash_and_restart()

    view = parlour.view(sid, token)
    assert view["status"] == "won"
    assert view["winners"] == [0]
    assert view["text"] == "XXX\nOO.\n..."
    assert sid not in {row["session"] for row in parlour.sessions(token)}
    assert parlour.action(sid, token, "undo")["moves"] == 4  # and play goes on


def test_undo_survives_a_kill_and_redo_still_works(parlour: Parlour) -> None:
    sid, token = parlour.create()
    played = OPENING[:4]
    for cell in played:
        parlour.move(sid, token, cell)
    undone = parlour.action(sid, token, "undo")
    assert undone["moves"] == 3
    assert undone["line_length"] == 4
    parlour.crash_and_restart()

    view = parlour.view(sid, token)
    assert view["moves"] == 3
    assert view["text"] == board(played[:3])
    assert view["line_length"] == 4, "the redo line is stored too"
    assert view["can_redo"]
    assert view["to_move"] == 1

    redone = parlour.action(sid, token, "redo")
    assert redone["moves"] == 4
    assert redone["text"] == board(played)
    assert not redone["can_redo"]
    parlour.crash_and_restart()
    assert parlour.view(sid, token)["text"] == board(played)


def test_undo_to_the_start_survives_a_kill(parlour: Parlour) -> None:
    """Undo back to an empty board: the cursor is 0 but the redo line is kept."""
    sid, token = parlour.create()
    parlour.move(sid, token, OPENING[0])
    parlour.move(sid, token, OPENING[1])
    parlour.action(sid, token, "undo")
    assert parlour.action(sid, token, "undo")["moves"] == 0
    parlour.crash_and_restart()

    view = parlour.view(sid, token)
    assert view["moves"] == 0
    assert view["text"] == "...\n...\n..."
    assert view["line_length"] == 2
    assert parlour.action(sid, token, "redo")["text"] == board(OPENING[:1])
    assert parlour.action(sid, token, "redo")["text"] == board(OPENING[:2])


def test_a_move_after_undo_replaces_the_redo_line_durably(parlour: Parlour) -> None:
    sid, token = parlour.create()
    for cell in OPENING[:3]:
        parlour.move(sid, token, cell)
    parlour.action(sid, token, "undo")
    view = parlour.move(sid, token, (2, 2))  # a different third move
    assert view["line_length"] == 3
    parlour.crash_and_restart()

    view = parlour.view(sid, token)
    expected = [*OPENING[:2], (2, 2)]
    assert view["text"] == board(expected)
    assert view["moves"] == view["line_length"] == 3
    assert not view["can_redo"]


def test_restart_survives_a_kill(parlour: Parlour) -> None:
    sid, token = parlour.create()
    for cell in OPENING[:3]:
        parlour.move(sid, token, cell)
    assert parlour.action(sid, token, "restart")["moves"] == 0
    parlour.crash_and_restart()

    view = parlour.view(sid, token)
    assert view["moves"] == view["line_length"] == 0
    assert view["text"] == "...\n...\n..."
    assert parlour.move(sid, token, (2, 2))["text"] == "...\n...\n..X"


def test_an_unfinished_game_is_listed_after_a_kill(parlour: Parlour) -> None:
    sid, token = parlour.create()
    _, untouched_token = parlour.create()  # no move yet: nothing to resume
    for cell in OPENING[:3]:
        parlour.move(sid, token, cell)
    parlour.crash_and_restart()

    listed = {row["session"]: row for row in parlour.sessions(token)}
    assert sid in listed
    assert parlour.sessions(untouched_token) == []
    assert listed[sid]["game"] == "tictactoe"
    assert listed[sid]["moves"] == 3
    assert listed[sid]["mode"] == "two players"
    assert parlour.move(sid, token, OPENING[3])["moves"] == 4


def test_the_token_still_holds_its_seats_after_a_kill(parlour: Parlour) -> None:
    sid, token = parlour.create()
    parlour.move(sid, token, OPENING[0])
    parlour.crash_and_restart()

    assert parlour.view(sid, token)["you"] == [0, 1]
    stranger = parlour.http.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": [2, 2]}}, headers=auth("not-a-token")
    )
    assert stranger.status_code == 403
    assert parlour.view(sid, token)["moves"] == 1


# -- the clock: the time the server is down is nobody's play ------------------------------
def seconds_played(view: dict[str, Any]) -> float:
    return float(view["elapsed_ms"]) / 1000


def test_a_clean_stop_keeps_the_time_played_and_none_of_the_time_down(
    parlour: Parlour,
) -> None:
    sid, token = parlour.create()
    with parlour.page(sid, token) as page:
        parlour.move(sid, token, OPENING[0])
        started = time.monotonic()
        time.sleep(0.6)
        played = time.monotonic() - started
        parlour.stop_and_restart()  # the page is still open: the stop closes it
        with pytest.raises(ConnectionClosed):
            while True:  # what it was sent until the server closed it
                page.recv(timeout=5)
    time.sleep(1.0)
    view = parlour.view(sid, token)
    assert played <= seconds_played(view) < played + 0.5  # saved as the server stopped
    assert not view["clock_running"]  # no page yet: stopped, whatever it was before
    time.sleep(0.3)
    assert parlour.view(sid, token)["elapsed_ms"] == view["elapsed_ms"]
    with parlour.page(sid, token):  # the player's page comes back
        time.sleep(0.3)
        again = parlour.view(sid, token)
    assert again["clock_running"] and seconds_played(again) >= seconds_played(view) + 0.3


def test_after_a_crash_the_clock_waits_for_a_page_and_counts_no_time_down(
    parlour: Parlour,
) -> None:
    sid, token = parlour.create()
    with parlour.page(sid, token):
        parlour.move(sid, token, OPENING[0])
        time.sleep(0.5)
        before = seconds_played(parlour.move(sid, token, OPENING[1]))
        parlour.crash_and_restart()
    time.sleep(1.0)
    view = parlour.view(sid, token)
    # as saved with the last move: the time since (a crash gives no chance to save it)
    # is lost, never the time down added
    assert before - 0.05 < seconds_played(view) <= before and not view["clock_running"]
    assert before >= 0.5
