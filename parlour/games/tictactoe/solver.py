"""Tic-Tac-Toe solved: a table of every position's value, built once by a full search and
kept, its best moves, and the hint."""

from __future__ import annotations

from parlour.core import progress, tables
from parlour.core.game import Hint
from parlour.games.tictactoe.logic import MARKS, SIZE, START, Cell, TicTacToe, Turn, is_over, winner

RULES = TicTacToe()


def position_key(turn: Turn) -> str:
    """'X.O......X': the cells in reading order, then the player to move."""
    cells = "".join("." if owner is None else MARKS[owner] for owner in turn.owners)
    return cells + MARKS[turn.player]


def solve_every_position() -> dict[str, int]:
    """The value (see `value`) of every position reachable from the start, by key."""
    values: dict[str, int] = {}
    openings = RULES.legal_moves(START)
    for done, cell in enumerate(openings):
        progress.report(done / len(openings))
        _solve(RULES.apply(START, cell), values)
    _solve(START, values)
    return values


def _solve(turn: Turn, values: dict[str, int]) -> int:
    """Negamax: `turn`'s value, kept in `values` with those of the positions after it."""
    key = position_key(turn)
    if key not in values:
        found = winner(turn)
        empty = turn.owners.count(None)
        if found is not None:
            values[key] = (empty + 1) if found == turn.player else -(empty + 1)
        elif is_over(turn):
            values[key] = 0
        else:
            values[key] = max(-_solve(RULES.apply(turn, cell), values)
                              for cell in RULES.legal_moves(turn))
    return values[key]


VALUES = tables.Table(
    "tictactoe-values", version=1, build=solve_every_position, title="the Tic Tac Toe table"
)
"""5 478 positions: built once, then read from the user's data folder."""


def value(turn: Turn) -> int:
    """The result with best play for the player to move: +, 0 or -, larger when sooner.

    A win with k empty cells left is worth k + 1, so the search prefers quick wins and
    slow losses; every position's value is in the table `VALUES`.
    """
    return tables.get(VALUES)[position_key(turn)]


def best_moves(turn: Turn) -> list[Cell]:
    scored = {cell: -value(RULES.apply(turn, cell)) for cell in RULES.legal_moves(turn)}
    best = max(scored.values())
    return [cell for cell, score in scored.items() if score == best]


def hint(turn: Turn, seat: int) -> Hint | None:
    if is_over(turn) or turn.player != seat:
        return None
    outlook = -value(RULES.apply(turn, best_moves(turn)[0]))
    x, y = min(best_moves(turn), key=lambda cell: (cell != (SIZE // 2, SIZE // 2), cell))
    return Hint(move={"cell": [x, y]}, note=VERDICTS[(outlook > 0) - (outlook < 0)])


VERDICTS = {
    1: "Play here to win",
    0: "Play here to hold the draw: with best play on both sides, nobody wins",
    -1: "Every move loses against best play; this one holds out longest",
}
"""What a hint says, by what the best move leads to: a win, a draw or a loss."""
