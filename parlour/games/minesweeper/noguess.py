"""Minesweeper boards that need no guess: mines laid so that the solver's deductions
(`analysis.py`) clear the board from the first click.

`no_guess_layout` follows Simon Tatham's Mines: lay mines at random, let the solver
play, and each time it is stuck move mines between the stuck front and the closed cells
away from it so that one number there is resolved; the final layout is always checked
from the start by the same run as `solves_without_guessing`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from parlour.core.game import IllegalMove, counted
from parlour.games.minesweeper.analysis import Knowledge, bits_of, geometry

# -- boards that need no guess ----------------------------------------------------------


class _Run:
    """The solver playing a board whose mines it does not see, opening only proven
    safe cells; the board may be changed under it (see `_perturb`)."""

    def __init__(self, rows: int, cols: int, mined: Iterable[int], first: int) -> None:
        size = rows * cols
        self.around, self.around_mask = geometry(rows, cols)
        self.mine_flags = [False] * size
        for cell in mined:
            self.mine_flags[cell] = True
        if self.mine_flags[first]:
            raise ValueError("the first cell must be free of mines")
        flags = self.mine_flags
        self.counts = [sum(flags[n] for n in self.around[cell]) for cell in range(size)]
        self.opened = [False] * size
        self.open_count = 0
        self.safe_total = size - sum(flags)
        self.know = Knowledge(rows, cols, sum(flags))
        self.open(first)

    def open(self, cell: int) -> None:
        opened, counts, around, know = self.opened, self.counts, self.around, self.know
        if opened[cell]:
            return
        opened[cell] = True
        stack = [cell]
        while stack:
            current = stack.pop()
            self.open_count += 1
            know.reveal(current, counts[current])
            if counts[current] == 0:
                for other in around[current]:
                    if not opened[other]:
                        opened[other] = True
                        stack.append(other)

    def solve(self, engine: bool = True) -> bool:
        """Open proven safe cells until none is left; True if every safe cell is open."""
        while self.open_count < self.safe_total:
            safe = self.know.deduce(engine=engine)
            if not safe:
                return False
            for cell in bits_of(safe):
                self.open(cell)
        return True

    def move_mine(self, source: int, target: int) -> None:
        """Move a mine between two closed, undetermined cells, updating the numbers."""
        flags, counts, know = self.mine_flags, self.counts, self.know
        flags[source], flags[target] = False, True
        for cell, step in ((source, -1), (target, 1)):
            for other in self.around[cell]:
                counts[other] += step
                if self.opened[other]:
                    know.known[other] = counts[other]
                    know.border.add(other)

    def mined(self) -> frozenset[int]:
        return frozenset(cell for cell, flag in enumerate(self.mine_flags) if flag)


def _perturb(run: _Run, rng: random.Random) -> bool:
    """Resolve one number the solver is stuck on by moving mines (Tatham's method).

    A random open number with undetermined cells around it is chosen; its undetermined
    cells are emptied (their mines moved to random closed cells that touch no number, so
    no other number changes) or, if there is no room for that, filled from such cells;
    with no such cells left, other undetermined cells are used. The number then says
    exactly where its mines are. Returns False if no change was possible.
    """
    know = run.know
    free = know.undetermined
    masks = run.around_mask
    witnesses = sorted(cell for cell in know.border if masks[cell] & free)
    if not witnesses:
        return False  # walled in by proven mines: see _breach
    front = 0
    for cell in witnesses:
        front |= masks[cell] & free
    interior = bits_of(free & ~front)
    flags = run.mine_flags
    empty_inside = [c for c in interior if not flags[c]]
    full_inside = [c for c in interior if flags[c]]
    for witness in rng.sample(witnesses, min(len(witnesses), 8)):
        target = masks[witness] & free
        cells = bits_of(target)
        mines_in = [c for c in cells if flags[c]]
        holes = [c for c in cells if not flags[c]]
        if mines_in and len(mines_in) <= len(empty_inside):
            for source, dest in zip(mines_in, rng.sample(empty_inside, len(mines_in)), strict=True):
                run.move_mine(source, dest)
            return True
        if holes and len(holes) <= len(full_inside):
            for dest, source in zip(holes, rng.sample(full_inside, len(holes)), strict=True):
                run.move_mine(source, dest)
            return True
        others = [c for c in bits_of(free & ~target) if not flags[c]]
        if mines_in and len(mines_in) <= len(others):
            for source, dest in zip(mines_in, rng.sample(others, len(mines_in)), strict=True):
                run.move_mine(source, dest)
            return True
    return False


def _breach(run: _Run, rng: random.Random) -> bool:
    """When the open area is walled in by proven mines, move one mine of the wall to a
    random undetermined cell (preferably touching no number). The knowledge of `run` is
    then stale: the caller starts a fresh run."""
    free = run.know.undetermined
    masks, flags = run.around_mask, run.mine_flags
    wall = [c for c in bits_of(run.know.mine) if masks[c] & free]
    if not wall:
        return False
    touched = 0
    for cell, opened in enumerate(run.opened):
        if opened:
            touched |= masks[cell]
    holes = [c for c in bits_of(free & ~touched) if not flags[c]]
    holes = holes or [c for c in bits_of(free) if not flags[c]]
    if not holes:
        return False
    source, target = rng.choice(wall), rng.choice(holes)
    flags[source], flags[target] = False, True
    return True


def solves_without_guessing(rows: int, cols: int, mined: frozenset[int], first: int) -> bool:
    """True if opening `first` (which must be safe) and then only cells the solver proves
    safe (zeros opening their neighbours) opens every safe cell."""
    return _Run(rows, cols, mined, first).solve()


PERTURB_LIMIT = 400  # changes to one layout before starting again from a new one
FRESH_LAYOUT_LIMIT = 20
"""Fresh layouts tried before giving up. Every board measured needed 1: 40x60 with 300
to 2 390 mines, 16x30 with 99 to 400, 9x9 with 60 and 71; 2 at most over every size up
to 6x8 with any mine count. Some boards have no no-guess layout at all (2x6 with 1 mine
ends in a 50/50); the cap stops those, a failed layout costing up to ~0.1 s (2x60)."""


class NoGuessBoardNotFound(IllegalMove):
    """No layout that can be cleared without guessing was found within the cap."""


def no_guess_layout(
    rows: int, cols: int, mines: int, first: int, rng: random.Random
) -> frozenset[int]:
    """Exactly `mines` mines, none on `first` or its neighbours, such that
    `solves_without_guessing` holds; uses only `rng` (the same state gives the same
    layout).

    Mines are laid at random; the solver plays, and each time it is stuck `_perturb`
    moves a few mines so that it can go on. Once it has cleared the board, the changed
    layout is checked from the start by `solves_without_guessing`'s own run, and if
    that run gets stuck, perturbing goes on from there. After FRESH_LAYOUT_LIMIT fresh
    layouts it gives up with NoGuessBoardNotFound (a count, not a time, so that the
    same inputs always give the same board or the same refusal).
    """
    size = rows * cols
    around, _ = geometry(rows, cols)
    keep = {first, *around[first]}
    spaces = [cell for cell in range(size) if cell not in keep]
    if not 0 <= mines <= len(spaces):
        raise ValueError(
            f"{mines} mines do not fit a {rows}x{cols} board with the first cell's area clear"
        )
    for _ in range(FRESH_LAYOUT_LIMIT):
        mined = frozenset(rng.sample(spaces, mines))
        changes = 0
        while changes <= PERTURB_LIMIT:
            run = _Run(rows, cols, mined, first)
            if run.solve():  # the check from the start (solves_without_guessing)
                return mined
            while changes <= PERTURB_LIMIT:
                changes += 1
                if not _perturb(run, rng):
                    if not _breach(run, rng):
                        changes = PERTURB_LIMIT + 1
                    break  # a fresh run from the start
                if run.solve(engine=False):
                    break
            mined = run.mined()
    raise NoGuessBoardNotFound(
        f"no no-guess {rows}x{cols} board with {counted(mines, 'mine')} was "
        "found for this first click: choose another first click, fewer or more mines, or "
        "another board size"
    )
