"""Backups: every saved game (with its moves, seats and seat tokens), every result and
every picture a game uses, in one JSON document, to move a player's Parlour to another
machine; and restoring one, merged into what is kept.

The format, `parlour-backup` version 3 (the `Backup` model; /docs shows it whole):

    {"format": "parlour-backup", "version": 3, "made": <unix time>,
     "games": [{"session", "game", "id", "seats", "moves", "cursor", "round", "status",
                "elapsed_ms", "assisted_seats", "assist_seats", "stand_ins",
                "created", "updated", "tokens": [{"token", "seats", "forgotten"}],
                "series": {"series", "number", "tally", "next_sid", "handover"},
                "your_token": "<the seat token the browser that made it holds>"}],
     "results": [{"session", "round", "seat", "seat_name", "game", "preset", "mode",
                  "outcome", "score", "elapsed_ms", "moves", "assisted", "finished",
                  "figures"}],
     "pictures": {"<upload id>": {"media_type", "data": "<base64>"}}}

A game's "series" (left out for a game with no place in a series: one no rematch followed
or came from) is its `SeriesRow` less its session: the sid of the series' first game, its
number in the series (0 for the first), the series' score before it per player
([won, drawn, lost], the first game's seats' order), the sid of its rematch ('' if none)
and `handover`, each of its tokens -> the rematch's token for that player. Added in
version 1 before it was released: a file without it restores as before.

Since version 2 a game's "tokens" are what the store keeps of seat tokens
(parlour.store.seat_tokens): each token's SHA-256 digest, and a handover's new token
sealed with the old one, so that the store's part of a backup gives no one a seat. A
version 1 file (made before tokens were hashed) holds the tokens themselves: it is
restored hashed, and its report gives each game's owner's token for the browser to keep.

Version 3 adds a game's "your_token": the seat token, in clear, that the browser which
asked for the backup holds for that game. The backup is that player's own file: the
browser sends the tokens it keeps (POST /api/backup/mine), and a game's
file entry carries one only if its digest is one the store keeps for that game; a game
no token sent holds a seat in (and every game of a backup made with GET /api/backup or
`--backup`) has none. On restore, a "your_token" is taken only if its digest is one of
that game's "tokens" in the file: a file whose token does not match (changed, or one
game's token put on another) is refused whole. The report hands each such token back
(`RestoreReport.tokens`) for the browser that restores the file to keep, so that a
browser that never played those games takes their seats; the store keeps only the
digests, as ever. A game already kept here has its token handed back only if its digest
is one kept here for that game.

JSON, not a zip: the pictures are already re-encoded uploads (at most 2048 px), so base64
costs a third more at worst, and a plain document has no archive tricks to defend
against (paths, links, compression bombs). Restoring is all or nothing: the file is
parsed with its size bounded and duplicate keys refused, each game replayed from its id
and moves (off the event loop) and checked against its status, each picture decoded and
re-encoded as an upload is; then what is not kept yet (by session id; session, round and
seat; upload id) is added in one transaction, a game's place in its series with it, and
what is kept stays as it is. A refusal is an ApiError whose message says why, and changes
nothing.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import dataclasses
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from pydantic import ConfigDict, Field, StringConstraints, ValidationError, model_validator

from parlour.core import work
from parlour.core.game import JSON, BadParams, GameError, GameSpec
from parlour.core.gameid import CUSTOM_POSITION, SHOWN, GameId, parse_game_id, stat_group
from parlour.core.outcome import outcome
from parlour.core.session import AI_PREFIX, Session, seat_kind_error
from parlour.server.hub.errors import ApiError, fault
from parlour.server.hub.messages import Strict
from parlour.server.hub.opening import describe_mode
from parlour.server.hub.records import help_of
from parlour.server.hub.saved_games import (
    MAX_ELAPSED_MS,
    MAX_MOVES,
    MAX_PICTURE_TEXT,
    SavedPicture,
    SeatKind,
    UploadId,
)
from parlour.server.hub.workers import QUICK_REPLAY_MOVES, Workers
from parlour.store import (
    BadUpload,
    Identities,
    KeptSession,
    Picture,
    Restored,
    Result,
    SeriesRow,
    SessionRow,
    Store,
    check_picture,
)
from parlour.store.seat_tokens import hashed_handover, is_digest, token_digest

FORMAT: Final = "parlour-backup"
VERSION: Final = 3
TOKENS_IN_CLEAR = 1  # the version whose files hold the tokens themselves, not their digests
YOURS_SINCE = 3  # the first version whose games may carry their player's token in clear
BACKUP_LIMIT = 64 * 2**20
"""Bytes of a backup file: the restore's request body, and the most a backup may be."""
MAX_GAMES = 10_000
MAX_RESULTS = 100_000
MAX_TOTAL_MOVES = 1_000_000  # what a restore replays, at most
MAX_PICTURES = 64
MAX_CONTAINERS = 4_000_000
"""Lists and objects in a backup, counted before it is parsed: a move is one or two, so
this is room for every move a restore takes, and it bounds the memory parsing costs (a
file of 64 MiB of `[],` would be 20 million lists)."""
MAX_SEATS = 8
MAX_TOKENS = 16  # seat tokens of one game
LATEST = 1e11  # seconds since 1970: the year 5138, a bound on any time a file gives

