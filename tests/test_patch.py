"""Views sent as the parts that changed: which lines count as parts, and that applying
the parts of every move of random games gives the new markup exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core.game import RenderContext
from parlour.games import GAMES
from parlour.server.patch import changed_parts, part_key

BOARD = "\n".join([
    '<div class="grid" id="grid">',
    '<i id="a" class="x">1</i>',
    '<i id="b">2</i>',
    '<i id="c">3</i>',
    '<i id="d">4</i>',
    "</div>",
])


@pytest.mark.parametrize(("line", "key"), [
    ('<i id="a">1</i>', ("i", "a")),
    ('<div class="cell" id="c-1"><div>x</div><div>y</div></div>', ("div", "c-1")),
    ('<div id="grid" class="lost">', ("div", "grid")),
    ('<g id="t" transform="translate(1 2)"><rect x="1"/></g>', ("g", "t")),
    ('<div id="a"><div>unclosed</div>', None),  # the first div is still open at the end
    ('<div id="a"></div><div></div>', None),  # two elements
    ('<div class="no-id">1</div>', None),
    ("</div></div>", None),
    ("text", None),
    ('<span data-id="x">1</span>', None),  # an id only inside another attribute's name
])
def test_which_lines_are_parts(line: str, key: tuple[str, str] | None) -> None:
    assert part_key(line) == key


def test_same_markup_has_no_parts() -> None:
    assert changed_parts(BOARD, BOARD) == []


def test_changed_elements_and_opening_tags_are_sent() -> None:
    new = BOARD.replace('<i id="b">2</i>', '<i id="b" class="open">5</i>').replace(
        'class="grid"', 'class="grid lost"')
    assert changed_parts(BOARD, new) == ['<div class="grid lost" id="grid">',
                                         '<i id="b" class="open">5</i>']


@pytest.mark.parametrize("new", [
    BOARD.replace('<i id="b">2</i>\n', ""),  # a line fewer
    BOARD.replace('<i id="b">2</i>', '<i id="z">2</i>'),  # another element
    BOARD.replace('<i id="b">2</i>', '<b id="b">2</b>'),  # another tag
    BOARD.replace("</div>", "</div><p>after</p>"),  # a line that is not a part
    BOARD.replace('">1<', '">9<').replace('">2<', '">9<').replace('">3<', '">9<')
    .replace('">4<', '">9<'),  # more than half of the lines
])
def test_the_whole_markup_is_sent_when_parts_cannot_say_it(new: str) -> None:
    assert changed_parts(BOARD, new) is None


def apply(old: str, parts: list[str]) -> str:
    """What the browser does with parts, on the markup: replace the line with the same
    id (the browser morphs that element, or copies an opening tag's attributes)."""
    by_id = {part_key(part): part for part in parts}
    return "\n".join(by_id.get(part_key(line), line) if part_key(line) else line
                     for line in old.split("\n"))


@pytest.mark.parametrize("name", ["minesweeper", "ishido", "tictactoe"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_parts_of_every_move_rebuild_the_new_markup(name: str, seed: int) -> None:
    spec = GAMES[name]
    game, rng = spec.game, random.Random(seed)
    params = game.validate(rng.choice(list(game.presets.values())))
    state = game.deal(params, random.Random(seed))
    shown = spec.render(game.observe(state, 0), RenderContext(0, True, None, False))
    sent_as_parts = 0
    while game.status(state).value == "playing":
        moves = game.legal_moves(state)
        state = game.apply(state, rng.choice(moves))
        assist = rng.random() < 0.3
        html = spec.render(game.observe(state, 0), RenderContext(0, True, None, assist))
        parts = changed_parts(shown, html)
        if parts is not None:
            assert apply(shown, parts) == html
            sent_as_parts += 1
        shown = html
    assert sent_as_parts > 0  # (Tic-Tac-Toe's board is one line: one part, the whole svg)
