"""The routes of a player's records as files: the backup (made and restored) and the
results as CSV. A backup holds every deal and every seat (and the seat tokens of the
browser that asked for it), so it is made and restored only for a browser on this
machine (a loopback address)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from parlour.server.api.deps import HubDep
from parlour.server.api.errors import errors
from parlour.server.api.own import OwnTokens, refuse_everyones
from parlour.server.hub.backup import (
    Backup,
    RestoreReport,
    backup_file,
    backup_name,
    replay_off_loop,
    restore,
)
from parlour.server.hub.core import Hub
from parlour.server.hub.errors import ApiError
from parlour.stats.own import HeldResults
from parlour.stats.spreadsheet import results_csv

BACKUP_PATH = "/api/backup"
MINE_PATH = "/api/backup/mine"  # a backup carrying the tokens the browser sends
CSV_PATH = "/api/results.csv"
LOOPBACK = ("127.0.0.1", "::1", "localhost")

router = APIRouter()


def _this_machine(request: Request, hub: Hub) -> None:
    """A backup is for the player at the machine Parlour runs on; a shared Parlour's,
    of every player's games, is its host's, made from the command line (403 else)."""
    if hub.shared:
        raise ApiError(403, "On a shared Parlour a backup holds every player's games: its "
                       "host makes and restores it with 'parlour --backup' and '--restore'")
    host = request.client.host if request.client else ""
    if host not in LOOPBACK and not host.startswith("127."):
        raise ApiError(403, "A backup holds every game's deal and seats: it is made and "
                       "restored only on the machine Parlour runs on")


def _download(data: bytes, media_type: str, name: str) -> Response:
    return Response(data, media_type=media_type, headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store",
    })


BACKUP_FILE: dict[int | str, dict[str, Any]] = {200: {
    "description": "the backup file", "headers": {"Content-Disposition": {
        "description": 'attachment; filename="parlour-backup-<YYYY-MM-DD>.json"',
        "schema": {"type": "string"}}}}}


@router.get(BACKUP_PATH, response_model=Backup, tags=["games"], summary="Your backup",
            responses={**BACKUP_FILE, **errors(403, 409)})
async def download_backup(request: Request, hub: HubDep) -> Response:
    """Every saved game (finished or not, with its moves, seats and the digests of its
    seat tokens), every result and every uploaded picture a game uses, as one JSON file to
    restore on another machine (POST /api/backup). It holds no seat token itself: a
    browser that restores it takes no seat unless it kept its own tokens (POST
    /api/backup/mine makes one that carries them). Only for a client on this machine, and
    not on a shared Parlour (403 otherwise); 409 if it would be over the restore's limit
    (64 MiB)."""
    _this_machine(request, hub)
    now = hub.now()
    data = await backup_file(hub.store, hub.games, now)
    return _download(data, "application/json", backup_name(now))


@router.post(MINE_PATH, response_model=Backup, tags=["games"],
             summary="Your backup, with your seat tokens",
             responses={**BACKUP_FILE, **errors(403, 409, 413, 415)})
async def download_my_backup(body: OwnTokens, request: Request, hub: HubDep) -> Response:
    """The backup GET /api/backup makes, where each game one of the tokens you send
    (those your browser keeps) holds a seat in carries that token (`your_token`), so that
    restoring the file in a browser that never played those games gives it their seats
    (POST /api/backup answers them in `tokens`). A token no game kept here has a seat for
    is left out; the store still keeps only digests. At most 10000 tokens (1 MiB). Only
    for a client on this machine, and not on a shared Parlour (403 otherwise); 409 if it
    would be over the restore's limit (64 MiB)."""
    _this_machine(request, hub)
    now = hub.now()
    data = await backup_file(hub.store, hub.games, now, body.tokens)
    return _download(data, "application/json", backup_name(now))


@router.post(BACKUP_PATH, response_model=RestoreReport, tags=["games"],
             summary="Restore a backup", responses=errors(403, 413, 415, 503),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": {"$ref": "#/components/schemas/Backup"}}}}})
async def restore_backup(request: Request, hub: HubDep) -> RestoreReport:
    """Merge a backup (what GET /api/backup answers) into this Parlour: the games,
    results and pictures it does not keep yet are added, and nothing kept is changed,
    so restoring the same file twice adds nothing the second time. Every game is
    replayed from its id and moves first; a file that is not a backup, or any part of it
    that is wrong, refuses the whole file (422, saying why) and changes nothing; so does a
    game's `your_token` that is not one of its tokens. The report's `tokens` are the
    seat tokens the file carries for the browser restoring it to keep. At most 64 MiB
    (413). Only for a client on this machine, and not on a shared Parlour (403
    otherwise)."""
    _this_machine(request, hub)
    data = await request.body()  # at most BACKUP_LIMIT: the front door saw to it
    return await restore(hub.store, hub.games, data, hub.now(),
                         replay_off_loop(hub.workers))


@router.get(CSV_PATH, response_class=Response, tags=["games"],
            summary="Your results as CSV",
            responses={200: {"description": "one row per finished game of each player",
                             "content": {"text/csv": {}}}, **errors()})
async def results_as_csv(hub: HubDep) -> Response:
    """The results for a spreadsheet: one row per finished game of each player (date,
    game, board, players, seat, result, score, time in seconds, moves, with help or
    not, game id), oldest first. Of every game kept: 403 on a shared Parlour, where each
    player's are their own (POST /api/results.csv/mine)."""
    refuse_everyones(hub, "Results", "/api/results.csv")
    # every result is read: not on the event loop
    text: str = await asyncio.to_thread(
        lambda: results_csv(hub.store.results(), hub.store.result_game_ids(), hub.games))
    return _csv(hub, text)


@router.post(f"{CSV_PATH}/mine", response_class=Response, tags=["games"],
             summary="Your results as CSV, on any Parlour",
             responses={200: {"description": "one row per finished game of yours",
                              "content": {"text/csv": {}}}, **errors(413, 415, 422)})
async def own_results_as_csv(body: OwnTokens, hub: HubDep) -> Response:
    """The CSV of GET /api/results.csv, of the seats the tokens you send hold."""

    def drawn() -> str:
        held = HeldResults(hub.store, body.tokens)
        return results_csv(held.results, held.game_ids(), hub.games)

    return _csv(hub, await asyncio.to_thread(drawn))


def _csv(hub: Hub, text: str) -> Response:
    """`text` as the CSV file a spreadsheet opens, named by today's date."""
    day = time.strftime("%Y-%m-%d", time.localtime(hub.now()))
    return _download(text.encode(), "text/csv; charset=utf-8", f"parlour-results-{day}.csv")
