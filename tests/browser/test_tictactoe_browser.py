"""Tic-Tac-Toe in a real Chromium against a real server: mouse, keyboard, AI, friends, reload.

Boards are compared as text, one row per "/" from the top, "X" a cross, "O" a circle, "." an
empty cell: "X../.O./..." is a cross top left and a circle in the middle.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.conftest import (
    CreateGame,
    NewContext,
    NextView,
    OpenPage,
    ServerView,
    WaitViews,
)
from tests.browser.pages import GamePage, overlap
from tests.browser.views import wait_for_layout

pytestmark = pytest.mark.browser

Cell = tuple[int, int]

EMPTY = ".../.../..."
QUIET_MS = 300  # how long to watch for a change that must not happen

BOARD_JS = """() => [0, 1, 2].map((y) => [0, 1, 2].map((x) => {
  const mark = document.getElementById(`ttt-m-${x}-${y}`);
  if (!mark) return ".";
  return mark.classList.contains("cross") ? "X" : mark.classList.contains("circle") ? "O" : "?";
}).join("")).join("/")"""


class TicTacToePage(GamePage):
    """One browser tab on the Tic-Tac-Toe page, with the moves and reads the tests need."""

    BOARD_JS = BOARD_JS

    # -- reading ------------------------------------------------------------------
    def cell(self, x: int, y: int) -> Locator:
        return self.page.locator(f"#ttt-{x}-{y}")

    def playable(self) -> list[Cell]:
        """Cells the page offers to play, in reading order."""
        ids = self.page.eval_on_selector_all(
            "#ttt-board .cell.playable[data-move]", "cells => cells.map((c) => c.id)"
        )
        cells = [(int(x), int(y)) for _, x, y in (name.split("-") for name in ids)]
        return sorted(cells, key=lambda cell: (cell[1], cell[0]))

    def game_id(self) -> str:
        return self.page.locator("#game-id").inner_text()

    # -- acting -------------------------------------------------------------------
    def click(self, x: int, y: int, views: int = 1) -> None:
        """Click a cell and wait for the views it brings (2 when the computer answers)."""
        with self.next_view(self.page, views):
            self.cell(x, y).click()

    def play(self, moves: Iterable[Cell]) -> None:
        for x, y in moves:
            self.click(x, y)

    def open_new_dialog(self) -> None:
        self.page.click("#btn-new")
        expect(self.page.locator("#new-dialog")).to_be_visible()

    def start_from_dialog(self) -> str:
        """Press Start in the open New dialog; returns the new session id."""
        before = self.session()
        with self.next_view(self.page):
            self.page.click("#new-start")
        expect(self.page.locator("#new-dialog")).to_be_hidden()
        assert self.session() != before, "Start did not open a new session"
        self.wait_board(EMPTY)
        return self.session()

    def new_game(self, cross: str, circle: str) -> str:
        """Start a game from the New dialog with these seats; returns the session id."""
        self.open_new_dialog()
        self.page.select_option("#f-seat-0", cross)
        self.page.select_option("#f-seat-1", circle)
        return self.start_from_dialog()


OpenGame = Callable[..., TicTacToePage]


@pytest.fixture
def ttt(open_page: OpenPage, next_view: NextView) -> OpenGame:
    """Open the Tic-Tac-Toe page (or `path`) in a new browser context."""

    def open_game(path: str = "/play/tictactoe", **options: Any) -> TicTacToePage:
        return TicTacToePage(open_page(path, **options), next_view)

    return open_game


OpenTwo = Callable[..., TicTacToePage]


@pytest.fixture
def two_at(ttt: OpenGame, create_game: CreateGame, new_context: NewContext) -> OpenTwo:
    """A game for two at one screen, in a browser of its own `width` by `height` pixels
    (`phone`: a touch screen)."""

    def open_two(width: int, height: int, phone: bool = False) -> TicTacToePage:
        created = create_game("tictactoe", seats=["human", "human"])
        sid = created["session"]
        touch = {"has_touch": True, "is_mobile": True} if phone else {}
        context = new_context(tokens={sid: created["token"]},
                              viewport={"width": width, "height": height}, **touch)
        return ttt(f"/play/tictactoe?session={sid}", context=context)

    return open_two


def test_the_tab_title_follows_in_a_browser_without_idle_callbacks(
    ttt: OpenGame, new_context: NewContext
) -> None:
    """Safari has no requestIdleCallback: the title still comes, after the view's frame,
    and the page raises no error (the fixture fails on any)."""
    context = new_context()
    context.add_init_script("delete window.requestIdleCallback;")
    game = ttt(context=context)
    game.new_game("human", "human")
    game.play([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])
    expect(game.page).to_have_title("Cross wins · Tic Tac Toe · Parlour")


def test_a_touch_screen_lights_no_cell_under_its_last_tap(
    ttt: OpenGame, new_context: NewContext
) -> None:
    """A touch screen keeps the last tap's hover: a cell freed under it (here by Undo,
    after a Rematch by the next game) must not look lit, as if hinted."""
    phone = new_context(has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    game = ttt(context=phone)
    game.new_game("human", "human")
    game.page.locator("#ttt-0-0").tap()
    game.wait_board("X../.../...")
    game.page.keyboard.press("u")  # the finger's last place is still over the cell
    game.wait_board(".../.../...")
    game.page.wait_for_timeout(300)  # (its fill fades in, when it is lit)
    fill = game.page.eval_on_selector("#ttt-0-0 rect", "rect => getComputedStyle(rect).fill")
    assert fill == "rgba(0, 0, 0, 0)"


def test_cross_wins_and_the_board_locks(
    ttt: OpenGame, server_view: ServerView
) -> None:
    game = ttt()
    sid = game.new_game("human", "human")
    expect(game.headline).to_have_text("Tic Tac Toe")
    assert len(game.playable()) == 9

    game.play([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])

    game.wait_board("XXX/OO./...")
    expect(game.headline).to_have_text("Cross wins")
    expect(game.page).to_have_title("Cross wins · Tic Tac Toe · Parlour")  # the tab says it too
    # the chips say who won, with no score of 1 and 0 (a series' row counts the games)
    expect(game.page.locator("#seats .seat.winner")).to_contain_text("Cross")
    expect(game.page.locator("#seats .seat .score")).to_have_count(0)
    win = game.page.locator("#ttt-win")
    expect(win).to_be_attached()  # (a level line has no height: Playwright's "visible" fails)
    style = win.evaluate(
        "(line) => { const s = getComputedStyle(line);"
        " return { display: s.display, visibility: s.visibility, stroke: s.stroke,"
        " opacity: s.opacity }; }"
    )
    assert style["display"] != "none" and style["visibility"] == "visible"
    assert style["stroke"] != "none" and float(style["opacity"]) > 0.5
    ends = [float(win.get_attribute(name) or "nan") for name in ("x1", "y1", "x2", "y2")]
    assert ends == [50, 50, 250, 50], "the winning line should cross the top row"
    expect(win).to_have_attribute("data-end-cause", "")  # the end card keeps clear of it
    assert game.playable() == []
    expect(game.page.locator("#ttt-board [data-move]")).to_have_count(0)
    expect(game.message).to_have_text("Well played, Player 1!")  # players sharing a screen
    # kept whole on a line: the end card's narrow column left "1!" alone on the next one
    assert "Player\u00a01!" in str(game.message.text_content())

    # Neither a click nor a key plays on a finished board (marked disabled, as a grid out of
    # play is: the click is the player's all the same)
    expect(game.page.locator("#ttt-board")).to_have_attribute("aria-disabled", "true")
    game.cell(2, 2).click(force=True)
    game.page.keyboard.press("9")
    game.page.wait_for_timeout(QUIET_MS)
    assert game.board() == "XXX/OO./..."
    assert server_view(sid)["moves"] == 5


def test_draw_game(ttt: OpenGame) -> None:
    game = ttt()
    game.new_game("human", "human")

    game.play([(0, 0), (1, 0), (2, 0), (1, 1), (1, 2), (2, 1), (0, 1), (0, 2), (2, 2)])

    game.wait_board("XOX/XOO/OXX")
    expect(game.headline).to_have_text("Draw Game")
    expect(game.page.locator("#ttt-win")).to_have_count(0)
    assert game.playable() == []
    expect(game.message).to_have_text("Well played, both!")  # "Draw Game" is said above
    # every game starts the same: the end card's New game is all there is to offer
    card = game.page.locator("#end-card")
    expect(card.get_by_role("button", name="New game")).to_be_visible()
    expect(card.get_by_role("button", name="Same deal again")).to_be_hidden()


def test_players_sharing_the_screen_are_told_the_game_had_help_not_you(ttt: OpenGame) -> None:
    game = ttt()
    game.new_game("human", "human")
    game.page.keyboard.press("h")
    expect(game.message).to_contain_text("Hint:")
    game.play([(0, 0), (1, 0), (2, 0), (1, 1), (1, 2), (2, 1), (0, 1), (0, 2), (2, 2)])
    expect(game.message).to_have_text("Well played, both! This game was played with help.")


def test_undo_and_redo(ttt: OpenGame) -> None:
    game = ttt()
    game.new_game("human", "human")
    undo, redo = game.page.locator("#btn-undo"), game.page.locator("#btn-redo")
    expect(undo).to_be_disabled()
    expect(redo).to_be_disabled()

    # Undo at the start changes nothing: the move after it is the only change seen.
    before = game.views()
    game.page.keyboard.press("u")
    game.click(0, 0)
    game.wait_board("X../.../...")
    assert game.views() == before + 1

    game.click(1, 1)
    game.wait_board("X../.O./...")
    expect(undo).to_be_enabled()

    with game.next_view(game.page):
        undo.click()
    game.wait_board("X../.../...")
    expect(game.page.locator("#ttt-m-1-1")).to_have_count(0)
    assert (1, 1) in game.playable()
    expect(redo).to_be_enabled()

    with game.next_view(game.page):
        undo.click()
    game.wait_board(EMPTY)
    assert len(game.playable()) == 9
    expect(undo).to_be_disabled()

    with game.next_view(game.page):
        redo.click()
    game.wait_board("X../.../...")
    expect(redo).to_be_enabled()  # the circle can still be redone

    game.click(2, 2)  # a different move drops the redo line
    game.wait_board("X../.../..O")
    expect(redo).to_be_disabled()


def test_new_asks_for_no_game_id_where_every_game_starts_the_same(ttt: OpenGame) -> None:
    game = ttt()
    game.open_new_dialog()
    dialog = game.page.locator("#new-dialog")
    expect(dialog.locator("#f-seat-0")).to_be_visible()
    expect(dialog.locator("#f-id")).to_have_count(0)  # no deal, no start position to give
    game.start_from_dialog()  # and Start still starts a game


def test_restart_keeps_the_game_id_and_a_finished_game(ttt: OpenGame) -> None:
    game = ttt()
    sid = game.new_game("human", "human")
    game_id = game.game_id()
    restart = game.page.locator("#btn-restart")
    expect(restart).to_be_disabled()

    game.play([(1, 1), (0, 0), (2, 2)])
    game.wait_board("O../.X./..X")
    expect(restart).to_be_enabled()
    # in the middle of a game Restart asks first, as Undo cannot bring the moves back
    dialog = game.page.locator("#restart-dialog")
    restart.click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("The 3 moves played so far will be lost")
    expect(dialog).not_to_contain_text("help")  # nothing here was hidden
    game.page.keyboard.press("Escape")  # keep playing
    expect(dialog).to_be_hidden()
    game.wait_board("O../.X./..X")
    game.page.keyboard.press("r")
    expect(dialog).to_be_visible()
    with game.next_view(game.page):
        game.page.keyboard.press("Enter")  # the Restart button has the focus

    game.wait_board(EMPTY)
    assert len(game.playable()) == 9
    expect(game.headline).to_have_text("Tic Tac Toe")
    assert game.game_id() == game_id
    assert game.session() == sid
    expect(restart).to_be_disabled()
    expect(game.page.locator("#btn-undo")).to_be_disabled()
    expect(game.page.locator("#btn-redo")).to_be_disabled()

    # After a finished game, R plays it again at once, as a new game: the finished one is
    # kept as it was played (its replay, its place among past games)
    game.play([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])
    expect(game.headline).to_have_text("Cross wins")
    game.page.keyboard.press("r")
    expect(game.page).not_to_have_url(re.compile(sid))
    game.wait_board(EMPTY)
    expect(game.headline).to_have_text("Tic Tac Toe")
    expect(game.page.locator("#ttt-win")).to_have_count(0)
    assert game.game_id() == game_id
    kept = game.page.request.get(f"/api/games/{sid}").json()
    assert kept["status"] == "won" and kept["moves"] == 5


def test_the_computer_answers_and_undo_takes_both_back(ttt: OpenGame) -> None:
    game = ttt()  # a fresh browser: the default game, you as Cross against the computer
    # the level as the New game dialog and the menus name it
    expect(game.page.locator("#seats")).to_contain_text("Computer (Medium)")
    game.wait_board(EMPTY)

    game.click(1, 1, views=2)  # your move, then the computer's

    expect(game.page.locator("#ttt-m-1-1.cross")).to_have_count(1)
    expect(game.page.locator("#ttt-board .mark.circle")).to_have_count(1)
    assert game.board().count("X") == 1
    assert len(game.playable()) == 7
    expect(game.message).to_have_text("Your turn")

    with game.next_view(game.page):
        game.page.click("#btn-undo")
    game.wait_board(EMPTY)
    assert len(game.playable()) == 9
    # what it took back, as the move list named it (until the next move)
    expect(game.message).to_have_text(re.compile(
        r"^Took back your centre and Circle's (top|middle|bottom) (left|centre|right)\. "
        r"Your turn$"))


def test_new_starts_each_kind_of_opponent_in_one_tap(
    ttt: OpenGame, server_view: ServerView
) -> None:
    """New ▾: the computer at each level, two on this screen, or a friend by invite link,
    the kind on the board marked, as lichess's "play with the computer / a friend"."""
    game = ttt()  # the default: against the computer (medium)
    page, choices = game.page, game.page.locator("#new-choices")
    page.click("#btn-new-more")
    expect(choices.locator(".menu-label")).to_have_text([
        *(f"New game against the computer ({level})"
          for level in ("Random", "Medium", "Hard", "Perfect")),
        "New game for two on this screen",
        "New game with a friend in another browser (invite link)"])
    checked = choices.locator('[aria-checked="true"]')
    expect(checked).to_have_text(re.compile(r"computer \(Medium\)"))
    before = game.session()
    choices.get_by_role("menuitemradio", name="New game against the computer (Hard)").click()
    expect(page.locator("#seats")).to_contain_text("Computer (Hard)")
    assert game.session() != before
    assert [seat["level"] for seat in server_view(game.session())["seats"]
            if seat["kind"] == "ai"] == ["hard"]

    page.click("#btn-new-more")
    expect(checked).to_have_text(re.compile(r"computer \(Hard\)"))
    choices.get_by_role("menuitemradio", name=re.compile("a friend in another browser")).click()
    expect(page.locator("#btn-invite")).to_be_visible()
    friend = ttt(f"/play/tictactoe?session={game.session()}", confirm=True)  # takes Circle
    expect(friend.page.locator("#seats .seat.you")).to_contain_text("Circle")
    page.click("#btn-new-more")  # the friend's seat is still a friend's, not this screen's
    expect(checked).to_have_text(re.compile("a friend in another browser"))


