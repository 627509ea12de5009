"""The REST API and the WebSocket, in-process, with AI replies at once.

Every refused request must answer 4xx with `{"error": "..."}` saying what is wrong, and
change nothing: the view and the stored session are compared before and after.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.stats.statistics import statistics
from parlour.store import Result
from parlour.store.seat_tokens import token_digest
from parlour.store.sqlite import SqliteStore as Store
from tests.support.servers import TEST_HOSTS
from tests.support.stores import on_both_stores, reopened, run_sql

pytestmark = on_both_stores  # every test here, on SQLite's store and on PostgreSQL's

DRAWN_HINT = "Play here to hold the draw: with best play on both sides, nobody wins"

View = dict[str, Any]
Cell = tuple[int, int]

VIEW_KEYS = {"game", "id", "status", "to_move", "scores", "moves", "text"}


# -- helpers ----------------------------------------------------------------------------
def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "tictactoe", **fields})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def get_view(client: TestClient, sid: str, token: str | None = None) -> View:
    response = client.get(f"/api/games/{sid}", headers=auth(token))
    assert response.status_code == 200, response.text
    view: View = response.json()
    return view


def stable(view: View) -> View:
    """A view without the running clock, which moves on by itself."""
    return {key: value for key, value in view.items() if key != "elapsed_ms"}


def move(client: TestClient, sid: str, token: str | None, cell: Cell) -> View:
    response = client.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": list(cell)}}, headers=auth(token)
    )
    assert response.status_code == 200, response.text
    view: View = response.json()
    return view


def empty_cells(view: View) -> list[Cell]:
    rows = view["text"].split("\n")
    return [(x, y) for y, row in enumerate(rows) for x, mark in enumerate(row) if mark == "."]


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"]
    message: str = body["error"]
    return message


@contextlib.contextmanager
def open_socket(client: TestClient, sid: str, token: str | None = None) -> Iterator[Any]:
    """A game's WebSocket, greeted as the browser does: the token in the first message."""
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": token})
        yield socket


def session_count(store: Store) -> int:
    count: int = run_sql(store, "SELECT count(*) FROM sessions")[0][0]
    return count


class Unchanged:
    """Checks that a refused request left the game exactly as it was."""

    def __init__(self, client: TestClient, store: Store, sid: str, token: str | None) -> None:
        self.client, self.store, self.sid, self.token = client, store, sid, token
        self.view = stable(get_view(client, sid, token))
        self.stored = store.load_session(sid)
        self.results = store.results()

    def check(self) -> None:
        assert stable(get_view(self.client, self.sid, self.token)) == self.view
        assert self.store.load_session(self.sid) == self.stored
        assert self.store.results() == self.results


def two_humans(client: TestClient) -> tuple[str, str]:
    """A game where the creator holds both seats."""
    created = new_game(client, seats=["human", "human"])
    assert created["seats"] == [0, 1]
    return created["session"], created["token"]


def play_out(client: TestClient, sid: str, token: str, cells: list[Cell]) -> View:
    view: View = {}
    for cell in cells:
        view = move(client, sid, token, cell)
    return view


