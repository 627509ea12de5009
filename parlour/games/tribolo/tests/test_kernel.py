"""The compiled search engine (kernel.py) against rules.py, the rules the game plays by.

1. Its move generator: for every player, the same legal moves and the same captured cells
   as rules.py, over random boards (hypothesis) and the positions of random games.
2. Its search: with budget to spare, the value it gives the position equals a plain
   paranoid minimax written here on rules.py (no pruning, no table, no make/unmake), so
   the pruning, the move ordering, the incremental weights, passes (rule 5) and taking
   moves back are all checked against the definition of the search.
3. Whatever the budget and depth, it returns one of the legal moves given to it, within
   the budget.
"""

from __future__ import annotations

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.tribolo import kernel, solver
from parlour.games.tribolo.rules import (
    CELLS,
    HEIGHT,
    PLAYERS,
    WIDTH,
    Board,
    board_from_rows,
    captures,
    cells,
    deal,
    legal_moves,
    next_to_move,
    others,
    play,
)


@cache
def random_game(seed: int) -> tuple[tuple[Board, int], ...]:
    """Every position of a game between random players, with the player to move."""
    rng = random.Random(seed)
    position, first = deal(rng)
    seen: list[tuple[Board, int]] = []
    player: int | None = first
    while player is not None:
        seen.append((position, player))
        position = play(position, player, rng.choice(list(cells(legal_moves(position,
                                                                              player)))))
        player = next_to_move(position, player)
    seen.append((position, first))  # the end: nobody can move
    return tuple(seen)


# -- 1. the move generator ----------------------------------------------------------------

def assert_same_moves(position: Board) -> None:
    for player in PLAYERS:
        expected = {cell: captures(position, player, cell)
                    for cell in cells(legal_moves(position, player))}
        assert kernel.moves_with_captures(position, player) == expected, player


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from("BRG#...."), min_size=CELLS, max_size=CELLS),
       st.sampled_from(["BRG#.", "BR.", "BRRRRGGGG.", "B.......", "BRG", "BRG#"]))
def test_moves_and_captures_agree_with_the_rules_on_random_boards(
        letters: list[str], alphabet: str) -> None:
    # The second draw thins the board out to another mix, from dense to sparse.
    chosen = [letter if letter in alphabet else "." for letter in letters]
    rows = ["".join(chosen[y * WIDTH:(y + 1) * WIDTH]) for y in range(HEIGHT)]
    assert_same_moves(board_from_rows(rows))


def test_moves_and_captures_agree_with_the_rules_along_random_games() -> None:
    """Every position of 40 random games: thousands, from the deal to the end."""
    checked = 0
    for seed in range(40):
        for position, _ in random_game(seed):
            assert_same_moves(position)
            checked += 1
    assert checked > 4000


def test_lines_stop_at_the_edges() -> None:
    # A run along the top row towards the right edge, and down the last column: nothing
    # closes them, so nothing is taken (the padding frame must read as a wall).
    rows = ["." * 13 + "RRR", "." * 15 + "R", "." * 15 + "R", "." * 15 + "R"]
    position = board_from_rows(rows + ["." * WIDTH] * (HEIGHT - len(rows)))
    assert kernel.moves_with_captures(position, 0) == {}


# -- 2. the search's value ----------------------------------------------------------------

def weighted(position: Board, player: int) -> int:
    weights = solver.cell_weights(position.walls)
    return sum(round(4 * weights[cell]) for cell in cells(position.owned[player]))


def evaluation(position: Board, root: int) -> int:
    first, second = others(root)
    return (2 * weighted(position, root) - weighted(position, first)
            - weighted(position, second))


def final(position: Board, root: int) -> int:
    counts = [bits.bit_count() for bits in position.owned]
    mine, rivals = counts[root], max(counts[other] for other in others(root))
    outcome = kernel.WIN if mine > rivals else kernel.WIN // 2 if mine == rivals \
        else -kernel.WIN
    return outcome + mine - rivals


