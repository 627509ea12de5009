"""`GET /metrics`: this process's metrics in Prometheus's text format (`server/metrics.py`).

Who may read them: a client on this machine (a loopback address), and the addresses a
host names with `--metrics-from` (its Prometheus elsewhere); everyone else gets 403. A
host's Prometheus scrapes each process directly, from the inside, never through the
public door. The client is judged after a trusted proxy's `X-Forwarded-For` is read
(`api/proxies.py`), so a request relayed by the host's own nginx is judged by the
browser's address behind it, not by nginx's loopback one. Not an open read: the figures
are no secret, but they tell anyone how busy the host is and which games are played,
and each scrape does a little work. Without prometheus-client (the embedded default
without the hosted extra) there are no metrics: 404, saying so.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from parlour.server.api.deps import HubDep
from parlour.server.api.errors import errors
from parlour.server.api.proxies import Network, address_of
from parlour.server.hub.errors import ApiError

router = APIRouter()


def may_read(request: Request, readers: tuple[Network, ...]) -> bool:
    """Whether the request's client is on this machine or among `readers`."""
    address = address_of(request.client.host) if request.client else None
    if address is None:
        return False
    return address.is_loopback or any(
        address.version == network.version and address in network for network in readers)


@router.get("/metrics", response_class=Response, tags=["hosting"],
            responses={200: {"content": {"text/plain": {}}}, **errors(403, 404)})
async def metrics(request: Request, hub: HubDep) -> Response:
    """This process's metrics for Prometheus (text format): moves, the time to
    acknowledge a move, live games, viewers, refusals by limit, takeovers, and the
    process's own. Only for a client on this machine or an address the host named
    (`--metrics-from`; 403 otherwise); 404 without prometheus-client."""
    exposition = hub.metrics.exposition()
    if exposition is None:
        raise ApiError(404, "this server keeps no metrics: they need prometheus-client "
                       "(pip install 'parlour[hosted]')")
    if not may_read(request, request.app.state.metrics_readers):
        raise ApiError(403, "the metrics are answered only to this machine and to the "
                       "addresses the host named (--metrics-from)")
    body, media_type = exposition
    return Response(body, media_type=media_type, headers={"Cache-Control": "no-store"})

