"""Escalator's rules, from seed 003 (tktk) and the issue's contract for scripts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from parlour.core.game import IllegalMove, Status, UndoRule
from parlour.core.gameid import GameId
from parlour.core.session import Session
from parlour.games.escalator.logic import (
    FULL,
    PYRAMID,
    Draw,
    Escalator,
    Layout,
    Pick,
    adjacent,
    code,
    dealt,
    index,
    short_name,
    shuffled_deck,
)

GAME = Escalator()
RANKS = "A23456789TJQK"


def card(text: str) -> int:
    """'7c' -> the card's number."""
    return RANKS.index(text[0]) * 4 + "cdhs".index(text[1])


def layout(pyramid: str, stock: str, removed: int = 0, turned: int = 1) -> Layout:
    """A hand-made deal: 28 pyramid cards by flat index, the stock in turning order."""
    pyramid_cards = tuple(card(t) for t in pyramid.split())
    stock_cards = tuple(card(t) for t in stock.split())
    assert len(pyramid_cards) == PYRAMID
    bases = stock_cards[:turned]
    return Layout(pyramid_cards, stock_cards, removed, turned, bases)


def standard_deck_layout(seed: int = 7) -> Layout:
    return GAME.deal({"winnable": False}, random.Random(seed))


# a hand-made pyramid, rows top to bottom: 2c / 3c 2d / 4c 3d 5c / 4d 6c 5d 7d /
# 6d 8d 7h 9d 8h / Th 9h Jh Ts Qh Js / Kh Qs As Ks 2s Ah 3s
CHAIN = ("2c 3c 2d 4c 3d 5c 4d 6c 5d 7d 6d 8d 7h 9d 8h "
         "Th 9h Jh Ts Qh Js Kh Qs As Ks 2s Ah 3s")


# -- the deal -------------------------------------------------------------------------
def test_the_deal_is_a_whole_deck_in_pyramid_and_stock() -> None:
    state = standard_deck_layout()
    assert len(state.pyramid) == 28 and len(state.stock) == 24
    assert sorted(state.pyramid + state.stock) == list(range(52))
    assert state.base == state.stock[0] and state.stock_left == 23  # the first is turned up


def test_the_shuffle_is_fisher_yates_from_the_seeded_generator() -> None:
    assert shuffled_deck(random.Random(1)) == shuffled_deck(random.Random(1))
    assert shuffled_deck(random.Random(1)) != shuffled_deck(random.Random(2))
    # every card lands everywhere: a uniform shuffle, roughly
    firsts = {shuffled_deck(random.Random(seed))[0] for seed in range(2000)}
    assert len(firsts) == 52


def test_the_same_id_deals_the_same_cards() -> None:
    game_id = GameId("escalator", {"winnable": False}, "abc", GAME.deal_version)
    assert game_id.deal(GAME) == game_id.deal(GAME)


# -- picking up -------------------------------------------------------------------------
def test_ranks_one_apart_are_adjacent_and_aces_wrap_both_ways() -> None:
    assert adjacent(7, 8) and adjacent(8, 7)
    assert adjacent(1, 13) and adjacent(13, 1) and adjacent(1, 2)
    assert not adjacent(7, 7) and not adjacent(7, 9) and not adjacent(12, 1)


def test_a_free_card_one_rank_from_the_base_is_picked_whatever_its_suit() -> None:
    state = layout(CHAIN, "Kc " + "5s " * 23)  # base: the king of clubs
    ace = index(6, 2)  # the ace of spades, in the bottom row: nothing covers it
    after = GAME.apply(state, Pick(ace))
    assert after.base == card("As") and after.removed == 1 << ace
    assert after.bases == (card("Kc"), card("As"))
    queen = GAME.apply(state, Pick(index(6, 1)))  # the queen of spades: down from the king
    assert queen.base == card("Qs")


def test_a_card_two_ranks_away_or_of_the_same_rank_rings_the_bell() -> None:
    state = layout(CHAIN, "Kc " + "5s " * 23)
    with pytest.raises(IllegalMove, match="two of spades is not one rank from the base, "
                       "the king of clubs"):
        GAME.apply(state, Pick(index(6, 4)))  # K to 2 is two steps round the corner
    with pytest.raises(IllegalMove, match="not one rank from the base"):
        GAME.apply(state, Pick(index(6, 0)))  # the king of hearts: the same rank


def test_a_covered_card_cannot_be_picked() -> None:
    state = layout(CHAIN, "2h " + "5s " * 23)
    with pytest.raises(IllegalMove, match="covered by cards of row 7"):
        GAME.apply(state, Pick(index(5, 0)))  # row 5 is covered by row 6
    half = replace(state, removed=1 << index(6, 0))
    with pytest.raises(IllegalMove, match="covered"):
        GAME.apply(half, Pick(index(5, 0)))  # one of its two covering cards is still there


