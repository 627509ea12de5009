"""Escalator's exact search, on ranks: wins for a known stock, "still winnable?" and the
best move over the orders the stock may fall in (the hints that do not peek, in `solver.py`).

Only ranks matter to the rules, so everything here works on ranks 1..13 (ace = 1,
king = 13; an ace is next to both a two and a king). A pyramid is 28 ranks by flat index:
the card at (row, col) (row 0 the apex, row r holds r + 1 cards) has index
r * (r + 1) // 2 + col and is covered by (r + 1, col) and (r + 1, col + 1). Sets of
pyramid cards are ints used as bitsets (bit = flat index); `removed` is such a set.

A move is a `Step`: `Pick(index)` takes the uncovered pyramid card `index`, whose rank
must be next to the base's, and makes it the base; `Draw()` turns the next stock card as
the new base. The game is won when the pyramid is empty.

`solve`: drawing is allowed at any time, so every set of removed cards reachable after j
draws is reachable after j + 1 too, and what picks reach from (removed, base) does not
depend on when the player gets there. The search therefore goes by levels (level j =
after j draws), keeps the growing list of removed-sets reached, and expands each state
(removed, base) once in the whole search, not once per level: a state met again at a
later level can do nothing new (the player could have got there earlier and drawn the
cards in between). After a draw the base is the stock card, so a level only expands the
sets reached since that rank was last the base. A full deal takes about 5 200 states
(7 800 at most in 3 000 deals; a pyramid has 1 430 removed-sets), fewer when the stock
cards after the last one that can come just before the apex are left out
(`_turns_that_matter`). A winning line is rebuilt from parent links, in a second search
run only when the first one won.

`best_move` samples stock orders and shares work between them: what picks alone reach
from a state does not depend on the stock, so `_Closures` computes it once per call (as
bitsets over the removed-sets met), and each sampled order only walks its draws. A sample
that the position loses whatever the first move is settled by one walk; otherwise each
legal move gets its own.

`winnable_with_some_order` lets the player choose the rank of each draw; see `_Chooser`.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TypeAlias

ROWS = 7
CARDS = ROWS * (ROWS + 1) // 2  # 28
RANKS = 13
FULL = (1 << CARDS) - 1  # every pyramid card removed
SAMPLES = 100
"""Stock orders `best_move` samples by default: a move's win rate is then known to within
5 points (one standard error, 0.5 / sqrt(100)), and the moves are compared on the same
orders. The hint's p95 time on positions from real games is about 150 ms in CPython
(bench/escalator_solver.py), half the 300 ms budget."""


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
    """A hint: `move` won in `wins` of the `samples` stock orders counted (those tried,
    less any a deal known to be winnable rules out: see `best_move`).

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

_free_cache: dict[int, int] = {}
_FREE_CACHE_LIMIT = 1 << 17


def _covered(remaining: int) -> int:
    """The cards with a card of `remaining` on them."""
    covered = 0
    for row in range(ROWS - 1):  # card i of row r is covered by i + r + 1 and i + r + 2
        covered |= ((remaining >> (row + 1)) | (remaining >> (row + 2))) & _ROW_MASKS[row]
    return covered


def free_cards(removed: int) -> int:
    """The cards still in the pyramid whose covering cards are both removed."""
    found = _free_cache.get(removed)
    if found is None:
        remaining = FULL & ~removed
        found = remaining & ~_covered(remaining)
        if len(_free_cache) >= _FREE_CACHE_LIMIT:
            _free_cache.clear()
        _free_cache[removed] = found
    return found


def neighbours(rank: int) -> tuple[int, int]:
    """The two ranks next to `rank` (an ace is next to a king and a two)."""
    return rank % RANKS + 1, (rank - 2) % RANKS + 1


