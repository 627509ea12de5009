"""Ishido hints: where to put the next tile so that all 72 tiles go down, and it scores.

The solver knows what the player knows: the board, the next tile and the multiset of
tiles still to come (every tile exists twice, so the player can count what has been
played: `remaining_after_next`). It never reads the pouch's order.

Every placement of the next tile is judged by a heuristic over the board it leaves; the
best `WIDTH` are then searched one draw deeper: the tile after is drawn from the
multiset still to come, each kind with its share, and put at its own best cell
(expectimax of depth 1; a draw that fits nowhere is worth `Weights.loss`).

The heuristic (`evaluate`), for the tiles still to come:

* risk: a kind with nowhere to go loses the game if it is drawn next, and few places
  for the copies left are a risk too (weighted by the number of copies to come);
* dead cells: an empty cell next to tiles that fits none of the tiles to come is lost
  space (a game leaves 24 cells empty, so it can afford some);
* 4-ways: a cell closed on four sides where a tile to come fits is a 4-way waiting
  (each needs its own tile to come); an inner cell with three
  neighbours may become one, worth more the more tiles to come would close it into a
  live 4-way (`_completions`); making a 4-way is worth more than one waiting;
* under the classic rules a tile's points count too, in 4-ways (the outer ring scores
  nothing; each 4-way doubles later points), and the last tile takes the most points.

The weights (`SEED`, `CLASSIC`) were tuned by playing thousands of deals; see
`bench/ishido_solver.py` for the figures.

The rules run on a fast board (`Position`): per-cell masks of the 36 kinds that fit,
updated incrementally as tiles are placed and taken back, and bit-sliced per-kind
counts of places. `fit_mask` follows `logic.fits` exactly (the tests check it on many
random boards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.core.game import Hint, counted
from parlour.games.ishido.logic import (
    COLS,
    FOUR_WAY_BONUS,
    KINDS,
    NEIGHBOURS,
    OUTER_RING,
    ROWS,
    Board,
    Tile,
)

CELLS = COLS * ROWS
TYPES = KINDS * KINDS  # 36 kinds of tile, two of each
EMPTY = -1
ALL_TYPES = (1 << TYPES) - 1

_COLOUR_MASK = tuple(
    sum(1 << u for u in range(TYPES) if u // KINDS == t // KINDS) for t in range(TYPES)
)
_GLYPH_MASK = tuple(
    sum(1 << u for u in range(TYPES) if u % KINDS == t % KINDS) for t in range(TYPES)
)
_INTERIOR = tuple(cell not in OUTER_RING for cell in range(CELLS))


# -- the rules, fast --------------------------------------------------------------------

_MATCH = tuple(_COLOUR_MASK[t] | _GLYPH_MASK[t] for t in range(TYPES))
_ONLY_COLOUR = tuple(_COLOUR_MASK[t] & ~_GLYPH_MASK[t] for t in range(TYPES))
_ONLY_GLYPH = tuple(_GLYPH_MASK[t] & ~_COLOUR_MASK[t] for t in range(TYPES))


def fit_mask(around: Sequence[Tile], classic: bool) -> int:
    """The kinds of tile that fit a cell whose neighbours are `around`, as bits.

    Seed rules: the tile matches every neighbour in colour or glyph. Classic rules: and
    no more than half the neighbours (rounded up) match it by colour only, nor by glyph
    only (a neighbour matching both counts as either): that is the 1990 pairing, 1-1
    with two neighbours, 2-1 or 1-2 with three, 2-2 with four.
    """
    count = len(around)
    if not count:
        return 0
    mask = ALL_TYPES
    for tile in around:
        mask &= _MATCH[tile]
    if not classic or count == 1 or not mask:
        return mask
    oc, og = _ONLY_COLOUR, _ONLY_GLYPH
    if count == 2:
        a, b = around
        bad = (oc[a] & oc[b]) | (og[a] & og[b])
    elif count == 3:
        a, b, c = around
        bad = (oc[a] & oc[b] & oc[c]) | (og[a] & og[b] & og[c])
    else:  # three of four by the same attribute only
        a, b, c, d = around
        bad = (oc[a] & oc[b] & (oc[c] | oc[d])) | (oc[c] & oc[d] & (oc[a] | oc[b]))
        bad |= (og[a] & og[b] & (og[c] | og[d])) | (og[c] & og[d] & (og[a] | og[b]))
    return mask & ~bad


def fast_fits(cells: Sequence[Tile | None], cell: int, tile: Tile, rules: str) -> int:
    """Same answer as `logic.fits`: the neighbour count if `tile` may go on `cell`, else 0."""
    if cells[cell] is not None:
        return 0
    around = [t for n in NEIGHBOURS[cell] if (t := cells[n]) is not None]
    return len(around) if fit_mask(around, rules == "classic") >> tile & 1 else 0


LEVELS = 7  # bit-sliced place counters: up to 127 places per kind


class Position:
    """A board for search: tiles, fit masks and place counts, with place and undo.

    `count[i]` holds bit i of every kind's number of places (36 kinds side by side in
    each int), so "which kinds have exactly one place" is a few bit operations.
    `front` is the set of empty cells that touch a tile.
    """

    __slots__ = ("_undo", "cells", "classic", "count", "front", "masks", "near", "rules")

    def __init__(self, cells: Sequence[Tile | None], rules: str) -> None:
        self.rules = rules
        self.classic = rules == "classic"
        self.cells = [EMPTY if t is None else t for t in cells]
        self.near = [0] * CELLS  # how many neighbours each cell has
        self.masks = [0] * CELLS  # kinds that fit each empty cell
        self.count = [0] * LEVELS
        self.front: set[int] = set()
        self._undo: list[tuple[int, tuple[int, ...], list[tuple[int, int]], list[int]]] = []
        for cell in range(CELLS):
            self.near[cell] = sum(self.cells[n] != EMPTY for n in NEIGHBOURS[cell])
            if self.cells[cell] == EMPTY and self.near[cell]:
                self.front.add(cell)
                self.masks[cell] = mask = self._mask_of(cell)
                _add(self.count, mask)

    def _mask_of(self, cell: int) -> int:
        cells = self.cells
        return fit_mask([t for n in NEIGHBOURS[cell] if (t := cells[n]) != EMPTY], self.classic)

    def places(self, kind: int) -> int:
        """How many empty cells `kind` fits."""
        return sum(((level >> kind) & 1) << i for i, level in enumerate(self.count))

    def cells_for(self, kind: int) -> list[int]:
        """The cells where a tile of `kind` may go, in increasing order."""
        masks = self.masks
        return sorted(cell for cell in self.front if masks[cell] >> kind & 1)

    def place(self, cell: int, tile: Tile) -> None:
        cells, masks, count, near, front = self.cells, self.masks, self.count, self.near, self.front
        changed = [(cell, masks[cell])]
        opened: list[int] = []
        self._undo.append((cell, tuple(count), changed, opened))
        cells[cell] = tile
        _sub(count, masks[cell])
        masks[cell] = 0
        front.discard(cell)
        for n in NEIGHBOURS[cell]:
            near[n] += 1
            if cells[n] == EMPTY:
                if n not in front:
                    front.add(n)
                    opened.append(n)
                old = masks[n]
                new = self._mask_of(n)
                if new != old:
                    changed.append((n, old))
                    masks[n] = new
                    _sub(count, old & ~new)
                    _add(count, new & ~old)

    def undo(self) -> None:
        cell, count, changed, opened = self._undo.pop()
        self.count[:] = count
        self.cells[cell] = EMPTY
        near, masks, front = self.near, self.masks, self.front
        for n in NEIGHBOURS[cell]:
            near[n] -= 1
        for where, old in changed:
            masks[where] = old
        front.difference_update(opened)
        front.add(cell)


def _add(count: list[int], bits: int) -> None:
    """Add one to the counters of the kinds in `bits` (ripple carry)."""
    for level in range(LEVELS):
        carry = count[level] & bits
        count[level] ^= bits
        bits = carry
        if not bits:
            return


def _sub(count: list[int], bits: int) -> None:
    """Take one from the counters of the kinds in `bits` (ripple borrow)."""
    for level in range(LEVELS):
        borrow = ~count[level] & bits
        count[level] ^= bits
        bits = borrow
        if not bits:
            return


class Stock:
    """The tiles still to come, as copies per kind and as masks of kinds with 1 or 2."""

    __slots__ = ("left", "one", "total", "two")

    def __init__(self, left: Sequence[int]) -> None:
        self.left = list(left)
        self.one = sum(1 << k for k in range(TYPES) if left[k] == 1)
        self.two = sum(1 << k for k in range(TYPES) if left[k] >= 2)
        self.total = sum(left)

    def take(self, kind: int) -> None:
        copies = self.left[kind]
        self.left[kind] = copies - 1
        self.total -= 1
        self.one ^= 1 << kind  # 2 -> 1 gains the bit, 1 -> 0 loses it
        if copies == 2:
            self.two ^= 1 << kind

    def put(self, kind: int) -> None:
        copies = self.left[kind]
        self.left[kind] = copies + 1
        self.total += 1
        self.one ^= 1 << kind
        if copies == 1:
            self.two ^= 1 << kind

    def copies(self, kinds: int) -> int:
        """How many tiles to come are of the kinds in `kinds`."""
        return (kinds & self.one).bit_count() + 2 * (kinds & self.two).bit_count()


def remaining_after_next(board: Board) -> list[int]:
    """Copies of each kind still to come after the next tile, counted from the board.

    Every kind exists twice: what is not on the board and is not the next tile is in
    the pouch. The pouch's order is never read.
    """
    left = [2] * TYPES
    for tile in board.cells:
        if tile is not None:
            left[tile] -= 1
    if board.next_tile is not None:
        left[board.next_tile] -= 1
    return left


# -- judging a position ------------------------------------------------------------------

@dataclass(frozen=True)
class Weights:
    """The heuristic's terms; a position's value is their sum (higher is better)."""

    # minus, per tile to come, by how many places its kind has: 0, 1, ... 6, 7 or more
    risk: tuple[float, ...] = (10.0, 3.0, 1.2, 0.5, 0.2, 0.08, 0.03, 0.0)
    dead: float = 1.0  # minus, per empty cell next to tiles where no tile to come fits
    neighbours: float = 0.2  # per neighbour of the tile placed
    four_way: float = 0.0  # a 4-way made
    four_way_open: float = 0.0  # a 4-way waiting, with its own tile to come
    # an inner cell with 3 neighbours, by how many tiles to come fit it: 1, 2, 3 or more
    three_open: tuple[float, float, float] = (0.0, 0.0, 0.0)
    three_live: float = 0.0  # ... when `three_live_cap` tiles to come would close it
    three_live_cap: int = 4  # into a 4-way for a tile to come (pro rata below)
    points: float = 0.0  # classic: a tile's points, counted in 4-ways (see `_gain`)
    loss: float = 60.0  # minus, in the search, for a draw that fits nowhere

    @property
    def scores_ways(self) -> bool:
        return bool(self.four_way_open or self.three_live or any(self.three_open))


SEED = Weights(four_way=4, four_way_open=3, three_open=(0.2, 0.4, 0.5), three_live=1)
CLASSIC = Weights(
    four_way=10.4, four_way_open=6.5, three_open=(0.39, 0.78, 1.04), three_live=2.6, points=1
)


def risk_of(pos: Position, stock: Stock, risk: Sequence[float]) -> float:
    """Sum over the tiles to come of the risk of their kind's number of places."""
    c0, c1, c2 = pos.count[0], pos.count[1], pos.count[2]
    high = pos.count[3] | pos.count[4] | pos.count[5] | pos.count[6]
    low = ~high
    n0, n1, n2 = ~c0, ~c1, ~c2
    exact = (
        low & n2 & n1 & n0, low & n2 & n1 & c0, low & n2 & c1 & n0, low & n2 & c1 & c0,
        low & c2 & n1 & n0, low & c2 & n1 & c0, low & c2 & c1 & n0, high | (c2 & c1 & c0),
    )
    one, two = stock.one, stock.two
    total = 0.0
    for weight, kinds in zip(risk, exact, strict=False):
        if weight:
            total += weight * ((kinds & one).bit_count() + 2 * (kinds & two).bit_count())
    return total


