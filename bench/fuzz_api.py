"""Schema-driven fuzzing of the whole REST API: random requests from its OpenAPI, each
answer checked against the schema and the API's error rule.

Requests come from Schemathesis (valid and invalid data for every operation), dressed
half the time with what exists on the server: real session ids and their seat tokens,
legal moves read from the last view, real game names, presets and upload ids, so that
requests reach the games and not only the "not found" answers. A few requests in every
hundred go outside the schema: unknown routes, methods a route does not take, broken and
oversized bodies. Every answer is checked:

- no server error (5xx);
- its status is one the OpenAPI documents for that operation;
- its content type and body conform to the documented schema;
- every error (4xx) is JSON `{"error": "<text>"}` and nothing else.

It prints the requests tried, the failures by kind with one request and answer for each
distinct failure, and the statuses seen per operation.

Run: .venv/bin/python -m bench.fuzz_api [--requests 100000] [--seed N] [--workers N]
     [--in-process]   (the app in this process instead of a `parlour` server process)
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import multiprocessing
import random
import re
import struct
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from requests.structures import CaseInsensitiveDict
from schemathesis import Case, CheckContext, GenerationMode, HookContext, Response
from schemathesis.checks import CheckFunction, not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.specs.openapi.schemas import OpenApiSchema

from bench.common import drain_output, legal_moves
from parlour.devtools import start_server
from parlour.games import GAMES
from parlour.server.app import body_rule, create_app
from parlour.store import MAX_BYTES, Store
from parlour.store.sqlite import SqliteStore

TEST_HOST = "testserver"  # the Host header of in-process clients (Starlette's, Schemathesis')
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
CHUNK = 500  # cases per Hypothesis run; runs alternate valid and invalid data
PROBE_SHARE = 0.03  # the share of requests sent outside the schema
DRESS_SHARE = 0.5  # the share of cases given real ids, tokens, moves and games
SERVER_URL = re.compile(r"http://(?:testserver|127\.0\.0\.1:\d+)")
PLAY_URL = "http://127.0.0.1:8765"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")

AnyCase = Case[Any]


# -- the app, in-process ------------------------------------------------------------------
def make_app(store: Store) -> FastAPI:
    """The app with AI replies at once; when it checks the Host header, it also answers
    the in-process clients' "testserver"."""
    options: dict[str, Any] = {}
    if "allowed_hosts" in inspect.signature(create_app).parameters:
        options["allowed_hosts"] = [TEST_HOST, *LOCAL_HOSTS]
    return create_app(store, GAMES, ai_delay_scale=0, **options)


def fuzz_config() -> schemathesis.Config:
    """Schemathesis' configuration: reports show tokens as they were sent (they are only
    test data)."""
    return schemathesis.Config.from_dict({"output": {"sanitization": {"enabled": False}}})


def load_in_process(app: FastAPI) -> OpenApiSchema:
    """The app's OpenAPI, its cases sent to the app in this process."""
    return schemathesis.openapi.from_asgi("/openapi.json", app, config=fuzz_config())


# -- the checks -----------------------------------------------------------------------------
def error_problem(status: int, content_type: str, content: bytes) -> str | None:
    """Why an error answer is not exactly `{"error": "<text>"}` as JSON; None if it is
    (or if the answer is not an error)."""
    if status < 400:
        return None
    if not content_type.startswith("application/json"):
        return f"its content type is {content_type or 'missing'}, not application/json"
    try:
        body = json.loads(content)
    except ValueError:
        return "its body is not JSON"
    if not isinstance(body, dict) or set(body) != {"error"}:
        keys = sorted(body) if isinstance(body, dict) else type(body).__name__
        return f"its body has {keys}, not only 'error'"
    if not isinstance(body["error"], str) or not body["error"]:
        return "its 'error' is not a text"
    return None


@schemathesis.check
def error_is_json_error(ctx: CheckContext, response: Response, case: AnyCase) -> bool | None:
    """Every error answer is JSON `{"error": "<text>"}` and nothing else."""
    problem = error_problem(response.status_code, header(response, "content-type"),
                            response.content)
    if problem is not None:
        raise AssertionError(f'the error is not {{"error": "..."}}: {problem}')
    return None


