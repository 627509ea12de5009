"""Series and rematches: the score of consecutive games with the same seats, and Rematch,
which keeps the seats, passes the first move on, and asks every player first."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.hub.series import (
    MAX_OFFERS,
    player_of,
    rotated_kinds,
    rotated_seats,
)
from parlour.store.sqlite import SqliteStore as Store
from parlour.store.sqlite.schema import BASELINE_SCHEMA, MIGRATIONS, _run_script
from tests.support.servers import TEST_HOSTS
from tests.support.stores import on_both_stores, reopened
from tests.test_api import CROSS_WINS, View, auth, error_of, get_view, move, new_game
from tests.test_seats import leave, two_browsers


def rematch(client: TestClient, sid: str, token: str | None, accept: bool = True) -> Any:
    return client.post(f"/api/games/{sid}/rematch", json={"accept": accept},
                       headers=auth(token))


def answered(client: TestClient, sid: str, token: str, accept: bool = True) -> View:
    response = rematch(client, sid, token, accept)
    assert response.status_code == 200, response.text
    view: View = response.json()
    return view


def played_out(client: TestClient, sid: str, tokens: dict[int, str], cells: list[Any]) -> View:
    """`cells` played in turn, each by the token of the seat to move."""
    view: View = {}
    for cell in cells:
        view = get_view(client, sid, tokens[0])
        view = move(client, sid, tokens[view["to_move"]], cell)
    return view


def score(view: View) -> list[tuple[int, int, int]]:
    return [(s["won"], s["drawn"], s["lost"]) for s in view["series"]["seats"]]


def finished_between_two(client: TestClient) -> tuple[str, str, str]:
    """Cross (the creator) beat Circle (a friend in another browser)."""
    sid, cross, nought = two_browsers(client)
    view = played_out(client, sid, {0: cross, 1: nought}, CROSS_WINS)
    assert view["status"] == "won"
    return sid, cross, nought


def wait_for_moves(client: TestClient, sid: str, token: str, moves: int) -> View:
    deadline = time.monotonic() + 10
    while (view := get_view(client, sid, token))["moves"] < moves:
        assert time.monotonic() < deadline, view
        time.sleep(0.02)
    return view


# -- the rules ----------------------------------------------------------------------------
def test_three_seats_rotate_each_player_one_seat_up_and_the_score_follows_them() -> None:
    kinds = ["human", "ai:easy", "ai:strong"]
    assert rotated_kinds(kinds) == ["ai:easy", "ai:strong", "human"]
    assert rotated_seats({0}, 3) == [2] and rotated_seats({1, 2}, 3) == [0, 1]
    for number in range(6):
        for seat in range(3):  # whoever sat in seat+1 sits in seat in the next game
            assert player_of(seat, number + 1, 3) == player_of((seat + 1) % 3, number, 3)
    assert [player_of(0, number, 3) for number in range(4)] == [0, 1, 2, 0]


# -- against the computer, or all seats on one screen: at once ------------------------------
def test_a_rematch_against_the_computer_starts_at_once_and_it_moves_first(
    client: TestClient,
) -> None:
    created = new_game(client, seats=["human", "ai:random"])
    sid, token = created["session"], created["token"]
    view = get_view(client, sid, token)
    while view["status"] == "playing":
        cell = next((i % 3, i // 3) for i, c in enumerate(view["text"].replace("\n", ""))
                    if c == ".")
        view = move(client, sid, token, cell)  # answered once the computer has replied
    assert view["rematch"]["can_offer"] and view["series"]["number"] == 1
    mine = score(view)[0]
    after = answered(client, sid, token)["rematch"]["next"]
    assert after["session"] != sid and after["token"] not in (None, token)
    rematched = wait_for_moves(client, after["session"], after["token"], 1)
    assert rematched["you"] == [1], "the player who moved first now moves second"
    assert [s["kind"] for s in rematched["seats"]] == ["ai", "human"]
    assert rematched["seats"][0]["level"] == "random"
    assert rematched["series"]["number"] == 2
    assert score(rematched)[1] == mine, "the score follows the player to their new seat"
    assert rematched["status"] == "playing" and rematched["rematch"] is None


def test_a_hot_seat_rematch_passes_the_first_move_to_the_other_player(
    client: TestClient,
) -> None:
    created = new_game(client, seats=["human", "human"])
    sid, token = created["session"], created["token"]
    played_out(client, sid, {0: token, 1: token}, CROSS_WINS)
    after = answered(client, sid, token)["rematch"]["next"]
    view = get_view(client, after["session"], after["token"])
    assert view["you"] == [0, 1] and view["moves"] == 0 and view["to_move"] == 0
    # the player who lost moved second: now they are Cross, and move first
    assert score(view) == [(0, 0, 1), (1, 0, 0)]


# -- people in other browsers: every player accepts first -------------------------------------
def test_the_rematch_starts_when_every_player_accepts_with_the_seats_rotated(
    client: TestClient,
) -> None:
    sid, cross, nought = finished_between_two(client)
    offered = answered(client, sid, cross)
    assert offered["rematch"]["offer"] == {"seats": [0], "yours": True, "waiting_for_you": False}
    assert offered["rematch"]["next"] is None
    asked = get_view(client, sid, nought)["rematch"]
    assert asked["offer"] == {"seats": [0], "yours": False, "waiting_for_you": True}
    accepted = answered(client, sid, nought)["rematch"]["next"]
    crosss = get_view(client, sid, cross)["rematch"]["next"]
    assert accepted["session"] == crosss["session"]
    assert accepted["token"] != crosss["token"], "each player has a token of their own"
    new_sid = accepted["session"]
    circle_first = get_view(client, new_sid, accepted["token"])
    assert circle_first["you"] == [0] and circle_first["can_move"] is True
    assert get_view(client, new_sid, crosss["token"])["you"] == [1]
    assert score(circle_first) == [(0, 0, 1), (1, 0, 0)]
    # the old tokens hold nothing in the rematch; the new ones nothing in the old game
    assert error_of(client.post(f"/api/games/{new_sid}/moves", json={"move": {"cell": [1, 1]}},
                                headers=auth(nought)), 403)
    watching = get_view(client, sid)["rematch"]
    assert watching["next"] == {"session": new_sid, "token": None}, "spectators follow too"


def test_a_declined_offer_ends_and_its_player_may_offer_again_a_few_times(
    client: TestClient,
) -> None:
    sid, cross, nought = finished_between_two(client)
    for _ in range(MAX_OFFERS):
        answered(client, sid, cross)
        declined = answered(client, sid, nought, accept=False)
        assert declined["rematch"]["offer"] is None and declined["rematch"]["next"] is None
    assert get_view(client, sid, cross)["rematch"]["can_offer"] is False
    assert "enough times" in error_of(rematch(client, sid, cross), 409)
    answered(client, sid, nought)  # the other player may still offer
    withdrawn = answered(client, sid, nought, accept=False)
    assert withdrawn["rematch"]["offer"] is None


def test_only_a_seat_holder_answers_and_only_once(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    assert "not over" in error_of(rematch(client, sid, cross), 409)
    played_out(client, sid, {0: cross, 1: nought}, CROSS_WINS)
    assert "no seat" in error_of(rematch(client, sid, None), 403)
    assert "no seat" in error_of(rematch(client, sid, "a-guessed-token"), 403)
    assert "No rematch offer" in error_of(rematch(client, sid, nought, accept=False), 409)
    answered(client, sid, cross)
    assert "accepted the rematch already" in error_of(rematch(client, sid, cross), 409)
    assert get_view(client, sid)["rematch"]["offer"]["waiting_for_you"] is False
    answered(client, sid, nought)
    assert "has started already" in error_of(rematch(client, sid, cross), 409)


def test_a_finished_games_seats_stay_and_its_offer_with_them(client: TestClient) -> None:
    sid, cross, nought = finished_between_two(client)
    answered(client, sid, cross)
    refused = client.post(f"/api/games/{sid}/leave", headers=auth(nought))
    assert refused.status_code == 409 and "This game is over" in refused.json()["error"]
    assert get_view(client, sid, cross)["rematch"]["offer"] is not None  # Circle may answer


@on_both_stores
def test_a_seat_whose_player_left_keeps_its_computer_in_the_rematch(
    client: TestClient, store: Store,
) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    leave(client, sid, nought)  # the computer plays Circle from now on
    view = get_view(client, sid, cross)
    while view["status"] == "playing":
        cell = next((i % 3, i // 3) for i, c in enumerate(view["text"].replace("\n", ""))
                    if c == ".")
        view = move(client, sid, cross, cell)
    after = answered(client, sid, cross)["rematch"]["next"]  # nobody else to ask
    with TestClient(create_app(reopened(store), GAMES, ai_delay_scale=0,
                               allowed_hosts=TEST_HOSTS)) as again:
        rematched = wait_for_moves(again, after["session"], after["token"], 1)
        assert rematched["seats"][0]["stand_in"] is True and rematched["you"] == [1]


def test_a_solitaire_has_no_rematch(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "minesweeper"}).json()
    view = get_view(client, created["session"], created["token"])
    assert view["series"] is None and view["rematch"] is None


# -- the series' score, kept ------------------------------------------------------------------
@on_both_stores
def test_the_series_score_adds_up_over_games_and_survives_a_restart(
    client: TestClient, store: Store,
) -> None:
    sid, cross, nought = finished_between_two(client)  # game 1: the creator (Cross) wins
    players = {"creator": cross, "friend": nought}
    sids = [sid]
    for _ in range(2):  # games 2 and 3: whoever sits in seat 0 (Cross) wins each
        for token in players.values():
            view = answered(client, sids[-1], token)
        handed = {name: get_view(client, sids[-1], token)["rematch"]["next"]["token"]
                  for name, token in players.items()}
        sids.append(view["rematch"]["next"]["session"])
        players = handed
        seats = {get_view(client, sids[-1], t)["you"][0]: t for t in players.values()}
        played_out(client, sids[-1], seats, CROSS_WINS)
    last = get_view(client, sids[-1], players["creator"])
    # the creator sat in seats 0, 1, 0: won, lost, won
    assert last["series"]["number"] == 3 and last["you"] == [0]
    assert score(last) == [(2, 0, 1), (1, 0, 2)]
    with TestClient(create_app(reopened(store), GAMES, ai_delay_scale=0,
                               allowed_hosts=TEST_HOSTS)) as again:
        reloaded = get_view(again, sids[-1], players["friend"])
        assert reloaded["you"] == [1] and score(reloaded) == [(2, 0, 1), (1, 0, 2)]
        # a page of the first game, reloaded, is still told where the series went
        first = get_view(again, sids[0], nought)["rematch"]["next"]
        assert first["session"] == sids[1] and first["token"] is not None
        # and the series goes on after the restart
        answered(again, sids[-1], players["creator"])
        view = answered(again, sids[-1], players["friend"])
        fourth = view["rematch"]["next"]
        assert score(get_view(again, fourth["session"], fourth["token"])) == [
            (1, 0, 2), (2, 0, 1)]


def test_a_rematch_over_the_websocket_moves_every_page(client: TestClient) -> None:
    sid, cross, nought = finished_between_two(client)
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "hello", "token": nought})
        assert socket.receive_json()["type"] == "view"
        answered(client, sid, cross)
        offered = socket.receive_json()["view"]["rematch"]
        assert offered["offer"]["waiting_for_you"] is True
        socket.send_json({"type": "rematch", "accept": True})
        moved = socket.receive_json()["view"]["rematch"]["next"]
        assert moved["session"] and moved["token"]
    assert get_view(client, moved["session"], moved["token"])["you"] == [0]


# -- the schema --------------------------------------------------------------------------------
def test_a_version_5_file_migrates_and_its_games_still_load(tmp_path: Path) -> None:
    path = tmp_path / "parlour.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    _run_script(db, BASELINE_SCHEMA)
    for migration in MIGRATIONS[:5]:
        migration(db)
    db.execute("PRAGMA user_version = 5")
    db.execute(
        "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, status,"
        " created, updated) VALUES ('old', 'tictactoe', 'tictactoe:standard#s1',"
        " '[\"human\", \"human\"]', 'two players', 'standard', 5, 'won', 1, 1)")
    db.executemany("INSERT INTO moves (sid, ply, move) VALUES ('old', ?, ?)",
                   [(ply, f'{{"cell": [{x}, {y}]}}') for ply, (x, y) in enumerate(CROSS_WINS)])
    db.execute("INSERT INTO tokens (token, sid, seats) VALUES ('t0', 'old', '[0, 1]')")
    db.execute("COMMIT")
    db.close()
    store = Store(path)
    with TestClient(create_app(store, GAMES, ai_delay_scale=0,
                               allowed_hosts=TEST_HOSTS)) as client:
        view = get_view(client, "old", "t0")
        assert view["status"] == "won" and view["text"] == "XXX\nOO.\n..."
        assert view["series"] == {"number": 1, "seats": [
            {"won": 1, "drawn": 0, "lost": 0, "player": 0},
            {"won": 0, "drawn": 0, "lost": 1, "player": 1}]}
        after = answered(client, "old", "t0")["rematch"]["next"]
        assert get_view(client, after["session"], after["token"])["series"]["number"] == 2
    store.close()
