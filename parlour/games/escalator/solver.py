"""Escalator solver: exact wins for a known stock, "still winnable?" and hints that do not peek.

Only ranks matter to the rules, so everything here works on ranks 1..13 (ace = 1,
king = 13; an ace is next to both a two and a king). A pyramid is 28 ranks by flat index:
the card at (row, col) (row 0 the apex, row r holds r + 1 cards) has index
r * (r + 1) // 2 + col and is covered by (r + 1, col) and (r + 1, col + 1). Sets of
pyramid cards are ints used as bitsets (bit = flat index); `removed` is such a set.

A move is a `Step`: `Pick(index)` takes the uncovered pyramid card `index`, whose rank
must be next to the base's, and makes it the base; `Draw()` turns the next stock card as
the new base. The game is won when the pyramid is empty.

How the exact solver (`solve`) works. Drawing is allowed at any time, so every set of
removed cards reachable after j draws is reachable after j + 1 too, and what the picks
from (removed, base) can reach does not depend on when the player gets there. The
search therefore goes level by level (level j = after j draws): it keeps the growing
list of reachable removed-sets and, for each level, expands each (removed, base) state
once in the whole search, not once per level: a state already expanded at an earlier
level is proved no better later (the player could have burnt the stock cards in between
by drawing). After a draw the base is the stock card, so at each level only the
removed-sets reached since that rank was last the base need expanding. A full deal is
about 5 000 states at worst (there are 1 430 removed-sets a pyramid can have); a winning
line is rebuilt from parent links. `best_move` runs the same search for every first move
at once: each state carries the set of first moves that reach it (bits), so one pass
per sampled stock order scores all the candidates.

`winnable_with_some_order` answers the same question when the player may choose which
unseen rank comes next at each draw (a depth-first search with a memo of lost
positions). A draw that allows no pick is never needed there (drawing the next card
instead leaves more in the stock), and a position is given up when some rank cannot
find enough neighbours: every card picked needs a distinct card of a next rank just
before it (the base, a pyramid card or a stock card), see `_enough_neighbours`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

ROWS = 7
CARDS = ROWS * (ROWS + 1) // 2  # 28
RANKS = 13
FULL = (1 << CARDS) - 1  # every pyramid card removed
SAMPLES = 64
"""Stock orders `best_move` samples by default (see bench/escalator_solver.py)."""


@dataclass(frozen=True, slots=True)
class Pick:
    """Take the uncovered pyramid card at flat index `index`; it becomes the base."""

    index: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Turn the next stock card; it becomes the base."""


Step: TypeAlias = Pick | Draw
DRAW = Draw()


@dataclass(frozen=True, slots=True)
class MoveOdds:
    """A hint: `move` won in `wins` of the `samples` stock orders tried.

    `odds` lists every legal move with its wins over the same samples, picks by index
    first, then the draw; `move` is the first of those with the most wins.
    """

    move: Step
    wins: int
    samples: int
    odds: tuple[tuple[Step, int], ...]

    @property
    def rate(self) -> float:
        return self.wins / self.samples if self.samples else 0.0


# -- the pyramid as bits ---------------------------------------------------------------


def flat_index(row: int, col: int) -> int:
    return row * (row + 1) // 2 + col


_ROW_MASKS = tuple(((1 << (r + 1)) - 1) << flat_index(r, 0) for r in range(ROWS))
COVERS = tuple(
    0 if r == ROWS - 1 else (0b11 << flat_index(r + 1, c))
    for r in range(ROWS)
    for c in range(r + 1)
)
"""COVERS[i]: the two cards covering card i (none on the bottom row)."""

_free_cache: dict[int, int] = {}
_FREE_CACHE_LIMIT = 1 << 17


def free_cards(removed: int) -> int:
    """The cards still in the pyramid whose covering cards are both removed."""
    found = _free_cache.get(removed)
    if found is None:
        remaining = FULL & ~removed
        blocked = 0
        for row in range(ROWS - 1):  # card i of row r is covered by i + r + 1 and i + r + 2
            blocked |= ((remaining >> (row + 1)) | (remaining >> (row + 2))) & _ROW_MASKS[row]
        found = remaining & ~blocked
        if len(_free_cache) >= _FREE_CACHE_LIMIT:
            _free_cache.clear()
        _free_cache[removed] = found
    return found


def neighbours(rank: int) -> tuple[int, int]:
    """The two ranks next to `rank` (an ace is next to a king and a two)."""
    return rank % RANKS + 1, (rank - 2) % RANKS + 1


