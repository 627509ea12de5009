"""Tribolo's computer players: Easy (the original's), Medium and Strong (a search), and the hint.

Every level is a plain function `(board, player, rng) -> cell` for the player to move, so it
runs in a worker process and is reproducible: the rng only breaks ties.

Easy is the computer player of the original (QuentinDuval/triboard, `src/cljs/triboard/ai/
ai.cljs`, the `best-move` with `worst-immediate-loss`, and its cell weights in
`src/cljs/triboard/ai/scores.cljs`): each cell weighs 1 + n²/4, n being its neighbours that
are walls or off the board (cells against walls are harder to take back); a move is worth
the weight it gains (the cell played and the cells turned) minus the most weight of the
mover's cells that either other player could turn on their next move. The original takes
the first best move in its own order of cells; here ties are broken by the rng.

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
from collections.abc import Callable
from functools import lru_cache

from parlour.games.tribolo import kernel
from parlour.games.tribolo.rules import (
    CELLS,
    HEIGHT,
    WIDTH,
    Board,
    apply_capture,
    captures,
    cells,
    deal,
    legal_moves,
    others,
    position,
)

Level = Callable[[Board, int, random.Random], int]

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


# -- Easy: the original's computer player --------------------------------------------------

def easy(board: Board, player: int, rng: random.Random) -> int:
    """The original's greedy player: the gain of a move minus the worst loss just after it."""
    classes = weight_classes(board.walls)
    best: list[int] = []
    best_value = float("-inf")
    for cell in cells(legal_moves(board, player)):
        taken = captures(board, player, cell)
        after = apply_capture(board, player, cell, taken)
        value = weight(classes, taken | (1 << cell)) - worst_loss(after, player, classes)
        if value > best_value:
            best, best_value = [cell], value
        elif value == best_value:
            best.append(cell)
    return rng.choice(best)


def worst_loss(board: Board, player: int, classes: WeightClasses) -> float:
    """The most weight of `player`'s cells either other player could turn with one move."""
    mine = board.owned[player]
    return max((weight(classes, captures(board, other, cell) & mine)
                for other in others(player) for cell in cells(legal_moves(board, other))),
               default=0.0)


# -- Medium and Strong: paranoid alpha-beta (run by kernel.py) ----------------------------

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


def medium(board: Board, player: int, rng: random.Random) -> int:
    """A short paranoid search: one round (three plies), at most 2 000 positions."""
    return search(board, player, rng, MEDIUM_BUDGET, MEDIUM_DEPTH).cell


def strong(board: Board, player: int, rng: random.Random) -> int:
    """A deep paranoid search: 50 000 positions, as deep as they reach."""
    return search(board, player, rng, STRONG_BUDGET, STRONG_DEPTH).cell


LEVELS: dict[str, Level] = {"easy": easy, "medium": medium, "strong": strong}


def warm_up() -> None:
    """Load the compiled search (or compile it, the first time: seconds) in a worker
    before its first move, so that the move's time budget is the search's alone."""
    board, player = deal(random.Random(0))
    medium(board, player, random.Random(0))


def hint(board: Board, player: int) -> int:
    """Strong's move for `player`, the same every time for the same position."""
    seed = f"tribolo-hint/{board.owned}/{board.walls}/{player}"
    return strong(board, player, random.Random(seed))
