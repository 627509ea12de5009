"""A game is added by adding its folder: the registry finds every game package."""

from __future__ import annotations

from pathlib import Path

import parlour.games
from parlour.games import GAMES


def test_every_game_folder_is_offered_in_its_order() -> None:
    folders = {
        path.name for path in Path(parlour.games.__file__).parent.iterdir()
        if (path / "__init__.py").exists()
    }
    assert set(GAMES) == folders
    orders = [spec.order for spec in GAMES.values()]
    assert orders == sorted(orders)
    assert list(GAMES)[:2] == ["ishido", "tictactoe"]  # as SPEC §3 lists them
