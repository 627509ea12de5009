"""Tribolo's computer players: legal, reproducible, greedy where it is obvious, Easy as the
original scores moves, Strong perfect in endings (by the paranoid value, read to the end)
and searching deeper than Medium.

Every level is deterministic for a given rng (Medium and Strong count positions, not time),
so the games below always play out the same: the assertions are about this code, not luck.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from parlour.games.tribolo import ai, kernel, solver
from parlour.games.tribolo.rules import (
    BLUE,
    GREEN,
    PLAYERS,
    RED,
    Board,
    captures,
    cell_at,
    cells,
    deal,
    legal_moves,
    next_to_move,
    play,
    winners,
)
from parlour.games.tribolo.tests.boards import board

LEVEL_NAMES = ("easy", "medium", "strong")


@cache
def positions_along_a_game(seed: int) -> tuple[tuple[Board, int], ...]:
    """Every position of a game between random players, with the player to move."""
    rng = random.Random(seed)
    position, mover = deal(rng)
    seen: list[tuple[Board, int]] = []
    player: int | None = mover
    while player is not None:
        seen.append((position, player))
        position = play(position, player, rng.choice(list(cells(legal_moves(position,
                                                                              player)))))
        player = next_to_move(position, player)
    return tuple(seen)


def sample_positions(seed: int, count: int) -> list[tuple[Board, int]]:
    """`count` positions spread from the opening to the last move."""
    game = positions_along_a_game(seed)
    return [game[i * (len(game) - 1) // (count - 1)] for i in range(count)]


def play_out(position: Board, player: int | None, seats: tuple[str, str, str],
             seed: int) -> Board:
    rng = random.Random(seed)
    while player is not None:
        position = play(position, player, ai.LEVELS[seats[player]](position, player, rng))
        player = next_to_move(position, player)
    return position


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_each_level_plays_a_legal_move(level: str) -> None:
    for position, player in sample_positions(seed=1, count=4):
        move = ai.LEVELS[level](position, player, random.Random(0))
        assert legal_moves(position, player) >> move & 1


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_each_level_is_reproducible_with_the_same_rng(level: str) -> None:
    position, player = sample_positions(seed=2, count=3)[1]
    moves = {ai.LEVELS[level](position, player, random.Random(5)) for _ in range(2)}
    assert len(moves) == 1


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_each_level_takes_a_huge_capture(level: str) -> None:
    position = board(
        "." + "R" * 13 + "B",
        "",
        ".RB",
        "",
        "..G.B",
    )
    assert ai.LEVELS[level](position, BLUE, random.Random(0)) == cell_at(0, 0)


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_each_level_prefers_a_win_to_a_bigger_capture_that_loses(level: str) -> None:
    # Blue may turn 3 Green cells at (7, 2) or 1 Red cell at (12, 1). After (7, 2), Blue's
    # row runs from (2, 2) to Red's (12, 2), and Red takes all 10 from (1, 2) and wins.
    # After (12, 1), Red has no cell left: Blue plays (7, 2) safely next and wins.
    position = board(
        "################",
        "############.###",
        "#.BBBBB.GGGBR###",
        "############B###",
        "################",
    )
    assert captures(position, BLUE, cell_at(7, 2)).bit_count() == 3
    assert captures(position, BLUE, cell_at(12, 1)).bit_count() == 1
    assert not legal_moves(position, RED) and not legal_moves(position, GREEN)
    move = ai.LEVELS[level](position, BLUE, random.Random(0))
    assert move == cell_at(12, 1)
    final = play_out(play(position, BLUE, move), next_to_move(position, BLUE),
                     ("easy", "easy", "easy"), seed=0)
    assert winners(final) == (BLUE,)
    greedy = play_out(play(position, BLUE, cell_at(7, 2)), RED, ("easy",) * 3, seed=0)
    assert winners(greedy) == (RED,)


def test_easy_weighs_cells_by_their_walls_as_the_original() -> None:
    # Cells against walls and the edge weigh 1 + n²/4 (n = such neighbours): a corner
    # (5 off the board) weighs 7.25, a cell in the open 1.
    classes = solver.weight_classes(board().walls)
    assert solver.weight(classes, 1 << cell_at(0, 0)) == 1 + 25 / 4
    assert solver.weight(classes, 1 << cell_at(5, 0)) == 1 + 9 / 4
    assert solver.weight(classes, 1 << cell_at(5, 5)) == 1
    walled = board("", "", "###", "#.#").walls  # (1, 3): 5 walls around
    assert solver.weight(solver.weight_classes(walled), 1 << cell_at(1, 3)) == 1 + 25 / 4


def test_easy_minds_the_worst_loss_just_after_its_move() -> None:
    # (2, 0) turns 2 Red cells, but then Green turns Blue's 5 from (6, 0); (0, 4) turns 1
    # Red cell, and the worst reply after it turns 1 Blue cell.
    position = board(
        "GB.RRB.",
        "",
        "",
        "",
        ".RB",
    )
    assert captures(position, BLUE, cell_at(2, 0)).bit_count() == 2
    assert captures(position, BLUE, cell_at(0, 4)).bit_count() == 1
    after = play(position, BLUE, cell_at(2, 0))
    assert captures(after, GREEN, cell_at(6, 0)).bit_count() == 5
    assert ai.easy(position, BLUE, random.Random(0)) == cell_at(0, 4)


def test_the_hint_is_strongs_move_and_always_the_same() -> None:
    position, player = sample_positions(seed=3, count=3)[2]  # the last move: quick
    first = solver.hint_cell(position, player)
    assert solver.hint_cell(position, player) == first
    assert first == ai.strong(position, player, random.Random(
        f"tribolo-hint/{position.owned}/{position.walls}/{player}"))
    assert legal_moves(position, player) >> first & 1


def exact_value(position: Board, player: int, move: int) -> int:
    """The paranoid value of `move` read to the end of the game (no budget, no depth limit:
    kernel.search is checked against a plain minimax in test_kernel.py)."""
    found = kernel.search(position, player, [move], solver.cell_weights(position.walls), 10**9,
                          position.empty.bit_count())
    assert found.depth == position.empty.bit_count()  # every line ran to the end
    return found.value


@pytest.mark.parametrize("seed", range(8))
def test_strong_plays_endings_perfectly_against_the_worst_case(seed: int) -> None:
    """With 10 empty cells left, Strong's budget reaches the end of the game: its move is
    one of the best by the paranoid value, and never worse than Easy's."""
    game = positions_along_a_game(20 + seed)
    position, player = next((position, player) for position, player in game
                            if position.empty.bit_count() <= 10)
    values = {cell: exact_value(position, player, cell)
              for cell in cells(legal_moves(position, player))}
    strong_move = ai.strong(position, player, random.Random(seed))
    easy_move = ai.easy(position, player, random.Random(seed))
    assert values[strong_move] == max(values.values())
    assert values[strong_move] >= values[easy_move]


def test_medium_searches_one_round_and_strong_further() -> None:
    position, player = sample_positions(seed=4, count=3)[1]  # the middle game
    medium = solver.search(position, player, random.Random(0), solver.MEDIUM_BUDGET,
                           solver.MEDIUM_DEPTH)
    strong = solver.search(position, player, random.Random(0), solver.STRONG_BUDGET,
                           solver.STRONG_DEPTH)
    assert medium.depth <= solver.MEDIUM_DEPTH < strong.depth
    assert (medium.positions <= solver.MEDIUM_BUDGET + 1
            and strong.positions <= solver.STRONG_BUDGET + 1)


def test_players_are_named_in_turn_order() -> None:
    assert (BLUE, RED, GREEN) == PLAYERS == (0, 1, 2)