CHECKS: list[CheckFunction] = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    error_is_json_error,
]


def header(response: Response, name: str) -> str:
    values = response.headers.get(name.lower()) or [""]
    return values[0]


# -- what exists on the server --------------------------------------------------------------
@dataclass(frozen=True)
class Holder:
    """A session and a token that holds seats in it (None: a spectator)."""

    sid: str
    token: str | None


@dataclass
class Pool:
    """Real ids to put into generated requests, learnt from the server's answers."""

    catalog: list[dict[str, Any]] = field(default_factory=list)
    holders: list[Holder] = field(default_factory=list)
    moves: dict[str, list[Any]] = field(default_factory=dict)  # per session, from its view
    game_ids: list[str] = field(default_factory=list)
    uploads: list[str] = field(default_factory=list)
    saved_files: list[dict[str, Any]] = field(default_factory=list)  # exported games
    share: float = DRESS_SHARE
    limit: int = 400  # sessions kept; the oldest make way

    def learn(self, case: AnyCase, response: Response) -> None:
        """Remember the sessions, tokens, moves and uploads an answer tells of."""
        if response.status_code >= 300 or not header(response, "content-type").startswith(
            "application/json"
        ):
            return
        try:
            body = json.loads(response.content)
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        if case.path == "/api/catalog" and isinstance(body.get("games"), list):
            self.catalog = body["games"]
        elif case.path == "/api/uploads" and isinstance(body.get("upload"), str):
            self.uploads.append(body["upload"])
        elif case.path in ("/api/games", "/api/games/import") and isinstance(
            body.get("session"), str
        ):
            self._hold(Holder(body["session"], body.get("token")))
            if isinstance(body.get("id"), str):
                self.game_ids = [*self.game_ids[-50:], body["id"]]
        elif case.path.endswith("/join") and isinstance(body.get("token"), str):
            self._hold(Holder(str(case.path_parameters.get("sid")), body["token"]))
        elif case.path.endswith("/export") and body.get("format") == "parlour-saved-game":
            self.saved_files = [*self.saved_files[-10:], body]
        view = body.get("view") if "html" not in body else body
        if isinstance(view, dict) and isinstance(view.get("session"), str):
            self.moves[view["session"]] = legal_moves(str(view.get("html") or ""))

    def _hold(self, holder: Holder) -> None:
        self.holders.append(holder)
        if len(self.holders) > self.limit:
            gone = self.holders.pop(0)
            if all(other.sid != gone.sid for other in self.holders):
                self.moves.pop(gone.sid, None)

    # -- dressing generated cases -------------------------------------------------------
    def dress(self, case: AnyCase, rnd: random.Random) -> AnyCase:
        """`case`, or (with probability `share`) `case` with real ids, tokens and data."""
        if rnd.random() >= self.share:
            return case
        if "{sid}" in case.path and self.holders:
            self._dress_session(case, rnd)
        elif "{upload_id}" in case.path and self.uploads:
            case.path_parameters = {**case.path_parameters,
                                    "upload_id": rnd.choice(self.uploads)}
        elif case.path == "/api/games" and case.method.upper() == "POST" and self.catalog:
            case.body = self.new_game(rnd)
            case.media_type = "application/json"
        elif case.path == "/api/games/import" and self.saved_files:
            case.body = rnd.choice(self.saved_files)
            case.media_type = "application/json"
        elif case.path == "/api/stats" and self.catalog:
            case.query = {"game": rnd.choice(self.catalog)["name"]}
        return case

    def _dress_session(self, case: AnyCase, rnd: random.Random) -> None:
        # a move mostly for a seat that has one to make, so that moves reach the games
        playable = [h for h in self.holders if h.token and self.moves.get(h.sid)]
        moving = case.path.endswith("/moves") and playable and rnd.random() < 0.5
        holder = rnd.choice(playable if moving else self.holders)
        case.path_parameters = {**case.path_parameters, "sid": holder.sid}
        headers = case.headers if case.headers is not None else CaseInsensitiveDict()
        draw = 0.0 if moving else rnd.random()  # a move meant to land is sent as its seat
        if draw < 0.6 and holder.token:
            headers["authorization"] = f"Bearer {holder.token}"
        elif draw < 0.7:
            other = rnd.choice(self.holders)  # most likely a token of another session
            headers["authorization"] = f"Bearer {other.token or 'nobody'}"
        elif draw < 0.85:
            headers.pop("authorization", None)  # a spectator
        case.headers = headers
        if case.path.endswith("/moves") and (moving or rnd.random() < 0.8):
            known = self.moves.get(holder.sid) or [{"cell": [1, 1]}]
            case.body = {"move": rnd.choice(known)}
            case.media_type = "application/json"
        elif case.path.endswith("/assist") and rnd.random() < 0.8:
            case.body = {"on": rnd.random() < 0.5}
            case.media_type = "application/json"

    def new_game(self, rnd: random.Random) -> dict[str, Any]:
        """A new-game body for a real game: its seats, presets and parameters, now and
        then with a wrong seat count, an edge value or an id to replay."""
        game = rnd.choice(self.catalog)
        body: dict[str, Any] = {"game": game["name"]}
        seats = len(game.get("seats") or ["you"])
        kinds = ["human", "open", *(f"ai:{level}" for level in game.get("ai_levels", []))]
        draw = rnd.random()
        if draw < 0.5:
            body["seats"] = [rnd.choice(kinds) for _ in range(seats)]
        elif draw < 0.6:
            body["seats"] = [rnd.choice([*kinds, "ai:nobody"])
                             for _ in range(rnd.randint(0, seats + 1))]
        presets = list((game.get("presets") or {}).values())
        if presets and rnd.random() < 0.6:
            body["params"] = dict(rnd.choice(presets))
        parameters = game.get("parameters") or []
        if parameters and rnd.random() < 0.3:
            param = rnd.choice(parameters)
            body["params"] = {**body.get("params", {}), param["name"]: self._edge(param, rnd)}
        if self.game_ids and rnd.random() < 0.1:
            body.pop("params", None)
            body["id"] = rnd.choice(self.game_ids)
        return body

    def _edge(self, param: dict[str, Any], rnd: random.Random) -> Any:
        kind = param.get("kind")
        if kind == "int":
            low, high = param.get("min") or 0, param.get("max") or 0
            return rnd.choice([low, high, low - 1, high + 1, param.get("default")])
        if kind == "choice":
            return rnd.choice([*param.get("choices", []), "nothing-like-it"])
        if kind == "bool":
            return rnd.choice([True, False, "yes", 1])
        if kind == "upload":
            return rnd.choice([*self.uploads, "0123456789abcdef"])
        return rnd.choice([param.get("default"), "", 0])


