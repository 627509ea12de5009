"""What a route is handed from the app it serves: its hub (`HubDep`), set by
`create_app` on `app.state`, so that the routes are plain functions of a module."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from parlour.server.hub.core import Hub


async def app_hub(connection: HTTPConnection) -> Hub:
    """The app's hub (async: FastAPI calls it in place, not in a thread)."""
    hub: Hub = connection.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(app_hub)]