WAIT_FOR_REPLY = """([crosses]) => {
  const board = document.getElementById("ttt-board");
  if (document.getElementById("headline").textContent !== "Tic Tac Toe") return true;
  return board.querySelectorAll(".mark.cross").length === crosses
    && board.querySelectorAll(".mark.circle").length === crosses
    && board.querySelectorAll(".playable").length > 0;
}"""


def test_perfect_computer_never_loses(ttt: OpenGame) -> None:
    game = ttt()
    rng = random.Random(20240601)
    endings = []
    for round_ in range(3):
        if round_ == 0:
            game.new_game("human", "ai:perfect")
        else:  # the dialog remembers the last choice of seats
            game.open_new_dialog()
            expect(game.page.locator("#f-seat-1")).to_have_value("ai:perfect")
            game.start_from_dialog()
        expect(game.headline).to_have_text("Tic Tac Toe")
        crosses = 0
        while game.headline.inner_text() == "Tic Tac Toe":
            free = game.playable()
            assert free, f"no playable cell on an unfinished board {game.board()}"
            x, y = rng.choice(free)
            crosses += 1
            game.cell(x, y).click()
            game.page.wait_for_function(WAIT_FOR_REPLY, arg=[crosses])
        assert crosses >= 3, "nobody wins before Cross's third move"
        endings.append(game.headline.inner_text())
        assert endings[-1] in ("Circle wins", "Draw Game"), game.board()
        expect(game.page.locator("#ttt-board [data-move]")).to_have_count(0)
    assert len(endings) == 3