def use_real_ids(schema: OpenApiSchema, pool: Pool) -> None:
    """Let the pool dress a share of the schema's generated cases (a `flatmap_case` hook:
    Hypothesis draws one number, the seed of the choices, however many the pool makes)."""

    def flatmap_case(context: HookContext, case: AnyCase) -> st.SearchStrategy[AnyCase]:
        seeds = st.integers(min_value=0, max_value=2**32 - 1)
        return seeds.map(lambda seed: pool.dress(case, random.Random(seed)))

    schema.hooks.register_hook_with_name(flatmap_case, "flatmap_case")


Call = Callable[[AnyCase], Response]


def seed_pool(schema: OpenApiSchema, call: Call, pool: Pool | None = None) -> Pool:
    """`pool` (or a new one) with one session of every game (default seats, and for games
    with AI levels against the AI and with an open seat, joined), a few moves in each,
    an upload, and a few of those games exported (files to import)."""
    pool = Pool() if pool is None else pool

    def send(path: str, method: str, **parts: Any) -> Response:
        case = schema[path][method].Case(**parts)
        response = call(case)
        pool.learn(case, response)
        return response

    send("/api/catalog", "GET")
    for game in pool.catalog:
        seatings: list[list[str] | None] = [None]
        if len(game["seats"]) > 1:
            seatings += [["human", "open"] + ["human"] * (len(game["seats"]) - 2)]
        if game.get("ai_levels"):
            seatings += [[f"ai:{game['ai_levels'][-1]}"] + ["human"] * (len(game["seats"]) - 1)]
        for seats in seatings:
            body: dict[str, Any] = {"game": game["name"]}
            if seats is not None:
                body["seats"] = seats
            created = send("/api/games", "POST", body=body, media_type="application/json")
            if created.status_code != 201:
                raise RuntimeError(f"cannot seed a {game['name']} game: {created.content!r}")
            sid = json.loads(created.content)["session"]
            if seats and "open" in seats:
                send("/api/games/{sid}/join", "POST", path_parameters={"sid": sid})
    rnd = random.Random(0)
    for holder in list(pool.holders):
        for _ in range(3):
            moves = pool.moves.get(holder.sid)
            if not moves or holder.token is None:
                break
            send("/api/games/{sid}/moves", "POST", path_parameters={"sid": holder.sid},
                 headers={"authorization": f"Bearer {holder.token}"},
                 body={"move": rnd.choice(moves)}, media_type="application/json")
    send("/api/uploads", "POST", body=tiny_png(), media_type="image/png")
    for holder in [h for h in pool.holders if h.token][:6]:  # files to import
        send("/api/games/{sid}/export", "GET", path_parameters={"sid": holder.sid},
             headers={"authorization": f"Bearer {holder.token}"})
    return pool


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid PNG picture, made without an imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