Sid = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
Token = Annotated[str, StringConstraints(pattern=TOKEN_PATTERN)]  # or its digest
Sealed = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,88}$")]  # (or a token)
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
SeatText = Annotated[str, StringConstraints(pattern=r"^[0-7]$")]
Level = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
WallTime = Annotated[float, Field(ge=0, le=LATEST, allow_inf_nan=False)]
Round = Annotated[int, Field(ge=1, le=10**6)]
Elapsed = Annotated[int, Field(ge=0, le=MAX_ELAPSED_MS)]
Count = Annotated[int, Field(ge=0, le=MAX_GAMES)]  # of games: no more than a backup holds


class Exact(Strict):
    """Strict types too: a number is not a string, a string not a number."""

    model_config = ConfigDict(extra="forbid", strict=True)


class BackupToken(Exact):
    token: Token
    seats: list[Seat] = Field(max_length=MAX_SEATS)
    forgotten: bool = Field(False, description="taken off this player's Resume list")


class BackupSeries(Exact):
    series: Sid = Field(description="the session id of the series' first game")
    number: Count = Field(description="its number in the series: 0 for the first game")
    tally: list[Annotated[list[Count], Field(min_length=3, max_length=3)]] = Field(
        min_length=1, max_length=MAX_SEATS,
        description="the score before it per player, [won, drawn, lost], in the first "
                    "game's seats' order")
    next_sid: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{0,64}$")] = Field(
        description="the session id of its rematch, '' if none followed it")
    handover: dict[Token, Sealed] = Field(
        max_length=MAX_TOKENS, description="each token of this game (its digest) -> its "
        "rematch's, sealed with it (version 1: the tokens themselves)")


class BackupGame(Exact):
    session: Sid = Field(description="the session id: a game's identity across machines")
    game: str = Field(max_length=40)
    id: str = Field(max_length=4500, description="the game id, which holds the deal")
    seats: list[SeatKind] = Field(min_length=1, max_length=MAX_SEATS)
    moves: list[Any] = Field(max_length=MAX_MOVES, description="the whole line, redo moves too")
    cursor: int = Field(ge=0, le=MAX_MOVES)
    round: Round
    status: Literal["playing", "won", "lost", "draw"]
    elapsed_ms: Elapsed
    assisted_seats: list[Seat] = Field(max_length=MAX_SEATS)
    assist_seats: list[Seat] = Field(max_length=MAX_SEATS)
    stand_ins: dict[SeatText, Level] = Field(
        max_length=MAX_SEATS, description="seats the computer plays for a player who left")
    created: WallTime
    updated: WallTime
    tokens: list[BackupToken] = Field(max_length=MAX_TOKENS)
    series: BackupSeries | None = Field(
        None, description="its place in its series of rematches; left out if it has none")
    your_token: Token | None = Field(
        None, description="version 3: the seat token (in clear) that the browser which "
        "made this backup holds for this game, its digest one of 'tokens'; left out if it "
        "held none (and in every backup made by GET /api/backup)")

    @model_validator(mode="after")
    def _cursor_on_the_line(self) -> BackupGame:
        if self.cursor > len(self.moves):
            raise ValueError(f"cursor {self.cursor} is past the {len(self.moves)} moves")
        return self


class BackupResult(Exact):
    session: Sid
    round: Round
    seat: Seat
    seat_name: str = Field(max_length=40)
    game: str = Field(max_length=40)
    preset: str = Field(max_length=200)
    mode: str = Field(max_length=100)
    outcome: Literal["won", "lost", "draw"]
    score: int | None = Field(ge=-(10**9), le=10**9)
    elapsed_ms: Elapsed
    moves: int = Field(ge=0, le=MAX_MOVES)
    assisted: bool
    finished: WallTime
    figures: dict[Annotated[str, StringConstraints(max_length=40)],
                  Annotated[int, Field(ge=-(10**15), le=10**15)]
                  | Annotated[float, Field(allow_inf_nan=False)]] = Field(max_length=32)


