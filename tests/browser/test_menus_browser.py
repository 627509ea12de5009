"""The menu bar in a real Chromium: drawn from the commands each game declares, driven by
mouse, keyboard and touch, with entries enabled by the view, a game's own command, the
About box and Quit; on a phone the bar is one "Menu" button."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import CreateGame, NewContext, NextView, OpenPage, ServerView
from tests.browser.pages import GamePage
from tests.browser.scenes import SCENES, Stage

pytestmark = pytest.mark.browser

PHONE = {"has_touch": True, "is_mobile": True, "viewport": {"width": 390, "height": 844}}
MARKS_JS = "() => document.querySelectorAll('#board .mark').length"


class MenuPage(GamePage):
    """A game's page, with its menus."""

    BOARD_JS = "() => document.getElementById('board').textContent"

    def title(self, menu: str) -> Locator:
        return self.page.locator(f"#menu-{menu}")

    def menu(self, menu: str) -> Locator:
        return self.page.locator(f"#menu-{menu}-list")

    def entry(self, name: str, where: str = "#menubar") -> Locator:
        return self.page.locator(f'{where} [data-run="{name}"]')

    def open(self, menu: str) -> Locator:
        self.title(menu).click()
        expect(self.menu(menu)).to_be_visible()
        return self.menu(menu)

    def marks(self) -> int:
        return int(self.page.evaluate(MARKS_JS))


OpenGame = Callable[..., MenuPage]


@pytest.fixture
def game_page(
    open_page: OpenPage, new_context: NewContext, next_view: NextView, create_game: CreateGame
) -> OpenGame:
    """`game_page("tictactoe", seats=[...])`: a new game made over REST, open in a new
    browser that holds its seats (`phone=True`: a touch screen 390 px wide)."""

    def open_game(game: str, phone: bool = False, **options: object) -> MenuPage:
        created = create_game(game, **options)
        sid = created["session"]
        tokens = {sid: created["token"]}
        context = new_context(tokens=tokens, **PHONE) if phone else None
        page = open_page(f"/play/{game}?session={sid}", context=context, tokens=tokens)
        return MenuPage(page, next_view)

    return open_game


def two_players(game_page: OpenGame, **options: object) -> MenuPage:
    return game_page("tictactoe", seats=["human", "human"], **options)


def test_the_game_menu_starts_a_new_game_with_the_mouse(game_page: OpenGame) -> None:
    game = two_players(game_page)
    before = game.session()
    menu = game.open("game")
    expect(game.title("game")).to_have_attribute("aria-expanded", "true")
    expect(menu).to_have_attribute("role", "menu")
    expect(game.entry("new")).to_have_attribute("role", "menuitem")
    expect(game.entry("new").locator(".menu-keys")).to_have_text("NAlt+N")
    expect(game.entry("quit").locator(".menu-keys")).to_have_text("QAlt+Q")
    game.entry("new").click()
    expect(menu).to_be_hidden()
    expect(game.page.locator("#new-dialog")).to_be_visible()
    with game.next_view(game.page):
        game.page.click("#new-start")
    assert game.session() != before


def test_undo_is_disabled_at_the_start_and_enabled_after_a_move(game_page: OpenGame) -> None:
    game = two_players(game_page)
    game.open("edit")
    undo = game.entry("undo")
    expect(undo).to_have_attribute("aria-disabled", "true")
    undo.click(force=True)  # does nothing, and leaves the menu open
    expect(game.menu("edit")).to_be_visible()
    game.page.keyboard.press("Escape")
    expect(game.menu("edit")).to_be_hidden()

    with game.next_view(game.page):
        game.page.click("#ttt-1-1")
    assert game.marks() == 1
    game.open("edit")
    expect(undo).to_have_attribute("aria-disabled", "false")
    expect(game.entry("redo")).to_have_attribute("aria-disabled", "true")
    with game.next_view(game.page):
        undo.click()
    assert game.marks() == 0
    game.open("edit")
    expect(game.entry("redo")).to_have_attribute("aria-disabled", "false")


def test_the_menus_work_with_the_keyboard_alone(game_page: OpenGame) -> None:
    game = two_players(game_page)
    keys = game.page.keyboard
    with game.next_view(game.page):
        keys.press("5")  # the centre cell
    assert game.marks() == 1

    keys.press("F10")
    assert game.focused() == "menu-game"
    keys.press("Escape")  # back to the board
    assert game.focused() == "board-wrap"
    keys.press("Alt")  # alone: to the menu bar, as F10
    assert game.focused() == "menu-game"
    keys.press("ArrowRight")
    assert game.focused() == "menu-edit"
    keys.press("ArrowDown")
    expect(game.menu("edit")).to_be_visible()
    expect(game.entry("undo")).to_be_focused()
    keys.press("ArrowDown")
    expect(game.entry("redo")).to_be_focused()
    keys.press("ArrowLeft")  # the menu to the left, at its first entry
    expect(game.menu("game")).to_be_visible()
    expect(game.menu("edit")).to_be_hidden()
    expect(game.entry("new")).to_be_focused()
    keys.press("ArrowRight")
    expect(game.entry("undo")).to_be_focused()
    with game.next_view(game.page):
        keys.press("Enter")
    assert game.marks() == 0
    expect(game.menu("edit")).to_be_hidden()
    assert game.focused() == "board-wrap"