# Each word of an element and the top of the line it is on.
WORD_LINES_JS = """(element) => {
  const words = [], walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      words.push([match[0], Math.round(range.getBoundingClientRect().top)]);
    }
  }
  return words;
}"""


def test_a_move_too_long_for_the_list_breaks_after_its_square(two_at: OpenTwo) -> None:
    """At 1366x768 the 200-pixel list beside the board split "bottom" from "left"."""
    game = two_at(1366, 768)
    for key, board in (("2", ".X./.../..."), ("1", "OX./.../..."), ("5", "OX./.X./..."),
                       ("4", "OX./OX./..."), ("9", "OX./OX./..X"), ("7", "OX./OX./O.X")):
        with game.next_view(game.page):
            game.page.keyboard.press(key)
        game.wait_board(board)
    last = game.page.locator('#movelist-items .mv[data-ply="6"] .mv-text')
    expect(last).to_have_text("bottom left, wins")
    tops = dict(last.evaluate(WORD_LINES_JS))
    assert tops["bottom"] == tops["left,"], f"the square's name is split: {tops}"


def test_the_cursor_comes_onto_the_board_at_the_centre(
    ttt: OpenGame, create_game: CreateGame
) -> None:
    """One step from any cell (it came onto the top left corner, two from the far one);
    taken, at the free cell nearest it."""
    created = create_game("tictactoe", seats=["human", "human"])
    sid = created["session"]
    game = ttt(f"/play/tictactoe?session={sid}", tokens={sid: created["token"]})
    game.page.keyboard.press("ArrowDown")
    assert game.focused() == "ttt-1-1"
    with game.next_view(game.page):
        game.page.keyboard.press("Enter")
    game.wait_board(".../.X./...")
    game.page.evaluate("document.activeElement.blur()")  # the cursor off the board
    with game.next_view(game.page):
        game.page.keyboard.press("1")
    game.wait_board("O../.X./...")
    game.page.evaluate("document.activeElement.blur()")
    game.page.keyboard.press("ArrowDown")
    assert game.focused() == "ttt-1-0"


