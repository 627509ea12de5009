"""The Minesweeper end game, searched exactly: when few layouts of the mines are left (on
the whole board, or in a closed pocket of the front), every move and every number it may
show is tried, and the move that wins most often with the best play after it is found.

Layouts are bitsets over the board; a set of layouts is a bitset over their indices, so
that a move splits it, by the number the cell shows, with a few AND operations. Each
move's search is cut short once it cannot beat the best found, and below each position
only the cells that told something there are looked at. `solver.py` decides when the
search plays; what a position proves (constraints, the probability engine) is
`analysis.py`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from parlour.games.minesweeper.analysis import Constraint, Knowledge, bits_of

# Search the end game exactly when at most this many layouts fit. The search plays best
# over the layouts left, so handing it more of the end game helps on average, if little:
# 2000 rather than 400 gained 3 games net in 3000 with an opening first click and lost 1
# with a safe one (paired, seeds 3000000+), for 5-8 ms more CPU per game; 4000 (with
# 60 000 nodes) rather than 2000, +2 safe and -5 opening in 20 000 at 1.4x the CPU.
ENDGAME_LAYOUTS = 2000
ENDGAME_NODES = 30_000  # positions the end-game search may visit before giving up
EPSILON = 1e-12  # chances closer than this (relatively) count as equal


def _layouts(
    cons: list[Constraint], cells: list[int], mines: int | None, limit: int
) -> list[int] | None:
    """Every placement of mines on `cells` that fits the constraints (with exactly
    `mines` mines, or any number if None), as bitsets over the board; None when there
    are more than `limit`."""
    index = {cell: i for i, cell in enumerate(cells)}
    of_cell: list[list[int]] = [[] for _ in cells]
    for con, (mask, _) in enumerate(cons):
        for cell in bits_of(mask):
            of_cell[index[cell]].append(con)
    need = [value for _, value in cons]  # mines still to place around each number
    room = [mask.bit_count() for mask, _ in cons]  # its cells not yet decided
    out: list[int] = []
    bits = [1 << cell for cell in cells]
    total = len(cells)
    free_count = mines is None

    def place(pos: int, left: int, layout: int) -> None:
        if len(out) > limit:
            return
        if pos == total:
            if free_count or left == 0:
                out.append(layout)
            return
        if not free_count and total - pos < left:
            return
        mine_ok = free_count or left > 0
        safe_ok = True
        for con in of_cell[pos]:
            if need[con] == 0:
                mine_ok = False
            if need[con] == room[con]:
                safe_ok = False
        for con in of_cell[pos]:
            room[con] -= 1
        if safe_ok:
            place(pos + 1, left, layout)
        if mine_ok:
            for con in of_cell[pos]:
                need[con] -= 1
            place(pos + 1, left - 1, layout | bits[pos])
            for con in of_cell[pos]:
                need[con] += 1
        for con in of_cell[pos]:
            room[con] += 1

    place(0, 0 if mines is None else mines, 0)
    return out if len(out) <= limit else None


def _board_layouts(know: Knowledge, components: list[list[Constraint]]) -> list[int] | None:
    """Every layout of the mines left over the undetermined cells (None if more than
    ENDGAME_LAYOUTS), given each component's constraints (without the proven mines):
    each component's solutions found on their own, then combined, the interior taking
    the mines left over in every way. Much faster than placing mines cell by cell over
    the whole board, which retries every interior choice for each way the front can be
    laid."""
    parts: list[dict[int, list[int]]] = []  # per component: its solutions by mines
    for cons in components:
        found = _layouts(cons, bits_of(_cells_of(cons)), None, ENDGAME_LAYOUTS)
        if found is None:
            return None
        by_mines: dict[int, list[int]] = {}
        for layout in found:
            by_mines.setdefault(layout.bit_count(), []).append(layout)
        parts.append(by_mines)
    interior = bits_of(know.interior_mask & know.undetermined)
    fills: dict[int, list[int]] = {}  # the ways to lay n mines in the interior
    out: list[int] = []

    def combine(index: int, left: int, layout: int) -> None:
        if len(out) > ENDGAME_LAYOUTS:
            return
        if index == len(parts):
            if 0 <= left <= len(interior):
                if left not in fills:
                    fills[left] = [sum(1 << cell for cell in chosen)
                                   for chosen in itertools.combinations(interior, left)]
                out.extend(layout | fill for fill in fills[left])
            return
        for mines, options in parts[index].items():
            if mines <= left:
                for option in options:
                    combine(index + 1, left - mines, layout | option)

    combine(0, know.mines_left, 0)
    return out if len(out) <= ENDGAME_LAYOUTS else None


def _cells_of(cons: list[Constraint]) -> int:
    cells = 0
    for mask, _ in cons:
        cells |= mask
    return cells


def _without_mines(know: Knowledge, cons: list[Constraint]) -> list[Constraint]:
    """The constraints with the mines the engine proved (after it counted) taken out."""
    mine = know.mine
    return [(mask & ~mine, value - (mask & mine).bit_count()) for mask, value in cons
            if mask & ~mine]


class Endgame:
    """The exact best guess when few layouts remain: the search finds the move that wins
    most often with the best play after it.

    Layouts are weighted by their number of mines (`weight_of_mines`): on the whole
    board every layout has all the mines left and weighs the same; in a pocket, a
    layout with k mines weighs the number of ways to lay the other mines elsewhere.
    """

    def __init__(
        self, know: Knowledge, cells: list[int], layouts: list[int],
        weight_of_mines: dict[int, float] | None = None,
    ) -> None:
        self.know = know
        self.cells = cells
        self.layouts = layouts
        self.nodes = 0
        self.memo: dict[int, float] = {}  # exact chances to win, by layouts left
        self.bounds: dict[int, float] = {}  # bounds on them, when the search stopped short
        self.weight_of_mines = weight_of_mines
        # layouts grouped by weight (all in one group when they weigh the same)
        groups: dict[float, int] = {}
        for j, layout in enumerate(layouts):
            weight = 1 if weight_of_mines is None else weight_of_mines[layout.bit_count()]
            groups[weight] = groups.get(weight, 0) | (1 << j)
        self.groups = [(weight, group) for weight, group in groups.items() if weight]
        self.uniform = len(self.groups) == 1
        # the weight of a set of layouts: their count when they all weigh the same
        self.weight: Callable[[int], float] = int.bit_count if self.uniform else self._weighted
        self.all = 0
        for _, group in self.groups:
            self.all |= group
        # per cell: the layouts where it is a mine, and where it shows each number
        self.mine_sets = _mine_sets(cells, layouts)
        self.safe_sets = [self.all & ~mines for mines in self.mine_sets]
        self.cell_index = {cell: i for i, cell in enumerate(cells)}
        self.value_sets = [self._shows(index) for index in range(len(cells))]
        self.cell_mask = sum(1 << cell for cell in cells)

    @property
    def mixed(self) -> bool:
        """The layouts that may be (weighing more than 0) hold different numbers of
        mines: in a pocket, the mine count left at the end may tell them apart. (Asked
        of pockets only, so the whole board's end game does not count it.)"""
        weight_of_mines = self.weight_of_mines
        return len({k for k in map(int.bit_count, self.layouts)
                    if weight_of_mines is None or weight_of_mines[k]}) > 1

    def _shows(self, index: int) -> list[int]:
        """The layouts where cell `index` is safe, split by the number it shows.

        The mines around it are counted for all layouts at once, in binary: counter
        plane i holds the layouts whose count has bit i set (a bit-sliced adder over the
        neighbours' mine sets), so the cost does not grow with the number of layouts."""
        cell_index = self.cell_index
        planes = [0, 0, 0, 0]  # up to 8 neighbours: 4 bits
        for other in bits_of(self.know.around_mask[self.cells[index]]):
            carry = self.mine_sets[cell_index[other]] if other in cell_index else 0
            for bit in range(4):
                if not carry:
                    break
                planes[bit], carry = planes[bit] ^ carry, planes[bit] & carry
        safe = self.all & ~self.mine_sets[index]
        classes = []
        for count in range(9):
            part = safe
            for bit, plane in enumerate(planes):
                part &= plane if count >> bit & 1 else ~plane
            if part:
                classes.append(part)
        return classes

    @classmethod
    def of_board(cls, know: Knowledge) -> Endgame:
        """Every undetermined cell, every layout of the mines left."""
        engine = know.engine
        assert engine is not None
        components = [_without_mines(know, list(comp.key)) for comp in engine.components]
        front = _cells_of([con for cons in components for con in cons])
        cells = bits_of(front) + bits_of(know.interior_mask & know.undetermined)
        return cls(know, cells, _board_layouts(know, components) or [])

    @classmethod
    def of_pocket(cls, know: Knowledge, index: int) -> Endgame | None:
        """The cells of component `index`, a closed pocket of the front (`solver._pockets`);
        None if it has too many layouts to search."""
        engine = know.engine
        assert engine is not None
        cons = _without_mines(know, list(engine.components[index].key))
        cells = bits_of(_cells_of(cons))
        layouts = _layouts(cons, cells, None, ENDGAME_LAYOUTS)
        if not layouts:
            return None
        others = engine.excluding({index})
        left = know.mines_left
        weight_of_mines = {
            k: sum(ways * engine.ways_inside(left - k - ko) for ko, ways in others.items())
            for k in {layout.bit_count() for layout in layouts}
        }
        return cls(know, cells, layouts, weight_of_mines)

    def _weighted(self, layouts: int) -> float:
        return sum(w * (layouts & group).bit_count() for w, group in self.groups)

    def best(self) -> int | None:
        """The cell to open, or None if there are no layouts or the search is too big."""
        if not self.all:
            return None
        try:
            _, move, _ = self.solve(self.all)
        except _TooBig:
            return None
        return None if move < 0 else self.cells[move]

    def win(self, layouts: int, need: float = -1.0, cells: Sequence[int] | None = None
            ) -> tuple[float, bool]:
        """(the chance to win among `layouts` with best play, True); or, when that
        chance is at most `need` (the search above has no use for it then), possibly
        (a bound on it at most `need`, False). Both are remembered."""
        found = self.memo.get(layouts)
        if found is not None:
            return found, True
        bound = self.bounds.get(layouts)
        if bound is not None and bound <= need:
            return bound, False
        value, _, exact = self.solve(layouts, need, cells)
        if exact:
            self.memo[layouts] = value
        else:
            self.bounds[layouts] = value
        return value, exact

    def solve(self, layouts: int, need: float = -1.0, cells: Sequence[int] | None = None
              ) -> tuple[float, int, bool]:
        """(chance to win with best play, the move, True) among the given layouts; or,
        if that chance is at most `need`, maybe (a bound at most `need`, a move, False).

        `cells` (indices, in order; all if None) holds every cell that may still tell
        something: one that tells nothing among a set of layouts (always a mine, or one
        number whenever safe) tells nothing among any part of it, so the search below
        a node looks only at the cells that told something there."""
        self.nodes += 1
        if self.nodes > ENDGAME_NODES:
            raise _TooBig
        if layouts & (layouts - 1) == 0:  # one layout left: it is known
            return 1.0, -1, True
        total = self.weight(layouts)
        moves: list[tuple[float, int, list[int]]] = []
        telling: list[int] = []  # the cells that tell something here
        dead = -1
        indices = range(len(self.cells)) if cells is None else cells
        safe_sets, value_sets = self.safe_sets, self.value_sets
        for at, index in enumerate(indices):
            safe_part = layouts & safe_sets[index]
            if not safe_part:
                continue
            classes = [part for shown in value_sets[index] if (part := layouts & shown)]
            if len(classes) == 1:
                if safe_part != layouts and dead < 0:
                    dead = index
                continue
            if safe_part == layouts:  # safe, and it tells something: always worth playing
                telling.extend(indices[at + 1:])  # (not looked at yet)
                value, exact = self.chance(classes, total, need, telling)
                return value, index, exact
            telling.append(index)
            moves.append((self.weight(safe_part), index, classes))
        if not moves:  # only guesses that tell nothing: bet on the likeliest layout
            likeliest = max(w for w, group in self.groups if layouts & group)
            return likeliest / total, dead, True
        moves.sort(key=lambda m: (-m[0], m[1]))
        best, best_move = -1.0, moves[0][1]
        for safe_weight, index, classes in moves:
            floor = max(best, need)
            if safe_weight <= floor * total * (1 + EPSILON):
                break  # no move left is safe enough to beat the floor
            value, exact = self.chance(classes, total, floor, telling)
            if exact and value > best + EPSILON:
                best, best_move = value, index
        # every move left out or cut short wins at most max(best, need)
        if best > need:
            return best, best_move, True
        return need, best_move, False

    def chance(self, classes: list[int], total: float, to_beat: float = -1.0,
               cells: Sequence[int] | None = None) -> tuple[float, bool]:
        """(the chance to win after a move that splits the layouts into `classes`,
        True); or, once it cannot exceed `to_beat` (even winning every class not yet
        searched), (a bound at most `to_beat`, False), sparing the search of the rest.
        Each class is asked only for what it must reach for the move to beat `to_beat`."""
        parts = sorted(((self.weight(part), part) for part in classes), reverse=True)
        unsearched = sum(weight for weight, _ in parts)
        won = 0.0
        bar = to_beat * total * (1 + EPSILON)
        for weight, part in parts:
            unsearched -= weight
            value, exact = self.win(part, (bar - won - unsearched) / weight, cells)
            won += weight * value
            if not exact or won + unsearched <= bar:
                return min((won + unsearched) / total, to_beat), False
        return won / total, True


class _TooBig(Exception):
    pass


def _mine_sets(cells: list[int], layouts: list[int]) -> list[int]:
    """For each cell, the bitset of the layouts (by index) where it is a mine."""
    of_cell: dict[int, int] = dict.fromkeys(cells, 0)
    for j, layout in enumerate(layouts):
        bit = 1 << j
        for cell in bits_of(layout):
            of_cell[cell] |= bit
    return [of_cell[cell] for cell in cells]
