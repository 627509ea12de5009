"""Tribolo's computer players: Easy (the original's), Medium and Strong (the search of
`solver.py` at two budgets).

Every level is a plain function `(board, player, rng) -> cell` for the player to move, so it
runs in a worker process and is reproducible: the rng only breaks ties.

Easy is the computer player of the original (QuentinDuval/triboard, `src/cljs/triboard/ai/
ai.cljs`, the `best-move` with `worst-immediate-loss`, and its cell weights in
`src/cljs/triboard/ai/scores.cljs`, `solver.weight_classes`): a move is worth the weight
it gains (the cell played and the cells turned) minus the most weight of the mover's cells
that either other player could turn on their next move. The original takes the first best
move in its own order of cells; here ties are broken by the rng.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from parlour.core.game import IllegalMove
from parlour.games.tribolo import rules
from parlour.games.tribolo.logic import Cell, Position
from parlour.games.tribolo.rules import (
    Board,
    apply_capture,
    captures,
    cells,
    legal_moves,
    others,
)
from parlour.games.tribolo.solver import (
    MEDIUM_BUDGET,
    MEDIUM_DEPTH,
    STRONG_BUDGET,
    STRONG_DEPTH,
    WeightClasses,
    search,
    weight,
    weight_classes,
)

Level = Callable[[Board, int, random.Random], int]

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


# -- Medium and Strong: the paranoid search ------------------------------------------------

def medium(board: Board, player: int, rng: random.Random) -> int:
    """A short paranoid search: one round (three plies), at most 2 000 positions."""
    return search(board, player, rng, MEDIUM_BUDGET, MEDIUM_DEPTH).cell


def strong(board: Board, player: int, rng: random.Random) -> int:
    """A deep paranoid search: 50 000 positions, as deep as they reach."""
    return search(board, player, rng, STRONG_BUDGET, STRONG_DEPTH).cell


LEVELS: dict[str, Level] = {"easy": easy, "medium": medium, "strong": strong}


def computer_move(level: str, state: Position, rng: random.Random) -> Cell:
    """The move of the computer at `level` for the seat to move."""
    if state.player is None:
        raise IllegalMove("the game is over")
    return rules.position(LEVELS[level](state.board, state.player, rng))