# -- requests outside the schema --------------------------------------------------------------
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


# -- the tally ----------------------------------------------------------------------------------
@dataclass
class Example:
    count: int
    request: str
    answer: str


@dataclass
class Tally:
    tried: int = 0
    seconds: float = 0.0
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    failures: dict[tuple[str, str, int, str], Example] = field(default_factory=dict)
    server_log: list[str] = field(default_factory=list)  # the last lines a server printed

    def record(self, kind: str, where: str, status: int, content_type: str, content: bytes,
               request: Callable[[], str]) -> None:
        self.kinds[kind] += 1
        key = (kind, where, status, body_shape(content_type, content))
        if key in self.failures:
            self.failures[key].count += 1
        else:
            answer = f"{status} {content_type or '(no content type)'} {content[:300]!r}"
            self.failures[key] = Example(1, request(), answer)

    def merge(self, other: Tally) -> None:
        self.tried += other.tried
        self.seconds = max(self.seconds, other.seconds)
        self.statuses.update(other.statuses)
        self.kinds.update(other.kinds)
        self.server_log = [*self.server_log, *other.server_log][-60:]
        for key, example in other.failures.items():
            if key in self.failures:
                self.failures[key].count += example.count
            else:
                self.failures[key] = example


def body_shape(content_type: str, content: bytes) -> str:
    """What an answer's body looks like, to tell failures apart: its JSON keys or type."""
    if content_type.startswith("application/json"):
        try:
            body = json.loads(content)
        except ValueError:
            return "bad JSON"
        if isinstance(body, dict):
            return "{" + ", ".join(sorted(body)) + "}"
        return type(body).__name__
    return content_type.partition(";")[0] or "no content type"


def describe_request(case: AnyCase) -> str:
    """The case as a curl command against `./play`'s address (the bench's own server is
    gone by the time anyone reads it)."""
    try:
        curl = case.as_curl_command()
    except Exception as error:  # a case that cannot even be written down
        return f"{case.method} {case.path} ({error})"
    return SERVER_URL.sub(PLAY_URL, curl)


# -- running ------------------------------------------------------------------------------------
@dataclass
class Target:
    """Where requests go: a schema bound to a server, and how to send a raw request."""

    schema: OpenApiSchema
    call: Call
    send: Callable[[Probe], requests.Response]
    log: Callable[[], list[str]] = list  # what the server printed (a process's last lines)


@contextmanager
def real_server(folder: Path) -> Iterator[Target]:
    server = start_server(folder / "fuzz.sqlite3")
    output = drain_output(server)
    session = requests.Session()
    try:
        schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json", config=fuzz_config())

        def call(case: AnyCase) -> Response:
            return case.call(session=session, timeout=60)

        def send(probe: Probe) -> requests.Response:
            return session.request(probe.method, server.url + probe.path, headers=probe.headers,
                                   data=probe.body, timeout=60, allow_redirects=False)

        yield Target(schema, call, send, lambda: list(output))
    finally:
        session.close()
        server.stop()


