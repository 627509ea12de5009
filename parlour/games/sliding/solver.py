"""Solving the sliding puzzle: the shortest solution on 3x3 and 4x4, a short one on larger boards.

    >>> solve(3, 3, [1, 2, 3, 4, 5, 6, 7, 0, 8]).moves
    (8,)

A position is the tiles in reading order, 0 for the gap; the goal is 1..n-1 with the gap
in the bottom right cell. A solution lists, for each tile moved, the flat cell
(row * cols + col) of the tile that slides into the gap.

What `solve` guarantees:
- 3x3 and 4x4: a shortest solution (`optimal` is True). IDA* (Korf 1985) with additive
  pattern databases (patterns.py: Korf and Felner's 6-6-3 split for the 4x4, the larger
  of the reading as is and reflected about the diagonal). Korf's 100 random 15-puzzles
  take 0.09 s of CPU each on average (bench/sliding_solver.py; 644 000 nodes), the
  hardest of them 2.3 s; a random 4x4 position 12 ms (median), 0.26 s (p95).
- Every other board, 3x4 up to 8x8: a solution, not proved shortest (`optimal` is
  False), in well under a second for 8x8. The board shrinks one row or column at a time
  (the longer side first): its tiles are brought home one or two at a time, each step by
  the fewest moves that do so without disturbing the tiles already home (a breadth-first
  search over the gap and those tiles, `kernel.place`; the last two of a line go
  together, as a corner tile cannot be placed alone). What remains, 3x3 or 4x4, is
  solved optimally by relabelling its tiles; a 4x4 remainder that would take IDA* more
  than `REMAINDER_NODES` nodes is shrunk to 3x3 instead, so the time stays bounded.
  Solutions on random 8x8 positions are about 830 moves (median; roughly twice the
  shortest), found in about 0.26 s of CPU (median; 0.44 s p95).

Why numba: the IDA* inner loop and the databases' breadth-first search visit millions
of states, which takes minutes in CPython. numba compiles kernel.py's three small loops
to machine code from plain Python (no C toolchain; a wheel for CPython 3.11) and is
maintained by Anaconda and the NumPy community. Compiled code is cached on disk (see
kernel.py): in a fresh cache the first calls compile for about 8 s of CPU (5 s of it
the database build's kernel), later processes load the search kernel in about 0.4 s.

Hints and "Show me the solution" (the end of this file): a hint is the next tile of a
solution and how many moves remain. It carries the hints that follow it (`Hint.line`), so
that while the player follows them the server answers later hints from that stored
solution without solving again. The solution is played out move by move as a
`Playback`, which counts as help.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from parlour.core import progress
from parlour.core.game import BestPossible, Hint, Playback, counted
from parlour.games.sliding import kernel, patterns
from parlour.games.sliding import logic as rules
from parlour.games.sliding.kernel import Bytes, Ints
from parlour.games.sliding.logic import Puzzle
from parlour.games.sliding.patterns import PatternDatabase

MIN_SIDE, MAX_SIDE = 3, 8
REMAINDER_NODES = 2_000_000
"""IDA* nodes allowed for the 4x4 left of a larger board (about 0.3 s) before it is
shrunk further instead: most random 4x4 positions need far fewer."""
PLACE_STATES = 1 << 21
"""The largest search (cells ** (tiles + 1) states) that brings tiles of a line home at
once on large boards: it sets how many go together, two on 8x8, up to five on 3x4."""
TABLES = patterns.TABLES


@dataclass(frozen=True, slots=True)
class Solution:
    moves: tuple[int, ...]  # per tile moved: the cell of the tile that slides into the gap
    optimal: bool  # proved shortest (always on 3x3 and 4x4)
    nodes: int  # search nodes expanded, for benchmarks


def warm_up() -> None:
    """Load the compiled search (or compile it, the first time: seconds) in a worker
    before its first hint, so that the hint's time budget is the search's alone; and
    read the 15-puzzle's pattern database, which every board of 4x4 or more uses. On
    a machine that has never built it, that build (seconds of CPU) happens here, soon
    after start-up, rather than under a player's first hint."""
    solve(3, 3, (1, 2, 3, 4, 5, 6, 7, 0, 8))
    patterns.for_side(4)


