"""The Ishido solver: legal moves, the information it uses, its fast rules, its choices."""

from __future__ import annotations

import dataclasses
import random

import pytest

from parlour.core.game import Status
from parlour.games.ishido import solver
from parlour.games.ishido.logic import (
    COLS,
    ROWS,
    TILES,
    Board,
    Ishido,
    fits,
    valid_cells,
)

GAME = Ishido()
RULES = ("seed", "classic")


def tile(text: str) -> int:
    """`a1` .. `f6`: colour letter, glyph digit (as `Ishido.text` writes them)."""
    return "abcdef".index(text[0]) * 6 + int(text[1]) - 1


def board(picture: str, next_tile: str, rules: str) -> Board:
    """A board from a picture of 8 rows of 12 cells (`..` empty); the pouch holds the
    next tile and then every other tile not on the board, in an arbitrary order."""
    grid = [line.split() for line in picture.split("\n") if line.strip()]
    assert len(grid) == ROWS and all(len(row) == COLS for row in grid)
    cells = tuple(None if text == ".." else tile(text) for row in grid for text in row)
    rest = [t for t in range(36) for _ in range(2)]
    for placed in [*(t for t in cells if t is not None), tile(next_tile)]:
        rest.remove(placed)
    return Board(rules, cells, (tile(next_tile), *rest))


def dealt(rules: str, seed: int, moves: int) -> Board:
    """A deal after `moves` random legal placements (or fewer, if it ends)."""
    rng = random.Random(seed)
    state = GAME.deal(GAME.validate({"rules": rules}), rng)
    for _ in range(moves):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        state = GAME.apply(state, rng.choice(list(legal)))
    return state


# -- the fast rules agree with logic.py ----------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_fast_fit_agrees_with_the_rules_on_random_boards(rules: str) -> None:
    rng = random.Random(rules)
    for _ in range(60):
        density = rng.random()
        cells = [rng.randrange(36) if rng.random() < density else None for _ in range(96)]
        for cell in range(96):
            for kind in range(36):
                assert solver.fast_fits(cells, cell, kind, rules) == fits(cells, cell, kind, rules)


@pytest.mark.parametrize("rules", RULES)
def test_position_tracks_the_places_of_every_kind_through_place_and_undo(rules: str) -> None:
    for seed in range(4):
        state = dealt(rules, seed, 0)
        pos = solver.Position(state.cells, rules)
        start = (list(pos.masks), list(pos.count), set(pos.front), list(pos.near))
        rng = random.Random(seed)
        while state.next_tile is not None and valid_cells(state):
            for kind in range(36):
                expected = sorted(valid_cells(state, kind))
                assert pos.cells_for(kind) == expected
                assert pos.places(kind) == len(expected)
            col, row = rng.choice(list(GAME.legal_moves(state)))
            pos.place(row * COLS + col, state.next_tile)
            state = GAME.apply(state, (col, row))
        while pos._undo:
            pos.undo()
        assert (pos.masks, pos.count, pos.front, pos.near) == start


# -- legal moves, and None when there is none ----------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_the_solver_plays_a_whole_game_with_legal_moves(rules: str) -> None:
    state = GAME.deal(GAME.validate({"rules": rules}), random.Random(0))
    while GAME.status(state) is Status.PLAYING:
        move = solver.best_move(state)
        assert move in GAME.legal_moves(state)
        state = GAME.apply(state, move)
    assert solver.best_move(state) is None
    assert solver.hint(state, 0) is None


@pytest.mark.parametrize("rules", RULES)
def test_best_move_is_legal_in_random_positions(rules: str) -> None:
    for seed in range(12):
        state = dealt(rules, 100 + seed, random.Random(seed).randrange(60))
        move = solver.best_move(state)
        if GAME.status(state) is Status.PLAYING:
            assert move in GAME.legal_moves(state)
        else:
            assert move is None


EMPTY_BOARD = "\n".join(" ".join([".."] * COLS) for _ in range(ROWS))


def test_no_move_when_the_next_tile_fits_nowhere() -> None:
    rows = EMPTY_BOARD.split("\n")
    rows[3] = ".. .. .. .. .. a1 .. .. .. .. .. .."
    for rules in RULES:
        state = board("\n".join(rows), "b2", rules)  # shares neither colour nor glyph
        assert GAME.status(state) is Status.LOST
        assert solver.best_move(state) is None
        assert solver.hint(state, 0) is None


