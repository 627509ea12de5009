"""Help is each player's own (their assist, their hints, their "assisted"), kept per seat
across a restart and from a database saved before; and the move list of a game of
several players, sent over the WebSocket as only the moves a browser has not had."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, cast

from fastapi.testclient import TestClient

from parlour.core.game import SPEED_FACTORS
from parlour.core.gameid import parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.compute import Compute
from parlour.server.hub.editions import notes_tail
from parlour.server.hub.live import Live
from parlour.server.hub.turns import ComputerTurns
from parlour.server.hub.turns import PlayMove as PlayComputerMove
from parlour.server.hub.viewers import Viewer
from parlour.store.sqlite import SqliteStore as Store
from parlour.store.sqlite.schema import BASELINE_SCHEMA, MIGRATIONS, _run_script
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS
from tests.test_api import auth, get_view, move, new_game, open_socket
from tests.test_seats import join, next_view

TRIBOLO = GAMES["tribolo"]


def tribolo_session(seats: tuple[str, ...] = ("human", "human", "human")) -> Session:
    return Session(TRIBOLO, parse_game_id(TRIBOLO.game, "tribolo:standard#t1"), seats)


# -- help, per seat ---------------------------------------------------------------------------
def test_a_players_assist_helps_only_their_seats() -> None:
    session = tribolo_session()
    session.set_assist(True, {1})
    assert session.assist_for({1}) and not session.assist_for({0, 2})
    assert session.assisted_for({1}) and not session.assisted_for({0}) and session.assisted
    session.set_assist(False, {1})
    assert not session.assist and session.assisted_for({1})  # help used stays used


def test_a_restart_keeps_as_helped_only_those_whose_switch_is_on() -> None:
    session = tribolo_session()
    session.set_assist(True, {2})
    session.mark_assisted({0})  # e.g. a hint
    session.play(TRIBOLO.game.move_to_json(TRIBOLO.game.legal_moves(session.state)[0]),
                 session.to_move or 0)
    session.restart()
    assert session.assisted_seats == {2} and session.assist_seats == {2}


def test_the_assist_turned_on_after_the_end_changes_no_result(
    client: TestClient, store: Store
) -> None:
    created = client.post("/api/games", json={"game": "tribolo", "seats": ["human"] * 3}).json()
    sid, token = created["session"], created["token"]
    view = created["view"]
    while view["status"] == "playing":  # the first cell marked playable, each turn
        cell = view["html"].split(' legal"')[0].rsplit('id="tb-', 1)[1].split('"')[0]
        x, y = (int(n) for n in cell.split("-"))
        view = move(client, sid, token, (x, y))
    client.post(f"/api/games/{sid}/assist", json={"on": True}, headers=auth(token))
    assert get_view(client, sid, token)["assisted"] is False
    assert [r.assisted for r in store.results("tribolo") if r.sid == sid] == [False]


def test_hot_seat_shares_one_assist(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tribolo", "seats": ["human"] * 3}).json()
    sid, token = created["session"], created["token"]
    client.post(f"/api/games/{sid}/assist", json={"on": True}, headers=auth(token))
    view = get_view(client, sid, token)
    assert view["assist"] is True and view["assisted"] is True and 'class="gain"' in view["html"]


def test_help_per_seat_survives_the_server_restarting(tmp_path: Path) -> None:
    """The host turned the assist on while alone; a friend joined (the assist is then off:
    no help in a game against another person) and the server restarted: the host's game is
    still helped and the friend's not; once the friend leaves, the host's switch is on
    again, as they left it."""
    path = tmp_path / "parlour.sqlite3"
    store = Store(path)
    with TestClient(create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS)) as c:
        created = c.post("/api/games", json={"game": "tribolo",
                                             "seats": ["human", "open", "ai:easy"]}).json()
        sid, host = created["session"], created["token"]
        c.post(f"/api/games/{sid}/assist", json={"on": True}, headers=auth(host))
        guest = join(c, sid, seat=1)["token"]
        assert isinstance(guest, str)
    store.close()
    store = Store(path)
    with TestClient(create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS)) as c:
        assert (get_view(c, sid, host)["assist"], get_view(c, sid, host)["assisted"]) == (
            False, True)
        assert (get_view(c, sid, guest)["assist"], get_view(c, sid, guest)["assisted"]) == (
            False, False)
        assert c.post(f"/api/games/{sid}/leave", headers=auth(guest)).status_code == 200
        assert get_view(c, sid, host)["assist"] is True
    store.close()


def test_help_saved_before_it_was_per_seat_is_every_seats(tmp_path: Path) -> None:
    """Schema 4 kept one flag for the game: a game helped then stays helped for all."""
    path = tmp_path / "parlour.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    _run_script(db, BASELINE_SCHEMA)
    for migration in MIGRATIONS[:4]:
        migration(db)
    db.execute("PRAGMA user_version = 4")
    for sid, assisted, assist in (("helped", 1, 1), ("alone", 0, 0)):
        db.execute(
            "INSERT INTO sessions (sid, game, game_id, seats, mode, preset, cursor, assisted,"
            " assist, created, updated) VALUES (?, 'tribolo', 'tribolo:standard#t1',"
            " '[\"human\", \"human\", \"ai:easy\"]', 'two players', 'standard', 0, ?, ?, 1, 1)",
            (sid, assisted, assist))
    db.execute("COMMIT")
    db.close()
    store = Store(path)
    helped, alone = store.session_row("helped"), store.session_row("alone")
    assert helped is not None and alone is not None
    assert (helped.assisted_seats, helped.assist_seats) == ({0, 1, 2}, {0, 1, 2})
    assert (alone.assisted_seats, alone.assist_seats) == (frozenset(), frozenset())
    store.close()


# -- the move list over the WebSocket ---------------------------------------------------------
def test_a_browser_is_sent_only_the_moves_it_has_not_had(client: TestClient) -> None:
    created = new_game(client, seats=["human", "human"])
    sid, token = created["session"], created["token"]
    with open_socket(client, sid, token) as socket:
        first = next_view(socket)
        assert (first["move_list"], first["move_list_from"]) == ([], 0)
        socket.send_json({"type": "move", "move": {"cell": [1, 1]}})
        one = next_view(socket)
        assert one["move_list_from"] == 0 and one["move_list"] == [
            {"ply": 1, "seat": 0, "text": "centre", "passed": []}]
        socket.send_json({"type": "move", "move": {"cell": [0, 0]}})
        two = next_view(socket)
        assert two["move_list_from"] == 1 and two["move_list"] == [
            {"ply": 2, "seat": 1, "text": "top left", "passed": []}]
        socket.send_json({"type": "undo"})
        undone = next_view(socket)
        assert (undone["move_list_from"], undone["move_list"]) == (0, one["move_list"])
    whole = move(client, sid, token, (2, 2))  # REST: the whole list
    assert [note["text"] for note in whole["move_list"]] == ["centre", "bottom right"]


def test_a_changed_line_is_sent_whole() -> None:
    a, b, c = ({"ply": n} for n in (1, 2, 3))
    assert notes_tail(None, [a, b]) == (0, [a, b])
    assert notes_tail([a], [a, b, c]) == (1, [b, c])
    assert notes_tail([a, b], [a, b]) == (2, [])
    assert notes_tail([a, b, c], [a, b]) == (0, [a, b])  # an undo
    assert notes_tail([{"ply": 9}], [a, b]) == (0, [a, b])  # another line


def test_games_of_one_player_have_no_move_list(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "minesweeper"}).json()
    view: dict[str, Any] = created["view"]
    assert view["move_list"] is None


# -- the computers' speed ---------------------------------------------------------------------
def test_the_slowest_players_speed_paces_the_computers() -> None:
    async def pauses() -> list[float]:
        live = Live("sid", tribolo_session(("human", "ai:easy", "ai:easy")), "vs AI", "standard",
                    1, {"host": frozenset({0})})
        turns = ComputerTurns(cast(Compute, None), cast(PlayComputerMove, None))

        async def send(message: Any) -> None:
            return None

        found = [turns.pause(live)]  # nobody watching: no pause
        live.viewers.add(Viewer(frozenset(), send, None, speed=SPEED_FACTORS["slow"]))
        found.append(turns.pause(live))  # a spectator alone: theirs
        live.viewers.add(Viewer(frozenset({0}), send, "host", speed=SPEED_FACTORS["fast"]))
        found.append(turns.pause(live))  # a player watching: the player's, not the spectator's
        for viewer in live.viewers:
            viewer.close()
        return found

    nobody, spectator, player = run_async(pauses())
    assert (nobody, spectator, player) == (0.0, 0.6 * 2.5, 0.6 * 0.4)
