"""What a load balancer asks of a Parlour process: `/healthz`, whether the process answers
at all, and `/readyz`, whether it can serve games now, which is whether its store answers
a read within READY_SECONDS. Both are outside /api/ (not paced) and tell nothing of any
game. The guard still checks their Host: a balancer sends one the server answers to."""

from __future__ import annotations

import asyncio
import weakref
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter
from pydantic import BaseModel

from parlour.server.api.deps import HubDep
from parlour.server.api.errors import errors
from parlour.server.hub.errors import ApiError
from parlour.store import Store

READY_SECONDS = 2.0

router = APIRouter()

_probes = ThreadPoolExecutor(1, thread_name_prefix="parlour-ready")
"""A thread of its own: while the store hangs (its database away), a probe waits there,
and the probes that follow wait for that one instead of taking the threads games use."""
_in_flight: weakref.WeakKeyDictionary[Store, asyncio.Future[object]] = (
    weakref.WeakKeyDictionary())


class Health(BaseModel):
    status: str


@router.get("/healthz", response_model=Health, tags=["hosting"])
async def healthz() -> Health:
    """The process is up and its event loop answers."""
    return Health(status="ok")


@router.get("/readyz", response_model=Health, responses=errors(503), tags=["hosting"])
async def readyz(hub: HubDep) -> Health:
    """The store answers: new games and moves can be served (503 while it does not)."""
    probe = _probe(hub.store)
    try:
        await asyncio.wait_for(asyncio.shield(probe), READY_SECONDS)
    except TimeoutError:
        raise ApiError(503, f"the store has not answered within {READY_SECONDS:g} s") from None
    except Exception as error:  # the store's own failure: it cannot serve games now
        raise ApiError(503, f"the store cannot be read ({type(error).__name__})") from None
    return Health(status="ready")


def _probe(store: Store) -> asyncio.Future[object]:
    """The store's read under way, or a new one: one at a time per store."""
    loop = asyncio.get_running_loop()
    running = _in_flight.get(store)
    if running is None or running.done() or running.get_loop() is not loop:
        running = loop.run_in_executor(_probes, store.results_version)
        _in_flight[store] = running
    return running