def test_keyboard_only(ttt: OpenGame, create_game: CreateGame) -> None:
    created = create_game("tictactoe", seats=["human", "human"])
    sid = created["session"]
    game = ttt(f"/play/tictactoe?session={sid}", tokens={sid: created["token"]})
    assert game.session() == sid
    assert len(game.playable()) == 9
    keys = game.page.keyboard

    def press(key: str, expected: str) -> None:
        with game.next_view(game.page):
            keys.press(key)
        game.wait_board(expected)

    press("5", ".../.X./...")
    press("1", "O../.X./...")
    keys.press("5")  # a taken cell's key plays nothing, and says why
    expect(game.message).to_have_text("The centre square is taken")  # as the move list names it
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))
    game.wait_board("O../.X./...")

    keys.press("ArrowRight")  # the cursor appears on the free cell nearest the centre
    assert game.focused() == "ttt-1-0"
    keys.press("ArrowRight")
    assert game.focused() == "ttt-2-0"
    press("Enter", "O.X/.X./...")
    assert game.focused() == "ttt-1-0"  # Circle's turn: the nearest free cell, the first of two
    keys.press("ArrowDown")
    keys.press("ArrowDown")
    assert game.focused() == "ttt-1-2"
    press("Enter", "O.X/.X./.O.")

    press("7", "O.X/.X./XO.")
    expect(game.headline).to_have_text("Cross wins")
    expect(game.page.locator("#ttt-win")).to_have_count(1)
    said = game.message.inner_text()
    keys.press("5")  # after the end a taken cell's key says nothing: the end stays said
    game.page.wait_for_timeout(300)
    expect(game.message).to_have_text(said)

    keys.press("u")  # an Undo of the game's end asks first: Enter undoes it
    expect(game.page.locator("#undo-dialog")).to_be_visible()
    press("Enter", "O.X/.X./.O.")
    expect(game.headline).to_have_text("Tic Tac Toe")
    press("Control+z", "O.X/.X./...")
    press("y", "O.X/.X./.O.")


