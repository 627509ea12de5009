"""Tribolo over the REST API, as scripts and bots play it (the issue's contract): seats,
moves as {"cell": [x, y]}, the text and scores, refused requests, undo, help and the end.

Legal moves are worked out here from the view's text with the rules engine, as a bot
would, so these tests read only what the API answers.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from parlour.core.gameid import parse_game_id
from parlour.games import GAMES
from parlour.games.tribolo.rules import (
    HEIGHT,
    WIDTH,
    board_from_rows,
    captures,
    cell_at,
    cells,
    legal_moves,
    position,
)
from parlour.store.sqlite import SqliteStore as Store

NAMES = ("Blue", "Red", "Green")
TRIBOLO = GAMES["tribolo"].game
BLUE_FIRST = next(text for n in range(100) if (text := f"tribolo:standard#blue{n}")
                  and TRIBOLO.to_move(parse_game_id(TRIBOLO, text).deal(TRIBOLO)) == 0)
"""A deal whose first player, drawn at random, is Blue."""
View = dict[str, Any]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "tribolo", **fields})
    assert reply.status_code == 201, reply.json()
    created: dict[str, Any] = reply.json()
    return created


def view_of(client: TestClient, sid: str, token: str | None = None) -> View:
    reply = client.get(f"/api/games/{sid}", headers=auth(token) if token else {})
    assert reply.status_code == 200, reply.json()
    found: View = reply.json()
    return found


def post_move(client: TestClient, sid: str, token: str, move: Any) -> Any:
    return client.post(f"/api/games/{sid}/moves", json={"move": move}, headers=auth(token))


def legal(view: View) -> list[tuple[int, int]]:
    """The cells the player to move may play, from the view's text alone."""
    rows = view["text"].split("\n")[:HEIGHT]
    board = board_from_rows(rows)
    return [position(cell) for cell in cells(legal_moves(board, view["to_move"]))]


def error_of(reply: Any, status: int) -> str:
    assert reply.status_code == status, (reply.status_code, reply.json())
    message: str = reply.json()["error"]
    return message


def stable(view: View) -> View:
    return {key: value for key, value in view.items() if key != "elapsed_ms"}


def three_on_one_screen(client: TestClient) -> tuple[str, str, View]:
    created = create(client, seats=["human", "human", "human"])
    return created["session"], created["token"], created["view"]


# -- the contract ---------------------------------------------------------------------------
def test_three_humans_on_one_screen_hold_every_seat_with_one_token(client: TestClient) -> None:
    created = create(client, seats=["human", "human", "human"])
    assert created["seats"] == [0, 1, 2]
    view = created["view"]
    assert view["you"] == [0, 1, 2] and view["can_move"] is True
    assert [seat["name"] for seat in view["seats"]] == list(NAMES)


def test_the_text_and_scores_read_as_the_contract_says(client: TestClient) -> None:
    _, _, view = three_on_one_screen(client)
    lines = view["text"].split("\n")
    assert len(lines) == HEIGHT + 1
    assert all(len(line) == WIDTH and set(line) <= set("BRG#.") for line in lines[:HEIGHT])
    assert lines[HEIGHT] == f"to move: {NAMES[view['to_move']]}"
    board = "".join(lines[:HEIGHT])
    assert view["scores"] == [board.count(mark) for mark in "BRG"] == [12, 12, 12]
    assert board.count("#") == 12
    assert view["headline"] == f"{NAMES[view['to_move']]} to play"


def test_a_move_is_x_across_and_y_down(client: TestClient) -> None:
    sid, token, view = three_on_one_screen(client)
    x, y = legal(view)[0]
    after = post_move(client, sid, token, {"cell": [x, y]})
    assert after.status_code == 200, after.json()
    rows = after.json()["text"].split("\n")
    assert rows[y][x] == "BRG"[view["to_move"]]
    assert sum(after.json()["scores"]) == sum(view["scores"]) + 1


def test_blue_plays_against_two_computers_by_default_to_the_end(client: TestClient) -> None:
    created = create(client)
    sid, token = created["session"], created["token"]
    view = view_of(client, sid, token)
    assert [seat["kind"] for seat in view["seats"]] == ["human", "ai", "ai"]
    assert created["seats"] == [0]
    rng = random.Random(3)
    while view["status"] == "playing":
        assert view["to_move"] == 0, "the computers answer before the move is answered"
        reply = post_move(client, sid, token, {"cell": list(rng.choice(legal(view)))})
        assert reply.status_code == 200, reply.json()
        view = reply.json()
    assert view["text"].endswith("to move: none")
    assert view["outcome"] in ("won", "lost", "draw")
    assert view["scores"] == ["".join(view["text"].split("\n")[:HEIGHT]).count(m) for m in "BRG"]


