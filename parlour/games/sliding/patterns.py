"""Additive pattern databases for the 8- and 15-puzzle (goal: 1..n-1, the gap bottom right).

The tiles are split into disjoint groups. A group's database holds, for every way of
placing its tiles, the fewest moves *of those tiles* that bring them home, the other
tiles being indistinguishable and their moves free. As every move moves one tile, the
values of the groups add up to an estimate that never exceeds the true distance
(Korf and Felner, "Disjoint pattern database heuristics", 2002).

The 15-puzzle uses their 6-6-3 split, turned by 180 degrees for this goal: the left and
the right halves of the top three rows, and the bottom row:

     1  2 |  3  4
     5  6 |  7  8
     9 10 | 11 12
    ------+------
    13 14 15  .

Reflected about the main diagonal the goal is itself, the split becomes a different one
(the right column, ...), and the same databases read on the reflected board give a
second estimate; the solver takes the larger. The 8-puzzle splits into {1,2,3,4} and
{5,6,7,8}.

A group's database is indexed by its tiles' cells, 4 bits each (tile i of the group at
cell c adds c << 4i): 16**6 bytes for a six-tile group, a third of them used, so that
the search updates an index with one addition per move. It is built by breadth-first
search from the goal over (the group's cells, where the gap may roam), in
kernel.pattern_layer: a state records the lowest cell of the gap's region, since moves
inside the region cost nothing.

Where a group is the left-right mirror image of an earlier one (the two six-tile groups
here), it has no table of its own: its tiles are read through the mirror in the earlier
group's table (`sources`, `PatternDatabase.weights`). That halves the build and the file.

The tables are built once through parlour.core.tables (about 7 s of CPU for the
15-puzzle, with a progress bar) and kept in the user's data folder, compressed: 3.4 MB.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import IO

import numpy as np

from parlour.core import progress, tables
from parlour.games.sliding import kernel
from parlour.games.sliding.kernel import CELL_BITS, UNSEEN, Bytes, Ints

FIFTEEN_GROUPS = ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12), (13, 14, 15))
EIGHT_GROUPS = ((1, 2, 3, 4), (5, 6, 7, 8))


def neighbours(rows: int, cols: int) -> Ints:
    """For each cell, the cells next to it (up, left, right, down), padded with -1."""
    table = np.full((rows * cols, 4), -1, np.int64)
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        steps = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))
        for k, (r, c) in enumerate(steps):
            if 0 <= r < rows and 0 <= c < cols:
                table[cell, k] = r * cols + c
    return table


def left_right(side: int) -> Ints:
    """Each cell mirrored left to right: (row, col) -> (row, side - 1 - col)."""
    cells = np.arange(side * side)
    return (cells // side * side + side - 1 - cells % side).astype(np.int64)


def diagonal(side: int) -> Ints:
    """Each cell reflected about the main diagonal: (row, col) -> (col, row)."""
    cells = np.arange(side * side)
    return (cells % side * side + cells // side).astype(np.int64)


def twins(cell_map: Ints) -> Ints:
    """For each tile, the tile whose home `cell_map` maps its home to (the gap stays 0)."""
    out = np.zeros(cell_map.shape[0], np.int64)
    out[1:] = cell_map[:-1] + 1
    return out


def _goal_region_whole(side: int, group: Sequence[int]) -> bool:
    """Whether the cells the group leaves free at the goal are all one region: then
    where the gap starts does not matter, and the group's table is as symmetric as the
    board."""
    walls = {tile - 1 for tile in group}
    free = set(range(side * side)) - walls
    return _region(min(free), walls, neighbours(side, side)) == free


def sources(side: int, groups: Sequence[tuple[int, ...]]) -> list[int | None]:
    """For each group, the earlier group it is the left-right mirror image of (its
    table is then that one's, read through the mirror), or None: it has its own."""
    mirror = twins(left_right(side))
    out: list[int | None] = []
    for group in groups:
        image = {int(mirror[tile]) for tile in group}
        out.append(next((number for number, other in enumerate(groups[:len(out)])
                         if out[number] is None and set(other) == image
                         and _goal_region_whole(side, group)
                         and _goal_region_whole(side, other)), None))
    return out


@dataclass(frozen=True)
class PatternDatabase:
    """One square board's groups and their tables, one after another in `values` (a
    group that mirrors an earlier one has none of its own)."""

    side: int
    groups: tuple[tuple[int, ...], ...]
    values: Bytes

    @cached_property
    def offsets(self) -> Ints:
        """Where each group's table starts in `values`."""
        out, end = [], 0
        for number, source in enumerate(sources(self.side, self.groups)):
            if source is None:
                out.append(end)
                end += (1 << CELL_BITS) ** len(self.groups[number])
            else:
                out.append(out[source])
        return np.array(out, np.int64)

    @cached_property
    def group_of(self) -> Ints:
        """Each tile's group (the gap, 0, in none: its entry is unused)."""
        out = np.zeros(self.side * self.side, np.int64)
        for number, group in enumerate(self.groups):
            out[list(group)] = number
        return out

    @cached_property
    def weights(self) -> Ints:
        """weights[tile, cell]: what the tile at that cell adds to its group's index.
        Tile i of a group at cell c adds c << (CELL_BITS * i); a mirror group's tile
        counts as its mirror image in the group it mirrors."""
        cells = self.side * self.side
        out = np.zeros((cells, cells), np.int64)
        mirror_cell = left_right(self.side)
        mirror_tile = twins(mirror_cell)
        for group, source in zip(self.groups, sources(self.side, self.groups), strict=True):
            for tile in group:
                if source is None:
                    out[tile] = np.arange(cells) << (CELL_BITS * group.index(tile))
                else:
                    slot = self.groups[source].index(int(mirror_tile[tile]))
                    out[tile] = mirror_cell << (CELL_BITS * slot)
        return out

    @cached_property
    def reflected_group_of(self) -> Ints:
        """The groups and weights of the board reflected about its main diagonal, read
        as the original tiles: the tile t at cell c counts as the tile `twins[t]` at the
        reflected cell (the goal reflects onto itself)."""
        return self.group_of[twins(diagonal(self.side))]

    @cached_property
    def reflected_weights(self) -> Ints:
        reflect = diagonal(self.side)
        return self.weights[twins(reflect)][:, reflect]

    def estimate(self, tiles: Sequence[int]) -> int:
        """The solver's lower bound on the moves `tiles` needs: the larger of the sums
        of the group tables, read as is and reflected (as kernel.search does)."""
        sums = []
        for group_of, weights in ((self.group_of, self.weights),
                                  (self.reflected_group_of, self.reflected_weights)):
            index = [0] * len(self.groups)
            for cell, tile in enumerate(tiles):
                if tile:
                    index[group_of[tile]] += int(weights[tile, cell])
            sums.append(sum(int(self.values[offset + i])
                            for offset, i in zip(self.offsets, index, strict=True)))
        return max(sums)


def build(side: int, groups: tuple[tuple[int, ...], ...]) -> PatternDatabase:
    """The tables of the groups that need their own, by breadth-first search from the
    goal; reports progress as the share of their patterns reached."""
    own = [group for group, source in zip(groups, sources(side, groups), strict=True)
           if source is None]
    total = sum(math.perm(side * side, len(group)) for group in own)
    reached = 0
    parts = []
    for group in own:
        table, count = build_group(side, group, reached, total)
        reached += count
        parts.append(table)
    return PatternDatabase(side, groups, np.concatenate(parts))


def build_group(side: int, group: tuple[int, ...], reached: int = 0,
                total: int = 1) -> tuple[Bytes, int]:
    """One group's table and how many patterns it holds; reports progress as
    (reached + patterns so far) / total."""
    cells = side * side
    links = neighbours(side, side)
    database = np.full((1 << CELL_BITS) ** len(group), UNSEEN, np.uint8)
    seen = np.zeros(((1 << CELL_BITS) ** (len(group) + 1) + 7) // 8, np.uint8)
    home = sum((tile - 1) << (CELL_BITS * slot) for slot, tile in enumerate(group))
    database[home] = 0
    gap_home = min(_region(cells - 1, {tile - 1 for tile in group}, links))
    start = (home << CELL_BITS) | gap_home
    seen[start >> 3] |= 1 << (start & 7)
    frontier = np.array([start], np.int64)
    count, depth = 1, 0
    while frontier.shape[0]:
        frontier, new = kernel.pattern_layer(frontier, depth, side, links, len(group), seen,
                                             database)
        count += new
        depth += 1
        progress.report((reached + count) / total)
    return database, count


def _region(start: int, walls: set[int], links: Ints) -> set[int]:
    """The cells reached from `start` without entering `walls`."""
    region, todo = {start}, [start]
    while todo:
        for other in links[todo.pop()]:
            if other >= 0 and other not in walls and other not in region:
                region.add(int(other))
                todo.append(int(other))
    return region


def build_fifteen() -> PatternDatabase:
    return build(4, FIFTEEN_GROUPS)


def build_eight() -> PatternDatabase:
    return build(3, EIGHT_GROUPS)


def dump(database: PatternDatabase, file: IO[bytes]) -> None:
    """The groups as a header line, then the values compressed (most are UNSEEN)."""
    groups = ";".join(",".join(map(str, group)) for group in database.groups)
    file.write(f"{database.side}:{groups}\n".encode())
    file.write(zlib.compress(database.values.tobytes(), 1))


def load(file: IO[bytes]) -> PatternDatabase:
    header = file.readline().decode().strip()
    side, groups = header.split(":")
    values = np.frombuffer(bytearray(zlib.decompress(file.read())), np.uint8)  # writable
    parsed = tuple(tuple(int(t) for t in group.split(",")) for group in groups.split(";"))
    database = PatternDatabase(int(side), parsed, values)
    own = [group for group, source in zip(parsed, sources(int(side), parsed), strict=True)
           if source is None]
    if values.shape[0] != sum((1 << CELL_BITS) ** len(group) for group in own):
        raise ValueError("a pattern database file of the wrong size")
    return database


FIFTEEN = tables.Table("sliding-15-puzzle-6-6-3", version=1, build=build_fifteen,
                       title="the 15-puzzle pattern database", dump=dump, load=load,
                       suffix="bin")
EIGHT = tables.Table("sliding-8-puzzle-4-4", version=1, build=build_eight,
                     title="the 8-puzzle pattern database", dump=dump, load=load, suffix="bin")
TABLES = (EIGHT, FIFTEEN)
"""Every table the solver reads (the 15-puzzle's serves every board of 4x4 or more)."""


def for_side(side: int) -> PatternDatabase:
    """The databases of the 3x3 or the 4x4 board: read, or built the first time."""
    return tables.get(EIGHT if side == 3 else FIFTEEN)

