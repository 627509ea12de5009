"""Minesweeper over the REST API: custom sizes, hidden mines, hints, undo after a loss,
and the statistics figures (3BV, 3BV/s, efficiency)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.gameid import parse_game_id
from parlour.games.minesweeper.logic import Minefield, Minesweeper

GAME = Minesweeper()


def create(client: TestClient, **params: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "minesweeper", "params": params})
    assert reply.status_code == 201, reply.json()
    body: dict[str, Any] = reply.json()
    return body


def after_first_click(game_id: str, row: int, col: int) -> Minefield:
    """The layout the server has once the first click at (row, col) has been made."""
    parsed = parse_game_id(GAME, game_id)
    return GAME.apply(GAME.deal(parsed.params, parsed.rng(GAME)), ("open", row, col))


def play(client: TestClient, game: dict[str, Any], move: dict[str, Any]) -> Any:
    return client.post(
        f"/api/games/{game['session']}/moves",
        json={"move": move},
        headers={"Authorization": f"Bearer {game['token']}"},
    )


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"rows": 3, "cols": 3, "mines": 8, "first_click": "safe"}, "at most 7"),
        ({"rows": 3, "cols": 3, "mines": 1}, "choose a safe first click"),
        ({"rows": 0, "cols": 5, "mines": 1}, "Rows must be at least 2"),
        ({"rows": 5, "cols": 500, "mines": 1}, "Cols must be at most"),
        ({"rows": 5, "cols": 5, "mines": 3, "depth": 2}, "Unknown parameter"),
        ({"rows": 5, "cols": 5, "mines": 3, "first_click": "maybe"}, "First_click"),
    ],
)
def test_bad_custom_sizes_are_refused_with_a_reason(
    client: TestClient, params: dict[str, Any], reason: str
) -> None:
    reply = client.post("/api/games", json={"game": "minesweeper", "params": params})
    assert reply.status_code == 422
    assert reason in reply.json()["error"]


def test_mines_stay_on_the_server_until_the_end(client: TestClient) -> None:
    game = create(client, rows=6, cols=6, mines=8)
    view = play(client, game, {"open": [0, 0]}).json()
    assert set(view["text"]) <= set("#F?.12345678\n")
    assert "💣" not in view["html"]
    assert not re.search(r'class="[^"]*\bmine\b', view["html"])
    layout = after_first_click(game["id"], 0, 0)
    mine = min(layout.mined)
    row, col = divmod(mine, 6)
    lost = play(client, game, {"open": [row, col]}).json()
    assert lost["status"] == "lost"
    assert lost["text"].count("*") + lost["text"].count("X") == 8
    assert lost["text"].splitlines()[row][col] == "X"
    assert "💣" in lost["html"]


def test_moves_need_exactly_one_action(client: TestClient) -> None:
    game = create(client, rows=5, cols=5, mines=3)
    for bad in ({}, {"open": [0, 0], "mark": [1, 1]}, {"open": [0]}, {"open": ["0", 0]}):
        reply = play(client, game, bad)
        assert reply.status_code == 409
        assert "Malformed" in reply.json()["error"]
    reply = play(client, game, {"open": [5, 0]})
    assert "off the board" in reply.json()["error"]


def test_a_number_not_ready_to_chord_is_refused_quietly(client: TestClient) -> None:
    """A click on a number whose flags are not all placed changes nothing, and its
    refusal says `quiet`, over REST and the WebSocket, so that the page shows nothing;
    other refusals stay loud."""
    game = create(client, rows=8, cols=8, mines=10)
    view = play(client, game, {"open": [0, 0]}).json()
    layout = after_first_click(game["id"], 0, 0)
    number = next(cell for cell in range(64)
                  if view["text"].splitlines()[cell // 8][cell % 8] in "12345678")
    chord = {"chord": list(divmod(number, 8))}
    reply = play(client, game, chord)
    assert reply.status_code == 409
    assert reply.json()["quiet"] is True
    assert reply.json()["error"].endswith(
        f"flags around it, not {layout.counts[number]}: nothing to chord")
    loud = play(client, game, {"open": list(divmod(number, 8))})
    assert loud.status_code == 409 and "quiet" not in loud.json()
    with client.websocket_connect(f"/ws/{game['session']}") as socket:
        socket.send_json({"type": "hello", "token": game["token"]})
        assert socket.receive_json()["type"] == "view"
        socket.send_json({"type": "move", "move": chord})
        refused = socket.receive_json()
        assert refused["type"] == "error" and refused["quiet"] is True
        socket.send_json({"type": "move", "move": {"open": list(divmod(number, 8))}})
        assert "quiet" not in socket.receive_json()
    headers = {"Authorization": f"Bearer {game['token']}"}
    after = client.get(f"/api/games/{game['session']}", headers=headers).json()
    assert after["moves"] == 1 and after["text"] == view["text"]


def test_hint_names_a_safe_cell_and_marks_the_game_assisted(client: TestClient) -> None:
    game = create(client, rows=9, cols=9, mines=10, first_click="opening")
    play(client, game, {"open": [4, 4]})
    headers = {"Authorization": f"Bearer {game['token']}"}
    hint = client.post(f"/api/games/{game['session']}/hint", headers=headers).json()
    assert hint["view"]["assisted"]
    row, col = hint["move"]["open"]
    layout = after_first_click(game["id"], 4, 4)
    if "(it is safe" in hint["note"]:
        assert row * 9 + col not in layout.mined
    assert "hint" in hint["view"]["html"]


def test_undo_after_a_loss_takes_back_the_fatal_click_as_help(client: TestClient) -> None:
    game = create(client, rows=6, cols=6, mines=8)
    play(client, game, {"open": [0, 0]})
    mine = min(after_first_click(game["id"], 0, 0).mined)
    assert play(client, game, {"open": list(divmod(mine, 6))}).json()["status"] == "lost"
    headers = {"Authorization": f"Bearer {game['token']}"}
    view = client.post(f"/api/games/{game['session']}/undo", headers=headers).json()
    assert view["status"] == "playing"
    assert view["assisted"]
    assert "X" not in view["text"]


def test_no_guess_board_is_made_at_the_first_click(client: TestClient) -> None:
    game = create(client, rows=16, cols=30, mines=99, first_click="no_guess")
    view = play(client, game, {"open": [8, 15]}).json()
    assert view["status"] == "playing"
    assert view["text"].splitlines()[8][15] == "."  # the first click opens an area


def test_a_won_game_records_3bv_speed_and_efficiency(client: TestClient) -> None:
    game = create(client, rows=5, cols=5, mines=3)
    view: dict[str, Any] = play(client, game, {"open": [0, 0]}).json()
    layout = after_first_click(game["id"], 0, 0)  # the first click may win outright
    for cell in range(25):
        row, col = divmod(cell, 5)
        if cell not in layout.mined and layout.marks[cell] != 3:
            reply = play(client, game, {"open": [row, col]})
            if reply.status_code == 200:
                view = reply.json()
    assert view["status"] == "won"
    # the end card: the board's 3BV, the win's speed and efficiency, and the moves
    assert [f["label"] for f in view["end_figures"]] == ["3BV", "3BV/s", "Efficiency", "Moves"]
    assert view["time_shown"] == "0.00"  # its time to the hundredth (no page: 0 ms played)
    stats = client.get("/api/stats", params={"game": "minesweeper"}).json()
    (group,) = stats["groups"]
    assert group["won"] == 1
    assert set(group["figures"]) == {"3BV"}  # the others are declared: shown as declared
    declared = {figure["name"]: figure for figure in group["over_all"]}
    assert set(declared) == {"time", "3BV/s", "efficiency"}
    assert 0 < declared["efficiency"]["best"] <= 1
    shown = {tile["label"] for tile in group["shown"]}
    assert {"best time", "best 3BV/s", "best efficiency"} <= shown
    assert "best score" not in shown
