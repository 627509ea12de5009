"""Pacing: one client's flood of requests cannot take the event loop from the others.

Every request to `/api/` costs its client one unit, and one more per `UNIT_BYTES` it
sent or was sent: what a request costs the event loop is mostly reading, rendering and
encoding what it carries (a mark on a 40x60 Minesweeper board answers 0.5 MB of view, a
hundred times a Tic-Tac-Toe move); a route may `charge` for work its bytes do not
show. A client's units drain at `rate` a second; past
`burst` units its next request waits until they have drained back to it, and one that
would wait more than `MAX_WAIT` seconds is answered 429 at once. A page's loading and a
quick player stay well inside the burst; a script asking as fast as it can is slowed to
the rate, and the others' requests are served in between. Players move over their
WebSocket, which is not paced here; the sockets per client are capped (`hub/caps.py`),
and their moves a minute limited (`server/limits/`).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.server.api.clients import client_of
from parlour.server.hub.errors import sentence
from parlour.server.metrics import Metrics

UNIT_BYTES = 64 * 1024
"""Bytes of a request and its answer that cost one more unit."""
RATE = 20.0
"""Units a second each client's requests may cost, sustained. A host may set it
(PARLOUR_REQUEST_RATE; 0 turns pacing off, as the tests do: each is one client)."""
BURST = 100.0
"""Units a client may spend at once before being paced: a page loading and a quick
player, with room to spare."""
MAX_WAIT = 5.0
"""The longest a request is held back; one that would wait longer is refused (429)."""

_charged: ContextVar[list[float] | None] = ContextVar("charged", default=None)
"""The units the request being served has been charged beyond its bytes (`charge`)."""


def charge(units: float) -> None:
    """Add `units` to what the request being served costs its client: for work its bytes
    do not show (an imported file's moves are each replayed and written)."""
    charged = _charged.get()
    if charged is not None:
        charged[0] += units


@dataclass
class _Debt:
    units: float
    at: float


class Pacer:
    """Each client's units spent, draining at `rate` a second."""

    def __init__(self, rate: float = RATE, burst: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = BURST if burst is None else burst
        self._clock = clock
        self._debts: dict[str, _Debt] = {}

    def owed(self, client: str) -> float:
        """The units `client` has spent and not yet drained."""
        debt = self._debts.get(client)
        if debt is None:
            return 0.0
        return max(0.0, debt.units - self.rate * (self._clock() - debt.at))

    def spend(self, client: str, units: float) -> float:
        """Charge `units` to `client`; the seconds its request should wait first."""
        now = self._clock()
        owed = self.owed(client) + units
        self._debts[client] = _Debt(owed, now)
        if len(self._debts) > 4096:
            self._forget_settled(now)
        return max(0.0, (owed - self.burst) / self.rate)

    def refund(self, client: str, units: float) -> None:
        """Give back units charged for a request that was refused without being served."""
        debt = self._debts.get(client)
        if debt is not None:
            debt.units = max(0.0, debt.units - units)

    def _forget_settled(self, now: float) -> None:
        """Drop the clients whose units have all drained (clients come and go)."""
        for client in [client for client, debt in self._debts.items()
                       if debt.units <= self.rate * (now - debt.at)]:
            del self._debts[client]


class Pace:
    """ASGI middleware: paces each client's `/api/` requests (see the module's doc)."""

    def __init__(self, app: ASGIApp, rate: float | None = None, burst: float | None = None,
                 metrics: Metrics | None = None) -> None:
        self.app = app
        self.metrics = Metrics() if metrics is None else metrics
        if rate is None:
            rate = float(os.environ.get("PARLOUR_REQUEST_RATE", RATE))
        self.pacer = Pacer(rate, burst) if rate > 0 else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.pacer is None or scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        pacer, client = self.pacer, client_of(HTTPConnection(scope)).key
        wait = pacer.spend(client, 1.0)
        if wait > MAX_WAIT:  # (looked up here: a test may lower it)
            pacer.refund(client, 1.0)
            self.metrics.refused("requests")
            await _too_many(send, wait)
            return
        if wait:
            await asyncio.sleep(wait)
        carried, charged = 0, [0.0]
        charging = _charged.set(charged)

        async def counted_receive() -> Message:
            nonlocal carried
            message = await receive()
            carried += len(message.get("body", b""))
            return message

        async def counted_send(message: Message) -> None:
            nonlocal carried
            carried += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, counted_receive, counted_send)
        finally:
            _charged.reset(charging)
            pacer.spend(client, carried / UNIT_BYTES + charged[0])


async def _too_many(send: Send, wait: float) -> None:
    body = json.dumps({"error": sentence(f"too many requests from your browser: try again "
                                         f"in {wait:.0f} s")}).encode()
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(int(wait) + 1).encode())]})
    await send({"type": "http.response.body", "body": body})
