"""The hosted mode with real servers: three Parlour processes on one PostgreSQL database
and one Redis server, behind nginx with the shipped configuration. Every game is played
through nginx while viewers on each process watch; then a process is killed, paused past
its lease, Redis restarted and PostgreSQL stopped, and no acknowledged move is lost."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from parlour.games import GAMES
from tests.support.hosted import Hosted, NoNginx, start_hosted
from tests.support.loops import run_async
from tests.support.markup import legal_moves
from tests.support.postgres import PostgresServer, unavailable
from tests.support.redis import RedisServer, redis_fixture
from tests.test_uploads import png

pytestmark = pytest.mark.timeout(300)


def hosted_on(postgres: PostgresServer, redis: RedisServer) -> Iterator[Hosted]:
    try:
        running = start_hosted(postgres, redis, count=3)
    except NoNginx as error:
        unavailable(f"no nginx for the hosted tests: {error}")
    yield running
    running.stop()


@pytest.fixture
def hosted(postgres: PostgresServer, redis: RedisServer) -> Iterator[Hosted]:
    """Three processes and nginx of the test's own: it may kill, pause or cut them off."""
    yield from hosted_on(postgres, redis)


module_redis = pytest.fixture(scope="module")(redis_fixture)


@pytest.fixture(scope="module")
def shared_hosted(postgres: PostgresServer, module_redis: RedisServer) -> Iterator[Hosted]:
    """Three processes and nginx for the tests that only make and play games on them
    (starting them takes 4-8 s a test)."""
    yield from hosted_on(postgres, module_redis)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(url: str, game: str) -> tuple[str, str]:
    made = httpx.post(f"{url}/api/games", json={"game": game}, timeout=30)
    assert made.status_code == 201, made.text
    return made.json()["session"], made.json()["token"]


def moves_made(url: str, sid: str, token: str) -> int:
    """The plies in game `sid`'s line (a sliding puzzle's move count is of tiles)."""
    return int(httpx.get(f"{url}/api/games/{sid}", headers=bearer(token), timeout=30)
               .json()["line_length"])


def play_a_move(url: str, sid: str, token: str, wait: float = 20.0) -> dict[str, Any]:
    """Play the first move the player's view offers that the rules accept (waiting for
    the computers' turns): the game's view once it is acknowledged."""
    deadline = time.monotonic() + wait
    answers: list[str] = []  # the last answers, for the failure's message
    with httpx.Client(base_url=url, headers=bearer(token), timeout=30) as client:
        while time.monotonic() < deadline:
            read = client.get(f"/api/games/{sid}")
            view = read.json()
            answers.append(f"GET {read.status_code} {str(view)[:300]}")
            for move in legal_moves(str(view.get("html") or "")):
                played = client.post(f"/api/games/{sid}/moves", json={"move": move})
                if played.status_code == 200:
                    return dict(played.json())
                answers.append(f"POST {move} {played.status_code} {played.text[:300]}")
            time.sleep(0.1)
    raise AssertionError(f"no move could be played in {sid} within {wait} s; last answers:\n"
                         + "\n".join(answers[-6:]))


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
    """A spectator's WebSocket on one process: the move counts of the views it is sent.
    With `reconnect`, it comes back after a close that is not final, as a browser does
    (connection.js): a forwarded socket may be ended at any time (relay.py)."""

    def __init__(self, url: str, sid: str, reconnect: bool = False,
                 speed: str = "normal") -> None:
        self.url = url.replace("http://", "ws://") + f"/ws/{sid}"
        self.reconnect = reconnect
        self.speed = speed  # the computers' pace it asks for (spectators alone set it)
        self.seen: list[int] = []
        self.closed: int | None = None  # the code it was last closed with by the server
        self.heard: list[str] = []  # the close codes and errors it was sent, in order

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self._watch_once(stop)
            except TimeoutError:  # an opening handshake too slow (a loaded machine)
                if not self.reconnect:
                    raise
                self.heard.append("handshake timed out")  # a browser tries again too
            if not self.reconnect or (self.closed or 0) >= 4400:
                return
            await asyncio.sleep(0.2)

    async def _watch_once(self, stop: asyncio.Event) -> None:
        async with websockets.connect(self.url) as socket:
            await socket.send(json.dumps({"type": "hello", "token": None, "speed": self.speed}))
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(socket.recv(), 0.2)
                except TimeoutError:
                    continue
                except websockets.ConnectionClosed as closed:
                    self.closed = closed.rcvd.code if closed.rcvd else None
                    self.heard.append(f"closed {self.closed}")
                    return
                message = json.loads(text)
                view = message.get("view")
                if isinstance(view, dict) and "moves" in view:
                    self.seen.append(int(view["moves"]))
                elif message.get("type") == "error":
                    self.heard.append(str(message.get("error")))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_plays_through_nginx_seen_by_viewers_on_every_process(
        shared_hosted: Hosted, game: str) -> None:
    hosted = shared_hosted
    sid, token = new_game(hosted.url, game)
    # at the watched pace (0.6 s a move) a Tribolo player left without a move may wait
    # over a minute while the computers fill the board: their pace has tests of its own
    watchers = [Watcher(p.url, sid, reconnect=True, speed="instant") for p in hosted.processes]

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
        deadline = time.monotonic() + 20  # (a socket ended reconnects, as a browser does)
        while time.monotonic() < deadline and any(made not in w.seen for w in watchers):
            await asyncio.sleep(0.05)
        stop.set()
        await asyncio.gather(*watching)
        return made

    made = run_async(scene())
    assert made >= 1
    for watcher in watchers:  # the owner's viewers, and those on the two other processes
        assert made in watcher.seen, (watcher.url, watcher.seen, watcher.heard)
    assert stored_moves(hosted, sid) == moves_made(hosted.url, sid, token)


