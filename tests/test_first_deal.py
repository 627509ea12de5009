"""A first game right after the server starts: its deal must not wait for a worker
process to start (half a second or more). A newcomer's slow deal (Escalator's winnable
one) is made ready while the game's page loads; a deal that is quick is made in place, with no
worker at all (a new no-guess minefield, whose mines come at its first click)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.compute import Compute, Progress
from parlour.server.hub.ready import ReadyDeals
from parlour.store.sqlite import SqliteStore as Store

T = TypeVar("T")


class Watched(Compute):
    """A pool that never starts: it runs the work sent to it in this process, and
    names each piece."""

    def __init__(self) -> None:
        super().__init__(workers=1)
        self.ran: list[str] = []

    async def run(
        self, budget: float, work: Callable[..., T], *args: Any, progress: Progress | None = None,
        started: Callable[[], None] | None = None,
    ) -> T:
        self.ran.append(work.__name__)
        return work(*args)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Watched]]:
    compute = Watched()
    app = create_app(Store(tmp_path / "db.sqlite3"), GAMES, ai_delay_scale=0,
                     allowed_hosts=("testserver",), compute=compute)
    with TestClient(app) as client:
        yield client, compute


def page_loaded(client: TestClient, game: str) -> ReadyDeals:
    """GET the game's page, and wait for the deal it set off, if any."""
    assert client.get(f"/play/{game}").status_code == 200
    ready: ReadyDeals = client.app.state.hub.opening.ready  # type: ignore[attr-defined]

    async def dealt() -> None:
        await asyncio.gather(*ready._dealing)

    client.portal.call(dealt)  # type: ignore[union-attr]
    return ready


def test_the_first_winnable_deal_is_made_while_the_page_loads(
    served: tuple[TestClient, Watched],
) -> None:
    """The page's first newcomer's game takes it, with no worker to wait for; the next is
    dealt in a worker, as before, and a deal of other parameters or a given id never
    takes it."""
    client, compute = served
    page_loaded(client, "escalator")
    random_deal = client.post("/api/games", json={"game": "escalator",
                                                  "params": {"winnable": False}})
    assert random_deal.status_code == 201 and compute.ran == []  # a shuffle: in place
    given = client.post("/api/games", json={"game": "escalator", "id": "escalator:winnable#a"})
    assert given.status_code == 201 and compute.ran == ["deal"]
    first = client.post("/api/games", json={"game": "escalator"})
    assert first.status_code == 201
    assert compute.ran == ["deal"]  # the ready one: no worker
    assert first.json()["view"]["params"] == {"winnable": True}
    page_loaded(client, "escalator")  # once per server: the workers are up by now
    second = client.post("/api/games", json={"game": "escalator"})
    assert compute.ran == ["deal", "deal"]
    assert second.json()["id"] != first.json()["id"]


def test_no_deal_is_made_ready_for_games_whose_newcomers_deal_is_quick(
    served: tuple[TestClient, Watched],
) -> None:
    client, _ = served
    for game in ("tictactoe", "ishido", "minesweeper", "sliding", "tribolo"):
        assert not page_loaded(client, game)._ready
    assert client.get("/play/nosuchgame").status_code == 404


@pytest.mark.parametrize("first_click", ["opening", "no_guess"])
def test_a_new_minefield_is_dealt_in_place_even_a_no_guess_one(
    served: tuple[TestClient, Watched], first_click: str,
) -> None:
    client, compute = served
    created = client.post("/api/games", json={"game": "minesweeper",
                                              "params": {"first_click": first_click}})
    assert created.status_code == 201
    assert created.json()["view"]["params"]["first_click"] == first_click
    assert compute.ran == []