class Backup(Exact):
    """A player's Parlour as one file: GET /api/backup makes it, POST /api/backup
    restores it."""

    format: Literal["parlour-backup"]
    version: Literal[1, 2, 3]
    made: WallTime
    games: list[BackupGame] = Field(max_length=MAX_GAMES)
    results: list[BackupResult] = Field(max_length=MAX_RESULTS)
    pictures: dict[UploadId, SavedPicture] = Field(
        max_length=MAX_PICTURES, description="the uploaded pictures games use, by upload id")


class RestoreReport(Strict):
    """What a restore added, and what was kept already (left as it was)."""

    games_added: int
    games_already_here: int
    results_added: int
    pictures_added: int
    tokens: dict[str, str] = Field(
        description="per game of the file, the seat token for the browser that restores "
        "it to keep: a version 3 file's 'your_token', a version 1 file's owner's token; "
        "only one whose digest is kept for that game (a version 2 file holds none)")


# -- making a backup --------------------------------------------------------------------
def backup_name(now: float) -> str:
    return f"parlour-backup-{time.strftime('%Y-%m-%d', time.localtime(now))}.json"


async def backup_file(store: Store, games: Mapping[str, GameSpec], now: float,
                      held: Sequence[str] = ()) -> bytes:
    """Everything the store keeps as a backup file; ApiError 409 if it would be over
    BACKUP_LIMIT (no restore would take it). `held`: the tokens the browser asking for it
    keeps; each game carries the one that holds a seat in it (`your_token`). The store is
    read here (quick SQL), the file made off the event loop."""
    sessions = await asyncio.to_thread(store.kept_sessions)
    kept = {session.row.sid for session in sessions}
    # a game started since holds results too, and is in the next backup with them
    results = [result for result in store.results() if result.sid in kept]
    named = await asyncio.to_thread(pictures_named, sessions, games)
    pictures = {upload_id: picture for upload_id in sorted(named)
                if (picture := store.load_upload(upload_id)) is not None}
    data = await asyncio.to_thread(_document, sessions, results, pictures, now, held)
    if len(data) > BACKUP_LIMIT:
        raise ApiError(409, f"Your backup would be {len(data) / 2**20:.0f} MiB, over the "
                       f"{BACKUP_LIMIT // 2**20} MiB a restore takes")
    return data


def pictures_named(sessions: Sequence[KeptSession], games: Mapping[str, GameSpec]
                    ) -> set[str]:
    named: set[str] = set()
    for kept in sessions:
        spec = games.get(kept.row.game)
        try:
            if spec is not None:
                named.update(parse_game_id(spec.game, kept.row.game_id).uploads(spec.game))
        except BadParams:
            pass  # a game that cannot be read any more names no picture it can use
    return named


def _document(sessions: Sequence[KeptSession], results: Sequence[Result],
              pictures: Mapping[str, Picture], now: float, held: Sequence[str] = ()) -> bytes:
    # a token sent goes in only if the store keeps its digest (for a game of the file)
    by_digest = {token_digest(token): token for token in held
                 if re.fullmatch(TOKEN_PATTERN, token)}
    document = {
        "format": FORMAT, "version": VERSION, "made": now,
        "games": [_game_entry(kept) | _yours(kept, by_digest) for kept in sessions],
        "results": [_result_entry(result) for result in results],
        "pictures": {upload_id: {"media_type": picture.media_type,
                                 "data": base64.b64encode(picture.data).decode()}
                     for upload_id, picture in pictures.items()},
    }
    return json.dumps(document, separators=(",", ":")).encode()


def _game_entry(kept: KeptSession) -> dict[str, Any]:
    row = kept.row
    return {
        "session": row.sid, "game": row.game, "id": row.game_id, "seats": row.seats,
        "moves": list(kept.moves), "cursor": row.cursor, "round": row.round,
        "status": row.status, "elapsed_ms": row.elapsed_ms,
        "assisted_seats": sorted(row.assisted_seats or _every(row, row.assisted)),
        "assist_seats": sorted(row.assist_seats or _every(row, row.assist)),
        "stand_ins": {str(seat): level for seat, level in row.stand_ins.items()},
        "created": kept.created, "updated": row.updated,
        "tokens": [{"token": token, "seats": seats, "forgotten": token in kept.forgotten}
                   for token, seats in kept.tokens.items()],
    } | _series_entry(kept.series)


