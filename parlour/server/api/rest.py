"""The REST API, for scripts and bots: every route as a plain function of `router`, the
hub handed in (`HubDep`). A route reads its path, header and body, asks the hub, and
shapes the answer; the rules are the hub's. /docs lists the statuses each route answers.

A route that waits for work (a deal, the computer's move, a hint) names its client to the
hub (`api/clients.py`: the fair shares of `hub/shares.py`) and drops that work if the
client hangs up first (`while_connected`): nobody is left to answer.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from parlour.core import daily
from parlour.core.game import BadParams, Hint, Status
from parlour.server import timing
from parlour.server.api import pace
from parlour.server.api.catalog import Catalog, describe_catalog
from parlour.server.api.clients import ClientDep
from parlour.server.api.deps import HubDep
from parlour.server.api.errors import PLAY, READ, ErrorBody, errors
from parlour.server.api.guard import JSON_RULE, BodyRule
from parlour.server.api.own import HELD_BODY_LIMIT, OwnTokens, refuse_everyones, takes_tokens
from parlour.server.api.schemas import (
    AssistRequest,
    Created,
    HintReply,
    Joined,
    JoinRequest,
    MoveRequest,
    NewGame,
    RematchAnswer,
    TakebackAnswer,
    Uploaded,
)
from parlour.server.hub import pictures, replays, resume
from parlour.server.hub.backup import BACKUP_LIMIT
from parlour.server.hub.core import Hub
from parlour.server.hub.errors import ApiError
from parlour.server.hub.live import Live
from parlour.server.hub.messages import (
    Action,
    AnswerRematch,
    AnswerTakeback,
    AskHint,
    PlayMove,
    Redo,
    Restart,
    SetAssist,
    Undo,
)
from parlour.server.hub.replays import Position, Replay
from parlour.server.hub.resume import ForgetRequest, Forgotten, HeldRequest, ResumeList
from parlour.server.hub.saved_games import FILE_LIMIT, SavedGame, exported, file_name
from parlour.server.hub.shares import (
    COMPUTER_GAMES_PER_CLIENT,
    COMPUTER_GAMES_RUNNING,
    HINTS_PER_CLIENT,
    LIVE_GAMES_PER_CLIENT,
    LONG_WORK_PER_CLIENT,
)
from parlour.server.hub.tokens import Presented, presented
from parlour.server.hub.views import View
from parlour.server.limits import Kind
from parlour.stats.daily import daily_report
from parlour.stats.own import HeldResults
from parlour.stats.past_games import MAX_LISTED, PastGame, past_games
from parlour.stats.records import best_possible_record, store_end_records
from parlour.stats.statistics import own_statistics, store_statistics
from parlour.store import MAX_BYTES, ResultReads

T = TypeVar("T")
PICTURE_TYPES = ("image/png", "image/jpeg", "image/webp")
FAIR_SHARE = (
    f"over your fair share (per player: {LIVE_GAMES_PER_CLIENT} unfinished games in "
    f"use, {COMPUTER_GAMES_PER_CLIENT} games of computers only running, {HINTS_PER_CLIENT} "
    f"hints and {LONG_WORK_PER_CLIENT} pieces of long work waited for at once; "
    f"{COMPUTER_GAMES_RUNNING} games of computers only on the server); the error names "
    "the limit. Work you stop waiting for (you hang up) is dropped. Or over a rate limit "
    "of the host's (moves a minute, new games and uploads an hour): the error names it, "
    "and Retry-After says when to come back."
)
OVER_SHARE: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorBody, "description": "O" + FAIR_SHARE[1:]}}
PLAY_SHARED = {**PLAY, **OVER_SHARE}  # acting in a game, with long work (a hint...)
IMPORT_PATH = "/api/games/import"  # its body is a saved file, pictures included
IMPORTED_MOVES_PER_UNIT = 100
"""An import costs its client's pacing a unit per this many moves (`pace.py`): each is
replayed and written, which its bytes alone undercount tenfold."""


def body_rule(path: str) -> BodyRule:
    """The body a route takes, for the front door: its content types and size limit."""
    if path == "/api/uploads":
        return BodyRule(PICTURE_TYPES, MAX_BYTES)
    if path == IMPORT_PATH:
        return BodyRule(("application/json",), FILE_LIMIT)
    if path == "/api/backup":  # a restore: a whole backup, pictures included
        return BodyRule(("application/json",), BACKUP_LIMIT)
    if takes_tokens(path):  # the tokens a browser keeps
        return BodyRule(("application/json",), HELD_BODY_LIMIT)
    return JSON_RULE
IMPORT_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/SavedGame"}}}}}
"""The import's body, read by the route itself (off the event loop when long)."""
UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {t: {"schema": {"type": "string", "format": "binary"}}
                    for t in PICTURE_TYPES},
    }
}
Authorization = Annotated[str | None, Header()]