def test_two_browsers_play_each_other_and_a_third_watches(
    ttt: OpenGame, server_view: ServerView
) -> None:
    a = ttt()
    sid = a.new_game("human", "open")
    invite = a.page.locator("#btn-invite")
    expect(invite).to_be_visible()
    expect(a.page.locator("#seats")).to_contain_text("Open seat")
    a.click(1, 1)
    assert a.playable() == []
    expect(a.message).to_contain_text("Waiting for a friend")

    b = ttt(f"/play/tictactoe?session={sid}", confirm=True)
    assert b.session() == sid
    b.wait_board(".../.X./...")
    assert sid in b.page.evaluate("JSON.parse(localStorage.getItem('parlour.tokens') || '{}')")
    assert len(b.playable()) == 8
    expect(invite).to_be_hidden()  # the seat is taken now
    expect(a.page.locator("#seats")).not_to_contain_text("Open seat")

    b.click(0, 0)
    a.wait_board("O../.X./...")
    assert len(a.playable()) == 7
    assert b.playable() == []

    c = ttt(f"/play/tictactoe?session={sid}")  # every seat is taken: a spectator
    c.wait_board("O../.X./...")
    assert c.playable() == []
    expect(c.message).to_contain_text("You are watching")
    tokens = c.page.evaluate("JSON.parse(localStorage.getItem('parlour.tokens') || '{}')")
    assert sid not in tokens
    # the id holds the seed: only the owner has it while playing; Tic Tac Toe deals
    # nothing, so no page shows a deal line or a link to copy
    assert a.game_id().startswith("tictactoe:")
    for other in (b, c):
        assert other.game_id() == "shown when the game ends"
    for page in (a, b, c):
        expect(page.page.locator("#btn-copy")).to_be_hidden()

    a.click(2, 0)
    for page in (a, b, c):
        page.wait_board("O.X/.X./...")

    # The spectator's clicks and keys change nothing: its Undo is disabled, so is the key.
    expect(c.page.locator("#btn-undo")).to_be_disabled()
    c.cell(0, 2).click()
    c.page.keyboard.press("7")
    c.page.keyboard.press("u")
    c.page.wait_for_timeout(QUIET_MS)
    expect(c.message).to_contain_text("You are watching")
    for page in (a, b, c):
        assert page.board() == "O.X/.X./..."
    # with a friend in the game, Undo asks them (tests/browser/test_seats_browser.py)
    expect(a.page.locator("#btn-undo")).to_have_text("↶Take back")

    b.click(1, 0)
    for page in (a, b, c):
        page.wait_board("OOX/.X./...")
    a.click(0, 2)
    for page in (a, b, c):
        page.wait_board("OOX/.X./X..")
        # the winner reads "You win!"; the loser and the spectator, the seat's name
        expect(page.headline).to_have_text("You win!" if page is a else "Cross wins")
        expect(page.page.locator("#btn-copy")).to_be_hidden()  # no deal to share
    expect(a.message).to_have_text("Well played!")  # the headline said "You win!"
    expect(b.message).to_contain_text("You lost")
    assert server_view(sid)["moves"] == 5