def _yours(kept: KeptSession, held: Mapping[str, str]) -> dict[str, Any]:
    """The game's `your_token`: the first of its tokens whose digest is one of the
    `held` tokens' (digest -> token); nothing if none is."""
    for digest in kept.tokens:
        if digest in held:
            return {"your_token": held[digest]}
    return {}


def _series_entry(place: SeriesRow | None) -> dict[str, Any]:
    if place is None:
        return {}
    return {"series": {"series": place.series, "number": place.number, "tally": place.tally,
                       "next_sid": place.next_sid, "handover": place.handover}}


def _every(row: SessionRow, used: bool) -> range:
    """A row that says only that help was used (saved before help was per seat): all."""
    return range(len(row.seats)) if used else range(0)


def _result_entry(result: Result) -> dict[str, Any]:
    return {
        "session": result.sid, "round": result.round, "seat": result.seat,
        "seat_name": result.seat_name, "game": result.game, "preset": result.preset,
        "mode": result.mode, "outcome": result.outcome, "score": result.score,
        "elapsed_ms": result.elapsed_ms, "moves": result.moves, "assisted": result.assisted,
        "finished": result.finished, "figures": result.figures,
    }


# -- restoring --------------------------------------------------------------------------
Replay = Callable[[GameSpec, GameId, list[str], list[JSON], int], Awaitable[Session]]
"""How a restore replays a game: off the event loop on the server (`Hub`), in place in
the command line's `--restore`."""


def replay_off_loop(workers: Workers) -> Replay:
    """The server's replay: a short line of a quick deal in a thread, the rest in a
    worker process with the time budget of a deal (as the hub replays saved games)."""

    async def replay(spec: GameSpec, game_id: GameId, seats: list[str], moves: list[JSON],
                     cursor: int) -> Session:
        if spec.game.slow_replay(game_id.params, len(moves)) or len(moves) > QUICK_REPLAY_MOVES:
            return await workers.dealt(spec, game_id, len(moves), "replaying a restored game",
                                       work.replay, spec, game_id, seats, moves, cursor)
        return await asyncio.to_thread(work.replay, spec, game_id, seats, moves, cursor)

    return replay


async def replay_in_place(spec: GameSpec, game_id: GameId, seats: list[str],
                          moves: list[JSON], cursor: int) -> Session:
    return work.replay(spec, game_id, seats, moves, cursor)


@dataclass
class Checked:
    """A backup whose every part was checked: ready to merge into a store."""

    sessions: list[KeptSession] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    pictures: dict[str, Picture] = field(default_factory=dict)
    needs: set[str] = field(default_factory=set)  # the pictures its games name
    # per game, the digests of the tokens it hands over to in its rematch (a version 1
    # file says; a later one keeps them sealed), and the token to hand back to the browser
    # that restores it: its owner's (version 1), or its `your_token` (version 3)
    handed_to: dict[str, list[str]] = field(default_factory=dict)
    owner_tokens: dict[str, str] = field(default_factory=dict)
    # per finished game, each seat's outcome as its moves make it (its last round's),
    # and its headline if a solver's line ended it (`Game.shown_headline`)
    outcomes: dict[str, list[str]] = field(default_factory=dict)
    shown_headlines: dict[str, str] = field(default_factory=dict)


def refused(why: str) -> ApiError:
    return ApiError(422, f"This backup cannot be restored: {why}")


async def restore(store: Store, games: Mapping[str, GameSpec], data: bytes, now: float,
                  replay: Replay) -> RestoreReport:
    """Merge the backup `data` into `store`: all of it checked first, then what is new
    added in one transaction. ApiError 422 (413 if too big) says why it was refused."""
    checked = await check(data, games, replay)
    places = [kept.series for kept in checked.sessions if kept.series is not None]
    change, report = merged(checked, store.identities(
        [kept.row.sid for kept in checked.sessions] + [place.next_sid for place in places
                                                        if place.next_sid],
        [token for kept in checked.sessions for token in kept.tokens]
        + [token for handed in checked.handed_to.values() for token in handed],
        sorted(checked.needs | set(checked.pictures)),
    ), now)
    await store.commit_apart(change)
    return report