class Player:
    """A player of one game who moves as fast as the answers come, through nginx,
    keeping count of the moves acknowledged and when each came."""

    def __init__(self, url: str, sid: str, token: str) -> None:
        self.url, self.sid, self.token = url, sid, token
        self.acknowledged = 0
        self.times: list[float] = []
        self.refused = 0

    def play_until(self, stop: float) -> None:
        with httpx.Client(base_url=self.url, headers=bearer(self.token), timeout=30) as client:
            while time.monotonic() < stop:
                try:
                    view = client.get(f"/api/games/{self.sid}")
                    offered = legal_moves(str(view.json().get("html") or ""))
                except (httpx.HTTPError, ValueError):
                    self.refused += 1
                    time.sleep(0.05)
                    continue
                self._play_one(client, offered)

    def _play_one(self, client: httpx.Client, offered: list[Any]) -> None:
        for move in offered:
            try:
                played = client.post(f"/api/games/{self.sid}/moves", json={"move": move})
            except httpx.HTTPError:  # the process died under the request: not acknowledged
                self.refused += 1
                return
            if played.status_code == 200:
                self.acknowledged = int(played.json()["line_length"])  # its plies
                self.times.append(time.monotonic())
                return
            if played.status_code >= 500:
                self.refused += 1
                time.sleep(0.05)
                return


