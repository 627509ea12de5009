"""The ASGI app, wired: the hub (with the clients' rate limits, `limits/`, and the
metrics, `metrics.py`), the client behind a trusted proxy (`api/proxies.py`), the front
door (`api/guard.py`), the error handlers and the routers — REST for scripts and bots
(`api/rest.py`), a WebSocket per open game (`api/socket.py`), the pages and their files
(`api/pages.py`), Parlour as an installed app (`api/install.py`), /metrics
(`api/monitoring.py`).

Every error, from a route, the front door or the framework, is `{"error": "..."}` with
its status; /docs lists the statuses each route answers.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Collection, Mapping
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from parlour.core.game import GameSpec
from parlour.server import metrics, timing
from parlour.server.api import (
    backup,
    health,
    install,
    links,
    monitoring,
    pace,
    pages,
    rest,
    socket,
)
from parlour.server.api.errors import handle_errors
from parlour.server.api.guard import LOCAL_HOSTS, Guard
from parlour.server.api.own import HELD_BODY_LIMIT
from parlour.server.api.proxies import ForwardedFor, TrustedProxies, parse_networks
from parlour.server.compute import Compute
from parlour.server.hub.backup import BACKUP_LIMIT
from parlour.server.hub.core import Hub
from parlour.server.hub.saved_games import FILE_LIMIT
from parlour.server.hub.viewers import SEND_TIMEOUT
from parlour.server.limits import Limits, MemoryLimits
from parlour.store import MAX_BYTES, Store

if TYPE_CHECKING:
    from parlour.server.hosted import Hosting


def create_app(
    store: Store,
    games: Mapping[str, GameSpec],
    ai_delay_scale: float = 1.0,
    allowed_hosts: Collection[str] = LOCAL_HOSTS,
    compute: Compute | None = None,
    send_timeout: float = SEND_TIMEOUT,
    clock: Callable[[], float] = time.monotonic,
    trusted_proxies: Collection[str] = (),
    limits: Limits | None = None,
    metrics_from: Collection[str] = (),
    hosting: Hosting | None = None,
    shared: bool = False,
) -> FastAPI:
    """The app. `allowed_hosts`: the names it answers to ("*" for any); `clock`: the
    game clocks' time (a test's own, to move by hand); `trusted_proxies`: the addresses
    or networks of the proxies whose X-Forwarded-For names the client (`api/proxies.py`);
    `limits`: the clients' rate limits (default: this process's own, `MemoryLimits`, as
    the environment sets them; hosted: `limits.on_redis.RedisLimits.from_url`, shared by
    every process), closed when the app stops; `metrics_from`: addresses or networks
    beside loopback that may read /metrics (`api/monitoring.py`); `hosting`: this
    process's part in a hosted Parlour of many (parlour.server.hosted), None for the one
    process; `shared`: many people play here, and the statistics, daily deals, past games
    and records each shows a player are their own (parlour.stats.own)."""
    limits = MemoryLimits() if limits is None else limits

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if hosting is not None:
            await hosting.start()
        yield
        await app.state.hub.close()  # every game clock stopped and saved
        if hosting is not None:
            await hosting.stop()
        store.close()
        await limits.close()

    # /docs and /redoc serve Swagger UI and ReDoc from the installed package: no CDN
    app = FastAPIOffline(
        title="Parlour",
        summary="Classic games in the browser. Every game can also be played over this API.",
        description=(
            "Request bodies: JSON of at most 16 KiB (a picture upload: at most "
            f"{MAX_BYTES // 2**20} MiB; a saved game to import, with its pictures in "
            f"base64: at most {FILE_LIMIT // 2**20} MiB; a backup to restore: at most "
            f"{BACKUP_LIMIT // 2**20} MiB; the tokens a browser sends for its own results "
            f"or backup: at most {HELD_BODY_LIMIT // 2**20} MiB); WebSocket messages at most "
            "16 KiB. "
            "Requests that change something must come from a page of this server (Origin) "
            "or carry no Origin at all (scripts). Each client's requests are paced: a unit "
            f"each and one per {pace.UNIT_BYTES // 1024} KiB carried, {pace.BURST:g} in hand "
            f"and by default {pace.RATE:g} back a second; past that a request waits, and one "
            f"that would wait over {pace.MAX_WAIT:g} s is answered 429 with Retry-After. "
            "A host may also limit each client's moves a minute and new games and uploads "
            "an hour: over one, 429 with Retry-After. "
            "Every error is `{\"error\": \"...\"}`."
        ),
        lifespan=lifespan,
    )
    counted = metrics.create()  # this app's own registry
    hub = Hub(store, games, ai_delay_scale=ai_delay_scale, compute=compute, clock=clock,
              limits=limits, metrics=counted, shared=shared)
    counted.watch(live_games=lambda: len(hub.live), viewers=hub.caps.open_sockets)
    app.state.hub = hub
    app.state.send_timeout = send_timeout  # a viewer that stops reading is dropped after it
    app.state.metrics_readers = parse_networks(",".join(metrics_from))
    if hosting is not None:  # inside the pacing: the process a client reached paces it
        hosting.serve(app, app.state.hub)
    app.add_middleware(pace.Pace, metrics=counted)  # inside the guard: only what it lets in
    app.add_middleware(Guard, allowed_hosts=allowed_hosts, body_rule=rest.body_rule)
    # outermost: every part after it sees the client behind a trusted proxy
    app.add_middleware(ForwardedFor,
                       trusted=TrustedProxies(parse_networks(",".join(trusted_proxies))))
    handle_errors(app)
    app.include_router(rest.router)
    app.include_router(backup.router)
    app.include_router(links.router)  # what a deal or seat link will do, before it does
    app.include_router(health.router)  # /healthz and /readyz, for a load balancer
    app.include_router(monitoring.router)  # /metrics, for the host's Prometheus
    if timing.ENABLED:  # only on a server started with PARLOUR_TIMING=1, for the benchmark
        app.include_router(rest.timing_router)
    app.include_router(socket.router)
    app.include_router(pages.router)
    app.include_router(install.router)  # the web app manifest and its icons
    pages.mount_static(app)
    return app
