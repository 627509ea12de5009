"""Tribolo's rules (SPEC §3 "Tribolo", rules 2-5) on hand-made boards, and the bitboard
move generator against an independent, deliberately simple one over random positions.

Boards are drawn as rows of letters (B, R, G, # wall, . empty) from the top left; rows and
columns left out are empty.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.tribolo.rules import (
    BLUE,
    CELLS,
    DEAL_CELLS,
    GREEN,
    HEIGHT,
    PLAYERS,
    RED,
    WIDTH,
    Board,
    board_from_rows,
    board_rows,
    captures,
    cell_at,
    cells,
    deal,
    legal_moves,
    next_to_move,
    play,
    scores,
    winners,
)
from parlour.games.tribolo.tests.boards import board


def at(*points: tuple[int, int]) -> int:
    return sum(1 << cell_at(x, y) for x, y in points)


def cell(x: int, y: int) -> int:
    return cell_at(x, y)


# -- rule 3: captures ---------------------------------------------------------------------

def test_a_run_of_one_opponent_closed_by_the_mover_is_captured() -> None:
    position = board(".RRB")
    assert captures(position, BLUE, cell(0, 0)) == at((1, 0), (2, 0))


def test_a_run_of_any_length_is_captured_whole() -> None:
    position = board("." + "R" * 14 + "B")
    assert captures(position, BLUE, cell(0, 0)) == at(*((x, 0) for x in range(1, 15)))


def test_a_run_closed_by_the_third_player_is_the_third_players_capture() -> None:
    position = board(".RRG")
    assert captures(position, BLUE, cell(0, 0)) == 0
    assert captures(position, GREEN, cell(0, 0)) == at((1, 0), (2, 0))
    assert not legal_moves(position, BLUE) & at((0, 0))
    with pytest.raises(ValueError) as refused:
        play(position, BLUE, cell(0, 0))
    assert str(refused.value) == ("Blue captures nothing at a1: no line of one other player's "
                                  "cells runs from it to one of Blue's")


def test_a_line_never_mixes_two_opponents() -> None:
    # R then G: the run of R is closed by G, whatever lies beyond (here Blue's cell).
    position = board(".RGB")
    assert captures(position, BLUE, cell(0, 0)) == 0
    assert captures(position, GREEN, cell(0, 0)) == at((1, 0))
    longer = board(".RRGGB")
    assert captures(longer, BLUE, cell(0, 0)) == 0
    assert captures(longer, GREEN, cell(0, 0)) == at((1, 0), (2, 0))


def test_the_movers_own_cell_first_is_no_capture_for_the_mover() -> None:
    # Blue's own run closed by Red is Red's capture of Blue's cells.
    position = board(".BBRB")
    assert captures(position, BLUE, cell(0, 0)) == 0
    assert captures(position, RED, cell(0, 0)) == at((1, 0), (2, 0))


def test_a_wall_ends_a_line_without_capture() -> None:
    assert captures(board(".RR#B"), BLUE, cell(0, 0)) == 0
    assert captures(board(".#RB"), BLUE, cell(0, 0)) == 0


def test_an_empty_cell_ends_a_line_without_capture() -> None:
    assert captures(board(".R.B"), BLUE, cell(0, 0)) == 0
    assert captures(board("..RB"), BLUE, cell(0, 0)) == 0


def test_the_edge_ends_a_line_without_capture() -> None:
    assert captures(board("." * (WIDTH - 4) + ".RRR"), BLUE, cell(WIDTH - 4, 0)) == 0
    assert captures(board("R", "R", "."), BLUE, cell(0, 2)) == 0


# Lines that would close if a step off one side of the board came back on the other side
# (cell indexes run on from the end of one row to the start of the next).
WRAPPING_LINES = {
    "east": (["." * 15 + "R", "B"], (14, 0)),
    "west": (["." * 15 + "B", "R"], (1, 1)),
    "south-east": (["", "." * 15 + "R", "", "B"], (14, 0)),
    "south-west": (["", "R" + "." * 14 + "B"], (1, 0)),
    "north-east": (["", ".B", "R" + "." * 15], (15, 2)),
    "north-west": (["." * 14 + "B", "." * 15 + "R", "", "."], (0, 3)),
}


@pytest.mark.parametrize("direction", WRAPPING_LINES)
def test_lines_do_not_wrap_around_the_sides_of_the_board(direction: str) -> None:
    rows, (x, y) = WRAPPING_LINES[direction]
    position = board(*rows)
    assert captures(position, BLUE, cell(x, y)) == 0
    assert legal_moves(position, BLUE) == 0


def test_every_direction_captures() -> None:
    # Blue plays the middle of a star of Red runs, each closed by Blue.
    position = board(
        "B..B..B",
        ".R.R.R.",
        "..RRR..",
        "BRR.RRB",
        "..RRR..",
        ".R.R.R.",
        "B..B..B",
    )
    taken = captures(position, BLUE, cell(3, 3))
    assert taken == position.owned[RED]
    after = play(position, BLUE, cell(3, 3))
    assert after.owned[RED] == 0
    assert scores(after) == (8 + 16 + 1, 0, 0)


def test_only_the_movers_captures_are_made_all_together() -> None:
    # From (3, 3): east R closed by B (Blue's), west R closed by G (Green's, ignored),
    # north G closed by B (Blue's), south B closed by R (Red's, ignored).
    position = board(
        "...B",
        "...G",
        "...G",
        "GRR.RB",
        "...B",
        "...R",
    )
    assert captures(position, BLUE, cell(3, 3)) == at((4, 3), (3, 2), (3, 1))
    after = play(position, BLUE, cell(3, 3))
    assert board_rows(after)[:6] == [
        "...B" + "." * 12,
        "...B" + "." * 12,
        "...B" + "." * 12,
        "GRRBBB" + "." * 10,
        "...B" + "." * 12,
        "...R" + "." * 12,
    ]
    assert captures(position, GREEN, cell(3, 3)) == at((1, 3), (2, 3))
    assert captures(position, RED, cell(3, 3)) == at((3, 4))


def test_a_move_needs_an_empty_cell() -> None:
    position = board("BRB#")
    assert captures(position, BLUE, cell(1, 0)) == 0
    with pytest.raises(ValueError, match="already taken"):
        play(position, BLUE, cell(1, 0))
    with pytest.raises(ValueError, match="wall"):
        play(position, BLUE, cell(3, 0))
    for off_board in (-1, CELLS):
        assert captures(position, BLUE, off_board) == 0
        with pytest.raises(ValueError, match="not on the board"):
            play(position, BLUE, off_board)


def test_legal_moves_are_the_cells_with_a_capture_of_ones_own() -> None:
    position = board(".RB.")
    assert legal_moves(position, BLUE) == at((0, 0))
    assert legal_moves(position, RED) == at((3, 0))  # Blue's cell closed by Red
    assert legal_moves(position, GREEN) == 0


def test_a_run_of_several_cells_is_closed_in_each_of_the_eight_directions() -> None:
    position = board("................",
                     "................",
                     "..R.R.R.........",
                     "...RRR..........",
                     "..RRBRR.........",
                     "...RRR..........",
                     "..R.R.R.........")
    assert legal_moves(position, BLUE) == at((1, 1), (4, 1), (7, 1), (1, 4), (7, 4),
                                             (1, 7), (4, 7), (7, 7))


def test_playing_keeps_every_cell_with_exactly_one_owner() -> None:
    position, player = deal(random.Random(7))
    move = next(cells(legal_moves(position, player)))
    after = play(position, player, move)
    assert sum(scores(after)) == sum(scores(position)) + 1
    assert after.walls == position.walls
    owners = (*after.owned, after.walls, after.empty)
    assert sum(bits.bit_count() for bits in owners) == CELLS
    assert after.owned[player] & (1 << move)


# -- rule 5: passes and the end -----------------------------------------------------------

def test_the_next_player_moves_when_they_can() -> None:
    position = board(".RB", ".BR", "GB.")
    assert next_to_move(position, BLUE) == RED


def test_a_player_without_a_move_passes() -> None:
    # Red has no move anywhere; Green has one: after Blue comes Green.
    position = board(".GB", "....", "R#")
    assert not legal_moves(position, RED) and legal_moves(position, GREEN)
    assert next_to_move(position, BLUE) == GREEN


def test_the_mover_plays_again_when_both_others_must_pass() -> None:
    position = board(".RB#", "#", "G#")
    assert legal_moves(position, BLUE)
    assert not legal_moves(position, RED) and not legal_moves(position, GREEN)
    assert next_to_move(position, BLUE) == BLUE
    assert next_to_move(position, GREEN) == BLUE


def test_the_game_ends_when_nobody_can_move() -> None:
    position = board("B#R#G")
    assert next_to_move(position, BLUE) is None
    finished = play(board(".RB"), BLUE, cell(0, 0))
    assert next_to_move(finished, BLUE) is None
    assert winners(finished) == (BLUE,)


def test_most_cells_wins_and_equal_most_is_a_tie() -> None:
    assert winners(board("BBRG")) == (BLUE,)
    assert winners(board("BBRRG")) == (BLUE, RED)
    assert winners(board("BRG")) == (BLUE, RED, GREEN)
    assert winners(board("GG.R")) == (GREEN,)


# -- rule 2: the deal ---------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_the_deal_gives_twelve_cells_each_and_twelve_walls(seed: int) -> None:
    position, first = deal(random.Random(seed))
    assert scores(position) == (DEAL_CELLS,) * 3
    assert position.walls.bit_count() == DEAL_CELLS
    every = [*position.owned, position.walls]
    assert sum(every).bit_count() == 4 * DEAL_CELLS  # disjoint: no carries
    assert position.empty.bit_count() == CELLS - 4 * DEAL_CELLS
    assert legal_moves(position, first)


def test_the_deal_is_seeded() -> None:
    assert deal(random.Random(3)) == deal(random.Random(3))
    boards = {deal(random.Random(seed))[0] for seed in range(50)}
    assert len(boards) == 50


def test_each_player_moves_first_in_some_deals() -> None:
    firsts = [deal(random.Random(seed))[1] for seed in range(60)]
    assert set(firsts) == set(PLAYERS)


def test_rows_round_trip() -> None:
    position, _ = deal(random.Random(11))
    assert board_from_rows(board_rows(position)) == position
    with pytest.raises(ValueError):
        board_from_rows(["." * WIDTH] * (HEIGHT - 1))
    with pytest.raises(ValueError):
        board_from_rows(["x" + "." * (WIDTH - 1)] + ["." * WIDTH] * (HEIGHT - 1))


# -- an independent move generator --------------------------------------------------------

Grid = list[list[str]]
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def simple_captures(grid: Grid, player: str, x: int, y: int) -> set[tuple[int, int]]:
    """Rule 3 read literally, one direction at a time over a grid of letters."""
    if grid[y][x] != ".":
        return set()
    taken: set[tuple[int, int]] = set()
    for dx, dy in DIRECTIONS:
        line: list[tuple[int, int]] = []
        owner = None
        cx, cy = x + dx, y + dy
        while 0 <= cx < WIDTH and 0 <= cy < HEIGHT and grid[cy][cx] in "BRG":
            if owner is None:
                owner = grid[cy][cx]
            elif grid[cy][cx] != owner:
                if grid[cy][cx] == player:
                    taken.update(line)
                break
            line.append((cx, cy))
            cx, cy = cx + dx, cy + dy
    return taken


def check_against_simple_generator(position: Board) -> None:
    grid = [list(row) for row in board_rows(position)]
    for player, letter in zip(PLAYERS, "BRG", strict=True):
        expected_moves = set()
        for y in range(HEIGHT):
            for x in range(WIDTH):
                expected = simple_captures(grid, letter, x, y)
                assert captures(position, player, cell(x, y)) == at(*expected), (x, y, letter)
                if expected:
                    expected_moves.add((x, y))
        assert legal_moves(position, player) == at(*expected_moves)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from("BRG#...."), min_size=CELLS, max_size=CELLS),
       st.sampled_from(["BRG#.", "BR.", "BRRRRGGGG.", "B.......", "BRG"]))
def test_the_move_generator_agrees_with_a_simple_one_on_random_boards(
        letters: list[str], alphabet: str) -> None:
    # The second draw thins the board out to another mix, from dense to sparse.
    chosen = [letter if letter in alphabet else "." for letter in letters]
    rows = ["".join(chosen[y * WIDTH:(y + 1) * WIDTH]) for y in range(HEIGHT)]
    check_against_simple_generator(board_from_rows(rows))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 8))
def test_the_move_generator_agrees_with_a_simple_one_along_random_games(
        seed: int, stride: int) -> None:
    """Every `stride`-th position of a random game to its end (thousands over the run)."""
    rng = random.Random(seed)
    position, player = deal(rng)
    mover: int | None = player
    plies = 0
    while mover is not None:
        if plies % stride == 0:
            check_against_simple_generator(position)
        moves = list(cells(legal_moves(position, mover)))
        position = play(position, mover, rng.choice(moves))
        mover = next_to_move(position, mover)
        plies += 1
    check_against_simple_generator(position)
    assert sum(scores(position)) + position.walls.bit_count() + position.empty.bit_count() \
        == CELLS



def test_a_cell_already_taken_captures_nothing() -> None:
    position = board("RRRB")  # from the first cell a line of Red ends on Blue
    assert captures(position, BLUE, cell(0, 0)) == 0


@pytest.mark.parametrize(("where", "reason"), [
    (CELLS, "that cell is not on the board"),
    (cell(4, 0), "that cell is a wall"),
    (cell(0, 0), "that cell is already taken"),
])
def test_a_refused_play_says_why_for_a_player(where: int, reason: str) -> None:
    with pytest.raises(ValueError) as refused:
        play(board("BRR.#"), BLUE, where)
    assert str(refused.value) == reason


@pytest.mark.parametrize(("rows", "reason"), [
    (["." * WIDTH] * (HEIGHT - 1), f"a board is {HEIGHT} rows of {WIDTH} cells"),
    (["...x".ljust(WIDTH, ".")] + ["." * WIDTH] * (HEIGHT - 1), "unknown cell 'x' at (3, 0)"),
])
def test_a_board_that_is_not_one_says_why(rows: list[str], reason: str) -> None:
    with pytest.raises(ValueError) as refused:
        board_from_rows(rows)
    assert str(refused.value) == reason


def test_a_player_may_capture_either_opponent_in_any_direction() -> None:
    position = board(".RB", "", "...GB")
    assert legal_moves(position, BLUE) == at((0, 0), (2, 2))


def test_a_drawn_first_player_who_cannot_move_hands_the_first_turn_on() -> None:
    # seed 1057 draws Red first, on a board where Red has no capture: Green starts
    position, first = deal(random.Random(1057))
    assert legal_moves(position, RED) == 0
    assert first == GREEN
