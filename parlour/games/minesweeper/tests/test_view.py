"""Minesweeper's toolbar markup: the board buttons say the first-click rule they keep,
and flag mode waits until a cell is open."""

from __future__ import annotations

import random
import re

from parlour.core.game import RenderContext
from parlour.games.minesweeper.logic import Minesweeper
from parlour.games.minesweeper.view import render

GAME = Minesweeper()
PLAYING = RenderContext(seat=0, can_move=True)


def markup(first_click: str, opened: bool = False) -> str:
    state = GAME.deal(GAME.validate({"first_click": first_click}), random.Random(1))
    if opened:
        state = GAME.apply(state, ("open", 0, 0))
    return render(GAME.observe(state, 0), PLAYING)


def board_titles(html: str) -> list[str]:
    """The titles of the board buttons (Easy, Medium, Hard)."""
    return re.findall(r'data-preset="\w+" title="([^"]*)"', html)


def test_the_board_buttons_say_the_first_click_rule_they_keep() -> None:
    no_guess = board_titles(markup("no_guess"))
    assert len(no_guess) == 3 and all(", no guess (key" in title for title in no_guess)
    plain = board_titles(markup("opening"))
    assert len(plain) == 3 and not any("guess" in title or "safe" in title for title in plain)


def test_flag_mode_waits_until_a_cell_is_open() -> None:
    assert re.search(r'id="ms-mode"[^>]* data-paused', markup("safe"))
    assert not re.search(r'id="ms-mode"[^>]* data-paused', markup("safe", opened=True))