def test_no_move_when_the_pouch_is_empty() -> None:
    state = dealt("seed", 1, 0)
    done = dataclasses.replace(state, pouch=())
    assert solver.best_move(done) is None


# -- what the solver may know ----------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_the_order_of_the_pouch_after_the_next_tile_is_not_used(rules: str) -> None:
    for seed in range(8):
        state = dealt(rules, 200 + seed, 10 + 5 * seed)
        if GAME.status(state) is not Status.PLAYING:
            continue
        move = solver.best_move(state)
        note = solver.hint(state, 0)
        rng = random.Random(seed)
        for _ in range(3):
            rest = list(state.pouch[1:])
            rng.shuffle(rest)
            shuffled = dataclasses.replace(state, pouch=(state.pouch[0], *rest))
            assert shuffled.pouch != state.pouch or len(rest) < 2
            assert solver.best_move(shuffled) == move
            assert solver.hint(shuffled, 0) == note


def test_what_is_left_is_counted_from_the_board() -> None:
    state = dealt("classic", 3, 20)
    left = solver.remaining_after_next(state)
    assert sum(left) == len(state.pouch) - 1
    for kind in range(36):
        assert left[kind] == state.pouch[1:].count(kind)


# -- choices ---------------------------------------------------------------------------------

FOUR_WAY = """
b2 .. .. .. .. .. .. .. .. .. .. c3
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. a2 .. .. ..
.. .. .. .. .. .. .. b1 .. c1 .. ..
.. .. .. f6 .. .. .. .. a3 .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
d4 .. .. .. .. .. .. .. .. .. .. e5
"""


def test_classic_takes_a_four_way_over_a_one_neighbour_place() -> None:
    # a1 at [8, 3]: a2 and a3 match it by colour, b1 and c1 by glyph, the 1990 pairing.
    # Everywhere else it has one neighbour (two between the arms). Either way every
    # kind to come keeps places around the cross, and one a1 is still to come, which
    # could fill the 4-way later: taking it now is certain, and scores.
    state = board(FOUR_WAY, "a1", "classic")
    assert valid_cells(state)[8 + 3 * COLS] == 4
    assert sorted(valid_cells(state).values()) == [1] * 4 + [2] * 4 + [4]
    assert solver.best_move(state) == (8, 3)
    found = solver.hint(state, 0)
    assert found is not None
    assert found.move == {"place": [8, 3]}
    assert found.note == "Place it here for a 4-way, worth 33 points"  # 8 + a bonus of 25


STRANDING = """
.. f1 b1 .. .. .. .. .. .. .. .. ..
a6 a1 .. .. .. .. .. .. .. .. .. ..
a2 .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
"""


@pytest.mark.parametrize("rules", RULES)
def test_keeps_the_only_place_of_the_tiles_to_come(rules: str) -> None:
    # The corner [0, 0] is the only place for f6, both copies still to come. The next
    # tile, a1, fits there too (2 neighbours, as many as anywhere), but would close it
    # for good.
    state = board(STRANDING, "a1", rules)
    f6 = tile("f6")
    assert list(valid_cells(state, f6)) == [0]
    assert 0 in valid_cells(state)
    after = GAME.apply(state, (0, 0))
    assert not valid_cells(after, f6)
    move = solver.best_move(state)
    assert move is not None and move != (0, 0)
    assert move in GAME.legal_moves(state)


@pytest.mark.parametrize("rules", RULES)
def test_hint_is_legal_and_says_why(rules: str) -> None:
    for seed in range(6):
        state = dealt(rules, 300 + seed, 8 * seed)
        found = solver.hint(state, 0)
        if GAME.status(state) is not Status.PLAYING:
            assert found is None
            continue
        assert found is not None
        move = GAME.parse_move(found.move)
        GAME.apply(state, move)  # raises if illegal
        assert found.note and len(found.note) < 80  # a line on a phone
        assert found.note.startswith(("Place it here", "Place the last tile here"))


def test_the_last_tile_takes_the_most_points() -> None:
    state = dealt("seed", 5, 0)
    while len(state.pouch) > 1 and GAME.status(state) is Status.PLAYING:
        move = solver.best_move(state)
        assert move is not None
        state = GAME.apply(state, move)
    if GAME.status(state) is Status.PLAYING:
        best = max(valid_cells(state).values())
        col, row = solver.best_move(state) or (-1, -1)
        assert valid_cells(state)[row * COLS + col] == best
        assert GAME.apply(state, (col, row)).placed == TILES
