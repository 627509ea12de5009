"""What a Minesweeper position proves: safe cells, mines, and the exact mine probability
of every closed cell.

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

The solver's moves (`solver.py`) and the no-guess boards (`noguess.py`) build on
`Knowledge`, the `Engine` and the bitset helpers here; names with an underscore are this
module's own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

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


# -- bitsets ----------------------------------------------------------------------------


def bits_of(mask: int) -> list[int]:
    """The cells in a bitset, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@cache
def geometry(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
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
        cells = bits_of(mask)
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


def simplify(
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


class Component:
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

    def __init__(
        self, cons: list[Constraint], tilt: float | None = None, work_limit: int = WORK_LIMIT
    ) -> None:
        """`tilt`: count approximately, each mine weighing `tilt` instead of being
        counted (for components too tangled to count exactly); `counts` is then {0: w}.
        `work_limit`: steps of the exact count before giving up (`exact` is then False)."""
        self.key = tuple(cons)
        signature: dict[int, int] = {}
        for index, (mask, _) in enumerate(cons):
            bit = 1 << index
            for cell in bits_of(mask):
                signature[cell] = signature.get(cell, 0) | bit
        groups: dict[int, int] = {}
        for cell, sig in signature.items():
            groups[sig] = groups.get(sig, 0) | (1 << cell)
        self.box_masks = list(groups.values())
        self.box_sizes = [mask.bit_count() for mask in self.box_masks]
        box_cons = [bits_of(sig) for sig in groups]
        con_boxes: list[list[int]] = [[] for _ in cons]
        for box, members in enumerate(box_cons):
            for con in members:
                con_boxes[con].append(box)
        self.order = _order_boxes(box_cons, con_boxes)
        self.exact = True
        self.shift = 0 if tilt is not None else 1
        self.forward: list[dict[tuple[int, ...], Poly]] = []
        self.transitions: list[list[tuple[tuple[int, ...], list[Move]]]] = []
        self._run(cons, box_cons, con_boxes, tilt, work_limit)

    def _run(
        self,
        cons: list[Constraint],
        box_cons: list[list[int]],
        con_boxes: list[list[int]],
        tilt: float | None,
        work_limit: int,
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
            if (work > work_limit and tilt is None) or total_states > STATE_LIMIT:
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
        cells = bits_of(mask)
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


def groups_of(cons: list[Constraint]) -> list[list[Constraint]]:
    """Split constraints into groups that share no cells."""
    parent = list(range(len(cons)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for index, (mask, _) in enumerate(cons):
        for cell in bits_of(mask):
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


class Engine:
    """Exact mine probabilities for a reduced position.

    The components are independent groups of constraints on undetermined cells,
    `interior` the number of other undetermined closed cells (touching no number) and
    `mines` the mines left among all undetermined cells. `total` is the number of
    layouts that fit; the probability of a cell in box b of component c is
    weights(c)[b] / (size * total), of an interior cell interior_weight / total.
    """

    def __init__(
        self, comps: list[Component], interior: int, mines: int, extra: Poly | None = None
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
    def of(cls, cons: list[Constraint], interior: int, mines: int) -> Engine:
        return cls([Component(sorted(group)) for group in groups_of(cons)], interior, mines)

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
                tilted = Component(list(comp.key), tilt=rho)
                total = tilted.counts.get(0, 0) if tilted.exact else 0
                weights = tilted.box_weights({0: 1.0}) if total else []
                masks, sizes = tilted.box_masks, tilted.box_sizes
            if not total or not math.isfinite(total):
                self.approx.update(_local_average(comp.key))
                continue
            for mask, size, weight in zip(masks, sizes, weights, strict=True):
                for cell in bits_of(mask):
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
                for cell in bits_of(mask):
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


class Knowledge:
    """What the solver knows of a board: the numbers shown and what it has proven."""

    def __init__(self, rows: int, cols: int, mines: int, known: Sequence[int] | None = None):
        self.rows, self.cols, self.mines = rows, cols, mines
        self.size = rows * cols
        self.around, self.around_mask = geometry(rows, cols)
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
        self.engine: Engine | None = None  # the last probability run (when stuck)
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
        cons, safe, mine = simplify(self.constraints())
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
        engine = self.engine = Engine.of(cons, self.interior_mask.bit_count(), self.mines_left)
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
        for cell in bits_of(self.mine):
            probs[cell] = 1.0
        for cell in bits_of(self.safe):
            probs[cell] = 0.0
        if self.engine is not None:
            probs.update(self.engine.probabilities())
            inside = self.engine.interior_probability()
            for cell in bits_of(self.interior_mask):
                probs[cell] = inside
        return probs


# -- the public interface ---------------------------------------------------------------


def check_known(rows: int, cols: int, mines: int, known: Sequence[int]) -> None:
    """Raise ValueError unless `known` is a position of a rows x cols board with `mines`."""
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
    check_known(rows, cols, mines, known)
    know = Knowledge(rows, cols, mines, known)
    know.deduce()
    if know.engine is None:  # the cheap rules found safe cells: probabilities for the rest
        cons = know.simple()
        if know.undetermined:
            know.run_engine(cons)
    probs = know.probabilities()
    for cell in bits_of(know.safe):
        probs[cell] = 0.0
    for cell in bits_of(know.mine):
        probs[cell] = 1.0
    return Analysis(
        safe=frozenset(bits_of(know.safe)),
        mined=frozenset(bits_of(know.mine)),
        probability=probs,
    )
