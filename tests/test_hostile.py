"""A client that means harm: huge bodies, other sites, spectators after secrets, odd
frames and bytes. Each is refused with `{"error": ...}` and the right status, and
nothing it may not know reaches it."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketDisconnect

from parlour.games import GAMES
from parlour.server.api.guard import Guard
from parlour.server.api.socket import MESSAGES_WAITING
from parlour.server.app import create_app
from parlour.server.hub import core as hub_module
from parlour.server.hub.core import Hub
from parlour.server.hub.viewers import Viewer
from parlour.store.sqlite import SqliteStore as Store
from tests.support.loops import run_async
from tests.test_api import (
    CROSS_WINS,
    auth,
    error_of,
    get_view,
    new_game,
    open_socket,
    play_out,
    two_humans,
)

BIG = 20 * 2**20


def minesweeper(client: TestClient, **params: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"game": "minesweeper", "params": params})
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


# -- 2. bodies --------------------------------------------------------------------------
def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    created = new_game(client)
    body = b'{"move": "' + b"x" * BIG + b'"}'
    started = time.perf_counter()
    reply = client.post(f"/api/games/{created['session']}/moves", content=body,
                        headers={**auth(created["token"]), "Content-Type": "application/json"})
    assert "16 KiB" in error_of(reply, 413)
    assert time.perf_counter() - started < 2


def test_a_body_declared_one_byte_over_the_limit_is_refused_unread(client: TestClient
                                                                    ) -> None:
    created = new_game(client)
    limit = 16 * 1024
    headers = {**auth(created["token"]), "Content-Type": "application/json"}
    at_limit = b'{"move": "' + b"x" * (limit - 13) + b'"}'
    assert len(at_limit) == limit - 1
    for body, refused in ((at_limit + b" ", False), (at_limit + b"  ", True)):
        reply = client.post(f"/api/games/{created['session']}/moves", content=body,
                            headers=headers)
        assert (reply.status_code == 413) is refused, reply.text
    reply = client.post(f"/api/games/{created['session']}/leave", content=b"x" * 2**20,
                        headers=headers)  # a route that reads no body at all
    assert "16 KiB" in error_of(reply, 413)


def test_a_huge_body_sent_in_chunks_is_refused_too(client: TestClient) -> None:
    def chunks() -> Any:
        yield b'{"game": "tictactoe", "id": "'
        for _ in range(64):
            yield b"x" * 2**16

    reply = client.post("/api/games", content=chunks(),
                        headers={"Content-Type": "application/json"})
    error_of(reply, 413)


async def asgi_request(headers: list[tuple[bytes, bytes]], chunks: int = 0
                       ) -> tuple[int, dict[str, Any]]:
    """A POST to /api/games through the guard alone, at the ASGI level (the test client
    adds a Host and joins chunks into one): its body `chunks` of 1 KiB, sent one by one.
    The status and JSON body answered, or the guard's HTTPException raised. The app
    behind answers 201 with no headers (ASGI lets it leave them out): the guard's
    security headers must be added all the same."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 201})
        await send({"type": "http.response.body", "body": b"{}"})

    messages = [{"type": "http.request", "body": b"x" * 1024, "more_body": True}] * chunks
    messages.append({"type": "http.request", "body": b"", "more_body": False})
    answered: list[Any] = []

    async def receive() -> Any:
        return messages.pop(0)

    async def send(message: Any) -> None:
        answered.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "scheme": "http",
             "headers": headers}
    await Guard(app, ["testserver"])(scope, receive, send)
    assert (b"x-content-type-options", b"nosniff") in answered[0]["headers"]
    return answered[0]["status"], json.loads(answered[1]["body"])


def test_small_chunks_are_added_up_against_the_limit() -> None:
    streamed = [(b"host", b"testserver"), (b"content-type", b"application/json"),
                (b"transfer-encoding", b"chunked")]
    assert run_async(asgi_request(streamed, chunks=16))[0] == 201  # together at the 16 KiB
    with pytest.raises(HTTPException) as refused:
        run_async(asgi_request(streamed, chunks=17))  # together over it
    assert (refused.value.status_code, refused.value.detail) == (
        413, "The request body may be at most 16 KiB")


def test_a_streamed_body_of_no_type_is_refused_as_untyped() -> None:
    streamed = [(b"host", b"testserver"), (b"transfer-encoding", b"chunked")]
    assert run_async(asgi_request(streamed, chunks=1)) == (
        415, {"error": "The body must be application/json, not untyped"})


