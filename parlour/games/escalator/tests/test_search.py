"""Escalator's exact search (`search.py`) against hand-made deals and an independent,
plain implementation.

The reference below knows the rules from the seed only (a card is free when both cards
covering it are gone; a pick needs a rank next to the base's, aces next to twos and
kings; a draw turns the next stock card) and searches naively: a depth-first search over
(removed, cards turned, base) with a memo, no levels, no bitsets shared with the search.
Winning lines are replayed under those rules.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.games.escalator.search import (
    DRAW,
    Draw,
    Pick,
    Step,
    _Chooser,
    best_move,
    legal_moves,
    solve,
    winnable_with_some_order,
)

DECK = [rank for rank in range(1, 14) for _ in range(4)]
EVERYTHING = (1 << 28) - 1


# -- the rules, written again without the search's tables -----------------------------------

def position_of(index: int) -> tuple[int, int]:
    row = 0
    while (row + 1) * (row + 2) // 2 <= index:
        row += 1
    return row, index - row * (row + 1) // 2


def flat(row: int, col: int) -> int:
    return row * (row + 1) // 2 + col


def covering(index: int) -> tuple[int, ...]:
    row, col = position_of(index)
    return () if row == 6 else (flat(row + 1, col), flat(row + 1, col + 1))


COVERING = [covering(index) for index in range(28)]


def is_free(removed: int, index: int) -> bool:
    return not removed >> index & 1 and all(removed >> c & 1 for c in COVERING[index])


def next_to(a: int, b: int) -> bool:
    return (a - b) % 13 in (1, 12)


def picks(pyramid: Sequence[int], removed: int, base: int) -> list[int]:
    return [i for i in range(28) if is_free(removed, i) and next_to(pyramid[i], base)]


def replay(pyramid: Sequence[int], stock: Sequence[int], line: Sequence[Step],
           removed: int = 0, drawn: int = 1, base: int | None = None) -> None:
    """Play `line` under the rules; it must be legal throughout and empty the pyramid."""
    base = stock[drawn - 1] if base is None else base
    for step in line:
        assert removed != EVERYTHING, "moves after the win"
        if isinstance(step, Pick):
            assert step.index in picks(pyramid, removed, base), f"illegal {step}"
            removed |= 1 << step.index
            base = pyramid[step.index]
        else:
            assert isinstance(step, Draw)
            assert drawn < len(stock), "a draw from an empty stock"
            base = stock[drawn]
            drawn += 1
    assert removed == EVERYTHING, "the pyramid is not empty at the end of the line"


def reference_wins(pyramid: Sequence[int], stock: Sequence[int], removed: int = 0,
                   drawn: int = 1, base: int | None = None) -> bool:
    """Plain depth-first search over (removed, drawn, base)."""
    first_base = stock[drawn - 1] if base is None else base

    @cache
    def wins(removed: int, drawn: int, base: int) -> bool:
        if removed == EVERYTHING:
            return True
        if any(wins(removed | 1 << i, drawn, pyramid[i]) for i in picks(pyramid, removed, base)):
            return True
        return drawn < len(stock) and wins(removed, drawn + 1, stock[drawn])

    return wins(removed, drawn, first_base)


def reference_some_order(pyramid: Sequence[int], removed: int, unseen: Sequence[int],
                         base: int) -> bool:
    """Try every distinct order of the unseen ranks."""
    ranks = [rank for rank in range(1, 14) for _ in range(unseen[rank - 1])]
    return any(
        reference_wins(pyramid, [base, *order], removed)
        for order in set(itertools.permutations(ranks))
    )


def counts(ranks: Sequence[int]) -> list[int]:
    return [list(ranks).count(rank) for rank in range(1, 14)]


def rows(*lines: str) -> list[int]:
    """A pyramid from its rows, top first; '.' for a card already removed (rank 1)."""
    out = [1 if word == "." else int(word) for line in lines for word in line.split()]
    assert len(out) == 28
    return out


def removed_where(*lines: str) -> int:
    words = [word for line in lines for word in line.split()]
    return sum(1 << i for i, word in enumerate(words) if word == ".")


# -- hand-made deals -------------------------------------------------------------------------

def test_a_chain_of_picks_wins_without_a_draw() -> None:
    # Ranks follow the order in which the cards can go (bottom row left to right, then
    # the row above...) and climb by one each time from the base, a king: A, 2, 3, ...
    order = [flat(row, col) for row in range(6, -1, -1) for col in range(row + 1)]
    pyramid = [0] * 28
    for k, index in enumerate(order):
        pyramid[index] = k % 13 + 1
    stock = [13, *range(1, 13), *range(1, 12)]
    line = solve(pyramid, stock)
    assert line is not None
    replay(pyramid, stock, line)
    assert len(line) == 28


def test_an_apex_no_card_can_reach_is_lost() -> None:
    # The apex is a 7. It is freed last, so the card just before it is (1, 0), (1, 1) or a
    # stock card: here those are a jack and a two, and the stock holds no 6 and no 8
    # (all eight of them lie in the pyramid, under the apex).
    pyramid = rows("7", "11 2", "6 6 6", "6 8 8 8", "8 1 1 1 1", "2 2 2 3 3 3",
                   "3 4 4 4 4 5 5")
    stock = [5, 5, 7, 7, 7, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12,
             13, 13, 13, 13]
    assert sorted(pyramid + stock) == DECK
    assert solve(pyramid, stock) is None
    assert not reference_wins(pyramid, stock)
    # whatever the order of the stock
    assert not winnable_with_some_order(pyramid, 0, counts(stock[1:]), stock[0])


def test_a_deal_with_nothing_ever_to_pick_is_lost() -> None:
    # The bottom row holds aces and sevens only, and every 2, king, 6 and 8 is above it:
    # no base the stock can turn is next to a card that is free.
    pyramid = rows("2", "2 2", "2 13 13", "13 13 6 6", "6 6 8 8 8", "8 3 3 3 3 4",
                   "1 1 1 1 7 7 7")
    stock = [4, 4, 4, 5, 5, 5, 5, 7, 9, 9, 9, 9, 10, 10, 10, 10, 11, 11, 11, 11, 12, 12,
             12, 12]
    assert sorted(pyramid + stock) == DECK
    assert solve(pyramid, stock) is None
    assert not winnable_with_some_order(pyramid, 0, counts(stock[1:]), stock[0])
    assert legal_moves(pyramid, 0, stock[0], 23) == [DRAW]


# Three cards left: the apex (a 5) under (1, 0) = 2 and (1, 1) = 4, base 3, one card (a 5)
# in the stock. Taking the 4 first strands the 2; drawing first strands the 2 as well. The
# only win: take the 2, turn the 5, take the 4, then the apex.
TOP_ONLY = removed_where("5", "2 4", ". . .", ". . . .", ". . . . .", ". . . . . .",
                         ". . . . . . .")
TOP = rows("5", "2 4", ". . .", ". . . .", ". . . . .", ". . . . . .", ". . . . . . .")


def test_the_only_winning_line_is_found() -> None:
    line = solve(TOP, [3, 5], removed=TOP_ONLY)
    assert line == [Pick(1), DRAW, Pick(2), Pick(0)]
    assert solve(TOP, [3], removed=TOP_ONLY) is None  # without the 5 it cannot be won


def test_choosing_the_order_can_win_where_the_true_order_loses() -> None:
    # Base 9 takes nothing. If the 5 comes next it can only take the 4, and then the 3
    # takes the 2 but nothing is left to take the apex (a 5). The 3 first wins: it takes
    # the 2, the 5 takes the 4 and the 4 the apex.
    assert solve(TOP, [9, 5, 3], removed=TOP_ONLY) is None
    assert solve(TOP, [9, 3, 5], removed=TOP_ONLY) == [DRAW, Pick(1), DRAW, Pick(2), Pick(0)]
    assert winnable_with_some_order(TOP, TOP_ONLY, counts([5, 3]), 9)
    assert not winnable_with_some_order(TOP, TOP_ONLY, counts([5]), 9)
    assert winnable_with_some_order(TOP, EVERYTHING, [0] * 13, 9)


def test_drawn_and_base_say_where_the_game_stands() -> None:
    # the same position, reached with other cards turned before and the 2 already taken
    stock = [9, 9, 3, 5]
    removed = TOP_ONLY | 1 << 1
    assert solve(TOP, stock, removed=removed, drawn=3, base=2) == [DRAW, Pick(2), Pick(0)]
    assert solve(TOP, stock, removed=TOP_ONLY, drawn=3) == [Pick(1), DRAW, Pick(2), Pick(0)]
    assert solve(TOP, stock, removed=TOP_ONLY, drawn=4) is None  # the 5 is the base now
    assert solve(TOP, stock, removed=EVERYTHING) == []


def test_aces_are_next_to_kings_and_twos() -> None:
    last = EVERYTHING & ~1  # only the apex left
    for apex, base, wins in [(1, 13, True), (13, 1, True), (1, 2, True), (2, 1, True),
                             (12, 1, False), (1, 12, False)]:
        pyramid = [apex] + [5] * 27
        assert (solve(pyramid, [base], removed=last) is not None) is wins, (apex, base)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        solve([1] * 27, [2])
    with pytest.raises(ValueError):
        solve([1] * 28, [14])
    with pytest.raises(ValueError):
        solve([1] * 28, [2], drawn=0)
    with pytest.raises(ValueError):
        winnable_with_some_order([1] * 28, 0, [1] * 12, 2)
    with pytest.raises(ValueError):
        best_move([1] * 28, 0, [1] * 13, 2, random.Random(1), samples=0)


# -- against the reference, on random deals ----------------------------------------------------

decks = st.permutations(DECK)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks)
def test_full_deals_agree_with_the_reference(deck: list[int]) -> None:
    pyramid, stock = deck[:28], deck[28:]
    line = solve(pyramid, stock)
    assert (line is not None) == reference_wins(pyramid, stock)
    if line is not None:
        replay(pyramid, stock, line)
        assert winnable_with_some_order(pyramid, 0, counts(stock[1:]), stock[0])


def played_into(deck: Sequence[int], seed: int, keep: int, stock_size: int
                ) -> tuple[list[int], list[int], int, int]:
    """A position part way through a game: random free cards taken until `keep` remain,
    and a stock of `stock_size` cards, the first of them turned. Returns
    (pyramid, stock, removed, base)."""
    rng = random.Random(seed)
    pyramid = list(deck[:28])
    removed = 0
    while 28 - removed.bit_count() > keep:
        removed |= 1 << rng.choice([i for i in range(28) if is_free(removed, i)])
    stock = list(deck[28:28 + stock_size])
    return pyramid, stock, removed, stock[0]


@settings(max_examples=150, deadline=None)
@given(decks, st.integers(0, 2**32), st.integers(1, 12), st.integers(1, 24))
def test_positions_part_way_agree_with_the_reference(
    deck: list[int], seed: int, keep: int, stock_size: int
) -> None:
    pyramid, stock, removed, base = played_into(deck, seed, keep, stock_size)
    line = solve(pyramid, stock, removed=removed)
    assert (line is not None) == reference_wins(pyramid, stock, removed)
    if line is not None:
        replay(pyramid, stock, line, removed)
        assert winnable_with_some_order(pyramid, removed, counts(stock[1:]), base)


@settings(max_examples=100, deadline=None)
@given(decks, st.sets(st.integers(0, 27), min_size=16), st.integers(1, 12))
def test_any_removed_set_agrees_with_the_reference(
    deck: list[int], taken: set[int], stock_size: int
) -> None:
    # removed sets no game reaches too (cards gone from under others): the rules still hold
    pyramid, stock = deck[:28], deck[28:28 + stock_size]
    removed = sum(1 << i for i in taken)
    line = solve(pyramid, stock, removed=removed)
    assert (line is not None) == reference_wins(pyramid, stock, removed)
    if line is not None:
        replay(pyramid, stock, line, removed)


@settings(max_examples=150, deadline=None)
@given(decks, st.integers(0, 2**32), st.integers(1, 9), st.integers(1, 7))
def test_choosing_the_order_agrees_with_trying_every_order(
    deck: list[int], seed: int, keep: int, stock_size: int
) -> None:
    pyramid, stock, removed, base = played_into(deck, seed, keep, stock_size)
    unseen = counts(stock[1:])
    assert winnable_with_some_order(pyramid, removed, unseen, base) == reference_some_order(
        pyramid, removed, unseen, base
    )


@settings(max_examples=60, deadline=None)
@given(decks, st.integers(0, 2**32), st.integers(1, 9), st.integers(1, 7))
def test_both_searches_for_an_order_agree_with_trying_every_order(
    deck: list[int], seed: int, keep: int, stock_size: int
) -> None:
    # turns of a few positions, so that the search by number of draws gets its say
    pyramid, stock, removed, base = played_into(deck, seed, keep, stock_size)
    unseen = counts(stock[1:])
    expected = reference_some_order(pyramid, removed, unseen, base)
    for turn in (1, 4, 40):
        chooser = _Chooser(pyramid, removed)
        chooser.TURN = turn
        assert chooser.wins(unseen, base) == expected, turn


@settings(max_examples=150, deadline=None)
@given(decks, st.integers(0, 2**32), st.integers(4, 16), st.integers(3, 12))
def test_both_searches_for_an_order_agree_on_larger_positions(
    deck: list[int], seed: int, keep: int, stock_size: int
) -> None:
    # too many orders to try them all: the depth-first search alone against the search
    # by number of draws deciding alone (the other never gets past its first positions)
    pyramid, stock, removed, base = played_into(deck, seed, keep, stock_size)
    unseen = counts(stock[1:])
    answers = set()
    for turn in (1, 10**9):
        chooser = _Chooser(pyramid, removed)
        chooser.TURN = turn
        answers.add(chooser.wins(unseen, base))
    assert len(answers) == 1


# -- hints -----------------------------------------------------------------------------------

def test_a_forced_line_is_hinted_with_certainty() -> None:
    found = best_move(TOP, TOP_ONLY, counts([5]), 3, random.Random(0), samples=10)
    assert found is not None
    assert found.move == Pick(1) and found.wins == found.samples == 10
    assert found.odds == ((Pick(1), 10), (Pick(2), 0), (DRAW, 0))
    assert found.rate == 1.0


def test_no_hint_when_the_game_is_over() -> None:
    assert best_move(TOP, EVERYTHING, [0] * 13, 3, random.Random(0)) is None
    assert best_move(TOP, TOP_ONLY, [0] * 13, 9, random.Random(0)) is None  # stuck


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks, st.integers(0, 2**32), st.integers(1, 28), st.integers(2, 24),
       st.randoms(use_true_random=False))
def test_the_hint_sees_counts_only(
    deck: list[int], seed: int, keep: int, stock_size: int, shuffler: random.Random
) -> None:
    pyramid, stock, removed, base = played_into(deck, seed, keep, stock_size)
    other = stock[1:]
    shuffler.shuffle(other)
    first = best_move(pyramid, removed, counts(stock[1:]), base, random.Random(seed), 12)
    again = best_move(pyramid, removed, counts(other), base, random.Random(seed), 12)
    assert first == again
    assert first is not None
    assert [move for move, _ in first.odds] == [*map(Pick, picks(pyramid, removed, base)), DRAW]
    assert all(0 <= wins <= first.samples == 12 for _, wins in first.odds)
    assert first.wins == max(wins for _, wins in first.odds)
    assert (first.move, first.wins) in first.odds


# A deal played legally to its last two stock cards, the 8 and the jack, still face down.
# Left: the king at the top, the queen and the 8 in the row below, and a 9 below the 8,
# covering it; the base is a queen. Only the draw is legal. With the 8 turned first, the
# 9, the 8, then (after the jack) the queen and the king go: the deal is won. With the
# jack first it cannot be won from here, nor from the start, so on a deal known to be
# winnable that order is ruled out.
LAST_TWO_PYRAMID = [13, 12, 8, 13, 3, 9, 1, 1, 10, 6, 8, 7, 12, 2, 11, 5, 11, 2, 3, 9, 3, 9,
                    6, 1, 10, 4, 13, 1]
LAST_TWO_TURNED = [10, 4, 7, 7, 2, 13, 8, 10, 4, 3, 7, 6, 11, 6, 9, 5, 12, 2, 4, 5, 5, 12]
LAST_TWO_REMOVED = EVERYTHING & ~(1 << 0 | 1 << 1 | 1 << 2 | 1 << 5)


def test_a_deal_known_winnable_rules_out_the_orders_that_cannot_win_it() -> None:
    pyramid, turned, removed = LAST_TWO_PYRAMID, LAST_TWO_TURNED, LAST_TWO_REMOVED
    assert reference_wins(pyramid, [*turned, 8, 11])
    assert not reference_wins(pyramid, [*turned, 11, 8])
    assert reference_wins(pyramid, [*turned, 8, 11], removed, drawn=22)
    unseen = counts([8, 11])
    plain = best_move(pyramid, removed, unseen, 12, random.Random(3), samples=40)
    known = best_move(pyramid, removed, unseen, 12, random.Random(3), samples=40,
                      winnable_from=turned)
    assert plain is not None and known is not None
    assert plain.odds == known.odds == ((DRAW, plain.wins),)
    assert plain.samples == 40 and 0 < plain.wins < 40  # each order drawn about half the time
    assert known.samples == known.wins == plain.wins  # the ruled-out order no longer counts
    assert known.rate == 1.0


def played_legally(deck: Sequence[int], seed: int, moves: int
                   ) -> tuple[list[int], list[int], int, int, int]:
    """A deal played from its start by random legal moves (at most `moves`, stopping
    before the game ends). Returns (pyramid, stock, removed, cards turned, base)."""
    rng = random.Random(seed)
    pyramid, stock = list(deck[:28]), list(deck[28:])
    removed, drawn, base = 0, 1, stock[0]
    for _ in range(moves):
        options = legal_moves(pyramid, removed, base, len(stock) - drawn)
        step = rng.choice(options) if options else None
        if isinstance(step, Pick) and removed | 1 << step.index != EVERYTHING:
            removed, base = removed | 1 << step.index, pyramid[step.index]
        elif isinstance(step, Draw) and len(stock) - drawn > 1:
            drawn, base = drawn + 1, stock[drawn]
    return pyramid, stock, removed, drawn, base


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks, st.integers(0, 2**32), st.integers(0, 40))
def test_knowing_the_deal_winnable_changes_the_share_not_the_move(
    deck: list[int], seed: int, moves: int
) -> None:
    # every order that wins from a position reached in play wins from the start too, so
    # ruling out the others takes samples away, never wins
    pyramid, stock, removed, drawn, base = played_legally(deck, seed, moves)
    unseen = counts(stock[drawn:])
    plain = best_move(pyramid, removed, unseen, base, random.Random(seed), 16)
    known = best_move(pyramid, removed, unseen, base, random.Random(seed), 16,
                      winnable_from=stock[:drawn])
    assert plain is not None and known is not None
    assert (known.move, known.odds) == (plain.move, plain.odds)
    assert plain.wins <= known.samples <= plain.samples == 16


@settings(max_examples=60, deadline=None)
@given(decks, st.integers(0, 2**32), st.integers(1, 12), st.integers(0, 3),
       st.integers(1, 13))
def test_with_one_possible_order_the_hint_is_exact(
    deck: list[int], seed: int, keep: int, copies: int, rank: int
) -> None:
    # all the unseen cards have the same rank: every sample is the true order
    pyramid, _, removed, base = played_into(deck, seed, keep, 1)
    stock = [base] + [rank] * copies
    found = best_move(pyramid, removed, counts(stock[1:]), base, random.Random(seed), 5)
    if found is None:
        assert not picks(pyramid, removed, base) and copies == 0
        return
    for move, wins in found.odds:
        if isinstance(move, Pick):
            after = reference_wins(pyramid, stock, removed | 1 << move.index,
                                   base=pyramid[move.index])
        else:
            after = reference_wins(pyramid, stock, removed, drawn=2)
        assert wins == (5 if after else 0), move
