"""The client behind a reverse proxy (issue 31): X-Forwarded-For names the client only
when the request comes from a proxy the host trusts; from anyone else it is ignored, so
a client cannot pick a new identity, and with it a fresh allowance, per request."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlour.games import GAMES
from parlour.server.api.proxies import TrustedProxies, parse_networks
from parlour.server.app import create_app
from parlour.server.limits import Kind, MemoryLimits, Rule, limit_rules
from parlour.store.sqlite import SqliteStore as Store
from tests.support.servers import TEST_HOSTS, start_server

PROXY = "10.0.0.7"
TRUSTED = TrustedProxies(parse_networks(f"{PROXY},192.168.0.0/16"))


@pytest.mark.parametrize(("header", "client"), [
    ("203.0.113.5", "203.0.113.5"),
    ("6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the left-most is the client's own word
    ("6.6.6.6, 203.0.113.5, 192.168.4.4", "203.0.113.5"),  # an inner trusted proxy
    ("203.0.113.5:41000", "203.0.113.5"),
    ("[2001:db8::1]:443", "2001:db8::1"),
    ("::ffff:203.0.113.5", "203.0.113.5"),  # one address, one client, however spelt
    ("10.0.0.7, 192.168.1.1", "10.0.0.7"),  # every one a proxy: the first asks itself
    ("203.0.113.5, not-an-address", None),  # a proxy passing a header on unchecked
])
def test_the_client_is_the_right_most_address_not_a_trusted_proxy(
        header: str, client: str | None) -> None:
    assert TRUSTED.client_address(header) == client


def test_a_trusted_proxy_must_be_an_address_or_network() -> None:
    with pytest.raises(ValueError, match="'nginx' is not an IP address or network"):
        parse_networks("127.0.0.1, nginx")


def one_new_game_each(store: Store, peer: str) -> TestClient:
    """The app behind the proxy PROXY, as `peer` reaches it; one new game per client."""
    rules = dict(limit_rules(0, 0, 0, 0))
    rules[Kind.NEW_GAMES] = Rule(1, 3600.0, "new games")
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS,
                     trusted_proxies=[PROXY], limits=MemoryLimits(rules))
    return TestClient(app, client=(peer, 40000))


def new_game_for(client: TestClient, forwarded_for: str) -> int:
    return client.post("/api/games", json={"game": "tictactoe"},
                       headers={"X-Forwarded-For": forwarded_for}).status_code


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance(store: Store
                                                                           ) -> None:
    with one_new_game_each(store, PROXY) as client:
        assert new_game_for(client, "203.0.113.5") == 201
        assert new_game_for(client, "6.6.6.6, 203.0.113.5") == 429  # the same client
        assert new_game_for(client, "203.0.113.6") == 201  # another one


def test_from_any_other_peer_the_header_is_ignored(store: Store) -> None:
    with one_new_game_each(store, "198.51.100.9") as client:
        assert new_game_for(client, "203.0.113.5") == 201
        assert new_game_for(client, "203.0.113.6") == 429  # still the peer itself


def test_a_trusted_proxys_scheme_is_the_browsers(store: Store) -> None:
    """Behind a proxy that ends TLS, the browser's page is https: its Origin is this
    server's own only as the proxy says."""
    body = {"game": "tictactoe"}
    headers = {"Origin": "https://testserver", "X-Forwarded-Proto": "https"}
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS,
                     trusted_proxies=[PROXY])
    with TestClient(app, client=(PROXY, 40000)) as proxied:
        stranger = TestClient(app, client=("198.51.100.9", 40000))  # the same app's
        assert proxied.post("/api/games", json=body, headers=headers).status_code == 201
        assert stranger.post("/api/games", json=body, headers=headers).status_code == 403


def test_a_client_relayed_by_a_local_proxy_is_not_on_this_machine(store: Store) -> None:
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=TEST_HOSTS,
                     trusted_proxies=["127.0.0.1"])
    with TestClient(app, client=("127.0.0.1", 40000)) as client:
        relayed = client.get("/api/backup", headers={"X-Forwarded-For": "203.0.113.5"})
        assert relayed.status_code == 403  # a backup holds every deal: this machine only
        assert client.get("/api/backup").status_code == 200  # nginx's own request


def metrics_status(url: str, forwarded_for: str) -> int:
    request = urllib.request.Request(f"{url}/metrics", headers={
        "X-Forwarded-For": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_the_server_believes_no_forwarding_header_unless_told_which_proxy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn would believe one from 127.0.0.1 by itself: the command line stops it."""
    untold = start_server(tmp_path / "a.sqlite3")
    try:  # a local client saying it is elsewhere is still on this machine
        assert metrics_status(untold.url, "203.0.113.5") == 200
    finally:
        untold.stop()
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXY", "127.0.0.1")
    told = start_server(tmp_path / "b.sqlite3")
    try:
        assert metrics_status(told.url, "203.0.113.5") == 403
    finally:
        told.stop()