def test_a_request_that_names_no_host_is_refused() -> None:
    """Only HTTP/1.0 may leave the Host out: this server answers to named hosts only."""
    answer = run_async(asgi_request([(b"content-type", b"application/json")]))
    assert answer == (400, {"error": "This server does not answer to the host ''"})


def test_a_huge_upload_is_refused(client: TestClient) -> None:
    reply = client.post("/api/uploads", content=b"\x89PNG" + b"\x00" * (5 * 2**20),
                        headers={"Content-Type": "image/png"})
    assert error_of(reply, 413) == "The request body may be at most 4 MiB"


def test_a_huge_websocket_message_closes_the_socket(client: TestClient) -> None:
    created = new_game(client)
    with open_socket(client, created["session"], created["token"]) as socket:
        assert socket.receive_json()["type"] == "view"
        socket.send_text(json.dumps({"type": "move", "move": "x" * 40_000}))
        assert "16 KiB" in socket.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1009


# -- 3. other sites -----------------------------------------------------------------------
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example"])
def test_a_host_the_server_does_not_serve_is_refused(client: TestClient, host: str) -> None:
    for reply in (client.get("/api/sessions", headers={"Host": host}),
                  client.post("/api/games", json={"game": "tictactoe"}, headers={"Host": host}),
                  client.get("/", headers={"Host": host})):
        assert "host" in error_of(reply, 400)


def test_local_hosts_are_served(store: Store) -> None:
    with TestClient(create_app(store, GAMES), base_url="http://127.0.0.1:8765") as local:
        assert local.get("/api/sessions").status_code == 200
        assert local.get("/api/sessions", headers={"Host": "localhost:8765"}).status_code == 200
        assert local.get("/api/sessions", headers={"Host": "[::1]:8765"}).status_code == 200
        assert local.get("/api/sessions", headers={"Host": "testserver"}).status_code == 400


def test_state_changing_requests_from_another_site_are_refused(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    sid = created["session"]
    evil = {"Origin": "http://evil.example"}
    error_of(client.post("/api/games", json={"game": "tictactoe"}, headers=evil), 403)
    error_of(client.post(f"/api/games/{sid}/join", headers=evil), 403)
    error_of(client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}},
                         headers={**evil, **auth(created["token"])}), 403)
    cross = {"Sec-Fetch-Site": "cross-site"}
    error_of(client.post(f"/api/games/{sid}/join", headers=cross), 403)
    same = {"Origin": "http://testserver"}
    assert client.post(f"/api/games/{sid}/join", headers=same).status_code == 200


@pytest.mark.parametrize("origin", ["http://testserver:8080", "https://testserver",
                                    "http://testserver.evil.example", "null"])
def test_a_page_on_another_port_or_scheme_is_another_site(client: TestClient, origin: str
                                                           ) -> None:
    created = new_game(client, seats=["human", "open"])
    sid = created["session"]
    other = {"Origin": origin, "Sec-Fetch-Site": "same-site"}  # what a browser sends
    error_of(client.post("/api/games", json={"game": "tictactoe"}, headers=other), 403)
    error_of(client.post(f"/api/games/{sid}/moves", json={"move": {"cell": [0, 0]}},
                         headers={**other, **auth(created["token"])}), 403)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/{sid}", headers={"Origin": origin}) as socket,
    ):
        socket.receive_json()
    same = {"Origin": "http://testserver:80", "Sec-Fetch-Site": "same-origin"}
    assert client.post(f"/api/games/{sid}/join", headers=same).status_code == 200


def test_a_websocket_from_another_site_is_refused(client: TestClient) -> None:
    created = new_game(client)
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/{created['session']}",
                                 headers={"Origin": "http://evil.example"}) as socket,
    ):
        socket.receive_json()


@pytest.mark.parametrize("path", ["/api/uploads", "/api/games"])
def test_a_plain_text_post_is_refused(client: TestClient, path: str) -> None:
    reply = client.post(path, content=b'{"game": "tictactoe"}',
                        headers={"Content-Type": "text/plain"})
    assert "text/plain" in error_of(reply, 415)
    assert client.get("/api/sessions").json() == []


