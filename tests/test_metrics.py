"""Prometheus metrics at /metrics (issue 31): what a process counts, that each app counts
its own, who may read them, and an app without prometheus-client."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from parlour.games import GAMES
from parlour.server.app import create_app
from parlour.server.limits import Kind, MemoryLimits, Rule, limit_rules
from parlour.store.sqlite import SqliteStore as Store
from tests.support.servers import TEST_HOSTS
from tests.test_api import auth, error_of, move, new_game, open_socket, two_humans

LOCAL = ("127.0.0.1", 40000)
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(client: TestClient) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(answer.text)
            for sample in family.samples}


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def local_app(store: Store, **options: object) -> TestClient:
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS,
                     **options)  # type: ignore[arg-type]
    return TestClient(app, client=LOCAL)


def test_moves_their_acknowledgements_games_and_viewers_are_counted(store: Store) -> None:
    with local_app(store) as client:
        sid, token = two_humans(client)
        move(client, sid, token, (1, 1))
        against_ai = new_game(client, seats=["human", "ai:perfect"])
        move(client, against_ai["session"], against_ai["token"], (0, 0))  # and it answers
        with open_socket(client, sid, token) as socket:
            socket.receive_json()
            socket.send_json({"type": "move", "move": {"cell": [0, 0]}})
            socket.receive_json()
            found = samples(client)
    assert value(found, "parlour_moves_total", game="tictactoe", by="player") == 3
    assert value(found, "parlour_moves_total", game="tictactoe", by="computer") == 1
    assert value(found, "parlour_move_ack_seconds_count", game="tictactoe") == 3
    assert 0 < value(found, "parlour_move_ack_seconds_sum", game="tictactoe") < 3
    assert value(found, "parlour_move_ack_seconds_bucket", game="tictactoe", le="+Inf") == 3
    assert value(found, "parlour_live_games") == 2
    assert value(found, "parlour_viewers") == 1
    assert value(found, "process_cpu_seconds_total") > 0  # the process's own
    assert any(name == "python_info" for name, _ in found)  # (its labels vary)


def test_refusals_are_counted_by_limit_and_takeovers_as_told(store: Store) -> None:
    rules = dict(limit_rules(0, 0, 0, 0))
    rules[Kind.MOVES] = Rule(1, 60.0, "moves")
    with local_app(store, limits=MemoryLimits(rules)) as client:
        sid, token = two_humans(client)
        move(client, sid, token, (1, 1))
        error_of(client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}},
                             headers=auth(token)), 429)
        client.app.state.hub.metrics.takeover()  # type: ignore[attr-defined]
        found = samples(client)
    assert value(found, "parlour_refusals_total", limit="moves") == 1
    assert value(found, "parlour_takeovers_total") == 1


def test_each_app_counts_its_own(store: Store) -> None:
    other_store = Store(":memory:")
    with local_app(store) as first, local_app(other_store) as second:
        sid, token = two_humans(first)
        move(first, sid, token, (1, 1))
        assert value(samples(first), "parlour_moves_total", game="tictactoe", by="player") == 1
        assert value(samples(second), "parlour_moves_total", game="tictactoe",
                     by="player") == 0
        assert value(samples(second), "parlour_live_games") == 0


def test_only_this_machine_and_the_hosts_named_addresses_may_read_them(store: Store
                                                                       ) -> None:
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS,
                     trusted_proxies=["127.0.0.1"], metrics_from=["10.1.0.0/16"])
    with TestClient(app, client=LOCAL) as through_nginx:
        for peer, status in (("127.0.0.1", 200), ("::1", 200), ("10.1.2.3", 200),
                             ("10.2.0.1", 403), ("203.0.113.5", 403), ("testclient", 403)):
            client = TestClient(app, client=(peer, 40000))  # the same app, another peer
            assert client.get("/metrics").status_code == status, peer
        # judged by the client behind the proxy, not by the proxy's loopback address
        refused = through_nginx.get("/metrics", headers={"X-Forwarded-For": "203.0.113.5"})
        assert "only to this machine" in error_of(refused, 403)


def test_without_prometheus_client_the_app_serves_games_and_no_metrics() -> None:
    script = textwrap.dedent("""
        import sys
        sys.modules["prometheus_client"] = None  # as if not installed
        from fastapi.testclient import TestClient
        from parlour.games import GAMES
        from parlour.server.app import create_app
        from parlour.store.sqlite import SqliteStore
        app = create_app(SqliteStore(":memory:"), GAMES, allowed_hosts=["testserver"])
        with TestClient(app, client=("127.0.0.1", 1)) as client:
            created = client.post("/api/games", json={"game": "tictactoe"})
            answer = client.get("/metrics")
        print(created.status_code, answer.status_code, answer.json()["error"])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "201 404 This server keeps no metrics: they need prometheus-client "
        "(pip install 'parlour[hosted]')")
