"""The Resume list (POST /api/sessions/mine) and taking a game off it (POST
/api/games/{sid}/forget): a browser sees only the unfinished games it holds a seat in,
each with its board's summary, and only a player of a game can take it off their list."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.store import forgotten_set
from parlour.store.seat_tokens import token_digest
from parlour.store.sqlite import SqliteStore as Store
from parlour.store.sqlite.schema import BASELINE_SCHEMA, MIGRATIONS, SCHEMA_VERSION, _run_script
from tests.support.stores import on_both_stores, run_sql


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def started(client: TestClient, game: str = "tictactoe", **fields: Any) -> tuple[str, str]:
    """A game with one move made (a game without moves is not worth resuming)."""
    created = client.post("/api/games", json={"game": game, **fields})
    assert created.status_code == 201, created.text
    sid, token = created.json()["session"], created.json()["token"]
    return sid, token


def play_ttt(client: TestClient, sid: str, token: str, cell: list[int]) -> None:
    reply = client.post(f"/api/games/{sid}/moves", json={"move": {"cell": cell}},
                        headers=auth(token))
    assert reply.status_code == 200, reply.text


def mine(client: TestClient, tokens: list[str], limit: int = 5) -> dict[str, Any]:
    reply = client.post("/api/sessions/mine", json={"tokens": tokens, "limit": limit})
    assert reply.status_code == 200, reply.text
    listed: dict[str, Any] = reply.json()
    return listed


def sessions(listed: dict[str, Any]) -> list[str]:
    return [game["session"] for game in listed["games"]]


def forget(client: TestClient, sid: str, token: str | None, forgotten: bool = True) -> Any:
    return client.post(f"/api/games/{sid}/forget", json={"forget": forgotten},
                       headers=auth(token))


def error_of(reply: Any, status: int) -> str:
    assert reply.status_code == status, (reply.status_code, reply.text)
    assert set(reply.json()) == {"error"}
    message: str = reply.json()["error"]
    assert message
    return message


@on_both_stores
def test_only_games_the_tokens_hold_a_seat_in_are_listed(client: TestClient) -> None:
    my_sid, my_token = started(client, seats=["human", "ai:random"])
    play_ttt(client, my_sid, my_token, [1, 1])
    their_sid, their_token = started(client, seats=["human", "ai:random"])
    play_ttt(client, their_sid, their_token, [0, 0])

    listed = mine(client, [my_token])
    assert sessions(listed) == [my_sid] and listed["total"] == 1
    # the older list, GET /api/sessions, names only the games of the token it is sent
    assert [s["session"] for s in client.get("/api/sessions", headers=auth(my_token)).json()
            ] == [my_sid]
    assert sessions(mine(client, [])) == []
    assert sessions(mine(client, ["not-a-token"])) == []


def test_an_entry_says_which_board_and_who_plays_but_not_the_deal(client: TestClient) -> None:
    sid, token = started(client, "minesweeper", params={"rows": 16, "cols": 30, "mines": 99})
    reply = client.post(f"/api/games/{sid}/moves", json={"move": {"open": [3, 3]}},
                        headers=auth(token))
    assert reply.status_code == 200, reply.text
    game_id = reply.json()["id"]
    ttt, ttt_token = started(client, seats=["human", "ai:perfect"])
    play_ttt(client, ttt, ttt_token, [1, 1])

    listed = mine(client, [token, ttt_token])
    by_sid = {entry["session"]: entry for entry in listed["games"]}
    sweeper = by_sid[sid]
    assert sweeper["title"] == "Minesweeper"
    assert "16×30" in sweeper["summary"] and sweeper["players"] == ""
    assert sweeper["moves"] == 1 and sweeper["seats"] == [0]
    assert by_sid[ttt]["summary"] == ""  # nothing to tell apart: Tic-Tac-Toe has no options
    assert by_sid[ttt]["players"] == "vs computer (perfect)"
    assert game_id.partition("#")[2] not in str(listed)  # the seed stays with the owner


@on_both_stores
def test_an_entry_counts_the_moves_as_its_game_does(client: TestClient) -> None:
    """The sliding puzzle counts tiles moved: one click that slides two tiles is two."""
    sid, token = started(client, "sliding",
                         params={"rows": 3, "cols": 3, "tiles": "4,1,3,7,2,6,0,5,8"})
    reply = client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}},
                        headers=auth(token))
    assert reply.status_code == 200, reply.text
    assert reply.json()["moves"] == 2
    (entry,) = mine(client, [token])["games"]
    assert entry["moves"] == 2


@on_both_stores
def test_the_list_is_most_recent_first_and_limited(client: TestClient, store: Store) -> None:
    games = [started(client, seats=["human", "ai:random"]) for _ in range(7)]
    for sid, token in games:
        play_ttt(client, sid, token, [1, 1])
    for order, (sid, _) in enumerate(games):  # one second apart, the last played last
        run_sql(store, "UPDATE sessions SET updated=? WHERE sid=?", 1000.0 + order, sid)
    tokens = [token for _, token in games]
    newest_first = [sid for sid, _ in reversed(games)]

    five = mine(client, tokens)
    assert sessions(five) == newest_first[:5] and five["total"] == 7
    assert sessions(mine(client, tokens, limit=100)) == newest_first
    assert sessions(mine(client, tokens + tokens[:2], limit=100)) == newest_first  # once each


def test_finished_and_left_games_are_not_listed(client: TestClient) -> None:
    over, over_token = started(client, seats=["human", "human"])
    for cell in ([0, 0], [0, 1], [1, 0], [1, 1], [2, 0]):  # Cross wins
        play_ttt(client, over, over_token, cell)
    shared, host = started(client, seats=["human", "open"])
    play_ttt(client, shared, host, [1, 1])
    joined = client.post(f"/api/games/{shared}/join", json={"seat": 1})
    guest = joined.json()["token"]
    assert sessions(mine(client, [over_token, host, guest], limit=100)) == [shared]
    left = client.post(f"/api/games/{shared}/leave", headers=auth(guest))
    assert left.status_code == 200, left.text
    assert sessions(mine(client, [guest])) == []  # the guest's seat is open again
    assert sessions(mine(client, [host])) == [shared]


@on_both_stores
def test_forget_takes_a_game_off_its_players_list_alone_and_can_be_undone(
    client: TestClient,
) -> None:
    shared, host = started(client, seats=["human", "open"])
    play_ttt(client, shared, host, [1, 1])
    guest = client.post(f"/api/games/{shared}/join", json={"seat": 1}).json()["token"]

    reply = forget(client, shared, host)
    assert reply.status_code == 200 and reply.json() == {"session": shared, "forgotten": True}
    assert sessions(mine(client, [host])) == []
    assert sessions(mine(client, [guest])) == [shared]  # the other player's list keeps it
    assert client.get(f"/api/games/{shared}", headers=auth(host)).status_code == 200
    play_ttt(client, shared, guest, [0, 0])  # the game itself goes on

    assert forget(client, shared, host, forgotten=False).json()["forgotten"] is False
    assert sessions(mine(client, [host])) == [shared]


@on_both_stores
def test_only_a_player_of_the_game_may_forget_it(client: TestClient, store: Store) -> None:
    sid, token = started(client, seats=["human", "ai:random"])
    play_ttt(client, sid, token, [1, 1])
    other_sid, other_token = started(client, seats=["human", "ai:random"])
    before = store.tokens(sid)

    assert "token" in error_of(forget(client, sid, None), 401)
    error_of(client.post(f"/api/games/{sid}/forget", json={"forget": True},
                         headers={"Authorization": "Basic abc"}), 401)
    assert "player" in error_of(forget(client, sid, other_token), 403)
    error_of(forget(client, sid, "made-up-token"), 403)
    assert "No game session" in error_of(forget(client, "nosuchgame", token), 404)
    assert store.tokens(sid) == before
    assert sessions(mine(client, [token])) == [sid]
    del other_sid


@pytest.mark.parametrize("body", [
    {},
    {"tokens": "abc"},
    {"tokens": [1, 2]},
    {"tokens": [""]},
    {"tokens": ["x" * 65]},
    {"tokens": ["t"] * 301},
    {"tokens": [], "limit": 0},
    {"tokens": [], "limit": 101},
    {"tokens": [], "limit": "five"},
    {"tokens": [], "extra": 1},
])
def test_a_bad_resume_request_is_refused_with_a_reason(
    client: TestClient, body: dict[str, Any]
) -> None:
    error_of(client.post("/api/sessions/mine", json=body), 422)


@pytest.mark.parametrize("body", [{"forget": "yes"}, {"forget": True, "also": 1}, []])
def test_a_bad_forget_request_is_refused_and_changes_nothing(
    client: TestClient, body: Any
) -> None:
    sid, token = started(client, seats=["human", "ai:random"])
    play_ttt(client, sid, token, [1, 1])
    error_of(client.post(f"/api/games/{sid}/forget", json=body, headers=auth(token)), 422)
    assert sessions(mine(client, [token])) == [sid]


def test_the_resume_list_takes_no_get(client: TestClient) -> None:
    error_of(client.get("/api/sessions/mine"), 405)


def test_a_database_from_before_forgetting_lists_its_games(tmp_path: Path) -> None:
    """Schema 3 had no `forgotten`: its games come on the Resume list, and can leave it."""
    path = tmp_path / "parlour.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    _run_script(db, BASELINE_SCHEMA)
    for migration in MIGRATIONS[:3]:
        migration(db)
    db.execute("PRAGMA user_version = 3")
    db.execute(
        "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, created,"
        " updated) VALUES ('old', 'tictactoe', 'tictactoe:standard#abc', '[\"human\"]',"
        " 'solo', 'standard', 2, 1.0, 1.0)")
    db.execute("INSERT INTO tokens (token, sid, seats) VALUES ('tok', 'old', '[0, 1]')")
    db.execute("COMMIT")
    db.close()

    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    kept_as = token_digest("tok")  # the migration to schema 9 hashed it
    assert store.held_unfinished([kept_as]) == [("old", [0, 1])]
    row = store.session_row("old")  # kept before its moves were: its cursor stands in
    assert row is not None and (row.cursor, row.moves_made) == (2, None)
    store.write(forgotten_set("old", kept_as, True))
    assert store.held_unfinished([kept_as]) == []
    store.close()
