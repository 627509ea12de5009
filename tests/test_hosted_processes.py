"""The hosted mode with real servers: three Parlour processes on one PostgreSQL database
and one Redis server, behind nginx with the shipped configuration. Every game is played
through nginx while viewers on each process watch; then a process is killed, paused past
its lease, Redis restarted and PostgreSQL stopped, and no acknowledged move is lost."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from parlour.games import GAMES
from tests.support.hosted import Hosted, NoNginx, start_hosted
from tests.support.markup import legal_moves
from tests.support.postgres import PostgresServer, unavailable
from tests.support.redis import RedisServer

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def hosted(postgres: PostgresServer, redis: RedisServer) -> Iterator[Hosted]:
    try:
        running = start_hosted(postgres, redis, count=3)
    except NoNginx as error:
        unavailable(f"no nginx for the hosted tests: {error}")
    yield running
    running.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(url: str, game: str) -> tuple[str, str]:
    made = httpx.post(f"{url}/api/games", json={"game": game}, timeout=30)
    assert made.status_code == 201, made.text
    return made.json()["session"], made.json()["token"]


def moves_made(url: str, sid: str, token: str) -> int:
    return int(httpx.get(f"{url}/api/games/{sid}", headers=bearer(token), timeout=30)
               .json()["moves"])


def play_a_move(url: str, sid: str, token: str, wait: float = 20.0) -> dict[str, Any]:
    """Play the first move the player's view offers that the rules accept (waiting for
    the computers' turns): the game's view once it is acknowledged."""
    deadline = time.monotonic() + wait
    with httpx.Client(base_url=url, headers=bearer(token), timeout=30) as client:
        while time.monotonic() < deadline:
            view = client.get(f"/api/games/{sid}").json()
            for move in legal_moves(str(view.get("html") or "")):
                played = client.post(f"/api/games/{sid}/moves", json={"move": move})
                if played.status_code == 200:
                    return dict(played.json())
            time.sleep(0.1)
    raise AssertionError(f"no move could be played in {sid} within {wait} s")


def owner_pid(hosted: Hosted, sid: str) -> int:
    """The pid of the process holding game `sid`'s lease (its id is host-pid-random)."""
    with psycopg.connect(hosted.database) as db:
        row = db.execute("SELECT owner FROM leases WHERE sid = %s", (sid,)).fetchone()
    assert row is not None, f"nobody holds {sid}"
    return int(row[0].rsplit("-", 2)[1])


def index_of(hosted: Hosted, pid: int) -> int:
    return next(i for i, p in enumerate(hosted.processes) if p.process.pid == pid)


def stored_moves(hosted: Hosted, sid: str) -> int:
    with psycopg.connect(hosted.database) as db:
        row = db.execute("SELECT cursor FROM sessions WHERE sid = %s", (sid,)).fetchone()
    assert row is not None
    return int(row[0])


class Watcher:
    """A spectator's WebSocket on one process: the move counts of the views it is sent."""

    def __init__(self, url: str, sid: str) -> None:
        self.url = url.replace("http://", "ws://") + f"/ws/{sid}"
        self.seen: list[int] = []
        self.socket: Any = None

    async def watch(self, stop: asyncio.Event) -> None:
        async with websockets.connect(self.url) as socket:
            await socket.send(json.dumps({"type": "hello", "token": None}))
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(socket.recv(), 0.2)
                except TimeoutError:
                    continue
                message = json.loads(text)
                view = message.get("view")
                if isinstance(view, dict) and "moves" in view:
                    self.seen.append(int(view["moves"]))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_plays_through_nginx_seen_by_viewers_on_every_process(
        hosted: Hosted, game: str) -> None:
    sid, token = new_game(hosted.url, game)
    watchers = [Watcher(p.url, sid) for p in hosted.processes]

    async def scene() -> int:
        stop = asyncio.Event()
        watching = [asyncio.create_task(w.watch(stop)) for w in watchers]
        await asyncio.sleep(0.5)  # each has its first view
        made = 0
        for _ in range(3):  # (a Minesweeper game may be lost on its second click)
            view = await asyncio.to_thread(play_a_move, hosted.url, sid, token)
            made = int(view["moves"])
            if view["status"] != "playing":
                break
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(made not in w.seen for w in watchers):
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.gather(*watching)
        return made

    made = asyncio.run(scene())
    assert made >= 1
    for watcher in watchers:  # the owner's viewers, and those on the two other processes
        assert made in watcher.seen, (watcher.url, watcher.seen)
    assert stored_moves(hosted, sid) == moves_made(hosted.url, sid, token)
