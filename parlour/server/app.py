"""The ASGI app: REST API for scripts and bots, WebSocket per open game, pages, files.

Every error, from a route, the front door (`guard.py`) or the framework, is
`{"error": "..."}` with its status; /docs lists the statuses each route answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Collection, Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from parlour.core.game import GameSpec, Hint
from parlour.server import timing
from parlour.server.compute import Compute
from parlour.server.fonts import CACHE_CONTROL, MEDIA_TYPE, font_file
from parlour.server.guard import (
    JSON_RULE,
    LOCAL_HOSTS,
    WS_MESSAGE_LIMIT,
    BodyRule,
    Guard,
)
from parlour.server.hub import Action, ApiError, Hub, Live
from parlour.server.live import Opened
from parlour.server.messages import (
    AssistRequest,
    Catalog,
    ClientMessage,
    Created,
    ErrorBody,
    Hello,
    HintReply,
    Joined,
    JoinRequest,
    MoveRequest,
    NewGame,
    TakebackAnswer,
    Uploaded,
    describe_catalog,
)
from parlour.server.resume import (
    ForgetRequest,
    Forgotten,
    HeldRequest,
    ResumeList,
    held_games,
)
from parlour.server.saved_games import FILE_LIMIT, SavedGame, exported, file_name, may_export
from parlour.server.viewers import SEND_TIMEOUT, Viewer
from parlour.server.views import View
from parlour.stats.statistics import statistics
from parlour.store import (
    MAX_BYTES,
    BadUpload,
    OverQuota,
    Store,
    check_picture,
    forgotten_set,
    upload_saved,
)

STATIC = Path(__file__).resolve().parent.parent / "static"
HELLO_TIMEOUT = 10.0
"""Seconds a new WebSocket has to say hello (with its token) before it is closed."""
MESSAGES_WAITING = 16
"""A browser's messages waiting to be carried out, at most: more are refused."""
PICTURE_TYPES = ("image/png", "image/jpeg", "image/webp")
IMPORT_PATH = "/api/games/import"  # its body is a saved file, pictures included
log = logging.getLogger("parlour")


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for the error statuses a route answers. Every route may also
    answer 400 (a Host this server does not answer to), 422 (a parameter that is not
    valid) and 500."""
    return {code: {"model": ErrorBody} for code in sorted({400, 422, 500, *codes})}


READ = errors(401, 404, 409, 503)  # reading a game: 409/503 if it cannot be rebuilt
PLAY = errors(401, 403, 404, 409, 413, 415, 422, 503)  # acting in a game
UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {t: {"schema": {"type": "string", "format": "binary"}}
                    for t in PICTURE_TYPES},
    }
}


def bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must be 'Bearer <token>'")
    return token.strip()


def body_rule(path: str) -> BodyRule:
    if path == "/api/uploads":
        return BodyRule(PICTURE_TYPES, MAX_BYTES)
    if path == IMPORT_PATH:
        return BodyRule(("application/json",), FILE_LIMIT)
    return JSON_RULE


def client_address(request: Request) -> str:
    """Who uploads: each address keeps a limited number of pictures."""
    return request.client.host if request.client else "local"


def create_app(
    store: Store,
    games: Mapping[str, GameSpec],
    ai_delay_scale: float = 1.0,
    allowed_hosts: Collection[str] = LOCAL_HOSTS,
    compute: Compute | None = None,
    send_timeout: float = SEND_TIMEOUT,
) -> FastAPI:
    """The app. `allowed_hosts`: the names it answers to ("*" for any)."""
    hub = Hub(store, games, ai_delay_scale=ai_delay_scale, compute=compute)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    # /docs and /redoc serve Swagger UI and ReDoc from the installed package: no CDN
    app = FastAPIOffline(
        title="Parlour",
        summary="Classic games in the browser. Every game can also be played over this API.",
        description=(
            "Request bodies: JSON of at most 16 KiB (a picture upload: at most "
            f"{MAX_BYTES // 2**20} MiB; a saved game to import, with its pictures in "
            f"base64: at most {FILE_LIMIT // 2**20} MiB); WebSocket messages at most 16 KiB. "
            "Requests that change something must come from a page of this server (Origin) "
            "or carry no Origin at all (scripts). Every error is `{\"error\": \"...\"}`."
        ),
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.add_middleware(Guard, allowed_hosts=allowed_hosts, body_rule=body_rule)
    _handle_errors(app)

    # -- REST -------------------------------------------------------------------
    @app.get("/api/catalog", response_model=Catalog, responses=errors(), tags=["games"])
    async def catalog() -> Catalog:
        """Every game: its seats, parameters, presets, AI levels and shortcuts."""
        return describe_catalog(games)

    @app.post("/api/games", status_code=201, response_model=Created,
              responses=errors(403, 404, 413, 415, 422, 503), tags=["play"])
    async def new_game(body: NewGame) -> Created:
        """Start a game: a new deal, or the deal of `id`. The token moves for your seats."""
        live, token = await hub.create(body.game, body.id, body.params, body.seats)
        return await _created(live, token)

    @app.post(IMPORT_PATH, status_code=201, response_model=Created,
              responses=errors(403, 404, 413, 415, 422, 429, 503), tags=["play"])
    async def import_game(body: SavedGame, request: Request) -> Created:
        """Start a game from a saved file (what GET /api/games/{sid}/export answers), as
        a new session on this server: you hold every human seat, and the position, the
        moves Undo took back, the clock and the help used are the file's. Send the file
        as it is: `application/json`, at most 8 MiB. The pictures it carries are checked
        and kept as your uploads (429: over your quota of pictures), under the ids its
        game id names. 422 says what is wrong with the file: a field, a picture, or the
        first move that cannot be played (`move <n> cannot be played: <why>`, counting
        from 1). 404: a game this server does not have."""
        live, token = await hub.adopt(body, client_address(request))
        return await _created(live, token)

    # before GET /api/games/{sid}, which would take "import" for a session id
    @app.api_route(IMPORT_PATH, methods=["GET", "HEAD", "PUT", "PATCH", "DELETE"],
                   include_in_schema=False)
    async def import_by_post_only() -> None:
        raise HTTPException(405, headers={"Allow": "POST"})

    async def _created(live: Live, token: str) -> Created:
        await hub.settle(live)
        return Created(session=live.sid, id=live.session.id_text, token=token,
                       seats=sorted(live.seats_of(token)), view=hub.view_for(live, token))

    @app.get("/api/games/{sid}", response_model=View, responses=READ, tags=["play"])
    async def get_view(
        sid: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The view of the seats your token holds (no token: a spectator's view). The
        game id, which reveals the deal, is given only to the game's owner until the end."""
        live = await hub.get(sid)
        return dict(hub.view_for(live, bearer(authorization)))

    @app.get("/api/games/{sid}/export", response_model=SavedGame, tags=["play"],
             responses={200: {"description": "the saved file", "headers": {
                 "Content-Disposition": {
                     "description": 'attachment; filename="<game>-<YYYY-MM-DD>.parlour.json"',
                     "schema": {"type": "string"}}}}, **errors(401, 403, 404, 409, 503)})
    async def export_game(
        sid: str, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        """The game as a file to import elsewhere (POST /api/games/import): its id, its
        seats, every move (the redo line included), the position, the clock, the help
        used, and the uploaded pictures its id names, in base64. The file holds the deal,
        so while the game is on only the player who started it may export it; once it is
        over, anyone holding a seat (403 otherwise; 401: an Authorization header that is
        not 'Bearer <token>'). 409: the game cannot be rebuilt, or its file would be over
        the import's limits (100 000 moves, 8 MiB). Answered as a download:
        `Content-Disposition: attachment; filename="<game>-<YYYY-MM-DD>.parlour.json"`."""
        live = await hub.get(sid)
        if not may_export(live, bearer(authorization)):
            raise ApiError(403, "only the player who started this game may export it while "
                           "it is on (the file holds the deal); once over, any player")
        now = hub.now()
        return Response(exported(live, store, now), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{file_name(live, now)}"',
            "Cache-Control": "no-store",
        })

    @app.post("/api/games/{sid}/moves", response_model=View, responses=PLAY, tags=["play"])
    async def move(
        sid: str, body: MoveRequest, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Play a move for the seat to move. Answers once the AI, if any, has replied."""
        return await _act(sid, "move", authorization, body.move)

    @app.post("/api/games/{sid}/hint", response_model=HintReply, responses=PLAY, tags=["play"])
    async def hint(sid: str, authorization: Annotated[str | None, Header()] = None) -> HintReply:
        """A suggested move for your seat. The game then counts as assisted."""
        live = await hub.get(sid)
        token = bearer(authorization)
        found = await hub.act(live, token, "hint")
        assert isinstance(found, Hint)
        return HintReply(move=found.move, note=found.note, view=hub.view_for(live, token))

    @app.post("/api/games/{sid}/assist", response_model=View, responses=PLAY,
              tags=["play"])
    async def assist(
        sid: str, body: AssistRequest, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Turn the game's assist switch on or off (on counts as help in the statistics)."""
        return await _act(sid, "assist", authorization, body.on)

    @app.post("/api/games/{sid}/join", response_model=Joined,
              responses=errors(401, 403, 404, 409, 413, 415, 503), tags=["seats"])
    async def join(
        sid: str, body: JoinRequest | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Joined:
        """Take an open seat of a shared game: `seat`, or the first open one (409 if it
        is taken). With your token from before (you left a seat), you keep it; else you
        get a new one. A seat the computer stood in for is given back. With no seat left
        open, the answer has no token: you may watch."""
        live = await hub.get(sid)
        token, seats = await hub.join(live, bearer(authorization), body.seat if body else None)
        return Joined(token=token, seats=sorted(seats), view=hub.view_for(live, token))

    @app.post("/api/games/{sid}/leave", response_model=View,
              responses=errors(401, 403, 404, 409, 413, 415, 503), tags=["seats"])
    async def leave(
        sid: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Give up your seats: they are open for anyone to take (your token takes one
        again), and the computer plays them meanwhile if the game has one. 409: nobody
        else holds a seat."""
        live = await hub.get(sid)
        token = bearer(authorization)
        await hub.leave(live, token)
        await hub.settle(live)
        return dict(hub.view_for(live, token))

    @app.post("/api/games/{sid}/takeback", response_model=View, responses=PLAY,
              tags=["seats"])
    async def takeback(
        sid: str, body: TakebackAnswer, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Answer the take-back another player asked for with Undo (the view's
        `takeback`): once every other player accepts, their moves are taken back to
        their previous turn; one refusal ends it."""
        return await _act(sid, "takeback", authorization, body.accept)

    @app.post("/api/uploads", status_code=201, response_model=Uploaded,
              responses=errors(403, 413, 415, 422, 429), tags=["games"],
              openapi_extra=UPLOAD_BODY)
    async def upload(request: Request) -> Uploaded:
        """Upload a PNG, JPEG or WebP picture (the body is the image) for a game's picture
        option. It is kept scaled down and re-encoded without its metadata; each player
        keeps a limited number, and one that no game uses expires after a day."""
        data = await request.body()  # at most MAX_BYTES: the front door (`body_rule`) saw to it
        try:
            # decoding takes CPU time the event loop must not wait for
            picture = await asyncio.to_thread(check_picture, data)
        except BadUpload as error:
            raise ApiError(422, str(error)) from None
        try:
            await store.commit(upload_saved(picture, client_address(request), time.time()))
        except OverQuota as error:
            raise ApiError(429, str(error)) from None
        return Uploaded(upload=picture.upload_id, width=picture.width, height=picture.height)

    @app.get("/api/uploads/{upload_id}", response_class=Response, tags=["games"],
              responses={200: {"description": "the picture",
                               "content": {t: {} for t in PICTURE_TYPES}}, **errors(404)})
    async def uploaded(upload_id: str) -> Response:
        """An uploaded picture."""
        picture = store.load_upload(upload_id)
        if picture is None:
            raise ApiError(404, f"no uploaded picture {upload_id!r}")
        return Response(picture.data, media_type=picture.media_type, headers={
            "Cache-Control": "public, max-age=31536000, immutable",
            # opened directly, it must never run as a page (the guard adds nosniff)
            "Content-Security-Policy": "default-src 'none'; sandbox",
        })

    @app.get("/api/sessions", responses=errors(), tags=["games"])
    async def unfinished() -> list[dict[str, Any]]:
        """Every player's unfinished games, most recent first (without their game ids).
        A player's own are POST /api/sessions/mine."""
        return hub.unfinished()

    @app.post("/api/sessions/mine", response_model=ResumeList, summary="Your unfinished games",
              responses=errors(413, 415), tags=["games"])
    async def held(body: HeldRequest) -> ResumeList:
        """Your unfinished games, most recent first, to resume: those where one of the
        tokens you send holds a seat, unless you took it off the list (POST
        /api/games/{sid}/forget). Each says which board (`summary`), who plays, and how
        far it got; not its game id, which holds the deal. `total`: how many in all."""
        return held_games(store, games, body.tokens, body.limit)

    @app.post("/api/games/{sid}/forget", response_model=Forgotten,
              summary="Take a game off your Resume list",
              responses=errors(401, 403, 404, 413, 415), tags=["games"])
    async def forget(
        sid: str, body: ForgetRequest, authorization: Annotated[str | None, Header()] = None
    ) -> Forgotten:
        """Take the game off your Resume list (`{"forget": false}` puts it back). Only a
        player of the game may, with their token: it changes their list alone, and the
        game itself stays as it is (its link still opens it)."""
        token = bearer(authorization)
        if token is None:
            raise ApiError(401, "send your token: 'Authorization: Bearer <token>'")
        if len(sid) > 64 or store.session_row(sid) is None:
            raise ApiError(404, f"no game session {sid[:64]!r}")
        if token not in store.tokens(sid):
            raise ApiError(403, "only a player of this game may take it off their list")
        await store.commit(forgotten_set(sid, token, body.forget))
        return Forgotten(session=sid, forgotten=body.forget)

    @app.get("/api/stats", responses=errors(404), tags=["games"])
    async def stats(game: str | None = None) -> dict[str, Any]:
        """Statistics per game, preset and mode, with charts as SVG (404: no such game)."""
        if game is not None:
            hub.spec(game)
        # drawing charts takes tens of milliseconds each: not on the event loop
        return await asyncio.to_thread(statistics, store.results(game), games)

    if timing.ENABLED:  # only on a server started with PARLOUR_TIMING=1, for the benchmark
        @app.get("/api/debug/timing", include_in_schema=False)
        async def timings() -> dict[str, list[float]]:
            """The server's time per part of each action since the last call (ms), and
            how many objects the garbage collector leaves out (`freeze_startup_heap`)."""
            return {**timing.taken(), "objects frozen": [gc.get_freeze_count()]}

    async def _act(sid: str, action: Action, authorization: str | None, move: Any = None
                   ) -> dict[str, Any]:
        live = await hub.get(sid)
        token = bearer(authorization)
        await hub.act(live, token, action, move)
        await hub.settle(live)
        return dict(hub.view_for(live, token))

    def _action_route(action: str) -> Any:
        async def route(
            sid: str, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            return await _act(sid, action, authorization)  # type: ignore[arg-type]

        route.__name__ = action
        route.__doc__ = {
            "undo": "Take back moves to your previous turn (the game's undo rules apply). "
                    "With other players in the game, this asks them (the view's "
                    "`takeback`): see POST /api/games/{sid}/takeback.",
            "redo": "Replay what Undo took back, up to your next turn.",
            "restart": "Start the same deal again from the beginning.",
        }[action]
        return route

    for action in ("undo", "redo", "restart"):
        app.add_api_route(
            f"/api/games/{{sid}}/{action}", _action_route(action), methods=["POST"],
            response_model=View, responses=PLAY, tags=["play"], summary=action.capitalize(),
        )

    # -- WebSocket ----------------------------------------------------------------
    @app.websocket("/ws/{sid}")
    async def play_socket(socket: WebSocket, sid: str) -> None:
        """A browser's connection to a game. Its first message is
        `{"type": "hello", "token": ...}` (the token stays out of URLs and logs); then it
        is sent views and may send actions (`ClientMessage`)."""
        await socket.accept()
        try:
            hello = Hello.model_validate_json(
                await asyncio.wait_for(_receive_text(socket), HELLO_TIMEOUT)
            )
            live = await hub.get(sid)
        except (TimeoutError, ValidationError, _BadFrame) as error:
            await _refuse(socket, 1008, f"say hello first ({error})"[:120])
            return
        except ApiError as error:  # 4404, 4409...: final, the browser stops reconnecting
            await _refuse(socket, 4000 + error.status if error.status < 500 else 1011,
                          error.message)
            return
        viewer = Viewer(live.seats_of(hello.token), socket.send_json, hello.token,
                        send_timeout)
        live.viewers.add(viewer)
        viewer.show(hub.view_for(live, hello.token))
        serving = asyncio.create_task(_serve(socket, live, viewer))
        dropped = asyncio.create_task(viewer.dropped.wait())
        try:
            await asyncio.wait({serving, dropped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            serving.cancel()
            dropped.cancel()
            viewer.close()
            live.viewers.discard(viewer)

    async def _serve(socket: WebSocket, live: Live, viewer: Viewer) -> None:
        """Read the browser's messages while they are carried out one by one, so that a
        "cancel" reaches the long work it is meant for at once."""
        waiting: asyncio.Queue[ClientMessage] = asyncio.Queue(MESSAGES_WAITING)
        carrying_out = asyncio.create_task(_carry_out(live, viewer, waiting))
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
                try:
                    with timing.part("parse"):
                        message = ClientMessage.model_validate_json(text)
                except ValidationError as error:
                    reason = error.errors()[0]["msg"]
                    viewer.tell({"type": "error", "error": f"bad message: {reason}"})
                    continue
                if message.type == "cancel":
                    hub.cancel(live, viewer.token)
                    continue
                if message.type in ("move", "undo", "redo", "restart"):
                    hub.play_on(live, viewer.token)  # a hint still coming is moot now
                if waiting.full():
                    viewer.tell({"type": "error", "error": "too many messages at once: "
                                 "wait for the answers"})
                else:
                    waiting.put_nowait(message)
        finally:
            carrying_out.cancel()

    async def _carry_out(
        live: Live, viewer: Viewer, waiting: asyncio.Queue[ClientMessage]
    ) -> None:
        while True:
            await _serve_message(live, viewer, await waiting.get())

    async def _serve_message(live: Live, viewer: Viewer, message: ClientMessage) -> None:
        try:
            if message.type == "leave":
                await hub.leave(live, viewer.token)
                return
            assert message.type != "cancel"  # carried out as it comes in (`_serve`)
            payload = {"assist": message.on, "command": message.name,
                       "takeback": message.accept}.get(message.type, message.move)
            found = await hub.act(live, viewer.token, message.type, payload)
            if isinstance(found, Hint):
                viewer.tell({"type": "hint", "move": found.move, "note": found.note})
            elif isinstance(found, Opened):
                viewer.tell({"type": "open", "session": found.sid, "token": found.token,
                             "note": found.note})
            elif found is not None:
                viewer.tell({"type": "note", "note": found})
        except ApiError as error:
            viewer.tell({"type": "error", "error": error.message})
        except Exception:  # a bug must not end the connection without a word
            log.exception("error serving a WebSocket message for %s", live.sid)
            viewer.tell({"type": "error", "error": "internal server error"})
        finally:
            timing.carried_out()

    # -- pages and files ------------------------------------------------------------
    def page(name: str) -> Any:
        async def serve() -> FileResponse:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return serve

    app.add_api_route("/", page("home.html"), include_in_schema=False)
    app.add_api_route("/stats", page("stats.html"), include_in_schema=False)

    @app.get("/play/{game}", include_in_schema=False)
    async def play_page(game: str) -> FileResponse:
        hub.spec(game)
        return FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-cache"})

    @app.get("/games/{game}/view.css", include_in_schema=False)
    async def game_css(game: str) -> Response:
        spec = hub.spec(game)
        css = resources.files(type(spec.game).__module__.rpartition(".")[0]) / "view.css"
        text = css.read_text() if css.is_file() else ""
        return Response(text, media_type="text/css", headers={"Cache-Control": "no-cache"})

    @app.get("/fonts/{name}", include_in_schema=False)
    async def font(name: str) -> FileResponse:
        """The pages' typeface, from its font package (`parlour/server/fonts.py`)."""
        path = font_file(name)
        if path is None:
            raise ApiError(404, f"no such font: {name[:100]}")
        return FileResponse(path, media_type=MEDIA_TYPE, headers={"Cache-Control": CACHE_CONTROL})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


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
        await asyncio.wait_for(socket.send_json({"type": "error", "error": reason}), 5)
        await asyncio.wait_for(socket.close(code=code, reason=reason[:120]), 5)


def _handle_errors(app: FastAPI) -> None:
    """Every error as `{"error": "..."}`."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "bad request"}
        if first.get("type") == "json_invalid":
            return JSONResponse({"error": "bad request: the body is not valid JSON"}, 422)
        where = ".".join(str(part) for part in first["loc"] if part != "body") or "body"
        return JSONResponse({"error": f"bad request: {where}: {first['msg']}"}, 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        message = {
            400: "bad request: the body could not be read as JSON",
            404: f"no such page or API route: {request.url.path[:100]}",
            405: f"{request.method} is not allowed on {request.url.path[:100]}",
        }.get(error.status_code, str(error.detail))
        return JSONResponse({"error": message}, error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> JSONResponse:
        log.exception("error serving %s %s", request.method, request.url.path)
        return JSONResponse({"error": "internal server error"}, 500)
