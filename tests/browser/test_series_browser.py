"""Rematch in real browsers: two players in two browsers offer and accept it and both
pages move to the new game, its first move passed on; against the computer it starts at
once. Boards read as in test_tictactoe_browser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import TIMEOUT_MS, CreateGame, OpenPage, ServerView
from tests.browser.test_accessibility import assert_none, audit_in_both_themes
from tests.browser.test_seats_browser import seat_chip
from tests.browser.test_tictactoe_browser import EMPTY, OpenGame
from tests.browser.test_tictactoe_browser import ttt as ttt  # the fixture

pytestmark = pytest.mark.browser


def test_two_players_accept_a_rematch_and_the_first_move_passes_on(
    ttt: OpenGame, server_view: ServerView
) -> None:
    cross = ttt()
    sid = cross.new_game("human", "open")
    circle = ttt(f"/play/tictactoe?session={sid}", confirm=True)
    # no help in a game between people, as on lichess: Hint is off, and H says why
    expect(cross.page.locator("#btn-hint")).to_be_disabled()
    cross.page.keyboard.press("h")
    expect(cross.page.locator("#message")).to_have_text(
        "Hint is off: no hints nor assist in a game against another person")
    for player, other, cell, board in (
        (cross, circle, (0, 0), "X../.../..."), (circle, cross, (0, 1), "X../O../..."),
        (cross, circle, (1, 0), "XX./O../..."), (circle, cross, (1, 1), "XX./OO./..."),
        (cross, circle, (2, 0), "XXX/OO./..."),
    ):
        player.click(*cell)
        other.wait_board(board)
    # a player's first game: the result says it all, no "Series so far"; and one primary
    # action, Rematch (a view and the card's beat each decide it: they agree)
    card = circle.page.locator("#end-card")
    expect(card).to_be_visible()
    expect(circle.page.locator("#end-series")).to_be_hidden()
    expect(card.locator(".end-actions .btn.primary")).to_have_text(["Rematch"])

    circle.page.locator("#end-card").get_by_role("button", name="Rematch", exact=True).click()
    expect(circle.page.locator("#end-rematch")).to_contain_text("waiting for an answer")
    offer = cross.page.locator("#end-rematch")
    expect(offer).to_contain_text("Circle offers a rematch.")
    expect(offer.get_by_role("button", name="Accept")).to_be_focused()  # the answer asked for
    # one primary action on the card: Accept, not New game beside it
    expect(cross.page.locator("#end-card .btn.primary:visible")).to_have_text(["Accept"])
    assert_none(audit_in_both_themes(cross.page, "the end card, a rematch offered", "#end-card"))
    offer.get_by_role("button", name="Accept").click()

    for game in (cross, circle):  # both pages move to the rematch, each with its own seat
        game.page.wait_for_function(f"() => !location.search.includes('{sid}')",
                                    timeout=TIMEOUT_MS)
        game.wait_board(EMPTY)
    assert cross.session() == circle.session() != sid
    expect(seat_chip(circle, 0)).to_contain_text("You")  # the loser moved second: now first
    expect(seat_chip(cross, 1)).to_contain_text("You")
    row = circle.page.locator("#series")
    expect(row).to_contain_text("Series, game 2", use_inner_text=True)
    # each score under its player: the loser is now Cross, the winner Circle; two players'
    # wins alone (one's losses are the other's wins), and no draw to tell
    expect(row).to_contain_text("You 0 wins", use_inner_text=True)
    expect(row).to_contain_text("Opponent 1 win", use_inner_text=True)
    expect(row).not_to_contain_text("loss")
    expect(row).not_to_contain_text("draw")
    assert_none(audit_in_both_themes(circle.page, "the series' score", "#series"))
    circle.click(1, 1)
    cross.wait_board(".../.X./...")
    assert server_view(circle.session(), circle.token())["you"] == [0]

    circle.page.reload()  # the new game is theirs: a reload keeps the seat
    circle.wait_board(".../.X./...")
    expect(seat_chip(circle, 0)).to_contain_text("You")


def test_a_rematch_against_the_computer_starts_at_once(ttt: OpenGame) -> None:
    game = ttt()
    sid = game.new_game("human", "ai:random")
    card = game.page.locator("#end-card")
    while not card.is_visible():
        game.click(*game.playable()[0])
        game.page.wait_for_function(
            "() => !document.getElementById('end-card').hidden"
            " || document.querySelectorAll('#ttt-board .cell.playable[data-move]').length > 0",
            timeout=TIMEOUT_MS)
    card.get_by_role("button", name="Rematch", exact=True).click()
    game.page.wait_for_function(f"() => !location.search.includes('{sid}')", timeout=TIMEOUT_MS)
    expect(seat_chip(game, 1)).to_contain_text("You")
    expect(seat_chip(game, 0)).to_contain_text("Computer (Random)")
    game.page.wait_for_function("() => document.querySelectorAll('#ttt-board .cross').length === 1",
                                timeout=TIMEOUT_MS)  # the computer, now Cross, moved first
    expect(game.page.locator("#series")).to_contain_text("Series, game 2", use_inner_text=True)
    expect(card).to_be_hidden()
    game.page.set_viewport_size({"width": 390, "height": 844})  # a phone: the games won alone
    expect(game.page.locator("#series .series-label")).to_have_text(
        "Game 2, won:", use_inner_text=True)
    scores = game.page.locator("#series .series-seat")  # in the first game's order
    expect(scores.nth(0)).to_have_text(re.compile(r"^You\s+[01]$"), use_inner_text=True)
    expect(scores.nth(1)).to_have_text(re.compile(r"^Computer.*\s+[01]$"), use_inner_text=True)


def test_players_sharing_a_screen_are_told_apart_and_a_rematch_swaps_their_symbols(
    ttt: OpenGame,
) -> None:
    game = ttt()
    game.new_game("human", "human")
    expect(seat_chip(game, 0)).to_contain_text("Player 1")
    expect(seat_chip(game, 1)).to_contain_text("Player 2")
    game.play([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])  # Player 1, Cross, wins the top row
    game.page.locator("#end-card").get_by_role("button", name="Rematch", exact=True).click()
    game.wait_board(EMPTY)
    expect(seat_chip(game, 0)).to_contain_text("Cross")
    expect(seat_chip(game, 0)).to_contain_text("Player 2")  # the loser moves first now
    expect(seat_chip(game, 1)).to_contain_text("Player 1")
    expect(game.page.locator("#series")).to_contain_text("Player 1 1 win", use_inner_text=True)
    # a draw: two players' scores are their wins, and the draw is told once
    game.play([(0, 0), (1, 1), (2, 2), (0, 2), (2, 0), (1, 0), (1, 2), (2, 1), (0, 1)])
    scores = game.page.locator("#end-series")
    expect(scores).to_contain_text("Series after 2 games", use_inner_text=True)
    # (each player where they were in the first game: a rematch swapped their seats)
    expect(scores.locator(".series-seat")).to_have_text(
        [re.compile(r"Player\s1\s+1 win"), re.compile(r"Player\s2\s+0 wins")], use_inner_text=True)
    expect(scores.locator(".series-drawn")).to_have_text("1 drawn")


def test_two_computers_in_a_series_are_named_by_their_seats(
    create_game: CreateGame, open_page: OpenPage
) -> None:
    created = create_game("tictactoe", seats=["ai:random", "ai:random"])
    assert created["view"]["status"] != "playing"  # played out before the answer came
    page = open_page(f"/play/tictactoe?session={created['session']}")
    scores = page.locator("#end-series")  # on the end card of the series' first game
    expect(scores).to_contain_text("Computer, Cross", use_inner_text=True)
    expect(scores).to_contain_text("Computer, Circle", use_inner_text=True)
