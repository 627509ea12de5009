"""The ASGI app: REST API for scripts and bots, WebSocket per open game, pages, files."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from parlour.core.game import GameSpec
from parlour.server.hub import Action, ApiError, Hub, Live, Viewer
from parlour.server.messages import (
    AssistRequest,
    Catalog,
    ClientMessage,
    Created,
    ErrorBody,
    HintReply,
    Joined,
    MoveRequest,
    NewGame,
    Uploaded,
    describe_catalog,
)
from parlour.stats import statistics
from parlour.store import Store, upload_saved
from parlour.uploads import MAX_BYTES, BadUpload, check_picture

STATIC = Path(__file__).resolve().parent.parent / "static"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422, 500)
}
UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {t: {"schema": {"type": "string", "format": "binary"}}
                    for t in ("image/png", "image/jpeg")},
    }
}


def bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must be 'Bearer <token>'")
    return token.strip()


def create_app(store: Store, games: Mapping[str, GameSpec], ai_delay_scale: float = 1.0) -> FastAPI:
    hub = Hub(store, games, ai_delay_scale=ai_delay_scale)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="Parlour",
        summary="Classic games in the browser. Every game can also be played over this API.",
        lifespan=lifespan,
    )
    app.state.hub = hub

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

    # -- REST -------------------------------------------------------------------
    @app.get("/api/catalog", response_model=Catalog, tags=["games"])
    async def catalog() -> Catalog:
        """Every game: its seats, parameters, presets, AI levels and shortcuts."""
        return describe_catalog(games)

    @app.post("/api/games", status_code=201, response_model=Created, responses=ERRORS,
              tags=["play"])
    async def new_game(body: NewGame) -> Created:
        """Start a game: a new deal, or the deal of `id`. The token moves for your seats."""
        live, token = await hub.create(body.game, body.id, body.params, body.seats)
        await hub.settle(live)
        return Created(session=live.sid, id=live.session.id_text, token=token,
                       seats=sorted(live.seats_of(token)),
                       view=hub.view(live, live.seats_of(token)))

    @app.get("/api/games/{sid}", responses=ERRORS, tags=["play"])
    async def get_view(
        sid: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The view of the seats your token holds (no token: a spectator's view)."""
        live = hub.get(sid)
        return dict(hub.view(live, live.seats_of(bearer(authorization))))

    @app.post("/api/games/{sid}/moves", responses=ERRORS, tags=["play"])
    async def move(
        sid: str, body: MoveRequest, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Play a move for the seat to move. Answers once the AI, if any, has replied."""
        return await _act(sid, "move", authorization, body.move)

    @app.post("/api/games/{sid}/hint", response_model=HintReply, responses=ERRORS, tags=["play"])
    async def hint(sid: str, authorization: Annotated[str | None, Header()] = None) -> HintReply:
        """A suggested move for your seat. The game then counts as assisted."""
        live = hub.get(sid)
        token = bearer(authorization)
        found = await hub.act(live, token, "hint")
        assert found is not None
        return HintReply(move=found.move, note=found.note,
                         view=hub.view(live, live.seats_of(token)))

    @app.post("/api/games/{sid}/assist", responses=ERRORS, tags=["play"])
    async def assist(
        sid: str, body: AssistRequest, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Turn the game's assist switch on or off (on counts as help in the statistics)."""
        return await _act(sid, "assist", authorization, body.on)

    @app.post("/api/games/{sid}/join", response_model=Joined, responses=ERRORS, tags=["play"])
    async def join(sid: str) -> Joined:
        """Take the first open seat of a shared game; with none left, you may watch."""
        live = hub.get(sid)
        token, seats = await hub.join(live)
        await hub.broadcast(live, "join")
        return Joined(token=token, seats=sorted(seats), view=hub.view(live, seats))

    @app.post("/api/uploads", status_code=201, response_model=Uploaded, responses=ERRORS,
              tags=["games"], openapi_extra=UPLOAD_BODY)
    async def upload(request: Request) -> Uploaded:
        """Upload a PNG or JPEG picture (the body is the image) for a game's picture option."""
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BYTES:
                raise ApiError(413, f"a picture may be at most {MAX_BYTES // 2**20} MiB")
        try:
            picture = check_picture(bytes(data))
        except BadUpload as error:
            raise ApiError(422, str(error)) from None
        await store.commit(upload_saved(picture, time.time()))
        return Uploaded(upload=picture.upload_id, width=picture.width, height=picture.height)

    @app.get("/api/uploads/{upload_id}", responses=ERRORS, tags=["games"])
    async def uploaded(upload_id: str) -> Response:
        """An uploaded picture."""
        picture = store.load_upload(upload_id)
        if picture is None:
            raise ApiError(404, f"no uploaded picture {upload_id!r}")
        cache = "public, max-age=31536000, immutable"
        return Response(picture.data, media_type=picture.media_type,
                        headers={"Cache-Control": cache})

    @app.get("/api/sessions", tags=["games"])
    async def unfinished() -> list[dict[str, Any]]:
        """Unfinished games, most recent first, to resume."""
        return hub.unfinished()

    @app.get("/api/stats", tags=["games"])
    async def stats(game: str | None = None) -> dict[str, Any]:
        """Statistics per game, preset and mode, with charts as SVG."""
        if game is not None:
            hub.spec(game)
        return statistics(store.results(game), games)

    async def _act(sid: str, action: Action, authorization: str | None, move: Any = None
                   ) -> dict[str, Any]:
        live = hub.get(sid)
        token = bearer(authorization)
        await hub.act(live, token, action, move)
        await hub.settle(live)
        return dict(hub.view(live, live.seats_of(token)))

    def _action_route(action: str) -> Any:
        async def route(
            sid: str, authorization: Annotated[str | None, Header()] = None
        ) -> dict[str, Any]:
            return await _act(sid, action, authorization)  # type: ignore[arg-type]

        route.__name__ = action
        route.__doc__ = {
            "undo": "Take back moves to your previous turn (the game's undo rules apply).",
            "redo": "Replay what Undo took back, up to your next turn.",
            "restart": "Start the same deal again from the beginning.",
        }[action]
        return route

    for action in ("undo", "redo", "restart"):
        app.add_api_route(
            f"/api/games/{{sid}}/{action}", _action_route(action), methods=["POST"],
            responses=ERRORS, tags=["play"], summary=action.capitalize(),
        )

    # -- WebSocket ----------------------------------------------------------------
    @app.websocket("/ws/{sid}")
    async def play_socket(socket: WebSocket, sid: str, token: str | None = None) -> None:
        await socket.accept()
        try:
            live = hub.get(sid)
        except ApiError as error:
            await socket.send_json({"type": "error", "error": error.message})
            await socket.close(code=4404)
            return
        viewer = Viewer(live.seats_of(token), socket.send_json)
        live.viewers.add(viewer)
        try:
            await viewer.show(hub.view(live, viewer.seats))
            while True:
                await _serve_message(live, token, viewer, await socket.receive_text())
        except WebSocketDisconnect:
            pass
        finally:
            live.viewers.discard(viewer)

    async def _serve_message(live: Live, token: str | None, viewer: Viewer, text: str) -> None:
        try:
            message = ClientMessage.model_validate_json(text)
            viewer.seats = live.seats_of(token)
            payload = message.on if message.type == "assist" else message.move
            found = await hub.act(live, token, message.type, payload)
            if found is not None:
                await viewer.send({"type": "hint", "move": found.move, "note": found.note})
        except ValidationError as error:
            reason = error.errors()[0]["msg"]
            await viewer.send({"type": "error", "error": f"bad message: {reason}"})
        except ApiError as error:
            await viewer.send({"type": "error", "error": error.message})

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

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
