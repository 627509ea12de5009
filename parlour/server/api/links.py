"""What a link will do, before it does it: a deal link (`/play/GAME?id=ID`) starts a game
and a seat link (`?session=SID&seat=N`) takes a seat, so a page opened from outside
Parlour first shows the game and its board in the game's words and waits for a click
(play.js, links.js). Reading them starts nothing and takes no seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from parlour.core.game import BadParams
from parlour.core.gameid import parse_game_id
from parlour.server.api.deps import HubDep
from parlour.server.api.errors import READ, errors
from parlour.server.api.schemas import NewGame
from parlour.server.hub.errors import ApiError

router = APIRouter()

GAME_NAME_LIMIT = NewGame.model_fields["game"].metadata[0].max_length
GAME_ID_LIMIT = NewGame.model_fields["id"].metadata[0].max_length


class LinkPreview(BaseModel):
    """A game a link leads to, as its prompt shows it."""

    game: str
    title: str = Field(description="the game's name, as players read it")
    board: str = Field(description="the board or rules in the game's own words "
                       "(Minesweeper's \"Expert 16×30\"); empty for a game without parameters")
    position: bool = Field(description="the link sets its own start position instead of "
                           "a dealt one")


@router.get("/api/links/deal", response_model=LinkPreview, responses=errors(404),
            tags=["games"])
async def deal_link(
    hub: HubDep,
    game: Annotated[str, Query(max_length=GAME_NAME_LIMIT)],
    id: Annotated[str, Query(max_length=GAME_ID_LIMIT)],
) -> LinkPreview:
    """What `/play/GAME?id=ID` starts, without starting it: the game and its board. 422
    says why the id is not one of this game's (what POST /api/games would refuse)."""
    spec = hub.spec(game)
    try:
        game_id = parse_game_id(spec.game, id)
    except BadParams as error:
        raise ApiError(422, f"this link's deal cannot be played: {error}") from error
    return LinkPreview(game=spec.game.name, title=spec.game.title,
                       board=spec.game.summary(game_id.params),
                       position=game_id.seed is None)


@router.get("/api/links/session/{sid}", response_model=LinkPreview, responses=READ,
            tags=["games"])
async def session_link(sid: str, hub: HubDep) -> LinkPreview:
    """The game and board of `/play/GAME?session=SID`, whose seats GET /api/games/{sid}
    lists: what the page shows before a seat is taken."""
    live = await hub.get(sid)
    game_id = live.session.game_id
    game = live.session.game
    return LinkPreview(game=game.name, title=game.title, board=game.summary(game_id.params),
                       position=game_id.seed is None)
