"""The game clock counts play, not the time a game is left open: it runs from the first
move until the game ends, and only while a player's page is open, visible and connected.

The hub's clock here is a test's own (`FakeTime`), moved by hand: an hour passes in no
time at all.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import JSON
from parlour.core.session import Clock
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.hub.core import Hub
from parlour.server.hub.live import Live
from parlour.server.hub.messages import PlayMove
from parlour.server.hub.tokens import Presented, presented
from parlour.server.hub.viewers import Viewer
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS


class FakeTime:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# -- the clock alone ---------------------------------------------------------------------
def test_the_clock_counts_the_time_it_runs() -> None:
    clock = Clock()
    clock.record(100.0, running=True)
    clock.record(103.5, running=True)
    assert clock.reading_ms(104.0) == 4000


def test_a_stopped_clock_reads_the_same_forever() -> None:
    clock = Clock()
    clock.record(0.0, running=True)
    clock.record(2.0, running=False)
    assert clock.reading_ms(10_000.0) == 2000 and not clock.running


def test_a_long_think_on_a_visible_page_counts_in_full() -> None:
    clock = Clock()
    clock.record(0.0, running=True)
    assert clock.reading_ms(600.0) == 600_000  # ten minutes of thought are ten minutes


def test_a_clock_read_before_it_started_never_goes_back() -> None:
    clock = Clock()
    clock.record(10.0, running=True)
    assert clock.reading_ms(9.0) == 0


# -- a game's clock and its players' pages (the hub, with a clock of the test's) ----------
Sent = list[JSON]


def page(hub: Hub, live: Live, token: str | None, visible: bool = True) -> tuple[Viewer, Sent]:
    """A page of `live` connected with `token` (None: a spectator's), and what it is sent."""
    sent: Sent = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    viewer = Viewer(live.seats_of(token), send, token, visible=visible)
    hub.page_opened(live, viewer)
    viewer.show(hub.view_for(live, token))
    return viewer, sent


def reading(hub: Hub, live: Live) -> float:
    """The clock in seconds, as a view now says it."""
    view = hub.view_for(live, None)
    assert view["elapsed_ms"] == live.session.clock.reading_ms(hub.clock())
    return float(view["elapsed_ms"]) / 1000


async def a_game(tmp_path: Path, seats: list[str] | None = None) -> tuple[Hub, FakeTime, Live, str]:
    """A hub on the test's clock, and a game of Tic-Tac-Toe (two seats, one player)."""
    time = FakeTime()
    hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0, clock=time)
    live, token = await hub.create("tictactoe", seats=seats or ["human", "human"])
    return hub, time, live, Presented(token)  # as a client presents it


async def move(hub: Hub, live: Live, token: str, x: int, y: int) -> None:
    await hub.act(live, token, PlayMove(move={"cell": [x, y]}))


