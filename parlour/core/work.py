"""Work that may take long, as plain functions a worker process can run.

Each takes only what pickles (games, states, moves, generators, module-level players)
and returns a value; the server runs them through `parlour.server.compute`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from parlour.core.game import JSON, AIPlayer, Game, GameError, GameSpec, Hint, HintFinder
from parlour.core.gameid import GameId
from parlour.core.session import Session


def deal(game: Game[Any, Any], game_id: GameId) -> Any:
    return game_id.deal(game)


def apply_move(game: Game[Any, Any], state: Any, move: JSON) -> Any:
    return game.apply(state, game.parse_move(move))


def ai_move(game: Game[Any, Any], player: AIPlayer, state: Any, rng: random.Random) -> JSON:
    return game.move_to_json(player(state, rng))


def hint(finder: HintFinder, state: Any, seat: int) -> Hint | None:
    return finder(state, seat)


def replay(
    spec: GameSpec, game_id: GameId, seats: Sequence[str], moves: Sequence[JSON], cursor: int
) -> Session:
    """A saved session rebuilt from its deal and moves (from the store or a file); a move
    that cannot be played raises GameError saying which one and why."""
    try:
        return Session(spec, game_id, seats, moves, cursor)
    except GameError:
        pass  # found again below, move by move, to say which one
    session = Session(spec, game_id, seats)
    for number, move in enumerate(moves, 1):
        seat = session.to_move
        try:
            if seat is None:
                raise GameError("the game was already over")
            session.play(move, seat)
        except GameError as error:
            raise GameError(f"move {number} cannot be played: {error}") from None
    session.cursor = cursor
    return session


def replay_in_json(
    spec: GameSpec, game_id: GameId, seats: Sequence[str], moves: Sequence[JSON], cursor: int
) -> tuple[Session, list[str]]:
    """`replay`, and the session's line written out as the store keeps it (a move's JSON
    text each): for a long imported line, done here rather than by the server."""
    session = replay(spec, game_id, seats, moves, cursor)
    return session, [json.dumps(move) for move in session.line]