def is_solvable(rows: int, cols: int, tiles: Sequence[int]) -> bool:
    """Whether the goal can be reached (the rules' test, after checking the shape)."""
    _check_shape(rows, cols, tiles)
    return rules.is_solvable(rows, cols, tiles)


def solve(rows: int, cols: int, tiles: Sequence[int]) -> Solution:
    """A solution of the position (see the module's docstring for how short).

    Raises ValueError for a malformed position or one that cannot be solved. May report
    progress (parlour.core.progress) while it builds a pattern database or searches.
    """
    if not is_solvable(rows, cols, tiles):
        raise ValueError("this position cannot be solved: two tiles would have to swap")
    board = np.array(tiles, np.int64)
    if rows == cols == 3 or rows == cols == 4:
        found = _shortest(board, rows, node_limit=None)
        assert found is not None
        moves, nodes = found
        return Solution(tuple(moves), optimal=True, nodes=nodes)
    moves, nodes = _reduce(board, rows, cols)
    return Solution(tuple(moves), optimal=False, nodes=nodes)


def _check_shape(rows: int, cols: int, tiles: Sequence[int]) -> None:
    for name, side in (("rows", rows), ("cols", cols)):
        if not isinstance(side, int) or not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(f"{name} must be a whole number from {MIN_SIDE} to {MAX_SIDE}")
    n = rows * cols
    if len(tiles) != n or sorted(tiles) != list(range(n)):
        raise ValueError(f"the tiles must be the numbers 0 to {n - 1}, each once")


def _shortest(board: Ints, side: int, node_limit: int | None) -> tuple[list[int], int] | None:
    """IDA*: deepen the bound to the smallest estimate that went over it, until a
    solution fits. None when `node_limit` nodes were not enough."""
    database = patterns.for_side(side)
    if not np.any(board[:-1] != np.arange(1, side * side)):
        return [], 0
    lookup = _lookup(database)
    moves = np.empty(128, np.int64)
    bound, nodes = 0, 0
    while True:
        budget = (node_limit - nodes) if node_limit is not None else 1 << 62
        length, bound, expanded = kernel.search(board.copy(), bound, budget, *lookup, moves)
        nodes += expanded
        if length >= 0:
            return [int(move) for move in moves[:length]], nodes
        if length == kernel.OVER_BUDGET:
            return None
        progress.report(None, f"Looking for a solution of {bound} moves")


Lookup = tuple[Ints, Ints, Ints, Ints, Ints, Ints, Bytes]
_lookups: dict[int, Lookup] = {}


def _lookup(database: PatternDatabase) -> Lookup:
    """What kernel.search needs of a board's databases, after `bound` and the limit."""
    if database.side not in _lookups:
        _lookups[database.side] = (
            patterns.neighbours(database.side, database.side), database.group_of,
            database.weights, database.reflected_group_of, database.reflected_weights,
            database.offsets, database.values)
    return _lookups[database.side]


def _reduce(board: Ints, rows: int, cols: int) -> tuple[list[int], int]:
    """Bring home the top row or the left column of the part left (its longer side)
    until a 3x3 or 4x4 remains; solve that optimally (see the module docstring)."""
    start_gap = int(np.flatnonzero(board == 0)[0])
    top = left = 0
    moves: list[int] = []
    nodes = 0
    too_hard = False  # the 4x4 left over took IDA* too long: shrink it to 3x3
    while True:
        height, width = rows - top, cols - left
        cells = np.array([(top + r) * cols + left + c for r in range(height)
                          for c in range(width)], np.int64)  # the part left, reading order
        if height == width == 3 or (height == width == 4 and not too_hard):
            found = _shortest(_relabelled(board[cells], cells, cols, height), height,
                              REMAINDER_NODES if height == 4 else None)
            if found is not None:
                tail, searched = found
                return _without_returns(moves + cells[tail].tolist(), start_gap), nodes + searched
            too_hard = True
        if height >= width:
            line = list(range(width))  # the part's top row
            top += 1
        else:
            line = list(range(0, height * width, width))  # its left column
            left += 1
        part = board[cells]
        links = patterns.neighbours(height, width)
        fixed = np.zeros(height * width, np.bool_)
        for chunk in _chunks(line, _group_size(height * width)):
            homes = np.array(chunk, np.int64)
            step, expanded = kernel.place(part, cells[homes] + 1, homes, fixed, links)
            if step.shape[0] and step[0] < 0:
                raise AssertionError("a line could not be placed")  # no shape here does that
            _play(part, step.tolist())
            moves += cells[step].tolist()
            nodes += expanded
            fixed[homes] = True
        board[cells] = part
        progress.report(1 - (rows - top) * (cols - left) / (rows * cols), "Solving row by row")