def evaluate(pos: Position, stock: Stock, w: Weights) -> float:
    """Higher is better: the board `pos` with the tiles of `stock` still to come."""
    total = -risk_of(pos, stock, w.risk)
    alive = stock.one | stock.two
    one, two = stock.one, stock.two
    masks, near = pos.masks, pos.near
    ways = w.scores_ways
    dead = 0
    threes = 0.0
    three = w.three_open
    spots: list[int] = []
    for cell in pos.front:
        fit = masks[cell] & alive
        if not fit:
            dead += 1
        elif ways:
            around = near[cell]
            if around == 4:
                spots.append(fit)
            elif around == 3 and _INTERIOR[cell]:
                fillers = (fit & one).bit_count() + 2 * (fit & two).bit_count()
                threes += three[fillers - 1] if fillers < 3 else three[2]
                if w.three_live:
                    live = _completions(pos, cell, stock, alive)
                    cap = w.three_live_cap
                    threes += w.three_live * (live if live < cap else cap) / cap
    total -= w.dead * dead
    if ways:
        total += threes
        if spots:
            total += w.four_way_open * _matched(spots, stock.left)
    return total


def _completions(pos: Position, cell: int, stock: Stock, alive: int) -> int:
    """Tiles to come that, put on the empty side of `cell` (3 neighbours), make it a 4-way
    for a tile to come."""
    cells = pos.cells
    around = []
    side = -1
    for n in NEIGHBOURS[cell]:
        t = cells[n]
        if t == EMPTY:
            side = n
        else:
            around.append(t)
    fit = pos.masks[side] & alive
    if not fit:
        return 0
    around.sort()
    key = (pos.classic, *around)
    fourths = _FOURTHS.get(key)
    if fourths is None:
        fourths = _FOURTHS[key] = tuple(
            fit_mask([*around, kind], pos.classic) for kind in range(TYPES)
        )
    found = 0
    left = stock.left
    while fit:
        low = fit & -fit
        kind = low.bit_length() - 1
        fit ^= low
        if fourths[kind] & alive:
            found += left[kind]
    return found


