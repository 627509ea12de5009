"""Fair shares (issue 33): the worker pool serves clients in turn, each client's games,
hints and long work are bounded (429), and a game's computers stop when everyone has
left it, until someone returns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from starlette.requests import Request

from parlour.games import GAMES
from parlour.server.api.rest import while_connected
from parlour.server.app import create_app
from parlour.server.compute import Compute, FairQueue, Progress, working_for
from parlour.server.hub.core import Hub
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.messages import AskHint
from parlour.server.hub.shares import (
    COMPUTER_GAMES_PER_CLIENT,
    COMPUTER_GAMES_RUNNING,
    HINTS_PER_CLIENT,
    LIVE_GAMES_PER_CLIENT,
)
from parlour.server.hub.tokens import Presented
from parlour.server.hub.viewers import Viewer
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS

T = TypeVar("T")
COMPUTERS = ["ai:random", "ai:random"]


class Recorded(Compute):
    """The real fair queue in front of a fake pool: each job runs here after `pause`,
    and the order jobs got a worker in is recorded as (client, label)."""

    def __init__(self, workers: int = 1, pause: float = 0.01) -> None:
        super().__init__(workers=workers)
        self.pause = pause
        self.started: list[tuple[str, Any]] = []

    async def _run_now(self, budget: float, work: Callable[..., T], args: tuple[Any, ...],
                       progress: Progress | None) -> T:
        self.started.append((working_for.get(), args[0] if args else None))
        await asyncio.sleep(self.pause)
        return work(*args)


def label(value: Any) -> Any:
    return value


async def run_for(compute: Compute, client: str, value: Any) -> Any:
    working_for.set(client)  # this task's own context
    return await compute.run(10, label, value)


# -- the queue --------------------------------------------------------------------------
def test_the_queue_serves_the_clients_with_work_waiting_in_turn() -> None:
    queue: FairQueue[str] = FairQueue()
    for n in range(5):
        queue.put("burst", f"b{n}")
    queue.put("victim", "v0")
    queue.put("other", "o0")
    queue.put("other", "o1")
    taken = [queue.take() for _ in range(len(queue))]
    assert taken == ["b0", "v0", "o0", "b1", "o1", "b2", "b3", "b4"]
    assert queue.take() is None


def test_a_client_whose_job_just_started_waits_behind_the_others() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.started("burst")  # a worker was free: its first job went straight in
    for n in range(1, 4):
        queue.put("burst", f"b{n}")
    queue.put("victim", "v0")
    assert [queue.take(), queue.take(), queue.take()] == ["v0", "b1", "b2"]
    for _ in range(3):
        queue.finished("burst")
    queue.finished("victim")
    assert queue.take() == "b3"


def test_work_nobody_waits_for_leaves_the_queue() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.put("a", "a0")
    queue.put("a", "a1")
    queue.put("b", "b0")
    queue.drop("a", "a0")
    queue.drop("b", "b0")
    queue.drop("b", "gone")  # already taken: nothing happens
    assert [queue.take(), queue.take()] == ["a1", None]


def test_a_burst_from_one_client_delays_another_clients_move_by_one_turn_only() -> None:
    async def scenario() -> list[tuple[str, Any]]:
        compute = Recorded(workers=1)
        burst = [asyncio.create_task(run_for(compute, "burst", n)) for n in range(30)]
        await asyncio.sleep(0)  # the burst is queued (one job already has the worker)
        move = asyncio.create_task(run_for(compute, "victim", "move"))
        await asyncio.gather(*burst, move)
        return compute.started

    started = run_async(scenario())
    assert started[:3] == [("burst", 0), ("victim", "move"), ("burst", 1)]
    assert [value for client, value in started if client == "burst"] == list(range(30))


def test_the_queue_skips_a_client_that_may_not_start_and_keeps_its_place() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.put("burst", "b0")
    queue.put("victim", "v0")
    assert queue.take(lambda client: client != "burst") == "v0"
    assert queue.take(lambda client: client != "burst") is None
    assert queue.take() == "b0"


class Overlapping(Recorded):
    """Records the most jobs each client held at once."""

    def __init__(self, workers: int, pause: float) -> None:
        super().__init__(workers=workers, pause=pause)
        self.holding: dict[str, int] = {}
        self.most: dict[str, int] = {}

    async def _run_now(self, budget: float, work: Callable[..., T], args: tuple[Any, ...],
                       progress: Progress | None) -> T:
        client = working_for.get()
        self.holding[client] = self.holding.get(client, 0) + 1
        self.most[client] = max(self.most.get(client, 0), self.holding[client])
        try:
            return await super()._run_now(budget, work, args, progress)
        finally:
            self.holding[client] -= 1


def test_a_player_alone_has_every_worker() -> None:
    async def scenario() -> dict[str, int]:
        compute = Overlapping(workers=3, pause=0.02)
        await asyncio.gather(*(run_for(compute, "alone", n) for n in range(9)))
        return compute.most

    assert run_async(scenario()) == {"alone": 3}


def test_while_another_player_is_around_a_long_burst_leaves_them_a_free_worker() -> None:
    async def scenario() -> tuple[dict[str, int], float]:
        compute = Overlapping(workers=2, pause=0.2)
        await run_for(compute, "victim", "first move")  # the victim is around
        burst = [asyncio.create_task(run_for(compute, "burst", n)) for n in range(6)]
        await asyncio.sleep(0.01)  # the burst holds what it may
        asked = asyncio.get_running_loop().time()
        await run_for(compute, "victim", "move")
        waited = asyncio.get_running_loop().time() - asked
        await asyncio.gather(*burst)
        return compute.most, waited

    most, waited = run_async(scenario())
    assert most["burst"] == 1  # of two workers
    assert waited < 0.3  # its own job (0.2 s), not also the rest of a burst job


def test_queued_work_whose_caller_stopped_waiting_never_runs() -> None:
    async def scenario() -> list[tuple[str, Any]]:
        compute = Recorded(workers=1, pause=0.05)
        first = asyncio.create_task(run_for(compute, "a", "first"))
        await asyncio.sleep(0)
        dropped = [asyncio.create_task(run_for(compute, "a", n)) for n in range(5)]
        await asyncio.sleep(0)
        for task in dropped:
            task.cancel()
        kept = asyncio.create_task(run_for(compute, "b", "kept"))
        await asyncio.gather(first, kept)
        await asyncio.gather(*dropped, return_exceptions=True)
        assert compute.waiting() == 0
        return compute.started

    assert run_async(scenario()) == [("a", "first"), ("b", "kept")]


# -- the limits -------------------------------------------------------------------------
@pytest.fixture
def api(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0,
                     allowed_hosts=TEST_HOSTS, compute=Recorded(workers=2, pause=0.0))
    with TestClient(app) as client:
        yield client


def test_unfinished_games_over_a_players_share_are_refused_until_one_ends_or_is_forgotten(
    api: TestClient,
) -> None:
    games = []
    for _ in range(LIVE_GAMES_PER_CLIENT):
        created = api.post("/api/games", json={"game": "tictactoe",
                                               "seats": ["human", "human"]})
        assert created.status_code == 201, created.text
        games.append(created.json())
    refused = api.post("/api/games", json={"game": "tictactoe"})
    assert refused.status_code == 429
    assert set(refused.json()) == {"error"}
    assert f"({LIVE_GAMES_PER_CLIENT} per player)" in refused.json()["error"]

    ended, forgotten = games[0], games[1]
    for cell in ([0, 0], [0, 1], [1, 0], [1, 1], [2, 0]):  # Cross wins down a column
        played = api.post(f"/api/games/{ended['session']}/moves", json={"move": {"cell": cell}},
                          headers={"Authorization": f"Bearer {ended['token']}"})
        assert played.status_code == 200, played.text
    assert played.json()["status"] != "playing"
    assert api.post("/api/games", json={"game": "tictactoe"}).status_code == 201
    assert api.post("/api/games", json={"game": "tictactoe"}).status_code == 429

    forget = api.post(f"/api/games/{forgotten['session']}/forget", json={"forget": True},
                      headers={"Authorization": f"Bearer {forgotten['token']}"})
    assert forget.status_code == 200, forget.text
    assert api.post("/api/games", json={"game": "tictactoe"}).status_code == 201


class Thinking(Compute):
    """The fair queue in front of work that takes `pause` seconds, inline."""

    def __init__(self, pause: float) -> None:
        super().__init__(workers=2)
        self.pause = pause
        self.jobs = 0

    async def _run_now(self, budget: float, work: Callable[..., T], args: tuple[Any, ...],
                       progress: Progress | None) -> T:
        self.jobs += 1
        await asyncio.sleep(self.pause)
        return work(*args)


def a_page() -> Viewer:
    async def send(message: Any) -> None:
        pass

    return Viewer(frozenset(), send, None, 5.0)


def test_games_of_computers_only_are_bounded_per_player_and_on_the_server(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0,
                  compute=Thinking(pause=60.0))
        for _ in range(COMPUTER_GAMES_PER_CLIENT):
            await hub.create("tictactoe", seats=COMPUTERS, client="player:a")
        with pytest.raises(ApiError) as refused:
            await hub.create("tictactoe", seats=COMPUTERS, client="player:a")
        assert refused.value.status == 429 and "per player" in refused.value.message
        await hub.create("tictactoe", seats=["human", "ai:perfect"], client="player:a")

        others = COMPUTER_GAMES_RUNNING - COMPUTER_GAMES_PER_CLIENT
        for n in range(others):
            await hub.create("tictactoe", seats=COMPUTERS, client=f"player:{n}")
        with pytest.raises(ApiError) as full:
            await hub.create("tictactoe", seats=COMPUTERS, client="player:new")
        assert full.value.status == 429 and "server runs" in full.value.message

        # a game its watchers all left no longer runs, and no longer counts
        left = next(live for live in hub.live.values() if live.client == "player:a")
        hub.page_opened(left, page := a_page())
        hub.page_closed(left, page)
        await hub.create("tictactoe", seats=COMPUTERS, client="player:new")
        for live in hub.live.values():
            hub.turns.stop(live)
        hub.store.close()

    run_async(scenario())


def test_hints_over_a_players_share_are_refused_until_one_is_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, compute=Thinking(pause=0.3))
        games = [presenting(await hub.create("tictactoe", seats=["human", "human"],
                                             client="player:a")) for _ in range(5)]
        asking = [asyncio.create_task(hub.act(live, token, AskHint(), "player:a"))
                  for live, token in games[:HINTS_PER_CLIENT]]
        await asyncio.sleep(0.05)
        live, token = games[HINTS_PER_CLIENT]
        with pytest.raises(ApiError) as refused:
            await hub.act(live, token, AskHint(), "player:a")
        assert refused.value.status == 429 and "hints" in refused.value.message
        other = presenting(await hub.create("tictactoe", seats=["human", "human"],
                                            client="player:b"))
        assert await hub.act(*other, AskHint(), "player:b") is not None  # not theirs
        await asyncio.gather(*asking)
        assert await hub.act(live, token, AskHint(), "player:a") is not None
        hub.store.close()

    run_async(scenario())


def presenting(made: tuple[Live, str]) -> tuple[Live, Presented]:
    """A game made, and its token as its player presents it."""
    live, token = made
    return live, Presented(token)


# -- nobody there ----------------------------------------------------------------------
def test_computers_stop_when_everyone_has_left_and_go_on_when_someone_returns(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        compute = Thinking(pause=0.02)
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0, compute=compute)
        live, _ = await hub.create("tictactoe", seats=COMPUTERS, client="player:a")
        page = a_page()
        hub.left_grace = 0.05  # the thinking under way is stopped after it
        hub.page_opened(live, page)
        await asyncio.sleep(0.05)
        hub.page_closed(live, page)
        await asyncio.sleep(0.1)
        stopped_at, jobs = live.session.cursor, compute.jobs
        assert 0 < stopped_at < 9
        await asyncio.sleep(0.3)
        assert (live.session.cursor, compute.jobs) == (stopped_at, jobs)  # nothing queued
        assert not live.busy()  # it may leave memory

        hub.page_opened(live, again := a_page())
        await asyncio.wait_for(hub.settle(live), 5.0)
        assert live.session.status != "playing"
        hub.page_closed(live, again)
        hub.store.close()

    run_async(scenario())


def test_a_request_whose_client_hangs_up_drops_its_work(tmp_path: Path) -> None:
    async def scenario() -> None:
        compute = Thinking(pause=0.05)
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0, compute=compute)
        hub.left_grace = 0.05
        hung_up = asyncio.Event()

        async def receive() -> dict[str, Any]:
            await hung_up.wait()
            return {"type": "http.disconnect"}

        request = Request({"type": "http", "headers": []}, receive)

        async def created_and_settled() -> Any:
            live, _ = await hub.create("tictactoe", seats=COMPUTERS, client="player:a")
            await hub.settle(live)  # a game of computers only: until it is over
            return live

        waiting = asyncio.create_task(while_connected(request, created_and_settled()))
        await asyncio.sleep(0.12)
        hung_up.set()
        with pytest.raises(ApiError, match="hung up"):
            await waiting
        (live,) = hub.live.values()
        await asyncio.sleep(0.1)
        stopped_at = live.session.cursor
        await asyncio.sleep(0.3)
        assert live.left and live.session.cursor == stopped_at < 9
        hub.store.close()

    run_async(scenario())


def test_a_watched_game_no_page_has_opened_runs_nothing_and_holds_no_share(
    tmp_path: Path,
) -> None:
    """A browser's new game waits for its page: until one opens it, it is not running."""
    async def scenario() -> None:
        hub = Hub(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0,
                  compute=Thinking(pause=60.0))
        for _ in range(COMPUTER_GAMES_PER_CLIENT + 2):
            live, _ = await hub.create("tictactoe", seats=COMPUTERS, client="player:a",
                                       watched=True)
            assert live.left and live.ai_task is None and live.session.cursor == 0
        await hub.create("tictactoe", seats=COMPUTERS, client="player:a")  # still allowed
        hub.page_opened(live, a_page())  # a page opens the last watched one: it runs
        assert not live.left and live.ai_task is not None
        for each in hub.live.values():
            hub.turns.stop(each)
        hub.store.close()

    run_async(scenario())
