"""Minesweeper solver: deductions, exact mine probabilities, hints and no-guess boards.

A position is what a player sees: one int per cell (cell = row * cols + col), `UNKNOWN`
for a closed cell, else the number on the open cell. Sets of cells are Python ints used
as bitsets (bit `cell`).

Deductions run cheapest first: single numbers (all of a number's closed cells are mines,
or none are), then pairs of numbers (the subset and difference rules behind 1-2-1 and
1-2-2-1), and only when those are stuck the probability engine. The engine groups the
closed cells next to numbers into boxes (cells touching exactly the same numbers),
splits them into independent components, and counts each component's solutions by how
many mines they use, with a dynamic programme that sweeps the boxes in an order keeping
few numbers half-done (polynomial for the thin fronts Minesweeper has). The components
are combined with the closed cells away from the numbers by the binomial number of ways
to put the remaining mines there. Counts are exact integers, so a probability of 0 or 1
is a proof: the engine finds every deduction, those from the mine count included. A
component too tangled to count within WORK_LIMIT steps (only seen on contrived boards)
gets approximate probabilities instead, which prove nothing.

Guessing: when few layouts remain (ENDGAME_LAYOUTS), an exact search over all of them
picks the move that wins most often. Otherwise each candidate among the safest cells is
scored by the chance of surviving it and then the next move: for each number it may
show, 1 if that number lets the solver prove a safe cell, else the safety of the best
next guess (blended with the second best). Cells whose number is already determined
("dead") are only played when nothing else is left, as playing them first cannot help.

`no_guess_layout` follows Simon Tatham's Mines: lay mines at random, let the solver
play, and each time it is stuck move mines between the stuck front and the closed cells
away from it so that one number there is resolved; the final layout is always checked
from the start by the same run as `solves_without_guessing`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from parlour.core.game import IllegalMove
from parlour.games.minesweeper.grid import neighbours

UNKNOWN = -1

Constraint = tuple[int, int]  # (bitset of undetermined cells, mines among them)
Poly = dict[int, float]  # number of mines -> number of ways (ints while exact)


class Contradiction(ValueError):
    """The numbers shown cannot all be right (no layout fits them and the mine count)."""


@dataclass(frozen=True)
class Analysis:
    safe: frozenset[int]  # closed cells proven safe
    mined: frozenset[int]  # closed cells proven to be mines
    probability: dict[int, float]  # mine probability of every closed cell


@dataclass(frozen=True)
class Suggestion:
    cell: int
    mine_probability: float
    certain: bool  # proven safe


# -- bitsets ----------------------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    """The cells in a bitset, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@cache
def _geometry(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Neighbours of each cell, and the bitset of each cell's neighbours."""
    around = neighbours(rows, cols)
    masks = tuple(sum(1 << n for n in cells) for cells in around)
    return around, masks


# -- cheap deductions -------------------------------------------------------------------


def _reduce(
    cons: Iterable[Constraint], safe: int, mine: int
) -> tuple[list[Constraint], int, int, bool]:
    """Remove known cells from constraints and apply the single-constraint rules once."""
    changed = False
    known = safe | mine
    reduced: dict[int, int] = {}
    for mask, value in cons:
        if mask & known:
            value -= (mask & mine).bit_count()
            mask &= ~known
        if not mask:
            if value:
                raise Contradiction("a number has too many or too few mines around it")
            continue
        size = mask.bit_count()
        if value == 0:
            safe |= mask
            known |= mask
            changed = True
        elif value == size:
            mine |= mask
            known |= mask
            changed = True
        elif value < 0 or value > size:
            raise Contradiction("a number has too many or too few mines around it")
        else:
            old = reduced.get(mask)
            if old is None:
                reduced[mask] = value
            elif old != value:
                raise Contradiction("two numbers disagree")
    if safe & mine:
        raise Contradiction("a cell would be both safe and a mine")
    return list(reduced.items()), safe, mine, changed


def _pairwise(cons: list[Constraint]) -> tuple[int, int]:
    """Cells settled by pairs of overlapping constraints (subset and difference rules).

    With A and B the cells of two numbers, mines(A - B) - mines(B - A) = a - b; when
    that difference equals |A - B| every cell of A - B is a mine and every cell of
    B - A is safe (and symmetrically). A ⊆ B is the case A - B = ∅.
    """
    by_cell: dict[int, list[int]] = {}
    cells_of: list[list[int]] = []
    for index, (mask, _) in enumerate(cons):
        cells = _bits(mask)
        cells_of.append(cells)
        for cell in cells:
            by_cell.setdefault(cell, []).append(index)
    safe = mine = 0
    for a, (mask_a, value_a) in enumerate(cons):
        partners: set[int] = set()
        for cell in cells_of[a]:
            partners.update(by_cell[cell])
        for b in partners:
            if b <= a:
                continue
            mask_b, value_b = cons[b]
            only_a = mask_a & ~mask_b
            only_b = mask_b & ~mask_a
            diff = value_a - value_b
            if diff == only_a.bit_count():
                mine |= only_a
                safe |= only_b
            elif -diff == only_b.bit_count():
                mine |= only_b
                safe |= only_a
    if safe & mine:
        raise Contradiction("a cell would be both safe and a mine")
    return safe, mine


def _simple(
    cons: Iterable[Constraint], safe: int = 0, mine: int = 0, pairs: bool = True
) -> tuple[list[Constraint], int, int]:
    """Single and pairwise rules to a fixed point: (remaining constraints, safe, mines)."""
    work, safe, mine, changed = _reduce(cons, safe, mine)
    while True:
        while changed:
            work, safe, mine, changed = _reduce(work, safe, mine)
        if not pairs or not work:
            return work, safe, mine
        found_safe, found_mine = _pairwise(work)
        found_safe &= ~safe
        found_mine &= ~mine
        if not (found_safe | found_mine):
            return work, safe, mine
        if (found_safe | safe) & (found_mine | mine):
            raise Contradiction("a cell would be both safe and a mine")
        safe |= found_safe
        mine |= found_mine
        changed = True


# -- the probability engine -------------------------------------------------------------

WORK_LIMIT = 200_000  # steps of the exact count of one component before approximating
STATE_LIMIT = 40_000  # states of the approximate sweep before falling back further


def _order_boxes(box_cons: list[list[int]], con_boxes: list[list[int]]) -> list[int]:
    """An order of the boxes that keeps few constraints half-processed (greedy sweep)."""
    count = len(box_cons)
    if count == 1:
        return [0]

    def sweep(start: int) -> tuple[list[int], int]:
        dist = [-1] * count
        dist[start] = 0
        queue = [start]
        for box in queue:
            for con in box_cons[box]:
                for other in con_boxes[con]:
                    if dist[other] < 0:
                        dist[other] = dist[box] + 1
                        queue.append(other)
        return dist, queue[-1]

    _, far = sweep(min(range(count), key=lambda b: (len(box_cons[b]), b)))
    dist, _ = sweep(far)
    remaining = [len(boxes) for boxes in con_boxes]
    placed = [False] * count
    order: list[int] = []
    candidates: set[int] = {far}
    while len(order) < count:
        if not candidates:  # cannot happen in a connected component; be safe
            candidates = {b for b in range(count) if not placed[b]}
        best = -1
        best_key: tuple[int, int, int] = (0, 0, 0)
        for box in candidates:
            opens = closes = 0
            for con in box_cons[box]:
                if remaining[con] == len(con_boxes[con]):
                    opens += 1
                if remaining[con] == 1:
                    closes += 1
            key = (opens - closes, dist[box], box)
            if best < 0 or key < best_key:
                best, best_key = box, key
        placed[best] = True
        order.append(best)
        candidates.discard(best)
        for con in box_cons[best]:
            remaining[con] -= 1
            for other in con_boxes[con]:
                if not placed[other]:
                    candidates.add(other)
    return order


Move = tuple[int, float, tuple[int, ...]]  # (mines in the box, ways, next state)


class _Component:
    """One independent group of constraints: its boxes and the count of its solutions.

    `counts[k]` is the number of ways to place exactly k mines in the component's cells
    that satisfy all its constraints. `weights(W)` gives, for each box, the sum over all
    those ways of (mines in the box) * W[k], from which the marginals follow.
    """

    __slots__ = (
        "box_masks",
        "box_sizes",
        "counts",
        "exact",
        "forward",
        "key",
        "order",
        "shift",
        "transitions",
    )

    def __init__(self, cons: list[Constraint], tilt: float | None = None) -> None:
        """`tilt`: count approximately, each mine weighing `tilt` instead of being
        counted (for components too tangled to count exactly); `counts` is then {0: w}."""
        self.key = tuple(cons)
        signature: dict[int, int] = {}
        for index, (mask, _) in enumerate(cons):
            bit = 1 << index
            for cell in _bits(mask):
                signature[cell] = signature.get(cell, 0) | bit
        groups: dict[int, int] = {}
        for cell, sig in signature.items():
            groups[sig] = groups.get(sig, 0) | (1 << cell)
        self.box_masks = list(groups.values())
        self.box_sizes = [mask.bit_count() for mask in self.box_masks]
        box_cons = [_bits(sig) for sig in groups]
        con_boxes: list[list[int]] = [[] for _ in cons]
        for box, members in enumerate(box_cons):
            for con in members:
                con_boxes[con].append(box)
        self.order = _order_boxes(box_cons, con_boxes)
        self.exact = True
        self.shift = 0 if tilt is not None else 1
        self.forward: list[dict[tuple[int, ...], Poly]] = []
        self.transitions: list[list[tuple[tuple[int, ...], list[Move]]]] = []
        self._run(cons, box_cons, con_boxes, tilt)

    def _run(
        self,
        cons: list[Constraint],
        box_cons: list[list[int]],
        con_boxes: list[list[int]],
        tilt: float | None,
    ) -> None:
        order = self.order
        position = [0] * len(order)
        for pos, box in enumerate(order):
            position[box] = pos
        first = [min(position[b] for b in boxes) for boxes in con_boxes]
        last = [max(position[b] for b in boxes) for boxes in con_boxes]
        values = [value for _, value in cons]
        sizes = self.box_sizes

        states: dict[tuple[int, ...], Poly] = {(): {0: 1}}
        active: list[int] = []
        total_states = work = 0
        shift = self.shift
        for pos, box in enumerate(order):
            size = sizes[box]
            members = box_cons[box]
            member_set = set(members)
            index_of = {con: i for i, con in enumerate(active)}
            closing = [
                (index_of.get(con, -1), values[con]) for con in members if last[con] == pos
            ]
            nxt = [con for con in active if last[con] != pos] + [
                con for con in members if first[con] == pos and last[con] != pos
            ]
            build: list[tuple[int, int, bool]] = []
            bounds: list[tuple[int, int, int]] = []
            for con in nxt:
                src = index_of.get(con, -1)
                affected = con in member_set
                build.append((src, values[con], affected))
                if affected:
                    cap = sum(sizes[b] for b in con_boxes[con] if position[b] > pos)
                    bounds.append((src, values[con], cap))
            affects = [affected for _, _, affected in build]
            combs: list[float] = [math.comb(size, x) for x in range(size + 1)]
            if tilt is not None:
                combs = [c * tilt**x for x, c in enumerate(combs)]

            step: list[tuple[tuple[int, ...], list[Move]]] = []
            new_states: dict[tuple[int, ...], Poly] = {}
            for state, poly in states.items():
                low, high = 0, size
                for src, init in closing:
                    need = state[src] if src >= 0 else init
                    if need > low:
                        low = need
                    if need < high:
                        high = need
                for src, init, cap in bounds:
                    need = state[src] if src >= 0 else init
                    if need < high:
                        high = need
                    if need - cap > low:
                        low = need - cap
                moves: list[Move] = []
                if low <= high:
                    base = [state[src] if src >= 0 else init for src, init, _ in build]
                    for x in range(low, high + 1):
                        if x:
                            nstate = tuple(
                                [b - x if a else b for b, a in zip(base, affects, strict=True)]
                            )
                        else:
                            nstate = tuple(base)
                        c = combs[x]
                        moves.append((x, c, nstate))
                        target = new_states.get(nstate)
                        if target is None:
                            target = new_states[nstate] = {}
                        kx0 = x * shift
                        for k, ways in poly.items():
                            kx = k + kx0
                            target[kx] = target.get(kx, 0) + ways * c
                        work += len(poly)
                step.append((state, moves))
            self.forward.append(states)
            self.transitions.append(step)
            states = new_states
            active = nxt
            total_states += len(states)
            if (work > WORK_LIMIT and tilt is None) or total_states > STATE_LIMIT:
                self.exact = False
                break
        self.forward.append(states)
        if self.exact and not states:
            raise Contradiction("no layout of mines fits these numbers")
        self.counts: Poly = states.get((), {}) if self.exact else {}

    def box_weights(self, weight: Poly) -> list[float]:
        """For each box: sum over solutions of (mines in the box) * weight[mines in all]."""
        result: list[float] = [0] * len(self.box_masks)
        shift = self.shift
        g_next: dict[tuple[int, ...], Poly] = {
            (): {k: weight.get(k, 0) for k in self.forward[-1].get((), {})}
        }
        for pos in range(len(self.order) - 1, -1, -1):
            forward = self.forward[pos]
            g_cur: dict[tuple[int, ...], Poly] = {}
            expected: float = 0
            for state, moves in self.transitions[pos]:
                poly = forward[state]
                gs: Poly = {}
                targets = [(x, c, g_next.get(nstate)) for x, c, nstate in moves]
                for k, ways in poly.items():
                    g: float = 0
                    ex: float = 0
                    for x, c, gn in targets:
                        if gn is not None:
                            value = gn.get(k + x * shift)
                            if value:
                                w = c * value
                                g += w
                                ex += x * w
                    gs[k] = g
                    if ex:
                        expected += ways * ex
                g_cur[state] = gs
            result[self.order[pos]] = expected
            g_next = g_cur
        return result


@lru_cache(maxsize=1 << 16)
def _comb(n: int, k: int) -> int:
    return math.comb(n, k)


def _local_average(cons: Iterable[Constraint]) -> dict[int, float]:
    """Each cell's mean over its numbers of (mines left / cells left): a crude estimate."""
    sums: dict[int, float] = {}
    hits: dict[int, int] = {}
    for mask, value in cons:
        cells = _bits(mask)
        for cell in cells:
            sums[cell] = sums.get(cell, 0.0) + value / len(cells)
            hits[cell] = hits.get(cell, 0) + 1
    return {cell: sums[cell] / hits[cell] for cell in sums}


def _convolve(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            out[ka + kb] = out.get(ka + kb, 0) + va * vb
    return out


def _components(cons: list[Constraint]) -> list[list[Constraint]]:
    """Split constraints into groups that share no cells."""
    parent = list(range(len(cons)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for index, (mask, _) in enumerate(cons):
        for cell in _bits(mask):
            other = owner.get(cell)
            if other is None:
                owner[cell] = index
            else:
                ra, rb = find(index), find(other)
                if ra != rb:
                    parent[ra] = rb
    groups: dict[int, list[Constraint]] = {}
    for index, con in enumerate(cons):
        groups.setdefault(find(index), []).append(con)
    return list(groups.values())


class _Engine:
    """Exact mine probabilities for a reduced position.

    The components are independent groups of constraints on undetermined cells,
    `interior` the number of other undetermined closed cells (touching no number) and
    `mines` the mines left among all undetermined cells. `total` is the number of
    layouts that fit; the probability of a cell in box b of component c is
    weights(c)[b] / (size * total), of an interior cell interior_weight / total.
    """

    def __init__(
        self, comps: list[_Component], interior: int, mines: int, extra: Poly | None = None
    ) -> None:
        """`extra`: the solution counts of further components, not listed (no marginals)."""
        self.interior = interior
        self.mines = mines
        self.components = comps
        self.exact = all(comp.exact for comp in comps)
        self._weights: dict[int, list[float]] = {}
        if not self.exact:
            self._approximate()
            return
        prefix: list[Poly] = [extra if extra is not None else {0: 1}]
        for comp in comps:
            prefix.append(_convolve(prefix[-1], comp.counts))
        self.prefix = prefix
        self.suffix: list[Poly] | None = None
        full = prefix[-1]
        total = sum(ways * self.ways_inside(mines - k) for k, ways in full.items())
        if total == 0:
            raise Contradiction("no layout fits the numbers and the mine count")
        self.total = total
        if interior:
            self.interior_weight = sum(
                ways * _comb(interior - 1, mines - k - 1)
                for k, ways in full.items()
                if 0 <= mines - k - 1 < interior
            )
        else:
            self.interior_weight = 0

    @classmethod
    def of(cls, cons: list[Constraint], interior: int, mines: int) -> _Engine:
        return cls([_Component(sorted(group)) for group in _components(cons)], interior, mines)

    def ways_inside(self, n: int) -> int:
        return _comb(self.interior, n) if 0 <= n <= self.interior else 0

    def _suffix(self) -> list[Poly]:
        if self.suffix is None:
            suffix: list[Poly] = [{0: 1}]
            for comp in reversed(self.components):
                suffix.append(_convolve(suffix[-1], comp.counts))
            self.suffix = suffix[::-1]
        return self.suffix

    def excluding(self, indices: set[int]) -> Poly:
        """Solution counts of all components but `indices` (and of `extra`)."""
        low, high = min(indices), max(indices)
        poly = self.prefix[low]
        for index in range(low + 1, high):
            if index not in indices:
                poly = _convolve(poly, self.components[index].counts)
        return _convolve(poly, self._suffix()[high + 1])

    def weights(self, index: int) -> list[float]:
        """For each box of component `index`: the layouts that fit, counted by mines in it."""
        found = self._weights.get(index)
        if found is not None:
            return found
        comps = self.components
        others = _convolve(self.prefix[index], self._suffix()[index + 1])
        mines = self.mines
        weight: Poly = {}
        for k in comps[index].counts:
            weight[k] = sum(ways * self.ways_inside(mines - k - ko) for ko, ways in others.items())
        found = self._weights[index] = comps[index].box_weights(weight)
        return found

    def _approximate(self) -> None:
        """A fallback for fronts too tangled to count exactly (not exact, proves nothing).

        Every component is swept again with each mine weighing rho / 1 instead of being
        counted, rho fitted to the density of the mines left (the grand canonical
        approximation of the binomial weights); a component too big even for that gets
        local averages of its numbers.
        """
        self.total = 1
        self.interior_weight = 0
        cells = sum(size for comp in self.components for size in comp.box_sizes)
        density = min(max(self.mines / max(cells + self.interior, 1), 1e-6), 1 - 1e-6)
        rho = density / (1 - density)
        self.approx: dict[int, float] = {}
        for comp in self.components:
            if comp.exact:
                total = sum(ways * rho**k for k, ways in comp.counts.items())
                weights = comp.box_weights({k: rho**k for k in comp.counts})
                masks, sizes = comp.box_masks, comp.box_sizes
            else:
                tilted = _Component(list(comp.key), tilt=rho)
                total = tilted.counts.get(0, 0) if tilted.exact else 0
                weights = tilted.box_weights({0: 1.0}) if total else []
                masks, sizes = tilted.box_masks, tilted.box_sizes
            if not total or not math.isfinite(total):
                self.approx.update(_local_average(comp.key))
                continue
            for mask, size, weight in zip(masks, sizes, weights, strict=True):
                for cell in _bits(mask):
                    self.approx[cell] = weight / (size * total)
        self.approx = {cell: min(max(p, 1e-6), 1 - 1e-6) for cell, p in self.approx.items()}
        left = self.mines - sum(self.approx.values())
        self.approx_interior = min(max(left / self.interior, 0.0), 1.0) if self.interior else 0.0

    def interior_probability(self) -> float:
        if not self.interior:
            return 0.0
        if not self.exact:
            return self.approx_interior
        return self.interior_weight / self.total

    def probabilities(self) -> dict[int, float]:
        """Mine probability of each front cell."""
        if not self.exact:
            return dict(self.approx)
        probs: dict[int, float] = {}
        total = self.total
        for index, comp in enumerate(self.components):
            weights = self.weights(index)
            for mask, size, weight in zip(comp.box_masks, comp.box_sizes, weights, strict=True):
                p = weight / (size * total)
                for cell in _bits(mask):
                    probs[cell] = p
        return probs

    def settled(self, indices: Iterable[int] | None = None) -> tuple[int, int, int]:
        """(front cells proven safe, proven mines, interior: 0 open, 1 all safe, 2 all mines)."""
        safe = mine = 0
        if not self.exact:
            return 0, 0, 0
        total = self.total
        for index in range(len(self.components)) if indices is None else indices:
            comp = self.components[index]
            weights = self.weights(index)
            for mask, size, weight in zip(comp.box_masks, comp.box_sizes, weights, strict=True):
                if weight == 0:
                    safe |= mask
                elif weight == size * total:
                    mine |= mask
        interior = 0
        if self.interior:
            if self.interior_weight == 0:
                interior = 1
            elif self.interior_weight == total:
                interior = 2
        return safe, mine, interior


# -- knowledge of one board -------------------------------------------------------------


class _Knowledge:
    """What the solver knows of a board: the numbers shown and what it has proven."""

    def __init__(self, rows: int, cols: int, mines: int, known: Sequence[int] | None = None):
        self.rows, self.cols, self.mines = rows, cols, mines
        self.size = rows * cols
        self.around, self.around_mask = _geometry(rows, cols)
        self.known = [UNKNOWN] * self.size if known is None else list(known)
        if len(self.known) != self.size:
            raise ValueError(f"expected {self.size} cells, got {len(self.known)}")
        self.closed = 0
        self.border: set[int] = set()
        for cell, value in enumerate(self.known):
            if value == UNKNOWN:
                self.closed |= 1 << cell
            elif not 0 <= value <= 8:
                raise ValueError(f"cell {cell} shows {value}, not a number from 0 to 8")
            else:
                self.border.add(cell)
        self.mine = 0  # closed cells proven mines
        self.safe = 0  # closed cells proven safe
        self.engine: _Engine | None = None  # the last probability run (when stuck)
        self.interior_mask = 0

    def reveal(self, cell: int, value: int) -> None:
        self.known[cell] = value
        bit = 1 << cell
        self.closed &= ~bit
        self.safe &= ~bit
        if self.mine & bit:
            raise Contradiction(f"cell {cell} was proven a mine but shows {value}")
        self.border.add(cell)

    @property
    def undetermined(self) -> int:
        return self.closed & ~self.mine & ~self.safe

    @property
    def mines_left(self) -> int:
        return self.mines - self.mine.bit_count()

    def constraints(self) -> list[Constraint]:
        free = self.undetermined
        mine = self.mine
        known = self.known
        masks = self.around_mask
        cons: list[Constraint] = []
        done: list[int] = []
        for cell in self.border:
            around = masks[cell]
            mask = around & free
            if mask:
                cons.append((mask, known[cell] - (around & mine).bit_count()))
            else:
                if known[cell] != (around & mine).bit_count():
                    raise Contradiction(f"the number at cell {cell} cannot be right")
                done.append(cell)
        for cell in done:
            self.border.discard(cell)
        return cons

    def deduce(self, engine: bool = True) -> int:
        """Prove what can be proven; return the closed cells proven safe (maybe none).

        The single and pairwise rules first; only if they find no safe cell (and
        `engine`), the probability engine, which is kept in `self.engine`.
        """
        if self.safe:
            return self.safe
        self.engine = None
        cons = self.simple()
        if not self.safe and engine and self.undetermined:
            self.run_engine(cons)
        return self.safe

    def simple(self) -> list[Constraint]:
        """Apply the cheap rules (and the mine count's trivial cases); the constraints left."""
        cons, safe, mine = _simple(self.constraints())
        self.safe |= safe
        self.mine |= mine
        free = self.undetermined
        left = self.mines_left
        if left < 0 or left > free.bit_count():
            raise Contradiction("the mine count cannot be right")
        if free and left == 0:
            self.safe |= free
        elif free and left == free.bit_count():
            self.mine |= free
        return cons

    def run_engine(self, cons: list[Constraint]) -> None:
        """Exact probabilities for the constraints left by `simple`; record what they prove."""
        front = 0
        for mask, _ in cons:
            front |= mask
        self.interior_mask = self.undetermined & ~front
        engine = self.engine = _Engine.of(cons, self.interior_mask.bit_count(), self.mines_left)
        safe, mine, interior = engine.settled()
        if interior == 1:
            safe |= self.interior_mask
        elif interior == 2:
            mine |= self.interior_mask
        self.safe |= safe
        self.mine |= mine

    def probabilities(self) -> dict[int, float]:
        """Mine probability of every closed cell (after `deduce` found no safe cell)."""
        probs: dict[int, float] = {}
        for cell in _bits(self.mine):
            probs[cell] = 1.0
        for cell in _bits(self.safe):
            probs[cell] = 0.0
        if self.engine is not None:
            probs.update(self.engine.probabilities())
            inside = self.engine.interior_probability()
            for cell in _bits(self.interior_mask):
                probs[cell] = inside
        return probs


# -- a fast board for simulations -------------------------------------------------------


class Field:
    """A board with its mines known, opened as the rules do (zeros flood their
    neighbours); used to play games quickly and to check layouts."""

    def __init__(self, rows: int, cols: int, mined: Iterable[int]) -> None:
        self.rows, self.cols = rows, cols
        self.around, _ = _geometry(rows, cols)
        self.mined = frozenset(mined)
        self.mine_flags = [False] * (rows * cols)
        for cell in self.mined:
            self.mine_flags[cell] = True
        self.counts = [
            sum(self.mine_flags[n] for n in self.around[cell]) for cell in range(rows * cols)
        ]
        self.opened = [False] * (rows * cols)
        self.open_count = 0
        self.exploded = False

    @property
    def cleared(self) -> bool:
        return not self.exploded and self.open_count == len(self.opened) - len(self.mined)

    def open(self, cell: int) -> list[tuple[int, int]]:
        """Open a cell: the (cell, number) pairs revealed; sets `exploded` on a mine."""
        if self.opened[cell]:
            return []
        if self.mine_flags[cell]:
            self.exploded = True
            self.opened[cell] = True
            return []
        revealed: list[tuple[int, int]] = []
        stack = [cell]
        opened, counts, around = self.opened, self.counts, self.around
        opened[cell] = True
        while stack:
            current = stack.pop()
            value = counts[current]
            revealed.append((current, value))
            if value == 0:
                for other in around[current]:
                    if not opened[other]:
                        opened[other] = True
                        stack.append(other)
        self.open_count += len(revealed)
        return revealed


# -- the public interface ---------------------------------------------------------------


def _check(rows: int, cols: int, mines: int, known: Sequence[int]) -> None:
    if rows < 1 or cols < 1:
        raise ValueError("the board needs at least one row and one column")
    if len(known) != rows * cols:
        raise ValueError(f"expected {rows * cols} cells, got {len(known)}")
    if not 0 <= mines <= rows * cols:
        raise ValueError(f"{mines} mines do not fit {rows * cols} cells")


def analyse(rows: int, cols: int, mines: int, known: Sequence[int]) -> Analysis:
    """Proven safe cells, proven mines, and the exact mine probability of every closed cell.

    Raises Contradiction (a ValueError) if no layout of `mines` mines fits the numbers.
    """
    _check(rows, cols, mines, known)
    know = _Knowledge(rows, cols, mines, known)
    know.deduce()
    if know.engine is None:  # the cheap rules found safe cells: probabilities for the rest
        cons = know.simple()
        if know.undetermined:
            know.run_engine(cons)
    probs = know.probabilities()
    for cell in _bits(know.safe):
        probs[cell] = 0.0
    for cell in _bits(know.mine):
        probs[cell] = 1.0
    return Analysis(
        safe=frozenset(_bits(know.safe)),
        mined=frozenset(_bits(know.mine)),
        probability=probs,
    )


def suggest(rows: int, cols: int, mines: int, known: Sequence[int]) -> Suggestion:
    """The solver's next move: a proven safe cell if there is one (preferring one likely
    to show a zero, so it opens an area), else its chosen guess. Deterministic.

    Raises ValueError when no closed cell is left to open, and Contradiction (a
    ValueError) when no layout fits the numbers.
    """
    _check(rows, cols, mines, known)
    know = _Knowledge(rows, cols, mines, known)
    safe = know.deduce()
    if safe:
        return Suggestion(_pick_safe(know, safe), 0.0, True)
    if not know.undetermined:
        raise ValueError("no closed cell is left to open")
    cell = _guess(know)
    return Suggestion(cell, know.probabilities()[cell], False)


def _pick_safe(know: _Knowledge, safe: int) -> int:
    """The proven safe cell likeliest to be a zero: no mine known next to it, and the
    fewest closed cells around it that are not known to be safe."""
    masks, mine, free = know.around_mask, know.mine, know.undetermined
    return min(
        _bits(safe),
        key=lambda c: (bool(masks[c] & mine), (masks[c] & free).bit_count(), c),
    )


# -- playing a whole game ---------------------------------------------------------------


class Player:
    """Plays one game: call `move` for the cells to open, `reveal` with what they show."""

    def __init__(self, rows: int, cols: int, mines: int, known: Sequence[int] | None = None):
        self.know = _Knowledge(rows, cols, mines, known)
        self.guesses = 0

    def reveal(self, cell: int, value: int) -> None:
        self.know.reveal(cell, value)

    def move(self) -> tuple[list[int], bool]:
        """The cells to open next: all proven safe ones (certain), else one guess."""
        know = self.know
        safe = know.deduce()
        if safe:
            return _bits(safe), True
        self.guesses += 1
        return [_guess(know)], False


CANDIDATE_RATIO = 0.9  # look ahead on cells at least this fraction as safe as the safest
NEAR_INTERIOR = 12  # interior cells next to the front looked at individually
BLEND = 0.2  # weight of the second safest move in the safety of the next position


ENDGAME_LAYOUTS = 400  # search the end game exactly when at most this many layouts fit
ENDGAME_NODES = 30_000  # positions the end-game search may visit before giving up


def _guess(know: _Knowledge) -> int:
    engine = know.engine
    if engine is not None and engine.exact and engine.total <= ENDGAME_LAYOUTS:
        found = _Endgame(know).best()
        if found is not None:
            return found
    return _Guesser(know).best()[0]


def _layouts(know: _Knowledge, cells: list[int]) -> list[int]:
    """Every placement of the remaining mines on `cells` (the undetermined cells) that
    fits the numbers, as bitsets over the board."""
    engine = know.engine
    assert engine is not None
    cons: list[Constraint] = [con for comp in engine.components for con in comp.key]
    index = {cell: i for i, cell in enumerate(cells)}
    of_cell: list[list[int]] = [[] for _ in cells]
    for con, (mask, _) in enumerate(cons):
        for cell in _bits(mask):
            of_cell[index[cell]].append(con)
    need = [value for _, value in cons]  # mines still to place around each number
    room = [mask.bit_count() for mask, _ in cons]  # its cells not yet decided
    out: list[int] = []
    bits = [1 << cell for cell in cells]
    total = len(cells)

    def place(pos: int, left: int, layout: int) -> None:
        if pos == total:
            if left == 0:
                out.append(layout)
            return
        if total - pos < left:
            return
        mine_ok = left > 0
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

    place(0, know.mines_left, 0)
    return out


class _Endgame:
    """The exact best guess when few layouts remain: every layout is equally likely, and
    the search finds the move that wins most often with the best play after it."""

    def __init__(self, know: _Knowledge) -> None:
        self.know = know
        engine = know.engine
        assert engine is not None
        front = 0
        for comp in engine.components:
            for mask, _ in comp.key:
                front |= mask
        self.cells = _bits(front) + _bits(know.interior_mask & know.undetermined)
        self.layouts = _layouts(know, self.cells)
        self.nodes = 0
        self.memo: dict[int, float] = {}
        count = len(self.layouts)
        # per cell: the layouts where it is a mine, and where it shows each number
        self.mine_sets: list[int] = []
        self.value_sets: list[list[int]] = []
        masks = know.around_mask
        for cell in self.cells:
            around = masks[cell]
            base = (around & know.mine).bit_count()
            mine_set = 0
            by_value: dict[int, int] = {}
            for j, layout in enumerate(self.layouts):
                if layout >> cell & 1:
                    mine_set |= 1 << j
                else:
                    v = base + (layout & around).bit_count()
                    by_value[v] = by_value.get(v, 0) | (1 << j)
            self.mine_sets.append(mine_set)
            self.value_sets.append(list(by_value.values()))
        self.all = (1 << count) - 1

    def best(self) -> int | None:
        if not self.layouts:
            return None
        try:
            _, move = self.solve(self.all)
        except _TooBig:
            return None
        return None if move < 0 else self.cells[move]

    def win(self, layouts: int) -> float:
        found = self.memo.get(layouts)
        if found is None:
            found = self.memo[layouts] = self.solve(layouts)[0]
        return found

    def solve(self, layouts: int) -> tuple[float, int]:
        """(chance to win with best play, the move) among the given layouts."""
        self.nodes += 1
        if self.nodes > ENDGAME_NODES:
            raise _TooBig
        count = layouts.bit_count()
        if count == 1:
            return 1.0, -1
        moves: list[tuple[int, int, list[int]]] = []
        dead = -1
        for index in range(len(self.cells)):
            safe_part = layouts & ~self.mine_sets[index]
            if not safe_part:
                continue
            classes = [part for part in (layouts & v for v in self.value_sets[index]) if part]
            if len(classes) == 1:
                if safe_part != layouts and dead < 0:
                    dead = index
                continue
            if safe_part == layouts:  # safe, and it tells something: always worth playing
                return sum(c.bit_count() * self.win(c) for c in classes) / count, index
            moves.append((safe_part.bit_count(), index, classes))
        if not moves:
            return 1.0 / count, dead
        moves.sort(key=lambda m: (-m[0], m[1]))
        best, best_move = -1.0, moves[0][1]
        for safe_count, index, classes in moves:
            if safe_count <= best * count + 1e-12:
                break
            value = 0.0
            for part in sorted(classes, key=int.bit_count, reverse=True):
                value += part.bit_count() * self.win(part)
            value /= count
            if value > best + 1e-12:
                best, best_move = value, index
        return best, best_move


class _TooBig(Exception):
    pass


class _Guesser:
    """Chooses a guess: the cell that maximises the chance of surviving it and the move
    after it (a certain move when the number it shows lets the solver prove a safe cell,
    else the safest cell then), over the candidates nearly as safe as the safest."""

    def __init__(self, know: _Knowledge) -> None:
        self.know = know
        self.free = know.undetermined
        self.mines_left = know.mines_left
        engine = know.engine
        self.engine = engine
        self.probs = know.probabilities()
        self.cell_comp: dict[int, int] = {}
        self.comp_best: list[tuple[float, int]] = []
        if engine is not None and engine.exact:
            for index, comp in enumerate(engine.components):
                best = 0.0
                for mask in comp.box_masks:
                    for cell in _bits(mask):
                        self.cell_comp[cell] = index
                        best = max(best, 1.0 - self.probs[cell])
                self.comp_best.append((best, index))
            self.comp_best.sort(reverse=True)

    def prior(self, cell: int) -> int:
        """Fewer undetermined neighbours: likelier to show a zero or a small number."""
        return (self.know.around_mask[cell] & self.free).bit_count()

    def candidates(self, ratio: float = 0.9) -> list[int]:
        """Front cells at least `ratio` times as safe as the safest cell, and if the
        interior is that safe, one interior cell of each shape (neighbours closed and
        known mines) away from the front and the likeliest zeros next to it."""
        know, probs, free = self.know, self.probs, self.free
        cells = _bits(free)
        best = max(1.0 - probs[cell] for cell in cells)
        floor = best * ratio - 1e-12
        chosen = [c for c in cells if c in self.cell_comp and 1.0 - probs[c] >= floor]
        interior = know.interior_mask & free
        if interior and 1.0 - probs[_bits(interior)[0]] >= floor:
            pure: dict[tuple[int, int], int] = {}
            near: list[int] = []
            front = free & ~interior
            for cell in _bits(interior):
                around = know.around_mask[cell]
                if around & front:
                    near.append(cell)
                else:
                    key = ((around & free).bit_count(), (around & know.mine).bit_count())
                    pure.setdefault(key, cell)
            near.sort(key=lambda c: (self.prior(c), c))
            chosen.extend(pure.values())
            chosen.extend(near[:NEAR_INTERIOR])
        return chosen

    def best(self) -> tuple[int, float]:
        """(cell, mine probability) of the chosen guess."""
        probs = self.probs
        engine = self.engine
        exact = engine is not None and engine.exact
        cells = self.candidates(CANDIDATE_RATIO) if exact else []
        if not cells:
            cell = min(_bits(self.free), key=lambda c: (probs[c], self.prior(c), c))
            return cell, probs[cell]
        best, dead = self.pick(cells)
        if best < 0:  # every candidate is dead: is any cell at all living?
            seen = set(cells)
            best, _ = self.pick([c for c in self.candidates(0.0) if c not in seen])
        if best < 0:
            best = dead
        return best, probs[best]

    def pick(self, cells: list[int]) -> tuple[int, int]:
        """The best living candidate (-1 if none) and the best dead one (-1 if none).

        A dead cell shows a number known in advance if it is safe: opening it first can
        never do better than opening it last, so it is only played when all are dead.
        """
        probs = self.probs
        cells = sorted(cells, key=lambda c: (probs[c], self.prior(c), c))
        best, best_score = -1, -1.0
        dead, dead_score = -1, -1.0
        for cell in cells:
            safety = 1.0 - probs[cell]
            if safety < best_score - 1e-9:
                break  # no later candidate can score more than its own safety
            score, values = self.score(cell, best_score)
            if values == 1:
                if score > dead_score + 1e-9:
                    dead, dead_score = cell, score
            elif score > best_score + 1e-9:
                best, best_score = cell, score
        return best, dead

    def score(self, cell: int, to_beat: float) -> tuple[float, int]:
        """(P(cell is safe, and the move after it is survived), the numbers it may show);
        once the score cannot reach to_beat, an upper bound of it and -1."""
        assert self.engine is not None
        total = self.engine.total
        left = 1.0 - self.probs[cell]
        score = 0.0
        values = 0
        around = self.know.around_mask[cell] & self.free & ~(1 << cell)
        for value in range(around.bit_count() + 1):
            ways, safety = self.after(cell, value)
            if ways:
                values += 1
                share = ways / total
                score += share * safety
                left -= share
            if score + left < to_beat - 1e-9:
                return score + max(left, 0.0), -1
        return score, values

    def after(self, cell: int, value: int) -> tuple[float, float]:
        """If `cell` opens showing `value` more mines than known around it: the number of
        layouts that allow it, and the safety of the best move then (1 if certain)."""
        know = self.know
        engine = self.engine
        assert engine is not None
        bit = 1 << cell
        around = know.around_mask[cell] & self.free & ~bit
        comps = engine.components
        affected = {self.cell_comp[c] for c in _bits(around | bit) if c in self.cell_comp}
        local: list[Constraint] = [(around, value)]
        for index in affected:
            for mask, number in comps[index].key:
                local.append((mask & ~bit, number))
        try:
            cons, safe, mine = _simple(local)
            interior = (know.interior_mask & ~around & ~bit).bit_count()
            left = self.mines_left - mine.bit_count()
            new = [_Component(group) for group in _components(cons)]
            kept = engine.excluding(affected) if affected else engine.prefix[-1]
            result = _Engine(new, interior, left, kept)
        except Contradiction:
            return 0, 0.0
        if not result.exact:
            return 0, 0.0
        ways = result.total
        if safe or left == 0:
            return ways, 1.0
        fresh = range(len(new))
        proven, _, inside = result.settled(fresh)
        if proven or inside == 1:
            return ways, 1.0
        options: list[float] = []
        for index in fresh:
            comp = result.components[index]
            for size, weight in zip(comp.box_sizes, result.weights(index), strict=True):
                options.append(1.0 - weight / (size * ways))
        if interior:
            options += [1.0 - result.interior_probability()] * min(interior, 2)
        found = 0
        for safety, index in self.comp_best:
            if index not in affected:
                options.append(safety)
                found += 1
                if found == 2:
                    break
        if not options:
            return ways, 0.0
        options.sort(reverse=True)
        if len(options) == 1 or not BLEND:
            return ways, options[0]
        return ways, (1 - BLEND) * options[0] + BLEND * options[1]


# -- boards that need no guess ----------------------------------------------------------


class _Run:
    """The solver playing a board whose mines it does not see, opening only proven
    safe cells; the board may be changed under it (see `_perturb`)."""

    def __init__(self, rows: int, cols: int, mined: Iterable[int], first: int) -> None:
        size = rows * cols
        self.around, self.around_mask = _geometry(rows, cols)
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
        self.know = _Knowledge(rows, cols, sum(flags))
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
            for cell in _bits(safe):
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
    interior = _bits(free & ~front)
    flags = run.mine_flags
    empty_inside = [c for c in interior if not flags[c]]
    full_inside = [c for c in interior if flags[c]]
    for witness in rng.sample(witnesses, min(len(witnesses), 8)):
        target = masks[witness] & free
        cells = _bits(target)
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
        others = [c for c in _bits(free & ~target) if not flags[c]]
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
    wall = [c for c in _bits(run.know.mine) if masks[c] & free]
    if not wall:
        return False
    touched = 0
    for cell, opened in enumerate(run.opened):
        if opened:
            touched |= masks[cell]
    holes = [c for c in _bits(free & ~touched) if not flags[c]]
    holes = holes or [c for c in _bits(free) if not flags[c]]
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
    around, _ = _geometry(rows, cols)
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
        f"no no-guess {rows}x{cols} board with {mines} mine{'' if mines == 1 else 's'} was "
        "found for this first click: choose another first click, fewer or more mines, or "
        "another board size"
    )


SAFE_CLICK = (0, 0)
OPENING_CLICK = (2, 2)  # (row, col) from the nearest corner, for the 'opening' first click


def first_click(rows: int, cols: int, mines: int, rule: str = "safe") -> int:
    """Where the solver clicks first on an empty board.

    With `safe` (only the clicked cell is mine-free) a corner, which has the fewest
    neighbours and so is the likeliest to be a zero; with `opening` (the clicked cell
    and its neighbours are mine-free) a cell near a corner, whose opening reaches the
    edges (measured by bench/minesweeper_solver.py).
    """
    row, col = OPENING_CLICK if rule == "opening" else SAFE_CLICK
    return min(row, rows - 1) * cols + min(col, cols - 1)