_FOURTHS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""For three neighbours (sorted, after the rules flag): the kinds that fit once each
kind of tile is the fourth."""


def _matched(spots: list[int], left: list[int]) -> int:
    """How many 4-way spots can each get its own tile from those to come (greedy)."""
    if len(spots) == 1:
        return 1
    spare = left.copy()
    matched = 0
    for fit in sorted(spots, key=int.bit_count):
        best = -1
        bits = fit
        while bits:
            low = bits & -bits
            kind = low.bit_length() - 1
            bits ^= low
            if spare[kind] and (best < 0 or spare[kind] > spare[best]):
                best = kind
        if best >= 0:
            spare[best] -= 1
            matched += 1
    return matched


# -- search ------------------------------------------------------------------------------

def _points(pos: Position, cell: int, four_ways: int) -> int:
    """What `logic.placement_score` and the 4-way bonus give for the next tile on `cell`."""
    n = pos.near[cell]
    base = 1 << (n - 1)
    if pos.classic:
        base = 0 if not _INTERIOR[cell] else base << four_ways
        if n == 4:
            base += FOUR_WAY_BONUS[min(four_ways, len(FOUR_WAY_BONUS) - 1)]
    return base


def _gain(pos: Position, cell: int, w: Weights, four_ways: int, left: int) -> float:
    """The heuristic's reward for placing on `cell` itself (before the board after).

    Under the classic rules a tile's points count too, in 4-ways: a 4-way is worth its
    bonus and the doubling of the points of the tiles to come, about 1.5 each.
    """
    near = pos.near[cell]
    gain = w.neighbours * near
    if near == 4:
        gain += w.four_way
    if w.points and pos.classic and _INTERIOR[cell]:
        bonus = FOUR_WAY_BONUS[min(four_ways, len(FOUR_WAY_BONUS) - 1)]
        worth = bonus + (3 * left << four_ways) / 2
        gain += w.points * w.four_way * (1 << (near - 1 + four_ways)) / worth
    return gain


def _shallow(
    pos: Position, cell: int, tile: Tile, stock: Stock, w: Weights, four_ways: int
) -> float:
    gain = _gain(pos, cell, w, four_ways, stock.total)
    pos.place(cell, tile)
    value = evaluate(pos, stock, w) + gain
    pos.undo()
    return value


def _deep(
    pos: Position, cell: int, tile: Tile, stock: Stock, w: Weights, four_ways: int
) -> float:
    """The value after `tile` on `cell`, averaged over the draw of the tile after."""
    gain = _gain(pos, cell, w, four_ways, stock.total)
    if not stock.total:
        return gain
    after = four_ways + (pos.near[cell] == 4)
    pos.place(cell, tile)
    total = 0.0
    left = stock.left
    for kind in range(TYPES):
        copies = left[kind]
        if not copies:
            continue
        stock.take(kind)
        best = -w.loss
        found = False
        for other in pos.cells_for(kind):
            value = _shallow(pos, other, kind, stock, w, after)
            if not found or value > best:
                best, found = value, True
        stock.put(kind)
        total += copies * best
    pos.undo()
    return total / stock.total + gain


ENDGAME = 16  # with this many tiles to come or fewer, every placement is searched deeper


def choose(
    pos: Position, tile: Tile, stock: Stock, w: Weights, width: int, four_ways: int = 0
) -> int | None:
    """The cell for `tile`, with `stock` to come; None if it fits nowhere.

    Every placement is judged by the board it leaves; the best `width` of them are
    judged again after each possible next draw, placed at its own best cell.
    """
    cells = pos.cells_for(tile)
    if not cells:
        return None
    if not stock.total:  # the last tile: the most points
        return max(cells, key=lambda cell: (_points(pos, cell, four_ways), pos.near[cell]))
    ranked = sorted(
        cells, key=lambda cell: _shallow(pos, cell, tile, stock, w, four_ways), reverse=True
    )
    if stock.total <= ENDGAME:
        width = max(width, len(ranked))
    if width <= 1 or len(ranked) == 1:
        return ranked[0]
    return max(ranked[:width], key=lambda cell: _deep(pos, cell, tile, stock, w, four_ways))


# -- what the game asks for ---------------------------------------------------------------

WIDTH = 4  # placements searched one draw deeper


def weights_for(rules: str) -> Weights:
    return CLASSIC if rules == "classic" else SEED


def best_move(board: Board) -> tuple[int, int] | None:
    """Where to put the next tile, as (col, row); None if it fits nowhere (or none is left)."""
    tile = board.next_tile
    if tile is None:
        return None
    pos = Position(board.cells, board.rules)
    stock = Stock(remaining_after_next(board))
    cell = choose(pos, tile, stock, weights_for(board.rules), WIDTH, board.four_ways)
    return None if cell is None else (cell % COLS, cell // COLS)


def hint(board: Board, seat: int) -> Hint | None:
    """The solver's placement for the next tile, with a short reason for the player."""
    move = best_move(board)
    if move is None:
        return None
    return Hint(move={"place": list(move)}, note=_note(board, move))


