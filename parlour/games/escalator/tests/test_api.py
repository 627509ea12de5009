"""Escalator over the REST API, as scripts and bots play it (the issue's contract)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.core.gameid import parse_game_id
from parlour.games.escalator.logic import POSITIONS, Escalator, Layout, code

GAME = Escalator()
CARD = re.compile(r"^[A2-9TJQK][cdhs]$")


def create(client: TestClient, **params: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "escalator", "params": params})
    assert reply.status_code == 201, reply.json()
    body: dict[str, Any] = reply.json()
    return body


def play(client: TestClient, game: dict[str, Any], move: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game['session']}/moves", json={"move": move},
                       headers={"Authorization": f"Bearer {game['token']}"})


def undo(client: TestClient, game: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game['session']}/undo",
                       headers={"Authorization": f"Bearer {game['token']}"})


def deal_of(game: dict[str, Any]) -> Layout:
    parsed = parse_game_id(GAME, game["id"])
    return GAME.deal(parsed.params, parsed.rng(GAME))


def test_a_new_game_reads_as_the_contract_says(client: TestClient) -> None:
    game = create(client)
    lines = game["view"]["text"].split("\n")
    assert len(lines) == 9
    for row, line in enumerate(lines[:7]):
        cards = line.split()
        assert len(cards) == row + 1 and all(CARD.match(c) for c in cards)
        assert "  " not in line.strip()  # single spaces between cards
    deal = deal_of(game)
    assert lines[7] == f"base: {code(deal.stock[0])}" and lines[8] == "stock: 23"


def test_picks_draws_and_undo_of_picks_only(client: TestClient) -> None:
    for _ in range(40):  # a deal where the first base can pick a card
        game = create(client)
        deal = deal_of(game)
        if deal.playable():
            break
    row, col = POSITIONS[deal.playable()[0]]
    picked = play(client, game, {"pick": [row, col]})
    assert picked.status_code == 200, picked.json()
    assert picked.json()["text"].split("\n")[row].split()[col] == ".."
    undone = undo(client, game).json()
    assert undone["text"] == game["view"]["text"]

    drawn = play(client, game, {"draw": True}).json()
    assert drawn["text"].endswith("stock: 22") and drawn["can_undo"] is False
    assert drawn["undo_refusal"] == "a card turned from the stock stays turned"
    refused = undo(client, game)
    assert refused.status_code == 409
    assert "A card turned from the stock stays turned" in refused.json()["error"]
    again = client.get(f"/api/games/{game['session']}",
                       headers={"Authorization": f"Bearer {game['token']}"}).json()
    assert again["text"] == drawn["text"] and again["moves"] == 1  # (the pick was undone)


def test_a_bad_pick_is_refused_with_the_reason(client: TestClient) -> None:
    game = create(client)
    covered = play(client, game, {"pick": [0, 0]})
    assert covered.status_code == 409 and "covered" in covered.json()["error"]
    nowhere = play(client, game, {"pick": [3, 5]})
    assert nowhere.status_code == 409 and "no pyramid card at [3, 5]" in nowhere.json()["error"]
    malformed = play(client, game, {"draw": "yes"})
    assert malformed.status_code == 409


def test_the_stock_order_is_not_sent_while_playing(client: TestClient) -> None:
    game = create(client)
    deal = deal_of(game)
    hidden = [code(card) for card in deal.stock[1:]]
    spectator = client.get(f"/api/games/{game['session']}").text
    owner_view = game["view"]
    for card in hidden:  # neither as text nor as a card drawn on the board
        assert card not in owner_view["text"].split()
        assert f"esc-card-{card}" not in owner_view["html"] + spectator


@pytest.mark.parametrize(("seed", "outcome"), [("greedy0", "won"), ("greedy2", "lost")])
def test_a_whole_game_played_greedily_matches_the_rules_move_by_move(
    client: TestClient, seed: str, outcome: str
) -> None:
    deal = f"escalator:winnable#{seed}"  # (a random deal made this test's outcome random)
    reply = client.post("/api/games", json={"game": "escalator", "id": deal})
    assert reply.status_code == 201, reply.json()
    game = reply.json()
    state, view = deal_of(game), game["view"]
    while view["status"] == "playing":
        move = ({"pick": list(POSITIONS[state.playable()[0]])} if state.playable()
                else {"draw": True})
        reply = play(client, game, move)
        assert reply.status_code == 200, reply.json()
        view, state = reply.json(), GAME.apply(state, GAME.parse_move(move))
        assert view["text"] == GAME.text(GAME.observe(state, 0))
    assert view["status"] == GAME.status(state).value == outcome
    # the solver's word on a lost deal; a win needs none (the player showed it winnable)
    assert (state.verdict is not None) == (outcome == "lost")
    assert view["id"] is not None  # and the deal is public


def test_winnable_deals_are_winnable(client: TestClient) -> None:
    from parlour.games.escalator.logic import verdict_of_deal

    game = create(client, winnable=True)
    assert game["view"]["params"] == {"winnable": True}
    assert verdict_of_deal(deal_of(game)).winnable


# -- winnable deals by default, random ones a click away, counted apart ----------------
def pick_or_draw(state: Layout) -> dict[str, Any]:
    """`finish`'s move when it has no line: the first card that can be picked up, else a
    card turned from the stock."""
    playable = state.playable()
    return {"pick": list(POSITIONS[playable[0]])} if playable else {"draw": True}


def finish(client: TestClient, game: dict[str, Any], line: list[dict[str, Any]] | None = None
           ) -> dict[str, Any]:
    """Play `game` to its end: `line`'s moves, else a pick whenever one fits."""
    state, view = deal_of(game), game["view"]
    moves = iter(line or [])
    while view["status"] == "playing":
        move = next(moves, None) or pick_or_draw(state)
        reply = play(client, game, move)
        assert reply.status_code == 200, reply.json()
        view, state = reply.json(), GAME.apply(state, GAME.parse_move(move))
    return view


