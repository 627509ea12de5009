"""Seats for people on several browsers: choosing one, leaving and coming back, the
computer standing in, take-backs asked of the other players, and a result per player."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from html import unescape
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.stats.statistics import statistics
from parlour.store.sqlite import SqliteStore as Store
from tests.support.servers import TEST_HOSTS
from tests.support.stores import on_both_stores, reopened
from tests.test_api import (
    CROSS_WINS,
    View,
    auth,
    error_of,
    get_view,
    move,
    new_game,
    open_socket,
    post,
)

SAVED_BY_0_1 = Path(__file__).parent / "fixtures" / "saved_by_0.1.sqlite3"


def join(client: TestClient, sid: str, seat: int | None = None, token: str | None = None
         ) -> dict[str, object]:
    body = {} if seat is None else {"seat": seat}
    response = client.post(f"/api/games/{sid}/join", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    joined: dict[str, object] = response.json()
    return joined


def two_browsers(client: TestClient) -> tuple[str, str, str]:
    """A game of Cross (the creator) against Circle (a friend who joined)."""
    created = new_game(client, seats=["human", "open"])
    sid, cross = created["session"], created["token"]
    nought = join(client, sid)["token"]
    assert isinstance(nought, str)
    return sid, cross, nought


def leave(client: TestClient, sid: str, token: str) -> View:
    response = client.post(f"/api/games/{sid}/leave", headers=auth(token))
    assert response.status_code == 200, response.text
    view: View = response.json()
    return view


def answer(client: TestClient, sid: str, token: str, accept: bool) -> View:
    response = client.post(f"/api/games/{sid}/takeback", json={"accept": accept},
                           headers=auth(token))
    assert response.status_code == 200, response.text
    view: View = response.json()
    return view


# -- choosing a seat ------------------------------------------------------------------------
def test_a_player_chooses_their_seat(client: TestClient) -> None:
    created = new_game(client, seats=["open", "open"])  # the host only watches
    sid = created["session"]
    assert created["seats"] == []
    nought = join(client, sid, seat=1)
    assert nought["seats"] == [1]
    assert "Circle is taken" in error_of(
        client.post(f"/api/games/{sid}/join", json={"seat": 1}), 409)
    assert "no seat 5" in error_of(client.post(f"/api/games/{sid}/join", json={"seat": 5}), 409)
    cross = join(client, sid)  # no seat named: the first open one
    assert cross["seats"] == [0]
    watcher = join(client, sid)
    assert (watcher["token"], watcher["seats"]) == (None, [])


def test_the_computers_seat_cannot_be_taken(client: TestClient) -> None:
    sid = new_game(client, seats=["human", "ai:perfect"])["session"]
    message = error_of(client.post(f"/api/games/{sid}/join", json={"seat": 1}), 409)
    assert "computer's seat" in message


def test_a_bad_seat_number_is_refused(client: TestClient) -> None:
    sid = new_game(client, seats=["human", "open"])["session"]
    for bad in (-1, 8, "one", 1.5):
        assert client.post(f"/api/games/{sid}/join", json={"seat": bad}).status_code == 422
    assert get_view(client, sid)["seats"][1]["open"] is True


# -- leaving, the computer standing in, coming back ---------------------------------------
def test_the_computer_plays_a_left_seat_until_its_player_comes_back(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    view = leave(client, sid, nought)  # Circle to move: the computer answers at once
    assert view["you"] == [] and view["moves"] == 2
    seat = view["seats"][1]
    assert (seat["kind"], seat["open"], seat["stand_in"], seat["level"]) == (
        "human", True, True, GAMES["tictactoe"].stand_in_level)
    assert get_view(client, sid, cross)["can_move"] is True

    back = join(client, sid, seat=1, token=nought)  # the same browser takes it again
    assert (back["token"], back["seats"]) == (nought, [1])
    move(client, sid, cross, next(cell for cell in [(0, 0), (2, 2), (0, 2), (2, 0)]
                                  if get_view(client, sid)["text"][cell[1] * 4 + cell[0]] == "."))
    after = get_view(client, sid, nought)
    assert after["moves"] == 3 and after["can_move"] is True  # the computer left it alone
    assert after["seats"][1]["stand_in"] is False


def test_a_stranger_may_take_the_left_seat(client: TestClient) -> None:
    sid, _, nought = two_browsers(client)
    leave(client, sid, nought)
    stranger = join(client, sid)
    assert stranger["seats"] == [1] and stranger["token"] != nought
    assert get_view(client, sid, nought)["you"] == []  # the old token holds nothing now


def test_leaving_is_refused_without_a_seat_or_another_player(client: TestClient) -> None:
    sid, cross, _ = two_browsers(client)
    assert "no seat" in error_of(client.post(f"/api/games/{sid}/leave"), 403)
    solo = new_game(client, seats=["human", "ai:medium"])
    message = error_of(client.post(f"/api/games/{solo['session']}/leave",
                                   headers=auth(solo["token"])), 409)
    assert message == "You are the only player here: start a new game instead"
    assert get_view(client, sid, cross)["can_leave"] is True
    assert solo["view"]["can_leave"] is False


@on_both_stores
def test_seats_and_stand_ins_survive_a_restart(client: TestClient, store: Store) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    leave(client, sid, nought)
    with TestClient(create_app(reopened(store), GAMES, ai_delay_scale=0,
                               allowed_hosts=TEST_HOSTS)) as again:
        view = get_view(again, sid, cross)
        assert view["seats"][1]["stand_in"] is True and view["you"] == [0]
        played = move(again, sid, cross, next(
            cell for cell in [(0, 0), (2, 2), (0, 2), (2, 0)]
            if view["text"][cell[1] * 4 + cell[0]] == "."))
        assert played["moves"] == 4  # the computer still plays Circle
        assert join(again, sid, seat=1, token=nought)["seats"] == [1]
    with TestClient(create_app(reopened(store), GAMES, ai_delay_scale=0,
                               allowed_hosts=TEST_HOSTS)) as third:
        view = get_view(third, sid, nought)
        assert view["you"] == [1] and view["seats"][1]["stand_in"] is False


# -- take-backs -------------------------------------------------------------------------------
def test_a_take_back_accepted_goes_back_to_the_askers_turn(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    move(client, sid, nought, (0, 0))
    move(client, sid, cross, (2, 2))
    asked = post(client, sid, "undo", cross).json()
    assert asked["moves"] == 3 and asked["can_undo"] is False  # one request at a time
    theirs = get_view(client, sid, nought)
    assert theirs["takeback"] == {"seats": [0], "moves": 1, "yours": False,
                                  "waiting_for_you": True}
    assert "already waiting" in error_of(post(client, sid, "undo", cross), 409)
    assert "waiting for the other players" in error_of(
        client.post(f"/api/games/{sid}/takeback", json={"accept": True}, headers=auth(cross)),
        409)
    done = answer(client, sid, nought, accept=True)
    assert done["moves"] == 2 and done["takeback"] is None
    assert get_view(client, sid, cross)["can_move"] is True


def position(client: TestClient, store: Store, sid: str) -> tuple[object, ...]:
    view, (row, line) = get_view(client, sid), store.load_session(sid) or ((), [])
    return view["moves"], view["text"], row.cursor, line  # type: ignore[union-attr]


@on_both_stores
def test_a_take_back_refused_or_withdrawn_changes_nothing(
    client: TestClient, store: Store
) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    move(client, sid, nought, (0, 0))
    before = position(client, store, sid)
    with open_socket(client, sid, cross) as socket:
        socket.receive_json()
        post(client, sid, "undo", cross)
        answer(client, sid, nought, accept=False)
        notes = [socket.receive_json() for _ in range(3)]
    assert {"type": "note", "note": "Your take-back was refused"} in notes
    assert position(client, store, sid) == before
    post(client, sid, "undo", nought)  # Circle asks; then withdraws
    assert answer(client, sid, nought, accept=False)["takeback"] is None
    assert position(client, store, sid) == before


def test_a_move_ends_a_take_back_request(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    post(client, sid, "undo", cross)
    move(client, sid, nought, (0, 0))  # answered with a move instead
    assert get_view(client, sid, cross)["takeback"] is None
    assert "No take-back" in error_of(
        client.post(f"/api/games/{sid}/takeback", json={"accept": True},
                    headers=auth(nought)), 409)


def test_a_spectator_cannot_answer_a_take_back(client: TestClient) -> None:
    sid, cross, _ = two_browsers(client)
    move(client, sid, cross, (1, 1))
    post(client, sid, "undo", cross)
    error_of(client.post(f"/api/games/{sid}/takeback", json={"accept": True}), 403)
    assert get_view(client, sid)["takeback"] == {
        "seats": [0], "moves": 1, "yours": False, "waiting_for_you": False}


def next_view(socket: Any) -> View:
    """The next view the socket is sent (notes skipped)."""
    while (message := socket.receive_json())["type"] != "view":
        pass
    view: View = message["view"]
    return view


def test_take_back_over_the_websocket(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    with open_socket(client, sid, cross) as asker, open_socket(client, sid, nought) as asked:
        asker.receive_json(), asked.receive_json()
        asker.send_json({"type": "undo"})
        assert asker.receive_json()["type"] in ("view", "note")
        while (view := next_view(asked))["takeback"] is None:
            pass
        assert view["takeback"]["waiting_for_you"] is True
        asked.send_json({"type": "takeback", "accept": True})
        while next_view(asked)["moves"] != 0:
            pass
    assert get_view(client, sid, cross)["moves"] == 0


def test_leave_over_the_websocket(client: TestClient) -> None:
    sid, _, nought = two_browsers(client)
    with open_socket(client, sid, nought) as socket:
        socket.receive_json()
        socket.send_json({"type": "leave"})
        while next_view(socket)["you"] != []:
            pass
    assert get_view(client, sid)["seats"][1]["stand_in"] is True


# -- results ------------------------------------------------------------------------------------
@on_both_stores
def test_every_player_gets_a_result(client: TestClient, store: Store) -> None:
    sid, cross, nought = two_browsers(client)
    for number, cell in enumerate(CROSS_WINS):
        move(client, sid, cross if number % 2 == 0 else nought, cell)
    results = {r.seat: r for r in store.results("tictactoe") if r.sid == sid}
    assert {seat: (r.outcome, r.seat_name) for seat, r in results.items()} == {
        0: ("won", "Cross"), 1: ("lost", "Circle")}
    groups = {g["mode"]: g for g in statistics(store.results("tictactoe"), GAMES)["groups"]}
    assert groups["two players, as Cross"]["won"] == 1
    assert groups["two players, as Circle"]["lost"] == 1
    # filed as its players chose it: a friend online, not the computer, nor the hot seat
    assert groups["two players, as Cross"]["players"] == "Online with a friend, as Cross"


@on_both_stores
def test_a_player_who_left_gets_no_result(client: TestClient, store: Store) -> None:
    sid, cross, nought = two_browsers(client)
    leave(client, sid, nought)
    view = get_view(client, sid, cross)
    while view["status"] == "playing":
        empty = [i for i, ch in enumerate(view["text"].replace("\n", "")) if ch == "."]
        view = move(client, sid, cross, (empty[0] % 3, empty[0] // 3))
    [result] = [r for r in store.results("tictactoe") if r.sid == sid]
    assert (result.seat, result.seat_name) == (0, "")  # alone at the end: one record


def test_a_result_saved_before_seats_were_kept_is_the_starters(tmp_path: Path) -> None:
    path = tmp_path / "parlour.sqlite3"
    shutil.copy(SAVED_BY_0_1, path)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        ("sid1", "tictactoe", "tictactoe:standard#abc", '["ai:perfect", "human"]',
         "vs AI (perfect)", "standard", 5, 1, 0, 4200, None, "lost", "Cross wins", 1.0, 2.0, 0))
    db.execute("INSERT INTO tokens VALUES (?,?,?)", ("tok", "sid1", "[1]"))
    db.execute("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
               ("sid1", 1, "tictactoe", "standard", "vs AI (perfect)", "lost", None, 4200, 5,
                0, 2.0, "{}"))
    db.execute(  # a hot-seat game: one browser held both seats, its later token none
        "INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        ("sid2", "tictactoe", "tictactoe:standard#abd", '["human", "human"]',
         "two players", "standard", 5, 1, 0, 4200, None, "won", "Cross wins", 1.0, 2.0, 0))
    db.execute("INSERT INTO tokens VALUES (?,?,?)", ("first", "sid2", "[1, 0]"))
    db.execute("INSERT INTO tokens VALUES (?,?,?)", ("later", "sid2", "[]"))
    db.execute("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
               ("sid2", 1, "tictactoe", "standard", "two players", "won", None, 4200, 5,
                0, 2.0, "{}"))
    db.commit()
    db.close()
    store = Store(path)
    results = {r.sid: r for r in store.results()}
    assert (results["sid1"].seat, results["sid1"].outcome) == (1, "lost")
    assert (results["sid2"].seat, results["sid2"].seat_name) == (0, "")  # the lowest seat
    assert (results["YSuL7Urf4dtb"].seat, results["YSuL7Urf4dtb"].seat_name) == (0, "")
    assert len(results) == 7  # the five of the fixture and these two
    assert store.session_row("sid1") is not None
    assert store.session_row("sid1").stand_ins == {}  # type: ignore[union-attr]
    store.close()


def next_note(socket: Any) -> str:
    """The next note or error the socket is sent (views skipped)."""
    while (message := socket.receive_json())["type"] not in ("note", "error"):
        pass
    note: str = message.get("note", message.get("error"))
    return note


def test_each_answer_to_a_take_back_is_told_to_the_one_who_gave_it_and_to_the_asker(
    client: TestClient,
) -> None:
    sid, cross, nought = two_browsers(client)
    move(client, sid, cross, (1, 1))
    move(client, sid, nought, (0, 0))
    with open_socket(client, sid, nought) as asker, open_socket(client, sid, cross) as asked:
        asker.send_json({"type": "undo"})
        assert next_note(asker) == "Asked to take back your last move: waiting for an answer"
        asked.send_json({"type": "takeback", "accept": False})
        assert next_note(asked) == "Take-back refused"
        asker.send_json({"type": "undo"})  # answered after the note, if the note is missed
        assert next_note(asker) == "Your take-back was refused"
        next_note(asker)
        asker.send_json({"type": "takeback", "accept": False})
        assert next_note(asker) == "Take-back withdrawn"
        asker.send_json({"type": "undo"})
        next_note(asker)
        asked.send_json({"type": "takeback", "accept": True})
        assert next_note(asked) == "Take-back accepted"
        asker.send_json({"type": "undo"})  # answered after the note, if the note is missed
        assert next_note(asker) == "Your take-back was accepted"
    assert get_view(client, sid, nought)["moves"] == 1  # Circle's move taken back


def test_a_seat_that_is_taken_or_not_there_is_refused_with_its_name_or_the_seat_count(
    client: TestClient,
) -> None:
    sid, _, _ = two_browsers(client)
    assert error_of(client.post(f"/api/games/{sid}/join", json={"seat": 0}), 409) == (
        "Cross is taken")
    assert error_of(client.post(f"/api/games/{sid}/join", json={"seat": 1}), 409) == (
        "Circle is taken")
    assert "this game has 2" in error_of(
        client.post(f"/api/games/{sid}/join", json={"seat": 2}), 409)


def test_no_take_back_is_asked_once_the_game_is_over(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    for i, cell in enumerate(CROSS_WINS):
        move(client, sid, (cross, nought)[i % 2], cell)
    assert "over" in error_of(post(client, sid, "undo", nought), 409).lower()


def test_a_player_who_left_holds_no_seat_to_leave_again(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    leave(client, sid, nought)
    refused = error_of(client.post(f"/api/games/{sid}/leave", headers=auth(nought)), 403)
    assert refused.rstrip(".") == "You hold no seat in this game"
    assert get_view(client, sid, cross)["seats"][1]["open"] is True


def test_a_finished_games_seats_are_neither_given_up_nor_taken(client: TestClient) -> None:
    """Its results are filed at its seats: a seat changing hands after the end would hand
    a player's result, on a shared Parlour, to whoever took it (parlour.stats.own)."""
    sid, cross, nought = two_browsers(client)
    for i, cell in enumerate(CROSS_WINS):
        move(client, sid, (cross, nought)[i % 2], cell)
    for refused in (client.post(f"/api/games/{sid}/leave", headers=auth(nought)),
                    client.post(f"/api/games/{sid}/join", json={"seat": 1})):
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"].startswith("This game is over: its seats stay")
    seat = get_view(client, sid)["seats"][1]
    assert (seat["open"], seat["stand_in"]) == (False, False)