def test_a_body_of_no_type_is_refused_as_untyped(client: TestClient) -> None:
    reply = client.post("/api/games", content=b'{"game": "tictactoe"}')
    assert error_of(reply, 415) == "The body must be application/json, not untyped"
    reply = client.post("/api/uploads", content=b"\x89PNG")
    assert error_of(reply, 415) == (
        "The body must be image/png or image/jpeg or image/webp, not untyped")


def test_a_json_body_may_name_its_character_set(client: TestClient) -> None:
    reply = client.post("/api/games", content=b'{"game": "tictactoe"}',
                        headers={"Content-Type": "application/json; charset=utf-8"})
    assert reply.status_code == 201, reply.text


# -- 6. hidden information --------------------------------------------------------------
def seed_of(game_id: str) -> str:
    return game_id.rpartition("#")[2]


def test_no_one_but_the_owner_is_sent_the_id_while_the_game_is_on(client: TestClient) -> None:
    created = minesweeper(client, rows=9, cols=9, mines=10)
    sid, token, seed = created["session"], created["token"], seed_of(created["id"])
    client.post(f"/api/games/{sid}/moves", json={"move": {"open": [4, 4]}},
                headers=auth(token)).raise_for_status()
    spectator = client.get(f"/api/games/{sid}")
    assert spectator.json()["id"] is None
    assert seed not in spectator.text
    assert seed not in client.get("/api/sessions").text
    with open_socket(client, sid) as socket:
        assert seed not in json.dumps(socket.receive_json())
    with open_socket(client, sid, "not-a-token") as socket:
        assert socket.receive_json()["view"]["id"] is None
    assert client.get(f"/api/games/{sid}", headers=auth(token)).json()["id"] == created["id"]
    with open_socket(client, sid, token) as socket:
        assert socket.receive_json()["view"]["id"] == created["id"]


def test_a_player_who_joined_is_not_sent_the_id(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    joined = client.post(f"/api/games/{created['session']}/join").json()
    assert joined["token"] and joined["view"]["id"] is None
    view = client.get(f"/api/games/{created['session']}", headers=auth(joined["token"])).json()
    assert view["id"] is None


def test_the_id_is_public_once_the_game_is_over(client: TestClient) -> None:
    sid, token = two_humans(client)
    owner_id = client.get(f"/api/games/{sid}", headers=auth(token)).json()["id"]
    assert client.get(f"/api/games/{sid}").json()["id"] is None
    play_out(client, sid, token, CROSS_WINS)
    assert client.get(f"/api/games/{sid}").json()["id"] == owner_id


# -- 8. the error contract ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"[" * 5000 + b"]" * 5000, 400),  # nesting deeper than the parser goes
        (b'{"move": {"cell": [' + b"9" * 5000 + b', 0]}}', 400),  # over 4 300 digits
        (b'{"move": "\xff\xfe"}', 400),  # not UTF-8
        (b'{"move": ', 422),
    ],
    ids=["deep", "long-integer", "invalid-utf8", "cut-short"],
)
def test_unreadable_bodies_are_clear_errors(client: TestClient, body: bytes, status: int) -> None:
    created = new_game(client)
    reply = client.post(f"/api/games/{created['session']}/moves", content=body,
                        headers={**auth(created["token"]), "Content-Type": "application/json"})
    error_of(reply, status)


def test_unknown_routes_and_methods_are_errors_too(client: TestClient) -> None:
    assert "No such" in error_of(client.get("/api/nothing-here"), 404)
    assert "not allowed" in error_of(client.delete("/api/catalog"), 405)
    assert "Unknown game" in error_of(client.get("/api/stats", params={"game": ""}), 404)


def test_the_openapi_document_lists_every_status_a_route_answers(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"400", "404", "500"} <= set(paths["/api/stats"]["get"]["responses"])
    moves = set(paths["/api/games/{sid}/moves"]["post"]["responses"])
    assert {"200", "400", "401", "403", "404", "409", "413", "415", "422", "503"} <= moves
    assert {"413", "415", "429"} <= set(paths["/api/uploads"]["post"]["responses"])


def test_a_binary_frame_is_answered_and_closed_with_a_code(client: TestClient) -> None:
    created = new_game(client)
    with open_socket(client, created["session"], created["token"]) as socket:
        assert socket.receive_json()["type"] == "view"
        socket.send_bytes(b'{"type": "undo"}')
        assert "binary" in socket.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1003


