"""Pacing (issue 33): a client asking as fast as it can is slowed to its rate, and
refused once it would wait too long, while every other client is served at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from parlour.games import GAMES
from parlour.server.api import pace
from parlour.server.api.pace import UNIT_BYTES, Pace, Pacer
from parlour.server.app import create_app
from parlour.store.sqlite import SqliteStore as Store
from tests.support.imports import to_and_fro_file
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS


def cookie(name: str) -> dict[str, str]:
    return {"Cookie": "parlour_player=" + name * 22}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_client_within_its_burst_waits_for_nothing_and_past_it_waits_its_rate() -> None:
    clock = Clock()
    pacer = Pacer(rate=10, burst=3, clock=clock)
    assert [pacer.spend("a", 1) for _ in range(3)] == [0, 0, 0]
    assert pacer.spend("a", 1) == pytest.approx(0.1)
    assert pacer.spend("a", 1) == pytest.approx(0.2)
    assert pacer.spend("b", 1) == 0  # another client's units are its own


def test_a_clients_units_drain_at_its_rate() -> None:
    clock = Clock()
    pacer = Pacer(rate=10, burst=3, clock=clock)
    for _ in range(5):
        pacer.spend("a", 1)
    clock.now += 0.2  # two units drained: four owed
    assert pacer.spend("a", 0) == pytest.approx(0.0)
    assert pacer.spend("a", 1) == pytest.approx(0.1)
    clock.now += 60
    assert pacer.spend("a", 1) == 0


async def answer(scope: Scope, receive: Receive, send: Send) -> None:
    """A route answering as many bytes as its path says."""
    size = int(scope["path"].rsplit("/", 1)[1])
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"x" * size})


def paced(rate: float, burst: float) -> tuple[Pace, httpx.AsyncClient]:
    middleware = Pace(answer, rate=rate, burst=burst)
    transport = httpx.ASGITransport(app=middleware)
    return middleware, httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")


def test_the_bytes_a_request_carries_cost_its_client_more() -> None:
    async def scenario() -> tuple[float, float]:
        middleware, client = paced(rate=1e-6, burst=1000)  # nothing drains meanwhile
        assert middleware.pacer is not None
        async with client:
            await client.get("/api/1", headers=cookie("a"))
            await client.get(f"/api/{5 * UNIT_BYTES}", headers=cookie("b"))
        return (middleware.pacer.owed("player:" + "a" * 22),
                middleware.pacer.owed("player:" + "b" * 22))

    small, large = run_async(scenario())
    assert small == pytest.approx(1, abs=0.01)
    assert large == pytest.approx(6, abs=0.01)  # one for the request, five for its bytes


def test_a_flooding_client_is_slowed_then_refused_while_another_is_served_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pace, "MAX_WAIT", 0.5)

    async def scenario() -> tuple[list[int], float, int]:
        _, client = paced(rate=4, burst=3)
        async with client:
            flood = await asyncio.gather(*(client.get("/api/10", headers=cookie("f"))
                                           for _ in range(8)))
            started = asyncio.get_running_loop().time()
            other = await client.get("/api/10", headers=cookie("o"))
            waited = asyncio.get_running_loop().time() - started
        return [answer.status_code for answer in flood], waited, other.status_code

    statuses, waited, other = run_async(scenario())
    # three at once, two more within half a second (0.25 s and 0.5 s), the rest refused
    assert statuses == [200] * 5 + [429] * 3
    assert other == 200 and waited < 0.2


@pytest.fixture
def burst() -> float:
    return 3.0


@pytest.fixture
def slow_app(store: Store, burst: float, monkeypatch: pytest.MonkeyPatch
             ) -> Iterator[TestClient]:
    """The server with pacing at half a unit a second, after `burst` units at once."""
    monkeypatch.setenv("PARLOUR_REQUEST_RATE", "0.5")
    monkeypatch.setattr(pace, "BURST", burst)
    monkeypatch.setattr(pace, "MAX_WAIT", 0.5)
    with TestClient(create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS),
                    base_url="http://127.0.0.1") as client:
        yield client


def test_the_server_refuses_a_flood_with_429_and_when_to_come_back(slow_app: TestClient
                                                                  ) -> None:
    answers = [slow_app.get("/api/catalog", headers=cookie("f")) for _ in range(4)]
    assert answers[0].status_code == 200  # within its burst
    refused = answers[-1]  # three units and the catalog's bytes spent: over it
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Too many requests from your browser: try again in")
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.headers["x-content-type-options"] == "nosniff"  # the guard's headers
    assert slow_app.get("/api/catalog", headers=cookie("o")).status_code == 200
    assert slow_app.get("/static/home.html", headers=cookie("f")).status_code == 200


@pytest.mark.parametrize("burst", [60.0])  # room for a short file, not for a long one
def test_an_imported_file_costs_its_importer_by_the_moves_it_holds(slow_app: TestClient
                                                                   ) -> None:
    short, long = to_and_fro_file(200), to_and_fro_file(6000)  # two and sixty units
    for name, saved in (("s", short), ("l", long)):
        imported = slow_app.post("/api/games/import", content=json.dumps(saved),
                                 headers={"Content-Type": "application/json", **cookie(name)})
        assert imported.status_code == 201, imported.text
    assert slow_app.get("/api/catalog", headers=cookie("s")).status_code == 200
    assert slow_app.get("/api/catalog", headers=cookie("l")).status_code == 429
