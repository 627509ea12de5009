"""Ishido's moments for the browser checks (`tests/browser/scene.py`)."""

from typing import Any

from parlour.core.game import Game
from parlour.games.ishido.logic import COLS, Board, valid_cells
from tests.browser.scene import Scene


def most_neighbours(rules: Game[Any, Any], board: Board) -> tuple[int, int]:
    """The cell touching the most tiles, the first in reading order among equals (this
    greedy play clears the pouch of some deals)."""
    valid = valid_cells(board)
    cell = max(valid, key=lambda cell: (valid[cell], -cell))
    return cell % COLS, cell // COLS


SCENES = (
    Scene("ishido", "play", {"id": "ishido:seed#b3"}, most_neighbours, moves=6),
    Scene("ishido", "won", {"id": "ishido:seed#b3"}, most_neighbours),
    Scene("ishido", "lost", {"id": "ishido:seed#s2"}),
)