def test_reload_resumes_the_same_game(ttt: OpenGame, wait_views: WaitViews) -> None:
    game = ttt()
    sid = game.new_game("human", "human")
    game_id = game.game_id()
    game.play([(0, 0), (1, 1), (2, 2)])
    game.wait_board("X../.O./..X")

    game.page.reload()
    wait_views(game.page, 1)
    assert game.session() == sid
    game.wait_board("X../.O./..X")
    assert game.game_id() == game_id
    assert len(game.playable()) == 6  # still ours to play: the token was kept
    expect(game.page.locator("#btn-undo")).to_be_enabled()
    game.click(0, 2)
    game.wait_board("X../.O./O.X")

    # The plain address brings back the last unfinished game too.
    game.page.goto("/play/tictactoe")
    wait_views(game.page, 1)
    assert game.session() == sid
    game.wait_board("X../.O./O.X")


def test_server_errors_show_under_the_board(ttt: OpenGame) -> None:
    game = ttt()
    game.new_game("human", "human")
    game.click(0, 0)
    game.wait_board("X../.../...")
    error = re.compile(r"\berror\b")

    def tamper(x: int, y: int, move: object) -> None:
        """Give a cell a move the server must refuse, as a stale or edited page might."""
        game.page.eval_on_selector(
            f"#ttt-{x}-{y}",
            "(cell, move) => cell.setAttribute('data-move', move)",
            json.dumps(move),
        )
        game.cell(x, y).click()

    tamper(0, 0, {"cell": [0, 0]})
    expect(game.message).to_have_text("The top left square is taken")
    expect(game.message).to_have_class(error)

    tamper(1, 1, {"cell": [5, 5]})
    expect(game.message).to_contain_text("off the board")

    tamper(2, 1, {"cell": "middle"})
    expect(game.message).to_contain_text("Malformed move")
    assert game.board() == "X../.../..."

    game.click(2, 2)  # an accepted move clears the error
    game.wait_board("X../.../..O")
    expect(game.message).not_to_have_class(error)
    expect(game.message).to_have_text("Player 1: your turn")  # two players at one screen


