"""The pages and their files: home, statistics and a game's page (its title and a link's
preview written in, `preview.py`), each game's own CSS, the typeface (`fonts.py`) and
the static files (none of them in /docs)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from parlour.server.api.clients import give_player_cookie
from parlour.server.api.deps import HubDep
from parlour.server.api.fonts import CACHE_CONTROL, MEDIA_TYPE, font_file
from parlour.server.api.install import PREVIEW_ICON
from parlour.server.api.preview import page_with_preview, preview
from parlour.server.hub.errors import ApiError

STATIC = Path(__file__).resolve().parent.parent.parent / "static"

router = APIRouter(include_in_schema=False)


def page_file(request: Request, name: str) -> FileResponse:
    """A page, with the player cookie the browser is known by (`api/clients.py`)."""
    response = FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
    give_player_cookie(request, response)
    return response


def page(name: str) -> Any:
    async def serve(request: Request) -> FileResponse:
        return page_file(request, name)

    return serve


router.add_api_route("/", page("home.html"))
router.add_api_route("/stats", page("stats.html"))


@router.get("/replay/{sid}")
async def replay_page(sid: str, request: Request) -> FileResponse:
    """A game's replay: the page asks the API for it, and says why when it may not."""
    return page_file(request, "replay.html")


@router.get("/play/{game}")
async def play_page(game: str, request: Request, hub: HubDep) -> HTMLResponse:
    """A game's page, titled as its link's preview shows it. Loading it starts no game and
    takes no seat: the page's click does (links.py)."""
    spec = hub.spec(game)
    hub.opening.ready.expect(spec)  # a newcomer's slow first deal is made meanwhile
    shown = preview(spec, request.query_params)
    image = str(request.base_url).rstrip("/") + PREVIEW_ICON
    response = HTMLResponse(page_with_preview(STATIC / "play.html", shown, image),
                            headers={"Cache-Control": "no-cache"})
    give_player_cookie(request, response)
    return response


@router.get("/games/{game}/view.css")
async def game_css(game: str, hub: HubDep) -> Response:
    spec = hub.spec(game)
    css = resources.files(type(spec.game).__module__.rpartition(".")[0]) / "view.css"
    text = css.read_text() if css.is_file() else ""
    return Response(text, media_type="text/css", headers={"Cache-Control": "no-cache"})


@router.get("/fonts/{name}")
async def font(name: str) -> FileResponse:
    """The pages' typeface, from its font package (`api/fonts.py`)."""
    path = font_file(name)
    if path is None:
        raise ApiError(404, f"no such font: {name[:100]}")
    return FileResponse(path, media_type=MEDIA_TYPE, headers={"Cache-Control": CACHE_CONTROL})


def mount_static(app: FastAPI) -> None:
    """/static: the pages' scripts, styles and pictures."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
