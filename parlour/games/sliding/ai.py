"""Hints and "Show me the solution", from the solver (`solver.py`).

A hint is the next tile of a solution and how many moves remain. It carries the hints
that follow it (`Hint.line`), so that while the player follows them the server answers
later hints from that stored solution without solving again. The solution is played out
move by move as a `Playback`, which counts as help.
"""

from __future__ import annotations

from collections import OrderedDict

from parlour.core.game import Hint, Playback
from parlour.games.sliding import solver
from parlour.games.sliding.logic import Puzzle

KEPT_SOLUTIONS = 4096
"""Positions whose remaining solution a worker remembers (each solve keeps every
position along its line, so a player who follows it is answered at once)."""
PLAYBACK_SECONDS = 14.0
"""About how long "Show me the solution" takes to play a solution out..."""
PLAYBACK_STEP = (0.06, 0.35)
"""... with each tile taking between these many seconds."""

_known: OrderedDict[tuple[int, int, tuple[int, ...]], tuple[tuple[int, ...], bool]] = OrderedDict()


def solution(state: Puzzle) -> tuple[tuple[int, ...], bool]:
    """The cells of the tiles to slide, one tile per move, from `state` to the goal, and
    whether that is proved shortest."""
    key = (state.rows, state.cols, state.tiles)
    if key in _known:
        _known.move_to_end(key)
        return _known[key]
    found = solver.solve(state.rows, state.cols, state.tiles)
    _remember(state, found.moves, found.optimal)
    return found.moves, found.optimal


def _remember(state: Puzzle, moves: tuple[int, ...], optimal: bool) -> None:
    tiles = list(state.tiles)
    gap = tiles.index(0)
    for done, cell in enumerate(moves):
        _known[(state.rows, state.cols, tuple(tiles))] = (moves[done:], optimal)
        tiles[gap], tiles[cell] = tiles[cell], 0
        gap = cell
    while len(_known) > KEPT_SOLUTIONS:
        _known.popitem(last=False)


def _direction(state_cols: int, cell: int, gap: int) -> str:
    return {-1: "right", 1: "left", -state_cols: "down", state_cols: "up"}[cell - gap]


def _hints(state: Puzzle, moves: tuple[int, ...], optimal: bool) -> list[Hint]:
    """One hint per move of the solution, for the position before it."""
    tiles = list(state.tiles)
    gap = tiles.index(0)
    proof = "the shortest way" if optimal else "a short way, not proved shortest"
    hints = []
    for done, cell in enumerate(moves):
        left = len(moves) - done
        tile = tiles[cell]
        row, col = divmod(cell, state.cols)
        note = (f"slide tile {tile} {_direction(state.cols, cell, gap)}: "
                f"{left} move{'s' * (left != 1)} to go ({proof})")
        hints.append(Hint(move={"cell": [row, col]}, note=note[0].upper() + note[1:]))
        tiles[gap], tiles[cell] = tiles[cell], 0
        gap = cell
    return hints


def hint(state: Puzzle, seat: int) -> Hint | None:
    """The next tile of a solution, with the hints that follow it along that solution."""
    if state.solved():
        return None
    moves, optimal = solution(state)
    first, *rest = _hints(state, moves, optimal)
    return Hint(first.move, first.note, line=tuple(rest))


def show_solution(state: Puzzle, seat: int) -> Playback | str:
    """The solution, played out on the board tile by tile."""
    if state.solved():
        return "The puzzle is already solved."
    moves, optimal = solution(state)
    step = min(max(PLAYBACK_SECONDS / len(moves), PLAYBACK_STEP[0]), PLAYBACK_STEP[1])
    shortest = "the shortest solution" if optimal else "a solution (not proved shortest)"
    played = tuple({"cell": list(divmod(cell, state.cols))} for cell in moves)
    return Playback(played, f"Playing {shortest}: {len(moves)} moves. Click a tile or "
                            "press a key to take over.", step)
