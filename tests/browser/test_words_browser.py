"""Words a player reads on a game's page: no deal line on a game that has no deal, no
"Your turn" in a game played alone (a first word on the game instead), and one Sound
switch in the View menu."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from parlour.games import GAMES
from tests.browser.conftest import CreateGame, OpenPage

pytestmark = pytest.mark.browser


def test_tic_tac_toe_shows_no_deal_and_minesweeper_does(
    open_page: OpenPage, create_game: CreateGame
) -> None:
    created = create_game("tictactoe", seats=["human", "ai:perfect"])
    page = open_page(f"/play/tictactoe?session={created['session']}",
                     tokens={created["session"]: created["token"]})
    expect(page.locator("#message")).to_have_text("Your turn")  # a game for two says so
    expect(page.locator(".idbar .id-label")).to_be_hidden()  # every game starts the same
    expect(page.locator("#game-id")).to_be_hidden()
    expect(page.locator("#btn-copy")).to_be_hidden()
    mines = create_game("minesweeper")
    page = open_page(f"/play/minesweeper?session={mines['session']}",
                     tokens={mines["session"]: mines["token"]})
    expect(page.locator(".idbar .id-label")).to_have_text("Deal")
    expect(page.locator("#game-id")).to_contain_text("minesweeper@2:")


@pytest.mark.parametrize("game", ["ishido", "sliding", "minesweeper", "escalator"])
def test_a_solitaire_never_says_whose_turn_it_is(
    open_page: OpenPage, create_game: CreateGame, game: str
) -> None:
    created = create_game(game)
    page = open_page(f"/play/{game}?session={created['session']}",
                     tokens={created["session"]: created["token"]})
    # the game in one line for a new player instead (its first_note), till the first move
    expect(page.locator("#message")).to_have_text(GAMES[game].first_note)


def test_sound_is_one_ticked_switch_on_m(open_page: OpenPage) -> None:
    page = open_page("/play/sliding")
    page.locator("#menu-view").click()
    entries = page.locator("#menu-view-list [data-run]").all_inner_texts()
    assert [e for e in entries if "ute" in e or "Sound" in e] == [entries[2]], entries
    sound = page.locator('#menu-view-list [data-run="sound"]')
    expect(sound).to_have_attribute("role", "menuitemcheckbox")
    expect(sound).to_have_attribute("aria-checked", "true")
    page.keyboard.press("Escape")
    page.keyboard.press("m")
    page.locator("#menu-view").click()
    expect(sound).to_have_attribute("aria-checked", "false")