def test_the_keys_of_the_commands_still_work(game_page: OpenGame) -> None:
    game = two_players(game_page)
    with game.next_view(game.page):
        game.page.keyboard.press("5")
    with game.next_view(game.page):
        game.page.keyboard.press("Control+z")
    assert game.marks() == 0
    with game.next_view(game.page):
        game.page.keyboard.press("y")
    assert game.marks() == 1
    game.page.keyboard.press("Alt+n")  # the browser keeps Ctrl+N
    expect(game.page.locator("#new-dialog")).to_be_visible()


def test_a_menu_closed_with_nothing_chosen_gives_the_keys_back_to_the_game(
    game_page: OpenGame,
) -> None:
    """Its title clicked again, Menu tapped again or Escape: the game's keys work at once
    (the focus left on the title, or on Menu, kept them from the page)."""
    game = two_players(game_page)
    game.open("game")
    game.title("game").click()
    expect(game.menu("game")).to_be_hidden()
    with game.next_view(game.page):
        game.page.keyboard.press("5")
    assert game.marks() == 1

    phone = two_players(game_page, phone=True)
    fold = phone.page.locator("#menu-fold")
    for closing, cell in (("tap", "1"), ("Escape", "2")):
        fold.tap()
        expect(phone.page.locator("#menu-list")).to_be_visible()
        if closing == "tap":
            fold.tap()
        else:
            phone.page.keyboard.press(closing)
        expect(phone.page.locator("#menu-list")).to_be_hidden()
        with phone.next_view(phone.page):
            phone.page.keyboard.press(cell)
    assert phone.marks() == 2


def test_minesweepers_own_command_starts_a_no_guess_board(
    game_page: OpenGame, server_view: ServerView
) -> None:
    game = game_page("minesweeper", params={"rows": 9, "cols": 9, "mines": 10})
    before = game.session()
    game.open("game")
    entry = game.entry("no-guess")
    expect(entry).to_have_text("New no-guess gameG")
    with game.next_view(game.page):
        entry.click()
    assert game.session() != before
    seen = server_view(game.session())
    assert seen["params"]["first_click"] == "no_guess"
    assert (seen["params"]["rows"], seen["params"]["cols"], seen["params"]["mines"]) == (9, 9, 10)


def test_a_display_option_is_chosen_from_the_view_menu(game_page: OpenGame) -> None:
    game = game_page("ishido")
    board = game.page.locator("#board")
    expect(board).to_have_attribute("data-opt-tiles", "birds")
    game.open("view")
    expect(game.entry("tiles-birds")).to_have_attribute("aria-checked", "true")
    game.entry("tiles-shapes").click()
    expect(board).to_have_attribute("data-opt-tiles", "shapes")
    game.open("view")
    expect(game.entry("tiles-shapes")).to_have_attribute("role", "menuitemradio")
    expect(game.entry("tiles-shapes")).to_have_attribute("aria-checked", "true")
    expect(game.entry("tiles-birds")).to_have_attribute("aria-checked", "false")


def test_help_about_shows_the_games_about_box(game_page: OpenGame) -> None:
    game = game_page("ishido")
    game.open("help")
    expect(game.entry("about")).to_have_text("About Ishido")
    game.entry("about").click()
    about = game.page.locator("#about-dialog")
    expect(about).to_be_visible()
    expect(about.locator("#about-title")).to_have_text("About Ishido")
    expect(about).to_contain_text("Alex Harsányi")
    expect(about).to_contain_text("1990")
    about.get_by_role("button", name="OK").click()
    expect(about).to_be_hidden()


def test_the_key_table_is_built_from_the_commands(game_page: OpenGame) -> None:
    game = game_page("minesweeper")
    game.page.keyboard.press("F1")
    rows = game.page.locator("#keys tr")
    texts = [rows.nth(i).inner_text().replace("\t", " ") for i in range(rows.count())]
    assert len(texts) == len(set(texts)), texts
    assert "N, Alt+N New game" in texts
    assert "G New no-guess game" in texts
    assert "Q, Alt+Q Quit" in texts