CROSS_WINS: list[Cell] = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
CIRCLE_WINS: list[Cell] = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2), (2, 1)]
DRAW: list[Cell] = [(0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (2, 1), (1, 2), (0, 2), (2, 2)]


# -- the catalog --------------------------------------------------------------------------
def test_catalog_lists_tictactoe(client: TestClient) -> None:
    response = client.get("/api/catalog")
    assert response.status_code == 200
    games = {game["name"]: game for game in response.json()["games"]}
    assert set(games) == set(GAMES)
    ttt = games["tictactoe"]
    assert ttt["title"] == "Tic Tac Toe"
    assert ttt["seats"] == ["Cross", "Circle"]
    assert ttt["presets"] == {"standard": {}}
    assert set(ttt["ai_levels"]) == {"random", "medium", "hard", "perfect"}
    assert ttt["default_seats"] == ["human", "ai:medium"]
    assert ttt["has_hints"] is True
    assert ttt["parameters"] == []
    assert ttt["rules_html"] and ttt["thumbnail_svg"].startswith("<svg")


# -- creating and replaying -----------------------------------------------------------
def test_create_a_game(client: TestClient) -> None:
    created = new_game(client)
    assert {"session", "id", "token", "view", "seats"} <= set(created)
    assert re.fullmatch(r"tictactoe:standard#[0-9a-z]{10}", created["id"])
    assert created["seats"] == [0]  # the default: human against ai:medium
    view = created["view"]
    assert set(view) >= VIEW_KEYS
    assert view["game"] == "tictactoe"
    assert view["id"] == created["id"]
    assert view["session"] == created["session"]
    assert view["status"] == "playing"
    assert view["to_move"] == 0
    assert view["scores"] == [0, 0]
    assert view["moves"] == 0
    assert view["text"] == "...\n...\n..."
    assert view["headline"] == "Tic Tac Toe"
    assert view["can_move"] is True
    assert view["you"] == [0]
    assert [seat["kind"] for seat in view["seats"]] == ["human", "ai"]
    assert view["seats"][1]["level"] == "medium"
    assert stable(get_view(client, created["session"], created["token"])) == stable(view)


def test_spectator_view_has_no_seat(client: TestClient) -> None:
    created = new_game(client)
    view = get_view(client, created["session"])
    assert view["you"] == []
    assert view["can_move"] is False
    assert view["can_undo"] is False


def test_two_games_get_different_sessions_ids_and_tokens(client: TestClient) -> None:
    first, second = new_game(client), new_game(client)
    assert first["session"] != second["session"]
    assert first["token"] != second["token"]
    assert first["id"] != second["id"]


def test_replay_by_id(client: TestClient) -> None:
    first = new_game(client, seats=["human", "ai:random"])
    again = new_game(client, id=first["id"], seats=["human", "ai:random"])
    assert again["id"] == first["id"]
    assert again["session"] != first["session"]
    # the same deal: the same human moves get the same replies from the seeded AI
    views = []
    for created in (first, again):
        view = move(client, created["session"], created["token"], (1, 1))
        cell = empty_cells(view)[0]
        views.append(move(client, created["session"], created["token"], cell))
    assert views[0]["text"] == views[1]["text"]
    assert new_game(client, id="tictactoe:standard#my-seed_1")["id"] == (
        "tictactoe:standard#my-seed_1"
    )
    assert new_game(client, id="tictactoe:#abc")["id"] == "tictactoe:standard#abc"


def test_ai_as_cross_moves_first(client: TestClient) -> None:
    created = new_game(client, seats=["ai:perfect", "human"])
    assert created["seats"] == [1]
    view = created["view"]
    assert view["moves"] == 1
    assert view["to_move"] == 1
    assert len(empty_cells(view)) == 8


def test_a_watched_new_game_waits_for_its_page_before_the_computer_moves(
    client: TestClient,
) -> None:
    """A browser's new game: its first computer move comes once the page is there to see
    it, not before the page has even loaded."""
    created = new_game(client, seats=["ai:perfect", "human"], watch=True)
    assert (created["view"]["moves"], created["view"]["to_move"]) == (0, 0)
    time.sleep(0.2)
    assert get_view(client, created["session"], created["token"])["moves"] == 0
    with client.websocket_connect(f"/ws/{created['session']}") as socket:
        socket.send_json({"type": "hello", "token": created["token"]})
        while (socket.receive_json().get("view") or {}).get("moves") != 1:
            pass


@pytest.mark.parametrize("human", [0, 1])
def test_random_human_never_beats_perfect(client: TestClient, human: int) -> None:
    rng = random.Random(human)
    outcomes = set()
    for _ in range(6):
        seats = ["human", "ai:perfect"] if human == 0 else ["ai:perfect", "human"]
        created = new_game(client, seats=seats)
        sid, token, view = created["session"], created["token"], created["view"]
        while view["status"] == "playing":
            assert view["to_move"] == human
            view = move(client, sid, token, rng.choice(empty_cells(view)))
        assert view["status"] in ("draw", "won")
        assert view["outcome"] in ("draw", "lost")
        assert view["to_move"] is None
        assert view["can_move"] is False
        if view["outcome"] == "lost":
            assert view["winners"] == [1 - human]
            assert view["headline"] == ("Cross wins" if human == 1 else "Circle wins")
        else:
            assert view["headline"] == "Draw Game"
        outcomes.add(view["outcome"])
    assert outcomes


def test_a_game_between_two_humans_on_one_screen(client: TestClient) -> None:
    sid, token = two_humans(client)
    view = play_out(client, sid, token, CROSS_WINS)
    assert view["status"] == "won"
    assert view["winners"] == [0]
    assert view["scores"] == [1, 0]
    assert view["outcome"] == "won"  # the token holds both seats: the result counts for seat 0
    assert view["text"] == "XXX\nOO.\n..."
    assert view["moves"] == 5


def test_a_game_between_two_computers_plays_itself_out(client: TestClient) -> None:
    created = new_game(client, seats=["ai:perfect", "ai:random"])
    view = created["view"]
    assert created["seats"] == []
    assert view["status"] in ("won", "draw")
    assert 5 <= view["moves"] <= 9
    assert view["you"] == [] and view["can_move"] is False


def test_a_spectator_neither_wins_nor_loses(client: TestClient) -> None:
    sid, token = two_humans(client)
    play_out(client, sid, token, CROSS_WINS)
    assert get_view(client, sid, token)["outcome"] == "won"
    watching = get_view(client, sid)
    assert watching["you"] == []
    assert watching["status"] == "won"
    assert watching["outcome"] is None, "a spectator's view says they lost"


# -- refused requests to create a game ----------------------------------------------------
@pytest.mark.parametrize(
    ("body", "status", "fragments"),
    [
        ({}, 422, ["game", "required"]),
        ({"id": "tictactoe:standard#abc"}, 422, ["game", "required"]),
        ({"game": "tictactoe", "colour": "red"}, 422, ["colour", "Extra inputs"]),
        ({"game": 5}, 422, ["game"]),
        ({"game": "chess"}, 404, ["Unknown game 'chess'"]),
        ({"game": "tictactoe", "id": "tictactoe:standard"}, 422, ["'#'"]),
        ({"game": "tictactoe", "id": "tictactoe:standard#a b"}, 422, ["'#'"]),
        ({"game": "tictactoe", "id": "chess:standard#abc"}, 422, ["'tictactoe:'"]),
        ({"game": "tictactoe", "id": "tictactoe:expert#abc"}, 422, ["Unknown preset 'expert'"]),
        ({"game": "tictactoe", "id": "tictactoe:rows=4#abc"}, 422, ["Unknown parameter 'rows'"]),
        ({"game": "tictactoe", "params": {"size": 4}}, 422, ["Unknown parameter 'size'"]),
        ({"game": "tictactoe", "params": "big"}, 422, ["params"]),
        (
            {"game": "tictactoe", "id": "tictactoe:standard#abc", "params": {"size": 4}},
            422,
            ["either an id or params"],
        ),
        ({"game": "tictactoe", "seats": ["human"]}, 422, ["2 seats", "Cross, Circle"]),
        ({"game": "tictactoe", "seats": ["human"] * 3}, 422, ["2 seats"]),
        ({"game": "tictactoe", "seats": []}, 422, ["2 seats"]),
        ({"game": "tictactoe", "seats": ["human", "robot"]}, 422, ["Bad seat 'robot'", "ai:"]),
        ({"game": "tictactoe", "seats": ["human", "ai:godlike"]}, 422, ["Bad seat 'ai:godlike'"]),
        ({"game": "tictactoe", "seats": "human"}, 422, ["seats"]),
        ([], 422, ["Bad request"]),
    ],
)
def test_bad_new_game_requests(
    client: TestClient, store: Store, body: Any, status: int, fragments: list[str]
) -> None:
    response = client.post("/api/games", json=body)
    message = error_of(response, status)
    for fragment in fragments:
        assert fragment in message
    assert session_count(store) == 0


@pytest.mark.parametrize("text", ["{not json", '{"game": "tictactoe",}', "", "null"])
def test_malformed_json_body(client: TestClient, store: Store, text: str) -> None:
    response = client.post(
        "/api/games", content=text, headers={"Content-Type": "application/json"}
    )
    assert error_of(response, 422).startswith("Bad request")
    assert session_count(store) == 0


def test_unknown_session(client: TestClient) -> None:
    assert "No game session 'nope'" in error_of(client.get("/api/games/nope"), 404)
    created = new_game(client)
    token = created["token"]
    for path in ("moves", "undo", "redo", "restart", "hint", "join"):
        body = {"move": {"cell": [0, 0]}} if path == "moves" else None
        response = client.post(f"/api/games/nope/{path}", json=body, headers=auth(token))
        assert "No game session" in error_of(response, 404), path


# -- refused moves ------------------------------------------------------------------------
def test_illegal_moves_change_nothing(client: TestClient, store: Store) -> None:
    sid, token = two_humans(client)
    move(client, sid, token, (1, 1))
    unchanged = Unchanged(client, store, sid, token)
    url, headers = f"/api/games/{sid}/moves", auth(token)
    cases: list[tuple[Any, list[str]]] = [
        ({"cell": [1, 1]}, ["taken"]),
        ({"cell": [3, 0]}, ["off the board"]),
        ({"cell": [-1, 2]}, ["off the board"]),
        ({"cell": "b2"}, ["Malformed move"]),
        ({"cell": [1]}, ["Malformed move"]),
        ({"cell": [0, 0], "mark": "O"}, ["Malformed move", "mark"]),
        ({"row": 1}, ["Malformed move"]),
        (None, ["Malformed move"]),
        ([0, 0], ["Malformed move"]),
    ]
    for bad, fragments in cases:
        message = error_of(client.post(url, json={"move": bad}, headers=headers), 409)
        for fragment in fragments:
            assert fragment in message, (bad, message)
        unchanged.check()


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({}, "move"),
        ({"cell": [0, 0]}, "move"),
        ({"move": {"cell": [0, 0]}, "seat": 1}, "seat"),
    ],
)
def test_bad_move_requests(client: TestClient, store: Store, body: Any, fragment: str) -> None:
    sid, token = two_humans(client)
    move(client, sid, token, (1, 1))
    unchanged = Unchanged(client, store, sid, token)
    response = client.post(f"/api/games/{sid}/moves", json=body, headers=auth(token))
    assert fragment in error_of(response, 422)
    unchanged.check()


