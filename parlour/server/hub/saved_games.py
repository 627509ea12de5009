"""Saved games as files: a game's id, its whole line of moves and the uploaded pictures
its id names, in one JSON document (`SavedGame`), to take a game to another machine.

An id that names an uploaded picture means its deal only where the picture is kept, so
the file carries the picture. Exporting reveals the deal (the id), so while a game is on
only its owner may; importing stores the pictures again through the same checks as an
upload, and the hub replays the moves (`Opening.adopt`).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import time
from collections.abc import Collection, Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator

from parlour.core.game import Status
from parlour.server.hub.errors import ApiError, fault
from parlour.server.hub.live import Live
from parlour.server.hub.messages import Strict
from parlour.store import (
    MAX_BYTES,
    BadUpload,
    Change,
    Picture,
    Store,
    check_brought_picture,
    content_id,
    together,
    upload_saved,
)

FORMAT: Final = "parlour-saved-game"
VERSION: Final = 1
MAX_MOVES = 10_000
"""Moves a saved file holds, the redo line included: more than any real game makes. The
longest are Sliding 8x8's: the solver's solutions of random positions are about 830
moves (median; about twice the shortest), and a player solving one by hand row by row
takes a few times that, some 2 000-4 000 clicks. Minesweeper's largest board (40x60) is
2 400 cells, each opened once and flagged at most a few times; the other games end
within a few hundred moves. A longer file is made by a script, and replaying and
keeping it costs the server (a 100 000-move file: seconds of CPU and 4 MB kept)."""
MAX_ELAPSED_MS = 10**12  # some 30 years of play: a bound, not a rule
MAX_PICTURE_TEXT = -(-MAX_BYTES // 3) * 4  # a picture of MAX_BYTES in base64
FILE_LIMIT = 8 * 2**20
"""Bytes of a saved file, the import's request body: a picture of MAX_BYTES in base64
(5.4 MiB) and the moves."""
QUICK_FILE = 64 * 2**10
"""Bytes of a file read in place (under a millisecond); a longer one is read in a worker
process: parsing 8 MiB of JSON holds the interpreter for a good fraction of a second,
which a thread would take from the event loop too."""

UploadId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]
SeatKind = Annotated[str, StringConstraints(pattern=r"^(human|ai:[A-Za-z0-9_-]{1,40})$")]


class SavedPicture(Strict):
    media_type: Literal["image/png", "image/jpeg", "image/webp"]
    data: str = Field(max_length=MAX_PICTURE_TEXT, description="the picture, in base64")


class SavedGame(Strict):
    """A game as a file: exported by GET /api/games/{sid}/export, imported by
    POST /api/games/import."""

    format: Literal["parlour-saved-game"]
    version: Literal[1]
    game: str = Field(max_length=40, description="the game's name, as in /api/catalog",
                      examples=["tictactoe"])
    id: str = Field(max_length=4500, description="the game id, which holds the deal",
                    examples=["tictactoe:standard#8k3jd92hq1"])
    seats: list[SeatKind] = Field(
        min_length=1, max_length=8, description="per seat: 'human' or 'ai:<level>'",
        examples=[["human", "ai:perfect"]],
    )
    moves: list[Any] = Field(
        max_length=MAX_MOVES,
        description="every move of the line in the game's move JSON, the moves Undo took "
        "back (the redo line) included",
    )
    cursor: int = Field(ge=0, le=MAX_MOVES, description="moves played up to the position")
    assisted: bool = Field(description="help was used (hints, assisted undo)")
    assist: bool = Field(False, description="the game's assist switch is on")
    elapsed_ms: int = Field(ge=0, le=MAX_ELAPSED_MS, description="time played")
    uploads: dict[UploadId, SavedPicture] = Field(
        default_factory=dict, max_length=4,
        description="the uploaded pictures the id names, by upload id",
    )

    @model_validator(mode="after")
    def _cursor_on_the_line(self) -> SavedGame:
        if self.cursor > len(self.moves):
            raise ValueError(f"cursor {self.cursor} is past the {len(self.moves)} moves")
        return self


def may_export(live: Live, token: str | None) -> bool:
    """The file holds the deal: its owner may export a game at any time, a player holding
    a seat once it is over, nobody else."""
    if token is not None and token == live.owner:
        return True
    return bool(live.seats_of(token)) and live.session.status is not Status.PLAYING


def exported(live: Live, token: str | None, store: Store, clock_now: float) -> bytes:
    """`live` as a saved file (JSON) for the player holding `token`: ApiError 403 if they
    may not have it (`may_export`), 409 if it could not be imported again. `clock_now`:
    the game clock's time (`Hub.clock`)."""
    if not may_export(live, token):
        raise ApiError(403, "only the player who started this game may export it while "
                       "it is on (the file holds the deal); once over, any player")
    session = live.session
    if session.line_length > MAX_MOVES:
        raise ApiError(409, f"a saved file holds at most {MAX_MOVES} moves; this game "
                       f"has {session.line_length}")
    saved = SavedGame(
        format=FORMAT, version=VERSION, game=session.game.name, id=session.id_text,
        seats=list(session.seats), moves=session.line, cursor=session.cursor,
        assisted=session.assisted, assist=session.assist,
        elapsed_ms=min(session.clock.reading_ms(clock_now), MAX_ELAPSED_MS),
        uploads={upload_id: _saved_picture(store, upload_id)
                 for upload_id in session.game_id.uploads(session.game)},
    )
    data = saved.model_dump_json().encode()
    if len(data) > FILE_LIMIT:
        raise ApiError(409, f"this game's file would be over {FILE_LIMIT // 2**20} MiB, "
                       "more than an import takes")
    return data