# -- refused requests -----------------------------------------------------------------------
def test_bad_cells_are_refused_with_a_reason_and_change_nothing(client: TestClient) -> None:
    sid, token, view = three_on_one_screen(client)
    rows = view["text"].split("\n")[:HEIGHT]
    marks = {(x, y): mark for y, row in enumerate(rows) for x, mark in enumerate(row)}
    taken = next(cell for cell, mark in marks.items() if mark in "BRG")
    wall = next(cell for cell, mark in marks.items() if mark == "#")
    playable = set(legal(view))
    useless = next(cell for cell, mark in marks.items() if mark == "." and cell not in playable)
    cases: list[tuple[Any, str]] = [
        ({"cell": [16, 0]}, "off the board"),
        ({"cell": [0, 11]}, "off the board"),
        ({"cell": [-1, 3]}, "off the board"),
        ({"cell": [10**30, 0]}, "off the board"),
        ({"cell": list(wall)}, "wall"),
        ({"cell": list(taken)}, "taken"),
        ({"cell": list(useless)}, "captures nothing"),
        ({"cell": ["a", 1]}, "Malformed move"),
        ({"cell": [1.5, 2]}, "Malformed move"),
        ({"cell": [True, 2]}, "Malformed move"),
        ({"cell": "b2"}, "Malformed move"),
        ({"cell": [1]}, "Malformed move"),
        ({"cell": [1, 2, 3]}, "Malformed move"),
        ({"cell": [1, 2], "player": 0}, "Malformed move"),
        ({"x": 1, "y": 2}, "Malformed move"),
        (None, "Malformed move"),
    ]
    before = stable(view_of(client, sid, token))
    for bad, fragment in cases:
        assert fragment in error_of(post_move(client, sid, token, bad), 409), bad
        assert stable(view_of(client, sid, token)) == before


def test_a_seat_cannot_move_out_of_turn(client: TestClient) -> None:
    created = create(client, seats=["human", "open", "open"])
    sid, host = created["session"], created["token"]
    view = created["view"]
    friend_seat = 2 if view["to_move"] == 1 else 1
    joined = client.post(f"/api/games/{sid}/join", json={"seat": friend_seat})
    friend = joined.json()["token"]
    cell = legal(view)[0]
    assert "not your turn" in error_of(post_move(client, sid, friend, {"cell": list(cell)}), 409)
    if view["to_move"] != 0:  # the host holds Blue only
        assert "not your turn" in error_of(post_move(client, sid, host, {"cell": list(cell)}), 409)
    assert view_of(client, sid)["moves"] == 0


def test_no_move_after_the_end(client: TestClient, store: Store) -> None:
    sid, token, view = three_on_one_screen(client)
    rng = random.Random(8)
    while view["status"] == "playing":
        view = post_move(client, sid, token, {"cell": list(rng.choice(legal(view)))}).json()
    assert view["to_move"] is None and view["text"].split("\n")[-1] == "to move: none"
    best = max(view["scores"])
    assert view["winners"] == ([] if view["scores"].count(best) == 3 else
                               [seat for seat in range(3) if view["scores"][seat] == best])
    assert "The game is over" in error_of(post_move(client, sid, token, {"cell": [0, 0]}), 409)


# -- undo and help --------------------------------------------------------------------------
def test_undo_goes_back_to_blues_turn_past_the_computers_replies(client: TestClient) -> None:
    created = create(client, seats=["human", "ai:easy", "ai:easy"])
    sid, token = created["session"], created["token"]
    view = view_of(client, sid, token)
    before = view["text"]
    after = post_move(client, sid, token, {"cell": list(legal(view)[0])}).json()
    assert after["moves"] > view["moves"] + 1 or after["status"] != "playing"
    undone = client.post(f"/api/games/{sid}/undo", headers=auth(token))
    assert undone.status_code == 200, undone.json()
    assert undone.json()["text"] == before and undone.json()["to_move"] == 0


