"""The WebSocket protocol: a browser's connection to one game.

Its first message is `{"type": "hello", "token": ...}` (the token stays out of URLs and
logs); then it is sent views (`Viewer`: its own outbox, so none can stall a game) and
may send the client messages of `hub/messages.py` (`WireMessage`: the wire's form of them,
unchanged since the first browser client). They are carried out one by one, in
order, through the hub's table of handlers (`Hub.act`), but read as they come: a
"cancel" stops the long work it is meant for at once, and a move makes a hint still
coming moot before it waits its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import Field, StrictBool, ValidationError

from parlour.core.game import SPEED_FACTORS, Hint
from parlour.server import memory, timing
from parlour.server.api.clients import client_of
from parlour.server.api.deps import HubDep
from parlour.server.api.guard import WS_MESSAGE_LIMIT
from parlour.server.hub.core import Hub
from parlour.server.hub.errors import ApiError, LimitReached, sentence
from parlour.server.hub.live import Live
from parlour.server.hub.messages import (
    KINDS,
    Action,
    Cancel,
    Leave,
    Opened,
    SetVisibility,
    Strict,
)
from parlour.server.hub.tokens import presented
from parlour.server.hub.viewers import Viewer

HELLO_TIMEOUT = 10.0
"""Seconds a new WebSocket has to say hello (with its token) before it is closed."""
MESSAGES_WAITING = 200
"""A browser's messages read and waiting to be carried out, at most: a quick player's
clicks on a lagging server wait their turn, none dropped (a burst of 17 once lost one),
while the socket is still read, so that a "cancel" or a page hidden counts at once. A
client past it is a flood, not a player: its socket is closed (1008), and its browser
reconnects to the game as it stands."""
log = logging.getLogger("parlour")
Arrived = tuple[Action | Leave, float]
"""A message waiting to be carried out, with when it was read (`time.perf_counter()`)."""

router = APIRouter()


class Hello(Strict):
    """A browser's first message on the WebSocket: who it is."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=64, description="the seat token, if any")
    visible: StrictBool = Field(True, description="the page is shown (not a background tab)")
    speed: Literal["normal", "slow", "fast", "instant"] = Field(
        "normal", description="how fast this player wants the computers to play "
        "(the slowest of the players watching sets the pace)")


class WireMessage(Strict):
    """A client message as a browser sends it: `type` names its kind, and the kind reads
    its own field of the five (the others may be there, and are ignored, as they always
    were: the wire's contract does not change with the hub's models)."""

    type: Literal[
        "move", "undo", "redo", "restart", "hint", "assist", "command", "takeback", "leave",
        "cancel", "visibility", "rematch",
    ]
    move: Any = None
    on: bool = False  # for "assist": the switch's new position
    accept: bool = False  # for "takeback" and "rematch": accept (or refuse) what was asked
    name: str = Field("", max_length=40, description="for 'command': a server command's name")
    visible: StrictBool | None = None  # for "visibility" (required there): the page is shown

    def message(self) -> Action | Leave | Cancel | SetVisibility:
        kind = KINDS[self.type]
        return kind(**{field: getattr(self, field) for field in kind.model_fields
                       if field != "type"})


@router.websocket("/ws/{sid}")
async def play_socket(socket: WebSocket, sid: str, hub: HubDep) -> None:
    """A browser's connection to a game. Its first message is
    `{"type": "hello", "token": ...}` (the token stays out of URLs and logs); then it
    is sent views and may send actions (`WireMessage`)."""
    await socket.accept()
    client = client_of(socket).key
    try:
        hello = Hello.model_validate_json(
            await asyncio.wait_for(_receive_text(socket), HELLO_TIMEOUT)
        )
        live = await hub.get(sid)
        token = presented(hello.token)  # compared by its digest (hub/tokens.py)
        hub.caps.admit(live, client, token)  # 4429 beyond the caps (caps.py)
    except (TimeoutError, ValidationError, _BadFrame) as error:
        await _refuse(socket, 1008, f"say hello first ({error})"[:120])
        return
    except ApiError as error:  # 4404, 4409...: final, the browser stops reconnecting
        await _refuse(socket, 4000 + error.status if error.status < 500 else 1011,
                      error.message)
        return
    viewer = Viewer(live.seats_of(token), socket.send_text, token,
                    socket.app.state.send_timeout, hello.visible, SPEED_FACTORS[hello.speed])
    try:
        hub.page_opened(live, viewer, client)  # its clock may start: the view below says so
        viewer.show(hub.broadcast.welcome(live, token))
        await _until_gone(hub, socket, live, viewer, client)
    finally:
        viewer.close()
        hub.page_closed(live, viewer)  # a page gone is a page hidden: its clock may stop
        hub.caps.release(client)
        memory.give_back_soon()  # what it was sent is freed: give it back (memory.py)