async def check(data: bytes, games: Mapping[str, GameSpec], replay: Replay) -> Checked:
    """`data` as a checked backup, or ApiError saying what is wrong with it."""
    if len(data) > BACKUP_LIMIT:
        raise ApiError(413, f"This file is over {BACKUP_LIMIT // 2**20} MiB, more than "
                       "a backup may be")
    backup = await asyncio.to_thread(_validated, data)
    checked = Checked()
    _check_identities(backup)
    for number, game in enumerate(backup.games, 1):
        kept, needs, outcomes, shown_headline = await _checked_game(number, game, games, replay)
        checked.sessions.append(kept)
        checked.needs.update(needs)
        checked.outcomes[game.session] = outcomes
        if shown_headline is not None:
            checked.shown_headlines[game.session] = shown_headline
    _check_rematches(checked.sessions, in_clear=backup.version == TOKENS_IN_CLEAR)
    if backup.version == TOKENS_IN_CLEAR:
        _hash_tokens(checked)
    else:
        _check_digests(backup)
    _check_yours(backup, checked)
    checked.results = await asyncio.to_thread(_checked_results, backup, checked.sessions,
                                              checked.outcomes)
    _mark_solver_ended(checked)
    unused = sorted(set(backup.pictures) - checked.needs)
    if unused:
        raise refused(f"no game uses the picture {unused[0]}")
    for upload_id, saved in backup.pictures.items():
        checked.pictures[upload_id] = await _checked_picture(upload_id, saved)
    return checked


