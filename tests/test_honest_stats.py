"""Statistics that are honest and cheap (issue 33): a group per board a player chooses,
never one per value of a free parameter; custom positions and imported games filed apart
and setting no records; help counted when a player has seen what the deal hides; and
GET /api/stats bounded in size and work, refused to other sites' pages."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import GameSpec
from parlour.core.gameid import parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.store.sqlite import SqliteStore as Store

ESCALATOR, ISHIDO, MINESWEEPER = GAMES["escalator"], GAMES["ishido"], GAMES["minesweeper"]


def alone_at(spec: GameSpec, seed: str = "honest") -> Session:
    return Session(spec, parse_game_id(spec.game, f"{spec.name}:#{seed}"), ("human",))


def play_where(session: Session, wanted: Any) -> None:
    """Play the first legal move `wanted` accepts."""
    move = next(m for m in session.game.legal_moves(session.state) if wanted(m))
    session.play(session.game.move_to_json(move), 0)


def is_draw(move: Any) -> bool:
    return type(move).__name__ == "Draw"


# -- what the deal hides, seen, is help ---------------------------------------------------
def test_escalator_restart_after_turning_the_stock_counts_as_help() -> None:
    session = alone_at(ESCALATOR)
    for _ in range(3):
        play_where(session, is_draw)
    session.restart()
    assert session.assisted_for({0})  # the second pass knows the stock's order


def test_escalator_restart_that_turned_no_stock_card_is_no_help() -> None:
    session = alone_at(ESCALATOR, "picks0")
    picks = [m for m in ESCALATOR.game.legal_moves(session.state) if not is_draw(m)]
    assert picks, "this deal should have a card to pick up at once"
    play_where(session, lambda m: not is_draw(m))
    session.restart()
    assert not session.assisted_for({0})


def test_escalator_restart_of_a_saved_game_that_turned_the_stock_counts_as_help() -> None:
    played = alone_at(ESCALATOR)
    play_where(played, is_draw)
    reloaded = Session(ESCALATOR, played.game_id, ("human",), played.line, played.cursor)
    reloaded.restart()
    assert reloaded.assisted_for({0})


def test_ishido_undo_that_showed_the_next_tile_counts_as_help() -> None:
    session = alone_at(ISHIDO)
    play_where(session, lambda m: True)
    play_where(session, lambda m: True)
    session.undo({0})
    assert session.assisted_for({0})  # the tile after the one put back was shown


def test_ishido_restart_after_placing_counts_as_help() -> None:
    session = alone_at(ISHIDO)
    play_where(session, lambda m: True)
    session.restart()
    assert session.assisted_for({0})


def test_ishido_restart_before_placing_anything_is_no_help() -> None:
    session = alone_at(ISHIDO)
    session.restart()
    assert not session.assisted_for({0})


def test_minesweeper_restart_after_opening_cells_is_no_help_as_undo_is_none() -> None:
    session = Session(MINESWEEPER, parse_game_id(
        MINESWEEPER.game, "minesweeper:rows=6,cols=6,mines=4,first_click=safe#calm"),
        ("human",))
    play_where(session, lambda m: m[0] == "open")
    session.restart()
    assert not session.assisted_for({0})


def test_escalator_result_after_a_restart_that_knew_the_stock_is_stored_assisted(
    client: TestClient,
) -> None:
    created = client.post("/api/games", json={"game": "escalator", "id": "escalator:#honest"})
    assert created.status_code == 201, created.text
    sid, auth = created.json()["session"], {"Authorization": f"Bearer {created.json()['token']}"}
    assert client.post(f"/api/games/{sid}/moves", json={"move": {"draw": True}},
                       headers=auth).status_code == 200
    assert client.post(f"/api/games/{sid}/restart", headers=auth).status_code == 200
    view = client.post(f"/api/games/{sid}/moves", json={"move": {"draw": True}}, headers=auth)
    assert view.json()["assisted"] is True


# -- heavy reads only for this server's own pages -----------------------------------------
HEAVY_READS = ["/api/stats", "/api/stats?game=sliding", "/api/replays", "/api/daily",
               "/api/results.csv"]


@pytest.mark.parametrize("path", HEAVY_READS)
@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},  # fetch(url, no-cors)
    {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors"},  # a page on another port
    {"Origin": "http://evil.example"},
], ids=["cross-site", "another-port", "other-origin"])
def test_a_heavy_read_from_another_sites_page_is_refused_before_any_work(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch, path: str,
    headers: dict[str, str],
) -> None:
    def no_reading(*args: object) -> None:
        raise AssertionError("the store was read for a refused request")

    monkeypatch.setattr(store, "results", no_reading)
    refused = client.get(path, headers=headers)
    assert refused.status_code == 403
    assert refused.json() == {"error": "This read is answered only to this server's own pages"}


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},  # the stats page
    {"Sec-Fetch-Site": "none"},  # an address typed or bookmarked
    {},  # a script
], ids=["own-page", "typed", "script"])
def test_own_pages_typed_addresses_and_scripts_read_the_statistics(
    client: TestClient, headers: dict[str, str],
) -> None:
    answer = client.get("/api/stats", headers=headers)
    assert answer.status_code == 200
    assert answer.json()["groups"] == []


def test_a_light_read_stays_open_to_other_sites(client: TestClient) -> None:
    assert client.get("/api/catalog", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200
