"""The Medium and Strong computers' search, compiled by numba: a search engine, not the rules.

rules.py is Tribolo's rules (the game plays by it); this is a second, compiled reading of
rule 3 made for one job, searching a tree fast, and tests/test_kernel.py checks it against
rules.py move for move and capture for capture. solver.py says what the search does and why;
here is how it runs.

Why numba: the search visits thousands of positions per move, and in CPython each costs
about 0.1 ms (bitboards on Python ints, tuples, dicts), so Strong took over half a second
per move. Compiled, a position costs a few microseconds, so Strong searches far more of the
tree in a quarter of the time. Compiled code is cached on disk as in sliding/kernel.py.

The board is an int8 array of codes (EMPTY, WALL, or player + 1) with a frame of walls
around it (`PADDED`), so a line is read by adding a step until the code changes: the
frame stops it at the edge as a wall does, with no bounds test. The search changes this
one board in place and takes each move back (make/unmake) instead of copying a board per
position, and keeps per-ply rows of preallocated buffers: no allocation inside the tree.
The players' weighted cells and a Zobrist key of the position are updated with each move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from parlour.games.tribolo.rules import CELLS, HEIGHT, WIDTH, Board, cells

Codes = npt.NDArray[np.int8]
Ints = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., object])

EMPTY, WALL = 0, -1
STRIDE = WIDTH + 2
PADDED = STRIDE * (HEIGHT + 2)
"""The board is padded with a frame of walls one cell wide, so a line stops at the edge
as it stops at a wall, with no bounds test: cell (x, y) is at (y + 1) * STRIDE + x + 1."""
STEPS = np.array([dy * STRIDE + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                  if (dx, dy) != (0, 0)], np.int64)
MAX_MOVES = CELLS  # more than the empty cells of any position
INFINITY = 1 << 40
WIN = 1 << 30
"""A decided game's score: beyond any evaluation (at most 2 * 176 * 68)."""
ENDGAME_EMPTY = 16
"""From this many empty cells on, the last ply of the search is played out to see whether
the game ends there: an ended game is scored by its result, not by weights."""
TABLE_BITS = 17
"""The table of best moves (for move ordering) has 2**17 entries, more than Strong's
positions; a clash only costs ordering, never a wrong move."""


def compiled(function: F) -> F:
    """`numba.njit` with its machine code kept on disk, or in memory only where no folder
    can be written (numba refuses to cache without one)."""
    try:
        return cast(F, numba.njit(cache=True)(function))
    except RuntimeError:
        return cast(F, numba.njit(function))