@contextmanager
def in_process(folder: Path) -> Iterator[Target]:
    """The app in this process, on a new database in `folder`."""
    from schemathesis.python import asgi  # the client that shares the cases' event loop

    app = make_app(SqliteStore(folder / "fuzz.sqlite3"))
    schema = load_in_process(app)
    application: Any = app  # an ASGI app, though typed differently by Starlette
    client = asgi.get_client(application)

    def call(case: AnyCase) -> Response:
        return case.call()

    def send(probe: Probe) -> requests.Response:
        return client.request(probe.method, probe.path, headers=probe.headers, data=probe.body,
                              allow_redirects=False)

    yield Target(schema, call, send)


class Fuzzer:
    """Sends cases and probes to a target, learns real ids from the answers, and tallies
    every failed check."""

    def __init__(self, target: Target, seed: int, pool: Pool | None = None) -> None:
        self.target = target
        self.pool = seed_pool(target.schema, target.call, pool)
        use_real_ids(target.schema, self.pool)
        self.tally = Tally()
        self.rnd = random.Random(seed)
        self.seed = seed
        self.limit: int | None = None  # stop sending at this many requests
        self.probe_share = 0.0
        self.progress = False

    def case(self, case: AnyCase) -> None:
        """Send `case` and check its answer (and, now and then, a probe before it)."""
        tally = self.tally
        if self.limit is not None and tally.tried >= self.limit:
            return
        if self.rnd.random() < self.probe_share:
            self.probe(make_probe(self.target.schema, self.pool, self.rnd))
        tally.tried += 1
        label = f"{case.method.upper()} {case.path}"
        try:
            response = self.target.call(case)
        except Exception as error:
            tally.statuses[(label, 0)] += 1
            tally.record(f"no answer: {type(error).__name__}", label, 0, "", b"",
                         lambda: describe_request(case))
            return
        tally.statuses[(label, response.status_code)] += 1
        self.pool.learn(case, response)
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            for failure in group.exceptions:
                tally.record(failure.title, label, response.status_code,
                             header(response, "content-type"), response.content,
                             lambda: describe_request(case))
        if self.progress and tally.tried % 10_000 == 0:
            print(f"  worker {self.seed}: {tally.tried} requests, "
                  f"{sum(tally.kinds.values())} failures", flush=True)

    def probe(self, probe: Probe) -> None:
        """Send a request from outside the schema; its answer must be an error."""
        tally = self.tally
        tally.tried += 1
        label = f"{probe.method} {probe.path}"
        where = "(outside the schema)"  # one failure of a kind stands for every route
        try:
            answer = self.target.send(probe)
        except requests.RequestException as error:
            tally.record(f"no answer: {type(error).__name__}", where, 0, "", b"", lambda: label)
            return
        content_type = answer.headers.get("content-type", "")
        tally.statuses[(f"(outside the schema) {probe.kind}", answer.status_code)] += 1
        problem = probe_problem(probe, answer.status_code, content_type, answer.content)
        if problem is not None:
            shown = f"{label} {probe.headers} body={(probe.body or b'')[:60]!r}"
            tally.record(f"{probe.kind}: {problem}", where, answer.status_code, content_type,
                         answer.content, lambda: shown)

    def run(self, requests_wanted: int) -> Tally:
        """Cases drawn at random among all operations, valid and invalid data in turn, and
        probes among them, until `requests_wanted` requests are sent."""
        began = time.perf_counter()
        self.limit, self.probe_share = requests_wanted, PROBE_SHARE
        round_ = 0
        while self.tally.tried < requests_wanted:
            mode = GenerationMode.POSITIVE if round_ % 2 == 0 else GenerationMode.NEGATIVE
            strategy = self.target.schema.as_strategy(generation_mode=mode)
            examples = min(CHUNK, requests_wanted - self.tally.tried)
            run_generated(strategy, examples, self.seed * 100_003 + round_, self.case)
            round_ += 1
        self.tally.seconds = time.perf_counter() - began
        return self.tally

    def each_operation(self, examples: int, probes: int = 0) -> Tally:
        """`examples` cases of valid and as many of invalid data for every operation, in
        turn, then `probes` requests from outside the schema."""
        began = time.perf_counter()
        for number, result in enumerate(self.target.schema.get_all_operations()):
            if isinstance(result, Err):
                raise result.err()
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                strategy = operation.as_strategy(generation_mode=mode)
                run_generated(strategy, examples, self.seed * 1_009 + number, self.case)
        for _ in range(probes):
            self.probe(make_probe(self.target.schema, self.pool, self.rnd))
        self.tally.seconds = time.perf_counter() - began
        return self.tally