def test_a_player_may_take_a_second_seat_and_keeps_both(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    leave(client, sid, nought)
    both = join(client, sid, seat=1, token=cross)
    assert (both["token"], both["seats"]) == (cross, [0, 1])


def test_with_no_seat_open_a_player_keeps_their_token_and_a_stranger_only_watches(
    client: TestClient,
) -> None:
    sid, cross, _ = two_browsers(client)
    again = join(client, sid, token=cross)
    assert (again["token"], again["seats"]) == (cross, [0])
    stranger = join(client, sid, token="made-up")
    assert (stranger["token"], stranger["seats"]) == (None, [])


def test_a_take_back_among_three_waits_for_every_other_player_and_says_so(
    client: TestClient,
) -> None:
    created = new_game(client, game="tribolo", seats=["human", "open", "open"])
    sid = created["session"]
    tokens = [created["token"], join(client, sid)["token"], join(client, sid)["token"]]
    view = get_view(client, sid, tokens[0])
    mover = tokens[view["to_move"]]
    first, last = (token for token in tokens if token != mover)
    assert isinstance(mover, str)
    cells = re.findall(r'data-move="([^"]+)"', get_view(client, sid, mover)["html"])
    played = next(reply for cell in cells if (reply := client.post(
        f"/api/games/{sid}/moves", json={"move": json.loads(unescape(cell))},
        headers=auth(mover))).status_code == 200)  # the first legal move
    assert played.json()["moves"] == 1
    with open_socket(client, sid, first) as first_asked, \
            open_socket(client, sid, last) as last_asked:
        post(client, sid, "undo", mover)
        first_asked.send_json({"type": "takeback", "accept": True})
        assert next_note(first_asked) == "Accepted: waiting for the other players"
        assert get_view(client, sid, mover)["moves"] == 1  # not yet: one has not answered
        last_asked.send_json({"type": "takeback", "accept": True})
        assert next_note(last_asked) == "Take-back accepted"
    assert get_view(client, sid, mover)["moves"] == 0


def test_the_others_hear_a_player_leave(client: TestClient) -> None:
    sid, cross, nought = two_browsers(client)
    with open_socket(client, sid, cross) as staying:
        staying.receive_json()  # the board as it is
        leave(client, sid, nought)
        while (message := staying.receive_json())["type"] != "view":
            pass
    assert message["view"]["sound"] == "leave"
    assert message["view"]["seats"][1]["open"] is True


# -- help between people --------------------------------------------------------------------
def test_no_hint_nor_assist_in_a_game_against_another_person(client: TestClient) -> None:
    """As lichess gives neither side an engine: while a friend holds a seat, a hint or the
    assist would be the computer playing for one of them. Both are refused, and each
    player's view says why; players sharing one screen (one token) may still ask, and so may
    the player a friend left to the computer."""
    sid, cross, nought = two_browsers(client)
    for token in (cross, nought):
        assert get_view(client, sid, token)["help_refusal"] == (
            "no hints nor assist in a game against another person")
    assert "another person" in error_of(post(client, sid, "hint", cross), 409)
    turned_on = client.post(f"/api/games/{sid}/assist", json={"on": True}, headers=auth(cross))
    assert "another person" in error_of(turned_on, 409)
    assert get_view(client, sid, cross)["assisted"] is False

    leave(client, sid, nought)  # the computer stands in for Circle
    assert get_view(client, sid, cross)["help_refusal"] is None
    assert post(client, sid, "hint", cross).status_code == 200

    shared = new_game(client, seats=["human", "human"])  # one screen, one token
    assert shared["view"]["help_refusal"] is None
    assert post(client, shared["session"], "hint", shared["token"]).status_code == 200