def test_malformed_json_move(client: TestClient, store: Store) -> None:
    sid, token = two_humans(client)
    unchanged = Unchanged(client, store, sid, token)
    response = client.post(
        f"/api/games/{sid}/moves", content='{"move": {"cell": [0, 0]}',
        headers={**auth(token), "Content-Type": "application/json"},
    )
    assert error_of(response, 422).startswith("Bad request")
    unchanged.check()


def test_move_after_the_end(client: TestClient, store: Store) -> None:
    sid, token = two_humans(client)
    play_out(client, sid, token, CROSS_WINS)
    unchanged = Unchanged(client, store, sid, token)
    response = client.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": [2, 2]}}, headers=auth(token)
    )
    assert "The game is over" in error_of(response, 409)
    unchanged.check()


def test_move_out_of_turn(client: TestClient, store: Store) -> None:
    created = new_game(client, seats=["human", "open"])
    sid, token = created["session"], created["token"]
    assert created["seats"] == [0]
    move(client, sid, token, (1, 1))
    unchanged = Unchanged(client, store, sid, token)
    response = client.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}}, headers=auth(token)
    )
    assert "It is not your turn" in error_of(response, 409)
    unchanged.check()


def test_move_without_a_token(client: TestClient, store: Store) -> None:
    created = new_game(client)
    sid = created["session"]
    unchanged = Unchanged(client, store, sid, created["token"])
    for path, body in (("moves", {"move": {"cell": [0, 0]}}), ("undo", None), ("hint", None)):
        response = client.post(f"/api/games/{sid}/{path}", json=body)
        assert "You hold no seat" in error_of(response, 403)
        unchanged.check()