def padded(cell: int) -> int:
    """The index in the padded board of rules.py's `cell`."""
    return (cell // WIDTH + 1) * STRIDE + cell % WIDTH + 1


def unpadded(index: int) -> int:
    return (index // STRIDE - 1) * WIDTH + index % STRIDE - 1


ON_BOARD = np.array([padded(cell) for cell in range(CELLS)], np.int64)


def codes(board: Board) -> Codes:
    """`board` as the kernel reads it."""
    out = np.full(PADDED, WALL, np.int8)
    out[ON_BOARD] = EMPTY
    for player, bits in enumerate(board.owned):
        for cell in cells(bits):
            out[padded(cell)] = player + 1
    for cell in cells(board.walls):
        out[padded(cell)] = WALL
    return out


# Zobrist keys: a position's key is the XOR of one random number per (cell, player + 1)
# and one per player to move, updated by XOR as cells change hands (row EMPTY is zeros:
# walls never change, so only the players' cells need keys). Fixed seed: reproducible.
_keys = np.random.default_rng(2024).integers(0, 2**64, size=(4 + 3, PADDED),
                                             dtype=np.uint64).view(np.int64)
CELL_KEYS, MOVER_KEYS = _keys[:4].copy(), _keys[4:, 0].copy()
CELL_KEYS[EMPTY] = 0


# -- rule 3, compiled -------------------------------------------------------------------------

@compiled
def _run(board: Codes, code: int, cell: int, step: int) -> int:
    """How many cells the player with `code` turns along `step` by playing empty `cell`: a
    run of one other player's cells closed by the mover's own (0: none)."""
    owner = board[cell + step]
    if owner <= EMPTY or owner == code:
        return 0
    length = 1
    while board[cell + (length + 1) * step] == owner:
        length += 1
    return length if board[cell + (length + 1) * step] == code else 0


@compiled
def _generate(board: Codes, weights: Ints, player: int, moves: Ints, runs: Ints,
              gains: Ints) -> int:
    """Every move of `player`: its cell, its run's length along each step, and how each
    player's weighted cells change (`gains[i, p]`). Returns the number of moves."""
    code = player + 1
    count = 0
    for cell in range(STRIDE + 1, PADDED - STRIDE - 1):
        if board[cell] != EMPTY:
            continue
        turned = False
        for d in range(8):
            length = _run(board, code, cell, STEPS[d])
            runs[count, d] = length
            turned |= length > 0
        if not turned:
            continue
        gains[count, 0] = gains[count, 1] = gains[count, 2] = 0
        gains[count, player] = weights[cell]
        for d in range(8):
            if runs[count, d]:
                loser = board[cell + STEPS[d]] - 1
                for k in range(1, runs[count, d] + 1):
                    weight = weights[cell + k * STEPS[d]]
                    gains[count, loser] -= weight
                    gains[count, player] += weight
        moves[count] = cell
        count += 1
    return count


@compiled
def _all_moves(board: Codes, player: int) -> tuple[Ints, Ints]:
    moves = np.empty(MAX_MOVES, np.int64)
    runs = np.empty((MAX_MOVES, 8), np.int64)
    count = _generate(board, np.zeros(PADDED, np.int64), player, moves, runs,
                      np.empty((MAX_MOVES, 3), np.int64))
    return moves[:count].copy(), runs[:count].copy()


def moves_with_captures(board: Board, player: int) -> dict[int, int]:
    """Each move of `player` as the search generates it, with the bitset of the cells it
    turns, in rules.py's numbering (to check the kernel against rules.py)."""
    moves, runs = _all_moves(codes(board), player)
    out = {}
    for index, lengths in zip(moves, runs, strict=True):
        taken = 0
        for step, length in zip(STEPS, lengths, strict=True):
            for k in range(1, length + 1):
                taken |= 1 << unpadded(int(index + k * step))
        out[unpadded(int(index))] = taken
    return out


# -- the paranoid alpha-beta search ------------------------------------------------------------

@compiled
def _flip(board: Codes, cell: int, runs: Ints, owners: Ints, cell_keys: Ints, code: int,
          key: int) -> int:
    """Give `cell` and its runs to `code`; or, with `code` EMPTY, take the move back (the
    runs go back to their `owners`). Returns the position's key after the change."""
    key ^= cell_keys[board[cell], cell] ^ cell_keys[code, cell]
    board[cell] = code
    for d in range(8):
        new = code if code != EMPTY else owners[d]
        for k in range(1, runs[d] + 1):
            turned = cell + k * STEPS[d]
            key ^= cell_keys[board[turned], turned] ^ cell_keys[new, turned]
            board[turned] = new
    return key


@compiled
def _play(board: Codes, cell: int, runs: Ints, owners: Ints, cell_keys: Ints, code: int,
          key: int) -> int:
    """`_flip` for a move, noting first in `owners` whose runs it turns."""
    for d in range(8):
        owners[d] = board[cell + STEPS[d]]
    return _flip(board, cell, runs, owners, cell_keys, code, key)


@compiled
def _evaluate(totals: Ints, root: int) -> int:
    """The root's weighted cells minus the mean of the others' (doubled: integers)."""
    return int(2 * totals[root] - totals[(root + 1) % 3] - totals[(root + 2) % 3])


@compiled
def _final(board: Codes, root: int) -> int:
    """An ended game: a win beats a tie beats a loss, then the margin in cells."""
    counts = np.zeros(4, np.int64)
    for cell in range(PADDED):
        if board[cell] > EMPTY:
            counts[board[cell]] += 1
    mine = counts[root + 1]
    rivals = max(counts[(root + 1) % 3 + 1], counts[(root + 2) % 3 + 1])
    outcome = WIN if mine > rivals else WIN // 2 if mine == rivals else -WIN
    return int(outcome + mine - rivals)


@compiled
def _order(statics: Ints, count: int, maximising: bool, remembered: int, moves: Ints,
           order: Ints) -> None:
    """Fill `order` with the moves' indexes, best evaluation for the mover first, but the
    `remembered` cell (the best here at a shallower depth) before all. Insertion sort:
    stable (ties keep the lowest cell first) and quick on a few dozen moves."""
    sign = 1 if maximising else -1
    for i in range(count):
        key = sign * statics[i] + (INFINITY if moves[i] == remembered else 0)
        j = i
        while j > 0 and sign * statics[order[j - 1]] + (
                INFINITY if moves[order[j - 1]] == remembered else 0) < key:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i


# The search is a loop over its own stack, one frame per ply, not a recursive function:
# numba cannot load a recursive function from its disk cache (numba issue #6061, a crash),
# and compiling at every start would cost seconds. The fields of a frame:
PREVIOUS, KEY, EMPTIES, DEPTH, ALPHA, BETA, MOVER, COUNT, NEXT, BEST, BEST_CELL = range(11)
FIELDS = 11


@compiled
def _fold(frame: Ints, root: int, cell: int, score: int) -> bool:
    """Take a child's score into its parent's frame; True when the rest can be cut off."""
    if frame[MOVER] == root:
        if score > frame[BEST]:
            frame[BEST], frame[BEST_CELL] = score, cell
            frame[ALPHA] = max(frame[ALPHA], score)
    elif score < frame[BEST]:
        frame[BEST], frame[BEST_CELL] = score, cell
        frame[BETA] = min(frame[BETA], score)
    return bool(frame[ALPHA] >= frame[BETA])


@compiled
def _value(board: Codes, weights: Ints, cell_keys: Ints, mover_keys: Ints, root: int,
           budget: int, moves: Ints, runs: Ints, gains: Ints, statics: Ints, orders: Ints,
           totals: Ints, owners: Ints, frames: Ints, table: Ints, counters: Ints,
           previous: int, key: int, empties: int, depth: int, alpha: int,
           beta: int) -> int:
    """The paranoid value, `depth` plies deep, of the position after `previous` (the root)
    moved; `totals[1]` is each player's weighted cells there.

    Rule 5 picks each mover; the root maximises, the others minimise. Row `ply` of each
    buffer belongs to that ply. `counters[0]` counts the positions expanded: once past
    `budget` the value means nothing and the caller stops.
    """
    ply = 1
    frame = frames[ply]
    frame[PREVIOUS], frame[KEY], frame[EMPTIES] = previous, key, empties
    frame[DEPTH], frame[ALPHA], frame[BETA] = depth, alpha, beta
    entering = True  # False: back from the child at ply + 1, whose value is `score`
    score = 0
    while True:
        frame = frames[ply]
        expanded = done = False
        if entering:
            mover = -1
            count = 0
            before = frame[PREVIOUS]
            for following in ((before + 1) % 3, (before + 2) % 3, before):
                count = _generate(board, weights, following, moves[ply], runs[ply],
                                  gains[ply])
                if count:
                    mover = following
                    break
            if mover < 0:
                score, done = _final(board, root), True
            elif frame[DEPTH] == 0:
                score, done = _evaluate(totals[ply], root), True
            else:
                counters[0] += 1
                if counters[0] > budget:
                    return 0
                for i in range(count):
                    for p in range(3):
                        totals[ply + 1, p] = totals[ply, p] + gains[ply, i, p]
                    statics[ply, i] = _evaluate(totals[ply + 1], root)
                position_key = frame[KEY] ^ mover_keys[mover]
                slot = position_key & (table.shape[0] - 1)
                remembered = table[slot, 1] if table[slot, 0] == position_key else -1
                _order(statics[ply], count, mover == root, remembered, moves[ply],
                       orders[ply])
                frame[MOVER], frame[COUNT], frame[NEXT] = mover, count, 0
                frame[BEST] = -INFINITY if mover == root else INFINITY
                frame[BEST_CELL] = -1
                expanded = True
        else:
            i = orders[ply, frame[NEXT] - 1]
            _flip(board, moves[ply, i], runs[ply, i], owners[ply], cell_keys, EMPTY,
                  frames[ply + 1, KEY])
            expanded = True
            done = _fold(frame, root, moves[ply, i], score)

        if expanded and not done:
            # On to the next move. One ply from the horizon a move's evaluation is its
            # value, unless the game may end there (few empty cells left).
            static_leaves = frame[DEPTH] == 1 and frame[EMPTIES] > ENDGAME_EMPTY
            while not done and frame[NEXT] < frame[COUNT]:
                i = orders[ply, frame[NEXT]]
                frame[NEXT] += 1
                if static_leaves:
                    done = _fold(frame, root, moves[ply, i], statics[ply, i])
                    continue
                for p in range(3):
                    totals[ply + 1, p] = totals[ply, p] + gains[ply, i, p]
                child = frames[ply + 1]
                child[KEY] = _play(board, moves[ply, i], runs[ply, i], owners[ply], cell_keys,
                                   frame[MOVER] + 1, frame[KEY])
                child[PREVIOUS], child[EMPTIES] = frame[MOVER], frame[EMPTIES] - 1
                child[DEPTH], child[ALPHA], child[BETA] = (frame[DEPTH] - 1, frame[ALPHA],
                                                           frame[BETA])
                break
            else:
                done = True
            if not done:
                ply += 1
                entering = True
                continue

        if expanded:  # remember the best move here for the next, deeper iteration
            score = frame[BEST]
            position_key = frame[KEY] ^ mover_keys[frame[MOVER]]
            slot = position_key & (table.shape[0] - 1)
            table[slot, 0], table[slot, 1] = position_key, frame[BEST_CELL]
        if ply == 1:
            return score
        ply -= 1
        entering = False


@compiled
def _search(board: Codes, root: int, candidates: Ints, weights: Ints, budget: int,
            max_depth: int, cell_keys: Ints, mover_keys: Ints) -> tuple[int, int, int, int]:
    plies = max_depth + 2
    moves = np.empty((plies, MAX_MOVES), np.int64)
    runs = np.empty((plies, MAX_MOVES, 8), np.int64)
    gains = np.empty((plies, MAX_MOVES, 3), np.int64)
    statics = np.empty((plies, MAX_MOVES), np.int64)
    orders = np.empty((plies, MAX_MOVES), np.int64)
    totals = np.zeros((plies, 3), np.int64)
    owners = np.empty((plies, 8), np.int64)
    frames = np.empty((plies, FIELDS), np.int64)
    table = np.full((1 << TABLE_BITS, 2), -1, np.int64)  # (position key, best cell)
    counters = np.zeros(1, np.int64)
    key = 0
    empty = 0
    for cell in range(PADDED):
        if board[cell] == EMPTY:
            empty += 1
        elif board[cell] > EMPTY:
            key ^= cell_keys[board[cell], cell]
            totals[0, board[cell] - 1] += weights[cell]

    # The root's moves in the caller's order (its tie-break), found among the generated.
    count = _generate(board, weights, root, moves[0], runs[0], gains[0])
    index = np.empty(len(candidates), np.int64)
    for j in range(len(candidates)):
        for i in range(count):
            if moves[0, i] == candidates[j]:
                index[j] = i
    best = index[0]  # before any search: the move that gains the most weight
    for move in index:
        if gains[0, move, root] > gains[0, best, root]:
            best = move
    completed = value = 0
    ordered = np.empty(len(index), np.int64)
    for depth in range(1, max_depth + 1):
        # The previous depth's best first: if the budget runs out during this depth, the
        # best so far is at least as well informed as the previous depth's.
        ordered[0] = best
        rest = 1
        for move in index:
            if move != best:
                ordered[rest] = move
                rest += 1
        best_score = -INFINITY
        for move in ordered:
            cell = moves[0, move]
            for p in range(3):
                totals[1, p] = totals[0, p] + gains[0, move, p]
            child_key = _play(board, cell, runs[0, move], owners[0], cell_keys, root + 1, key)
            score = _value(board, weights, cell_keys, mover_keys, root, budget, moves, runs,
                           gains, statics, orders, totals, owners, frames, table, counters,
                           root, child_key, empty - 1, depth - 1, best_score, INFINITY)
            _flip(board, cell, runs[0, move], owners[0], cell_keys, EMPTY, child_key)
            if counters[0] > budget:
                break
            if score > best_score:
                best_score, best = score, move
        if counters[0] > budget:
            break
        completed, value = depth, best_score
        if depth >= empty:  # every line already ran to the end of the game
            break
    return moves[0, best], value, completed, counters[0]


class Found(NamedTuple):
    cell: int  # the move chosen
    value: int  # its value at the deepest depth completed (paranoid, 8 x solver.py's weights)
    depth: int  # the deepest depth completed (0: the budget ran out during depth 1)
    positions: int  # positions expanded (one more than the budget when it ran out)


def search(board: Board, player: int, moves: Sequence[int], cell_weights: Sequence[float],
           budget: int, max_depth: int) -> Found:
    """The paranoid best of `moves` (all of `player`'s legal moves; ties go to the earliest)
    by iterative deepening, expanding at most `budget` positions and `max_depth` plies.
    `cell_weights` by rules.py's cell, each 1 + n²/4 (solver.py)."""
    weights = np.zeros(PADDED, np.int64)
    weights[ON_BOARD] = [round(4 * weight) for weight in cell_weights]  # exact: 4 + n²
    candidates = np.array([padded(cell) for cell in moves], np.int64)
    cell, value, depth, positions = _search(codes(board), player, candidates, weights, budget,
                                            max_depth, CELL_KEYS, MOVER_KEYS)
    return Found(unpadded(int(cell)), int(value), int(depth), int(positions))