router = APIRouter()


def bearer(authorization: str | None) -> Presented | None:
    """The token an Authorization header presents, as the hub compares it (its digest)."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must be 'Bearer <token>'")
    return Presented(token.strip())


@router.get("/api/catalog", response_model=Catalog, responses=errors(), tags=["games"])
async def catalog(hub: HubDep) -> Catalog:
    """Every game: its seats, parameters, presets, AI levels and shortcuts."""
    return describe_catalog(hub.games, hub.shared)


@router.post("/api/games", status_code=201, response_model=Created,
             responses={**errors(403, 404, 413, 415, 422, 503), **OVER_SHARE}, tags=["play"],
             description="Start a game: a new deal, or the deal of `id`. The token moves "
             "for your seats. Answers once the computers, if any are to move, have "
             "played (a game of computers only: once it is over, unless you hang up: "
             "its computers then stop until someone opens it); with `watch`, at once. "
             "429: " + FAIR_SHARE)
async def new_game(body: NewGame, request: Request, hub: HubDep, client: ClientDep
                   ) -> Created:
    async def started() -> Created:
        live, token = await hub.create(body.game, body.id, body.params, body.seats,
                                       client=client.key, watched=body.watch)
        return await _created(hub, live, token, settle=not body.watch)

    return await while_connected(request, started())


@router.post(IMPORT_PATH, status_code=201, response_model=Created,
             responses={**errors(403, 404, 413, 415, 422, 503), 429: {
                 "model": ErrorBody,
                 "description": "Over your quota of pictures or imported moves, or "
                                + FAIR_SHARE}},
             tags=["play"], openapi_extra=IMPORT_BODY)
async def import_game(request: Request, client: ClientDep, hub: HubDep) -> Created:
    """Start a game from a saved file (what GET /api/games/{sid}/export answers), as
    a new session on this server: you hold every human seat, and the position, the
    moves Undo took back, the clock and the help used are the file's. Send the file
    as it is: `application/json`, at most 8 MiB and 10 000 moves. The pictures it
    carries are checked and kept as your uploads (429: over your quota of pictures),
    under the ids its game id names, each of which must be the one its bytes make.
    422 says what is wrong with the file: a field, a picture, or the first move that
    cannot be played (`move <n> cannot be played: <why>`, counting from 1). 404: a
    game this server does not have. 429 also: over your fair share of games (see POST
    /api/games), or over your limit of new games or of uploads an hour (Retry-After)."""
    data = await request.body()  # at most FILE_LIMIT: the front door (`body_rule`) saw to it
    await _within_upload_limits(hub, client.key, len(data))

    async def adopted() -> Created:
        live, token = await hub.adopt(data, client.key, client=client.key)
        pace.charge(live.session.line_length / IMPORTED_MOVES_PER_UNIT)  # its replay and writes
        return await _created(hub, live, token)

    return await while_connected(request, adopted())


# before GET /api/games/{sid}, which would take "import" for a session id
@router.api_route(IMPORT_PATH, methods=["GET", "HEAD", "PUT", "PATCH", "DELETE"],
                  include_in_schema=False)
async def import_by_post_only() -> None:
    raise HTTPException(405, headers={"Allow": "POST"})


async def while_connected(request: Request, waiting: Awaitable[T]) -> T:
    """What `waiting` answers; if the client hangs up first, it is cancelled (its queued
    work dropped, the computers it waited for stopped if nobody else is there)."""
    answer = asyncio.ensure_future(waiting)
    gone = asyncio.ensure_future(_hung_up(request))
    try:
        await asyncio.wait({answer, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not answer.done():
            answer.cancel()
    if not answer.done() or answer.cancelled():
        await asyncio.gather(answer, return_exceptions=True)  # until it has stopped
        raise ApiError(409, "dropped: the client hung up")
    return answer.result()


async def _hung_up(request: Request) -> None:
    """Return when the client closes the connection (its body has been read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _created(hub: Hub, live: Live, token: str, settle: bool = True) -> Created:
    if settle:
        await hub.settle(live)
    key = Presented(token)
    return Created(session=live.sid, id=live.session.id_text, token=token,
                   seats=sorted(live.seats_of(key)), view=hub.view_for(live, key))


@router.get("/api/games/{sid}", response_model=View, responses=READ, tags=["play"])
async def get_view(sid: str, hub: HubDep, authorization: Authorization = None) -> dict[str, Any]:
    """The view of the seats your token holds (no token: a spectator's view). The
    game id, which reveals the deal, is given only to the game's owner until the end."""
    live = await hub.get(sid)
    return dict(hub.view_for(live, bearer(authorization)))


@router.get("/api/games/{sid}/positions/{ply}", response_model=Position,
            responses=errors(401, 403, 404, 409, 503), tags=["replays"])
async def get_position(
    sid: str, ply: Annotated[int, Path(ge=0, le=replays.MAX_PLY)], hub: HubDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """The board after the first `ply` moves (0: the start), with what the game's view
    says of that position (headline, status, scores, text): to step through a replay or
    look back at a move. Once the game is over, anyone may look; while it is on, only
    its players, as their seats saw it (403 to others). 404: no such move yet. Nothing
    on it can be played."""
    live = await hub.get(sid)
    return await replays.position(live, bearer(authorization), ply)


@router.get("/api/games/{sid}/replay", response_model=Replay,
            responses=errors(401, 403, 404, 409, 503), tags=["replays"])
async def get_replay(sid: str, hub: HubDep, authorization: Authorization = None
                     ) -> dict[str, Any]:
    """What a replay page needs around the board: the game, its id (the same deal again),
    its result, the number of moves to step through and, for games of several players,
    a note per move. Open as GET /api/games/{sid}/positions/{ply} is."""
    live = await hub.get(sid)
    return replays.replay_of(live, bearer(authorization))


@router.get("/api/games/{sid}/records", responses=errors(401, 403, 404, 503), tags=["games"])
async def get_records(sid: str, hub: HubDep, authorization: Authorization = None
                      ) -> list[dict[str, Any]]:
    """The records a finished game is measured against, for its end card: of each figure
    the statistics keep a best of (a time, fewest moves, a score), the best before this
    game in its group, or this game's own when it set a new one (`new`); per the seats
    your token holds (no token: the game's first seat). Last, where the game can tell,
    the best possible from its start (`best_possible`: the sliding puzzle's fewest
    moves), with `met` saying so when this game scored it. [] while the game is on, or
    when there is none of these. Measured against every game kept: 403 on a shared
    Parlour, where each player's records are their own (POST
    /api/games/{sid}/records/mine); 403 to a page of another site."""
    refuse_everyones(hub, "Records", f"/api/games/{sid}/records")
    return await _records(hub, sid, authorization, lambda: hub.store)


@router.post("/api/games/{sid}/records/mine", responses=errors(401, 404, 413, 415, 422, 503),
             tags=["games"], summary="A game's records among yours")
async def own_records(sid: str, body: OwnTokens, hub: HubDep,
                      authorization: Authorization = None) -> list[dict[str, Any]]:
    """The records of GET /api/games/{sid}/records, measured against the games whose seats
    the tokens you send hold (with the Authorization header's, for this game's seat)."""
    presented = bearer(authorization)
    tokens = body.tokens if presented is None else [*body.tokens, presented.token]
    return await _records(hub, sid, authorization, lambda: HeldResults(hub.store, tokens))


async def _records(hub: Hub, sid: str, authorization: str | None,
                   reads: Callable[[], ResultReads]) -> list[dict[str, Any]]:
    """The end card's records of game `sid`, measured against the results `reads` reads."""
    live = await hub.get(sid)
    if live.session.status is Status.PLAYING:
        return []
    seats = live.seats_of(bearer(authorization))
    seat = min(seats) if seats else None
    # reading the group's results takes a while: not on the event loop
    records: list[dict[str, Any]]
    records, possible = await asyncio.gather(
        asyncio.to_thread(lambda: store_end_records(reads(), live.session.spec, sid, seat)),
        hub.advice.best_possible(live))
    return records if possible is None else [*records, best_possible_record(possible)]


@router.get("/api/games/{sid}/export", response_model=SavedGame, tags=["play"],
            responses={200: {"description": "the saved file", "headers": {
                "Content-Disposition": {
                    "description": 'attachment; filename="<game>-<YYYY-MM-DD>.parlour.json"',
                    "schema": {"type": "string"}}}}, **errors(401, 403, 404, 409, 503)})
async def export_game(sid: str, hub: HubDep, authorization: Authorization = None) -> Response:
    """The game as a file to import elsewhere (POST /api/games/import): its id, its
    seats, every move (the redo line included), the position, the clock, the help
    used, and the uploaded pictures its id names, in base64. The file holds the deal,
    so while the game is on only the player who started it may export it; once it is
    over, anyone holding a seat (403 otherwise; 401: an Authorization header that is
    not 'Bearer <token>'). 409: the game cannot be rebuilt, or its file would be over
    the import's limits (10 000 moves, 8 MiB). Answered as a download:
    `Content-Disposition: attachment; filename="<game>-<YYYY-MM-DD>.parlour.json"`."""
    live = await hub.get(sid)
    now = hub.now()
    data = exported(live, bearer(authorization), hub.store, hub.clock())
    return Response(data, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{file_name(live, now)}"',
        "Cache-Control": "no-store",
    })


@router.post("/api/games/{sid}/moves", response_model=View, responses=PLAY_SHARED,
             tags=["play"])
async def move(
    sid: str, body: MoveRequest, request: Request, hub: HubDep, client: ClientDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Play a move for the seat to move. Answers once the AI, if any, has replied.
    409: the rules refuse it (with `"quiet": true` when the game lets such a move pass
    without a word, as Minesweeper's click on a number whose flags are not all placed:
    the page shows nothing). 429: over your limit of moves a minute (with Retry-After),
    or a slow move over your fair share of long work (see POST /api/games)."""
    return await _act(hub, sid, authorization, PlayMove(move=body.move), request, client.key)


@router.post("/api/games/{sid}/hint", response_model=HintReply, responses=PLAY_SHARED,
             tags=["play"])
async def hint(sid: str, request: Request, hub: HubDep, client: ClientDep,
               authorization: Authorization = None) -> HintReply:
    """A suggested move for your seat. The game then counts as assisted. 429: over
    your fair share of hints (see POST /api/games); hang up, and it is dropped."""
    live = await hub.get(sid)
    token = bearer(authorization)
    found = await while_connected(request, hub.act(live, token, AskHint(), client.key))
    assert isinstance(found, Hint)
    return HintReply(move=found.move, note=found.note, view=hub.view_for(live, token))


@router.post("/api/games/{sid}/assist", response_model=View, responses=PLAY, tags=["play"])
async def assist(
    sid: str, body: AssistRequest, hub: HubDep, client: ClientDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Turn the game's assist switch on or off (on counts as help in the statistics)."""
    return await _act(hub, sid, authorization, SetAssist(on=body.on), client=client.key)


@router.post("/api/games/{sid}/join", response_model=Joined,
             responses=errors(401, 403, 404, 409, 413, 415, 503), tags=["seats"])
async def join(
    sid: str, hub: HubDep, body: JoinRequest | None = None,
    authorization: Authorization = None,
) -> Joined:
    """Take an open seat of a shared game: `seat`, or the first open one (409 if it
    is taken). With your token from before (you left a seat), you keep it; else you
    get a new one. A seat the computer stood in for is given back. With no seat left
    open, the answer has no token: you may watch."""
    live = await hub.get(sid)
    token, seats = await hub.join(live, bearer(authorization), body.seat if body else None)
    return Joined(token=token, seats=sorted(seats), view=hub.view_for(live, presented(token)))


@router.post("/api/games/{sid}/leave", response_model=View,
             responses=errors(401, 403, 404, 409, 413, 415, 503), tags=["seats"])
async def leave(sid: str, hub: HubDep, authorization: Authorization = None) -> dict[str, Any]:
    """Give up your seats: they are open for anyone to take (your token takes one
    again), and the computer plays them meanwhile if the game has one. 409: nobody
    else holds a seat."""
    live = await hub.get(sid)
    token = bearer(authorization)
    await hub.leave(live, token)
    await hub.settle(live)
    return dict(hub.view_for(live, token))


@router.post("/api/games/{sid}/takeback", response_model=View, responses=PLAY, tags=["seats"])
async def takeback(
    sid: str, body: TakebackAnswer, hub: HubDep, client: ClientDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Answer the take-back another player asked for with Undo (the view's
    `takeback`): once every other player accepts, their moves are taken back to
    their previous turn; one refusal ends it."""
    return await _act(hub, sid, authorization, AnswerTakeback(accept=body.accept),
                      client=client.key)


@router.post("/api/games/{sid}/rematch", response_model=View, responses=PLAY_SHARED,
             tags=["seats"])
async def rematch(
    sid: str, body: RematchAnswer, request: Request, hub: HubDep, client: ClientDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """Once the game is over: offer a rematch (`accept` true), accept the one offered, or
    decline it (false). It starts when every player holding seats has accepted (at once
    when you play alone or against the computer), with the seats rotated so that the first
    move passes on; the view's `rematch.next` then gives its session and your new token.
    The view's `series` keeps the score of the games played with these seats."""
    return await _act(hub, sid, authorization, AnswerRematch(accept=body.accept), request,
                      client.key)


@router.post("/api/uploads", status_code=201, response_model=Uploaded,
             responses=errors(403, 413, 415, 422, 429), tags=["games"],
             openapi_extra=UPLOAD_BODY)
async def upload(request: Request, client: ClientDep, hub: HubDep) -> Uploaded:
    """Upload a PNG, JPEG or WebP picture (the body is the image) for a game's picture
    option. It is kept scaled down and re-encoded without its metadata; each player
    keeps a limited number, and one that no game uses expires after a day. 429: over
    your quota of pictures, or your limit of uploads or of their bytes an hour (with
    Retry-After)."""
    data = await request.body()  # at most MAX_BYTES: the front door (`body_rule`) saw to it
    await _within_upload_limits(hub, client.key, len(data))
    picture = await pictures.kept_upload(hub.store, data, client.key, hub.now())
    return Uploaded(upload=picture.upload_id, width=picture.width, height=picture.height)


@router.get("/api/uploads/{upload_id}", response_class=Response, tags=["games"],
            responses={200: {"description": "the picture",
                             "content": {t: {} for t in PICTURE_TYPES}}, **errors(404)})
async def uploaded(upload_id: str, hub: HubDep) -> Response:
    """An uploaded picture."""
    picture = pictures.uploaded(hub.store, upload_id)
    return Response(picture.data, media_type=picture.media_type, headers={
        "Cache-Control": "public, max-age=31536000, immutable",
        # opened directly, it must never run as a page (the guard adds nosniff)
        "Content-Security-Policy": "default-src 'none'; sandbox",
    })


@router.get("/api/sessions", responses=errors(401), tags=["games"])
async def unfinished(hub: HubDep, authorization: Authorization = None) -> list[dict[str, Any]]:
    """The unfinished games your token holds a seat in, most recent first (without their
    game ids); none without a token. Nobody is handed other players' games: a game is
    watched by its link. The Resume list of all your tokens is POST /api/sessions/mine."""
    return resume.unfinished(hub.store, hub.games, bearer(authorization))


@router.post("/api/sessions/mine", response_model=ResumeList, summary="Your unfinished games",
             responses=errors(413, 415), tags=["games"])
async def held(body: HeldRequest, hub: HubDep) -> ResumeList:
    """Your unfinished games, most recent first, to resume: those where one of the
    tokens you send holds a seat, unless you took it off the list (POST
    /api/games/{sid}/forget). Each says which board (`summary`), who plays, and how
    far it got; not its game id, which holds the deal. `total`: how many in all."""
    return resume.held_games(hub.store, hub.games, body.tokens, body.limit)


@router.post("/api/games/{sid}/forget", response_model=Forgotten,
             summary="Take a game off your Resume list",
             responses=errors(401, 403, 404, 413, 415), tags=["games"])
async def forget(
    sid: str, body: ForgetRequest, hub: HubDep, authorization: Authorization = None
) -> Forgotten:
    """Take the game off your Resume list (`{"forget": false}` puts it back). Only a
    player of the game may, with their token: it changes their list alone, and the
    game itself stays as it is (its link still opens it). Its starter taking it off
    frees its place in their fair share of unfinished games (see POST /api/games)."""
    token = bearer(authorization)
    forgotten = await resume.forget(hub.store, sid, token, body.forget)
    live = hub.live.get(sid)
    if live is not None and token == live.owner:  # no longer counts in the starter's share
        live.counted = not body.forget
    return forgotten


async def _own(hub: Hub, tokens: list[str], draw: Callable[[HeldResults], T]) -> T:
    """`draw` of the results the seats of `tokens` hold, read and drawn in a thread."""
    return await asyncio.to_thread(lambda: draw(HeldResults(hub.store, tokens)))


@router.get("/api/stats", responses=errors(403, 404), tags=["games"])
async def stats(hub: HubDep, game: str | None = None) -> dict[str, Any]:
    """Statistics per game, preset and mode, with charts as SVG (404: no such game): of
    each game the 40 groups played most recently (`left_off`: how many more, per game),
    each drawn from its latest 1 000 games (`played_in_all` counts them all). A position
    given in an id, or a game imported, is filed apart (`apart`) and sets no records.
    Of every game kept: 403 on a shared Parlour (the catalog's `shared`), where each
    player's are their own (POST /api/stats/mine); 403 to a page of another site."""
    if game is not None:
        hub.spec(game)
    refuse_everyones(hub, "Statistics", "/api/stats")
    # reading and drawing take a while: not on the event loop; bounded whatever is kept
    return await asyncio.to_thread(store_statistics, hub.store, hub.games, game)


@router.post("/api/stats/mine", responses=errors(404, 413, 415, 422), tags=["games"],
             summary="Your statistics")
async def own_stats(body: OwnTokens, hub: HubDep, game: str | None = None) -> dict[str, Any]:
    """The statistics of GET /api/stats, of the games whose seats the tokens you send
    hold (those your browser keeps), on any Parlour."""
    if game is not None:
        hub.spec(game)
    return await _own(hub, body.tokens, lambda held: own_statistics(held, hub.games, game))


@router.get("/api/daily", responses=errors(403, 422), tags=["games"])
async def daily_deals(hub: HubDep, today: Annotated[str | None, Query(max_length=10)] = None
                      ) -> dict[str, Any]:
    """Today's daily deal of every solitaire: its `id` (start it with POST /api/games),
    and once started its first attempt (`today`: the session, and its outcome: playing,
    won, lost or given_up) — the day's result, whatever attempts follow — with the days
    played, won without help, and the current and best streaks of such days. `today` is
    your local date (YYYY-MM-DD; default: this server's): 422 if it is no one's today.
    Of every game kept: 403 on a shared Parlour, where each player's are their own (POST
    /api/daily/mine)."""
    day = _today(hub, today)
    refuse_everyones(hub, "Daily deals", "/api/daily")
    # reading every daily game's id takes a while with years of them: not on the event loop
    return await asyncio.to_thread(_daily_report, hub, hub.store, day)


@router.post("/api/daily/mine", responses=errors(413, 415, 422), tags=["games"],
             summary="Your daily deals")
async def own_daily_deals(body: OwnTokens, hub: HubDep,
                          today: Annotated[str | None, Query(max_length=10)] = None
                          ) -> dict[str, Any]:
    """The daily deals of GET /api/daily, each with your first attempt and your days and
    streaks: of the games whose seats the tokens you send hold, on any Parlour."""
    day = _today(hub, today)
    return await _own(hub, body.tokens, lambda held: _daily_report(hub, held, day))


def _today(hub: Hub, today: str | None) -> dt.date:
    """The player's date: `today` (YYYY-MM-DD) if it is today somewhere, else 422; by
    default this server's."""
    moment = dt.datetime.fromtimestamp(hub.now(), dt.UTC)
    try:
        day = daily.parse_day(today) if today else moment.astimezone().date()
    except BadParams as error:
        raise ApiError(422, f"today: {error}") from None
    if not daily.is_today_somewhere(day, moment):
        raise ApiError(422, "today: that date is not today anywhere on Earth")
    return day


def _daily_report(hub: Hub, reads: ResultReads, day: dt.date) -> dict[str, Any]:
    """The daily deals of `day`, with the results `reads` reads. Blocking."""
    return daily_report(list(hub.games.values()), reads.daily_starts(), reads.daily_results(),
                        day)


@router.get("/api/replays", response_model=list[PastGame], responses=errors(403, 404),
            tags=["replays"])
async def past(hub: HubDep, game: str | None = None,
               limit: Annotated[int, Query(ge=1, le=MAX_LISTED)] = 20) -> list[dict[str, Any]]:
    """The finished games there are to watch again, the most recent first (of `game`, or
    of every game; 404: no such game). Each opens at /replay/{session}. Of every game
    kept: 403 on a shared Parlour, where each player lists their own (POST
    /api/replays/mine)."""
    if game is not None:
        hub.spec(game)
    refuse_everyones(hub, "Past games", "/api/replays")
    return await asyncio.to_thread(past_games, hub.store, hub.games, game, limit)


@router.post("/api/replays/mine", response_model=list[PastGame],
             responses=errors(404, 413, 415, 422), tags=["replays"], summary="Your past games")
async def own_past(body: OwnTokens, hub: HubDep, game: str | None = None,
                   limit: Annotated[int, Query(ge=1, le=MAX_LISTED)] = 20
                   ) -> list[dict[str, Any]]:
    """The past games of GET /api/replays that the tokens you send hold a seat in."""
    if game is not None:
        hub.spec(game)
    return await _own(hub, body.tokens, lambda held: past_games(held, hub.games, game, limit))


async def _within_upload_limits(hub: Hub, client: str, size: int) -> None:
    """Count an upload (a picture, an imported file) against its client's limits."""
    await hub.within_limit(client, Kind.UPLOADS)
    await hub.within_limit(client, Kind.UPLOAD_BYTES, size)


async def _act(hub: Hub, sid: str, authorization: str | None, message: Action,
               request: Request | None = None, client: str | None = None) -> dict[str, Any]:
    arrived = time.perf_counter()
    live = await hub.get(sid)
    token = bearer(authorization)

    async def acted() -> None:
        await hub.act(live, token, message, client, arrived)
        await hub.settle(live)

    if request is None:
        await acted()
    else:
        await while_connected(request, acted())
    return dict(hub.view_for(live, token))


def _action_route(action: str, message: Action) -> Any:
    async def route(sid: str, request: Request, hub: HubDep, client: ClientDep,
                    authorization: Authorization = None) -> dict[str, Any]:
        return await _act(hub, sid, authorization, message, request, client.key)

    route.__name__ = action
    route.__doc__ = {
        "undo": "Take back moves to your previous turn (the game's undo rules apply). "
                "With other players in the game, this asks them (the view's "
                "`takeback`): see POST /api/games/{sid}/takeback.",
        "redo": "Replay what Undo took back, up to your next turn.",
        "restart": "Start the same deal again from the beginning, while the game is on. "
                   "A finished game is kept as it was played (409): to play its deal again, "
                   "POST /api/games with its `id`.",
    }[action]
    return route


for _message in (Undo(), Redo(), Restart()):
    router.add_api_route(
        f"/api/games/{{sid}}/{_message.type}", _action_route(_message.type, _message),
        methods=["POST"], response_model=View, responses=PLAY, tags=["play"],
        summary=_message.type.capitalize(),
    )

timing_router = APIRouter()
"""Only on a server started with PARLOUR_TIMING=1, for the benchmark."""


@timing_router.get("/api/debug/timing", include_in_schema=False)
async def timings() -> dict[str, list[float]]:
    """The server's time per part of each action since the last call (ms), and how many
    objects the garbage collector leaves out (`freeze_startup_heap`)."""
    return {**timing.taken(), "objects frozen": [gc.get_freeze_count()]}