def _turns_that_matter(pyramid: Sequence[int], removed: int, stock: Sequence[int]) -> int:
    """How many of the cards `stock` (in turning order) can still help to win.

    With the pyramid taken from the bottom up (as in any game), the apex goes last and
    just after (1, 0) or (1, 1): they are freed only when everything else is gone. If
    neither of them that is left has a rank next to the apex's, the card just before the
    apex must be a stock card next to it, turned at once; so a win comes by the last
    such card, and the cards after it do not matter.
    """
    remaining = FULL & ~removed
    if removed & 1 or removed & _covered(remaining):
        return len(stock)  # the apex is gone, or cards were taken from under others
    up, down = neighbours(pyramid[0])
    if any(remaining >> i & 1 and pyramid[i] in (up, down) for i in (1, 2)):
        return len(stock)
    return max((n for n, rank in enumerate(stock, start=1) if rank in (up, down)), default=0)


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


# -- the exact search, level by level -----------------------------------------------------

_START, _PICKED, _DRAWN = -1, -2, -3  # how a state was first reached (see _Search.line)


class _Search:
    """Whether a known stock order wins from (removed, base), and how.

    Level j is "after j more draws". `reached` holds every removed-set reached so far,
    `log` the same in the order reached; a state (removed, base) is expanded at most once
    in the whole search (`seen`). With `track`, each state and set remembers how it was
    first reached (`parent`), for `line`.
    """

    __slots__ = ("level", "log", "parent", "reached", "rest", "seen", "t", "track")

    def __init__(self, t: _Tables, rest: Sequence[int], track: bool = False) -> None:
        self.t = t
        self.rest = rest
        self.track = track
        self.reached: set[int] = set()
        self.log: list[tuple[int, int]] = []  # (removed-set, its free cards), in order
        self.seen: set[int] = set()  # states (removed | base << 28) expanded
        # tracked: state -> (kind, a, b); removed-set -> (state picked from, card, level)
        self.parent: dict[int, tuple[int, int, int]] = {}
        self.level = 0

    def run(self, removed: int, base: int) -> bool:
        if removed == FULL:
            return True
        near, seen, log, track = self.t.near, self.seen, self.log, self.track
        self.reached.add(removed)
        free = free_cards(removed)
        log.append((removed, free))
        key = removed | base << CARDS
        seen.add(key)
        if track:
            self.parent[key] = (_START, 0, 0)
        stack: list[tuple[int, int]] = []
        if free & near[base]:
            stack.append((key, free & near[base]))
        if self._expand(stack):
            return True
        done = [0] * (RANKS + 1)  # done[b]: log entries already expanded with base b
        for level, base in enumerate(self.rest, start=1):
            self.level = level
            near_base, shifted = near[base], base << CARDS
            start, stop = done[base], len(log)
            done[base] = stop
            for removed, free in log[start:stop]:
                pickable = free & near_base
                if pickable:
                    key = removed | shifted
                    if key not in seen:
                        seen.add(key)
                        if track:
                            self.parent[key] = (_DRAWN, level, removed)
                        stack.append((key, pickable))
            if self._expand(stack):
                return True
        return False

    def _expand(self, stack: list[tuple[int, int]]) -> bool:
        """Expand every state reachable by picks from the (state, pickable cards) on
        `stack`; True as soon as the pyramid is empty."""
        near, rank_of = self.t.near, self.t.rank_of
        reached, seen, log, track = self.reached, self.seen, self.log, self.track
        cache = _free_cache
        while stack:
            state, pickable = stack.pop()
            removed = state & FULL
            while pickable:
                low = pickable & -pickable
                pickable ^= low
                after = removed | low
                if after not in reached:
                    if track:
                        self.parent[after] = (state, low, self.level)
                    if after == FULL:
                        return True
                    reached.add(after)
                    free = cache.get(after)
                    if free is None:
                        free = free_cards(after)
                    log.append((after, free))
                else:
                    free = cache.get(after)
                    if free is None:
                        free = free_cards(after)
                rank = rank_of[low]
                more = free & near[rank]
                if more:
                    key = after | rank << CARDS
                    if key not in seen:
                        seen.add(key)
                        if track:
                            self.parent[key] = (_PICKED, state, low)
                        stack.append((key, more))
        return False

    def line(self) -> list[Step]:
        """The winning line found by a tracked search that won, first step first."""
        steps: list[Step] = []
        state, low, _ = self.parent[FULL]
        steps.append(Pick(low.bit_length() - 1))
        while True:
            kind, a, b = self.parent[state]
            if kind == _PICKED:  # a pick from state a of card b
                state = a
                steps.append(Pick(b.bit_length() - 1))
            elif kind == _DRAWN:  # drawn at level a onto the set b
                if b in self.parent:  # b was first reached by a pick, at an earlier level
                    state, low, first = self.parent[b]
                    steps.extend([DRAW] * (a - first))
                    steps.append(Pick(low.bit_length() - 1))
                else:  # b is where the search started
                    steps.extend([DRAW] * a)
                    break
            else:
                break
        steps.reverse()
        return steps


