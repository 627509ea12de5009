"""Rate limits per client (issue 31): each client's moves a minute and new games and
uploads an hour; over one, a 429 that names it and says when to retry (REST: with
Retry-After; WebSocket: an error to that viewer, who stays connected)."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.limits import Kind, MemoryLimits, Rule, bucket_after, limit_rules
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.support.servers import TEST_HOSTS
from tests.test_api import auth, error_of, new_game, open_socket, two_humans
from tests.test_uploads import png


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def takes(limits: MemoryLimits, client: str, kind: Kind, count: int, amount: int = 1
          ) -> list[float | None]:
    async def taking() -> list[float | None]:
        return [await limits.take(client, kind, amount) for _ in range(count)]

    return run_async(taking())


def test_a_client_may_take_its_allowance_at_once_then_waits_its_rate() -> None:
    clock = Clock()
    limits = MemoryLimits(limit_rules(moves_per_minute=6), clock)
    assert takes(limits, "a", Kind.MOVES, 6) == [None] * 6
    assert takes(limits, "a", Kind.MOVES, 1) == [pytest.approx(10.0)]  # one per 10 s back
    clock.now += 10
    assert takes(limits, "a", Kind.MOVES, 2) == [None, pytest.approx(10.0)]
    clock.now += 60
    assert takes(limits, "a", Kind.MOVES, 6) == [None] * 6  # full again, no more than full


def test_a_refused_take_takes_nothing() -> None:
    clock = Clock()
    limits = MemoryLimits(limit_rules(new_games_per_hour=2), clock)
    takes(limits, "a", Kind.NEW_GAMES, 2)
    assert all(takes(limits, "a", Kind.NEW_GAMES, 5))  # five refusals...
    clock.now += 1800
    assert takes(limits, "a", Kind.NEW_GAMES, 1) == [None]  # ...cost no extra wait


def test_clients_and_kinds_have_buckets_of_their_own() -> None:
    limits = MemoryLimits(limit_rules(moves_per_minute=1, new_games_per_hour=1), Clock())
    assert takes(limits, "a", Kind.MOVES, 1) == [None]
    assert takes(limits, "b", Kind.MOVES, 1) == [None]
    assert takes(limits, "a", Kind.NEW_GAMES, 1) == [None]
    assert takes(limits, "a", Kind.MOVES, 1)[0] is not None


def test_bytes_are_taken_by_the_amount_and_a_limit_of_zero_is_off() -> None:
    limits = MemoryLimits(limit_rules(upload_mib_per_hour=1, moves_per_minute=0), Clock())
    assert takes(limits, "a", Kind.UPLOAD_BYTES, 1, 2**19) == [None]
    assert takes(limits, "a", Kind.UPLOAD_BYTES, 1, 2**19 + 1)[0] == pytest.approx(
        3600 / 2**20)  # one byte over: a byte's time
    assert takes(limits, "a", Kind.MOVES, 10_000) == [None] * 10_000


def test_an_amount_over_the_whole_allowance_takes_a_full_bucket_and_no_more() -> None:
    clock = Clock()
    limits = MemoryLimits(limit_rules(upload_mib_per_hour=1), clock)
    assert takes(limits, "a", Kind.UPLOAD_BYTES, 1, 5 * 2**20) == [None]
    assert takes(limits, "a", Kind.UPLOAD_BYTES, 1, 1)[0] == pytest.approx(3600 / 2**20)
    clock.now += 3600
    assert takes(limits, "a", Kind.UPLOAD_BYTES, 1, 1) == [None]


# -- through the API ------------------------------------------------------------------
def only(kind: Kind, allowance: int) -> dict[Kind, Rule]:
    """Every limit off but `kind`'s."""
    rules = dict(limit_rules(0, 0, 0, 0))
    rules[kind] = Rule(allowance, rules[kind].period, rules[kind].what, rules[kind].unit)
    return rules


def app_with(store: Store, rules: dict[Kind, Rule]) -> TestClient:
    return TestClient(create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS,
                                 limits=MemoryLimits(rules)))


