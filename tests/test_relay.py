"""The relay between two processes on a real Redis bus: what a request forwarded to the
game's owner is answered when the owner works long, falls silent or works past the longest
wait (tests/test_hosted_processes.py plays whole games through it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from parlour.server.hosted import relay as relay_module
from parlour.server.hosted.bus import Bus
from parlour.server.hosted.relay import Relay, Scope
from tests.support.loops import run_async
from tests.support.redis import RedisServer

GAME_PATH = "/api/games/G4me/moves"


class SlowOwner:
    """An owner's routes that carry a request out at once and answer `seconds` later (a
    move that then waits for the computers' turns)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.done: list[str] = []

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        await receive()
        self.done.append(scope["path"])
        await asyncio.sleep(self.seconds)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b'{"moves":1}'})


@contextlib.asynccontextmanager
async def two_processes(redis: RedisServer, owner_app: Any) -> AsyncIterator[Relay]:
    """The game's owner, whose routes are `owner_app`, and another process on the same
    bus: the relay of the other, which a client reached."""
    relays: list[Relay] = []
    buses: list[Bus] = []

    async def route_to_owner(sid: str, fresh: bool = False) -> str | None:
        return "owner"

    async def this_process(sid: str, fresh: bool = False) -> str | None:
        return None

    async def nobody_here(scope: Scope, receive: Any, send: Any) -> None:
        raise AssertionError("served by the process it reached, not by the game's owner")

    try:
        for name, app, route in (("owner", owner_app, this_process),
                                 ("elsewhere", nobody_here, route_to_owner)):
            bus = Bus(redis.url, name, lambda message: None)
            relays.append(Relay(app, route, bus, outer=None))
            buses.append(bus)
            await bus.start()
        yield relays[1]
    finally:
        for relay in relays:
            await relay.close()
        for bus in buses:
            await bus.stop()


async def forwarded_move(redis: RedisServer, owner_app: SlowOwner) -> tuple[int, dict[str, Any]]:
    """POST a move to the process that does not play the game: its status and body."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b'{"move": "a1"}', "more_body": False}

    async def send(event: dict[str, Any]) -> None:
        sent.append(event)

    scope = {"type": "http", "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": GAME_PATH, "raw_path": GAME_PATH.encode(), "query_string": b"",
             "root_path": "", "headers": [], "client": ("127.0.0.1", 1), "server": None}
    async with two_processes(redis, owner_app) as elsewhere:
        await elsewhere(scope, receive, send)
    body = b"".join(e.get("body", b"") for e in sent if e["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


def test_a_forwarded_request_is_answered_by_its_owner(redis: RedisServer) -> None:
    owner = SlowOwner(0.05)
    status, body = run_async(forwarded_move(redis, owner))
    assert (status, body, owner.done) == (200, {"moves": 1}, [GAME_PATH])


def test_an_owner_that_keeps_working_is_waited_for(
        redis: RedisServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move that waits for the computers' turns answers long after ANSWER_SECONDS: the
    owner says it is working, so the player gets its answer, as on the owner itself."""
    monkeypatch.setattr(relay_module, "ANSWER_SECONDS", 0.4)
    monkeypatch.setattr(relay_module, "WORKING_SECONDS", 0.1)
    owner = SlowOwner(1.5)
    status, body = run_async(forwarded_move(redis, owner))
    assert (status, body, owner.done) == (200, {"moves": 1}, [GAME_PATH])


@pytest.mark.parametrize("why", ["silent", "past the longest wait"])
def test_an_owner_that_does_not_answer_is_never_said_to_have_done_nothing(
        redis: RedisServer, monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    """The owner carried the move out but did not answer, silent (it says nothing while
    it works) or working past MOST_SECONDS: the 503 must not tell the player that nothing
    was done (they would play it twice)."""
    monkeypatch.setattr(relay_module, "ANSWER_SECONDS", 0.3)
    if why == "silent":
        monkeypatch.setattr(relay_module, "WORKING_SECONDS", 60.0)
    else:
        monkeypatch.setattr(relay_module, "WORKING_SECONDS", 0.1)
        monkeypatch.setattr(relay_module, "MOST_SECONDS", 0.6)
    owner = SlowOwner(1.5)
    status, body = run_async(forwarded_move(redis, owner))
    assert owner.done == [GAME_PATH]
    assert status == 503
    assert "may have been done" in body["error"] and "nothing was done" not in body["error"]


async def forwarded_socket(redis: RedisServer, owner_app: Any, seconds: float) -> list[Any]:
    """A WebSocket that reached the process not playing the game: the events its client
    is sent within `seconds` (the client says nothing after connecting, then leaves)."""
    sent: list[Any] = []
    connected = False
    client_gone = asyncio.Event()

    async def receive() -> dict[str, Any]:
        nonlocal connected
        if not connected:
            connected = True
            return {"type": "websocket.connect"}
        await client_gone.wait()
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(event: dict[str, Any]) -> None:
        sent.append(event)

    path = "/ws/G4me"
    scope = {"type": "websocket", "http_version": "1.1", "scheme": "ws", "path": path,
             "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": [],
             "client": ("127.0.0.1", 1), "server": None, "subprotocols": []}
    async with two_processes(redis, owner_app) as elsewhere:
        serving = asyncio.create_task(elsewhere(scope, receive, send))
        await asyncio.wait({serving}, timeout=seconds)
        within = list(sent)
        client_gone.set()
        await asyncio.wait({serving}, timeout=2)
    return within


def test_a_socket_its_owner_ends_without_closing_is_closed_for_its_client_too(
        redis: RedisServer) -> None:
    """The owner's routes return without closing the socket: they dropped its viewer (a
    game taken over by another process, a client that stopped reading). A server then
    closes the connection, so the browser reconnects; a forwarded socket's client was
    left open, sent nothing more, for good (a page watching froze)."""

    async def drops_its_viewer(scope: Scope, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": '{"view": {"moves": 0}}'})

    sent = run_async(forwarded_socket(redis, drops_its_viewer, 1.5))
    assert [event["type"] for event in sent] == [
        "websocket.accept", "websocket.send", "websocket.close"]
    assert sent[-1]["code"] < 4400  # not final: the browser reconnects (connection.js)