def _saved_picture(store: Store, upload_id: str) -> SavedPicture:
    picture = store.load_upload(upload_id)
    if picture is None:
        raise ApiError(409, f"the picture {upload_id} of this game is no longer kept here")
    if len(picture.data) > MAX_BYTES:
        raise ApiError(409, f"the picture {upload_id} of this game is over "
                       f"{MAX_BYTES // 2**20} MiB, more than an import takes")
    return SavedPicture.model_validate(
        {"media_type": picture.media_type, "data": base64.b64encode(picture.data).decode()}
    )


def file_name(live: Live, now: float) -> str:
    """`<game>-<YYYY-MM-DD>.parlour.json`, dated in local time."""
    day = time.strftime("%Y-%m-%d", time.localtime(now))
    return f"{live.session.game.name}-{day}.parlour.json"


def read_file(data: bytes) -> SavedGame | str:
    """The saved file in `data`, or what is wrong with it in a player's words (the page
    says "That file cannot be imported: its 'format' is missing"). A plain function of
    bytes, to run in a worker process."""
    try:
        return SavedGame.model_validate_json(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        if first["type"] == "json_invalid":
            return "it is not a game file: its text is not JSON"
        if first["type"] == "model_type":
            return "it is not a game file: a game file is one JSON object"
        if not first["loc"]:  # the file as a whole ("cursor 5 is past the 4 moves")
            return str(first["msg"]).removeprefix("Value error, ")
        where = ".".join(str(part)[:40] for part in first["loc"])
        return fault(f"its {where!r}", first)


async def checked_pictures(saved: SavedGame, named: Collection[str]) -> dict[str, Picture]:
    """The file's pictures, each checked as an upload is and kept as it came (off the event
    loop), by the upload id its game id names; ApiError 422 saying what is wrong."""
    extra = sorted(set(saved.uploads) - set(named))
    if extra:
        raise ApiError(422, f"uploads: the game id names no picture {extra[0]!r}")
    return {upload_id: await _checked(upload_id, picture)
            for upload_id, picture in saved.uploads.items()}


async def _checked(upload_id: str, saved: SavedPicture) -> Picture:
    try:
        data = base64.b64decode(saved.data, validate=True)
    except binascii.Error:
        raise ApiError(422, f"uploads: picture {upload_id} is not base64") from None
    # an upload's id is the hash of the picture kept: a file may bring a picture under an
    # id only with the very bytes that id was made from (as exported), so no one can
    # claim an id for another picture before its owner uploads or imports it
    if content_id(data) != upload_id:
        raise ApiError(422, f"uploads: picture {upload_id} is not the picture of that id "
                       "(an upload's id is made from its bytes)")
    try:
        return await asyncio.to_thread(check_brought_picture, data)
    except BadUpload as error:
        raise ApiError(422, f"uploads: picture {upload_id}: {error}") from None


def pictures_kept(pictures: Mapping[str, Picture], owner: str, now: float) -> Change:
    """Keep each picture (under the id its game names: its bytes' own, `_checked`), as
    `owner`'s uploads (their quota applies: OverQuota). Written after the session, so
    that they count as in use."""

    return together(*(upload_saved(picture, owner, now) for picture in pictures.values()))
