"""Requests from outside the schema: unknown routes, methods a route does not take, broken
and oversized bodies; each answer must be an error."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from schemathesis.specs.openapi.schemas import OpenApiSchema

from parlour.server.api.rest import body_rule
from parlour.store import MAX_BYTES
from tests.support.fuzz.checks import error_problem
from tests.support.fuzz.pool import Pool

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class Probe:
    kind: str
    method: str
    route: str  # the path's pattern, e.g. /api/games/{sid}/{word}
    path: str
    headers: dict[str, str]
    body: bytes | None
    expect: tuple[int, ...] = ()  # the statuses it may get (any error, if empty)


UNKNOWN_ROUTES = ("/api/{word}", "/{word}", "/api/games/{sid}/{word}", "/api/games/{word}/{word}",
                  "/api/games/{sid}/moves/{word}", "/static/{word}.js", "/api", "/api/")
BAD_BODIES = (
    (b"{", "application/json"), (b"", "application/json"), (b"null", "application/json"),
    (b"[]", "application/json"), (b'{"move": 1', "application/json"),
    (b"\xff\xfe\x00", "application/json"), (b"game=tictactoe", "text/plain"),
    (b"game=tictactoe", "application/x-www-form-urlencoded"), (b'{"game": 1}', ""),
)


def make_probe(schema: OpenApiSchema, pool: Pool, rnd: random.Random) -> Probe:
    """A random request the schema does not describe; its answer must be an error."""
    word = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789-_.~") for _ in range(8))
    sid = rnd.choice(pool.holders).sid if pool.holders else word
    paths: dict[str, dict[str, Any]] = schema.raw_schema["paths"]
    documented = {path: {method.upper() for method in operations}
                  for path, operations in paths.items()}
    # routes whose body is required (an optional one, as join's, may well be empty)
    with_body = sorted(
        path for path, operations in paths.items()
        if operations.get("post", {}).get("requestBody", {}).get("required")
        and path != "/api/uploads"
    )

    def fill(route: str) -> str:
        return route.replace("{sid}", sid).replace("{upload_id}", word).replace("{word}", word)

    draw = rnd.random()
    if draw < 0.3:
        route = rnd.choice(UNKNOWN_ROUTES)
        # 405 too: a path under /static exists for GET alone
        return Probe("unknown route", rnd.choice(("GET", "POST")), route, fill(route), {}, None,
                     (404, 405))
    if draw < 0.6:
        route = rnd.choice(sorted(documented))
        method = rnd.choice([method for method in METHODS if method not in documented[route]])
        return Probe("method not allowed", method, route, fill(route), {}, None, (405,))
    route = rnd.choice(with_body)
    if draw < 0.9:
        body, media = rnd.choice(BAD_BODIES)
        headers = {"content-type": media} if media else {}
        return Probe("malformed body", "POST", route, fill(route), headers, body)
    if rnd.random() < 0.3:  # a picture over the limit
        size = MAX_BYTES + 1
        return Probe("oversized body", "POST", "/api/uploads", "/api/uploads",
                     {"content-type": "image/png"}, b"\x89PNG\r\n\x1a\n" + bytes(size), (413,))
    # over the route's own limit (an import takes a saved file of some MiB)
    size = max(rnd.choice([64 * 1024, 1024 * 1024, 5 * 1024 * 1024]), body_rule(route).limit)
    padding = json.dumps({"game": "tictactoe", "padding": "x" * size}).encode()
    return Probe("oversized body", "POST", route, fill(route), {"content-type": "application/json"},
                 padding, (413,))


def probe_problem(probe: Probe, status: int, content_type: str, content: bytes) -> str | None:
    if status >= 500:
        return "server error"
    if 300 <= status < 400:
        return None  # a redirect, e.g. to the path without its trailing slash
    if status < 400:
        return f"answered {status}: a request outside the schema should be refused"
    problem = error_problem(status, content_type, content)
    if problem is not None:
        return f'the error is not {{"error": "..."}}: {problem}'
    if probe.expect and status not in probe.expect:
        return f"answered {status}, not {' or '.join(map(str, probe.expect))}"
    return None


