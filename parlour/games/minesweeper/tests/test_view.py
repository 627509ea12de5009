"""Minesweeper's toolbar markup: the board buttons say the first-click rule they keep,
and flag mode waits until a cell is open and is disabled once the game is over."""

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


def test_flag_mode_is_disabled_while_no_move_can_be_made() -> None:
    """A finished game, or a game watched: the switch is greyed and does nothing."""
    state = GAME.deal(GAME.validate({"first_click": "safe"}), random.Random(1))
    state = GAME.apply(state, ("open", 0, 0))
    mine = divmod(min(state.mined), state.cols)
    lost = GAME.apply(state, ("open", *mine))
    switch = r'<button class="ms-mode"[^>]*>'
    on = re.search(switch, render(GAME.observe(state, 0), PLAYING)).group(0)  # type: ignore[union-attr]
    assert " disabled" not in on
    watching = RenderContext(seat=0, can_move=False)
    for html in (render(GAME.observe(lost, 0), PLAYING), render(GAME.observe(state, 0), watching)):
        off = re.search(switch, html).group(0)  # type: ignore[union-attr]
        assert " disabled" in off and "data-paused" not in off


def test_a_flag_offers_its_clearing_to_a_player_of_flags_only() -> None:
    """A flag's second action goes on to a question mark (the seed's cycle), or under the
    Marks option's Flags only clears the flag; a closed cell and a question mark have one
    second action whatever the option (to a flag; cleared)."""
    state = GAME.deal(GAME.validate({}), random.Random(1))
    state = GAME.apply(GAME.apply(state, ("mark", 0, 0)), ("mark", 0, 1))
    state = GAME.apply(state, ("mark", 0, 1))  # a question mark
    html = render(GAME.observe(state, 0), PLAYING)
    cell = {name: re.search(rf'<div id="ms-0-{name}"[^>]*>', html).group(0)  # type: ignore[union-attr]
            for name in (0, 1, 2)}
    assert 'data-alt-move="{&quot;mark&quot;:[0,0]}"' in cell[0]
    assert 'data-alt-move-marks-flags-only="{&quot;unmark&quot;:[0,0]}"' in cell[0]
    for other in (cell[1], cell[2]):
        assert "data-alt-move=" in other and "data-alt-move-marks" not in other


def started_at(html: str) -> list[tuple[int, int]]:
    return [(int(row), int(col)) for row, col in
            re.findall(r'id="ms-(\d+)-(\d+)"[^>]* data-start', html)]


def test_the_keyboard_s_cursor_comes_on_at_the_closed_cell_nearest_the_middle() -> None:
    """A new game's first arrow lands in the middle, where a first click opens most (it
    took the top left corner); later, on the closed cell nearest the middle; never on a
    board that cannot be played."""
    state = GAME.deal(GAME.validate({}), random.Random(1))
    rows, cols = state.rows, state.cols
    middle = ((rows - 1) // 2, (cols - 1) // 2)
    assert started_at(render(GAME.observe(state, 0), PLAYING)) == [middle]
    opened = GAME.apply(state, ("open", *middle))
    observation = GAME.observe(opened, 0)
    (start,) = started_at(render(observation, PLAYING))
    assert observation["cells"][start[0]][start[1]] in "#?"
    closed = [(r, c) for r, line in enumerate(observation["cells"])
              for c, symbol in enumerate(line) if symbol in "#?"]
    distance = [abs(r - (rows - 1) / 2) + abs(c - (cols - 1) / 2) for r, c in (start, *closed)]
    assert distance[0] == min(distance[1:])
    assert started_at(render(observation, RenderContext(seat=0, can_move=False))) == []
