"""The finished games there are to watch again: the most recent first, each with what the
statistics page lists beside its Replay link (the game, its board, who played, the
result, moves and time). A game restarted since (a later round of its session) or still
being played has no replay of that result: its moves are another game's now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from parlour.core.game import GameSpec
from parlour.core.gameid import SHOWN, board_words
from parlour.stats.wording import players
from parlour.store import Result, ResultReads

MAX_LISTED = 100
"""The most past games one request lists."""
SCANNED = 2_000
"""The latest results looked through for them (a result's game may have been restarted
since, or have several players' results): the work of a request is bounded."""


class PastGame(BaseModel):
    """A finished game to watch again (GET /api/games/{session}/replay)."""

    session: str
    game: str
    title: str
    board: str = Field(description="the board or rules in the game's words")
    players: str = Field(description="who played, in the statistics' words (\"Against the "
                         "computer (medium)\", \"Two players here\"; \"\" alone)")
    headline: str = Field(description="how it ended")
    outcome: str = Field(description="the result, in the statistics' words")
    moves: int
    elapsed_ms: int
    time_shown: str = Field(description="elapsed_ms as the game writes a time (1:05, or "
                            "Minesweeper's 4.32)")
    finished: float = Field(description="when it ended (seconds since 1970)")
    assisted: bool = Field(description="the player had help (a hint, Assist, a take-back "
                           "after a loss): it set no record")


def past_games(store: ResultReads, games: Mapping[str, GameSpec], game: str | None, limit: int
               ) -> list[dict[str, Any]]:
    """The last `limit` finished games (of `game`, or of every game) whose replay is
    still there, most recent first, among the latest `SCANNED` results. Blocking: run it
    in a thread."""
    listed: list[dict[str, Any]] = []
    seen: set[str] = set()
    for result, row in store.latest_results(game, SCANNED):
        if len(listed) >= limit:
            break
        if result.sid in seen or result.game not in games:
            continue
        seen.add(result.sid)
        if row is None or row.round != result.round or row.status == "playing":
            continue
        spec = games[result.game]
        listed.append({
            "session": result.sid,
            "game": result.game,
            "title": spec.game.title,
            "board": board_words(spec.game, row.game_id) or "",
            # the solver played it (gameid.SHOWN): not a win of the player's
            "players": SHOWN if result.preset == SHOWN else players(result.mode,
                                                                     result.seat_name),
            "headline": row.headline,
            "outcome": _outcome_word(spec, result),
            "moves": result.moves,
            "elapsed_ms": result.elapsed_ms,
            "time_shown": spec.time_written(result.elapsed_ms),
            "finished": result.finished,
            "assisted": result.assisted,
        })
    return listed


def _outcome_word(spec: GameSpec, result: Result) -> str:
    """The result for the player whose result it is, in the game's words ("solved")."""
    word = spec.stat_outcomes.get(result.outcome, result.outcome)
    return word[:1].upper() + word[1:]
