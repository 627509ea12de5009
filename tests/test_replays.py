"""Replays over the REST API: the board after any number of moves, open to anyone once
the game is over and only to its players before (hidden information never shows early),
what a replay page needs in one call, the list of past games, and a property: for every
game, a replay's positions are those a fresh replay of its id and moves gives.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.core.game import RenderContext
from parlour.core.gameid import parse_game_id
from parlour.core.session import Session
from parlour.games import GAMES
from parlour.games.minesweeper.logic import Minefield, Minesweeper
from parlour.server.hub.replays import past_board

MINESWEEPER = Minesweeper()
SMALL_BOARD = {"rows": 6, "cols": 6, "mines": 8, "first_click": "safe"}
QUICK_PARAMS: dict[str, dict[str, Any]] = {"minesweeper": {"rows": 5, "cols": 5, "mines": 3,
                                                           "first_click": "safe"}}
PLAYABLE = re.compile(
    r'\s(data-move|data-alt-move|data-drag|data-drop|data-command|data-preset|tabindex)="[^"]*"')
LIVE_BUTTON = re.compile(r"<button(?![^>]*\sdisabled)[^>]*>")
TITLED_BUTTON = re.compile(r'<button[^>]*\stitle="')


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def create(client: TestClient, game: str, **fields: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": game, **fields})
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def post_move(client: TestClient, created: dict[str, Any], move: Any) -> dict[str, Any]:
    reply = client.post(f"/api/games/{created['session']}/moves", json={"move": move},
                        headers=auth(created["token"]))
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def position(client: TestClient, sid: str, ply: int | str, token: str | None = None) -> Any:
    return client.get(f"/api/games/{sid}/positions/{ply}", headers=auth(token))


def error_of(reply: Any, status: int) -> str:
    assert reply.status_code == status, (reply.status_code, reply.text)
    message: str = reply.json()["error"]
    assert message[:1].isupper(), message  # sentence case
    return message


def first_click_layout(game_id: str, row: int, col: int) -> Minefield:
    parsed = parse_game_id(MINESWEEPER, game_id)
    return MINESWEEPER.apply(MINESWEEPER.deal(parsed.params, parsed.rng(MINESWEEPER)),
                             ("open", row, col))


def shows_mines(shown: dict[str, Any]) -> bool:
    return "*" in shown["text"] or "💣" in shown["html"]


def lost_minesweeper(client: TestClient) -> tuple[dict[str, Any], int]:
    """A 6×6 game lost at its second click, and the number of moves it took."""
    created = create(client, "minesweeper", params=SMALL_BOARD)
    post_move(client, created, {"open": [0, 0]})
    row, col = divmod(min(first_click_layout(created["id"], 0, 0).mined), 6)
    lost = post_move(client, created, {"open": [row, col]})
    assert lost["status"] == "lost"
    return created, 2


# -- who may look ---------------------------------------------------------------------------
def test_a_game_being_played_shows_its_positions_to_its_players_only(
    client: TestClient,
) -> None:
    created = create(client, "minesweeper", params=SMALL_BOARD)
    post_move(client, created, {"open": [0, 0]})
    sid = created["session"]
    watcher = client.post(f"/api/games/{sid}/join").json()["token"]  # no seat left: watches
    for token in (None, watcher):
        for ply in (0, 1):
            assert "once it is over" in error_of(position(client, sid, ply, token), 403)
        assert "once it is over" in error_of(
            client.get(f"/api/games/{sid}/replay", headers=auth(token)), 403)
    mine = position(client, sid, 1, created["token"]).json()
    assert mine["ply"] == 1 and mine["plies"] == 1 and mine["status"] == "playing"
    assert not shows_mines(mine)  # the player's own view: the mines stay hidden


def test_mines_never_show_before_the_end_and_anyone_may_watch_after(
    client: TestClient,
) -> None:
    created, plies = lost_minesweeper(client)
    sid = created["session"]
    for ply in range(plies + 1):
        shown = position(client, sid, ply).json()  # no token: anyone, now it is over
        assert shown["ply"] == ply and shown["plies"] == plies
        assert shown["id"] == created["id"]  # the id is no secret at the end
        assert not PLAYABLE.search(shown["html"])
        # its bar's buttons (the face: a new game of this size) do nothing, and say nothing
        assert "ms-face" in shown["html"]
        assert not LIVE_BUTTON.search(shown["html"]) and not TITLED_BUTTON.search(shown["html"])
    assert not shows_mines(position(client, sid, 1).json())  # as its player saw it then
    final = position(client, sid, plies).json()
    assert final["status"] == "lost" and shows_mines(final)
    view = client.get(f"/api/games/{sid}", headers=auth(created["token"])).json()
    mine = position(client, sid, plies, created["token"]).json()
    for field in ("text", "status", "headline", "scores", "winners", "to_move", "moves", "id"):
        assert mine[field] == view[field], field


def test_a_past_board_keeps_a_look_live_and_nothing_else() -> None:
    """The sliding puzzle's finished picture (data-peek) changes no game: on a replay it
    is still held to see the picture; every other button of a past board is inert."""
    markup = ('<button type="button" class="sl-target" id="sl-target" data-peek>x</button>'
              '<button type="button" id="ms-face" title="New game" data-command="new">:)</button>')
    past = past_board(markup)
    assert '<button type="button" class="sl-target" id="sl-target" data-peek>' in past
    assert '<button type="button" id="ms-face" disabled>' in past
    assert len(LIVE_BUTTON.findall(past)) == 1


@pytest.mark.parametrize(
    ("ply", "status", "words"),
    [
        (3, 404, "There is no move 3: this game has 2 moves"),
        (-1, 422, "greater than or equal to 0"),
        ("two", 422, "valid integer"),
        (10**30, 422, "less than or equal to"),
        ("1.5", 422, "valid integer"),
    ],
)
def test_a_move_that_is_not_there_is_refused_with_a_reason(
    client: TestClient, ply: int | str, status: int, words: str,
) -> None:
    created, _ = lost_minesweeper(client)
    assert words in error_of(position(client, created["session"], ply), status)


@pytest.mark.parametrize("sid", ["nope", "x" * 500, "%00", "..%2F..%2Fetc", "ü" * 70])
def test_a_game_that_is_not_there_has_no_replay(client: TestClient, sid: str) -> None:
    for path in (f"/api/games/{sid}/replay", f"/api/games/{sid}/positions/0"):
        reply = client.get(path)
        assert reply.status_code == 404, (path, reply.text)


def test_a_bad_authorization_header_is_refused(client: TestClient) -> None:
    created, _ = lost_minesweeper(client)
    reply = client.get(f"/api/games/{created['session']}/positions/0",
                       headers={"Authorization": "Basic abc"})
    assert reply.status_code == 401


# -- the replay page's one call ----------------------------------------------------------------
def test_the_replay_says_the_result_the_id_and_every_move(client: TestClient) -> None:
    created = create(client, "tictactoe", seats=["human", "human"])
    for cell in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:
        post_move(client, created, {"cell": list(cell)})
    replay = client.get(f"/api/games/{created['session']}/replay").json()
    assert replay["id"] == created["id"] and replay["status"] == "won"
    assert replay["plies"] == 5 and replay["seats"] == ["Cross", "Circle"]
    assert "Cross" in replay["headline"]
    assert replay["time_shown"] == "0:00"  # (no page was open: the clock never ran)
    assert [note["ply"] for note in replay["move_list"]] == [1, 2, 3, 4, 5]
    assert [note["seat"] for note in replay["move_list"]] == [0, 1, 0, 1, 0]


def test_the_replay_colours_its_end_as_the_viewer_s_result(client: TestClient) -> None:
    """Cross won: to a watcher of two players that is no one's result to colour; to the
    players it is theirs (as the game's page says it); a solitaire's result is anyone's."""
    created = create(client, "tictactoe", seats=["human", "human"])
    for cell in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:
        post_move(client, created, {"cell": list(cell)})
    path = f"/api/games/{created['session']}/replay"
    assert client.get(path).json()["outcome"] is None
    assert client.get(path, headers=auth(created["token"])).json()["outcome"] == "won"
    lost, _ = lost_minesweeper(client)
    assert client.get(f"/api/games/{lost['session']}/replay").json()["outcome"] == "lost"


def test_a_solitaire_has_no_move_list_but_every_position(client: TestClient) -> None:
    created, plies = lost_minesweeper(client)
    replay = client.get(f"/api/games/{created['session']}/replay").json()
    assert replay["move_list"] is None and replay["plies"] == plies
    assert replay["end_figures"]
    assert replay["time_shown"] == "0.00"  # Minesweeper's times to the hundredth


# -- the list of past games --------------------------------------------------------------------
def test_past_games_list_finished_games_most_recent_first(client: TestClient) -> None:
    lost, _ = lost_minesweeper(client)
    playing = create(client, "minesweeper", params=SMALL_BOARD)
    post_move(client, playing, {"open": [0, 0]})
    won = create(client, "tictactoe", seats=["human", "human"])
    for cell in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:
        post_move(client, won, {"cell": list(cell)})
    listed = client.get("/api/replays").json()
    assert [past["session"] for past in listed] == [won["session"], lost["session"]]
    assert listed[1]["title"] == "Minesweeper" and listed[1]["outcome"] == "Lost"
    assert listed[1]["moves"] == 2
    # who played, in the statistics' words (not the stored "two players", "vs AI (...)")
    assert [past["players"] for past in listed] == ["Two players here", ""]
    # each time as its game writes it: Minesweeper's to the hundredth, as players compare them
    assert [past["time_shown"] for past in listed] == ["0:00", "0.00"]
    only = client.get("/api/replays", params={"game": "minesweeper"}).json()
    assert [past["session"] for past in only] == [lost["session"]]
    assert [past["assisted"] for past in listed] == [False, False]


def test_past_games_say_which_were_played_with_help(client: TestClient) -> None:
    """(the list marks them "With help": such a game set no record)"""
    helped = create(client, "tictactoe", seats=["human", "human"])
    hinted = client.post(f"/api/games/{helped['session']}/hint",
                         headers=auth(helped["token"]), json={})
    assert hinted.status_code == 200, hinted.text
    for cell in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:
        post_move(client, helped, {"cell": list(cell)})
    (past,) = client.get("/api/replays").json()
    assert past["assisted"] is True


def test_a_game_restarted_since_lists_no_replay_of_its_old_result(client: TestClient) -> None:
    created, _ = lost_minesweeper(client)
    sid, held = created["session"], auth(created["token"])
    # a finished game is kept as played (its deal is played again as a new game)
    assert client.post(f"/api/games/{sid}/restart", headers=held).status_code == 409
    assert [past["session"] for past in client.get("/api/replays").json()] == [sid]
    # taken back after its end, then restarted: its old result has no replay left
    assert client.post(f"/api/games/{sid}/undo", headers=held).status_code == 200
    restarted = client.post(f"/api/games/{sid}/restart", headers=held)
    assert restarted.status_code == 200, restarted.text
    assert client.get("/api/replays").json() == []


@pytest.mark.parametrize(("query", "status"), [
    ({"limit": 0}, 422), ({"limit": 101}, 422), ({"limit": "many"}, 422),
    ({"game": "chess"}, 404),
])
def test_the_past_games_list_takes_bounded_input(
    client: TestClient, query: dict[str, Any], status: int,
) -> None:
    error_of(client.get("/api/replays", params=query), status)


def test_the_replay_page_is_served_for_any_session(client: TestClient) -> None:
    reply = client.get("/replay/anything")
    assert reply.status_code == 200 and "replay.js" in reply.text


# -- the property: a replay's positions are a fresh replay's --------------------------------------
MAX_MOVES = 24


def play_randomly(client: TestClient, game: str, rng: random.Random
                  ) -> tuple[dict[str, Any], list[Any]]:
    """A game of `game` with every seat held by one token, played at random for up to
    MAX_MOVES moves or to its end; its moves, as JSON."""
    spec = GAMES[game]
    seats = ["human"] * len(spec.default_seats)
    created = create(client, game, seats=seats, params=QUICK_PARAMS.get(game, {}))
    rules = spec.game
    state = parse_game_id(rules, created["id"]).deal(rules)
    moves: list[Any] = []
    while len(moves) < MAX_MOVES and rules.to_move(state) is not None:
        move = rng.choice(list(rules.legal_moves(state)))
        post_move(client, created, rules.move_to_json(move))
        moves.append(rules.move_to_json(move))
        state = rules.apply(state, move)
    return created, moves


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_a_replays_positions_are_a_fresh_replay_of_its_id_and_moves(
    client: TestClient, game: str, seed: int,
) -> None:
    created, moves = play_randomly(client, game, random.Random(seed))
    spec, sid = GAMES[game], created["session"]
    game_id = parse_game_id(spec.game, created["id"])
    seats = ["human"] * len(spec.default_seats)
    ended = spec.game.to_move(Session(spec, game_id, seats, moves).state) is None
    for ply in sorted({0, len(moves), *random.Random(seed).sample(range(len(moves) + 1),
                                                                  min(6, len(moves) + 1))}):
        fresh = Session(spec, game_id, seats, moves[:ply]).state
        to_move = spec.game.to_move(fresh)
        seat = to_move if to_move is not None else 0
        observed = spec.game.observe(fresh, seat)
        shown = position(client, sid, ply, created["token"]).json()
        assert shown["text"] == spec.game.text(observed)
        assert shown["status"] == spec.game.status(fresh).value
        assert shown["moves"] == spec.game.moves_made(fresh, ply)
        assert shown["html"] == past_board(spec.render(observed, RenderContext(seat, False)))
        if ended:  # anyone may watch: as the players' first seat saw it
            public = position(client, sid, ply).json()
            assert public["text"] == spec.game.text(spec.game.observe(fresh, 0))



def test_a_position_is_drawn_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A big board's drawing is the slow part (`bench.replay_positions`): never on the loop."""
    from parlour.server.hub import replays

    drawn_on_a_loop: list[bool] = []
    seen = replays._seen

    def watched(*args: Any) -> Any:
        try:
            asyncio.get_running_loop()
            drawn_on_a_loop.append(True)
        except RuntimeError:  # no loop runs in this thread
            drawn_on_a_loop.append(False)
        return seen(*args)

    monkeypatch.setattr(replays, "_seen", watched)
    created, plies = lost_minesweeper(client)
    for ply in range(plies + 1):
        assert position(client, created["session"], ply).status_code == 200
    assert drawn_on_a_loop == [False] * (plies + 1)