def test_the_token_goes_in_the_first_message_not_the_url(client: TestClient) -> None:
    created = new_game(client)
    sid, token = created["session"], created["token"]
    with client.websocket_connect(f"/ws/{sid}?token={token}") as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json()["view"]["you"] == []  # the URL's token is ignored
    with open_socket(client, sid, token) as socket:
        assert socket.receive_json()["view"]["you"] == [0]
    with client.websocket_connect(f"/ws/{sid}") as socket:
        socket.send_json({"type": "move", "move": {"cell": [0, 0]}})
        assert "hello" in socket.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008


def lagging(client: TestClient, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """The app's hub takes `seconds` more over each action, as a loaded machine does."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    act = hub.act

    async def late(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await act(*args, **kwargs)

    monkeypatch.setattr(hub, "act", late)


def test_a_burst_of_moves_quicker_than_the_server_is_played_in_full_and_in_order(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quick player's clicks while the server lags (a loaded machine) wait their turn,
    in order: none is dropped (the 17th once was)."""
    created = minesweeper(client, rows=16, cols=30, mines=99)
    sid, token = created["session"], created["token"]
    lagging(client, monkeypatch, 0.005)
    cells = [(row, col) for row in range(2) for col in range(30)]
    with open_socket(client, sid, token) as socket:
        assert socket.receive_json()["type"] == "view"
        for row, col in cells:
            socket.send_json({"type": "move", "move": {"mark": [row, col]}})
        socket.send_json({"type": "move", "move": {"mark": [99, 0]}})  # refused, last
        told = socket.receive_json()
        while "error" not in told:
            told = socket.receive_json()
        assert "99" in told["error"] or "board" in told["error"], told
    html = get_view(client, sid, token)["html"]
    assert html.count(": flagged") == len(cells)


def test_a_flood_of_messages_past_what_may_wait_closes_its_socket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = minesweeper(client, rows=16, cols=30, mines=99)
    lagging(client, monkeypatch, 0.5)
    with open_socket(client, created["session"], created["token"]) as socket:
        assert socket.receive_json()["type"] == "view"
        for _ in range(MESSAGES_WAITING + 2):
            socket.send_json({"type": "move", "move": {"mark": [0, 0]}})
        told = socket.receive_json()
        while "error" not in told:
            told = socket.receive_json()
        assert told["error"].startswith(f"More than {MESSAGES_WAITING} messages waiting")
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == 1008


# -- 1 and 4. viewers that stall, sessions nobody uses ------------------------------------
def test_a_viewer_that_stops_reading_is_dropped_and_never_waited_for() -> None:
    async def scenario() -> None:
        stuck = asyncio.Event()
        sent: list[Any] = []

        async def never_done(message: Any) -> None:
            sent.append(message)
            await stuck.wait()

        viewer = Viewer(frozenset(), never_done, send_timeout=0.2)
        started = time.perf_counter()
        for number in range(1000):
            viewer.show({"html": f"<p>{number}</p>", "n": number})  # returns at once
        assert time.perf_counter() - started < 0.1
        await asyncio.wait_for(viewer.dropped.wait(), 2)
        assert len(sent) == 1  # one send was tried; the rest were replaced, not queued

    run_async(scenario())


def test_a_slow_viewer_gets_the_latest_view_not_every_one() -> None:
    async def scenario() -> None:
        sent: list[Any] = []

        async def slow(message: Any) -> None:
            sent.append(json.loads(message)["view"]["n"])
            await asyncio.sleep(0.05)

        viewer = Viewer(frozenset(), slow)
        for number in range(50):
            viewer.show({"html": "<p></p>", "n": number})
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.2)
        assert sent[-1] == 49 and len(sent) < 15
        viewer.close()

    run_async(scenario())