def test_a_card_is_free_once_both_cards_over_it_are_gone() -> None:
    state = layout(CHAIN, "Ks " + "5s " * 23, removed=1 << index(6, 5) | 1 << index(6, 6))
    assert index(5, 5) in state.free()
    assert index(5, 4) not in state.free()


# -- the stock ----------------------------------------------------------------------------
def test_the_stock_may_be_turned_at_any_time_until_it_is_spent() -> None:
    state = standard_deck_layout()
    for turned in range(2, 25):
        assert Draw() in GAME.legal_moves(state)
        state = GAME.apply(state, Draw())
        assert state.turned == turned and state.base == state.stock[turned - 1]
    assert state.stock_left == 0
    if GAME.status(state) is Status.PLAYING:
        with pytest.raises(IllegalMove, match="the stock is empty"):
            GAME.apply(state, Draw())


# -- the end ------------------------------------------------------------------------------
def test_the_game_is_won_when_the_pyramid_is_empty() -> None:
    state = layout(CHAIN, "Ac " + "5s " * 23, removed=FULL ^ 1 << 0)  # the 2c on top is left
    after = GAME.apply(state, Pick(0))
    assert GAME.status(after) is Status.WON and GAME.to_move(after) is None
    assert GAME.scores(after) == (28,)
    # the player has shown the deal winnable: no search, and the win counts a winnable deal
    assert after.verdict is None and GAME.figures(after, 1000, 1)["winnable"] == 1


def test_the_game_is_lost_when_the_stock_is_spent_and_nothing_fits() -> None:
    # (a stock of fives, impossible in a real deck, keeps the case plain: no 4 or 6 is free)
    state = layout(CHAIN, " ".join(["5s"] * 24), turned=23)
    after = GAME.apply(state, Draw())  # the last card: a five, and no 4 or 6 is free
    assert GAME.status(after) is Status.LOST
    assert after.verdict is not None and not after.verdict.winnable
    assert GAME.figures(after, 1000, 23)["cards_left"] == 28


def test_the_game_goes_on_while_the_stock_has_cards_even_with_nothing_to_pick() -> None:
    state = layout(CHAIN, " ".join(["5s"] * 24))
    assert state.playable() == [] and GAME.status(state) is Status.PLAYING


# -- undo ----------------------------------------------------------------------------------
def test_undo_takes_back_pick_ups_but_never_a_turn_of_the_stock() -> None:
    state = standard_deck_layout()
    assert GAME.undo_rule(state, Draw(), GAME.apply(state, Draw())) is UndoRule.FORBIDDEN
    for at in range(PYRAMID):
        assert GAME.undo_rule(state, Pick(at), state) is UndoRule.ALLOWED
    # said in one short sentence, after the page's "Undo is off: "
    assert GAME.undo_refusal == "a card turned from the stock stays turned"


def test_undo_in_a_session_goes_back_over_picks_and_stops_at_a_draw() -> None:
    for seed in range(200):  # a deal with two picks in a row after a draw
        game_id = GameId("escalator", {"winnable": False}, f"s{seed}", GAME.deal_version)
        session = escalator_session(game_id)
        session.play({"draw": True}, 0)
        picks = 0
        while picks < 2 and session.state.playable():
            at = session.state.playable()[0]
            session.play(GAME.move_to_json(Pick(at)), 0)
            picks += 1
        if picks == 2:
            break
    else:
        pytest.fail("no deal with two picks after a draw")
    assert session.can_undo({0})
    session.undo({0})
    session.undo({0})
    assert session.cursor == 1 and not session.can_undo({0})
    assert session.undo_refusal({0}) == GAME.undo_refusal
    with pytest.raises(Exception, match="stays turned"):
        session.undo({0})


def escalator_session(game_id: GameId) -> Session:
    from parlour.games.escalator import SPEC

    return Session(SPEC, game_id, ["human"])


# -- what the player sees -------------------------------------------------------------------
def test_the_text_is_seven_rows_then_the_base_and_the_stock() -> None:
    state = layout(CHAIN, "Kc " + "5s " * 23, removed=1 << index(6, 6))
    text = GAME.text(GAME.observe(state, 0))
    lines = text.split("\n")
    assert len(lines) == 9
    assert [line.split() for line in lines[:7]] == [
        [code(c) if not state.removed >> i & 1 else ".." for i, c in
         enumerate(state.pyramid) if index(row, 0) <= i < index(row, 0) + row + 1]
        for row in range(7)
    ]
    assert lines[6].split()[-1] == ".."
    assert lines[7] == "base: Kc" and lines[8] == "stock: 23"


