"""The relay: a request or a WebSocket for a game another process plays is carried to
that process over the bus, and its answer back, so any process may take any request.

It is ASGI middleware, inside the guard and the pacing (the process a client reached
checks and paces it) and outside the routes. For a path that names a game (`game_of`)
it asks the ownership who plays it: this process (it may take the game over on the
spot), or another, to which the request goes as its ASGI events: an HTTP request whole
(its body is small: the guard bounds it), its answer whole; a WebSocket event by event,
each way, numbered. The owner runs the request through its own routes as if a client
had sent it there, so every capability works the same in each process; while it works
on a request it says so, so a move that waits minutes for the computers' turns is
answered as it would be on the owner.

Each forwarded socket carries one viewer's own messages, so a viewer on another process
is sent exactly what it would be sent on the owner (nothing of a seat it does not hold),
and the owner's bounded outbox still drops a viewer that cannot keep up (the relay
queues a bounded number of messages for its client, and drops one that falls behind).
A gap in the numbers, a bus that reconnected or a process gone silent ends a forwarded
socket: the browser reconnects, and reads the game afresh from whoever plays it then.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from parlour.server.hosted.bus import Bus, BusDown, Message

log = logging.getLogger("parlour")

Scope = MutableMapping[str, Any]
Event = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Event]]
Send = Callable[[Event], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

ANSWER_SECONDS = 10.0
"""A forwarded request whose owner says nothing for this long is answered 503."""
WORKING_SECONDS = 2.0
"""How often an owner still carrying out a forwarded request says so ("working"): a move
that waits for the computers' turns may take minutes at the pace its watchers chose, and
is answered then, as it would be on the owner itself."""
MOST_SECONDS = 600.0
"""The longest a forwarded request is waited for, however busy its owner says it is (a
move waits for every computer turn it sets off, at the pace its watchers chose: a few
minutes at most in the shipped games)."""
QUEUED = 256
"""Events a forwarded socket holds for its far end before it is dropped as too slow."""
WATCH_SECONDS = 0.5
ENDED_BY_OWNER: Event = {"type": "websocket.close", "code": 1012,
                         "reason": "the game's server ended this connection: reconnect"}
"""Sent to a forwarded socket's client when the owner's routes end without closing it
(1012, "service restart": not final, so the browser reconnects)."""
REROUTE_SECONDS = 0.25

_GAME_PATH = re.compile(r"^/(?:ws|api/games|api/links/session)/([A-Za-z0-9_-]{1,64})(?:/|$)")
NOT_GAMES = frozenset({"import"})  # /api/games/import makes a game, it names none
_SCOPE_KEYS = ("type", "http_version", "method", "scheme", "path", "query_string",
               "root_path", "client", "server", "subprotocols")


def game_of(path: str) -> str | None:
    """The game a request's path names (a session id), if it names one."""
    found = _GAME_PATH.match(path)
    if found is None or found.group(1) in NOT_GAMES:
        return None
    return found.group(1)


class Route(Protocol):
    async def __call__(self, sid: str, fresh: bool = False) -> str | None:
        """Who plays game `sid`: None for this process, or another process's id (`fresh`:
        asked of the database, not remembered)."""


@dataclass
class _Socket:
    """A forwarded WebSocket's events from its far end, in order (`seq` expected next)."""

    peer: str
    events: asyncio.Queue[Event] = field(default_factory=lambda: asyncio.Queue(QUEUED))
    seq: int = 0

    def put(self, event: Event) -> None:
        """Queue `event`; a far end too far ahead ends the socket (it reconnects)."""
        try:
            self.events.put_nowait(event)
        except asyncio.QueueFull:
            self.end(1013, "too many messages waiting")

    def end(self, code: int, reason: str) -> None:
        """End the socket: what is still queued is dropped, and its reader told."""
        while not self.events.empty():
            self.events.get_nowait()
        self.events.put_nowait({"type": "parlour.end", "code": code, "reason": reason})


