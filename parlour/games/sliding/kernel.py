"""The sliding puzzle solver's inner loops, compiled by numba: nothing else here.

Three loops run millions of times and are compiled; everything around them (checking
input, choosing groups, relabelling, progress) is plain Python in solver.py and
patterns.py. Boards are flat: cell = row * cols + col, `board[cell]` the tile there
(0 = the gap), `neighbours[cell]` the up-to-four adjacent cells padded with -1.

- `pattern_layer`: one breadth-first layer of a pattern database build (patterns.py
  says what the states are).
- `search`: one iteration of IDA* under a bound, with the additive pattern databases and
  their lookup reflected about the main diagonal.
- `place`: a breadth-first search that brings a few tiles home while the cells in
  `fixed` stay as they are (the non-optimal solver for large boards).

Compiled code is cached on disk (numba's `cache=True`): next to this file when the
package folder is writable, else in the user's cache folder; when neither can be
written the kernels are compiled at each start (about 8 s of CPU) instead of failing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]
F = TypeVar("F", bound=Callable[..., object])

CELL_BITS = 4
"""A pattern's index packs each of its tiles' cells in 4 bits (boards of up to 16 cells)."""
UNSEEN = 255
"""A pattern database entry no layer has reached yet."""
NOT_FOUND = -1
OVER_BUDGET = -2


def compiled(function: F) -> F:
    """`numba.njit` with its machine code kept on disk, or kept in memory only where no
    folder can be written (numba refuses to cache without one)."""
    try:
        return cast(F, numba.njit(cache=True)(function))
    except RuntimeError:
        return cast(F, numba.njit(function))


LOWEST_BIT = np.full(37, -1, np.int64)
for _bit in range(36):
    LOWEST_BIT[(1 << _bit) % 37] = _bit
"""Which bit a power of two is, by its remainder modulo 37 (distinct for 2**0 .. 2**35)."""


@compiled
def _flood(seed: int, free: int, cols: int, full: int, first_col: int, last_col: int) -> int:
    """The cells (a bitmask) the gap reaches from the cells in `seed` through `free` ones,
    grown a step in every direction at once until nothing changes."""
    region = seed
    while True:
        grown = region | (region >> cols) | ((region << cols) & full)
        grown |= ((region >> 1) & ~last_col) | ((region << 1) & ~first_col & full)
        grown &= free | seed
        if grown == region:
            return region
        region = grown


@compiled
def pattern_layer(frontier: Ints, depth: int, cols: int, neighbours: Ints, size: int,
                  seen: Bytes, database: Bytes) -> tuple[Ints, int]:
    """Expand one layer of the breadth-first search behind a pattern database.

    A state is (pattern index << CELL_BITS) | gap, where the pattern index packs the
    cells of the `size` pattern tiles and `gap` is the lowest cell of the region the gap
    can roam without moving one of them (those moves cost nothing). Moving a pattern tile
    into that region costs one. Returns the next layer and how many patterns it reached
    for the first time; each gets `depth + 1` in `database`. `seen` is a bitset of states.
    Cell sets are bitmasks (bit c = cell c).
    """
    cells = neighbours.shape[0]
    full = (1 << cells) - 1
    first_col, last_col = 0, 0
    for row in range(cells // cols):
        first_col |= 1 << (row * cols)
        last_col |= 1 << (row * cols + cols - 1)
    where = np.empty(size, np.int64)
    out = np.empty(max(1024, 2 * frontier.shape[0]), np.int64)
    count = 0
    new_patterns = 0
    mask = (1 << CELL_BITS) - 1
    for state in frontier:
        index = state >> CELL_BITS
        taken = 0
        for slot in range(size):
            where[slot] = (index >> (CELL_BITS * slot)) & mask
            taken |= 1 << where[slot]
        free = full & ~taken
        region = _flood(1 << (state & mask), free, cols, full, first_col, last_col)
        for slot in range(size):
            source = where[slot]
            for into in neighbours[source]:
                if into < 0 or not (region >> into) & 1:
                    continue
                after = _flood(1 << source, free & ~(1 << into), cols, full, first_col,
                               last_col)
                moved = index + (into - source) * (1 << (CELL_BITS * slot))
                code = (moved << CELL_BITS) | LOWEST_BIT[(after & -after) % 37]
                byte, bit = code >> 3, np.uint8(1 << (code & 7))
                if seen[byte] & bit:
                    continue
                seen[byte] |= bit
                if database[moved] == UNSEEN:
                    database[moved] = depth + 1
                    new_patterns += 1
                if count == out.shape[0]:
                    grown = np.empty(2 * count, np.int64)
                    grown[:count] = out
                    out = grown
                out[count] = code
                count += 1
    return out[:count].copy(), new_patterns


@compiled
def search(board: Ints, bound: int, node_limit: int, neighbours: Ints, group_of: Ints,
           weights: Ints, mirror_group_of: Ints, mirror_weights: Ints, offsets: Ints,
           database: Bytes, moves: Ints) -> tuple[int, int, int]:
    """One IDA* iteration: a depth-first search for the goal within `bound` moves.

    The estimate is the larger of two sums of pattern database values: the tiles as they
    are, and the board reflected about its main diagonal. Tile t at cell c adds
    `weights[t, c]` to the index of its group `group_of[t]` (`mirror_...` for the
    reflected reading); group g's entries start at `offsets[g]` in `database`. A move
    that would undo the previous one is not tried.

    Returns (length, next bound, nodes entered): length >= 0 when found (the moves in
    `moves`, each the cell of the tile that slides into the gap), NOT_FOUND with the
    smallest estimate above the bound for the next iteration, or OVER_BUDGET after
    `node_limit` nodes. `board` is changed while searching (pass a copy).
    """
    groups = offsets.shape[0]
    index = np.zeros(groups, np.int64)
    mirrored = np.zeros(groups, np.int64)
    gap = 0
    for cell in range(board.shape[0]):
        tile = board[cell]
        if tile == 0:
            gap = cell
            continue
        index[group_of[tile]] += weights[tile, cell]
        mirrored[mirror_group_of[tile]] += mirror_weights[tile, cell]
    estimate = 0
    mirror_estimate = 0
    for group in range(groups):
        estimate += database[offsets[group] + index[group]]
        mirror_estimate += database[offsets[group] + mirrored[group]]

    limit = bound + 2
    tried = np.zeros(limit, np.int64)  # neighbours of the gap tried so far, per depth
    came_from = np.full(limit, -1, np.int64)  # the gap's cell before the move to this depth
    estimates = np.zeros(limit, np.int64)
    mirror_estimates = np.zeros(limit, np.int64)
    estimates[0], mirror_estimates[0] = estimate, mirror_estimate
    next_bound = 1 << 30
    nodes = 0
    depth = 0
    while True:
        k = tried[depth]
        if k == 4:  # every move from here tried: take back the move that led here
            if depth == 0:
                return NOT_FOUND, next_bound, nodes
            back = came_from[depth]
            tile = board[back]
            board[gap], board[back] = tile, 0
            index[group_of[tile]] += weights[tile, gap] - weights[tile, back]
            mirrored[mirror_group_of[tile]] += (mirror_weights[tile, gap]
                                                - mirror_weights[tile, back])
            gap = back
            depth -= 1
            continue
        tried[depth] = k + 1
        source = neighbours[gap, k]
        if source < 0 or source == came_from[depth]:
            continue
        tile = board[source]
        group = group_of[tile]
        moved = index[group] + weights[tile, gap] - weights[tile, source]
        estimate = (estimates[depth] - database[offsets[group] + index[group]]
                    + database[offsets[group] + moved])
        twin_group = mirror_group_of[tile]
        twin_moved = (mirrored[twin_group] + mirror_weights[tile, gap]
                      - mirror_weights[tile, source])
        mirror_estimate = (mirror_estimates[depth]
                           - database[offsets[twin_group] + mirrored[twin_group]]
                           + database[offsets[twin_group] + twin_moved])
        cost = depth + 1 + max(estimate, mirror_estimate)
        if cost > bound:
            next_bound = min(next_bound, cost)
            continue
        nodes += 1
        index[group], mirrored[twin_group] = moved, twin_moved
        board[gap], board[source] = tile, 0
        moves[depth] = source
        depth += 1
        came_from[depth], gap = gap, source
        tried[depth] = 0
        estimates[depth], mirror_estimates[depth] = estimate, mirror_estimate
        if estimate == 0:
            return depth, bound, nodes
        if nodes >= node_limit:
            return OVER_BUDGET, bound, nodes


@compiled
def place(board: Ints, tiles: Ints, goals: Ints, fixed: npt.NDArray[np.bool_],
          neighbours: Ints) -> tuple[Ints, int]:
    """The fewest moves that bring `tiles` (a few) to their `goals`, never moving a
    tile out of a `fixed` cell: a breadth-first search over (gap, their cells), other
    tiles being all alike. Returns the moves (cells of the tiles that slide into the
    gap), or [-1] when the fixed cells leave no way; and the number of states expanded."""
    cells = board.shape[0]
    count = tiles.shape[0]
    where = np.empty(count, np.int64)
    gap = 0
    for cell in range(cells):
        if board[cell] == 0:
            gap = cell
        for i in range(count):
            if board[cell] == tiles[i]:
                where[i] = cell
    goal_code = 0
    code = 0
    for i in range(count - 1, -1, -1):
        goal_code = goal_code * cells + goals[i]
        code = code * cells + where[i]
    states = cells ** (count + 1)
    parent = np.full(states, -1, np.int32)
    queue = np.empty(states, np.int32)
    start = code * cells + gap
    parent[start] = start
    queue[0] = start
    head, tail = 0, 1
    found = -1
    if code == goal_code:
        found = start
    while head < tail and found < 0:
        state = queue[head]
        head += 1
        gap = state % cells
        rest = state // cells
        for i in range(count):
            where[i] = rest % cells
            rest //= cells
        for source in neighbours[gap]:
            if source < 0 or fixed[source]:
                continue
            code = 0
            for i in range(count - 1, -1, -1):
                code = code * cells + (gap if where[i] == source else where[i])
            following = code * cells + source
            if parent[following] >= 0:
                continue
            parent[following] = state
            queue[tail] = following
            tail += 1
            if code == goal_code:
                found = following
                break
    if found < 0:
        return np.full(1, -1, np.int64), head
    length = 0
    state = found
    while parent[state] != state:
        length += 1
        state = parent[state]
    moves = np.empty(length, np.int64)
    state = found
    for i in range(length - 1, -1, -1):
        moves[i] = state % cells  # the gap after the move: where the tile came from
        state = parent[state]
    return moves, head
