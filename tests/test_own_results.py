"""Each player's own results on a shared Parlour (parlour.stats.own): the statistics, the
daily deals, the past games and a game's records read with the seat tokens a browser
keeps show that player's games only; a read of everyone's is refused there; and a player
who holds every token reads exactly what one player's own Parlour shows of all it keeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.stats import own as own_results
from parlour.stats.own import MAX_HELD, HeldResults
from parlour.store import Store
from tests.support.servers import TEST_HOSTS
from tests.support.stores import on_both_stores
from tests.test_api import CIRCLE_WINS, CROSS_WINS, DRAW, auth, error_of, new_game, play_out
from tests.test_daily import lose, started, utc_today, win

pytestmark = on_both_stores  # every test here, on SQLite's store and on PostgreSQL's


@pytest.fixture
def shared(store: Store) -> Iterator[TestClient]:
    """A shared Parlour (hosted, or `--shared`) on the test's store."""
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS, shared=True)
    with TestClient(app) as test_client:
        yield test_client


def online_game(client: TestClient, cells: list[tuple[int, int]]) -> tuple[str, str, str]:
    """A Tic Tac Toe between two browsers played out: (session, Cross's token, Circle's)."""
    made = new_game(client, seats=["human", "open"])
    joined = client.post(f"/api/games/{made['session']}/join")
    assert joined.status_code == 200, joined.text
    cross, circle = made["token"], joined.json()["token"]
    for turn, cell in enumerate(cells):
        play_out(client, made["session"], (cross, circle)[turn % 2], [cell])
    return made["session"], cross, circle


def own(client: TestClient, path: str, tokens: list[str], **params: Any) -> Any:
    reply = client.post(f"{path}/mine", json={"tokens": tokens}, params=params)
    assert reply.status_code == 200, reply.text
    return reply.json()


def get_id(client: TestClient, sid: str) -> str:
    game_id: str = client.get(f"/api/games/{sid}").json()["id"]
    return game_id


def groups(client: TestClient, tokens: list[str]) -> dict[str, tuple[int, int]]:
    """Each statistics group of the tokens' Tic Tac Toe games, by its players: (played,
    won)."""
    return {g["players"]: (g["played"], g["won"])
            for g in own(client, "/api/stats", tokens)["groups"]}


def test_each_player_sees_their_own_statistics_and_past_games_only(
    shared: TestClient,
) -> None:
    sid, alice, bob = online_game(shared, CROSS_WINS)  # Alice is Cross, and wins
    solo = new_game(shared, seats=["human", "human"])  # Bob's own game at one screen
    play_out(shared, solo["session"], solo["token"], DRAW)
    bobs = [bob, solo["token"]]

    assert groups(shared, [alice]) == {"Online with a friend, as Cross": (1, 1)}
    assert groups(shared, bobs) == {"Online with a friend, as Circle": (1, 0),
                                    "Two players here": (1, 0)}
    assert groups(shared, ["a-token-nobody-holds"]) == {}
    assert groups(shared, []) == {}
    # nobody takes Alice's seat once the game is over, so nobody takes her win with it
    assert shared.post(f"/api/games/{sid}/join", json={"seat": 0}).status_code == 409
    assert shared.post(f"/api/games/{sid}/leave", headers=auth(alice)).status_code == 409
    assert groups(shared, [alice]) == {"Online with a friend, as Cross": (1, 1)}

    assert [p["session"] for p in own(shared, "/api/replays", [alice])] == [sid]
    assert [p["session"] for p in own(shared, "/api/replays", bobs)] == [solo["session"], sid]
    bobs_view = own(shared, "/api/replays", bobs)[1]
    assert (bobs_view["players"], bobs_view["outcome"]) == ("Online with a friend, as Circle",
                                                            "Lost")
    assert own(shared, "/api/replays", ["a-token-nobody-holds"]) == []

    def csv_rows(tokens: list[str]) -> list[str]:
        reply = shared.post("/api/results.csv/mine", json={"tokens": tokens})
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/csv")
        return reply.text.splitlines()[1:]  # under the header

    (alices_row,) = csv_rows([alice])
    assert ",Cross,Won," in alices_row and alices_row.endswith(get_id(shared, sid))
    assert sorted(row.split(",")[5] for row in csv_rows(bobs)) == ["Draw", "Lost"]
    assert csv_rows([]) == []


def test_a_shared_parlour_refuses_to_read_every_players_results(shared: TestClient) -> None:
    sid, alice, _ = online_game(shared, CROSS_WINS)
    assert shared.get("/api/catalog").json()["shared"] is True
    for path in ("/api/stats", "/api/daily", "/api/replays", f"/api/games/{sid}/records",
                 "/api/results.csv"):
        message = error_of(shared.get(path, headers=auth(alice)), 403)
        assert f"POST {path}/mine" in message, message
    # a backup holds every player's games: the host's, from the command line
    for refused in (shared.get("/api/backup"),
                    shared.post("/api/backup/mine", json={"tokens": [alice]}),
                    shared.post("/api/backup", json={"format": "parlour-backup"})):
        assert "'parlour --backup'" in error_of(refused, 403)


def test_one_players_parlour_shows_everything_it_keeps(client: TestClient) -> None:
    online_game(client, CROSS_WINS)
    assert client.get("/api/catalog").json()["shared"] is False
    both = [g["players"] for g in client.get("/api/stats").json()["groups"]]
    assert sorted(both) == ["Online with a friend, as Circle", "Online with a friend, as Cross"]
    assert len(client.get("/api/replays").json()) == 1


