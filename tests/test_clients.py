"""Who is asking: a page gives its browser a player cookie once, and requests are known
by it (or, without one, by their address)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from starlette.requests import Request

from parlour.server.api.clients import PLAYER_COOKIE, client_of


def test_a_page_gives_a_player_cookie_once_and_only_to_this_site(client: TestClient) -> None:
    first = client.get("/")
    cookie = first.cookies.get(PLAYER_COOKIE)
    assert cookie and len(cookie) == 22
    header = first.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=strict" in header
    assert PLAYER_COOKIE not in client.get("/play/tictactoe").headers.get("set-cookie", "")


def test_every_page_gives_the_cookie_to_a_new_browser(client: TestClient) -> None:
    for path in ("/", "/stats", "/play/minesweeper", "/replay/abc"):
        client.cookies.clear()
        assert client.get(path).cookies.get(PLAYER_COOKIE), path


def request_with(cookie: str | None, host: str = "203.0.113.9") -> Request:
    headers = [(b"cookie", f"{PLAYER_COOKIE}={cookie}".encode())] if cookie else []
    return Request({"type": "http", "headers": headers, "client": (host, 5000)})


def test_a_client_is_its_player_cookie_or_else_its_address() -> None:
    player = "A" * 22
    assert client_of(request_with(player)).key == f"player:{player}"
    assert client_of(request_with(None)).key == "address:203.0.113.9"


def test_a_malformed_player_cookie_counts_as_none() -> None:
    for forged in ("short", "A" * 23, "A" * 21 + "!", "x" * 4000):
        assert client_of(request_with(forged)).key == "address:203.0.113.9"
