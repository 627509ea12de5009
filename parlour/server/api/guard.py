"""The server's front door: refuses what no honest client of a local game server sends.

An ASGI middleware around the whole app, so that it acts before any body is read:

- **Host**: only the names the server was started for (DNS rebinding: a page on another
  site whose name resolves to 127.0.0.1 sends its own name as the Host).
- **Origin**: a browser says which page sent a request; a WebSocket, and every request
  that changes something, must come from a page of this server: the same scheme, host
  and port (a page on another local port is another site, though browsers call it
  `same-site`). Scripts and bots send no Origin and are let through.
- **Heavy reads**: a GET that does much work for its answer (`HEAVY_READS`: statistics,
  past games, the CSV, a backup, a replay) must come from this server's own pages, a typed
  address or a script: a page elsewhere can make a browser send it (`fetch` in `no-cors`
  mode, an image) though it never reads the answer, so its `Sec-Fetch-Site` says
  `cross-site` or `same-site` (another port), or its Origin is another's: 403, at once.
- **Bodies**: a documented small limit per route, checked on the declared length and
  again on the bytes as they arrive (413); state-changing bodies need their proper
  content type (415), so no cross-site form can post one.
- **Headers**: every answer says `X-Content-Type-Options: nosniff`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour.server.hub.errors import sentence

JSON_BODY_LIMIT = 16 * 1024
"""Bytes of a JSON request body (a move is ~50 bytes, a new game ~300)."""
WS_MESSAGE_LIMIT = 16 * 1024
"""Characters of one WebSocket message from a browser."""
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
HEAVY_READS = re.compile(
    r"/api/(stats|replays|daily|results\.csv|backup"
    r"|games/[^/]+/(replay|records|export|positions/[^/]+))/?"
)
"""GET routes whose answer takes real work: only this server's own pages may ask."""
OTHER_SITES = ("cross-site", "same-site")
"""What a browser's `Sec-Fetch-Site` says of a request from a page not of this server (a
page on another port of the same host is `same-site`, and still another site)."""
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"SAMEORIGIN"),
]


@dataclass(frozen=True)
class BodyRule:
    """What a route's request body may be: its media types and its size in bytes."""

    media_types: tuple[str, ...]
    limit: int


JSON_RULE = BodyRule(("application/json",), JSON_BODY_LIMIT)


def host_name(host: str) -> str:
    """The name in a Host header or an Origin's netloc, without the port: `[::1]:80` ->
    `::1`."""
    try:
        name = urlsplit(f"//{host}").hostname
    except ValueError:
        return ""
    return (name or "").lower()


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        allowed_hosts: Collection[str],
        body_rule: Callable[[str], BodyRule] = lambda path: JSON_RULE,
    ) -> None:
        self.app = app
        self.allowed_hosts = {name.lower().strip("[]") for name in allowed_hosts}
        self.body_rule = body_rule

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, message = refusal
            message = sentence(message)
            if scope["type"] == "websocket":  # closing before accepting answers 403
                await send({"type": "websocket.close", "code": 1008, "reason": message})
            else:
                await _answer(send, status, message)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        await self._serve_http(scope, receive, send, headers)

    def _refusal(self, scope: Scope, headers: Headers) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if "*" not in self.allowed_hosts and host_name(host) not in self.allowed_hosts:
            return 400, f"this server does not answer to the host {host[:100]!r}"
        changes_state = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if not changes_state:
            if HEAVY_READS.fullmatch(scope["path"]) and (
                headers.get("sec-fetch-site") in OTHER_SITES or not _own_origin(scope, headers)
            ):
                return 403, "this read is answered only to this server's own pages"
            return None
        if not _own_origin(scope, headers):
            return 403, "requests from other sites are refused"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "requests from other sites are refused"
        return None

    async def _serve_http(
        self, scope: Scope, receive: Receive, send: Send, headers: Headers
    ) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send_with_headers)
            return
        rule = self.body_rule(scope["path"])
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > rule.limit):
            await _answer(send, 413, _too_large(rule))
            return
        has_body = declared != "0" and (declared is not None or "transfer-encoding" in headers)
        media_type = headers.get("content-type", "").partition(";")[0].strip().lower()
        if has_body and media_type not in rule.media_types:
            wanted = " or ".join(rule.media_types)
            await _answer(send, 415, f"the body must be {wanted}, not {media_type or 'untyped'}")
            return
        await self.app(scope, _counted(receive, rule), send_with_headers)


def _own_origin(scope: Scope, headers: Headers) -> bool:
    """Whether a request's Origin, if it says one, is this server's own."""
    origin = headers.get("origin")
    own = f"{_http_scheme(scope)}://{headers.get('host', '')}"
    return origin is None or _origin(origin) == _origin(own)


def _http_scheme(scope: Scope) -> str:
    """The scheme a browser's page of this server has: a WebSocket's `ws` is `http`."""
    scheme: str = scope["scheme"]
    return {"ws": "http", "wss": "https"}.get(scheme, scheme)


def _origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port, the default port filled in: the same origin is the same
    page's, and a page on another port of the same host is another site."""
    try:
        parts = urlsplit(url.lower())
        port = parts.port
    except ValueError:
        return ("", "", None)
    return (parts.scheme, parts.hostname or "", port or _DEFAULT_PORTS.get(parts.scheme))


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _counted(receive: Receive, rule: BodyRule) -> Receive:
    """`receive`, refusing a body that grows past the rule's limit while it streams in
    (a body sent in chunks declares no length)."""
    received = 0

    async def counting() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > rule.limit:
                raise HTTPException(413, sentence(_too_large(rule)))
        return message

    return counting


def _too_large(rule: BodyRule) -> str:
    size = (f"{rule.limit // 2**20} MiB" if rule.limit >= 2**20
            else f"{rule.limit // 1024} KiB")
    return f"the request body may be at most {size}"


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": sentence(message)}).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS],
    })
    await send({"type": "http.response.body", "body": body})