def _group_size(cells: int) -> int:
    """How many tiles of a line `kernel.place` brings home together on a part of this
    many cells: as many as keep its search within PLACE_STATES, two at least."""
    size = 2
    while cells ** (size + 2) <= PLACE_STATES:
        size += 1
    return size


def _chunks(line: list[int], size: int) -> list[list[int]]:
    """The cells of a line in groups of `size` filled one after the other; the remainder
    goes first, so the last group, which holds the corner, has two cells at least (a
    corner tile cannot be brought home alone)."""
    cut = len(line) % size
    return ([line[:cut]] if cut else []) + [line[i:i + size] for i in range(cut, len(line), size)]


def _relabelled(part: Ints, cells: Ints, cols: int, side: int) -> Ints:
    """The bottom right side x side part of a board as a board of its own: each tile
    renumbered by its home in the part (its gap's home is the same corner)."""
    homes = {int(cell) + 1: i + 1 for i, cell in enumerate(cells)}
    return np.array([homes.get(int(tile), 0) for tile in part], np.int64)


def _without_returns(moves: list[int], gap: int) -> list[int]:
    """The moves without any that slides back the tile just moved (and its pair)."""
    kept: list[int] = []
    for cell in moves:
        before = kept[-2] if len(kept) >= 2 else gap
        if kept and cell == before:
            kept.pop()
        else:
            kept.append(cell)
    return kept


def _play(board: Ints, moves: Sequence[int]) -> None:
    """Slide the tile at each cell in `moves` into the gap, in place."""
    gap = int(np.flatnonzero(board == 0)[0])
    for cell in moves:
        board[gap], board[cell] = board[cell], 0
        gap = cell


# -- hints and "Show me the solution" ----------------------------------------------------

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
    found = solve(state.rows, state.cols, state.tiles)
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
    # (a big board's way is found fast, not proved shortest: "a short way" for 820 moves
    # on an 8x8 told a player something false)
    way = (" (the shortest way)" if optimal
           else " by the solver's quick way; fewer may do")
    hints = []
    for done, cell in enumerate(moves):
        left = len(moves) - done
        row, col = divmod(cell, state.cols)
        # the tile lit on the board and named by where it is (as its label for a screen
        # reader says), never by its number: the page shows numbers only if asked to
        note = (f"Slide the tile at row {row + 1}, column {col + 1} "
                f"{_direction(state.cols, cell, gap)}: {counted(left, 'move')} to go{way}")
        hints.append(Hint(move={"cell": [row, col]}, note=note))
        tiles[gap], tiles[cell] = tiles[cell], 0
        gap = cell
    return hints


FEWEST_NODES = 5_000_000
"""IDA* nodes the end card's fewest moves may take (0.26 s on the 80-move start, once
warm): a start that needs more (the hardest 4x4 positions, which take a minute) gets
none, so that asking for it costs a bounded share of a worker whoever asks."""


def fewest_moves(start: Puzzle, end: Puzzle) -> BestPossible | None:
    """For a solved game's end card: the fewest moves that solve its start position, on
    the boards where the solver proves them (3x3 and 4x4) within `FEWEST_NODES`."""
    if not end.solved() or start.rows != start.cols or start.rows > 4:
        return None
    found = _shortest(np.array(start.tiles, np.int64), start.rows, FEWEST_NODES)
    if found is None:
        return None
    fewest = len(found[0])
    met = "Not one move wasted: no solution is shorter." if end.moved == fewest else ""
    return BestPossible("fewest possible", fewest, met)


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
