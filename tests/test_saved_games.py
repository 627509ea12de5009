"""Games saved by an earlier Parlour load and replay exactly as their players left them;
one that cannot be replayed is reported, never a crash. Deals come from ids with a deal
version, or from start positions the player gives."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.game import BadParams
from parlour.core.gameid import (
    CUSTOM_POSITION,
    IMPORTED,
    GameId,
    board_words,
    parse_game_id,
    stat_group,
)
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.store.sqlite import SqliteStore as Store
from tests.support.servers import TEST_HOSTS
from tests.test_api import auth, error_of

FIXTURES = Path(__file__).parent / "fixtures"
SAVED = json.loads((FIXTURES / "saved_by_0.1.json").read_text())
"""Games played on Parlour 0.1 (main at 70de9ee) and what their owners saw then."""


@pytest.fixture
def saved(tmp_path: Path) -> Store:
    path = tmp_path / "parlour.sqlite3"
    shutil.copy(FIXTURES / "saved_by_0.1.sqlite3", path)
    return Store(path)


def app_on(store: Store) -> TestClient:
    return TestClient(create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS))


@pytest.mark.parametrize("game", SAVED, ids=[g["id"] for g in SAVED])
def test_a_game_saved_by_an_earlier_parlour_comes_back_as_it_was(
    saved: Store, game: dict[str, Any]
) -> None:
    with app_on(saved) as client:
        view = client.get(f"/api/games/{game['session']}", headers=auth(game["token"])).json()
        # the position comes back (the headline's words may have changed since: "Boom!" is
        # now "Game over: a mine")
        for key in ("id", "moves", "status", "text", "scores"):
            assert view[key] == game[key], key
        assert view["headline"]
        if view["status"] == "playing":  # and it goes on
            hint = client.post(f"/api/games/{game['session']}/hint", headers=auth(game["token"]))
            if hint.status_code == 200:
                moved = client.post(f"/api/games/{game['session']}/moves",
                                    json={"move": hint.json()["move"]},
                                    headers=auth(game["token"]))
                assert moved.status_code == 200, moved.text
                assert moved.json()["moves"] > game["moves"]


def test_a_game_that_cannot_be_replayed_is_reported(saved: Store) -> None:
    game = next(g for g in SAVED if g["id"].startswith("tictactoe") and g["moves"] >= 2)
    saved.db.execute("UPDATE moves SET move=? WHERE sid=? AND ply=1",
                     (json.dumps({"cell": [9, 9]}), game["session"]))
    with app_on(saved) as client:
        reply = client.get(f"/api/games/{game['session']}", headers=auth(game["token"]))
        assert "cannot be replayed" in error_of(reply, 409)
        assert client.get("/api/catalog").status_code == 200  # the server goes on


# -- deal versions ------------------------------------------------------------------------
def test_ids_of_the_first_deal_version_read_as_before() -> None:
    game = GAMES["minesweeper"].game
    game_id = parse_game_id(game, "minesweeper:expert#k3f9a2")
    assert game_id.version == 1 and game_id.text(game) == "minesweeper:expert#k3f9a2"


def test_a_later_deal_version_is_written_in_the_id_and_kept(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    spec = GAMES["tictactoe"]
    game = spec.game
    first = parse_game_id(game, "tictactoe:standard#abc")
    dealt_first = first.deal(game)
    monkeypatch.setattr(type(game), "deal_version", 2)
    monkeypatch.setattr(type(game), "old_deals", {1: game.deal})
    assert parse_game_id(game, "tictactoe:standard#abc").deal(game) == dealt_first
    second = GameId("tictactoe", first.params, "abc", 2)
    assert second.text(game) == "tictactoe@2:standard#abc"
    assert parse_game_id(game, "tictactoe@2:standard#abc") == second


def test_an_id_without_a_version_is_dealt_as_the_first_version_always(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    game = GAMES["minesweeper"].game
    dealt_by_one = parse_game_id(game, "minesweeper:expert#abc").deal(game)
    monkeypatch.setattr(type(game), "deal_version", 2)
    monkeypatch.setattr(type(game), "old_deals", {1: game.deal})
    monkeypatch.setattr(type(game), "deal", lambda self, params, rng: "dealt anew")
    game_id = parse_game_id(game, "minesweeper:expert#abc")
    assert game_id.version == 1
    assert game_id.deal(game) == dealt_by_one  # a saved game keeps its deal
    assert parse_game_id(game, "minesweeper@2:expert#abc").deal(game) == "dealt anew"


def test_a_saved_games_board_is_read_from_its_id_in_the_games_own_words() -> None:
    minesweeper = GAMES["minesweeper"].game
    assert board_words(minesweeper, "minesweeper@2:expert#abc") == "Expert 16×30"
    assert board_words(minesweeper, "minesweeper@2:rows=9,cols=12,mines=20,first_click=safe#x"
                       ) == "Custom 9×12, 20 mines, safe first click"
    assert board_words(minesweeper, "minesweeper@2:rows=9,cols=12,flavour=7#x") is None


def test_a_game_dealt_here_is_filed_under_its_board_and_others_apart() -> None:
    sliding = GAMES["sliding"].game
    dealt = parse_game_id(sliding, "sliding:easy#abc")
    assert stat_group(sliding, dealt) == sliding.stat_group(dealt.params) == "4×4 easy"
    assert stat_group(sliding, dealt, imported=True) == IMPORTED
    given = parse_game_id(sliding, "sliding:rows=3,cols=3:1,2,3,4,5,6,7,0,8")
    assert stat_group(sliding, given) == CUSTOM_POSITION


def test_a_start_position_in_an_id_is_refused_with_what_it_may_hold() -> None:
    tictactoe = GAMES["tictactoe"].game
    with pytest.raises(BadParams) as refused:
        parse_game_id(tictactoe, "tictactoe:standard")
    assert str(refused.value) == ("a game id ends with '#' and a seed, or ':' and a start "
                                  "position (which Tic Tac Toe does not take)")
    with pytest.raises(BadParams) as refused:
        parse_game_id(GAMES["sliding"].game, "sliding:rows=3,cols=3:1,2,3,4,5,6,7,0,8!")
    assert str(refused.value) == "a start position is letters, digits and . , / * - _"


def test_an_id_from_a_newer_parlour_is_refused_clearly() -> None:
    game = GAMES["tictactoe"].game
    with pytest.raises(BadParams, match="newer Parlour"):
        parse_game_id(game, "tictactoe@7:standard#abc")


# -- positions given by the player ----------------------------------------------------------
LAYOUT = "minesweeper:rows=3,cols=4,mines=2:810"  # 1000 0001 0000: mines at (0,0), (1,3)


def test_a_minesweeper_layout_given_in_the_id_is_played_as_laid(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "minesweeper", "id": LAYOUT}).json()
    assert created["id"] == LAYOUT.replace("mines=2", "mines=2,first_click=safe")
    sid, token = created["session"], created["token"]
    view = client.post(f"/api/games/{sid}/moves", json={"move": {"open": [2, 0]}},
                       headers=auth(token)).json()
    assert view["text"] == "####\n111#\n..1#"  # numbers from mines at (0, 0) and (1, 3)
    lost = client.post(f"/api/games/{sid}/moves", json={"move": {"open": [1, 3]}},
                       headers=auth(token)).json()
    assert lost["status"] == "lost"  # the mine was where the layout put it


@pytest.mark.parametrize(
    ("game_id", "reason"),
    [
        ("minesweeper:rows=3,cols=4,mines=2:81", "3 hex digits"),
        ("minesweeper:rows=3,cols=4,mines=3:810", "2 mines, not 3"),
        ("minesweeper:rows=3,cols=4,mines=2:8g0", "hex digits"),
        ("tictactoe:standard:x..", "does not take a start position"),
        ("minesweeper:expert", "':' and a start position"),
    ],
)
def test_a_bad_position_is_refused_with_its_reason(
    client: TestClient, game_id: str, reason: str
) -> None:
    reply = client.post("/api/games", json={"game": game_id.split(":")[0], "id": game_id})
    assert reason in error_of(reply, 422)


def test_the_catalog_documents_how_positions_are_written(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert "hex" in games["minesweeper"]["position_help"]
    assert games["tictactoe"]["position_help"] == ""