@pytest.mark.parametrize(
    "header", ["Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "Token abc", "abc"]
)
def test_bad_authorization_header(client: TestClient, store: Store, header: str) -> None:
    created = new_game(client)
    sid = created["session"]
    unchanged = Unchanged(client, store, sid, created["token"])
    response = client.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}},
        headers={"Authorization": header},
    )
    assert "Bearer <token>" in error_of(response, 401)
    assert "Bearer <token>" in error_of(
        client.get(f"/api/games/{sid}", headers={"Authorization": header}), 401
    )
    unchanged.check()


def test_token_of_another_session(client: TestClient, store: Store) -> None:
    mine, other = new_game(client), new_game(client)
    sid = mine["session"]
    unchanged = Unchanged(client, store, sid, mine["token"])
    for token in (other["token"], "made-up-token"):
        response = client.post(
            f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}}, headers=auth(token)
        )
        assert "You hold no seat" in error_of(response, 403)
        assert get_view(client, sid, token)["you"] == []
    unchanged.check()


# -- joining ------------------------------------------------------------------------------
def test_join_gives_the_open_seat_exactly_once(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    sid, mine = created["session"], created["token"]
    assert created["view"]["seats"][1]["open"] is True
    joined = client.post(f"/api/games/{sid}/join")
    assert joined.status_code == 200, joined.text
    first = joined.json()
    assert first["seats"] == [1]
    assert isinstance(first["token"], str) and first["token"] != mine
    assert first["view"]["you"] == [1]
    assert first["view"]["seats"][1]["open"] is False
    assert first["view"]["seats"][1]["held"] is True

    second = client.post(f"/api/games/{sid}/join").json()
    assert second["token"] is None
    assert second["seats"] == []
    assert second["view"]["you"] == []

    theirs = first["token"]
    move(client, sid, mine, (1, 1))
    # the creator's token cannot move for seat 1; the joined token can
    response = client.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}}, headers=auth(mine)
    )
    assert "It is not your turn" in error_of(response, 409)
    view = move(client, sid, theirs, (0, 0))
    assert view["text"] == "O..\n.X.\n..."
    assert view["you"] == [1]
    response = client.post(
        f"/api/games/{sid}/moves", json={"move": {"cell": [2, 2]}}, headers=auth(theirs)
    )
    assert "It is not your turn" in error_of(response, 409)


def test_spectator_join_when_no_seat_is_free(client: TestClient, store: Store) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    sid = created["session"]
    unchanged = Unchanged(client, store, sid, created["token"])
    response = client.post(f"/api/games/{sid}/join")
    assert response.status_code == 200
    body = response.json()
    assert body["token"] is None
    assert body["seats"] == []
    assert body["view"]["can_move"] is False
    assert store.tokens(sid) == {token_digest(created["token"]): [0]}  # kept as its digest
    unchanged.check()


# -- undo, redo, restart, hint ------------------------------------------------------------
def post(client: TestClient, sid: str, action: str, token: str | None) -> Any:
    return client.post(f"/api/games/{sid}/{action}", headers=auth(token))