def test_the_stock_order_is_never_shown_while_playing() -> None:
    state = standard_deck_layout()
    seen = GAME.observe(state, 0)
    assert seen["stock_order"] is None
    hidden = {code(c) for c in state.stock[1:]}
    assert not hidden & set(str(seen).replace("'", " ").split())
    assert not any(h in str(seen) for h in hidden)


def test_moves_are_checked() -> None:
    for bad, message in [({"pick": [7, 0]}, "no pyramid card at"), ({"pick": [2, 3]}, "no pyramid"),
                         ({"draw": False}, "a move is"), ({}, "a move is"),
                         ({"pick": [1, 1], "draw": True}, "a move is"),
                         ({"pick": ["a", 0]}, "malformed")]:
        with pytest.raises(IllegalMove, match=message):
            GAME.parse_move(bad)
    assert GAME.move_to_json(GAME.parse_move({"pick": [3, 2]})) == {"pick": [3, 2]}
    assert GAME.move_to_json(GAME.parse_move({"draw": True})) == {"draw": True}


def test_a_dealt_layout_starts_with_the_first_stock_card_as_base() -> None:
    deck = list(range(52))
    state = dealt(deck)
    assert state.pyramid == tuple(range(28)) and state.base == 28


def test_the_moves_are_a_pick_of_each_card_that_fits_and_a_turn_while_the_stock_lasts() -> None:
    state = layout(CHAIN, "Ac " + "5s " * 23)  # an ace as the base: kings and twos fit
    assert GAME.legal_moves(state) == [Pick(21), Pick(24), Pick(25), Draw()]
    spent = layout(CHAIN, "5s " * 23 + "Ac", turned=24)
    assert GAME.legal_moves(spent) == [Pick(21), Pick(24), Pick(25)]


def test_cards_are_named_in_notes_as_players_write_them() -> None:
    assert [short_name(card(text)) for text in ("Ac", "7d", "Th", "Js", "Kc", "2h")] == [
        "A♣", "7♦", "10♥", "J♠", "K♣", "2♥"]


def test_the_cards_not_yet_seen_are_the_face_down_stock_in_no_telling_order() -> None:
    state = layout(CHAIN, "Ac 9s 5s 3h " + "5s " * 20, turned=2)
    assert state.unseen() == sorted([card("5s"), card("3h")] + [card("5s")] * 20)


def test_a_winnable_deal_is_dealt_in_a_worker_never_on_the_event_loop() -> None:
    # the search behind it takes up to a second or more (bench: median 135 ms, p95 0.9 s
    # on a busy 2-core machine); the server deals a slow deal in a worker process
    assert GAME.slow_deal(GAME.validate({"winnable": True}))
    assert not GAME.slow_deal(GAME.validate({"winnable": False}))  # a shuffle: at once


# -- what the player is told -------------------------------------------------------------
def test_the_headline_names_the_game_while_playing_and_counts_the_cards_left_at_a_loss() -> None:
    assert GAME.headline(GAME.observe(layout(CHAIN, "Ac " + "5s " * 23), 0)) == "Escalator"
    lost = GAME.apply(layout(CHAIN, " ".join(["5s"] * 24), turned=23), Draw())
    assert GAME.headline(GAME.observe(lost, 0)) == "Game over: 28 cards left"
    one_left = GAME.observe(lost, 0) | {"pyramid": [["2c"]] + [[None] * (r + 1)
                                                            for r in range(1, 7)]}
    assert GAME.headline(one_left) == "Game over: 1 card left"
    two_left = one_left | {"pyramid": [["2c"], ["3c", None]] + [[None] * (r + 1)
                                                               for r in range(2, 7)]}
    assert GAME.headline(two_left) == "Game over: 2 cards left"


def test_the_headline_of_a_cleared_pyramid_says_the_player_won() -> None:
    won = GAME.apply(layout(CHAIN, "Ac " + "5s " * 23, removed=FULL ^ 1), Pick(0))
    assert GAME.headline_for(GAME.observe(won, 0), {0}) == "You win! Pyramid cleared"
    assert GAME.headline_for(GAME.observe(won, None), set()) == "Pyramid cleared"  # watched


def test_turning_the_stock_sounds_a_flip_and_picking_a_card_sounds_a_card() -> None:
    state = layout(CHAIN, "Ac " + "5s " * 23)
    assert GAME.sound(state, Draw(), GAME.apply(state, Draw())) == "flip"
    assert GAME.sound(state, Pick(21), GAME.apply(state, Pick(21))) == "card"


