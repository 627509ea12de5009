"""Ishido's board markup: where the keyboard's cursor starts, what a drag is told, the
points a tile just scored; the status line's words in play and the end card's for a near
miss."""

from __future__ import annotations

import random
import re

import pytest

from parlour.core.game import RenderContext, Status
from parlour.games.ishido.logic import COLS, FOUR_WAY_BONUS, Ishido
from parlour.games.ishido.tests.test_rules import board, tile
from parlour.games.ishido.view import FIRST_NOTES, end_note, play_note, render

GAME = Ishido()


def started(assist: bool) -> list[tuple[int, int]]:
    state = GAME.deal(GAME.validate({}), random.Random(4))
    markup = render(GAME.observe(state, 0), RenderContext(seat=0, can_move=True, assist=assist))
    return [(int(col), int(row)) for col, row in
            re.findall(r'id="ish-(\d+)-(\d+)"[^>]* data-start', markup)]


def test_with_help_the_cursor_starts_on_the_first_place_the_tile_fits() -> None:
    state = GAME.deal(GAME.validate({}), random.Random(4))
    valid = GAME.observe(state, 0)["valid"]
    first = min(map(int, valid))
    assert started(assist=True) == [(first % COLS, first // COLS)]


def test_without_help_no_cell_gives_away_where_the_tile_fits() -> None:
    assert started(assist=False) == []


def test_the_outer_ring_is_drawn_only_where_it_scores_nothing() -> None:
    """The classic rules score nothing on the outer ring: the board draws its line; the
    seed's rules score it as any cell, and draw none."""
    for rules, ringed in (("classic", True), ("seed", False)):
        state = GAME.deal(GAME.validate({"rules": rules}), random.Random(4))
        markup = render(GAME.observe(state, 0), RenderContext(seat=0, can_move=True))
        board = re.search(r'<div class="([^"]*)" id="ish-board"', markup)
        assert board is not None and ("ringed" in board.group(1).split()) is ringed


def test_with_help_the_next_tile_names_the_cells_where_it_fits_for_a_drag_to_show() -> None:
    """With Assist on, a dragged tile shows whether it may go on the cell it is over
    (input.js reads the next tile's data-fits): every cell where it fits, and no other;
    without it, nothing (a sweep of the board would find every place, the puzzle's own)."""
    state = GAME.deal(GAME.validate({}), random.Random(4))
    observation = GAME.observe(state, 0)
    alone = render(observation, RenderContext(seat=0, can_move=True))
    assert 'id="ish-next" data-drag ' in alone and "data-fits" not in alone
    markup = render(observation, RenderContext(seat=0, can_move=True, assist=True))
    fits = re.search(r'id="ish-next" data-drag data-fits="([^"]*)"', markup)
    assert fits is not None
    expected = {f"ish-{int(cell) % COLS}-{int(cell) // COLS}" for cell in observation["valid"]}
    assert expected and set(fits.group(1).split()) == expected
    watched = render(observation, RenderContext(seat=None, can_move=False, assist=True))
    assert "data-fits" not in watched  # nothing to drag, nothing to tell


@pytest.mark.parametrize(("rules", "left", "note"), [
    ("classic", 1, "So close: 1 tile left, for an end bonus of 500"),
    ("classic", 2, "So close: 2 tiles left, for an end bonus of 100"),
    ("classic", 3, None),  # the platform's words: no bonus, no near miss
    ("seed", 2, "So close: 2 tiles left"),  # the seed's rules have no end bonus
])
def test_a_game_that_ends_with_a_tile_or_two_left_is_called_nearly_won(
    rules: str, left: int, note: str | None
) -> None:
    stuck = [tile(5, 5)] * left  # tiles that fit nowhere
    state = board({(5, 3): tile(0, 0)}, [tile(0, 1), *stuck], rules=rules)
    ended = GAME.apply(state, (5, 4))
    assert GAME.status(ended) is Status.LOST
    assert end_note(GAME.observe(ended, 0)) == note
    assert end_note(GAME.observe(state, 0)) is None  # in play


FOUR_WAY_AROUND = {(4, 3): tile(0, 1), (6, 3): tile(0, 2), (5, 2): tile(4, 0), (5, 4): tile(3, 0)}


def gains(markup: str) -> list[tuple[str, str, str]]:
    """(cell id, the gain's classes, its words) of each tile that shows points."""
    return re.findall(r'id="(ish-\d+-\d+)"[^>]*>(?:(?!</svg>).)*<g class="(ish-gain[^"]*)"'
                      r"(?:(?!</svg>).)*<text[^>]*>([^<]*)</text>", markup)


@pytest.mark.parametrize(("rules", "points"), [("classic", 8 + FOUR_WAY_BONUS[0]), ("seed", 8)])
def test_the_tile_just_placed_shows_its_points_and_a_4_way_says_so(rules: str, points: int
                                                                    ) -> None:
    """The points rise off the tile just placed, and off no other; a 4-way's come with
    its burst, and the status line tells what it earned (the classic rules' bonus and
    doubling)."""
    state = board(FOUR_WAY_AROUND, [tile(0, 0), tile(0, 1), tile(0, 3)], rules=rules)
    context = RenderContext(seat=0, can_move=True)
    assert gains(render(GAME.observe(state, 0), context)) == []
    four_way = GAME.apply(state, (5, 3))
    observation = GAME.observe(four_way, 0)
    assert gains(render(observation, context)) == [("ish-5-3", "ish-gain four-way", f"+{points}")]
    note = play_note(observation)
    assert note is not None and f"{points} points" in note
    assert ("double" in note) is (rules == "classic")
    after = GAME.apply(four_way, (3, 3))  # one neighbour: 1 point, 2 after a classic 4-way
    observation = GAME.observe(after, 0)
    single = 2 if rules == "classic" else 1
    assert gains(render(observation, context)) == [("ish-3-3", "ish-gain", f"+{single}")]
    assert play_note(observation) is None  # the platform's words: none in play


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_before_the_first_tile_the_status_line_gives_the_rules_chosen(rules: str) -> None:
    state = GAME.deal(GAME.validate({"rules": rules}), random.Random(4))
    assert play_note(GAME.observe(state, 0)) == FIRST_NOTES[rules]
    assert ("mix colour and bird" in FIRST_NOTES[rules]) is (rules == "classic")  # the pairing


def test_a_later_4_way_says_by_how_much_and_a_tile_worth_nothing_shows_no_gain() -> None:
    """The classic schedule doubles a tile's points at each 4-way: the note after the
    second says four times, not "double" again. A tile on the outer ring scores 0: no
    "+0" rises off it."""
    state = board(FOUR_WAY_AROUND, [tile(0, 0), tile(1, 1)], rules="classic", four_ways=1)
    observation = GAME.observe(GAME.apply(state, (5, 3)), 0)
    note = play_note(observation)
    assert note is not None and "4 times its base points" in note
    edge = board({(0, 3): tile(0, 0)}, [tile(0, 1), tile(0, 2)], rules="classic")
    observation = GAME.observe(GAME.apply(edge, (0, 4)), 0)
    assert observation["last"]["points"] == 0
    assert gains(render(observation, RenderContext(seat=0, can_move=True))) == []