# -- pick closures of one pyramid, shared by many stock orders ----------------------------


class _Closures:
    """For one pyramid: every removed-set that picks alone reach from a state.

    Removed-sets get indices as they are met (FULL is 0), and sets of them are ints used as
    bitsets over those indices. `closure(i, base)` is the bitset of the sets that zero or
    more picks reach from (set i, base); it does not depend on the stock, so the many
    stock orders of a hint share it. `pickable[b]` holds the sets from which base b can
    pick something.
    """

    __slots__ = ("index", "masks", "pickable", "t", "table")

    def __init__(self, t: _Tables) -> None:
        self.t = t
        self.index: dict[int, int] = {}
        self.masks: list[int] = []
        self.pickable = [0] * (RANKS + 1)
        self.table: list[list[int]] = [[] for _ in range(RANKS + 1)]  # [base][index], 0 unknown
        self.indexed(FULL)

    def indexed(self, removed: int) -> int:
        found = self.index.get(removed)
        if found is not None:
            return found
        i = self.index[removed] = len(self.masks)
        self.masks.append(removed)
        for row in self.table:
            row.append(0)
        free, near, bit = free_cards(removed), self.t.near, 1 << i
        for base in range(1, RANKS + 1):
            if free & near[base]:
                self.pickable[base] |= bit
        return i

    def closure(self, i: int, base: int) -> int:
        found = self.table[base][i]
        if found:
            return found
        removed = self.masks[i]
        out = 1 << i
        pickable = free_cards(removed) & self.t.near[base]
        while pickable:
            low = pickable & -pickable
            pickable ^= low
            out |= self.closure(self.indexed(removed | low), self.t.rank_of[low])
        self.table[base][i] = out
        return out

    def wins(self, reached: int, stock: Sequence[int]) -> bool:
        """Whether the pyramid can be emptied from the sets `reached` (bitset), each with
        a draw to come, when the stock is turned in the order `stock`."""
        if reached & 1:
            return True
        done = [0] * (RANKS + 1)
        pickable, table, closure = self.pickable, self.table, self.closure
        for base in stock:
            new = reached & pickable[base] & ~done[base]
            if new:
                done[base] |= new
                row = table[base]
                for i in _indices(new):
                    reached |= row[i] or closure(i, base)
                if reached & 1:
                    return True
        return False


def _indices(bitset: int) -> list[int]:
    """The set bits of a (possibly long) int, highest first."""
    digits = bin(bitset)
    top = len(digits) - 1
    out = []
    at = digits.find("1", 2)
    while at >= 0:
        out.append(top - at)
        at = digits.find("1", at + 1)
    return out


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
    rest = rest[:_turns_that_matter(pyramid, removed, rest)]
    if not _Search(t, rest).run(removed, base):
        return None
    search = _Search(t, rest, track=True)
    search.run(removed, base)
    return search.line()


def legal_moves(pyramid: Sequence[int], removed: int, base: int, stock_left: int) -> list[Step]:
    """The legal moves: picks of uncovered cards next to the base (by index), then the
    draw if the stock is not empty. Empty when the game is over."""
    _check(pyramid, removed, base)
    return _legal(_tables(pyramid), removed, base, stock_left)