def test_a_newcomers_game_is_a_winnable_deal(client: TestClient) -> None:
    from parlour.games.escalator.logic import verdict_of_deal

    game = create(client)  # no parameters chosen: a player's first game
    assert game["id"].startswith("escalator:winnable#")
    assert verdict_of_deal(deal_of(game)).winnable  # the exact search proves it
    random_deal = create(client, winnable=False)
    assert random_deal["id"].startswith("escalator:standard#")


def test_ids_keep_their_deals_whatever_a_newcomer_is_dealt() -> None:
    from parlour.games.escalator.logic import dealt, shuffled_deck

    # a random deal's id deals the seed's shuffle, as it always has; an id that names no
    # preset still means the parameters' defaults (a random deal), not the newcomer's
    for text in ("escalator:standard#k3f9", "escalator:#k3f9", "escalator:winnable=false#k3f9"):
        parsed = parse_game_id(GAME, text)
        assert parsed.params == {"winnable": False}
        assert parsed.deal(GAME) == dealt(shuffled_deck(parsed.rng(GAME)))
    winnable = parse_game_id(GAME, "escalator:winnable#k3f9")
    assert winnable.deal(GAME) == GAME.deal({"winnable": True}, winnable.rng(GAME))


def test_a_lost_random_deal_offers_a_winnable_one_and_statistics_keep_them_apart(
    client: TestClient,
) -> None:
    from parlour.games.escalator.logic import verdict_of_deal

    def lost_by_finish(layout: Layout) -> bool:  # as `finish` plays it
        while GAME.status(layout).value == "playing":
            layout = GAME.apply(layout, GAME.parse_move(pick_or_draw(layout)))
        return GAME.status(layout).value == "lost"

    lost: dict[bool, str] = {}  # a random deal `finish` loses, by whether it could be won
    for number in range(200):
        game_id = f"escalator:standard#lost{number}"
        layout = parse_game_id(GAME, game_id).deal(GAME)
        if lost_by_finish(layout):
            lost.setdefault(verdict_of_deal(layout).winnable, game_id)
        if len(lost) == 2:
            break
    assert len(lost) == 2, "no random deal lost both ways"
    for winnable, game_id in lost.items():  # the card offers to show how, or a deal to win
        made = client.post("/api/games", json={"game": "escalator", "id": game_id}).json()
        assert made["view"]["end_note"] is None  # (while playing)
        view = finish(client, made)
        assert view["status"] == "lost" and view["end_actions"] == (
            [{"label": "Show a winning line", "command": "winning-line"}] if winnable else
            [{"label": "Deal a winnable one", "command": "new-winnable"}])
        # and says whether it could have been won, as the felt does
        assert view["end_note"] == ("This deal could have been won" if winnable
                                    else "No order of play could have won this deal")
        # the Game menu's Show a winning line (W) only where there is one
        assert view["commands"]["winning-line"] is winnable
    catalog = client.get("/api/catalog").json()
    [info] = [game for game in catalog["games"] if game["name"] == "escalator"]
    [command] = [c for c in info["commands"] if c["name"] == "new-winnable"]
    assert command["args"]["params"] == {"winnable": True} and command["keys"] == ["Shift+N"]
    assert info["new_choices"] == ["new-winnable", "new-random"]

    winnable = create(client, **command["args"]["params"])  # what the button starts
    line = [GAME.move_to_json(move) for move in verdict_of_deal(deal_of(winnable)).line]
    won = finish(client, winnable, line)
    assert won["status"] == "won" and won["end_actions"] == [] and won["end_note"] is None

    groups = client.get("/api/stats", params={"game": "escalator"}).json()["groups"]
    by_heading = {group["heading"]: group for group in groups}
    assert set(by_heading) == {"Random deals", "Winnable deals"}
    assert by_heading["Winnable deals"]["won"] == 1 and by_heading["Winnable deals"]["played"] == 1
    assert by_heading["Random deals"]["won"] == 0
    assert by_heading["Random deals"]["played"] == by_heading["Random deals"]["lost"] >= 1
