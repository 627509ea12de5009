"""Tribolo's search: the paranoid alpha-beta that the Medium and Strong computers (`ai.py`)
play by and the hint asks, with the cell weights it values cells by.

Cell weights are the original's (QuentinDuval/triboard, `src/cljs/triboard/ai/scores.cljs`,
which its computer player, Easy here, uses too): each cell weighs 1 + n²/4, n being its
neighbours that are walls or off the board (cells against walls are harder to take back).

Medium and Strong search with the paranoid assumption (Sturtevant and Korf, 2000): the
player to move maximises its evaluation and both others minimise it, which makes the
three-player tree a two-sided one where alpha-beta pruning works. Passes follow rule 5, so a
level of the tree is a move, whoever makes it. A position is worth the root's weighted
cells minus the mean of the others' (the weights above), and an ended game its result
(win, tie or loss, then the margin). The search deepens one ply at a time (iterative
deepening) and orders moves by the best move found for the position at the previous depth
(a transposition table), then by their evaluation. It runs compiled (kernel.py, whose
tests check it against rules.py and a plain minimax): a position costs about 2-3 µs
there against about 95 µs in Python.

Budget: a number of positions expanded, not a time. A time budget would make the move
depend on the machine and its load, so the same game id and moves would not replay the
same game and tests could not expect a move; a position budget gives the same move
everywhere. When it runs out in the middle of a depth, the best move found so far at that
depth is kept (its first move is the previous depth's best, so it is never worse informed
than the previous depth).
- Strong: 50 000 positions, as deep as they reach (about 8 plies in the middle game, and
  endings read to the last move from about 10 empty cells on). Chosen to keep Strong's
  CPU time per move at p95 <= 250 ms on the 2-core development machine with a margin
  for the spread between games (dozen-game samples: 70 000 positions reached 267 ms),
  so its wall time stays well under the spec's second even when the machine is busy.
  bench/tribolo_ai.py, 600 games per match-up: 96 ms CPU median, 165 ms p95, 351 ms max
  (wall 265 ms p95 on a busy machine); wins 80.5 % (77.1-83.5 %) against two Easy.
- Medium: 2 000 positions (25 times fewer) and at most 3 plies, one round of moves:
  under a millisecond per move; wins 40.7 % (36.8-44.6 %) against two Easy, and 12.5 %
  against Strong and Easy (Strong 77.8 %).
"""

from __future__ import annotations

import random
from functools import lru_cache

from parlour.core.game import Hint, counted
from parlour.games.tribolo import kernel
from parlour.games.tribolo.logic import Position
from parlour.games.tribolo.rules import (
    CELLS,
    HEIGHT,
    WIDTH,
    Board,
    captures,
    cell_name,
    cells,
    deal,
    legal_moves,
    position,
)

# -- cell weights (the original's) ---------------------------------------------------------

WeightClasses = tuple[tuple[float, int], ...]  # (weight, bitset of the cells with it)


@lru_cache(maxsize=64)
def weight_classes(walls: int) -> WeightClasses:
    """Cells grouped by weight 1 + n²/4, n = neighbours that are walls or off the board."""
    by_count: dict[int, int] = {}
    for cell in range(CELLS):
        x, y = position(cell)
        blocked = sum(
            1 for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
            and (not (0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT)
                 or walls >> ((y + dy) * WIDTH + x + dx) & 1))
        by_count[blocked] = by_count.get(blocked, 0) | (1 << cell)
    return tuple((1 + count * count / 4, bits) for count, bits in sorted(by_count.items()))


def weight(classes: WeightClasses, bits: int) -> float:
    total = 0.0
    for value, members in classes:
        total += value * (bits & members).bit_count()
    return total


# -- the paranoid alpha-beta (run by kernel.py) --------------------------------------------

@lru_cache(maxsize=64)
def cell_weights(walls: int) -> tuple[float, ...]:
    """The weight of each cell by index."""
    classes = weight_classes(walls)
    return tuple(weight(classes, 1 << cell) for cell in range(CELLS))


def search(board: Board, player: int, rng: random.Random, budget: int,
           max_depth: int) -> kernel.Found:
    """The paranoid best move for `player` by iterative deepening within `budget` positions
    expanded and `max_depth` plies (module docstring); the rng orders equal moves."""
    moves = list(cells(legal_moves(board, player)))
    if not moves:
        raise ValueError("the player to move has no legal move")
    rng.shuffle(moves)  # ties between equal moves go different ways in different games
    if len(moves) == 1:
        return kernel.Found(moves[0], 0, 0, 0)
    return kernel.search(board, player, moves, cell_weights(board.walls), budget, max_depth)


MEDIUM_BUDGET, MEDIUM_DEPTH = 2_000, 3
STRONG_BUDGET, STRONG_DEPTH = 50_000, 40  # 40: deeper than any game's remaining moves


def warm_up() -> None:
    """Load the compiled search (or compile it, the first time: seconds) in a worker
    before its first move, so that the move's time budget is the search's alone."""
    board, player = deal(random.Random(0))
    search(board, player, random.Random(0), MEDIUM_BUDGET, MEDIUM_DEPTH)


def hint_cell(board: Board, player: int) -> int:
    """Strong's move for `player`, the same every time for the same position."""
    seed = f"tribolo-hint/{board.owned}/{board.walls}/{player}"
    return search(board, player, random.Random(seed), STRONG_BUDGET, STRONG_DEPTH).cell


def hint(state: Position, seat: int) -> Hint | None:
    """The strong computer's move for `seat`, when it is that seat's turn."""
    if state.player != seat:
        return None
    cell = hint_cell(state.board, seat)
    turned = captures(state.board, seat, cell).bit_count()
    x, y = position(cell)
    return Hint(move={"cell": [x, y]},
                note=f"play {cell_name(x, y)}, turning {counted(turned, 'cell')} "
                     "(the strong computer's move)")
