"""A `Scene`: a moment of a game a player sees (in play, won, lost, drawn), and how to
get there over the REST API. Each game lists its own in `parlour/games/<game>/tests/
scenes.py` (`SCENES`); `scenes.py` here gathers them and makes them on a server."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.game import Game

Policy = Callable[[Game[Any, Any], Any], Any]
"""(rules, position) -> the move to play next."""


def first_legal(rules: Game[Any, Any], state: Any) -> Any:
    return rules.legal_moves(state)[0]


@dataclass(frozen=True)
class Scene:
    game: str
    moment: str  # "play", or the status it ends with: "won", "lost", "draw"
    options: dict[str, Any] = field(default_factory=dict)  # for POST /api/games
    policy: Policy = first_legal
    moves: int | None = None  # how many moves to play; None: until the game is over
    line: tuple[Any, ...] = ()  # moves played first, as they are, before the policy's

    @property
    def name(self) -> str:
        return f"{self.game}-{self.moment}"

    @property
    def status(self) -> str:
        return "playing" if self.moment == "play" else self.moment
