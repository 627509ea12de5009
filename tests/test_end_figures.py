"""The figures a finished game's end card shows (`GameSpec.end_figures`), in its view."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from parlour.core.game import Status
from parlour.core.gameid import parse_game_id
from parlour.games import GAMES

CROSS_WINS = ([0, 0], [1, 0], [0, 1], [1, 1], [0, 2])  # (row, column): the top row


def play(client: TestClient, game: str, moves: Any, **options: Any) -> tuple[str, dict[str, Any]]:
    created = client.post("/api/games", json={"game": game, **options}).json()
    sid, auth = created["session"], {"Authorization": f"Bearer {created['token']}"}
    view: dict[str, Any] = created["view"]
    for move in moves:
        assert view["end_figures"] == [], "figures before the end"
        reply = client.post(f"/api/games/{sid}/moves", json={"move": move}, headers=auth)
        assert reply.status_code == 200, reply.text
        view = reply.json()
    return sid, view


def test_the_end_card_figures_come_with_the_end(client: TestClient) -> None:
    sid, view = play(client, "tictactoe", ({"cell": cell} for cell in CROSS_WINS),
                     seats=["human", "human"])
    assert view["status"] == "won"
    assert view["end_figures"] == [{"label": "Moves", "value": 5, "shown": "5"}]
    assert client.get(f"/api/games/{sid}").json()["end_figures"] == [
        {"label": "Moves", "value": 5, "shown": "5"}]  # a spectator too: no seat's score in it


def play_tribolo(client: TestClient, seats: list[str]) -> tuple[str, list[str], list[int]]:
    """A Tribolo game played to its end by the first legal cell, each seat's move by its
    holder (a friend's seat joined by a token of its own): the session, the tokens by seat
    and the final scores."""
    rules = GAMES["tribolo"].game
    created = client.post("/api/games", json={"game": "tribolo", "id": "tribolo:standard#e1",
                                              "seats": seats}).json()
    sid = created["session"]
    tokens = [created["token"]] * len(seats)
    for seat, kind in enumerate(seats):
        if kind == "open":
            joined = client.post(f"/api/games/{sid}/join", json={"seat": seat}).json()
            tokens[seat] = joined["token"]
    state = parse_game_id(rules, created["id"]).deal(rules)
    while rules.status(state) is Status.PLAYING:  # the first legal cell, until nobody can move
        move = rules.legal_moves(state)[0]
        token = tokens[rules.to_move(state)]
        reply = client.post(f"/api/games/{sid}/moves", json={"move": rules.move_to_json(move)},
                            headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 200, reply.text
        state = rules.apply(state, move)
    return sid, tokens, list(rules.scores(state))


def figures_of(client: TestClient, sid: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    view = client.get(f"/api/games/{sid}", headers=headers).json()
    return {figure["label"]: figure["value"] for figure in view["end_figures"]}


def test_a_score_is_its_holders_and_not_a_spectators(client: TestClient) -> None:
    sid, tokens, scores = play_tribolo(client, ["human", "open", "open"])
    mine = figures_of(client, sid, tokens[1])
    assert list(mine) == ["Your cells", "Your moves"]
    assert mine["Your cells"] == scores[1]
    assert list(figures_of(client, sid)) == ["Moves"]


def test_one_screen_for_every_seat_is_shown_each_seats_score_by_name(client: TestClient) -> None:
    """Three players at one screen: no "Your cells" that is only Blue's (Blue was the first
    seat, whose score the card said was "yours" whoever won)."""
    sid, tokens, scores = play_tribolo(client, ["human"] * 3)
    shared = figures_of(client, sid, tokens[0])
    moves = client.get(f"/api/games/{sid}").json()["moves"]
    assert shared == {"Blue cells": scores[0], "Red cells": scores[1],
                      "Green cells": scores[2], "Moves": moves}
    replay = client.get(f"/api/games/{sid}/replay",
                        headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    assert [figure["label"] for figure in replay["end_figures"]] == [
        "Blue cells", "Red cells", "Green cells", "Moves"]
    watched = client.get(f"/api/games/{sid}/replay").json()["end_figures"]
    assert [figure["label"] for figure in watched] == ["Moves"]  # not the first seat's "yours"
    two, tokens, scores = play_tribolo(client, ["human", "human", "open"])  # a friend has Green
    assert figures_of(client, two, tokens[0]) == {  # the same deal and moves: the game's moves
        "Blue cells": scores[0], "Red cells": scores[1], "Moves": moves}


def test_counts_show_as_whole_numbers_and_rates_to_two_places(client: TestClient) -> None:
    """Escalator's cards left is a count ("12", not "12.00"); Minesweeper's rates are
    fractions whatever their value."""
    rules = GAMES["escalator"].game
    created = client.post("/api/games", json={"game": "escalator", "id": "escalator:#honest"})
    sid, auth = created.json()["session"], {"Authorization": f"Bearer {created.json()['token']}"}
    state = parse_game_id(rules, created.json()["id"]).deal(rules)
    view = created.json()["view"]
    while rules.status(state) is Status.PLAYING:  # the last legal move: the stock first
        move = rules.legal_moves(state)[-1]
        state = rules.apply(state, move)
        view = client.post(f"/api/games/{sid}/moves", json={"move": rules.move_to_json(move)},
                           headers=auth).json()
    shown = {figure["label"]: figure["shown"] for figure in view["end_figures"]}
    assert shown and all(text.isdigit() for text in shown.values()), shown


def test_a_player_against_the_computer_is_shown_their_own_moves(client: TestClient) -> None:
    created = client.post("/api/games", json={"game": "tictactoe",
                                              "seats": ["human", "ai:random"]}).json()
    sid, auth = created["session"], {"Authorization": f"Bearer {created['token']}"}
    for cell in range(9):  # each cell in turn; one the computer took is refused
        client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [cell // 3, cell % 3]}},
                    headers=auth)
    view = client.get(f"/api/games/{sid}", headers=auth).json()
    assert view["status"] != "playing"
    crosses = view["text"].count("X")
    assert {"label": "Your moves", "value": crosses, "shown": str(crosses)} in view[
        "end_figures"]
    watched = client.get(f"/api/games/{sid}").json()["end_figures"]  # a spectator: all
    assert {"label": "Moves", "value": view["moves"], "shown": str(view["moves"])} in watched


def played_out(client: TestClient, game_id: str) -> dict[str, Any]:
    """An Ishido deal played to its end, the last cell where each tile fits each time;
    the end card's figures, label -> value."""
    rules = GAMES["ishido"].game
    created = client.post("/api/games", json={"game": "ishido", "id": game_id}).json()
    sid, auth = created["session"], {"Authorization": f"Bearer {created['token']}"}
    state = parse_game_id(rules, game_id).deal(rules)
    while rules.status(state) is Status.PLAYING:
        move = rules.legal_moves(state)[-1]
        state = rules.apply(state, move)
        reply = client.post(f"/api/games/{sid}/moves", json={"move": rules.move_to_json(move)},
                            headers=auth)
    return {figure["label"]: figure["value"] for figure in reply.json()["end_figures"]}


def test_ishidos_end_card_counts_the_tiles_placed_and_the_end_bonus(client: TestClient) -> None:
    """What Ishido players count: a game lost with 3 tiles left says 69 placed; a classic
    win's score shows its end bonus apart, as the 1990 game's end does (1058 = 58 + 1000)."""
    lost = played_out(client, "ishido:seed#e36")  # lost, 3 tiles left
    assert lost == {"Tiles on the board": 69, "Score": 96, "4-ways": lost["4-ways"]}
    assert list(lost) == ["Tiles on the board", "Score", "4-ways"]
    won = played_out(client, "ishido:classic#e26")  # won: no tile left, 1000 points
    assert list(won) == ["Tiles on the board", "Tile points", "End bonus", "Score", "4-ways"]
    assert (won["Tiles on the board"], won["Tile points"], won["End bonus"], won["Score"]) == (
        72, 58, 1000, 1058)