def test_undo_redo_restart_against_the_ai(client: TestClient) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    sid, token = created["session"], created["token"]
    after_one = move(client, sid, token, (0, 0))
    assert after_one["moves"] == 2
    cell = empty_cells(after_one)[0]
    after_two = move(client, sid, token, cell)
    assert after_two["moves"] == 4
    assert after_two["can_undo"] is True

    undone = post(client, sid, "undo", token)
    assert undone.status_code == 200, undone.text
    view = undone.json()
    assert view["moves"] == 2
    assert view["line_length"] == 4
    assert view["text"] == after_one["text"]
    assert view["to_move"] == 0
    assert view["can_redo"] is True

    view = post(client, sid, "undo", token).json()
    assert view["moves"] == 0
    assert view["text"] == "...\n...\n..."
    assert view["can_undo"] is False

    view = post(client, sid, "redo", token).json()
    assert view["moves"] == 2
    assert view["text"] == after_one["text"]
    view = post(client, sid, "redo", token).json()
    assert view["moves"] == 4
    assert view["text"] == after_two["text"]
    assert view["can_redo"] is False

    view = post(client, sid, "restart", token).json()
    assert view["moves"] == 0
    assert view["line_length"] == 0
    assert view["text"] == "...\n...\n..."
    assert view["id"] == created["id"]
    assert view["assisted"] is False


def test_undo_then_a_new_move_drops_the_redo_line(client: TestClient) -> None:
    sid, token = two_humans(client)
    play_out(client, sid, token, [(0, 0), (1, 1), (2, 2)])
    view = post(client, sid, "undo", token).json()
    assert view["moves"] == 2 and view["line_length"] == 3
    view = move(client, sid, token, (0, 2))
    assert view["moves"] == 3 and view["line_length"] == 3
    assert view["text"] == "X..\n.O.\nX.."
    assert "Nothing to redo" in error_of(post(client, sid, "redo", token), 409)


def test_restart_when_the_ai_is_cross(client: TestClient) -> None:
    created = new_game(client, seats=["ai:perfect", "human"])
    sid, token = created["session"], created["token"]
    assert "Nothing to undo" in error_of(post(client, sid, "undo", token), 409)
    view = move(client, sid, token, empty_cells(created["view"])[0])
    assert view["moves"] == 3
    view = post(client, sid, "undo", token).json()
    assert view["moves"] == 1
    view = post(client, sid, "restart", token).json()
    assert view["moves"] == 1  # the AI has moved again
    assert view["line_length"] == 1
    assert view["to_move"] == 1


def test_a_finished_game_is_kept_as_played_not_restarted(
        client: TestClient, store: Store) -> None:
    """Its moves are its replay and its place among past games: the page plays its deal
    again as a new game (POST /api/games with its id)."""
    sid, token = two_humans(client)
    play_out(client, sid, token, CROSS_WINS)
    unchanged = Unchanged(client, store, sid, token)
    refused = post(client, sid, "restart", token)
    assert "start its deal again as a new game" in error_of(refused, 409)
    unchanged.check()
    assert get_view(client, sid, token)["can_restart"]  # (the page offers it, as a new game)
    again = new_game(client, id=get_view(client, sid)["id"], seats=["human", "human"])
    assert again["session"] != sid and again["view"]["moves"] == 0


def test_undo_at_the_start_is_refused(client: TestClient, store: Store) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    sid, token = created["session"], created["token"]
    unchanged = Unchanged(client, store, sid, token)
    assert "Nothing to undo" in error_of(post(client, sid, "undo", token), 409)
    unchanged.check()
    assert "Nothing to redo" in error_of(post(client, sid, "redo", token), 409)
    unchanged.check()


def test_undo_asks_the_others_while_another_player_shares_the_game(
    client: TestClient, store: Store
) -> None:
    """Redo and restart are off with two people at the game; undo becomes a take-back
    request (tests/test_seats.py follows it through)."""
    created = new_game(client, seats=["human", "open"])
    sid, mine = created["session"], created["token"]
    move(client, sid, mine, (1, 1))
    view = post(client, sid, "undo", mine).json()  # alone in the game: allowed
    assert view["moves"] == 0 and view["undo_asks"] is False
    move(client, sid, mine, (1, 1))
    theirs = client.post(f"/api/games/{sid}/join").json()["token"]
    move(client, sid, theirs, (0, 0))
    assert get_view(client, sid, mine)["undo_asks"] is True
    for token in (mine, theirs):
        unchanged = Unchanged(client, store, sid, token)
        for action in ("redo", "restart"):
            message = error_of(post(client, sid, action, token), 409)
            assert f"{action.capitalize()} is off while another player shares this game" in message
            unchanged.check()
    asked = post(client, sid, "undo", mine).json()
    assert asked["moves"] == 2 and asked["takeback"] == {  # its move, and theirs after it
        "seats": [0], "moves": 2, "yours": True, "waiting_for_you": False}


