"""Every refusal reads as a sentence: whatever a player or a script does wrong, in every
game, the message they get starts with a capital letter, and says something."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.hub.errors import ApiError, sentence

Refusals = list[tuple[str, str]]


def refused(refusals: Refusals, what: str, response: Any) -> Any:
    """Keep the message of a refusal (a 4xx answer) with what caused it."""
    if response.status_code >= 400:
        refusals.append((what, response.json()["error"]))
    return response


def headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def refusals_of(client: TestClient, game: str) -> Refusals:
    """What a careless player or script meets in `game`: an unknown parameter, a bad
    seat, a move of the wrong shape, a move without a seat, the hint's move played twice
    (the second time on a place it took), undo with nothing to undo, a seat that is taken."""
    seen: Refusals = []
    post = client.post
    refused(seen, "unknown parameter", post("/api/games", json={"game": game,
                                                                  "params": {"colour": 3}}))
    seats = len(GAMES[game].game.seat_names(GAMES[game].game.validate({})))
    refused(seen, "bad seat", post("/api/games", json={"game": game, "seats": ["robot"] * seats}))
    made = post("/api/games", json={"game": game, "seats": ["human"] * seats}).json()
    sid, token = made["session"], made["token"]
    moves = f"/api/games/{sid}/moves"
    refused(seen, "undo at the start", post(f"/api/games/{sid}/undo", headers=headers(token)))
    refused(seen, "move of no shape", post(moves, json={"move": {}}, headers=headers(token)))
    refused(seen, "move of another game", post(moves, json={"move": {"nonsense": [1]}},
                                                headers=headers(token)))
    refused(seen, "move without a seat", post(moves, json={"move": {}}))
    hint = post(f"/api/games/{sid}/hint", headers=headers(token)).json()
    if hint.get("move"):
        for _ in range(2):
            refused(seen, "the same move twice", post(moves, json={"move": hint["move"]},
                                                      headers=headers(token)))
    refused(seen, "a seat nobody may take", post(f"/api/games/{sid}/join", json={"seat": 0}))
    refused(seen, "leave alone", post(f"/api/games/{sid}/leave", headers=headers(token)))
    return seen


@pytest.mark.parametrize("game", list(GAMES))
def test_every_refusal_starts_with_a_capital(client: TestClient, game: str) -> None:
    seen = refusals_of(client, game)
    assert len(seen) >= 5, seen  # the sweep met refusals of each kind
    for what, message in seen:
        assert message and message[0].isupper(), (game, what, message)
        assert len(message) > 8 and "Traceback" not in message, (game, what, message)


def test_refusals_of_the_server_itself_start_with_a_capital(client: TestClient) -> None:
    seen: Refusals = []
    refused(seen, "unknown game", client.post("/api/games", json={"game": "chess"}))
    refused(seen, "unknown session", client.get("/api/games/nothing-here"))
    refused(seen, "not JSON", client.post("/api/games", content=b"{",
                                          headers={"Content-Type": "application/json"}))
    refused(seen, "no such route", client.get("/api/nothing"))
    refused(seen, "stats of no game", client.get("/api/stats?game=chess"))
    assert len(seen) == 5
    for what, message in seen:
        assert message[0].isupper(), (what, message)


def test_a_game_s_refusal_is_written_to_follow_on_and_shown_as_a_sentence() -> None:
    assert ApiError(409, "it is not your turn").message == "It is not your turn"
    assert sentence("'x' is no move") == "'x' is no move"  # nothing to capitalise
    assert sentence("") == ""
