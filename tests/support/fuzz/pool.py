"""What exists on the server (sessions, seat tokens, moves, games, uploads), learnt from
its answers and put into generated requests."""

from __future__ import annotations

import json
import random
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st
from requests.structures import CaseInsensitiveDict
from schemathesis import HookContext, Response
from schemathesis.specs.openapi.schemas import OpenApiSchema

from tests.support.fuzz.checks import AnyCase, header
from tests.support.markup import legal_moves

DRESS_SHARE = 0.5  # the share of cases given real ids, tokens, moves and games


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


