"""Fixtures for every test folder (tests/ and each game's tests/): an in-process API
client, a real server process, Chromium, a PostgreSQL server, and a folder of solver
tables of the run's own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.tables import FOLDER_VARIABLE
from parlour.games import GAMES
from parlour.server import limits
from parlour.server.app import create_app
from parlour.store import Store as AnyStore
from parlour.store.sqlite import SqliteStore as Store
from tests.support.chromium import chromium_available, launch_chromium
from tests.support.postgres import PostgresServer, postgres_fixture
from tests.support.redis import redis_fixture
from tests.support.servers import TEST_HOSTS, RunningServer, start_server


@pytest.fixture(scope="session", autouse=True)
def tables_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Solver tables are built into a folder of this run's, not the user's: set in the
    environment before any worker process or server starts, so they inherit it. The
    run's test workers share it (each is a folder of the run's own temporary one), so that
    a table is built about once a run, not once a worker (tables.py writes atomically)."""
    run = tmp_path_factory.getbasetemp()
    folder = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "tables"
    folder.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(FOLDER_VARIABLE, str(folder))
        # every test is one client (of one shared server, for the browser's): no share of
        # games for them (benchmarks start servers with the host's defaults)
        patch.setenv("PARLOUR_GAMES_PER_CLIENT", "100000")
        patch.setenv("PARLOUR_REQUEST_RATE", "0")  # nor pacing (api/pace.py)
        for variable in limits.VARIABLES.values():  # nor rate limits (server/limits/)
            patch.setenv(variable, "0")
        yield folder


postgres = pytest.fixture(scope="session")(postgres_fixture)
"""A throwaway PostgreSQL server for the run (tests/support/postgres.py)."""


redis = pytest.fixture(redis_fixture)
"""A throwaway Redis server of the test's own (tests/support/redis.py): a test may stop
and restart it."""


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """A new, empty PostgreSQL database of the test's own (a schema of its own)."""
    return postgres.new_schema()


@pytest.fixture
def postgres_store(postgres_url: str) -> Iterator[AnyStore]:
    from parlour.store.postgres import PostgresStore

    opened = PostgresStore(postgres_url)
    yield opened
    opened.close()


@pytest.fixture
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AnyStore]:
    """The test's store, and its app's: a SQLite file, or in a test marked
    `@on_both_stores` (tests/support/stores.py) SQLite's and then PostgreSQL's."""
    if getattr(request, "param", "sqlite") == "postgres":
        yield request.getfixturevalue("postgres_store")
        return
    opened = Store(tmp_path / "parlour.sqlite3")
    yield opened
    opened.close()  # its checkpointer thread too (the app's shutdown may have closed it)


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """The app in-process, with AI replies at once (no display delay)."""
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A real `parlour` process on a free port, shared by the browser tests."""
    running = start_server(tmp_path_factory.mktemp("server") / "parlour.sqlite3")
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not chromium_available():
        message = "Chromium is not installed at /usr/bin/chromium (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright)
        yield launched
        launched.close()
