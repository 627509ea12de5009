"""What a load balancer asks of a Parlour process: is it up (/healthz), can it serve games
now (/readyz: its store answers)."""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.api import health
from parlour.server.app import create_app
from parlour.store.sqlite import SqliteStore as Store
from tests.support.servers import TEST_HOSTS


def test_a_running_process_is_healthy_and_ready(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}


class Unreadable(Store):
    """A store whose database has gone away: each read fails."""

    def results_version(self) -> tuple[float, ...]:
        raise OSError("the database is away")


class Hanging(Store):
    """A store whose database hangs: a read waits until `released`."""

    def __init__(self) -> None:
        super().__init__(":memory:")
        self.released = threading.Event()

    def results_version(self) -> tuple[float, ...]:
        self.released.wait(30)
        return ()


def app_client(store: Store) -> TestClient:
    return TestClient(create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS))


def test_a_process_whose_store_fails_is_alive_but_not_ready() -> None:
    with app_client(Unreadable(":memory:")) as client:
        assert client.get("/healthz").status_code == 200
        reply = client.get("/readyz")
        assert (reply.status_code, reply.json()) == (
            503, {"error": "The store cannot be read (OSError)"})


def test_a_hanging_store_is_not_ready_and_its_probes_wait_for_one_read(monkeypatch: Any
                                                                       ) -> None:
    monkeypatch.setattr(health, "READY_SECONDS", 0.2)
    store = Hanging()
    try:
        with app_client(store) as client:
            for _ in range(3):  # each waits for the one read under way, not a new thread
                reply = client.get("/readyz")
                assert (reply.status_code, reply.json()) == (
                    503, {"error": "The store has not answered within 0.2 s"})
            assert [t.name for t in threading.enumerate()].count("parlour-ready_0") == 1
            store.released.set()  # the database is back
            assert client.get("/readyz").json() == {"status": "ready"}
    finally:
        store.released.set()