def _legal(t: _Tables, removed: int, base: int, stock_left: int) -> list[Step]:
    if removed == FULL:
        return []
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
    winnable_from: Sequence[int] | None = None,
) -> MoveOdds | None:
    """The legal move that wins against the most of `samples` random orders of the stock.

    The player knows the pyramid, the removed cards, the base and how many cards of
    each rank are still face down (`unseen_counts[rank - 1]`), not their order: each
    sample shuffles those ranks with `rng` (seed it from what the player knows only)
    and plays every legal move against that order exactly. None when no move is legal.
    Ties go to the first move in `legal_moves` order.

    `winnable_from` (the ranks turned so far, the first of them the base at the start)
    says the deal is known to be winnable from its start: an order with which it is not
    cannot be the true one, so only the others are counted in `samples`. An order that
    wins from here wins from the start too, so this changes the odds, not the ranking.
    """
    _check_counts(unseen_counts)
    _check(pyramid, removed, base)
    if samples < 1:
        raise ValueError("samples must be at least 1")
    unseen = [rank for rank in range(1, RANKS + 1) for _ in range(unseen_counts[rank - 1])]
    t = _tables(pyramid)
    moves = _legal(t, removed, base, len(unseen))
    if not moves:
        return None
    c = _Closures(t)
    root = c.closure(c.indexed(removed), base)
    after = [
        c.closure(c.indexed(removed | 1 << move.index), pyramid[move.index])
        if isinstance(move, Pick) else 1 << c.indexed(removed)
        for move in moves
    ]
    start = 0
    if winnable_from is not None:
        if not winnable_from:
            raise ValueError("a deal's start has its first stock card turned as the base")
        _check(pyramid, 0, winnable_from[0], winnable_from)
        start = c.closure(c.indexed(0), winnable_from[0])
    wins = [0] * len(moves)
    possible = samples  # orders with which the deal can be won from its start
    for _ in range(samples):
        shuffled = unseen[:]
        rng.shuffle(shuffled)
        order = shuffled[:_turns_that_matter(pyramid, removed, shuffled)]
        if (len(moves) > 1 or winnable_from is not None) and not c.wins(root, order):
            # lost whatever the first move: no need to try each
            if winnable_from is not None and not c.wins(start, [*winnable_from[1:], *shuffled]):
                possible -= 1
            continue
        for n, reached in enumerate(after):
            if c.wins(reached, order):
                wins[n] += 1
    best = max(range(len(moves)), key=lambda n: (wins[n], -n))
    return MoveOdds(moves[best], wins[best], possible, tuple(zip(moves, wins, strict=True)))


def _check_counts(counts: Sequence[int]) -> None:
    if len(counts) != RANKS or any(not 0 <= count <= 52 for count in counts):
        raise ValueError(f"give {RANKS} counts of unseen cards, one per rank")


# -- when the player chooses the order of the stock --------------------------------------

_WIDTH = 10  # bits per rank in packed counts: the top one is a guard, the rest hold < 512
_FIELD = (1 << _WIDTH) - 1
_FIELDS = (1 << (RANKS * _WIDTH)) - 1
_GUARD = sum(1 << (_WIDTH * i + _WIDTH - 1) for i in range(RANKS))  # top bit of each field


def _unit(rank: int) -> int:
    return 1 << (_WIDTH * (rank - 1))


def _around(counts: int) -> int:
    """Packed counts: for each rank, the counts of the two ranks next to it added up."""
    up = ((counts << _WIDTH) | (counts >> (_WIDTH * (RANKS - 1)))) & _FIELDS
    down = (counts >> _WIDTH) | ((counts << (_WIDTH * (RANKS - 1))) & _FIELDS)
    return up + down


def _at_most(a: int, b: int) -> bool:
    """Whether every field of packed counts `a` is at most the same field of `b`."""
    return ((b | _GUARD) - a) & _GUARD == _GUARD


