"""The REST API's request bodies and answers, as pydantic models (they make /docs).

The hub's own documents are its own: a view (`hub/views.py`), a saved file
(`hub/saved_games.py`), the Resume list (`hub/resume.py`); the catalog is catalog.py.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from parlour.server.hub.messages import Strict
from parlour.server.hub.views import View


class NewGame(Strict):
    game: str = Field(
        description="a game name from /api/catalog", examples=["tictactoe"], max_length=40
    )
    id: str | None = Field(
        None, max_length=4500,
        description="replay this deal: '<game>:<params>#<seed>', or start from a position "
        "given as '<game>:<params>:<position>' (see the game's position_help)",
    )
    params: dict[str, int | str | bool] | None = Field(
        None, description="parameters (see the catalog); missing ones take their default",
        max_length=32,
    )
    seats: list[str] | None = Field(
        None,
        max_length=8,
        description="per seat: 'human' (you), 'open' (for whoever joins), or 'ai:<level>'",
        examples=[["human", "ai:perfect"]],
    )
    watch: bool = Field(
        False, description="answer at once, before the computers move: they start when "
        "a page opens the game, at the pace its players chose, so that its first moves "
        "are seen (a browser's new game)",
    )


class MoveRequest(Strict):
    move: Any = Field(description="the game's move JSON", examples=[{"cell": [1, 1]}])


class JoinRequest(Strict):
    seat: int | None = Field(
        None, ge=0, le=7, description="the seat to take (see the view's seats); "
        "none: the first open one"
    )


class TakebackAnswer(Strict):
    accept: bool = Field(
        description="accept or refuse the take-back asked for (the player who asked "
        "withdraws it with false)"
    )


class RematchAnswer(Strict):
    accept: bool = Field(
        description="true offers a rematch, or accepts the one offered; false declines it "
        "(the player who offered it withdraws it with false)"
    )


class AssistRequest(Strict):
    on: bool = Field(description="turn the game's assist switch on or off")


class Created(BaseModel):
    session: str
    id: str
    token: str = Field(description="send as 'Authorization: Bearer <token>' to move")
    seats: list[int]
    view: View


class Joined(BaseModel):
    token: str | None = Field(description="null when no seat is free: you can watch")
    seats: list[int]
    view: View


class HintReply(BaseModel):
    move: Any
    note: str
    view: View


class Uploaded(BaseModel):
    upload: str = Field(description="the value to give a parameter of kind 'upload'")
    width: int
    height: int