def minimax(position: Board, root: int, previous: int, depth: int) -> int:
    """The paranoid value of `position` after `previous` moved, `depth` plies deep: the
    root maximises, the others minimise; an ended game scores its result. One ply from
    the horizon a move is scored by the evaluation after it, unless few cells are empty
    (then the game's end is looked for after it, as at any other ply)."""
    mover = next_to_move(position, previous)
    if mover is None:
        return final(position, root)
    if depth == 0:
        return evaluation(position, root)
    values = []
    for cell in cells(legal_moves(position, mover)):
        after = play(position, mover, cell)
        if depth == 1 and position.empty.bit_count() > kernel.ENDGAME_EMPTY:
            values.append(evaluation(after, root))
        else:
            values.append(minimax(after, root, mover, depth - 1))
    return max(values) if mover == root else min(values)


def root_value(position: Board, root: int, depth: int) -> int:
    return max(minimax(play(position, root, cell), root, root, depth - 1)
               for cell in cells(legal_moves(position, root)))


def searched(position: Board, player: int, depth: int,
             budget: int = 10**9) -> kernel.Found:
    moves = list(cells(legal_moves(position, player)))
    return kernel.search(position, player, moves, solver.cell_weights(position.walls), budget,
                         depth)


def depth_for(position: Board) -> int:
    """As deep as the plain minimax can go in a moment here."""
    empty = position.empty.bit_count()
    return 6 if empty <= 9 else 5 if empty <= 13 else 4 if empty <= 20 else 3 \
        if empty <= 40 else 2


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.floats(0, 1))
def test_the_search_finds_the_paranoid_minimax_value(seed: int, stage: float) -> None:
    """Positions from anywhere in random games (half of them among the last 20 moves, where
    the search reaches past the root's next turn), at the depth the reference affords."""
    game = random_game(seed)[:-1]
    start = 0 if seed % 2 else max(0, len(game) - 20)
    position, player = game[start + int(stage * (len(game) - 1 - start))]
    depth = depth_for(position)
    found = searched(position, player, depth)
    assert found.depth == min(depth, position.empty.bit_count())  # no deeper than the end
    assert found.value == root_value(position, player, found.depth)
    assert minimax(play(position, player, found.cell), player, player,
                   found.depth - 1) == found.value


def test_the_search_sees_the_end_of_the_game_through_passes() -> None:
    # Only Blue can move: (12, 1) first wins; the bigger capture (7, 2) lets Red take 10
    # and win (as in test_ai.py). Red and Green pass, so Blue moves twice in a row.
    rows = [
        "################",
        "############.###",
        "#.BBBBB.GGGBR###",
        "############B###",
        "################",
    ]
    position = board_from_rows(rows + ["#" * WIDTH] * (HEIGHT - len(rows)))
    for depth in range(1, 6):
        found = searched(position, 0, depth)
        assert found.value == root_value(position, 0, depth)
    assert found.cell == 1 * WIDTH + 12 and found.value > kernel.WIN


# -- 3. always a legal move, within the budget ---------------------------------------------

@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.floats(0, 1), st.integers(1, 3000), st.integers(1, 12))
def test_the_search_plays_a_legal_move_within_its_budget(seed: int, stage: float,
                                                         budget: int, depth: int) -> None:
    game = random_game(seed)[:-1]
    position, player = game[int(stage * (len(game) - 1))]
    moves = list(cells(legal_moves(position, player)))
    random.Random(seed).shuffle(moves)
    found = kernel.search(position, player, moves, solver.cell_weights(position.walls),
                          budget, depth)
    assert found.cell in moves
    assert found.positions <= budget + 1
    assert found.depth <= depth
    if found.positions <= budget:  # the budget was enough: every depth was completed,
        # or it stopped because each line already reached the end of the game
        assert found.depth == depth or found.depth >= position.empty.bit_count()