def run_generated(strategy: st.SearchStrategy[AnyCase], examples: int, seed: int,
                  each: Callable[[AnyCase], None]) -> None:
    """Up to `examples` cases from `strategy`, given to `each`; nothing it does fails the
    run, so Hypothesis never stops early nor shrinks. A strategy with no case at all
    (invalid data for an operation that takes no input) gives none."""

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case: AnyCase) -> None:
        each(case)

    with contextlib.suppress(Unsatisfiable):
        run()


def worker(job: tuple[int, int, bool]) -> Tally:
    wanted, seed, here = job
    serve = in_process if here else real_server
    with tempfile.TemporaryDirectory() as folder, serve(Path(folder)) as target:
        fuzzer = Fuzzer(target, seed)
        fuzzer.progress = True
        tally = fuzzer.run(wanted)
        tally.server_log = target.log()
        return tally


def failure_report(tally: Tally) -> str:
    """Each distinct failure: its kind, operation, status and body, and one request."""
    return "\n".join(
        f"\n* {kind} | {label} | {status} | {shape}   (×{example.count})"
        f"\n  request: {example.request[:600]}\n  answer:  {example.answer[:400]}"
        for (kind, label, status, shape), example in sorted(tally.failures.items())
    )


def print_report(tally: Tally, args: argparse.Namespace) -> None:
    rate = tally.tried / tally.seconds if tally.seconds else 0.0
    where = "in-process app" if args.in_process else "parlour server process"
    print(f"\nFuzzed the REST API ({where}): {tally.tried} requests in {tally.seconds:.0f} s "
          f"({rate:.0f} per second), seed {args.seed}, {args.workers} worker(s)")
    failures = sum(tally.kinds.values())
    print(f"failures: {failures} in {len(tally.failures)} distinct kinds of answer")
    for kind, count in tally.kinds.most_common():
        print(f"  {count:7d}  {kind}")
    print("\nstatuses seen:")
    by_operation: dict[str, Counter[int]] = {}
    for (label, status), count in tally.statuses.items():
        by_operation.setdefault(label, Counter())[status] += count
    for label in sorted(by_operation):
        counts = "  ".join(f"{status}×{n}" for status, n in sorted(by_operation[label].items()))
        print(f"  {label:<44} {counts}")
    if tally.failures:
        print("\ndistinct failures (kind | where | status | body), one request each:")
        print(failure_report(tally))
    if tally.server_log:
        print(f"\nthe server printed (last {len(tally.server_log)} lines):")
        print("\n".join(f"  | {line}" for line in tally.server_log[-30:]))
    elif not args.in_process:
        print("\nthe server printed nothing (no traceback, no warning)")
    again = f".venv/bin/python -m bench.fuzz_api --requests {args.requests} --seed {args.seed}"
    again += f" --workers {args.workers}" + (" --in-process" if args.in_process else "")
    print(f"\nre-run: {again}")
    print("(the same seed draws the same requests; answers depend on the server's timing "
          "and the ids it hands out)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000, help="requests to send in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2,
                        help="processes generating requests (each with its own server)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the app in each worker, not as a `parlour` process")
    args = parser.parse_args()
    share = -(-args.requests // args.workers)
    jobs = [(min(share, args.requests - i * share), args.seed * 1000 + i, args.in_process)
            for i in range(args.workers)]
    tally = Tally()
    began = time.perf_counter()
    if args.workers == 1:
        tally.merge(worker(jobs[0]))
    else:
        with multiprocessing.get_context("spawn").Pool(args.workers) as processes:
            for part in processes.imap_unordered(worker, jobs):
                tally.merge(part)
    tally.seconds = time.perf_counter() - began
    print_report(tally, args)


if __name__ == "__main__":
    main()
