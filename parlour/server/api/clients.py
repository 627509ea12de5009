"""Who is asking: the client a request or socket comes from, for fair shares and quotas.

Each of Parlour's pages gives the browser a player cookie the first time it is served
(random, HttpOnly, SameSite=Strict). The browser then sends it with every request and
socket of the page, with no code in the client, and never with a request made by a page
of another site. A client without one (a script, another site's page) is known by its
address alone, so all such clients of one address share one allowance. Behind a reverse
proxy the address is the one the trusted proxy names, not the proxy's (`api/proxies.py`
has set it before anything here reads it).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection
from starlette.responses import Response

PLAYER_COOKIE = "parlour_player"
_PLAYER_FORM = re.compile(r"[A-Za-z0-9_-]{22}")
_A_YEAR = 365 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Client:
    """A player's browser (by its cookie), or else an address."""

    player: str | None
    address: str

    @property
    def key(self) -> str:
        """The name this client's allowances are kept under."""
        return f"player:{self.player}" if self.player else f"address:{self.address}"


def client_of(connection: HTTPConnection) -> Client:
    """The client of a request or WebSocket; a malformed cookie counts as none."""
    cookie = connection.cookies.get(PLAYER_COOKIE, "")
    player = cookie if _PLAYER_FORM.fullmatch(cookie) else None
    address = connection.client.host if connection.client else "local"
    return Client(player, address)


ClientDep = Annotated[Client, Depends(client_of)]


def give_player_cookie(connection: HTTPConnection, response: Response) -> None:
    """Set a new player cookie on a page's response, unless the browser has one."""
    if client_of(connection).player is None:
        response.set_cookie(PLAYER_COOKIE, secrets.token_urlsafe(16), max_age=_A_YEAR,
                            path="/", httponly=True, samesite="strict")