def test_can_undo_matches_what_undo_does(client: TestClient) -> None:
    created = new_game(client, seats=["ai:perfect", "human"])
    sid, token = created["session"], created["token"]
    assert created["view"]["can_undo"] is False  # only the AI has moved
    assert "Nothing to undo" in error_of(post(client, sid, "undo", token), 409)
    view = move(client, sid, token, empty_cells(created["view"])[0])
    assert view["can_undo"] is True
    assert post(client, sid, "undo", token).status_code == 200


def test_can_redo_is_off_while_another_player_shares_the_game(client: TestClient) -> None:
    """The Redo button follows `can_redo`: it must not offer what the server refuses."""
    created = new_game(client, seats=["human", "open"])
    sid, mine = created["session"], created["token"]
    move(client, sid, mine, (1, 1))
    view = post(client, sid, "undo", mine).json()
    assert view["can_redo"] is True  # alone in the game: redo works
    client.post(f"/api/games/{sid}/join")
    view = get_view(client, sid, mine)
    refused = post(client, sid, "redo", mine)
    assert "Redo is off while another player shares this game" in error_of(refused, 409)
    assert view["can_undo"] is False
    assert view["can_redo"] is False, "can_redo offers a redo the server refuses"


def test_hint_marks_the_view_assisted(client: TestClient) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    sid, token = created["session"], created["token"]
    assert created["view"]["assisted"] is False
    response = post(client, sid, "hint", token)
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["move"] == {"cell": [1, 1]}
    assert hint["note"] == DRAWN_HINT
    assert hint["view"]["assisted"] is True
    assert hint["view"]["hint"] == {"move": {"cell": [1, 1]}, "note": DRAWN_HINT}
    assert 'class="cell playable hint"' in hint["view"]["html"]
    assert hint["view"]["moves"] == 0
    view = get_view(client, sid, token)
    assert view["assisted"] is True
    view = move(client, sid, token, (1, 1))
    assert view["hint"] is None
    assert view["assisted"] is True


def test_hint_refused_when_not_to_move_or_over(client: TestClient, store: Store) -> None:
    created = new_game(client, seats=["human", "open"])
    sid, mine = created["session"], created["token"]
    theirs = client.post(f"/api/games/{sid}/join").json()["token"]
    unchanged = Unchanged(client, store, sid, theirs)
    assert "player to move" in error_of(post(client, sid, "hint", theirs), 409)
    unchanged.check()
    sid, token = two_humans(client)
    play_out(client, sid, token, DRAW)
    unchanged = Unchanged(client, store, sid, token)
    error_of(post(client, sid, "hint", token), 409)
    unchanged.check()
    assert get_view(client, sid, token)["assisted"] is False
    del mine


def test_a_saved_game_is_served_again_after_a_restart(client: TestClient, store: Store) -> None:
    sid, token = two_humans(client)
    play_out(client, sid, token, [(0, 0), (1, 1), (2, 2)])
    before = post(client, sid, "undo", token).json()
    with TestClient(create_app(reopened(store), GAMES, ai_delay_scale=0,
                               allowed_hosts=TEST_HOSTS)) as again:
        view = get_view(again, sid, token)
        for key in ("id", "moves", "line_length", "text", "to_move", "can_redo", "status"):
            assert view[key] == before[key], key
        redone = again.post(f"/api/games/{sid}/redo", headers=auth(token))
        assert redone.json()["text"] == "X..\n.O.\n..X"