def _smaller(a: int, b: int) -> int:
    """Packed counts: field by field, the smaller of `a` and `b`."""
    b_not_less = ((((b | _GUARD) - a) & _GUARD) >> (_WIDTH - 1)) * _FIELD
    return (a & b_not_less) | (b & ~b_not_less & _FIELDS)


def winnable_with_some_order(
    pyramid: Sequence[int], removed: int, unseen: Sequence[int], base: int
) -> bool:
    """Whether some order of the unseen stock lets the position be won.

    `unseen[rank - 1]` counts the cards of that rank still face down in the stock. The
    answer is what a player could do who chose, at each draw, which of the unseen
    ranks comes next (see `_Chooser`).
    """
    _check_counts(unseen)
    _check(pyramid, removed, base)
    if removed == FULL:
        return True
    return _Chooser(pyramid, removed).wins(unseen, base)


class _Chooser:
    """The search behind `winnable_with_some_order`, for one pyramid and removed-set.

    A position with a draw to come is (set, stock): a removed-set (by `_Closures` index)
    and the packed counts of the ranks face down (`_WIDTH` bits a rank). A move draws a
    rank, then stops after any number of picks (a set in `_Closures.closure`). A draw
    must allow a pick (otherwise drawing the next card instead leaves more in the
    stock), so a rank is worth drawing at most as many times as there are pyramid cards
    next to it, and counts above that are cut. More of every rank is never worse, so a
    position is lost if the same set with at least as many of every rank is. A position
    is also given up when some rank has too few neighbours: every card picked needs the
    card just before it to be of a next rank (a pyramid or stock card, or the base), and
    no card comes just before two picks. When the card just before the apex must come
    from the stock (`_turns_that_matter`), one stock card next to the apex is set aside
    for it in that count, and the apex, last, counts for no other card.

    Two searches take turns until one of them knows: a depth-first one (`TURN`
    positions a turn), trying first the moves that remove the most cards and then leave
    the most cards uncovered, which finds wins at once; and one by number of draws (half
    as many positions a turn, each costs about twice as much) that keeps only the
    largest stocks each set was reached with, which proves losses with several times
    fewer positions but is hopeless on many wins. What the first proves lost, the second
    skips. The depth-first search resumes by starting again with what it proved kept, so
    that a turn costs little more than its positions. On positions from real games this
    halves the slowest answers of either search alone (bench/escalator_solver.py).
    """

    TURN = 2000

    def __init__(self, pyramid: Sequence[int], removed: int) -> None:
        self.pyramid = pyramid
        self.removed = removed
        self.c = _Closures(_tables(pyramid))
        self.units = (0, *(_unit(rank) for rank in range(1, RANKS + 1)))
        self.left_at_start = sum(self.units[pyramid[i]] for i in _bits(FULL & ~removed))
        self.need: dict[int, tuple[int, int, tuple[int, ...]]] = {}  # set -> see _need
        self.chains: dict[int, list[tuple[int, int, int]]] = {}  # set -> see _moves
        self.lost: set[int] = set()  # (stock << 32 | set) proved lost
        self.lost_stocks: dict[int, list[int]] = {}  # set -> stocks proved lost from it
        self.budget = 0  # positions the depth-first search may still open in this turn

    def wins(self, unseen: Sequence[int], base: int) -> bool:
        c, units = self.c, self.units
        stock = sum(count * units[rank] for rank, count in enumerate(unseen, start=1))
        start = c.closure(c.indexed(self.removed), base)
        if start & 1:
            return True
        sets = sorted(_indices(start), key=lambda i: -c.masks[i].bit_count())
        by_draws = self._by_draws([(i, stock) for i in sets])
        while True:
            self.budget = self.TURN
            try:
                return any(self._depth_first(i, stock) for i in sets)
            except _OutOfTurn:
                pass
            for _ in range(max(1, self.TURN // 2)):
                try:
                    next(by_draws)
                except StopIteration as finished:
                    return bool(finished.value)

    def _need(self, i: int) -> tuple[int, int, tuple[int, ...]]:
        """For set i: packed counts of the pyramid cards left, of their neighbours, and
        the units of the ranks next to the apex if the card just before the apex must
        come from the stock (see `_turns_that_matter`), else ()."""
        found = self.need.get(i)
        if found is None:
            removed = self.c.masks[i]
            left = self.left_at_start
            for index in _bits(removed & ~self.removed):
                left -= self.units[self.pyramid[index]]
            last: tuple[int, ...] = ()
            if removed != FULL and _turns_that_matter(self.pyramid, removed, [0]) == 0:
                last = tuple(self.units[rank] for rank in neighbours(self.pyramid[0]))
            found = self.need[i] = (left, _around(left), last)
        return found

    def _moves(self, i: int) -> list[tuple[int, int, int]]:
        """Every move from set i as (field of the rank to draw, its unit, set to stop at),
        most cards removed first, then most cards left uncovered."""
        found = self.chains.get(i)
        if found is None:
            c = self.c
            masks, near, units = c.masks, c.t.near, self.units
            free = free_cards(masks[i])
            found = [
                (units[rank] * _FIELD, units[rank], j)
                for rank in range(1, RANKS + 1) if free & near[rank]
                for j in _indices(c.closure(i, rank) & ~(1 << i))
            ]
            found.sort(key=lambda move: (-masks[move[2]].bit_count(),
                                         -free_cards(masks[move[2]]).bit_count()))
            self.chains[i] = found
        return found

    def _useful(self, i: int, stock: int) -> int:
        """`stock` cut to what set i can use, or -1 if set i is lost with it."""
        left, cap, last = self.need.get(i) or self._need(i)
        if not _at_most(left, _around(left + stock)):
            return -1  # a rank without enough neighbours
        if last:
            # one stock card next to the apex is kept for the end, and the apex, picked
            # last, comes just before no other card
            rest = left - self.units[self.pyramid[0]]
            if not any(stock & unit * _FIELD and _at_most(rest, _around(rest + stock - unit))
                       for unit in last):
                return -1
        stock = _smaller(stock, cap)  # draws beyond those are no use
        if stock << 32 | i in self.lost:
            return -1
        for bigger in self.lost_stocks.get(i, ()):
            if ((bigger | _GUARD) - stock) & _GUARD == _GUARD:
                return -1
        return stock

    def _depth_first(self, i: int, stock: int) -> bool:
        stock = self._useful(i, stock)
        if stock < 0:
            return False
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfTurn
        for field, unit, j in self.chains.get(i) or self._moves(i):
            if stock & field and (j == 0 or self._depth_first(j, stock - unit)):
                return True
        self.lost.add(stock << 32 | i)
        known = self.lost_stocks.setdefault(i, [])
        known[:] = [smaller for smaller in known if not _at_most(smaller, stock)]
        known.append(stock)
        return False

    def _by_draws(self, frontier: list[tuple[int, int]]) -> Generator[None, None, bool]:
        """The search by number of draws: yields after each position it opens, returns
        whether the pyramid can be emptied."""
        best: dict[int, list[int]] = {}  # set -> the largest stocks it was reached with
        for i, stock in frontier:
            _keep(best, i, stock)
        while frontier:
            after: list[tuple[int, int]] = []
            for i, stock in frontier:
                if stock not in best[i]:
                    continue  # a larger stock reached set i since
                yield None
                for field, unit, j in self.chains.get(i) or self._moves(i):
                    if stock & field:
                        if j == 0:
                            return True
                        more = self._useful(j, stock - unit)
                        if more >= 0 and _keep(best, j, more):
                            after.append((j, more))
            frontier = after
        return False


class _OutOfTurn(Exception):
    """The depth-first search used up its turn."""


def _keep(best: dict[int, list[int]], i: int, stock: int) -> bool:
    """Record that set i is reached with `stock`, unless it was with at least as much of
    every rank; forget the stocks it beats."""
    known = best.setdefault(i, [])
    if any(_at_most(stock, bigger) for bigger in known):
        return False
    known[:] = [smaller for smaller in known if not _at_most(smaller, stock)]
    known.append(stock)
    return True