def test_the_daily_deal_is_each_players_own(shared: TestClient) -> None:
    today = utc_today()
    entry = {e["game"]: e for e in own(shared, "/api/daily", [], today=today)["games"]}
    daily_id = entry["minesweeper"]["id"]
    alice = started(shared, daily_id)
    win(shared, alice)
    bob = started(shared, daily_id)  # Bob's first attempt of the day, after Alice's

    def minesweeper(tokens: list[str]) -> dict[str, Any]:
        report = own(shared, "/api/daily", tokens, today=today)
        found: dict[str, Any] = next(e for e in report["games"] if e["game"] == "minesweeper")
        return found

    mine = minesweeper([alice["token"]])
    assert (mine["today"]["session"], mine["today"]["outcome"]) == (alice["session"], "won")
    assert (mine["played"], mine["won"], mine["current_streak"]) == (1, 1, 1)
    his = minesweeper([bob["token"]])
    assert (his["today"]["session"], his["today"]["outcome"]) == (bob["session"], "playing")
    lose(shared, bob)
    his = minesweeper([bob["token"]])
    assert (his["today"]["outcome"], his["played"], his["won"]) == ("lost", 1, 0)
    newcomer = minesweeper([])
    assert newcomer["today"] is None and newcomer["played"] == 0


def test_a_games_records_are_measured_among_the_players_own(shared: TestClient) -> None:
    # a Minesweeper won by Bob, then by Alice: Alice's win sets her first record, whoever
    # won faster before her
    daily_id = next(e["id"] for e in own(shared, "/api/daily", [], today=utc_today())["games"]
                    if e["game"] == "minesweeper")
    bob = started(shared, daily_id)
    win(shared, bob)
    alice = started(shared, daily_id)
    win(shared, alice)
    path = f"/api/games/{alice['session']}/records/mine"
    reply = shared.post(path, json={"tokens": []}, headers=auth(alice["token"]))
    assert reply.status_code == 200, reply.text
    (best,) = [r for r in reply.json() if r["name"] == "time"]
    assert best["new"] is True  # her first win is her first record
    # with Bob's token among hers (the same person on one browser), Bob's win came first
    reply = shared.post(path, json={"tokens": [bob["token"]]}, headers=auth(alice["token"]))
    (best,) = [r for r in reply.json() if r["name"] == "time"]
    assert best["new"] is False and best["caption"].endswith("so far")  # no faster than his


def test_every_token_reads_what_the_store_reads(client: TestClient, store: Store) -> None:
    """A player holding every token reads of their own what a personal Parlour reads of
    everything: the same statistics, daily deals, past games and records."""
    tokens = []
    for cells in (CROSS_WINS, CIRCLE_WINS, DRAW):
        sid, cross, circle = online_game(client, cells)
        tokens += [cross, circle]
    solo = new_game(client, seats=["human", "human"])
    play_out(client, solo["session"], solo["token"], CIRCLE_WINS)
    versus = new_game(client, seats=["human", "ai:perfect"])
    play_out(client, versus["session"], versus["token"], [(1, 1)])  # unfinished
    daily = started(client, next(e["id"] for e in client.get(
        "/api/daily", params={"today": utc_today()}).json()["games"]
        if e["game"] == "minesweeper"))
    win(client, daily)
    tokens += [solo["token"], versus["token"], daily["token"]]

    held = HeldResults(store, tokens)
    assert held.stat_reading(None, 40, 1000).groups == store.stat_reading(None, 40, 1000).groups
    for game in (None, "tictactoe", "minesweeper"):
        ours, theirs = held.stat_reading(game, 1, 2), store.stat_reading(game, 1, 2)
        assert (ours.groups, ours.left_off) == (theirs.groups, theirs.left_off)
        assert held.latest_results(game, 3) == store.latest_results(game, 3)
    assert held.daily_starts() == store.daily_starts()
    assert held.daily_results() == store.daily_results()
    for sid in (solo["session"], daily["session"]):
        assert held.result_and_group(sid, None, 2) == store.result_and_group(sid, None, 2)
    assert own(client, "/api/stats", tokens) == client.get("/api/stats").json()
    assert own(client, "/api/replays", tokens) == client.get("/api/replays").json()
    today = utc_today()
    assert own(client, "/api/daily", tokens, today=today) == client.get(
        "/api/daily", params={"today": today}).json()


def test_the_tokens_sent_are_bounded(shared: TestClient) -> None:
    for path in ("/api/stats/mine", "/api/daily/mine", "/api/replays/mine",
                 "/api/results.csv/mine"):
        error_of(shared.post(path, json={"tokens": ["t"] * (MAX_HELD + 1)}), 422)
        error_of(shared.post(path, json={"tokens": ["x" * 65]}), 422)
        error_of(shared.post(path, json={"tokens": "abc"}), 422)
        error_of(shared.post(path, json={}), 422)
        error_of(shared.post(path, content=b"tokens", headers={"Content-Type": "text/plain"}),
                 415)
        error_of(shared.post(path, content=b"[" + b'"t",' * 300_000 + b'"t"]',
                             headers={"Content-Type": "application/json"}), 413)
    error_of(shared.post("/api/stats/mine", json={"tokens": []}, params={"game": "chess"}), 404)


def test_a_players_latest_results_are_read_and_no_more(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = [new_game(client, seats=["human", "human"]) for _ in range(4)]
    for game in made:
        play_out(client, game["session"], game["token"], CROSS_WINS)
    monkeypatch.setattr(own_results, "MAX_RESULTS", 2)
    held = HeldResults(store, [game["token"] for game in made])
    assert [r.sid for r in held.results] == [game["session"] for game in made[-2:]]