class Relay:
    """The middleware. `route` decides, `bus` carries; `app` (set by Starlette) is the
    routes, which also serve what other processes forward here."""

    def __init__(self, app: App, route: Route, bus: Bus, outer: Any) -> None:
        self.app = app
        self.route = route
        self.bus = bus
        self.outer = outer  # the FastAPI app: forwarded scopes name it, as Starlette does
        self.me = bus.process
        self._answers: dict[str, asyncio.Future[Message]] = {}
        self._heard: dict[str, float] = {}  # when each owner last said it was working
        self._sockets: dict[str, _Socket] = {}  # forwarded sockets, at either end
        self._serving: set[asyncio.Task[None]] = set()
        bus.receive = self.receive
        bus.on_gap = self.end_all
        self._watch = asyncio.get_running_loop().create_task(self._watch_peers())

    # -- a request that came to this process ------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        sid = game_of(scope["path"]) if scope["type"] in ("http", "websocket") else None
        try:
            owner = await self.route(sid) if sid else None
        except Exception as error:  # the database is away: nobody can say who plays it
            log.warning("who plays %s is unknown: %s", sid, error)
            await _unavailable(scope, send)
            return
        if sid is None or owner is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":  # read once: it may be served here after all
            receive = _Replaying({"type": "http.request", "more_body": False,
                                  "body": await _whole_body(receive)}, receive)
        else:
            receive = _Replaying(await receive(), receive)  # websocket.connect
        await self._forward(sid, owner, scope, receive, send)

    async def _forward(self, sid: str, owner: str, scope: Scope, receive: _Replaying,
                       send: Send) -> None:
        """Forward to `owner`. An owner no longer on the bus (a process that died) is
        sent nothing: its lease is asked for again until it expires, when this process
        takes the game over and serves the request itself. Without the bus, 503 at once."""
        deadline = asyncio.get_running_loop().time() + ANSWER_SECONDS
        while True:
            try:
                if scope["type"] == "http":
                    delivered = await self._forward_request(owner, scope, receive.first, send)
                else:
                    delivered = await self._forward_socket(owner, scope, receive, send)
            except BusDown:
                delivered = False
            if delivered:
                return
            if not self.bus.connected.is_set() or asyncio.get_running_loop().time() > deadline:
                await _unavailable(scope, send)
                return
            await asyncio.sleep(REROUTE_SECONDS)
            try:
                rerouted = await self.route(sid, fresh=True)
            except Exception:
                await _unavailable(scope, send)
                return
            if rerouted is None:
                await self.app(scope, receive.again(), send)
                return
            owner = rerouted

    async def _forward_request(self, owner: str, scope: Scope, request: Event, send: Send
                               ) -> bool:
        """Whether `owner` was reached (then the client has its answer, or a 503)."""
        ask = secrets.token_hex(8)
        answer = asyncio.get_running_loop().create_future()
        self._answers[ask] = answer
        reached = await self._reached(owner, {
            "kind": "request", "id": ask, "from": self.me, "scope": _scope_out(scope),
            "body": _b64(request["body"])})
        try:
            if not reached:
                return False
            reply = await self._answer(owner, ask, answer)
        except (BusDown, TimeoutError):
            # the owner had the request: it may have carried it out (and gone silent, or
            # died, before it answered), so "nothing was done" would lie
            await _unavailable(scope, send, UNANSWERED)
            return True
        finally:  # the request's bookkeeping, kept while its answer was awaited
            self._answers.pop(ask, None)
            self._heard.pop(ask, None)
        await send({"type": "http.response.start", "status": reply["status"],
                    "headers": _headers_in(reply["headers"])})
        await send({"type": "http.response.body", "body": _bytes(reply["body"])})
        return True

    async def _reached(self, owner: str, message: Message) -> bool:
        """Send a request's first message: whether `owner` was listening (if not, or
        without the bus, nothing was done there, and it may be asked elsewhere)."""
        try:
            return await self.bus.send(owner, message)
        except BusDown:
            return False

    async def _answer(self, owner: str, ask: str, answer: asyncio.Future[Message]
                      ) -> Message:
        """`owner`'s answer to request `ask`. TimeoutError once the owner has been silent
        for ANSWER_SECONDS (it says "working" while it works), after MOST_SECONDS, or once
        it has died: what it was asked may have been done, so it is not asked elsewhere."""
        clock = asyncio.get_running_loop().time
        started = self._heard[ask] = clock()
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(answer), WATCH_SECONDS)
            except TimeoutError:
                now = clock()
                if (now > self._heard[ask] + ANSWER_SECONDS or now > started + MOST_SECONDS
                        or owner not in await self.bus.alive([owner])):
                    raise

    async def _forward_socket(self, owner: str, scope: Scope, receive: Receive,
                              send: Send) -> bool:
        """Whether `owner` was reached (then the socket has been served, to its end)."""
        conn = secrets.token_hex(8)
        socket = self._sockets[conn] = _Socket(owner)
        try:
            if not await self._reached(owner, {
                    "kind": "socket", "conn": conn, "from": self.me, "scope": _scope_out(scope)}):
                return False
            reading = asyncio.create_task(self._client_to_owner(conn, owner, receive))
            try:
                await self._owner_to_client(socket, send)
            finally:
                reading.cancel()
            await self.bus.send(owner, {"kind": "event", "conn": conn, "seq": -1,
                                        "event": {"type": "websocket.disconnect", "code": 1001}})
        except BusDown:
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": 1011})
        finally:
            del self._sockets[conn]
        return True

    async def _client_to_owner(self, conn: str, owner: str, receive: Receive) -> None:
        seq = 0
        while True:
            event = await receive()
            if event["type"] == "websocket.connect":
                continue  # the owner's routes are told of it by the "socket" message
            await self.bus.send(owner, {"kind": "event", "conn": conn, "seq": seq,
                                        "event": _event_out(event)})
            seq += 1
            if event["type"] == "websocket.disconnect":
                self._sockets[conn].end(1000, "gone")  # its reader stops too
                return

    async def _owner_to_client(self, socket: _Socket, send: Send) -> None:
        accepted = False
        while True:
            try:
                event = await asyncio.wait_for(socket.events.get(),
                                               None if accepted else ANSWER_SECONDS)
            except TimeoutError:
                event = {"type": "parlour.end", "code": 1011, "reason": "no answer"}
            if event["type"] == "parlour.end":
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": event["code"],
                                "reason": event["reason"]})
                return
            accepted = accepted or event["type"] == "websocket.accept"
            await send(event)
            if event["type"] == "websocket.close":
                return

    # -- what comes over the bus ------------------------------------------------------
    def receive(self, message: Message) -> None:
        kind = message.get("kind")
        if kind == "answer":
            answer = self._answers.get(message["id"])
            if answer is not None and not answer.done():
                answer.set_result(message)
        elif kind == "working":
            if message["id"] in self._heard:
                self._heard[message["id"]] = asyncio.get_running_loop().time()
        elif kind == "event":
            self._event(message)
        elif kind in ("request", "socket"):
            if kind == "socket":  # now: its first events may come before its task runs
                self._sockets[message["conn"]] = _Socket(message["from"])
                self._sockets[message["conn"]].put({"type": "websocket.connect"})
            serving = asyncio.create_task(self._serve(message))
            self._serving.add(serving)
            serving.add_done_callback(self._serving.discard)

    def _event(self, message: Message) -> None:
        socket = self._sockets.get(message["conn"])
        if socket is None:
            return
        seq = message["seq"]
        if seq >= 0 and seq != socket.seq:
            socket.end(1012, "a message was lost: reconnect")
            return
        socket.seq += 1
        socket.put(_event_in(message["event"]))

    async def _serve(self, message: Message) -> None:
        """Carry out what another process forwarded, through this process's routes."""
        scope = _scope_in(message["scope"], self.outer)
        try:
            if message["kind"] == "request":
                await self._serve_request(message, scope)
            else:
                await self._serve_socket(message, scope)
        except BusDown:
            log.warning("the answer to a forwarded request was lost: the bus is down")

    async def _serve_request(self, message: Message, scope: Scope) -> None:
        body = _bytes(message["body"])
        answer: Message = {"kind": "answer", "id": message["id"], "status": 500,
                           "headers": [], "body": ""}
        parts: list[bytes] = []
        sent = asyncio.Event()
        first = True

        async def receive() -> Event:
            nonlocal first
            if first:
                first = False
                return {"type": "http.request", "body": body, "more_body": False}
            await sent.wait()  # (the client never leaves early: it is another process)
            return {"type": "http.disconnect"}

        async def send(event: Event) -> None:
            if event["type"] == "http.response.start":
                answer["status"] = event["status"]
                answer["headers"] = _headers_out(event.get("headers", []))
            elif event["type"] == "http.response.body":
                parts.append(bytes(event.get("body", b"")))
                if not event.get("more_body"):
                    sent.set()

        await self._working_on(message, self.app(scope, receive, send))
        answer["body"] = _b64(b"".join(parts))
        await self.bus.send(message["from"], answer)

    async def _working_on(self, message: Message, carrying: Awaitable[None]) -> None:
        """Await `carrying`, telling the process that forwarded `message` every
        WORKING_SECONDS that it is still being carried out."""
        task = asyncio.ensure_future(carrying)
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=WORKING_SECONDS)
                if not task.done():  # (without the bus the work still goes on)
                    with contextlib.suppress(BusDown):
                        await self.bus.send(message["from"],
                                            {"kind": "working", "id": message["id"]})
            task.result()
        finally:
            task.cancel()

    async def _serve_socket(self, message: Message, scope: Scope) -> None:
        conn, peer = message["conn"], message["from"]
        socket = self._sockets[conn]  # (made as the message came: `receive`)
        seq = 0
        ended = False  # closed by the routes, or left by its client

        async def receive() -> Event:
            nonlocal ended
            event = await socket.events.get()
            if event["type"] == "parlour.end":
                event = {"type": "websocket.disconnect", "code": event["code"]}
            ended = ended or event["type"] == "websocket.disconnect"
            return event

        async def send(event: Event) -> None:
            nonlocal seq, ended
            ended = ended or event["type"] == "websocket.close"
            await self.bus.send(peer, {"kind": "event", "conn": conn, "seq": seq,
                                       "event": _event_out(event)})
            seq += 1

        try:
            await self.app(scope, receive, send)
        except BusDown:
            return  # its far end hears nothing more, and ends it (a gap, or silence)
        finally:
            self._sockets.pop(conn, None)
        if not ended:
            # The routes ended without closing: they dropped the viewer (its game taken
            # over by another process, a client that stopped reading). A server closes
            # the connection then, and the browser reconnects; the far end must close its
            # client's too, or the page is left open and sent nothing more, for good.
            with contextlib.suppress(BusDown):
                await send(ENDED_BY_OWNER)

    # -- endings ----------------------------------------------------------------------
    def end_all(self) -> None:
        """The bus lost its connection, or made it again: what it carried meanwhile is
        lost, so every forwarded socket ends (their browsers reconnect and read the game
        afresh)."""
        for socket in self._sockets.values():
            socket.end(1012, "the servers lost touch: reconnect")

    async def _watch_peers(self) -> None:
        """End the forwarded sockets whose far end has gone silent (a process that died
        says nothing)."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                alive = await self.bus.alive(s.peer for s in self._sockets.values())
                for socket in list(self._sockets.values()):
                    if socket.peer not in alive:
                        socket.end(1012, "the server playing this game is gone: reconnect")
            except Exception:
                log.exception("the relay's watch failed")

    async def close(self) -> None:
        self._watch.cancel()
        self.end_all()
        for serving in list(self._serving):
            serving.cancel()
        await asyncio.gather(self._watch, *self._serving, return_exceptions=True)


# -- ASGI events as JSON --------------------------------------------------------------
def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(text: str) -> bytes:
    return base64.b64decode(text)


def _headers_out(headers: Any) -> list[list[str]]:
    return [[bytes(k).decode("latin-1"), bytes(v).decode("latin-1")] for k, v in headers]


def _headers_in(headers: list[list[str]]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]


def _scope_out(scope: Scope) -> Message:
    sent = {key: scope[key] for key in _SCOPE_KEYS if key in scope}
    sent["query_string"] = bytes(scope.get("query_string", b"")).decode("latin-1")
    sent["headers"] = _headers_out(scope.get("headers", []))
    return sent


def _scope_in(sent: Message, app: Any) -> Scope:
    scope: Scope = dict(sent)
    scope["query_string"] = sent["query_string"].encode("latin-1")
    scope["raw_path"] = sent["path"].encode()
    scope["headers"] = _headers_in(sent["headers"])
    scope["client"] = tuple(sent["client"]) if sent.get("client") else None
    scope["server"] = tuple(sent["server"]) if sent.get("server") else None
    scope["asgi"] = {"version": "3.0", "spec_version": "2.3"}
    scope["app"] = app
    scope["state"] = {}
    scope["extensions"] = {}
    return scope


def _event_out(event: Event) -> Message:
    return dict(_carried(event, _b64, _headers_out))


def _event_in(sent: Message) -> Event:
    return _carried(sent, _bytes, _headers_in)


def _carried(event: Event, bytes_: Callable[[Any], Any], headers: Callable[[Any], Any]
             ) -> Event:
    """An ASGI event with its bytes and headers converted (to JSON's types, or back)."""
    carried = dict(event)
    if carried.get("bytes") is not None:
        carried["bytes"] = bytes_(carried["bytes"])
    if "headers" in carried:
        carried["headers"] = headers(carried["headers"])
    return carried


async def _whole_body(receive: Receive) -> bytes:
    parts = []
    while True:
        event = await receive()
        parts.append(bytes(event.get("body", b"")))
        if not event.get("more_body"):
            return b"".join(parts)


UNREACHED = ("The server playing this game cannot be reached just now: nothing was done,"
             " try again")
UNANSWERED = ("The server playing this game did not answer in time: what you asked may"
              " have been done, so look at the game again before you repeat it")


async def _unavailable(scope: Scope, send: Send, why: str = UNREACHED) -> None:
    if scope["type"] == "websocket":  # closed before it is accepted: the browser retries
        await send({"type": "websocket.close", "code": 1011})
        return
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", b"application/json"), (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": json.dumps({"error": why}).encode()})


class _Replaying:
    """A receive that gives `first` (already read) before what is still to come, and
    again from the start (`again`), for a request served here after all."""

    def __init__(self, first: Event, receive: Receive) -> None:
        self.first = first
        self._receive = receive
        self._given = False

    async def __call__(self) -> Event:
        if not self._given:
            self._given = True
            return self.first
        return await self._receive()

    def again(self) -> _Replaying:
        return _Replaying(self.first, self._receive)
