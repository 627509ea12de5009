"""Against a real server process: a viewer that stops reading and long work in one game
must not hold up any game's requests."""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.hostile import stalled_viewer
from tests.support.servers import RunningServer, start_server


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[RunningServer]:
    """A server of this test's own: what it does to it must not reach other tests."""
    running = start_server(tmp_path / "parlour.sqlite3")
    yield running
    running.stop()


def create(api: httpx.Client, body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    reply = api.post("/api/games", json=body)
    assert reply.status_code == 201, reply.text
    return reply.json()["session"], {"Authorization": f"Bearer {reply.json()['token']}"}


def test_a_viewer_that_stops_reading_does_not_stall_the_game(own_server: RunningServer) -> None:
    api = httpx.Client(base_url=own_server.url, timeout=20)
    sid, auth = create(api, {"game": "minesweeper",
                             "params": {"rows": 40, "cols": 60, "mines": 300}})
    viewers = [stalled_viewer(own_server.url, sid) for _ in range(3)]
    time.sleep(0.3)
    answered: list[float] = []
    try:
        for number in range(40):  # an opening then a restart: both redraw most of the board
            row, col = divmod(number * 997 % 2400, 60)
            for action, body in (("moves", {"move": {"open": [row, col]}}), ("restart", None)):
                started = time.perf_counter()
                reply = api.post(f"/api/games/{sid}/{action}", json=body, headers=auth)
                answered.append(time.perf_counter() - started)
                assert reply.status_code == 200, reply.text
    finally:
        for viewer in viewers:
            viewer.close()
    assert max(answered) < 2.0, f"slowest move answered in {max(answered):.2f} s"
    assert statistics.median(answered) < 0.2


def test_long_work_in_one_game_does_not_delay_another(own_server: RunningServer) -> None:
    api = httpx.Client(base_url=own_server.url, timeout=60)
    other, other_auth = create(api, {"game": "tictactoe", "seats": ["human", "human"]})
    busy = threading.Event()
    slow_moves: list[float] = []

    def lay_no_guess_boards() -> None:
        """Until the boards have kept the server busy for 1.5 s: a fixed count of boards
        took 0.9 s on a fast host, too little to prove anything."""
        worker = httpx.Client(base_url=own_server.url, timeout=60)
        while sum(slow_moves) < 1.5 and len(slow_moves) < 24:
            sid, auth = create(worker, {"game": "minesweeper", "params": {
                "rows": 40, "cols": 60, "mines": 900, "first_click": "no_guess"}})
            started = time.perf_counter()
            busy.set()
            reply = worker.post(f"/api/games/{sid}/moves", json={"move": {"open": [20, 30]}},
                                headers=auth)
            slow_moves.append(time.perf_counter() - started)
            assert reply.status_code == 200, reply.text
        busy.clear()

    laying = threading.Thread(target=lay_no_guess_boards)
    laying.start()
    assert busy.wait(20)
    answered: list[float] = []
    while laying.is_alive():
        started = time.perf_counter()
        reply = api.get(f"/api/games/{other}", headers=other_auth)
        answered.append(time.perf_counter() - started)
        assert reply.status_code == 200
        time.sleep(0.01)
    laying.join()
    assert sum(slow_moves) > 1.0, "the no-guess boards were too quick to prove anything"
    answered.sort()
    assert answered[len(answered) * 95 // 100] < 0.1, answered[-10:]
    assert answered[-1] < 0.3, answered[-10:]
