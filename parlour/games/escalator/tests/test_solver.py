"""Escalator's hints and verdicts: they use only what the player may know."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from parlour.core.game import Status
from parlour.core.gameid import GameId
from parlour.games.escalator import search
from parlour.games.escalator.logic import (
    Escalator,
    Layout,
    Pick,
    index,
    short_name,
    verdict_of_deal,
)
from parlour.games.escalator.solver import hint, keeps_a_win, still_winnable

GAME = Escalator()


def deal(seed: str, winnable: bool = False) -> Layout:
    return GameId("escalator", {"winnable": winnable}, seed, GAME.deal_version).deal(GAME)


def test_the_hint_never_depends_on_the_stock_order() -> None:
    rng = random.Random(5)
    for number in range(8):
        layout = deal(f"hint{number}")
        unseen = list(layout.stock[1:])
        rng.shuffle(unseen)
        other = replace(layout, stock=(layout.stock[0], *unseen))
        found = hint(layout, 0)
        assert found is not None and found == hint(other, 0)


def test_on_a_winnable_deal_the_hint_still_never_depends_on_the_stock_order() -> None:
    rng = random.Random(6)
    for number in range(4):
        state = deal(f"winnable{number}", winnable=True)
        for move in range(3):  # a few moves in, some of the stock turned
            state = GAME.apply(state, GAME.legal_moves(state)[-1 if move % 2 else 0])
        unseen = list(state.stock[state.turned:])
        rng.shuffle(unseen)
        other = replace(state, stock=(*state.stock[:state.turned], *unseen))
        found = hint(state, 0)
        assert found is not None and found == hint(other, 0)


def test_on_a_winnable_deal_the_share_counts_the_ways_that_let_it_be_won() -> None:
    for number in range(4):
        state = deal(f"winnable{number}", winnable=True)
        assert state.dealt_winnable and verdict_of_deal(state).winnable
        known = hint(state, 0)
        plain = hint(replace(state, dealt_winnable=False), 0)
        assert known is not None and plain is not None
        assert known.move == plain.move  # ruling orders out changes the share, not the move
        assert "the deal stays winnable in" in known.note
        assert share(known.note) > share(plain.note)


def share(note: str) -> int:
    found = re.search(r"in (\d+)\u00a0%|(nearly all)", note)
    assert found is not None, note
    return 100 if found[2] else int(found[1])


HINT_WORDS = re.compile(
    r"^(Pick up the (10|[2-9AJQK])[♣♦♥♠]|Turn the stock)"
    r"(: (a win stays possible|the deal stays winnable) in ([1-9][0-9]?\u00a0% of|nearly all) "
    r"stock orders"
    r"|: winnable in ([1-9][0-9]?\u00a0% of|nearly all) stock orders "
    r"\(picking the (10|[2-9AJQK])[♣♦♥♠]: ([1-9][0-9]?\u00a0%|fewer|none)\)"
    r"| to keep a win in reach, if the stock falls kindly"
    r"|, though no order of the stock can win from here now)$"
)


PHONE_TWO_LINES = 82
"""The characters of a hint that two lines of a 360 px phone hold (88 measured, less
some for where the words break): the board under them does not move when one comes."""


def random_play(seed: str, moves: int) -> Layout:
    """Deal `seed` and make `moves` random legal moves (none that ends the game)."""
    state, rng = deal(seed), random.Random(0)
    for _ in range(moves):
        after = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        assert GAME.status(after) is Status.PLAYING
        state = after
    return state


def test_hints_say_how_often_a_win_stays_possible_as_a_player_would() -> None:
    chance = hint(random_play("h0", 4), 0)
    assert chance is not None
    assert chance.note == "Pick up the 3♥: a win stays possible in 6\u00a0% of stock orders"
    # no order tried wins, but one the player cannot rule out does: the move keeps it
    lucky_state = random_play("h0", 8)
    lucky = hint(lucky_state, 0)
    assert lucky is not None
    assert lucky.note == "Pick up the 7♠ to keep a win in reach, if the stock falls kindly"
    assert keeps_a_win(lucky_state, Pick(index(*lucky.move["pick"])))
    lost_state = random_play("h0", 24)
    lost = hint(lost_state, 0)
    assert lost is not None and not still_winnable(lost_state)
    assert lost.note == "Pick up the 6♠, though no order of the stock can win from here now"
    for number in range(6):
        found = hint(random_play(f"h{number}", 3), 0)
        assert found is not None and HINT_WORDS.match(found.note), found.note


def test_a_hint_to_turn_the_stock_over_a_card_on_the_table_says_why() -> None:
    """The card the player could pick up instead, and how often a win stays possible then."""
    state = random_play("h20", 3)
    assert any(isinstance(move, Pick) for move in GAME.legal_moves(state))
    found = hint(state, 0)
    assert found is not None and HINT_WORDS.match(found.note), found
    assert found.note == ("Turn the stock: winnable in 15\u00a0% of stock orders "
                          "(picking the 2♠: 9\u00a0%)")
    picked = hint(random_play("h0", 4), 0)  # a pick says no more than its own share
    assert picked is not None and "picking" not in picked.note


@pytest.mark.parametrize(("turn", "pick", "said"), [
    (200, 199, "fewer"),  # "nearly all" beside "99 %" read as the same
    (120, 119, "fewer"),  # 60 % twice
    (120, 80, "40\u00a0%"),
    (120, 0, "none"),  # "0 %" read as a figure to weigh
])
def test_a_turn_whose_share_reads_like_the_picks_says_the_pick_keeps_fewer(
    monkeypatch: pytest.MonkeyPatch, turn: int, pick: int, said: str
) -> None:
    state = random_play("h20", 3)
    card = next(move for move in GAME.legal_moves(state) if isinstance(move, Pick))
    odds = search.MoveOdds(search.DRAW, turn, 200,
                           ((search.Pick(card.at), pick), (search.DRAW, turn)))
    monkeypatch.setattr(search, "best_move", lambda *_, **__: odds)
    found = hint(state, 0)
    assert found is not None and HINT_WORDS.match(found.note), found
    assert found.note.endswith(f"(picking the {short_name(state.pyramid[card.at])}: {said})")
    # the longest, with a 10 and "nearly all", keeps to two lines of a 360 px phone
    longest = re.sub(r"in (\d+\u00a0% of|nearly all)", "in nearly all",
                     re.sub(r"picking the \S+", "picking the 10♠", found.note))
    assert len(f"Hint: {longest}") <= PHONE_TWO_LINES, longest


def test_a_winnable_deal_has_a_line_that_the_rules_accept() -> None:
    for number in range(30):
        layout = deal(f"line{number}")
        found = verdict_of_deal(layout)
        if not found.winnable:
            continue
        state = layout
        for move in found.line:
            state = GAME.apply(state, move)
        assert GAME.status(state).value == "won"
        assert still_winnable(layout)  # the true order wins, so some order does


def test_statistics_show_the_winnable_share_and_the_cards_left() -> None:
    from parlour.games import GAMES
    from parlour.stats.statistics import statistics
    from parlour.store import Result

    def result(number: int, outcome: str, left: int, winnable: bool) -> Result:
        return Result(f"s{number}", 1, "escalator", "standard", "solo", outcome, 28 - left,
                      60_000, 40, False, float(number),
                      {"cards_left": float(left), "winnable": float(winnable)})

    results = [result(1, "won", 0, True), result(2, "lost", 5, True),
               result(3, "lost", 5, False), result(4, "lost", 12, False)]
    [group] = statistics(results, GAMES)["groups"]
    shown = {f["name"]: f for f in group["over_all"]}
    assert shown["winnable"]["share"] == 0.5 and shown["winnable"]["games"] == 4
    assert shown["cards_left"]["counts"] == {"0": 1, "5": 2, "12": 1}
    assert "Cards left at the end" in [chart["title"] for chart in group["charts"]]
    assert group["figures"] == {}  # shown over every game, not as best and mean of wins
