"""Escalator's moments for the browser checks (`tests/browser/scene.py`)."""

from typing import Any

from parlour.core.game import Game
from parlour.games.escalator.logic import Draw, Layout, Pick
from tests.browser.scene import Scene


def stock_then_picks(rules: Game[Any, Any], layout: Layout) -> Draw | Pick:
    """Turn the whole stock, then pick what fits (this loses most deals)."""
    return Draw() if layout.stock_left else Pick(layout.playable()[0])


SCENES = (
    Scene("escalator", "play", {"id": "escalator:standard#s0"}, stock_then_picks, moves=3),
    Scene("escalator", "lost", {"id": "escalator:standard#s0"}, stock_then_picks),
)
