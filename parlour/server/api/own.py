"""What the routes of a player's own results share (parlour.stats.own): the tokens a
browser sends to prove its games (`OwnTokens`, as long as its backup's), the paths that
take them, and the guard that refuses, on a shared Parlour, a read of every player's."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from parlour.server.hub.core import Hub
from parlour.server.hub.errors import ApiError
from parlour.server.hub.messages import Strict
from parlour.stats.own import MAX_HELD

HELD_BODY_LIMIT = 2**20
"""Bytes of a request carrying a browser's tokens: MAX_HELD tokens of 64 characters,
quoted, fit in 0.7 MiB."""
OWN_PATHS = ("/api/stats/mine", "/api/daily/mine", "/api/replays/mine",
             "/api/results.csv/mine", "/api/backup/mine")
"""The routes that take `OwnTokens` (and each game's /api/games/{sid}/records/mine)."""


def takes_tokens(path: str) -> bool:
    return path in OWN_PATHS or (path.startswith("/api/games/")
                                 and path.endswith("/records/mine"))


class OwnTokens(Strict):
    """The seat tokens a browser keeps: they prove which games are the player's."""

    tokens: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = Field(
        max_length=MAX_HELD, description=f"the tokens this browser keeps, at most {MAX_HELD} "
        "(its most recent); a token no game here has a seat for is ignored")


def refuse_everyones(hub: Hub, what: str, path: str) -> None:
    """On a shared Parlour a read of every player's results is refused (403): each player
    reads their own, POST `path`/mine, and nobody lists the games of others."""
    if hub.shared:
        raise ApiError(403, f"{what} are each player's own here: POST {path}/mine with "
                       "the seat tokens your browser keeps")