def _bits(mask: int) -> list[int]:
    """The set bits of `mask` as indices, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class _Tables:
    """What the search needs to know about one pyramid."""

    near: tuple[int, ...]  # near[b]: the cards whose rank is next to b (index 0 unused)
    rank_of: dict[int, int]  # a card's bit -> its rank


def _tables(pyramid: Sequence[int]) -> _Tables:
    by_rank = [0] * (RANKS + 1)
    for index, rank in enumerate(pyramid):
        by_rank[rank] |= 1 << index
    near = (0, *(by_rank[up] | by_rank[down] for up, down in map(neighbours, range(1, 14))))
    return _Tables(near, {1 << index: rank for index, rank in enumerate(pyramid)})


def _check(pyramid: Sequence[int], removed: int, base: int, *more: Sequence[int]) -> None:
    if len(pyramid) != CARDS:
        raise ValueError(f"a pyramid has {CARDS} cards, not {len(pyramid)}")
    for ranks in (pyramid, *more):
        if any(not 1 <= rank <= RANKS for rank in ranks):
            raise ValueError("ranks run from 1 (ace) to 13 (king)")
    if not 1 <= base <= RANKS:
        raise ValueError(f"bad base rank {base}")
    if not 0 <= removed <= FULL:
        raise ValueError("removed must be a set of the 28 pyramid cards")


# -- the level-by-level search -------------------------------------------------------------

_Parent: TypeAlias = tuple[int, int, int]  # (kind, a, b); see _Race.line


class _Race:
    """Which of several first moves win against one known stock order.

    Each entry is a first move: a state (removed, base) at level 0, or a removed-set
    that enters at a later level (after that many draws, with the stock card as base).
    Every entry has its own bit; states carry the bits of the entries that reach them,
    and `won` collects the bits of the entries that empty the pyramid. With `track`,
    parent links are kept so that `line` can rebuild the winning line (meant for a
    single entry).
    """

    __slots__ = ("alive", "level", "log", "parent", "reached", "rest", "seen", "t", "track",
                 "won")

    def __init__(self, t: _Tables, rest: Sequence[int], track: bool = False) -> None:
        self.t = t
        self.rest = rest
        self.track = track
        self.reached: dict[int, int] = {}  # removed-set -> entry bits that reach it
        # (removed-set, the bits it gained, its free cards), in the order gained
        self.log: list[tuple[int, int, int]] = []
        self.seen: dict[int, int] = {}  # state (removed | base << 28) -> bits expanded
        self.parent: dict[int, _Parent] = {}  # tracked: how a state or set was first reached
        self.won = 0
        self.alive = 0
        self.level = 0

    def run(self, starts: Sequence[tuple[int, int, int]],
            later: Sequence[tuple[int, int, int]] = ()) -> int:
        """Play it out: `starts` are (removed, base, bit) at level 0, `later` are
        (level, removed, bit) entering after that many draws. Returns the winning bits."""
        rest, seen, log, near, track = self.rest, self.seen, self.log, self.t.near, self.track
        for _, _, bit in (*starts, *later):
            self.alive |= bit
        stack: list[tuple[int, int, int]] = []
        for removed, base, bit in starts:
            if removed == FULL:
                self.won |= bit
                self.alive &= ~bit
                continue
            self._gain(removed, bit)
            key = removed | base << CARDS
            seen[key] = seen.get(key, 0) | bit
            if track:
                self.parent.setdefault(key, (_ROOT, 0, 0))
            pickable = free_cards(removed) & near[base]
            if pickable:
                stack.append((key, pickable, bit))
        self._expand(stack)
        done = [0] * (RANKS + 1)
        for level in range(1, len(rest) + 1):
            if not self.alive:
                break
            self.level = level
            for when, removed, bit in later:
                if when == level:
                    self._gain(removed, bit)
            base = rest[level - 1]
            near_base, shifted = near[base], base << CARDS
            start, stop = done[base], len(log)
            done[base] = stop
            alive = self.alive
            for removed, bits, free in log[start:stop]:
                pickable = free & near_base
                if not pickable:
                    continue
                key = removed | shifted
                old = seen.get(key, 0)
                bits &= alive & ~old
                if bits:
                    seen[key] = old | bits
                    if track and not old:
                        self.parent[key] = (_DRAWN, level, removed)
                    stack.append((key, pickable, bits))
            self._expand(stack)
        return self.won

    def _gain(self, removed: int, bits: int) -> None:
        old = self.reached.get(removed, 0)
        if bits & ~old:
            self.reached[removed] = old | bits
            self.log.append((removed, bits & ~old, free_cards(removed)))

    def _expand(self, stack: list[tuple[int, int, int]]) -> None:
        """Every state reachable by picks from the states on `stack`, each given as
        (state, its pickable cards, the entry bits to spread from it); empties `stack`."""
        near, rank_of = self.t.near, self.t.rank_of
        reached, seen, log, cache = self.reached, self.seen, self.log, _free_cache
        track, alive = self.track, self.alive
        while stack:
            state, pickable, bits = stack.pop()
            bits &= alive
            if not bits:
                continue
            removed = state & FULL
            while pickable:
                low = pickable & -pickable
                pickable ^= low
                after = removed | low
                if track and after not in reached:
                    self.parent[after] = (state, low, self.level)
                if after == FULL:
                    self.won |= bits
                    alive &= ~bits
                    self.alive = alive
                    if not alive:
                        stack.clear()
                        return
                    bits &= alive
                    continue
                free = cache.get(after)
                if free is None:
                    free = free_cards(after)
                old = reached.get(after, 0)
                if bits & ~old:
                    reached[after] = old | bits
                    log.append((after, bits & ~old, free))
                rank = rank_of[low]
                more = free & near[rank]
                if not more:
                    continue  # nothing to pick from there: only the set matters
                key = after | rank << CARDS
                old = seen.get(key, 0)
                if bits & ~old:
                    seen[key] = old | bits
                    if track and not old:
                        self.parent[key] = (_PICKED, state, low)
                    stack.append((key, more, bits & ~old))

    def line(self) -> list[Step]:
        """The winning line of a tracked single-entry race that won."""
        steps: list[Step] = []
        state, low, _ = self.parent[FULL]
        steps.append(Pick(low.bit_length() - 1))
        while True:
            kind, a, b = self.parent[state]
            if kind == _PICKED:
                state = a
                steps.append(Pick(b.bit_length() - 1))
                continue
            if kind == _ROOT:
                break
            level, removed = a, b  # a chain started at `level` from `removed`
            if removed in self.parent:  # reached by a pick at an earlier level
                state, low, first = self.parent[removed]
                steps.extend([DRAW] * (level - first))
                steps.append(Pick(low.bit_length() - 1))
            else:  # the starting set
                steps.extend([DRAW] * level)
                break
        steps.reverse()
        return steps


_ROOT, _PICKED, _DRAWN = -1, -2, -3


# -- public API ----------------------------------------------------------------------------


def solve(
    pyramid: Sequence[int],
    stock: Sequence[int],
    removed: int = 0,
    drawn: int = 1,
    base: int | None = None,
) -> list[Step] | None:
    """A winning line from a fully known position, or None if there is none.

    `pyramid`: the 28 ranks by flat index; `stock`: the stock's ranks in the order they
    are turned; `removed`: the set of pyramid cards already taken (bits); `drawn`: how
    many stock cards have been turned (1 at the start, when stock[0] is the base);
    `base`: the base's rank (default stock[drawn - 1]). The line is a list of `Pick` and
    `Draw` steps that ends with the pyramid empty ([] if it already is).

    >>> solve([1] * 27 + [2], [3, 2], removed=FULL & ~(1 << 27))
    [Pick(index=27)]
    """
    if not 0 <= drawn <= len(stock):
        raise ValueError(f"drawn must be between 0 and {len(stock)}")
    if base is None:
        if drawn == 0:
            raise ValueError("with no stock card turned, the base must be given")
        base = stock[drawn - 1]
    _check(pyramid, removed, base, stock)
    if removed == FULL:
        return []
    t = _tables(pyramid)
    rest = tuple(stock[drawn:])
    if not _Race(t, rest).run([(removed, base, 1)]):
        return None
    race = _Race(t, rest, track=True)
    race.run([(removed, base, 1)])
    return race.line()


def legal_moves(pyramid: Sequence[int], removed: int, base: int, stock_left: int) -> list[Step]:
    """The legal moves: picks of uncovered cards next to the base (by index), then the
    draw if the stock is not empty. Empty when the game is over."""
    if removed == FULL:
        return []
    t = _tables(pyramid)
    moves: list[Step] = [Pick(i) for i in _bits(free_cards(removed) & t.near[base])]
    if stock_left > 0:
        moves.append(DRAW)
    return moves


def best_move(
    pyramid: Sequence[int],
    removed: int,
    unseen_counts: Sequence[int],
    base: int,
    rng: random.Random,
    samples: int = SAMPLES,
) -> MoveOdds | None:
    """The move that wins against the most of `samples` random orders of the stock.

    The player knows the pyramid, the removed cards, the base and how many cards of
    each rank are still face down (`unseen_counts[rank - 1]`), not their order: each
    sample shuffles those ranks with `rng` (seed it from what the player knows only)
    and plays every legal move against that order exactly (`_Race`). None when no move
    is legal (the game is over).
    """
    if len(unseen_counts) != RANKS or any(count < 0 for count in unseen_counts):
        raise ValueError(f"unseen_counts holds {RANKS} counts, one per rank")
    _check(pyramid, removed, base)
    if samples < 1:
        raise ValueError("samples must be at least 1")
    unseen = [rank for rank in range(1, RANKS + 1) for _ in range(unseen_counts[rank - 1])]
    moves = legal_moves(pyramid, removed, base, len(unseen))
    if not moves:
        return None
    t = _tables(pyramid)
    starts = [(removed | 1 << m.index, pyramid[m.index], 1 << n)
              for n, m in enumerate(moves) if isinstance(m, Pick)]
    later = [(1, removed, 1 << (len(moves) - 1))] if unseen else []
    wins = [0] * len(moves)
    for _ in range(samples):
        order = unseen[:]
        rng.shuffle(order)
        won = _Race(t, order).run(starts, later)
        for n in _bits(won):
            wins[n] += 1
    best = max(range(len(moves)), key=lambda n: (wins[n], -n))
    return MoveOdds(moves[best], wins[best], samples, tuple(zip(moves, wins, strict=True)))


# -- when the player chooses the order of the stock --------------------------------------

_WIDTH = 8  # bits per rank in packed counts
_FIELDS = (1 << (RANKS * _WIDTH)) - 1
_GUARD = sum(1 << (_WIDTH * i + _WIDTH - 1) for i in range(RANKS))


def _unit(rank: int) -> int:
    return 1 << (_WIDTH * (rank - 1))


def _enough_neighbours(need: int, supply: int) -> bool:
    """Whether every rank r has at least need[r] cards among supply[r - 1] + supply[r + 1].

    `need` and `supply` are packed counts (`_WIDTH` bits per rank, all below half the
    field). Each card picked from the pyramid needs the card just before it to be of a
    next rank, and no card is just before two picks, so this is necessary for a win when
    `need` counts the pyramid's cards and `supply` the pyramid's, the stock's and the base.
    """
    around = (((supply << _WIDTH) | (supply >> (_WIDTH * (RANKS - 1)))) & _FIELDS) + (
        (supply >> _WIDTH) | (supply << (_WIDTH * (RANKS - 1))) & _FIELDS
    )
    return ((around | _GUARD) - need) & _GUARD == _GUARD


def winnable_with_some_order(
    pyramid: Sequence[int], removed: int, unseen: Sequence[int], base: int
) -> bool:
    """Whether some order of the unseen stock lets the position be won.

    `unseen[rank - 1]` counts the cards of that rank still face down in the stock. The
    answer is what the best player could do if they chose, at each draw, which of the
    unseen ranks comes next.
    """
    if len(unseen) != RANKS or any(not 0 <= count <= 52 for count in unseen):
        raise ValueError(f"unseen holds {RANKS} counts, one per rank")
    _check(pyramid, removed, base)
    if removed == FULL:
        return True
    t = _tables(pyramid)
    near, rank_of = t.near, t.rank_of
    units = (0, *(_unit(rank) for rank in range(1, RANKS + 1)))
    left = 0
    for index in _bits(FULL & ~removed):
        left += units[pyramid[index]]
    stock = sum(count * units[rank] for rank, count in enumerate(unseen, start=1))
    lost: set[int] = set()

    def won(removed: int, left: int, stock: int, base: int) -> bool:
        key = removed | base << CARDS | stock << (CARDS + 4)
        if key in lost:
            return False
        if not _enough_neighbours(left, left + stock + units[base]):
            lost.add(key)
            return False
        free = free_cards(removed)
        pickable = free & near[base]
        while pickable:
            low = pickable & -pickable
            pickable ^= low
            after = removed | low
            if after == FULL:
                return True
            rank = rank_of[low]
            if won(after, left - units[rank], stock, rank):
                return True
        # draws: only ranks that allow a pick, those allowing the most first
        options = []
        for rank in range(1, RANKS + 1):
            if stock >> (_WIDTH * (rank - 1)) & 0xFF:
                reach = free & near[rank]
                if reach:
                    options.append((-reach.bit_count(), rank))
        options.sort()
        for _, rank in options:
            if won(removed, left, stock - units[rank], rank):
                return True
        lost.add(key)
        return False

    return won(removed, left, stock, base)
