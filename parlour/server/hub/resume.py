"""The Resume list: the unfinished games a browser holds a seat in.

A browser proves a seat with the game's token it keeps (the token is the seat's key, sent
in a body or a header, never in a URL), so it sends its tokens and gets back only its own
games: not games it merely watched, left, or took off its list. Each entry says which
game and board it is (`Game.summary`), how far it got and when it was last played, but
not its game id, which holds the deal. A player takes a game off their own list with its
token (`forget`). No list names the games of others (whose session ids would let anyone
watch them, by the thousand: issue 33); a game is watched by its link.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, Field, StrictBool, StrictInt, StringConstraints

from parlour.core.game import GameSpec, readable
from parlour.core.gameid import board_words
from parlour.server.hub.errors import ApiError
from parlour.server.hub.messages import Strict
from parlour.store import SessionRow, Store, forgotten_set
from parlour.store.seat_tokens import token_digest

MAX_TOKENS = 300
"""Tokens a browser may send at once (the most recent it keeps): about 8 KiB."""
Token = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class HeldRequest(Strict):
    tokens: list[Token] = Field(
        max_length=MAX_TOKENS,
        description=f"the tokens this browser keeps, at most {MAX_TOKENS} (its most recent)",
    )
    limit: StrictInt = Field(5, ge=1, le=100, description="how many to list, newest first")


class ResumeEntry(BaseModel):
    session: str
    game: str
    title: str = Field(description="the game's name, e.g. 'Minesweeper'")
    summary: str = Field(description="which board or rules, e.g. 'Expert 16×30' (may be empty)")
    players: str = Field(description="who plays, e.g. 'vs computer (perfect)'; empty when alone")
    moves: int
    headline: str
    updated: float = Field(description="when it was last played, in seconds since 1970")
    seats: list[int] = Field(description="the seats this browser holds")


class ResumeList(BaseModel):
    games: list[ResumeEntry]
    total: int = Field(description="how many there are in all (`games` holds `limit` of them)")


class ForgetRequest(Strict):
    forget: StrictBool = Field(True, description="false puts the game back on the list")


class Forgotten(BaseModel):
    session: str
    forgotten: bool


def held_games(
    store: Store, games: Mapping[str, GameSpec], tokens: Sequence[str], limit: int
) -> ResumeList:
    held: dict[str, list[int]] = {}
    for sid, seats in store.held_unfinished([token_digest(token) for token in tokens]):
        held.setdefault(sid, seats)  # each game once, were it sent two of its tokens
    entries = [
        _entry(row, games, seats)
        for sid, seats in list(held.items())[:limit]
        if (row := store.session_row(sid)) is not None
    ]
    return ResumeList(games=entries, total=len(held))


async def forget(store: Store, sid: str, token: str | None, forget: bool) -> Forgotten:
    """Take game `sid` off the Resume list of the player holding `token` (its digest,
    `forget` false: put it back). Only a player of the game may; the game itself stays
    as it is."""
    if token is None:
        raise ApiError(401, "send your token: 'Authorization: Bearer <token>'")
    if len(sid) > 64 or store.session_row(sid) is None:
        raise ApiError(404, f"no game session {sid[:64]!r}")
    if token not in store.tokens(sid):
        raise ApiError(403, "only a player of this game may take it off their list")
    await store.commit(forgotten_set(sid, str(token), forget))
    return Forgotten(session=sid, forgotten=forget)


def unfinished(store: Store, games: Mapping[str, GameSpec], token: str | None
               ) -> list[dict[str, Any]]:
    """The unfinished games `token` (its digest) holds a seat in (none without one);
    without their ids, which hold their deals."""
    held = store.held_unfinished([str(token)]) if token else []
    return [
        {
            "session": row.sid,
            "game": row.game,
            "title": games[row.game].game.title if row.game in games else row.game,
            "mode": row.mode,
            "preset": row.preset,
            "moves": _moves_made(row),
            "headline": row.headline,
            "updated": row.updated,
        }
        for sid, _ in held
        if (row := store.session_row(sid)) is not None
    ]


def _entry(row: SessionRow, games: Mapping[str, GameSpec], seats: list[int]) -> ResumeEntry:
    spec = games.get(row.game)
    return ResumeEntry(
        session=row.sid, game=row.game, title=spec.game.title if spec else row.game,
        summary=_summary(row, spec), players=_players(row.mode), moves=_moves_made(row),
        headline=row.headline, updated=row.updated, seats=seats,
    )


def _moves_made(row: SessionRow) -> int:
    """The moves made as the game counts them (a row kept before they were: its cursor)."""
    return row.cursor if row.moves_made is None else row.moves_made


def _summary(row: SessionRow, spec: GameSpec | None) -> str:
    words = board_words(spec.game, row.game_id) if spec else None
    return readable(row.preset) if words is None else words


def _players(mode: str) -> str:
    return "" if mode == "solo" else mode.replace("vs AI", "vs computer")
