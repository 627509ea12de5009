"""Every error as `{"error": "..."}` with its status: the app's exception handlers, and
the OpenAPI `responses` that tell /docs which statuses each route answers."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from parlour.server.hub.errors import ApiError, LimitReached

log = logging.getLogger("parlour")


class ErrorBody(BaseModel):
    error: str
    quiet: bool | None = None
    """true for a move the game lets pass without a word (`IgnoredMove`): a click a player
    makes in passing, such as Minesweeper's on a number whose flags are not all placed"""


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for the error statuses a route answers. Every route may also
    answer 400 (a Host this server does not answer to), 422 (a parameter that is not
    valid) and 500."""
    return {code: {"model": ErrorBody} for code in sorted({400, 422, 500, *codes})}


READ = errors(401, 404, 409, 503)  # reading a game: 409/503 if it cannot be rebuilt
PLAY = errors(401, 403, 404, 409, 413, 415, 422, 503)  # acting in a game


def handle_errors(app: FastAPI) -> None:
    """Every error as `{"error": "..."}`."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        headers = ({"Retry-After": str(error.retry_after)}
                   if isinstance(error, LimitReached) else None)
        body = {"error": error.message, **({"quiet": True} if error.quiet else {})}
        return JSONResponse(body, status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "Bad request"}
        if first.get("type") == "json_invalid":
            return JSONResponse({"error": "Bad request: the body is not valid JSON"}, 422)
        where = ".".join(str(part) for part in first["loc"] if part != "body") or "body"
        return JSONResponse({"error": f"Bad request: {where}: {first['msg']}"}, 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        message = {
            400: "Bad request: the body could not be read as JSON",
            404: f"No such page or API route: {request.url.path[:100]}",
            405: f"{request.method} is not allowed on {request.url.path[:100]}",
        }.get(error.status_code, str(error.detail))
        return JSONResponse({"error": message}, error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> JSONResponse:
        log.exception("error serving %s %s", request.method, request.url.path)
        return JSONResponse({"error": "Internal server error"}, 500)
