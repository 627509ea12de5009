"""A game view's markup read as a player's browser would: the moves it offers."""

from __future__ import annotations

import html
import json
import re
from typing import Any

MOVE_ATTRIBUTE = re.compile(r'data-(?:alt-)?move="([^"]*)"')


def legal_moves(markup: str) -> list[Any]:
    """The moves a view's markup offers: its elements' `data-move` and `data-alt-move`."""
    moves = []
    for found in MOVE_ATTRIBUTE.finditer(markup):
        try:
            moves.append(json.loads(html.unescape(found.group(1))))
        except ValueError:
            continue
    return moves
