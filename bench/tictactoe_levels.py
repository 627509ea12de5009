"""Tic Tac Toe's computer levels, measured exactly: how often each wins, draws and loses
against each other level, and against a player who plays the best replies to it.

Tic Tac Toe is small enough to count rather than sample. A level picks among its moves
with one `rng.choice` (or none): the moves it would choose among are read by handing it a
recording stand-in for the random generator, and each is taken as equally likely, as the
real generator takes them. So every figure below is an exact probability over all games:

1. Each level as Cross against each level as Circle: Cross wins, draws, Circle wins.
2. The best a player can do against each level: the chance to win when every move of the
   player is the one that most raises it (ties: the likeliest draw), as Cross and as
   Circle. This is how beatable a level is for a player who has learnt it.

Run from the repository root, in a couple of seconds:
    .venv/bin/python -m bench.tictactoe_levels
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

from bench.common import heading
from parlour.games.tictactoe.ai import LEVELS
from parlour.games.tictactoe.logic import CIRCLE, CROSS, START, Cell, TicTacToe, Turn, winner

RULES = TicTacToe()
Level = Callable[[Turn, random.Random], Cell]
Odds = tuple[float, float, float]  # Cross wins, draw, Circle wins
T = TypeVar("T")


class _Recorder(random.Random):
    """Answers a level's one `choice` with the first option, and keeps the options. Any
    other use of the generator (a second choice, a shuffle...) would make the figures
    wrong: it stops the count."""

    options: Sequence[Any] | None = None

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        if self.options is not None:
            raise RuntimeError("a level chose twice: its odds cannot be counted this way")
        self.options = [seq[index] for index in range(len(seq))]
        return seq[0]

    def random(self) -> float:  # what every other draw of random.Random comes from
        raise RuntimeError("a level drew otherwise than by one choice")

    def getrandbits(self, k: int) -> int:
        raise RuntimeError("a level drew otherwise than by one choice")


@functools.cache
def choices(level: str, turn: Turn) -> tuple[Cell, ...]:
    """The moves `level` picks among at `turn`, each equally likely."""
    recorder = _Recorder()
    picked = LEVELS[level](turn, recorder)
    return tuple(recorder.options) if recorder.options is not None else (picked,)


def end(turn: Turn) -> Odds | None:
    found = winner(turn)
    if found is not None:
        return (1.0, 0.0, 0.0) if found == CROSS else (0.0, 0.0, 1.0)
    return None if RULES.legal_moves(turn) else (0.0, 1.0, 0.0)


@functools.cache
def match(cross: str, circle: str, turn: Turn = START) -> Odds:
    """The exact odds of the game from `turn`, `cross` and `circle` playing on."""
    over = end(turn)
    if over is not None:
        return over
    level = cross if turn.player == CROSS else circle
    options = choices(level, turn)
    odds = [match(cross, circle, RULES.apply(turn, cell)) for cell in options]
    return (sum(o[0] for o in odds) / len(options), sum(o[1] for o in odds) / len(options),
            sum(o[2] for o in odds) / len(options))


@functools.cache
def best_reply(level: str, player: int, turn: Turn = START) -> tuple[float, float]:
    """(win, draw) chances of `player` playing the best replies to `level` from `turn`."""
    over = end(turn)
    if over is not None:
        mine = 0 if player == CROSS else 2
        return over[mine], over[1]
    nexts = [RULES.apply(turn, cell) for cell in RULES.legal_moves(turn)]
    if turn.player == player:
        return max(best_reply(level, player, after) for after in nexts)
    options = choices(level, turn)
    outcomes = [best_reply(level, player, RULES.apply(turn, cell)) for cell in options]
    return (sum(w for w, _ in outcomes) / len(options), sum(d for _, d in outcomes) / len(options))


def main() -> None:
    names = list(LEVELS)
    heading("Level against level (exact): Cross wins / draw / Circle wins")
    print(f"{'Cross, Circle:':<16}" + "".join(f"{name:>24}" for name in names))
    for cross in names:
        cells = []
        for circle in names:
            won, drawn, lost = match(cross, circle)
            cells.append(f"{won:6.1%} /{drawn:6.1%} /{lost:6.1%}")
        print(f"{cross:<16}" + "".join(f"{cell:>24}" for cell in cells))
    heading("A player who plays the best replies to each level: win (and draw) chance")
    for level in names:
        as_cross = best_reply(level, CROSS)
        as_circle = best_reply(level, CIRCLE)
        print(f"{level:<10} as Cross: win {as_cross[0]:6.1%}, draw {as_cross[1]:6.1%}"
              f"   as Circle: win {as_circle[0]:6.1%}, draw {as_circle[1]:6.1%}")


if __name__ == "__main__":
    main()