# -- the WebSocket ------------------------------------------------------------------------
def test_websocket_views_moves_and_errors(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    sid, token = created["session"], created["token"]
    with (
        open_socket(client, sid, token) as player,
        open_socket(client, sid) as spectator,
    ):
        first = player.receive_json()
        assert first["type"] == "view"
        assert first["view"]["you"] == [0] and first["view"]["can_move"] is True
        watching = spectator.receive_json()
        assert watching["type"] == "view"
        assert watching["view"]["you"] == [] and watching["view"]["can_move"] is False

        player.send_json({"type": "move", "move": {"cell": [1, 1]}})
        for socket in (player, spectator):
            message = socket.receive_json()
            assert message["type"] == "view"
            assert message["view"]["moves"] == 1
            assert message["view"]["text"] == "...\n.X.\n..."
            assert message["view"]["sound"] == "move"

        bad_messages: list[tuple[str, str]] = [
            ("hello", "Bad message"),
            ('{"type": "dance"}', "Bad message"),
            ('{"type": "move", "move": {"cell": [0, 0]}, "extra": 1}', "Bad message"),
            ('{"type": "move", "move": {"cell": [0, 0]}}', "It is not your turn"),
        ]
        for text, fragment in bad_messages:
            player.send_text(text)
            reply = player.receive_json()
            assert reply["type"] == "error", reply
            assert fragment in reply["error"]

        spectator.send_json({"type": "move", "move": {"cell": [0, 0]}})
        reply = spectator.receive_json()
        assert reply["type"] == "error" and "You hold no seat" in reply["error"]

        # a move over REST by the joined player reaches both sockets
        theirs = client.post(f"/api/games/{sid}/join").json()["token"]
        for socket in (player, spectator):
            assert socket.receive_json()["view"]["sound"] == "join"
        move(client, sid, theirs, (0, 0))
        for socket in (player, spectator):
            assert socket.receive_json()["view"]["text"] == "O..\n.X.\n..."

        # the socket is still open after the errors
        player.send_json({"type": "move", "move": {"cell": [0, 0]}})
        reply = player.receive_json()
        assert reply["type"] == "error" and "taken" in reply["error"]
        player.send_json({"type": "move", "move": {"cell": [2, 2]}})
        for socket in (player, spectator):
            view = socket.receive_json()["view"]
            assert view["text"] == "O..\n.X.\n..X"
    assert get_view(client, sid)["moves"] == 3


def test_a_refusal_on_the_socket_names_what_it_points_at(client: TestClient) -> None:
    """A game's refusal may mark elements of the board (`GameError.marks`): Ishido's tile
    that matches the next one in nothing. A refusal about nothing there carries none."""
    created = new_game(client, game="ishido", id="ishido:seed#d1")
    sid, token = created["session"], created["token"]
    with open_socket(client, sid, token) as player:
        assert player.receive_json()["type"] == "view"
        # (10, 0) touches the tile at (11, 0), whose colour and bird are not the next one's
        player.send_json({"type": "move", "move": {"place": [10, 0]}})
        reply = player.receive_json()
        assert reply == {"type": "error", "marks": ["ish-11-0"], "error": "The tile does not "
                         "fit there: the one to its right matches it in neither colour nor bird"}
        player.send_json({"type": "move", "move": {"place": [3, 3]}})  # touches no tile
        assert "marks" not in player.receive_json()


def test_websocket_against_the_ai_and_hint(client: TestClient) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    sid, token = created["session"], created["token"]
    with open_socket(client, sid, token) as player:
        assert player.receive_json()["type"] == "view"
        player.send_json({"type": "hint"})
        view = player.receive_json()
        assert view["type"] == "view" and view["view"]["assisted"] is True
        hint = player.receive_json()
        assert hint == {"type": "hint", "move": {"cell": [1, 1]}, "note": DRAWN_HINT}
        player.send_json({"type": "move", "move": {"cell": [0, 0]}})
        reply = player.receive_json()["view"]
        if reply["moves"] == 1:  # sent before the AI replied (a newer view replaces it)
            reply = player.receive_json()["view"]
        assert reply["moves"] == 2
        assert reply["text"] == "X..\n.O.\n..."  # the only reply to a corner that does not lose
        player.send_json({"type": "undo"})
        assert player.receive_json()["view"]["moves"] == 0


def test_websocket_unknown_session(client: TestClient) -> None:
    with open_socket(client, "nope") as socket:
        message = socket.receive_json()
        assert message["type"] == "error"
        assert "No game session 'nope'" in message["error"]


# -- unfinished games and statistics ------------------------------------------------------
def test_sessions_lists_unfinished_games_with_moves(client: TestClient) -> None:
    started = new_game(client, seats=["human", "ai:perfect"])
    move(client, started["session"], started["token"], (1, 1))
    sid, token = two_humans(client)
    play_out(client, sid, token, CROSS_WINS)  # finished: not listed
    assert client.get("/api/sessions", headers=auth(token)).json() == []
    untouched = new_game(client)  # no moves yet: not listed
    assert client.get("/api/sessions", headers=auth(untouched["token"])).json() == []
    response = client.get("/api/sessions", headers=auth(started["token"]))
    assert response.status_code == 200
    listed = response.json()
    assert [item["session"] for item in listed] == [started["session"]]
    item = listed[0]
    assert item["game"] == "tictactoe"
    assert item["title"] == "Tic Tac Toe"
    assert "id" not in item  # the id holds the deal: not for whoever lists the games
    assert item["preset"] == "standard"
    assert item["moves"] == 2
    assert item["mode"] == "vs AI (perfect)"
    assert item["headline"] == "Tic Tac Toe"


def finish(client: TestClient, cells: list[Cell], hint: bool = False) -> str:
    sid, token = two_humans(client)
    if hint:
        assert post(client, sid, "hint", token).status_code == 200
    view = play_out(client, sid, token, cells)
    assert view["status"] != "playing"
    return sid


def test_stats_after_finished_games(client: TestClient, store: Store) -> None:
    assert client.get("/api/stats").json() == {"groups": [], "bests": [], "left_off": {}}
    finish(client, CROSS_WINS)
    finish(client, CROSS_WINS, hint=True)
    finish(client, CIRCLE_WINS)
    finish(client, DRAW)
    finish(client, CROSS_WINS)
    response = client.get("/api/stats")
    assert response.status_code == 200
    groups = response.json()["groups"]
    assert len(groups) == 1
    group = groups[0]
    assert (group["game"], group["preset"], group["mode"]) == (
        "tictactoe", "standard", "two players",
    )
    assert group["title"] == "Tic Tac Toe"
    assert group["played"] == 5
    assert group["won"] == 3
    assert group["lost"] == 1
    assert group["drawn"] == 1
    assert group["win_rate"] == pytest.approx(0.6)
    assert group["current_streak"] == 1
    assert group["best_streak"] == 2
    assert group["assisted"] == 1
    assert group["unassisted_won"] == 2
    assert isinstance(group["best_time_ms"], int) and group["best_time_ms"] >= 0
    assert group["players"] == "Two players here"  # a hot-seat game, as its player chose
    # its results are the first seat's: Cross's wins and losses, no win rate or streaks
    # shown, nor a chart of them (Tic-Tac-Toe has no time or score worth one)
    assert {tile["label"]: tile["value"] for tile in group["shown"]} == {
        "played": "5", "Cross won": "3", "Cross lost": "1", "drawn": "1",
        "played with help": "1"}
    assert group["charts"] == []
    assert client.get("/api/stats", params={"game": "tictactoe"}).json()["groups"] == groups
    assert len(store.results()) == 5


def test_stats_group_by_mode_and_count_each_game_of_a_deal(client: TestClient) -> None:
    created = new_game(client, seats=["human", "ai:perfect"])
    rng = random.Random(3)
    for _ in range(2):  # the game, then its deal again (as the page's Restart after the end)
        sid, token, view = created["session"], created["token"], created["view"]
        while view["status"] == "playing":
            view = move(client, sid, token, rng.choice(empty_cells(view)))
        created = new_game(client, id=view["id"], seats=["human", "ai:perfect"])
    groups = client.get("/api/stats").json()["groups"]
    assert [g["mode"] for g in groups] == ["vs AI (perfect)"]
    assert [g["players"] for g in groups] == ["Against the computer (perfect)"]
    assert groups[0]["played"] == 2  # one result per game played
    assert groups[0]["won"] == 0


def test_undoing_a_finished_game_and_finishing_again_counts_once(client: TestClient) -> None:
    sid, token = two_humans(client)
    play_out(client, sid, token, CROSS_WINS)
    view = post(client, sid, "undo", token).json()
    assert view["status"] == "playing" and view["to_move"] == 0
    view = play_out(client, sid, token, [(2, 2), (2, 1)])  # now Circle wins the middle row
    assert view["winners"] == [1]
    groups = client.get("/api/stats").json()["groups"]
    assert len(groups) == 1
    assert (groups[0]["played"], groups[0]["won"], groups[0]["lost"]) == (1, 0, 1)


def test_a_game_is_filed_under_the_board_its_player_chose(client: TestClient, store: Store
                                                          ) -> None:
    """A no-guess game on a preset's board is counted apart, under the game's own words
    for it (not "Custom"); a preset as it is keeps its name."""
    medium = GAMES["minesweeper"].game.presets["medium"]
    chosen = {**medium, "first_click": "no_guess"}
    minesweeper = GAMES["minesweeper"].game
    presets = set()
    for params in (chosen, medium):
        made = client.post("/api/games", json={"game": "minesweeper", "params": params})
        assert made.status_code == 201, made.text
        kept = store.load_session(made.json()["session"])
        assert kept is not None
        presets.add(kept[0].preset)
    group_name = minesweeper.stat_group(minesweeper.validate(chosen))
    assert presets == {"medium", group_name} and group_name == "medium, no guess"
    (group,) = statistics([Result(sid="s", round=1, game="minesweeper", preset=group_name,
                                  mode="solo", outcome="won", score=None, elapsed_ms=5_000,
                                  moves=9, assisted=False, finished=1.0)], GAMES)["groups"]
    assert group["heading"] == "Medium, no guess" and group["players"] == ""


def test_stats_for_an_unknown_game(client: TestClient) -> None:
    assert "Unknown game 'chess'" in error_of(client.get("/api/stats?game=chess"), 404)


# -- documentation ------------------------------------------------------------------------
def test_docs_and_openapi(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "swagger" in docs.text.lower()
    schema = client.get("/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/catalog", "/api/games", "/api/games/{sid}", "/api/games/{sid}/moves",
        "/api/games/{sid}/undo", "/api/games/{sid}/redo", "/api/games/{sid}/restart",
        "/api/games/{sid}/hint", "/api/games/{sid}/join", "/api/sessions", "/api/stats",
    ):
        assert path in paths, path
