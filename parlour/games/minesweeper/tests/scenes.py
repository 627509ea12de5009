"""Minesweeper's moments for the browser checks (`tests/browser/scene.py`), and the
policies that reach them."""

from typing import Any

from parlour.core.game import Game
from parlour.games.minesweeper.logic import OPEN, Minefield
from tests.browser.scene import Scene


def open_a_mine(rules: Game[Any, Any], field: Minefield) -> tuple[str, int, int]:
    """The centre first (the first click is safe), then a mine."""
    if not field.started:
        return "open", field.rows // 2, field.cols // 2
    mine = min(field.mined)
    return "open", *divmod(mine, field.cols)


def open_safe_cells(rules: Game[Any, Any], field: Minefield) -> tuple[str, int, int]:
    """The centre first, then every closed cell without a mine."""
    if not field.started:
        return "open", field.rows // 2, field.cols // 2
    cell = next(cell for cell, mark in enumerate(field.marks)
                if mark != OPEN and cell not in field.mined)
    return "open", *divmod(cell, field.cols)


SCENES = (
    Scene("minesweeper", "play", {"id": "minesweeper:easy#scene"}, open_safe_cells, moves=2),
    Scene("minesweeper", "won", {"id": "minesweeper:easy#scene"}, open_safe_cells),
    Scene("minesweeper", "lost", {"id": "minesweeper:easy#scene"}, open_a_mine),
)