def test_quit_goes_home_from_the_menu_and_with_alt_q(game_page: OpenGame, base_url: str) -> None:
    game = game_page("tictactoe")
    game.open("game")
    game.entry("quit").click()
    game.page.wait_for_url(f"{base_url}/")
    game = game_page("tictactoe")
    game.page.keyboard.press("Alt+q")
    game.page.wait_for_url(f"{base_url}/")


def test_on_a_phone_the_menus_are_one_button_that_works_by_touch(game_page: OpenGame) -> None:
    game = two_players(game_page, phone=True)
    page: Page = game.page
    expect(page.locator("#menubar")).to_be_hidden()
    fold = page.locator("#menu-fold")
    expect(fold).to_be_visible()
    expect(fold).to_have_text("☰Menu")
    box = fold.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390

    with game.next_view(page):
        page.locator("#ttt-0-0").tap()
    fold.tap()
    folded = page.locator("#menu-list")
    expect(folded).to_be_visible()
    expect(fold).to_have_attribute("aria-expanded", "true")
    expect(folded.locator(".menu-heading")).to_have_text(["Game", "Edit", "View", "Help"])
    undo = game.entry("undo", "#menu-list")
    expect(undo).to_have_attribute("aria-disabled", "false")
    with game.next_view(page):
        undo.tap()
    expect(folded).to_be_hidden()
    assert game.marks() == 0

    fold.tap()
    game.entry("about", "#menu-list").tap()
    expect(page.locator("#about-dialog")).to_be_visible()
    expect(page.locator("#about-dialog")).to_contain_text("ClojureScript")


def test_a_game_exported_from_the_menu_is_imported_in_another_browser(
    game_page: OpenGame,
) -> None:
    game = two_players(game_page)
    for cell in ("#ttt-1-1", "#ttt-0-0"):
        with game.next_view(game.page):
            game.page.click(cell)
    game.open("game")
    with game.page.expect_download() as downloading:
        game.entry("export").click()
    download = downloading.value
    assert download.suggested_filename.startswith("tictactoe-")
    assert download.suggested_filename.endswith(".parlour.json")

    other = two_players(game_page)  # another browser, in a game of its own
    other.open("game")
    with other.page.expect_file_chooser() as choosing:
        other.entry("import").click()
    with other.next_view(other.page):
        choosing.value.set_files(download.path())
    expect(other.page.locator("#game-id")).to_have_text(game.page.locator("#game-id").inner_text())
    assert other.marks() == 2
    assert other.session() != game.session()  # a game of its own, from the same deal and moves


def test_a_damaged_file_is_refused_in_a_player_s_words(
    game_page: OpenGame, tmp_path: Path,
) -> None:
    damaged = tmp_path / "tictactoe.parlour.json"
    damaged.write_text('{"version": 1, "game": "tictactoe"}')
    other = two_players(game_page)
    other.open("game")
    with other.page.expect_file_chooser() as choosing:
        other.entry("import").click()
    choosing.value.set_files(str(damaged))
    expect(other.page.locator("#message")).to_have_text(
        "That file cannot be imported: its 'format' is missing")


@pytest.mark.parametrize("game", ["escalator", "ishido", "tribolo"])
def test_assist_is_off_once_the_game_is_over_as_hint_is(
    open_page: OpenPage, next_view: NextView, stage: Stage, server_view: ServerView, game: str
) -> None:
    """Hint and Assist help only while the game is on. At its end both grey out, in the
    toolbar and in the Edit menu, and neither a click, the entry nor A turns Assist on:
    Assist stayed live, and on a finished Escalator it lit its light."""
    ending = next(scene for scene in SCENES if scene.game == game and scene.moment != "play")
    reached, last = stage.before_the_end(ending)
    menus = MenuPage(open_page(reached.path(game), tokens={reached.session: reached.token}),
                     next_view)
    page = menus.page
    assist, hint = page.locator("#btn-assist"), page.locator("#btn-hint")
    expect(assist).to_be_enabled()  # the game on: both help
    expect(hint).to_be_enabled()
    with next_view(page):  # the last move, the player's (made over REST as the page looks on)
        stage.play(reached, game, last)
    assert server_view(reached.session, reached.token)["status"] == ending.moment
    expect(hint).to_be_disabled()
    expect(assist).to_be_disabled()
    assist.click(force=True)  # a click on the greyed button
    page.keyboard.press("Escape")  # the end card put away: the keys are the game's
    page.keyboard.press("a")
    menus.open("edit")
    expect(menus.entry("assist")).to_have_attribute("aria-disabled", "true")
    expect(menus.entry("hint")).to_have_attribute("aria-disabled", "true")
    menus.entry("assist").click(force=True)
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)  # time for a message to reach the server, were one sent
    assert server_view(reached.session, reached.token)["assist"] is False
    expect(assist).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#esc-lamp")).to_have_count(0)  # Escalator's light stays dark
