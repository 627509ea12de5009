"""The hosted mode: many Parlour processes, on one or many machines, sharing a
PostgreSQL database (what must last) and a Redis server (what travels between them),
behind nginx, which may send any request to any process.

- ownership.py: each live game is played by one process at a time, the holder of its
  lease in PostgreSQL; every write of its play is fenced by the lease's epoch.
- relay.py: a request or WebSocket for a game another process plays is carried there
  over the bus, and its answers back: players never see "wrong process".
- bus.py: Redis pub/sub, a channel per process, and each process's heartbeat.

`Hosting` puts them together for one process: `parlour --database postgresql://...
--bus redis://...` (parlour/cli.py). It needs the `hosted` extra.
"""

from __future__ import annotations

import os
import secrets
import socket
from typing import Any

from parlour.server.hosted.bus import Bus
from parlour.server.hosted.ownership import Ownership
from parlour.server.hosted.relay import Relay
from parlour.server.hub.core import Hub
from parlour.store.postgres import PostgresStore
from parlour.store.postgres.leases import LEASE_SECONDS


class Hosting:
    """One process of a hosted Parlour: its id, its leases, its end of the bus."""

    def __init__(self, store: PostgresStore, bus_url: str, lease_seconds: float = LEASE_SECONDS
                 ) -> None:
        self.process = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.leases = store.hold_leases(self.process, lease_seconds)
        self.bus = Bus(bus_url, self.process, receive=lambda message: None)
        self.ownership: Ownership | None = None
        self.relays: list[Relay] = []

    def serve(self, app: Any, hub: Hub) -> None:
        """Wire `app` (before it starts): its hub plays only the games this process
        holds, and its requests for others go to their owners."""
        self.ownership = Ownership(self.leases, hub.lose, hub.in_memory, hub.metrics.takeover)
        hub.ownership = self.ownership
        app.add_middleware(_relay_middleware, hosting=self, outer=app)

    async def start(self) -> None:
        assert self.ownership is not None, "serve() an app first"
        self.ownership.start()
        await self.bus.start()

    async def stop(self) -> None:
        """Every game let go at once (others take them without waiting), the bus left."""
        for relay in self.relays:
            await relay.close()
        if self.ownership is not None:
            await self.ownership.stop()
        await self.bus.stop()


def _relay_middleware(app: Any, hosting: Hosting, outer: Any) -> Relay:
    """The relay middleware, as Starlette builds it (on the event loop, at start)."""
    assert hosting.ownership is not None
    relay = Relay(app, hosting.ownership.route, hosting.bus, outer)
    hosting.relays.append(relay)
    return relay