def crowded_hub(client: TestClient, monkeypatch: pytest.MonkeyPatch, most: int) -> Hub:
    """The client's hub, letting go of idle games as soon as more than `most` are kept."""
    monkeypatch.setattr(hub_module, "MAX_LIVE", most)
    monkeypatch.setattr(hub_module, "GRACE_SECONDS", 0.0)
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def test_idle_sessions_leave_memory_and_come_back_as_they_were(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = crowded_hub(client, monkeypatch, 3)
    games = [new_game(client, seats=["human", "human"]) for _ in range(3)]
    first = games[0]
    client.post(f"/api/games/{first['session']}/moves", json={"move": {"cell": [1, 1]}},
                headers=auth(first["token"])).raise_for_status()
    before = client.get(f"/api/games/{first['session']}", headers=auth(first["token"])).json()
    for _ in range(10):
        new_game(client)
    assert len(hub.live) <= 4
    assert first["session"] not in hub.live
    again = client.get(f"/api/games/{first['session']}", headers=auth(first["token"])).json()
    assert {k: v for k, v in again.items() if k != "elapsed_ms"} == {
        k: v for k, v in before.items() if k != "elapsed_ms"
    }


def test_a_session_with_a_viewer_stays_in_memory(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = crowded_hub(client, monkeypatch, 1)
    watched = new_game(client)
    with open_socket(client, watched["session"]) as socket:
        socket.receive_json()
        for _ in range(5):
            new_game(client)
        assert watched["session"] in hub.live


@pytest.mark.parametrize("served", ["http://testserver", "https://testserver"])
def test_a_websocket_from_a_page_of_this_server_is_served(store: Store, served: str) -> None:
    app = create_app(store, GAMES, ai_delay_scale=0, allowed_hosts=("testserver",))
    socket_url = served.replace("http", "ws", 1)  # the page's sockets: ws:// or wss://
    with TestClient(app, base_url=served) as client:
        created = new_game(client)
        with client.websocket_connect(f"{socket_url}/ws/{created['session']}",
                                      headers={"Origin": served}) as socket:
            socket.send_json({"type": "hello", "token": created["token"]})
            assert socket.receive_json()["type"] == "view"


def test_the_guards_refusals_are_json_and_say_so(client: TestClient) -> None:
    for reply in (client.get("/api/sessions", headers={"Host": "evil.example"}),
                  client.post("/api/games", content=b"x" * 2**20,
                              headers={"Content-Type": "application/json"})):
        assert reply.headers["content-type"] == "application/json"
        assert reply.headers["x-content-type-options"] == "nosniff"
        # the length it declares is its body's: a client reads the whole reason, no more
        assert int(reply.headers["content-length"]) == len(reply.content)
        error_of(reply, reply.status_code)


def test_each_refusal_says_why_in_a_sentence(client: TestClient) -> None:
    created = new_game(client, seats=["human", "open"])
    sid = created["session"]
    long_host = "evil.example" + "x" * 200
    assert error_of(client.get("/api/sessions", headers={"Host": long_host}), 400) == (
        f"This server does not answer to the host {long_host[:100]!r}")
    assert error_of(client.post(f"/api/games/{sid}/join",
                                headers={"Origin": "http://evil.example"}), 403) == (
        "Requests from other sites are refused")
    assert error_of(client.post(f"/api/games/{sid}/join",
                                headers={"Sec-Fetch-Site": "cross-site"}), 403) == (
        "Requests from other sites are refused")
    for heavy in ({"Sec-Fetch-Site": "same-site"}, {"Origin": "http://evil.example"}):
        assert error_of(client.get("/api/stats", headers=heavy), 403) == (
            "This read is answered only to this server's own pages")


def test_a_websocket_from_another_site_is_closed_as_a_policy_refusal(client: TestClient
                                                                    ) -> None:
    created = new_game(client)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/{created['session']}",
                                 headers={"Origin": "http://evil.example"}) as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 1008
    assert closed.value.reason == "Requests from other sites are refused"


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    created = new_game(client)
    for reply in (client.get("/api/sessions"), client.get("/"),
                  client.post(f"/api/games/{created['session']}/moves",
                              json={"move": {"cell": [0, 0]}}, headers=auth(created["token"]))):
        assert reply.status_code == 200, reply.text
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert reply.headers["referrer-policy"] == "same-origin"
        assert reply.headers["x-frame-options"] == "SAMEORIGIN"


def test_a_host_list_may_name_ipv6_in_brackets(store: Store) -> None:
    app = create_app(store, GAMES, allowed_hosts=["[::1]"])
    with TestClient(app, base_url="http://[::1]:8765") as local:
        assert local.get("/api/sessions").status_code == 200


def test_a_server_started_for_any_host_answers_every_host(store: Store) -> None:
    with TestClient(create_app(store, GAMES, allowed_hosts=["*"])) as anywhere:
        assert anywhere.get("/api/sessions", headers={"Host": "parlour.example"}
                            ).status_code == 200