def play_all(players: list[Player], seconds: float) -> None:
    """Every player plays, each in a thread of its own, for `seconds`."""
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=p.play_until, args=(stop,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def sliding_games(hosted: Hosted, count: int) -> list[Player]:
    return [Player(hosted.url, *new_game(hosted.url, "sliding")) for _ in range(count)]


def test_nginx_sends_a_players_browser_to_one_process_and_a_first_visit_anywhere(
    shared_hosted: Hosted,
) -> None:
    """The shipped configuration's affinity: a player's games are made, so played, by
    the process its cookie is sent to; requests without a cookie yet go round."""
    hosted = shared_hosted
    def owners(headers: dict[str, str]) -> set[int]:
        made = [httpx.post(f"{hosted.url}/api/games", json={"game": "sliding"},
                           headers=headers, timeout=30) for _ in range(6)]
        return {owner_pid(hosted, game.json()["session"]) for game in made}

    for player in ("a" * 22, "b" * 22, "c" * 22):
        assert len(owners({"Cookie": f"parlour_player={player}"})) == 1
    assert len(owners({})) == 3


def test_a_killed_owner_loses_no_acknowledged_move_and_its_games_go_on(
        hosted: Hosted) -> None:
    players = sliding_games(hosted, 9)  # nginx spreads them over the three processes
    victim = index_of(hosted, owner_pid(hosted, players[0].sid))
    orphans = [p for p in players if owner_pid(hosted, p.sid) == hosted.processes[victim]
               .process.pid]
    killed_at: list[float] = []

    def kill_soon() -> None:
        time.sleep(2)
        killed_at.append(time.monotonic())
        hosted.processes[victim].kill()

    async def scene() -> None:
        await asyncio.gather(asyncio.to_thread(play_all, players, 14),
                             asyncio.to_thread(kill_soon))

    run_async(scene())
    for player in players:  # every acknowledged move is in the database
        assert stored_moves(hosted, player.sid) >= player.acknowledged > 0, player.sid
    takeovers = []
    for player in orphans:  # taken over by another process, and played on
        after = [killed_at[0], *(t for t in player.times if t > killed_at[0])]
        assert len(after) > 1, f"{player.sid} was never played again after its owner died"
        takeovers.append(max(b - a for a, b in itertools.pairwise(after)))  # its pause
        assert owner_pid(hosted, player.sid) != hosted.processes[victim].process.pid
    print(f"takeover after a SIGKILL: the longest pause {max(takeovers):.2f} s"
          f" over {len(takeovers)} games")
    assert max(takeovers) < 8.0


def test_an_owner_paused_past_its_lease_can_never_write_again(hosted: Hosted) -> None:
    sid, token = new_game(hosted.url, "sliding")
    play_a_move(hosted.url, sid, token)
    old = index_of(hosted, owner_pid(hosted, sid))
    other = hosted.processes[(old + 1) % 3].url
    old_url = hosted.processes[old].url
    hosted.pause(old)
    try:
        # a move sent straight to the paused owner waits in its socket's queue
        late = ThreadedRequest(old_url, sid, token)
        time.sleep(4.5)  # past its lease (3 s)
        made = [int(play_a_move(other, sid, token)["line_length"]) for _ in range(3)]
    finally:
        hosted.resume(old)
    status = late.result()
    # On waking, the old owner either meets the late move first and is refused at the
    # database (409/503), or renews its leases first, finds the game lost and hands the
    # move to the new owner, which plays it after the others (200; seen under load).
    # Either way the move is never played on the old owner's stale copy.
    assert status in (200, 409, 503), status
    handed_on = 1 if status == 200 else 0
    time.sleep(1.5)  # its leases' next renewal finds the game lost
    assert stored_moves(hosted, sid) == made[-1] + handed_on == moves_made(other, sid, token)
    assert index_of(hosted, owner_pid(hosted, sid)) != old
    assert moves_made(old_url, sid, token) == made[-1] + handed_on  # it forwards now


class ThreadedRequest:
    """A move posted in a thread of its own; `result()`: its status."""

    def __init__(self, url: str, sid: str, token: str) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(1)
        self._future = self._pool.submit(self._post, url, sid, token)

    @staticmethod
    def _post(url: str, sid: str, token: str) -> int:
        any_slide = {"cell": [0, 0]}
        with httpx.Client(base_url=url, headers=bearer(token), timeout=60) as client:
            return client.post(f"/api/games/{sid}/moves", json={"move": any_slide}).status_code

    def result(self) -> int:
        try:
            return self._future.result(60)
        finally:
            self._pool.shutdown()


def test_a_restart_of_redis_loses_no_move_and_views_resume(hosted: Hosted) -> None:
    sid, token = new_game(hosted.url, "sliding")
    owner = index_of(hosted, owner_pid(hosted, sid))
    owner_url = hosted.processes[owner].url
    elsewhere = hosted.processes[(owner + 1) % 3].url
    watcher = Watcher(elsewhere, sid)  # its view travels over Redis

    async def scene() -> list[dict[str, Any]]:
        stop = asyncio.Event()
        watching = asyncio.create_task(watcher.watch(stop))
        await asyncio.sleep(0.5)
        acknowledged = [await asyncio.to_thread(play_a_move, owner_url, sid, token)]
        hosted.redis.stop()
        started = time.monotonic()
        # the owner plays on without Redis: its own players need no bus
        acknowledged.append(await asyncio.to_thread(play_a_move, owner_url, sid, token))
        # a request through another process is answered at once: 503, nothing hangs
        through = await asyncio.to_thread(
            lambda: httpx.get(f"{elsewhere}/api/games/{sid}", timeout=30).status_code)
        assert through == 503 and time.monotonic() - started < 5
        await asyncio.wait_for(watching, 10)  # the forwarded view was ended: it reconnects
        assert watcher.closed == 1012
        hosted.redis.start()
        await asyncio.sleep(2)  # the processes are back on the bus
        stop.clear()
        watching = asyncio.create_task(watcher.watch(stop))
        await asyncio.sleep(0.5)
        acknowledged.append(await asyncio.to_thread(play_a_move, elsewhere, sid, token))
        await asyncio.sleep(0.5)
        stop.set()
        await watching
        return acknowledged

    acknowledged = run_async(scene())
    assert [view["line_length"] for view in acknowledged] == [1, 2, 3]
    # (a view's "moves" counts tiles: one slide may move several)
    assert acknowledged[-1]["moves"] in watcher.seen, (acknowledged, watcher.seen)
    assert stored_moves(hosted, sid) == 3


def test_postgresql_stopped_answers_503_never_a_false_acknowledgement(
        hosted: Hosted) -> None:
    sid, token = new_game(hosted.url, "sliding")
    play_a_move(hosted.url, sid, token)
    owner_url = hosted.processes[index_of(hosted, owner_pid(hosted, sid))].url
    view = httpx.get(f"{owner_url}/api/games/{sid}", headers=bearer(token), timeout=30).json()
    offered = legal_moves(str(view["html"]))
    hosted.postgres.halt()
    try:
        answers = []
        with httpx.Client(base_url=owner_url, headers=bearer(token), timeout=30) as client:
            for move in offered:
                started = time.monotonic()
                answer = client.post(f"/api/games/{sid}/moves", json={"move": move})
                answers.append((answer.status_code, time.monotonic() - started))
                if answer.status_code != 409:  # (409: a slide the rules refuse)
                    break
        status, took = answers[-1]
        assert status == 503 and took < 15, answers
        assert "database" in answer.json()["error"]
    finally:
        hosted.postgres.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # play resumes once PostgreSQL is back
        try:
            made = int(play_a_move(hosted.url, sid, token, wait=3)["line_length"])
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("play did not resume once PostgreSQL was back")
    assert made == 2 and stored_moves(hosted, sid) == 2


def test_hints_takebacks_pictures_statistics_resume_and_files_work_across_processes(
        hosted: Hosted) -> None:
    a, b, c = (p.url for p in hosted.processes)
    # a picture uploaded through one process deals a puzzle on another (kept in PostgreSQL)
    upload = httpx.post(f"{a}/api/uploads", content=png(64, 64),
                        headers={"Content-Type": "image/png"}, timeout=30)
    assert upload.status_code == 201, upload.text
    made = httpx.post(f"{b}/api/games", json={"game": "sliding", "params": {
        "picture": upload.json()["upload"]}}, timeout=30)
    assert made.status_code == 201, made.text
    picture = httpx.get(f"{c}/api/uploads/{upload.json()['upload']}", timeout=30)
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/")

    # a hint, asked through a process that does not play the game, is worked out by the
    # one that does (its worker pool) and relayed
    sid, token = made.json()["session"], made.json()["token"]
    hint = httpx.post(f"{c}/api/games/{sid}/hint", headers=bearer(token), timeout=60)
    assert hint.status_code == 200 and hint.json()["move"], hint.text

    # a take-back between two people on two processes
    two = httpx.post(f"{a}/api/games", json={"game": "tictactoe", "seats": ["human", "open"]},
                     timeout=30).json()
    joined = httpx.post(f"{b}/api/games/{two['session']}/join", timeout=30).json()
    cross, circle = bearer(two["token"]), bearer(joined["token"])
    assert httpx.post(f"{c}/api/games/{two['session']}/moves", headers=cross,
                      json={"move": {"cell": [1, 1]}}, timeout=30).status_code == 200
    asked = httpx.post(f"{b}/api/games/{two['session']}/undo", headers=cross, timeout=30)
    assert asked.status_code == 200, asked.text
    answered = httpx.post(f"{a}/api/games/{two['session']}/takeback", headers=circle,
                          json={"accept": True}, timeout=30)
    assert answered.status_code == 200 and answered.json()["moves"] == 0  # taken back

    # a finished game counts in each player's statistics, whichever process reads them
    finish = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]]
    for turn, cell in enumerate(finish):
        played = httpx.post(f"{(a, b, c)[turn % 3]}/api/games/{two['session']}/moves",
                            headers=(cross, circle)[turn % 2], json={"move": {"cell": cell}},
                            timeout=30)
        assert played.status_code == 200, played.text
    for url in (a, b, c):
        for held, side in ((two["token"], "Cross"), (joined["token"], "Circle")):
            groups = httpx.post(f"{url}/api/stats/mine?game=tictactoe", json={"tokens": [held]},
                                timeout=30).json()["groups"]
            assert [group["players"] for group in groups] == [f"Online with a friend, as {side}"]
        assert httpx.get(f"{url}/api/stats", timeout=30).status_code == 403  # shared: mine only

    # the resume list, and a game exported through one process and imported on another
    play_a_move(b, sid, token)
    mine = httpx.post(f"{c}/api/sessions/mine", json={"tokens": [token]}, timeout=30).json()
    assert [game["session"] for game in mine["games"]] == [sid]
    saved = httpx.get(f"{a}/api/games/{sid}/export", headers=bearer(token), timeout=30)
    assert saved.status_code == 200
    imported = httpx.post(f"{b}/api/games/import", content=saved.content,
                          headers={"Content-Type": "application/json"}, timeout=30)
    assert imported.status_code == 201, imported.text