def test_the_clock_waits_for_the_first_move_and_a_page(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, token = await a_game(tmp_path)
        await move(hub, live, token, 1, 1)  # played over REST: no page is open
        time.advance(60)
        assert reading(hub, live) == 0 and not hub.view_for(live, token)["clock_running"]
        page(hub, live, token)
        time.advance(3)
        assert reading(hub, live) == 3 and hub.view_for(live, token)["clock_running"]
        hub.store.close()

    run_async(scenario())


def test_a_hidden_page_stops_the_clock_and_shown_again_starts_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, token = await a_game(tmp_path)
        viewer, _ = page(hub, live, token)
        await move(hub, live, token, 1, 1)
        time.advance(2)
        hub.page_shown(live, viewer, visible=False)  # the player went to another tab
        time.advance(30)
        assert reading(hub, live) == 2
        hub.page_shown(live, viewer, visible=True)
        time.advance(1.5)
        assert reading(hub, live) == 3.5
        hub.store.close()

    run_async(scenario())


def test_a_closed_page_stops_the_clock_and_a_page_opened_again_starts_it(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        hub, time, live, token = await a_game(tmp_path)
        viewer, _ = page(hub, live, token)
        await move(hub, live, token, 1, 1)
        time.advance(2)
        viewer.close()  # the tab was closed, or the connection lost
        hub.page_closed(live, viewer)
        time.advance(30)
        assert reading(hub, live) == 2
        page(hub, live, token)  # opened again
        time.advance(1)
        assert reading(hub, live) == 3
        hub.store.close()

    run_async(scenario())


def test_one_visible_page_keeps_the_clock_running(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, owner = await a_game(tmp_path, seats=["human", "open"])
        guest = presented((await hub.join(live))[0])
        assert guest is not None
        owners_page, _ = page(hub, live, owner)
        guests_page, _ = page(hub, live, guest)
        await move(hub, live, owner, 1, 1)
        hub.page_shown(live, owners_page, visible=False)
        time.advance(5)
        assert reading(hub, live) == 5  # the guest's page is visible: the clock runs
        hub.page_shown(live, guests_page, visible=False)
        time.advance(5)
        assert reading(hub, live) == 5  # both hidden: it stops
        page(hub, live, owner)  # the owner's second tab
        time.advance(5)
        assert reading(hub, live) == 10
        hub.store.close()

    run_async(scenario())


def test_a_spectators_page_does_not_run_the_clock(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, token = await a_game(tmp_path)
        await move(hub, live, token, 1, 1)
        page(hub, live, None)
        time.advance(10)
        assert reading(hub, live) == 0
        hub.store.close()

    run_async(scenario())


def test_the_clock_stops_when_the_game_ends(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, token = await a_game(tmp_path)
        page(hub, live, token)
        for x, y in [(0, 0), (0, 1), (1, 0), (1, 1)]:
            await move(hub, live, token, x, y)
            time.advance(1)
        await move(hub, live, token, 2, 0)  # a row of three: Cross wins
        time.advance(100)
        assert live.session.status.value != "playing" and reading(hub, live) == 4
        hub.store.close()

    run_async(scenario())


def test_pages_are_told_when_the_clock_stops_and_starts(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, owner = await a_game(tmp_path, seats=["human", "open"])
        guest = presented((await hub.join(live))[0])
        owners_page, owner_sent = page(hub, live, owner)
        guests_page, guest_sent = page(hub, live, guest, visible=False)
        await move(hub, live, owner, 1, 1)
        time.advance(2)
        await asyncio.sleep(0.01)
        owner_sent.clear(), guest_sent.clear()
        hub.page_shown(live, owners_page, visible=False)
        await asyncio.sleep(0.01)
        stopped = {"type": "clock", "elapsed_ms": 2000, "clock_running": False}
        assert owner_sent == [stopped] and guest_sent == [stopped]
        time.advance(7)
        hub.page_shown(live, guests_page, visible=True)
        await asyncio.sleep(0.01)
        started = {"type": "clock", "elapsed_ms": 2000, "clock_running": True}
        assert owner_sent == [stopped, started] and guest_sent == [stopped, started]
        time.advance(1)
        hub.page_shown(live, owners_page, visible=True)  # no change, but it is told
        await asyncio.sleep(0.01)
        assert owner_sent[-1] == {"type": "clock", "elapsed_ms": 3000, "clock_running": True}
        assert len(guest_sent) == 2
        hub.store.close()

    run_async(scenario())


def test_a_stopped_clock_is_saved_and_read_back_stopped(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub, time, live, token = await a_game(tmp_path)
        viewer, _ = page(hub, live, token)
        await move(hub, live, token, 1, 1)
        time.advance(4)
        viewer.close()
        hub.page_closed(live, viewer)
        await hub.close()  # waits for the save
        row = hub.store.load_session(live.sid)
        assert row is not None and row[0].elapsed_ms == 4000
        hub.live.clear()  # the game leaves memory, as after a restart
        again = await hub.get(live.sid)
        time.advance(60)
        assert reading(hub, again) == 4 and not again.session.clock.running
        hub.store.close()

    run_async(scenario())


# -- over the WebSocket, as a browser does it ----------------------------------------------
@pytest.fixture
def timed(store: Store) -> Iterator[tuple[TestClient, FakeTime]]:
    """The app in-process on the test's clock."""
    time = FakeTime()
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS, clock=time)
    with TestClient(app) as test_client:
        yield test_client, time


def next_of(socket: Any, kind: str) -> JSON:
    """The next message of `kind` the socket is sent (a view's own part, for a view)."""
    while True:
        message: JSON = socket.receive_json()
        if message["type"] == kind:
            return message["view"] if kind == "view" else message


def test_a_page_closed_and_opened_later_finds_the_clock_where_it_left_it(
    timed: tuple[TestClient, FakeTime],
) -> None:
    client, time = timed
    created = client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "human"]})
    sid, token = created.json()["session"], created.json()["token"]
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        next_of(socket, "view")
        socket.send_json({"type": "move", "move": {"cell": [1, 1]}})
        assert next_of(socket, "view")["clock_running"]
        time.advance(2)
        socket.send_json({"type": "visibility", "visible": False})
        assert next_of(socket, "clock") == {"type": "clock", "elapsed_ms": 2000,
                                            "clock_running": False}
        time.advance(20)  # in another tab
        socket.send_json({"type": "visibility", "visible": True})
        assert next_of(socket, "clock") == {"type": "clock", "elapsed_ms": 2000,
                                            "clock_running": True}
        time.advance(1)
    time.advance(30)  # the page is closed
    assert client.get(f"/api/games/{sid}").json()["elapsed_ms"] == 3000
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token, "visible": False})  # a tab behind
        view = next_of(socket, "view")
        assert (view["elapsed_ms"], view["clock_running"]) == (3000, False)
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        view = next_of(socket, "view")
        assert (view["elapsed_ms"], view["clock_running"]) == (3000, True)
        time.advance(1)
        socket.send_json({"type": "move", "move": {"cell": [0, 0]}})
        assert next_of(socket, "view")["elapsed_ms"] == 4000


@pytest.mark.parametrize("wrong", ['{"type": "visibility"}',
                                   '{"type": "visibility", "visible": "no"}',
                                   '{"type": "visibility", "visible": 0}'])
def test_a_visibility_message_must_say_true_or_false(
    timed: tuple[TestClient, FakeTime], wrong: str
) -> None:
    client, _ = timed
    sid = client.post("/api/games", json={"game": "tictactoe"}).json()["session"]
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello"})
        next_of(socket, "view")
        socket.send_text(wrong)
        assert next_of(socket, "error")["error"].startswith("Bad message")