def test_moves_over_the_limit_are_refused_with_when_to_retry(store: Store) -> None:
    with app_with(store, only(Kind.MOVES, 3)) as client:
        sid, token = two_humans(client)
        cells = [[0, 0], [1, 1], [2, 2], [0, 1]]
        answers = [client.post(f"/api/games/{sid}/moves", json={"move": {"cell": cell}},
                               headers=auth(token)) for cell in cells]
        assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
        message = error_of(answers[-1], 429)
        assert message.startswith("Too many moves and other actions in games from you "
                                  "(at most 3 a minute): try again in ")
        assert int(answers[-1].headers["retry-after"]) == 20  # a move back every 20 s
        assert client.get(f"/api/games/{sid}").json()["moves"] == 3  # the fourth not played
        other = client.post(f"/api/games/{sid}/undo", headers={
            **auth(token), "Cookie": "parlour_player=" + "o" * 22})
        assert other.status_code == 200  # another client's own bucket


def test_new_games_over_the_limit_are_refused(store: Store) -> None:
    with app_with(store, only(Kind.NEW_GAMES, 2)) as client:
        new_game(client)
        new_game(client)
        refused = client.post("/api/games", json={"game": "tictactoe"})
        assert error_of(refused, 429) == ("Too many new games from you (at most 2 an hour): "
                                          "try again in 30 min")
        assert refused.headers["retry-after"] == "1800"


PICTURE = png(8, 8)
PNG = {"Content-Type": "image/png"}


def test_uploads_over_their_count_are_refused(store: Store) -> None:
    with app_with(store, only(Kind.UPLOADS, 1)) as client:
        assert client.post("/api/uploads", content=PICTURE, headers=PNG).status_code == 201
        refused = client.post("/api/uploads", content=PICTURE, headers=PNG)
        assert "uploads from you (at most 1 an hour)" in error_of(refused, 429)


def test_uploads_over_their_bytes_are_refused(store: Store) -> None:
    picture, headers = PICTURE, PNG
    bytes_only = only(Kind.UPLOAD_BYTES, 0)
    bytes_only[Kind.UPLOAD_BYTES] = Rule(len(picture) + 10, 3600.0, "bytes uploaded")
    with app_with(store, bytes_only) as client:
        assert client.post("/api/uploads", content=picture, headers=headers).status_code == 201
        refused = client.post("/api/uploads", content=picture, headers=headers)
        assert "bytes uploaded" in error_of(refused, 429)
        assert int(refused.headers["retry-after"]) > 0


def test_a_viewer_over_its_moves_is_told_and_stays_connected(store: Store) -> None:
    with app_with(store, only(Kind.MOVES, 2)) as client:
        sid, token = two_humans(client)
        with open_socket(client, sid, token) as player:
            assert player.receive_json()["type"] == "view"
            for cell in ([0, 0], [1, 1]):
                player.send_json({"type": "move", "move": {"cell": cell}})
                assert player.receive_json()["type"] == "view"
            player.send_json({"type": "move", "move": {"cell": [2, 2]}})
            refused = player.receive_json()
            assert refused["type"] == "error"
            assert refused["error"].startswith("Too many moves and other actions in games")
            assert refused["retry_after"] == 30
            # still connected: what changes no game goes on being answered
            player.send_text('{"type": "dance"}')
            assert "Bad message" in player.receive_json()["error"]
        assert client.get(f"/api/games/{sid}").json()["moves"] == 2


def test_the_defaults_are_far_above_a_player() -> None:
    rules = limit_rules()
    assert rules[Kind.MOVES] == Rule(1200, 60.0, "moves and other actions in games")
    assert (rules[Kind.NEW_GAMES].allowance, rules[Kind.UPLOADS].allowance) == (1200, 60)
    assert rules[Kind.UPLOAD_BYTES].allowance == 256 * 2**20


def test_a_fresh_bucket_gives_its_whole_allowance_whatever_the_clock_reads() -> None:
    """A first take of a one-an-hour limit passes at any clock reading (counted as
    now + x - now, a large reading once rounded it past the hour, and refused it)."""
    rule = Rule(1, 3600.0, "new games")
    readings = random.Random(7).sample(range(10**3, 10**9), 5000)
    refused = [now for now in readings if bucket_after(now / 7, now / 7, 1, rule)[0] is None]
    assert refused == []
