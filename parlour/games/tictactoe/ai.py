"""Tic-Tac-Toe opponents: random, medium (wins and blocks), and perfect (plays the solver's
best moves, `solver.py`)."""

from __future__ import annotations

import random

from parlour.games.tictactoe.logic import Cell, TicTacToe, Turn, winner
from parlour.games.tictactoe.solver import best_moves

RULES = TicTacToe()


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