async def _until_gone(hub: Hub, socket: WebSocket, live: Live, viewer: Viewer, client: str
                      ) -> None:
    """Serve the browser until it goes or its viewer is dropped."""
    serving = asyncio.create_task(_serve(hub, socket, live, viewer, client))
    dropped = asyncio.create_task(viewer.dropped.wait())
    try:
        await asyncio.wait({serving, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        serving.cancel()
        dropped.cancel()


async def _serve(hub: Hub, socket: WebSocket, live: Live, viewer: Viewer, client: str
                 ) -> None:
    """Read the browser's messages while they are carried out one by one, so that a
    "cancel" reaches the long work it is meant for at once."""
    waiting: asyncio.Queue[Arrived] = asyncio.Queue(MESSAGES_WAITING)
    carrying_out = asyncio.create_task(_carry_out(hub, live, viewer, waiting, client))
    try:
        while True:
            try:
                text = await _receive_text(socket)
            except _BadFrame as error:
                await _refuse(socket, error.code, str(error))
                return
            except Exception:  # disconnected, or the connection broke
                return
            timing.received()
            arrived = time.perf_counter()
            try:
                with timing.part("parse"):
                    message = WireMessage.model_validate_json(text).message()
            except ValidationError as error:
                reason = error.errors()[0]["msg"]
                viewer.tell({"type": "error", "error": f"Bad message: {reason}"})
                continue
            if isinstance(message, Cancel):
                hub.cancel(live, viewer.token)
                continue
            if isinstance(message, SetVisibility):  # not a change to the game: at once
                hub.page_shown(live, viewer, message.visible)
                continue
            if message.plays_on:
                hub.play_on(live, viewer.token)  # a hint still coming is moot now
            if waiting.full():
                await _refuse(socket, 1008, f"more than {MESSAGES_WAITING} messages waiting: "
                              "wait for the answers")
                return
            waiting.put_nowait((message, arrived))
    finally:
        carrying_out.cancel()


async def _carry_out(
    hub: Hub, live: Live, viewer: Viewer, waiting: asyncio.Queue[Arrived], client: str
) -> None:
    while True:
        message, arrived = await waiting.get()
        await _serve_message(hub, live, viewer, message, client, arrived)


async def _serve_message(hub: Hub, live: Live, viewer: Viewer, message: Action | Leave,
                         client: str, arrived: float) -> None:
    try:
        if isinstance(message, Leave):
            await hub.leave(live, viewer.token)
            return
        found = await hub.act(live, viewer.token, message, client, arrived)
        if isinstance(found, Hint):
            viewer.tell({"type": "hint", "move": found.move, "note": found.note})
        elif isinstance(found, Opened):
            viewer.tell({"type": "open", "session": found.sid, "token": found.token,
                         "note": found.note})
        elif found is not None:
            viewer.tell({"type": "note", "note": found})
    except LimitReached as error:  # the player plays on once it has passed
        viewer.tell({"type": "error", "error": error.message,
                     "retry_after": error.retry_after})
    except ApiError as error:
        viewer.tell({"type": "error", "error": error.message,
                     **({"quiet": True} if error.quiet else {}),
                     **({"marks": list(error.marks)} if error.marks else {})})
    except Exception:  # a bug must not end the connection without a word
        log.exception("error serving a WebSocket message for %s", live.sid)
        viewer.tell({"type": "error", "error": "Internal server error"})
    finally:
        timing.carried_out()


class _BadFrame(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


async def _receive_text(socket: WebSocket) -> str:
    """The next text message; _BadFrame for a binary or oversized one."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise _BadFrame(1003, "messages are JSON text, not binary")
    if len(text) > WS_MESSAGE_LIMIT:
        raise _BadFrame(1009, f"a message may be at most {WS_MESSAGE_LIMIT // 1024} KiB")
    return str(text)


async def _refuse(socket: WebSocket, code: int, reason: str) -> None:
    """Tell the browser why, then close with `code` (never raises: it may be gone)."""
    with contextlib.suppress(Exception):
        reason = sentence(reason)
        await asyncio.wait_for(socket.send_json({"type": "error", "error": reason}), 5)
        await asyncio.wait_for(socket.close(code=code, reason=reason[:120]), 5)