def test_the_view_shows_the_last_card_turned_or_picked_for_the_page_to_move() -> None:
    state = layout(CHAIN, "Ac 9s " + "5s " * 22)
    assert GAME.observe(state, 0)["last"] is None
    picked = GAME.apply(state, Pick(21))  # the king of hearts onto the ace
    assert GAME.observe(picked, 0)["last"] == {"pick": [6, 0], "card": "Kh"}
    turned = GAME.apply(picked, Draw())
    assert GAME.observe(turned, 0)["last"] == {"draw": True, "card": "9s"}


def test_a_card_picked_up_already_is_refused_as_such() -> None:
    state = GAME.apply(layout(CHAIN, "Ac " + "5s " * 23), Pick(25))  # the two of spades
    state = GAME.apply(state, Pick(23))  # then the ace of spades: a two would fit again
    with pytest.raises(IllegalMove, match=r"^that card has already been picked up$"):
        GAME.apply(state, Pick(25))


def test_no_move_is_taken_once_the_game_is_over() -> None:
    lost = GAME.apply(layout(CHAIN, " ".join(["5s"] * 24), turned=23), Draw())
    for move in (Draw(), Pick(21)):
        with pytest.raises(IllegalMove, match=r"^the game is over$"):
            GAME.apply(lost, move)
    spent = layout(CHAIN, "Ac " * 24, turned=24)
    with pytest.raises(IllegalMove, match=r"^the stock is empty$"):
        GAME.apply(spent, Draw())


def test_at_the_end_the_view_shows_the_verdict_with_its_line_and_the_stock_left() -> None:
    lost = GAME.apply(layout(CHAIN, " ".join(["5s"] * 24), turned=23), Draw())
    seen = GAME.observe(lost, 0)
    assert seen["verdict"] == {"winnable": False, "line": []}
    assert seen["stock_order"] == []
    state = standard_deck_layout()
    while GAME.status(state) is Status.PLAYING:
        moves = GAME.legal_moves(state)
        state = GAME.apply(state, moves[0])
    seen = GAME.observe(state, 0)
    assert state.verdict is not None
    assert seen["verdict"]["winnable"] == state.verdict.winnable
    assert seen["verdict"]["line"] == [GAME.move_to_json(m) for m in state.verdict.line]
    assert seen["stock_order"] == [code(c) for c in state.stock[state.turned:]]
    assert GAME.observe(standard_deck_layout(), 0)["verdict"] is None


def test_the_figures_count_the_cards_left_and_say_at_the_end_whether_it_was_winnable() -> None:
    state = layout(CHAIN, "Ac " + "5s " * 23)
    assert GAME.figures(state, 0, 0) == {"cards_left": 28.0}
    picked = GAME.apply(GAME.apply(state, Pick(25)), Pick(23))
    assert GAME.figures(picked, 0, 2) == {"cards_left": 26.0}
    lost = GAME.apply(layout(CHAIN, " ".join(["5s"] * 24), turned=23), Draw())
    assert GAME.figures(lost, 0, 1) == {"cards_left": 28.0, "winnable": 0.0}
    # a cleared pyramid counts what the stock had still to give instead (its end card)
    won = GAME.apply(layout(CHAIN, "Ac " + "5s " * 23, removed=FULL ^ 1), Pick(0))
    assert GAME.figures(won, 0, 1)["stock_left"] == float(won.stock_left) == 23.0


def test_only_a_move_that_loses_the_game_waits_for_the_solver() -> None:
    last_turn = layout(CHAIN, " ".join(["5s"] * 24), turned=23)
    assert GAME.slow_move(last_turn, Draw())  # the game is lost: was the deal winnable?
    last_card = layout(CHAIN, "Ac " + "5s " * 23, removed=FULL ^ 1)
    assert not GAME.slow_move(last_card, Pick(0))  # the win shows at once
    state = layout(CHAIN, "Ac " + "5s " * 23)
    assert not GAME.slow_move(state, Draw()) and not GAME.slow_move(state, Pick(21))
    assert not GAME.slow_move(state, Pick(0))  # refused: covered, so nothing to work out


def test_the_text_centres_the_pyramid_three_characters_a_card() -> None:
    lines = GAME.text(GAME.observe(layout(CHAIN, "Ac " + "5s " * 23), 0)).split("\n")
    assert lines[0] == " " * 9 + "2c"
    assert lines[1] == " " * 7 + "3c 2d"
    assert lines[5] == " " + "Th 9h Jh Ts Qh Js"
    assert lines[6] == "Kh Qs As Ks 2s Ah 3s"


def test_a_pick_off_the_pyramid_is_refused_with_its_shape() -> None:
    with pytest.raises(IllegalMove, match=r"^there is no pyramid card at \[7, 0\]: row 0 has "
                                          r"one card, row r has r \+ 1$"):
        GAME.parse_move({"pick": [7, 0]})