def test_your_turn_marks_where_you_may_play_without_counting_as_help(client: TestClient) -> None:
    created = create(client, seats=["human", "open", "open"])
    sid, view = created["session"], created["view"]
    marked = view["html"].count(" legal")
    if view["to_move"] == 0:
        assert marked == len(legal(view))
    else:  # another's turn: nothing to play, nothing marked
        assert marked == 0
    assert view_of(client, sid)["html"].count(" legal") == 0  # a spectator plays nowhere
    assert view["assisted"] is False and "gain" not in view["html"]


def test_help_shows_what_each_move_turns_and_counts_as_assisted(client: TestClient) -> None:
    sid, token, view = three_on_one_screen(client)
    helped = client.post(f"/api/games/{sid}/assist", json={"on": True}, headers=auth(token))
    assert helped.status_code == 200, helped.json()
    html = helped.json()["html"]
    assert html.count('class="gain"') == len(legal(view)) and helped.json()["assisted"] is True
    x, y = legal(view)[0]
    before = view["scores"][view["to_move"]]
    cell = html.split(f'id="tb-{x}-{y}"')[1].split("\n")[0]
    gain = int(cell.split('class="gain"')[1].split(">")[1].split("<")[0])
    after = post_move(client, sid, token, {"cell": [x, y]}).json()
    assert after["scores"][view["to_move"]] == before + gain + 1  # turned, and the cell played


def guest_and_host(client: TestClient, **fields: Any) -> tuple[str, str, str]:
    """Blue's host and Red's guest (on the invite link), Green the easy computer."""
    created = create(client, seats=["human", "open", "ai:easy"], **fields)
    sid, host = created["session"], created["token"]
    joined = client.post(f"/api/games/{sid}/join", json={"seat": 1})
    assert joined.status_code == 200, joined.json()
    guest: str = joined.json()["token"]
    return sid, host, guest


def play_to_the_end(client: TestClient, sid: str, tokens: dict[int, str]) -> View:
    view = view_of(client, sid)
    while view["status"] == "playing":
        view = post_move(client, sid, tokens[view["to_move"]],
                         {"cell": list(legal(view)[0])}).json()
    return view


def test_one_players_assist_is_theirs_alone(client: TestClient, store: Store) -> None:
    """Help is off while both people are in the game; the host, left alone with the
    computers a while, turns the assist on: it is theirs (a spectator sees none of it), it
    goes quiet when the guest comes back, and only the host's result counts as helped."""
    sid, host, guest = guest_and_host(client)
    assert client.post(f"/api/games/{sid}/assist", json={"on": True},
                       headers=auth(guest)).status_code == 409
    assert client.post(f"/api/games/{sid}/leave", headers=auth(guest)).status_code == 200
    switched = client.post(f"/api/games/{sid}/assist", json={"on": True}, headers=auth(host))
    assert switched.status_code == 200, switched.json()
    hosts = view_of(client, sid, host)
    assert (hosts["assist"], hosts["assisted"]) == (True, True)
    assert 'class="gain"' in hosts["html"]
    assert 'class="gain"' not in view_of(client, sid)["html"]  # not a spectator's
    back = client.post(f"/api/games/{sid}/join", json={"seat": 1}, headers=auth(guest))
    assert back.status_code == 200, back.json()
    guests, hosts = view_of(client, sid, guest), view_of(client, sid, host)
    assert (hosts["assist"], hosts["assisted"]) == (False, True)  # quiet, the help used kept
    assert (guests["assist"], guests["assisted"]) == (False, False)
    assert 'class="gain"' not in hosts["html"] + guests["html"]
    end = play_to_the_end(client, sid, {0: host, 1: guest})
    results = {r.seat: r.assisted for r in store.results("tribolo") if r.sid == sid}
    assert results == {0: True, 1: False}
    assert end["status"] != "playing"
    row = store.session_row(sid)
    assert row is not None and (row.assisted_seats, row.assist_seats) == ({0}, {0})


def test_one_players_hint_is_theirs_alone(client: TestClient) -> None:
    """Refused while both people are in the game; once the guest has left, the host's
    hint marks the host's game alone as helped."""
    sid, host, guest = guest_and_host(client, id=BLUE_FIRST)
    assert view_of(client, sid, host)["to_move"] == 0
    assert client.post(f"/api/games/{sid}/hint", headers=auth(host)).status_code == 409
    assert client.post(f"/api/games/{sid}/leave", headers=auth(guest)).status_code == 200
    reply = client.post(f"/api/games/{sid}/hint", headers=auth(host))
    assert reply.status_code == 200, reply.json()
    assert view_of(client, sid, host)["assisted"] is True
    assert view_of(client, sid, guest)["assisted"] is False


