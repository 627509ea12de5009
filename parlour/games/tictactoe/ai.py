"""Tic-Tac-Toe opponents: random, medium (wins and blocks), hard (the solver's best moves
but for a slip now and then) and perfect (the solver's best moves, `solver.py`)."""

from __future__ import annotations

import random

from parlour.games.tictactoe.logic import Cell, TicTacToe, Turn, winner
from parlour.games.tictactoe.solver import best_moves, value

RULES = TicTacToe()


def perfect(turn: Turn, rng: random.Random) -> Cell:
    """Never loses. Among equally good moves, those that leave the other player the most
    replies worse than their best (that lose, or lose sooner, or only draw where a win
    was there: a corner opening, not an edge), at random so that games vary."""
    best = best_moves(turn)
    traps = {cell: _losing_replies(RULES.apply(turn, cell)) for cell in best}
    most = max(traps.values())
    return rng.choice([cell for cell in best if traps[cell] == most])


def _losing_replies(turn: Turn) -> int:
    """How many of the moves of the player to move in `turn` are worse than their best
    (by the solver's values, which weigh how soon a game ends)."""
    replies = list(RULES.legal_moves(turn))
    if not replies:
        return 0
    outcomes = [-value(RULES.apply(turn, reply)) for reply in replies]
    return sum(outcome < max(outcomes) for outcome in outcomes)


def medium(turn: Turn, rng: random.Random) -> Cell:
    """Takes a win, blocks a loss, otherwise plays anywhere: beatable with a fork."""
    moves = list(RULES.legal_moves(turn))
    for cell in moves:
        if winner(RULES.apply(turn, cell)) == turn.player:
            return cell
    opponent_view = Turn(turn.owners, 1 - turn.player)
    threats = [c for c in moves if winner(RULES.apply(opponent_view, c)) == 1 - turn.player]
    return rng.choice(threats or moves)


SLIPS = 4
"""Hard slips once in SLIPS quiet moves: it then plays any move, the best among them."""


def hard(turn: Turn, rng: random.Random) -> Cell:
    """Never misses a win or a block. Otherwise it plays a best move, but one time in
    SLIPS any move at all: a player who sets traps beats it about three games in ten as
    Cross and one in seven as Circle (`bench.tictactoe_levels`), where medium falls to
    any fork and perfect to nothing. (One `choice`, so that the bench can count it.)"""
    moves = list(RULES.legal_moves(turn))
    best = best_moves(turn)
    wins = [cell for cell in moves if winner(RULES.apply(turn, cell)) == turn.player]
    opponent_view = Turn(turn.owners, 1 - turn.player)
    threats = [c for c in moves if winner(RULES.apply(opponent_view, c)) == 1 - turn.player]
    if wins or threats:
        return rng.choice(wins or [cell for cell in threats if cell in best] or threats)
    # each best move weighs (SLIPS - 1) * len(moves), each move len(best): a slip 1 in SLIPS
    return rng.choice(best * ((SLIPS - 1) * len(moves)) + moves * len(best))


def random_move(turn: Turn, rng: random.Random) -> Cell:
    return rng.choice(list(RULES.legal_moves(turn)))


LEVELS = {"random": random_move, "medium": medium, "hard": hard, "perfect": perfect}
