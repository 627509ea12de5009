"""Tic-Tac-Toe opponents: random, medium (wins and blocks), and perfect (full search)."""

from __future__ import annotations

import random
from functools import cache

from parlour.core.game import Hint
from parlour.games.tictactoe.logic import SIZE, Cell, TicTacToe, Turn, is_over, winner

RULES = TicTacToe()


@cache
def value(turn: Turn) -> int:
    """The result with best play for the player to move: +, 0 or -, larger when sooner.

    A win with k empty cells left is worth k + 1, so the search prefers quick wins and
    slow losses; there are only 5 478 positions, so everything is cached.
    """
    found = winner(turn)
    empty = turn.owners.count(None)
    if found is not None:
        return (empty + 1) if found == turn.player else -(empty + 1)
    if is_over(turn):
        return 0
    return max(-value(RULES.apply(turn, cell)) for cell in RULES.legal_moves(turn))


def best_moves(turn: Turn) -> list[Cell]:
    scored = {cell: -value(RULES.apply(turn, cell)) for cell in RULES.legal_moves(turn)}
    best = max(scored.values())
    return [cell for cell, score in scored.items() if score == best]


def perfect(turn: Turn, rng: random.Random) -> Cell:
    """Never loses; among equally good moves, picks at random so games vary."""
    return rng.choice(best_moves(turn))


def medium(turn: Turn, rng: random.Random) -> Cell:
    """Takes a win, blocks a loss, otherwise plays anywhere: beatable with a fork."""
    moves = list(RULES.legal_moves(turn))
    for cell in moves:
        if winner(RULES.apply(turn, cell)) == turn.player:
            return cell
    opponent_view = Turn(turn.owners, 1 - turn.player)
    threats = [c for c in moves if winner(RULES.apply(opponent_view, c)) == 1 - turn.player]
    return rng.choice(threats or moves)


def random_move(turn: Turn, rng: random.Random) -> Cell:
    return rng.choice(list(RULES.legal_moves(turn)))


LEVELS = {"random": random_move, "medium": medium, "perfect": perfect}


def hint(turn: Turn, seat: int) -> Hint | None:
    if is_over(turn) or turn.player != seat:
        return None
    outlook = -value(RULES.apply(turn, best_moves(turn)[0]))
    x, y = min(best_moves(turn), key=lambda cell: (cell != (SIZE // 2, SIZE // 2), cell))
    verdict = "wins" if outlook > 0 else "draws" if outlook == 0 else "delays the loss"
    return Hint(move={"cell": [x, y]}, note=f"Best play {verdict}")