def test_take_back_is_off_once_the_game_is_over(client: TestClient) -> None:
    sid, host, guest = guest_and_host(client)
    end = play_to_the_end(client, sid, {0: host, 1: guest})
    assert end["status"] != "playing"
    for token in (host, guest):
        assert view_of(client, sid, token)["can_undo"] is False
    refused = client.post(f"/api/games/{sid}/undo", headers=auth(host))
    assert "The game is over" in error_of(refused, 409)


# -- the move list --------------------------------------------------------------------------
def test_the_move_list_names_every_move_its_player_and_what_it_turned(
    client: TestClient,
) -> None:
    created = create(client, seats=["human", "ai:easy", "ai:easy"])
    sid, token = created["session"], created["token"]
    view = view_of(client, sid, token)
    rng = random.Random(5)
    for _ in range(4):
        if view["status"] != "playing":
            break
        view = post_move(client, sid, token, {"cell": list(rng.choice(legal(view)))}).json()
    notes = view["move_list"]
    assert [note["ply"] for note in notes] == list(range(1, view["moves"] + 1))
    for note in notes:
        before = client.get(f"/api/games/{sid}/positions/{note['ply'] - 1}",
                            headers=auth(token)).json()
        after = client.get(f"/api/games/{sid}/positions/{note['ply']}",
                           headers=auth(token)).json()
        rows_before, rows_after = before["text"].split("\n"), after["text"].split("\n")
        mark = "BRG"[note["seat"]]
        grown = sum(row.count(mark) for row in rows_after[:HEIGHT]) - sum(
            row.count(mark) for row in rows_before[:HEIGHT])
        where, turned = note["text"].split(", turned ")
        x, y = "abcdefghijklmnop".index(where[0]), int(where[1:]) - 1
        assert rows_before[y][x] == "." and rows_after[y][x] == mark
        assert grown == int(turned) + 1
        assert before["text"].endswith(f"to move: {NAMES[note['seat']]}")
    assert {note["seat"] for note in notes} == {0, 1, 2}
    last = client.get(f"/api/games/{sid}/positions/{view['moves']}", headers=auth(token)).json()
    assert last["text"] == view["text"]
    assert "data-move=" not in last["html"]  # nothing on a past board can be played
    beyond = client.get(f"/api/games/{sid}/positions/{view['moves'] + 1}", headers=auth(token))
    assert "There is no move" in error_of(beyond, 404)


def test_the_move_list_follows_an_undo(client: TestClient) -> None:
    created = create(client, seats=["human", "ai:easy", "ai:easy"])
    sid, token = created["session"], created["token"]
    view = view_of(client, sid, token)
    first = view["move_list"]
    view = post_move(client, sid, token, {"cell": list(legal(view)[0])}).json()
    assert view["move_list"][: len(first)] == first and len(view["move_list"]) == view["moves"]
    undone = client.post(f"/api/games/{sid}/undo", headers=auth(token)).json()
    assert undone["move_list"] == first
    view = post_move(client, sid, token, {"cell": list(legal(undone)[-1])}).json()
    assert len(view["move_list"]) == view["moves"]
    assert view["move_list"][len(first)]["text"] != "" and view["move_list"][: len(first)] == first


def test_a_hint_is_a_legal_cell_of_the_player_to_move(client: TestClient) -> None:
    sid, token, view = three_on_one_screen(client)
    reply = client.post(f"/api/games/{sid}/hint", headers=auth(token))
    assert reply.status_code == 200, reply.json()
    x, y = reply.json()["move"]["cell"]
    assert (x, y) in set(legal(view))
    assert reply.json()["view"]["assisted"] is True
    # it names the cell as the board's letters and numbers do, and what it turns
    board = board_from_rows(view["text"].split("\n")[:11])
    turned = captures(board, view["to_move"], cell_at(x, y)).bit_count()
    assert reply.json()["note"] == (f"play {'abcdefghijklmnop'[x]}{y + 1}, turning {turned} "
                                    f"cell{'s' * (turned != 1)} (the strong computer's move)")