# The contrast of an element's text on its own background (WCAG), read from computed styles
# (`rgb(...)`, or `color(srgb ...)` for a colour-mix).
CONTRAST_JS = """(element) => {
  const parse = (text) => {
    const n = text.match(/[\\d.]+/g).map(Number);
    return text.startsWith('color(') ? n.slice(0, 3) : n.slice(0, 3).map((v) => v / 255);
  };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(element);
  const [a, b] = [luminance(parse(style.color)), luminance(parse(style.backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("theme", ["light", "dark", "colour-blind"])
def test_the_winner_chip_reads_and_the_win_line_is_drawn_on_top(
    ttt: OpenGame, create_game: CreateGame, theme: str
) -> None:
    """White on the dark theme's light cyan did not read; a see-through win line made
    muddy overlaps with the crosses."""
    created = create_game("tictactoe", seats=["human", "human"])
    sid = created["session"]
    game = ttt(f"/play/tictactoe?session={sid}", tokens={sid: created["token"]})
    prefs = json.dumps({"theme": theme})
    game.page.evaluate(f"localStorage.setItem('parlour.prefs', '{prefs}')")
    game.page.reload()
    game.wait_board(EMPTY)
    game.play([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])
    game.wait_board("XXX/OO./...")
    chip = game.page.locator("#seats .seat.winner")
    expect(chip).to_have_count(1)
    expect(chip).to_contain_text("Cross")
    contrast = chip.evaluate(CONTRAST_JS)
    assert contrast >= 4.5, f"the winner chip's text has a contrast of {contrast:.2f}"
    line = game.page.locator("#ttt-win")
    assert float(line.evaluate("(l) => getComputedStyle(l).opacity")) == 1
    last = game.page.evaluate("document.getElementById('ttt-board').lastElementChild.id")
    assert last == "ttt-win", "the win line is under the marks"
    casing = game.page.locator("#ttt-win-casing")
    assert casing.evaluate("(c) => c.nextElementSibling.id") == "ttt-win"
    widths = [float(part.evaluate("(l) => parseFloat(getComputedStyle(l).strokeWidth)"))
              for part in (casing, line)]
    assert widths[0] > widths[1], "the casing should show around the line"


def test_the_chips_and_the_move_list_wear_the_marks(ttt: OpenGame) -> None:
    """A cross and a ring by each name, as on the board, not the page's round dots."""
    game = ttt()
    game.click(1, 1)
    expect(game.page.locator('.mv[data-seat="1"]')).to_have_count(1)  # the computer's answer
    for where in (".seat", ".mv"):
        cross = game.page.locator(f'{where}[data-seat="0"] .dot').first
        ring = game.page.locator(f'{where}[data-seat="1"] .dot').first
        assert cross.evaluate("(d) => getComputedStyle(d).clipPath").startswith("polygon")
        assert ring.evaluate("(d) => getComputedStyle(d).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert ring.evaluate("(d) => getComputedStyle(d).boxShadow").endswith("inset")


def test_the_end_card_leaves_the_move_list_in_sight(two_at: OpenTwo) -> None:
    """On a laptop the card's own place, at the top right, is over the move list: it
    goes low, below the moves, and hides neither them nor the winning line."""
    game = two_at(1366, 768)
    game.play([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    card = game.page.locator("#end-card")
    expect(card).to_be_visible()
    expect(card).to_have_class(re.compile(r"\blow\b"))
    wait_for_layout(game.page)
    shown = card.bounding_box()
    assert shown
    for kept in [*game.page.locator("#movelist-items .mv").all(), game.page.locator("#ttt-win")]:
        box = kept.bounding_box()
        assert box
        assert not overlap(shown, box), f"the card {shown} hides {box}"


def test_a_move_list_under_the_end_card_ends_above_it_with_its_last_moves_in_sight(
    two_at: OpenTwo,
) -> None:
    """At 1280x800 nine moves fill the list down to where the card floats, the taller for
    a series' score: the list ends above the card, scrolled to its last move (the card
    hid moves 6 to 9), and comes back whole once the card is put away."""
    game = two_at(1280, 800)
    game.play([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)])
    card = game.page.locator("#end-card")
    card.get_by_role("button", name="Rematch", exact=True).click()
    game.wait_board(".../.../...")
    game.play([(0, 0), (1, 0), (2, 0), (1, 1), (1, 2), (2, 1), (0, 1), (0, 2), (2, 2)])
    expect(card).to_be_visible()
    expect(card.locator("#end-series")).to_be_visible()
    wait_for_layout(game.page)
    shown, items = card.bounding_box(), game.page.locator("#movelist-items").bounding_box()
    last = game.page.locator("#movelist-items .mv").last.bounding_box()
    assert shown and items and last
    assert not overlap(shown, last), f"the card {shown} hides the last move {last}"
    bottom = items["y"] + items["height"] + 1
    assert items["y"] <= last["y"] and last["y"] + last["height"] <= bottom  # scrolled to it
    game.page.keyboard.press("Escape")  # the card put away: the list takes its room again
    expect(card).to_be_hidden()
    assert game.page.locator("#movelist").evaluate("(list) => list.style.bottom") == ""


def test_on_a_small_phone_on_its_side_the_end_card_stays_below_the_bar(two_at: OpenTwo) -> None:
    """640x360: the bar keeps one row, and the card, taller than the room under it, is
    not slid under the bar (its title was cut off there)."""
    game = two_at(640, 360, phone=True)
    bar = game.page.locator(".topbar").bounding_box()
    new = game.page.locator("#btn-new").bounding_box()
    assert bar and new and new["y"] + new["height"] <= bar["y"] + bar["height"]
    assert bar["height"] < 60, f"the bar takes two rows: {bar}"
    game.play([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    card = game.page.locator("#end-card")
    expect(card).to_be_visible()
    wait_for_layout(game.page)  # (its way in)
    shown = card.bounding_box()
    assert shown and shown["y"] >= bar["y"] + bar["height"], f"the card {shown} is under the bar"
    assert shown["y"] + shown["height"] <= 360


def test_on_a_phone_the_end_card_leaves_the_winning_line_in_sight(two_at: OpenTwo) -> None:
    """390x844: the card, a sheet at the bottom, would hide the board's lower rows, the
    line along the bottom row (a line's box has no height: it is kept with a margin round
    it); at the top, the upper rows: it goes under the board, in the page's flow."""
    game = two_at(390, 844, phone=True)
    game.play([(0, 2), (0, 0), (1, 2), (1, 0), (2, 2)])
    card = game.page.locator("#end-card")
    expect(card).to_be_visible()
    expect(card).to_have_class(re.compile(r"\bbelow\b"))
    wait_for_layout(game.page)  # (the page scrolls to the card: read the boxes once still)
    shown, line = card.bounding_box(), game.page.locator("#ttt-win").bounding_box()
    board = game.page.locator("#ttt-board").bounding_box()
    assert shown and line and board
    assert not overlap(shown, board), f"the card {shown} hides the board {board}"
    line = {"x": line["x"] - 6, "y": line["y"] - 6, "width": line["width"] + 12,
            "height": line["height"] + 12}
    assert not overlap(shown, line), f"the card {shown} hides the line {line}"
