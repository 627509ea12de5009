"""The sliding puzzle's moments for the browser checks (`tests/browser/scene.py`)."""

from typing import Any

from parlour.core.game import Game
from parlour.core.gameid import GameId
from parlour.games import GAMES
from parlour.games.sliding.logic import Puzzle, Slide, goal
from tests.browser.scene import Scene


def one_slide_from_solved() -> str:
    """A 3×3 position id whose gap is one step left of its place."""
    rules = GAMES["sliding"].game
    params = rules.validate({"rows": 3, "cols": 3})
    tiles = list(goal(3, 3))
    tiles[-2], tiles[-1] = tiles[-1], tiles[-2]
    return GameId("sliding", params, None, position=",".join(map(str, tiles))).text(rules)


def the_solving_slide(rules: Game[Any, Any], puzzle: Puzzle) -> Slide:
    return next(move for move in rules.legal_moves(puzzle) if rules.apply(puzzle, move).solved())


SCENES = (
    Scene("sliding", "play", {"id": "sliding:easy#scene"}, moves=1),
    Scene("sliding", "won", {"id": one_slide_from_solved()}, the_solving_slide),
)