class _DuplicateKey(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _validated(data: bytes) -> Backup:
    if data.count(b"[") + data.count(b"{") > MAX_CONTAINERS:
        raise refused(f"it holds over {MAX_CONTAINERS:,} lists and objects, more than its "
                      "games could")
    try:
        parsed = json.loads(data.decode("utf-8"), object_pairs_hook=_unique_keys,
                            parse_constant=_no_constant)
    except _DuplicateKey as error:
        raise refused(f"the key {str(error)[:40]!r} appears twice in one object") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(422, "This file is not a Parlour backup: it is not JSON") from None
    if not isinstance(parsed, dict) or "format" not in parsed:
        raise ApiError(422, "This file is not a Parlour backup")
    if parsed["format"] == "parlour-saved-game":
        raise ApiError(422, "This file is one saved game, not a backup: open it with "
                       "Import in the Game menu of its game's page")
    if parsed["format"] != FORMAT:
        raise ApiError(422, "This file is not a Parlour backup")
    version = parsed.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ApiError(422, "This backup's version is not a number: it was not made by "
                       "Parlour, or has been changed since")
    if version not in range(TOKENS_IN_CLEAR, VERSION + 1):
        newer = ", made by a newer Parlour" if version > VERSION else ""
        raise ApiError(422, f"This backup is of version {version}{newer}: this Parlour "
                       f"restores versions {TOKENS_IN_CLEAR} to {VERSION}")
    try:
        return Backup.model_validate(parsed)
    except ValidationError as error:
        first = error.errors()[0]
        raise refused(fault(_where(first["loc"]), first)) from None


def _where(loc: Sequence[int | str]) -> str:
    """A place in the file in words: `game 3, its 'moves'` for games.2.moves."""
    parts = [str(part)[:40] for part in loc]
    head = {"games": "game", "results": "result", "pictures": "picture"}.get(parts[0])
    if head is None or len(parts) < 2:
        return f"its {parts[0]!r}" if parts else "the file"
    number = f"{int(parts[1]) + 1}" if parts[1].isdigit() and head != "picture" else parts[1]
    if parts[-1] == "[key]":
        inner = ".".join(parts[2:-2])
        return (f"{head} {number}, a key of its {inner!r}" if inner
                else f"the id of {head} {number!r}")
    rest = ".".join(parts[2:])
    return f"{head} {number}" + (f", its {rest!r}" if rest else "")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _check_identities(backup: Backup) -> None:
    """Each session and token once in the file, and not too much to replay."""
    sids = [game.session for game in backup.games]
    if len(set(sids)) != len(sids):
        raise refused(f"the game {_twice(sids)} is in it twice")
    tokens = [holder.token for game in backup.games for holder in game.tokens]
    if len(set(tokens)) != len(tokens):
        raise refused("a seat token is in it twice")
    moves = sum(len(game.moves) for game in backup.games)
    if moves > MAX_TOTAL_MOVES:
        raise refused(f"its games have {moves} moves, more than the {MAX_TOTAL_MOVES} a "
                      "restore replays")


def _twice(values: Sequence[str]) -> str:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return ""


async def _checked_game(number: int, game: BackupGame, games: Mapping[str, GameSpec],
                        replay: Replay
                        ) -> tuple[KeptSession, list[str], list[str], str | None]:
    """The game as a store keeps it, replayed from its id and moves, with the pictures
    its id names, each seat's outcome and its headline were a solver's line to have ended
    it (none while it is played); refused if any part of it is not what this game can
    be."""
    where = f"game {number} ({game.game[:40]})"
    spec = games.get(game.game)
    if spec is None:
        raise refused(f"{where} is not a game this Parlour has")
    try:
        game_id = parse_game_id(spec.game, game.id)
    except BadParams as error:
        raise refused(f"{where}: its id does not read: {error}") from None
    seat_count = len(spec.game.seat_names(game_id.params))
    _check_seats(where, spec, game, seat_count)
    place = _checked_place(number, game, seat_count)
    try:
        session = await replay(spec, game_id, list(game.seats), game.moves, game.cursor)
    except GameError as error:
        raise refused(f"{where} does not replay from its id: {error}") from None
    if session.status.value != game.status:
        raise refused(f"{where} says it is {game.status}, but its moves leave it "
                      f"{session.status.value}")
    every = range(seat_count)
    observation = session.game.observe(session.state, None)
    row = SessionRow(
        game.session, spec.name, game.id, list(game.seats),
        describe_mode(spec, list(game.seats)), stat_group(spec.game, game_id),
        game.cursor, game.round, bool(game.assisted_seats), game.elapsed_ms, None,
        game.status, session.game.headline(observation),
        game.updated, bool(game.assist_seats),
        stand_ins={int(seat): level for seat, level in game.stand_ins.items()},
        assisted_seats=frozenset(game.assisted_seats) & frozenset(every),
        assist_seats=frozenset(game.assist_seats) & frozenset(every),
        moves_made=session.moves_made,
    )
    kept = KeptSession(row, game.created, list(session.line),
                       {holder.token: sorted(set(holder.seats)) for holder in game.tokens},
                       frozenset(holder.token for holder in game.tokens if holder.forgotten),
                       place)
    over = game.status != "playing"
    outcomes = [outcome(session, {seat}) or "draw" for seat in every] if over else []
    shown_headline = session.game.shown_headline(observation) if over else None
    return kept, game_id.uploads(spec.game), outcomes, shown_headline


def _check_seats(where: str, spec: GameSpec, game: BackupGame, seat_count: int) -> None:
    if len(game.seats) != seat_count:
        raise refused(f"{where} has {len(game.seats)} seats; its id deals for {seat_count}")
    for kind in game.seats:
        if (error := seat_kind_error(spec, kind)) is not None:
            raise refused(f"{where}: the seat {kind!r} is not one: {error}")
    numbers = [*game.assisted_seats, *game.assist_seats,
               *(int(seat) for seat in game.stand_ins),
               *(seat for holder in game.tokens for seat in holder.seats)]
    if any(seat >= seat_count for seat in numbers):
        raise refused(f"{where} names a seat it does not have")
    for level in game.stand_ins.values():
        if seat_kind_error(spec, AI_PREFIX + level) is not None:
            raise refused(f"{where}: the computer has no level {level!r}")
    if not game.tokens:
        raise refused(f"{where} has no seat token: nobody could play it")


def _checked_place(number: int, game: BackupGame, seat_count: int) -> SeriesRow | None:
    """The game's place in its series, if it says it has one; refused unless it is one
    its series could give it (a score per player that counts each game before it once,
    handover only of its own tokens)."""
    entry = game.series
    if entry is None:
        return None
    where = f"game {number}, its 'series'"
    if len(entry.tally) != seat_count:
        raise refused(f"{where}: its score is of {len(entry.tally)} players, but the game "
                      f"has {seat_count} seats")
    if any(sum(counts) != entry.number for counts in entry.tally):
        raise refused(f"{where}: its score does not count the {entry.number} games before "
                      "it once each")
    if (entry.number == 0) != (entry.series == game.session):
        raise refused(f"{where}: only the first game of a series (number 0) is the series")
    if entry.next_sid in (game.session, entry.series):
        raise refused(f"{where}: its rematch is a game before it")
    if entry.handover and not entry.next_sid:
        raise refused(f"{where}: it hands its players over to no rematch")
    tokens = {holder.token for holder in game.tokens}
    if not set(entry.handover) <= tokens:
        raise refused(f"{where}: it hands over a token that is not the game's")
    return SeriesRow(game.session, entry.series, entry.number,
                     [list(counts) for counts in entry.tally], entry.next_sid,
                     dict(entry.handover))


def _check_rematches(sessions: Sequence[KeptSession], in_clear: bool) -> None:
    """A game's rematch in the file is the next game of its series, and the game hands
    its players over to that rematch's tokens (when the file holds them `in_clear`: a
    sealed one only its player opens); each game is one game's rematch at most."""
    places = {kept.row.sid: (kept.series, kept.tokens) for kept in sessions}
    followed: set[str] = set()
    for number, kept in enumerate(sessions, 1):
        place = kept.series
        if place is None or not place.next_sid:
            continue
        where = f"game {number}, its 'series'"
        if place.next_sid in followed:
            raise refused(f"{where}: its rematch is another game's rematch too")
        followed.add(place.next_sid)
        if place.next_sid not in places:
            continue  # kept here, or refused when it is merged (`merged`)
        after, tokens = places[place.next_sid]
        if after is None or (after.series, after.number) != (place.series, place.number + 1):
            raise refused(f"{where}: its rematch is not the next game of its series")
        if in_clear and not set(place.handover.values()) <= set(tokens):
            raise refused(f"{where}: it hands over to a token its rematch does not have")


def _hash_tokens(checked: Checked) -> None:
    """A version 1 file's tokens as they are kept: digests, each handover sealed."""
    for number, kept in enumerate(checked.sessions):
        sid, place = kept.row.sid, kept.series
        if kept.tokens:
            checked.owner_tokens[sid] = next(iter(kept.tokens))
        if place is not None:
            checked.handed_to[sid] = [token_digest(new) for new in place.handover.values()]
            place = dataclasses.replace(place, handover=hashed_handover(place.handover))
        checked.sessions[number] = dataclasses.replace(
            kept, tokens={token_digest(token): seats for token, seats in kept.tokens.items()},
            forgotten=frozenset(token_digest(token) for token in kept.forgotten),
            series=place)


def _check_digests(backup: Backup) -> None:
    """A later file's tokens are digests: one that is not was not made by Parlour."""
    for number, game in enumerate(backup.games, 1):
        held = [holder.token for holder in game.tokens]
        if not all(map(is_digest, [*held, *(game.series.handover if game.series else ())])):
            raise refused(f"game {number} has a seat token that is not a digest, as a "
                          f"version {backup.version} backup keeps them")


def _check_yours(backup: Backup, checked: Checked) -> None:
    """Each game's `your_token` (version 3 only) is one of the game's: its digest is one
    of the game's tokens in the file. One that is not (changed, or moved from another
    game) refuses the file; one that is is handed back on restore."""
    for number, game in enumerate(backup.games, 1):
        if game.your_token is None:
            continue
        if backup.version < YOURS_SINCE:
            raise refused(f"game {number} has a 'your_token', which only a version "
                          f"{YOURS_SINCE} backup holds")
        if token_digest(game.your_token) not in {holder.token for holder in game.tokens}:
            raise refused(f"game {number}: the seat token it holds for you is not one of "
                          "the game's (the file was changed since it was made)")
        checked.owner_tokens[game.session] = game.your_token


def _mark_solver_ended(checked: Checked) -> None:
    """A finished game whose last round's result is filed apart as the solver's is one a
    solver's line ended (the file carries no flag of it): its row says so, and its
    headline is the game's for that (`Live.headline_for`)."""
    last_round = {kept.row.sid: kept.row.round for kept in checked.sessions}
    ended = {result.sid for result in checked.results
             if result.preset == SHOWN and result.round == last_round[result.sid]}
    for index, kept in enumerate(checked.sessions):
        row = kept.row
        if row.sid in ended and row.preset != SHOWN and row.sid in checked.shown_headlines:
            shown = dataclasses.replace(row, shown_to_end=True,
                                        headline=checked.shown_headlines[row.sid])
            checked.sessions[index] = dataclasses.replace(kept, row=shown)


def _checked_results(backup: Backup, sessions: Sequence[KeptSession],
                     outcomes: Mapping[str, Sequence[str]]) -> list[Result]:
    """Each result belongs to a game of the file, at a round and seat it had, once; a
    result of a game's last round says what its moves make of it (earlier rounds' moves
    are gone: a restart replaced them)."""
    rows = {kept.row.sid: kept.row for kept in sessions}
    checked: dict[tuple[str, int, int], Result] = {}
    for number, entry in enumerate(backup.results, 1):
        row = rows.get(entry.session)
        where = f"result {number}"
        if row is None:
            raise refused(f"{where} is of a game that is not in the backup")
        if entry.game != row.game or entry.round > row.round or entry.seat >= len(row.seats):
            raise refused(f"{where} does not fit its game (its name, round or seat)")
        if entry.round == row.round:
            made = outcomes[entry.session]
            if not made and entry.seat not in help_of(row, len(row.seats))[0]:
                # a round's result stands while an Undo has it in play again, which
                # made the game one played with help: else the game never ended
                raise refused(f"{where} is of a game still being played")
            if made and entry.outcome != made[entry.seat]:
                raise refused(f"{where} says {entry.outcome}, but its game's moves make "
                              f"it {made[entry.seat]}")
        key = (entry.session, entry.round, entry.seat)
        if key in checked:
            raise refused(f"{where} is in it twice")
        if not all(math.isfinite(value) for value in entry.figures.values()):
            raise refused(f"{where} has a figure that is not a number")
        checked[key] = Result(
            # a position given is filed apart, whatever the file says (an older Parlour's)
            sid=entry.session, round=entry.round, game=entry.game,
            preset=CUSTOM_POSITION if row.preset == CUSTOM_POSITION else entry.preset,
            mode=entry.mode, outcome=entry.outcome, score=entry.score,
            elapsed_ms=entry.elapsed_ms, moves=entry.moves, assisted=entry.assisted,
            finished=entry.finished, figures=dict(entry.figures), seat=entry.seat,
            seat_name=entry.seat_name,
        )
    return list(checked.values())


async def _checked_picture(upload_id: str, saved: SavedPicture) -> Picture:
    """Decoded and re-encoded as an upload is, off the event loop (a decode bomb, a
    damaged or huge picture is refused as an upload would be)."""
    if len(saved.data) > MAX_PICTURE_TEXT:
        raise refused(f"the picture {upload_id} is too big")
    try:
        data = base64.b64decode(saved.data, validate=True)
        return await asyncio.to_thread(check_picture, data)
    except binascii.Error:
        raise refused(f"the picture {upload_id} is not base64") from None
    except BadUpload as error:
        raise refused(f"the picture {upload_id}: {error}") from None


def _check_rematch_kept(number: int, place: SeriesRow | None, handed_to: Sequence[str],
                        in_file: set[str], kept: Identities) -> None:
    """A game whose rematch is not in the file follows one kept here, handing its
    players over to that rematch's tokens (`handed_to`: their digests, when known)."""
    if place is None or not place.next_sid or place.next_sid in in_file:
        return
    where = f"game {number}, its 'series'"
    if place.next_sid not in kept.sessions:
        raise refused(f"{where}: its rematch {place.next_sid} is neither in it nor kept here")
    if any(kept.tokens.get(token) != place.next_sid for token in handed_to):
        raise refused(f"{where}: it hands over to a token its rematch does not have")


def merged(checked: Checked, kept: Identities, now: float) -> tuple[Restored, RestoreReport]:
    """The write that adds what `kept` lacks, and what it adds; refused if the file's
    identities clash with what is kept (a session id of another game, a token of
    another session, a picture that is nowhere, a rematch that is nowhere)."""
    new: list[KeptSession] = []
    in_file = {session.row.sid for session in checked.sessions}
    for number, session in enumerate(checked.sessions, 1):
        sid = session.row.sid
        if sid in kept.sessions:
            if kept.sessions[sid] != session.row.game_id:
                raise refused(f"its game {sid} is not the game kept here under that id")
            continue
        if any(token in kept.tokens for token in session.tokens):
            raise refused(f"a seat token of its game {sid} is another game's here")
        _check_rematch_kept(number, session.series, checked.handed_to.get(sid, []), in_file,
                            kept)
        new.append(session)
    missing = sorted(checked.needs - set(checked.pictures) - kept.uploads)
    if missing:
        raise refused(f"a game uses the picture {missing[0]}, which it does not hold")
    results = [r for r in checked.results if (r.sid, r.round, r.seat) not in kept.results]
    pictures = [(upload_id, picture) for upload_id, picture in checked.pictures.items()
                if upload_id not in kept.uploads]
    change = Restored(tuple(new), tuple(results), tuple(pictures), now)
    added = {session.row.sid for session in new}
    # a game kept here already seats the token handed back only if it keeps its digest
    handed_back = {sid: token for sid, token in checked.owner_tokens.items()
                   if sid in added or kept.tokens.get(token_digest(token)) == sid}
    report = RestoreReport(
        games_added=len(new), games_already_here=len(checked.sessions) - len(new),
        results_added=len(results), pictures_added=len(pictures), tokens=handed_back,
    )
    return change, report