def _note(board: Board, move: tuple[int, int]) -> str:
    tile = board.next_tile
    assert tile is not None
    col, row = move
    cell = row * COLS + col
    pos = Position(board.cells, board.rules)
    stock = Stock(remaining_after_next(board))
    near = pos.near[cell]
    points = _points(pos, cell, board.four_ways)
    if near == 4:
        return f"Place it here for a 4-way, worth {_worth(points)}"
    before = _summary(pos, stock)
    pos.place(cell, tile)
    after = _summary(pos, stock)
    here = f"Place it here for {_worth(points)}" if points else "Place it here"
    if not stock.total:
        return here.replace("it here", "the last tile here")
    if after.spots > before.spots:
        return f"{here}; it sets up a 4-way for a tile to come"
    if after.stranded:  # the fewest the tiles to come can be left without a place
        some = "one fits" if after.stranded == 1 else f"{after.stranded} fit"
        if points:
            return f"{here}; of the tiles to come, {some} nowhere yet"
        return f"{here}; it keeps room for most tiles to come ({some} nowhere yet)"
    return f"{here}; it keeps room for the tiles to come"


def _worth(points: int) -> str:
    return counted(points, "point")


@dataclass(frozen=True)
class _Summary:
    open: int  # empty cells where some tile to come fits
    stranded: int  # tiles to come that fit nowhere
    spots: int  # 4-ways waiting for a tile to come


def _summary(pos: Position, stock: Stock) -> _Summary:
    alive = stock.one | stock.two
    fits = [pos.masks[cell] & alive for cell in pos.front]
    reachable = 0
    for fit in fits:
        reachable |= fit
    spots = sum(1 for cell in pos.front if pos.near[cell] == 4 and pos.masks[cell] & alive)
    return _Summary(
        open=sum(1 for fit in fits if fit),
        stranded=stock.copies(alive & ~reachable),
        spots=spots,
    )
