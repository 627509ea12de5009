"""Minesweeper in a real Chromium against a real server: clicks, right clicks, a long press
on a touch screen, chording, keys only, the face and the counters, presets, reload.

Each game is made over REST from a fixed id (`minesweeper:rows=..#seed`), and the test
replays the same deal in Python (`Minesweeper.deal`, then the same first click, which may
move a mine), so it knows where the mines are. Seeds are picked by `find_deal`: the first
seed whose board suits the test, so a test plays the same board on every run.

Boards are compared as the server's text (`Minesweeper.text`): one line per row, a cell
`#` closed, `F` flag, `?` question mark, `.` empty, `1`-`8` a number, and once the game is
over `*` a mine, `X` the exploded mine, `!` a wrong flag. The page's board is read back
into the same text from the classes of `#ms-{row}-{col}`.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count, pairwise
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from parlour.core.gameid import parse_game_id
from parlour.games.minesweeper.grid import neighbours
from parlour.games.minesweeper.logic import HIDDEN, OPEN, Minefield, Minesweeper
from parlour.games.minesweeper.solver import hint
from tests.browser.conftest import (
    CreateGame,
    NewContext,
    NextView,
    OpenPage,
    ServerView,
    WaitViews,
    wait_for_views,
)
from tests.browser.pages import GamePage, in_its_box, overlap
from tests.browser.scenes import open_dialog
from tests.browser.views import wait_for_animations, wait_for_layout

pytestmark = pytest.mark.browser

Where = tuple[int, int]  # (row, col)

QUIET_MS = 300  # how long to watch for a change that must not happen
LONG_PRESS_MS = 700  # longer than the page's 450 ms
RULES = Minesweeper()

# The board as the page shows it, in the server's text format ("~" for a missing cell).
BOARD_JS = """([rows, cols]) => {
  const symbol = (cell) => {
    if (!cell) return "~";
    const k = cell.classList;
    if (k.contains("exploded")) return "X";
    if (k.contains("wrong")) return "!";
    if (k.contains("mine")) return "*";
    if (k.contains("flag")) return "F";
    if (k.contains("question")) return "?";
    if (k.contains("closed")) return "#";
    if (!k.contains("open")) return "~";
    const number = [...k].find((name) => /^n[1-8]$/.test(name));
    return number ? number[1] : ".";
  };
  const lines = [];
  for (let row = 0; row < rows; row++) {
    let line = "";
    for (let col = 0; col < cols; col++) {
      line += symbol(document.getElementById(`ms-${row}-${col}`));
    }
    lines.push(line);
  }
  return lines.join("\\n");
}"""

SHOWN_JS = "(element) => getComputedStyle(element).display !== 'none'"


# -- the deal, replayed in Python ------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    game_id: str
    first: Where  # the first click
    start: Minefield  # the board after the first click: the mines are where they stay

    @property
    def rows(self) -> int:
        return self.start.rows

    @property
    def cols(self) -> int:
        return self.start.cols


def deal_of(game_id: str, first: Where) -> Deal:
    """Replay `game_id`'s deal and its first click."""
    parsed = parse_game_id(RULES, game_id)
    dealt = RULES.deal(parsed.params, parsed.rng(RULES))
    return Deal(game_id, first, RULES.apply(dealt, ("open", *first)))


def find_deal(
    rows: int, cols: int, mines: int, first: Where, accept: Callable[[Minefield], bool]
) -> Deal:
    """The first seed (t0, t1, ...) whose board, after the first click, suits a test."""
    params = f"rows={rows},cols={cols},mines={mines},first_click=safe"
    for n in count():
        deal = deal_of(f"minesweeper:{params}#t{n}", first)
        if accept(deal.start):
            return deal
        assert n < 10_000, "no deal suits the test"
    raise AssertionError("unreachable")


def replay(game_id: str, moves: list[tuple[str, int, int]]) -> Minefield:
    """The board after `moves` (in their order) on `game_id`'s deal."""
    parsed = parse_game_id(RULES, game_id)
    state = RULES.deal(parsed.params, parsed.rng(RULES))
    for action, row, col in moves:
        assert action in ("open", "mark", "chord")
        state = RULES.apply(state, (action, row, col))  # type: ignore[arg-type]
    return state


def text(state: Minefield) -> str:
    """The board as the server shows it to the player."""
    return RULES.text(RULES.observe(state, 0))


def where(state: Minefield, cell: int) -> Where:
    row, col = divmod(cell, state.cols)
    return row, col


def around(state: Minefield, cell: int) -> tuple[int, ...]:
    return neighbours(state.rows, state.cols)[cell]


def closed_safe(state: Minefield) -> list[int]:
    """The closed cells without a mine, in reading order."""
    return [c for c in range(state.size) if state.marks[c] == HIDDEN and c not in state.mined]


def hinted_off_the_diagonal(state: Minefield) -> bool:
    """The hint names a cell to open and the mines that make it safe, each with a row and
    a column that differ (so that each reads otherwise sideways)."""
    found = hint(state, 0)
    named = re.findall(r"row (\d+), column (\d+)", found.note) if found else []
    return (found is not None and "open" in found.move and " has its " in found.note
            and all(row != col for row, col in named))


def sideways(note: str) -> str:
    """A note as a board on its side reads: each cell's row and column swapped."""
    return re.sub(r"row (\d+), column (\d+)", r"row \2, column \1", note)


def chordable(state: Minefield) -> int | None:
    """An open number with closed safe cells around it (to open by chording), if any."""
    for cell in range(state.size):
        if state.marks[cell] != OPEN or not state.counts[cell]:
            continue
        if any(state.marks[n] == HIDDEN and n not in state.mined for n in around(state, cell)):
            return cell
    return None


# -- the page --------------------------------------------------------------------------
class MinesweeperPage(GamePage):
    """One tab on the Minesweeper page, with the reads and moves the tests need."""

    BOARD_JS = BOARD_JS

    def __init__(self, page: Page, next_view: NextView, rows: int, cols: int) -> None:
        super().__init__(page, next_view)
        self.rows, self.cols = rows, cols
        self.mines_left = page.locator("#ms-mines")
        self.time = page.locator("#ms-time")
        self.face = page.locator("#ms-face")
        self.grid = page.locator("#ms-grid")

    def cell(self, at: Where) -> Locator:
        return self.page.locator(f"#ms-{at[0]}-{at[1]}")

    def board_argument(self) -> list[int]:
        return [self.rows, self.cols]

    def seconds(self) -> int:
        return int(self.time.inner_text())

    def wait_seconds(self, at_least: int, timeout: int = 2_500) -> int:
        """Wait until #ms-time reads at least `at_least` (checked every frame); its reading."""
        with contextlib.suppress(PlaywrightError):  # the caller's assertion says what it read
            self.page.wait_for_function(
                "n => Number(document.getElementById('ms-time').textContent) >= n",
                arg=at_least,
                timeout=timeout,
            )
        return self.seconds()

    def shown(self, selector: str) -> bool:
        return bool(self.page.locator(selector).evaluate(SHOWN_JS))

    def click(self, at: Where) -> None:
        with self.next_view(self.page):
            self.cell(at).click()

    def right_click(self, at: Where) -> None:
        with self.next_view(self.page):
            self.cell(at).click(button="right")

    def nothing_happens(self, action: Callable[[], None]) -> None:
        """Do `action` and check that no view follows it."""
        views = self.views()
        action()
        self.page.wait_for_timeout(QUIET_MS)
        assert self.views() == views, "the page got a new view"

    def listen_to_tones(self) -> None:
        """Keep every tone the page's sounds start (their frequencies, `tones()`)."""
        self.page.evaluate("""() => {
          window.tonesPlayed = [];
          const make = BaseAudioContext.prototype.createOscillator;
          BaseAudioContext.prototype.createOscillator = function () {
            const tone = make.call(this), pitch = tone.frequency;
            const set = pitch.setValueAtTime.bind(pitch);
            pitch.setValueAtTime = (hz, when) => {
              window.tonesPlayed.push(hz);
              return set(hz, when);
            };
            return tone;
          };
        }""")

    def tones(self) -> list[float]:
        return list(self.page.evaluate("() => window.tonesPlayed"))

    def sends_nothing(self, action: Callable[[], None]) -> None:
        """Do `action` and check that no move went out: no view and no refusal follow it."""
        self.nothing_happens(action)
        expect(self.page.locator("#message.error")).to_have_count(0)


OpenGame = Callable[..., MinesweeperPage]
PHONE = {"has_touch": True, "is_mobile": True, "viewport": {"width": 390, "height": 844}}


@pytest.fixture
def minesweeper(
    open_page: OpenPage, new_context: NewContext, next_view: NextView, create_game: CreateGame
) -> OpenGame:
    """The deal's game, made over REST, open in a new browser that holds its seat:
    `minesweeper(deal)`, or `minesweeper(deal, phone=True)` on a touch screen 390 px wide."""

    def open_game(deal: Deal, *, phone: bool = False) -> MinesweeperPage:
        created = create_game("minesweeper", id=deal.game_id)
        assert parse_game_id(RULES, created["id"]) == parse_game_id(RULES, deal.game_id)
        sid = created["session"]
        tokens = {sid: created["token"]}
        context = new_context(tokens=tokens, **PHONE) if phone else None
        page = open_page(f"/play/minesweeper?session={sid}", context=context, tokens=tokens)
        game = MinesweeperPage(page, next_view, deal.rows, deal.cols)
        assert game.session() == sid
        game.wait_board("\n".join("#" * deal.cols for _ in range(deal.rows)))
        return game

    return open_game


def long_press(page: Page, x: float, y: float) -> None:
    """A finger held down for LONG_PRESS_MS, as the browser's own touch input (CDP)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send(
            "Input.synthesizeTapGesture",
            {"x": x, "y": y, "duration": LONG_PRESS_MS, "gestureSourceType": "touch"},
        )
    finally:
        cdp.detach()


def finger(page: Page, x: float, y: float, slide: float, hold_ms: int) -> None:
    """A finger put down at (x, y), slid `slide` px to the right 30 ms later, held
    `hold_ms` in all and lifted, as the browser's own touch input (CDP). (The slide came
    100 ms later: on a loaded machine that wait ran past the page's 450 ms long press.)"""
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, at: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": at, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    try:
        touch("touchStart", x)
        page.wait_for_timeout(30)
        for step in range(1, 5):  # (a finger rolls over a few frames, not in one jump)
            touch("touchMove", x + slide * step / 4)
        page.wait_for_timeout(hold_ms - 30)
        touch("touchEnd", x + slide)
    finally:
        cdp.detach()


def page_box(page: Page, selector: str) -> dict[str, float]:
    """Where the element is on the screen: left, right, top and bottom."""
    found: dict[str, float] = page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; }")
    return found


def tap(page: Page, x: float, y: float) -> None:
    """A short tap (touch start, touch end: the browser follows it with a click)."""
    page.touchscreen.tap(x, y)


# -- the tests -------------------------------------------------------------------------
def test_a_click_that_slides_onto_the_next_cell_opens_that_one(minesweeper: OpenGame) -> None:
    """As in Windows' Minesweeper and minesweeper.online: the cell under the release, and
    the pressed look follows the mouse to it while it is held."""
    deal = find_deal(5, 5, 3, (0, 1), lambda s: len(closed_safe(s)) >= 3)
    game = minesweeper(deal)
    page = game.page
    pressed, released = game.centre(game.cell((0, 0))), game.centre(game.cell(deal.first))
    looks_pressed = page.locator("#ms-grid .pressed")
    page.mouse.move(*pressed)
    page.mouse.down()
    expect(looks_pressed).to_have_attribute("id", "ms-0-0")
    page.mouse.move(*released, steps=3)
    expect(looks_pressed).to_have_attribute("id", f"ms-{deal.first[0]}-{deal.first[1]}")
    page.mouse.up()
    game.wait_board(text(deal.start))  # the first click, at (0, 1)


def test_win_a_small_board_by_clicking(
    minesweeper: OpenGame, server_view: ServerView, open_page: OpenPage
) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 3)
    game = minesweeper(deal)
    expect(game.headline).to_have_text(re.compile(r"^\d+×\d+, \d+ mines, safe first click$"))
    expect(game.mines_left).to_have_text("003")

    game.click(deal.first)
    state = deal.start
    game.wait_board(text(state))
    while closed_safe(state):
        cell = closed_safe(state)[0]
        expect(game.headline).to_have_text(re.compile(r"^\d+×\d+, \d+ mines, safe first click$"))
        game.click(where(state, cell))
        state = RULES.apply(state, ("open", *where(state, cell)))
        game.wait_board(text(state))

    assert state.won()
    expect(game.headline).to_have_text("You win! Board cleared")
    expect(game.face.locator(".face-end")).to_have_text("😎")
    expect(game.face.locator(".face-normal")).to_have_count(0)
    expect(game.grid).to_have_class(re.compile(r"\bwon\b"))
    # a won board flags every mine (no bombs: that is a loss) and no mine is left
    expect(game.mines_left).to_have_text("000")
    expect(game.page.locator("#ms-grid .ms-cell.mine")).to_have_count(0)
    # a finished board sends no moves: clicks and right clicks on a mine do nothing
    expect(game.grid).to_have_attribute("aria-disabled", "true")
    mine = game.page.locator("#ms-grid .ms-cell.flag").first
    game.sends_nothing(lambda: mine.click(force=True))  # force: it is aria-disabled
    game.sends_nothing(lambda: mine.click(button="right", force=True))
    # the flags are where the replayed deal put the mines
    shown = {
        tuple(int(n) for n in cell_id.split("-")[1:])
        for cell_id in game.page.eval_on_selector_all(
            "#ms-grid .ms-cell.flag", "cells => cells.map((c) => c.id)"
        )
    }
    assert shown == {where(state, c) for c in state.mined}
    expect(mine).to_have_text("🚩")
    seen = server_view(game.session())
    assert seen["status"] == "won" and seen["text"] == text(state)
    # a friend who opens the game's link watches: the win is told, not as theirs
    watcher = open_page(f"/play/minesweeper?session={game.session()}")
    expect(watcher.locator("#headline")).to_have_text("Board cleared")


def test_lose_and_see_the_mines_then_undo(minesweeper: OpenGame, server_view: ServerView) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal)
    game.click(deal.first)
    state = deal.start
    game.wait_board(text(state))

    wrong = where(state, closed_safe(state)[0])  # a flag where there is no mine
    game.right_click(wrong)
    state = RULES.apply(state, ("mark", *wrong))
    game.wait_board(text(state))
    expect(game.mines_left).to_have_text("002")
    before = state

    fatal = where(state, min(state.mined))
    game.click(fatal)
    state = RULES.apply(state, ("open", *fatal))
    assert state.exploded is not None

    game.wait_board(text(state))
    expect(game.headline).to_have_text("Game over: a mine")
    expect(game.cell(fatal)).to_have_class(re.compile(r"\bexploded\b"))
    expect(game.cell(fatal)).to_have_text("💥")
    others = [where(state, c) for c in sorted(state.mined) if where(state, c) != fatal]
    for mine in others:
        expect(game.cell(mine)).to_have_class(re.compile(r"\bmine\b"))
        expect(game.cell(mine)).to_have_text("💣")
    expect(game.page.locator("#ms-grid .mine:not(.exploded)")).to_have_count(len(others))
    expect(game.cell(wrong)).to_have_class(re.compile(r"\bwrong\b"))
    expect(game.cell(wrong)).to_have_text("🚩")
    expect(game.page.locator("#ms-grid .wrong")).to_have_count(1)
    expect(game.mines_left).to_have_text("002")  # a loss leaves the counter as it was
    expect(game.face.locator(".face-end")).to_have_text("😵")
    expect(game.grid).to_have_class(re.compile(r"\blost\b"))
    expect(game.grid).to_have_attribute("aria-disabled", "true")
    expect(game.page.locator("#assisted")).to_be_hidden()

    # the board takes no more clicks
    sid = game.session()
    moves = server_view(sid)["moves"]
    safe = where(state, closed_safe(state)[0])
    game.sends_nothing(lambda: game.cell(safe).click(force=True))  # it is aria-disabled
    game.sends_nothing(lambda: game.cell(safe).click(button="right", force=True))
    assert game.board() == text(state)
    assert server_view(sid)["moves"] == moves

    # Undo takes back the fatal click, once confirmed; the game is then assisted
    game.page.locator("#btn-undo").click()
    expect(game.page.locator("#undo-dialog")).to_contain_text("You have seen where a mine is")
    with game.next_view(game.page):
        game.page.locator("#undo-yes").click()
    game.wait_board(text(before))
    expect(game.headline).to_have_text(re.compile(r"^\d+×\d+, \d+ mines, safe first click$"))
    expect(game.cell(fatal)).to_have_class(re.compile(r"\bclosed\b"))
    expect(game.cell(wrong)).to_have_class(re.compile(r"\bflag\b"))
    expect(game.page.locator("#assisted")).to_be_visible()
    expect(game.page.locator("#assisted")).to_have_text("With help")
    assert game.shown("#ms-face .face-normal")
    expect(game.mines_left).to_have_text("002")
    seen = server_view(sid, game.token())
    assert seen["status"] == "playing" and seen["assisted"] is True
    assert seen["moves"] == moves - 1


def test_flag_with_right_clicks(minesweeper: OpenGame, server_view: ServerView) -> None:
    """The seed's cycle, under Marks: Flags and question marks."""
    deal = find_deal(7, 7, 10, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal)
    choose_marks(game.page, "with-question-marks")
    at = (3, 4)
    cell = game.cell(at)
    expect(game.mines_left).to_have_text("010")
    expect(cell).to_have_attribute(
        "data-move", json.dumps({"open": list(at)}, separators=(",", ":"))
    )

    game.right_click(at)
    expect(cell).to_have_class(re.compile(r"\bflag\b"))
    expect(cell).to_have_text("🚩")
    expect(cell).to_have_class(re.compile(r"\bclosed\b"))
    expect(game.mines_left).to_have_text("009")
    expect(cell).not_to_have_attribute("data-move", re.compile(".*"))  # a flag does not open
    game.nothing_happens(lambda: cell.click())
    expect(cell).to_have_class(re.compile(r"\bflag\b"))

    game.right_click(at)
    expect(cell).to_have_class(re.compile(r"\bquestion\b"))
    expect(cell).not_to_have_class(re.compile(r"\bflag\b"))
    expect(cell).to_have_text("?")
    expect(game.mines_left).to_have_text("010")

    game.right_click(at)
    expect(cell).to_have_class("ms-cell closed")
    expect(cell).to_have_text("")
    expect(game.mines_left).to_have_text("010")
    assert server_view(game.session())["moves"] == 3
    expect(game.page.locator("#ms-grid .open")).to_have_count(0)  # no click opened a cell


def choose_marks(page: Page, marks: str) -> None:
    """The View menu's Marks: `marks` ("flags-only", the default, or the seed's
    "with-question-marks")."""
    page.locator("#menu-view").click()
    page.locator(f'#menubar [data-run="marks-{marks}"]').click()
    expect(page.locator("#board")).to_have_attribute("data-opt-marks", marks)


def test_marks_flags_only_by_default_clears_a_flag_at_once_and_the_choice_is_remembered(
    minesweeper: OpenGame, server_view: ServerView
) -> None:
    """As modern Minesweepers by default, a flag's right click clears it (the move
    `unmark`); the View menu's Marks puts the seed's question mark between, for this
    player from then on."""
    deal = find_deal(7, 7, 10, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal)
    page, at = game.page, (3, 4)
    cell = game.cell(at)
    expect(page.locator("#board")).to_have_attribute("data-opt-marks", "flags-only")
    game.right_click(at)
    expect(cell).to_have_class(re.compile(r"\bflag\b"))
    expect(game.mines_left).to_have_text("009")
    game.right_click(at)
    expect(cell).to_have_class("ms-cell closed")
    expect(game.mines_left).to_have_text("010")

    choose_marks(page, "with-question-marks")
    game.right_click(at)
    game.right_click(at)
    expect(cell).to_have_class(re.compile(r"\bquestion\b"))
    assert server_view(game.session())["moves"] == 4

    page.reload()
    game.wait_board(text_with(deal, at, "?"))
    expect(page.locator("#board")).to_have_attribute("data-opt-marks", "with-question-marks")
    choose_marks(page, "flags-only")
    game.right_click(at)  # a question mark left from before clears as in the cycle
    expect(cell).to_have_class("ms-cell closed")
    game.right_click(at)
    game.right_click(at)
    expect(cell).to_have_class("ms-cell closed")
    seen = server_view(game.session())
    assert seen["moves"] == 7 and "?" not in seen["text"] and "F" not in seen["text"]


def text_with(deal: Deal, at: Where, symbol: str) -> str:
    """The deal's closed board with `symbol` at `at`."""
    rows = [["#"] * deal.cols for _ in range(deal.rows)]
    rows[at[0]][at[1]] = symbol
    return "\n".join("".join(row) for row in rows)


def test_space_marks_the_cell_under_the_mouse_until_the_arrows_move(
    minesweeper: OpenGame,
) -> None:
    """As on minesweeper.online: Space marks the cell the mouse points at, not the one
    clicked last; once the arrow keys move the cursor, the keys follow it again."""
    game = minesweeper(find_deal(7, 7, 10, (0, 0), lambda s: len(closed_safe(s)) >= 2))
    clicked, pointed = (3, 4), (5, 5)
    game.right_click(clicked)  # focuses it, flagged
    expect(game.cell(clicked)).to_have_class(re.compile(r"\bflag\b"))
    game.cell(pointed).hover()
    with game.next_view(game.page):
        game.page.keyboard.press(" ")
    expect(game.cell(pointed)).to_have_class(re.compile(r"\bflag\b"))
    expect(game.cell(clicked)).to_have_class(re.compile(r"\bflag\b"))  # untouched
    game.page.keyboard.press("ArrowLeft")  # the cursor, from the pointed cell, to (5, 4)
    with game.next_view(game.page):
        game.page.keyboard.press(" ")
    expect(game.cell((5, 4))).to_have_class(re.compile(r"\bflag\b"))
    expect(game.cell(pointed)).to_have_class(re.compile(r"\bflag\b"))


def test_home_end_and_the_page_keys_take_the_cursor_to_the_board_s_edges(
    minesweeper: OpenGame,
) -> None:
    """On a big board the arrows take long: Home and End go to the ends of the cursor's
    row, Page Up and Page Down to the ends of its column (the page itself does not
    scroll for them)."""
    game = minesweeper(find_deal(7, 9, 10, (0, 0), lambda s: len(closed_safe(s)) >= 2))
    keys = game.page.keyboard
    keys.press("ArrowRight")  # the cursor appears in the middle
    assert game.focused() == "ms-3-4"
    for key in ("ArrowLeft", "ArrowLeft"):
        keys.press(key)
    assert game.focused() == "ms-3-2"
    for key, cell in (("End", "ms-3-8"), ("Home", "ms-3-0"), ("PageDown", "ms-6-0"),
                      ("PageUp", "ms-0-0"), ("End", "ms-0-8"), ("PageDown", "ms-6-8")):
        game.nothing_happens(lambda key=key: keys.press(key))  # the cursor alone moves
        assert game.focused() == cell, key


def test_flag_with_a_long_press_on_a_touch_screen(
    minesweeper: OpenGame, next_view: NextView, server_view: ServerView
) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal, phone=True)
    page, sid = game.page, game.session()
    at = (2, 2)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches"), "not a touch screen"

    with next_view(page):
        long_press(page, *game.centre(game.cell(at)))
    expect(game.cell(at)).to_have_class(re.compile(r"\bflag\b"))
    expect(game.cell(at)).to_have_text("🚩")
    expect(game.mines_left).to_have_text("002")
    # the finger's release neither opens the cell nor marks it again
    page.wait_for_timeout(QUIET_MS)
    assert game.views() == 2
    expect(game.cell(at)).to_have_class(re.compile(r"\bclosed\b"))
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bpressing\b"))
    seen = server_view(sid)
    assert seen["moves"] == 1 and seen["line_length"] == 1
    assert seen["text"].splitlines()[2][2] == "F"

    # a long press on the flag takes it off again
    with next_view(page):
        long_press(page, *game.centre(game.cell(at)))
    expect(game.cell(at)).to_have_class("ms-cell closed")
    expect(game.mines_left).to_have_text("003")
    assert server_view(sid)["moves"] == 2


def test_a_finger_that_slides_while_it_holds_a_cell_plays_nothing(
    minesweeper: OpenGame, next_view: NextView, server_view: ServerView
) -> None:
    """As in Google's Minesweeper: a press that moved is cancelled, neither a flag nor, on
    lifting, a tap that opens (it opened the mine the player meant to flag)."""
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal, phone=True)
    page, sid = game.page, game.session()
    at = (2, 2)
    x, y = game.centre(game.cell(at))
    for hold_ms in (200, LONG_PRESS_MS):  # lifted before the long press's time, or after
        game.nothing_happens(lambda hold_ms=hold_ms: finger(page, x, y, 14, hold_ms))
        expect(game.cell(at)).to_have_class("ms-cell closed")
    assert server_view(sid)["moves"] == 0
    # a finger that rolls a little still flags
    with next_view(page):
        finger(page, x, y, 5, LONG_PRESS_MS)
    expect(game.cell(at)).to_have_class(re.compile(r"\bflag\b"))
    assert server_view(sid)["moves"] == 1


def choose_long_press(page: Page, ms: int) -> None:
    """The Display dialog's Long press, as a player sets it (from the menus)."""
    dialog = open_dialog(page, "display")
    expect(page.locator("#pref-long-press-row")).to_be_visible()
    page.locator("#pref-long-press").select_option(str(ms))
    dialog.get_by_role("button", name="Done").click()
    expect(dialog).to_be_hidden()


def test_a_long_press_lasts_as_long_as_the_display_dialog_says(
    minesweeper: OpenGame, next_view: NextView
) -> None:
    """As minesweeper.online lets players set it: the same 0.4-second hold flags a cell
    when the long press is Short (0.3 s), and is a tap that opens it when it is Long."""
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal, phone=True)
    page = game.page
    choose_long_press(page, 300)
    with next_view(page):
        finger(page, *game.centre(game.cell((2, 2))), 0, 400)
    expect(game.cell((2, 2))).to_have_class(re.compile(r"\bflag\b"))

    choose_long_press(page, 650)
    with next_view(page):  # (the first click: safe, whatever the deal)
        finger(page, *game.centre(game.cell((0, 0))), 0, 400)
    expect(game.cell((0, 0))).not_to_have_class(re.compile(r"\b(closed|flag)\b"))
    page.reload()  # the choice is the player's, kept with the page's other preferences
    open_dialog(page, "display")
    expect(page.locator("#pref-long-press")).to_have_value("650")


def test_flag_mode_turns_taps_into_flags_and_a_long_press_opens(
    minesweeper: OpenGame, next_view: NextView, server_view: ServerView
) -> None:
    # three closed safe cells, none a zero: opening one opens no other
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 3
                     and all(s.counts[c] for c in closed_safe(s)))
    game = minesweeper(deal, phone=True)
    page, sid = game.page, game.session()
    switch = page.locator("#ms-mode")
    expect(switch).to_be_visible()  # a touch screen shows it
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.tap()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert game.views() == 1, "the switch is the page's: it sends nothing"

    # with nothing open the mode waits: the first tap opens (kept on from the last game,
    # it would otherwise flag a board that shows nothing)
    expect(switch).to_have_attribute("data-paused", "")
    with next_view(page):
        tap(page, *game.centre(game.cell(deal.first)))
    game.wait_board(text(deal.start))
    expect(switch).not_to_have_attribute("data-paused", "")
    safe = [where(deal.start, c) for c in closed_safe(deal.start)]
    flagged = next(cell for cell in safe if cell != safe[0])
    with next_view(page):
        tap(page, *game.centre(game.cell(flagged)))
    expect(game.cell(flagged)).to_have_class(re.compile(r"\bflag\b"))
    # the server's new markup says "off": the page keeps the switch on
    expect(switch).to_have_attribute("aria-pressed", "true")
    with next_view(page):
        long_press(page, *game.centre(game.cell(safe[0])))
    expect(game.cell(safe[0])).to_have_class(re.compile(r"\bopen\b"))
    with next_view(page):  # a tap on the flag clears it, as a long press does out of flag mode
        tap(page, *game.centre(game.cell(flagged)))
    expect(game.cell(flagged)).to_have_class("ms-cell closed")
    assert server_view(sid)["moves"] == 4

    page.keyboard.press("f")  # the key switches it too
    expect(switch).to_have_attribute("aria-pressed", "false")
    closed = next(cell for cell in safe[1:] if cell != flagged)
    with next_view(page):
        tap(page, *game.centre(game.cell(closed)))
    expect(game.cell(closed)).to_have_class(re.compile(r"\bopen\b"))


# The background of the switch's lit segment (the mode in use) and of the current board's
# button, which is lit in the accent colour as the switch's segment is while it can be used.
LIT_JS = """(switcher) => {
  const on = switcher.getAttribute("aria-pressed") === "true" ? ".mode-flag" : ".mode-open";
  const lit = getComputedStyle(switcher.querySelector(on));
  const accent = getComputedStyle(document.querySelector(".ms-preset.current")).backgroundColor;
  return { lit: lit.backgroundColor, filter: lit.filter, accent };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_flag_mode_is_disabled_once_the_game_is_over_and_back_after_an_undo(
    minesweeper: OpenGame, scheme: str
) -> None:
    """A lost game leaves flag mode greyed and disabled, as the toolbar's buttons are that
    cannot be used (lit, it read as a control still in use): neither a tap nor F switches
    it. Undo of the fatal click brings it back as it was."""
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal, phone=True)
    page = game.page
    page.emulate_media(color_scheme=scheme)
    switch = page.locator("#ms-mode")
    game.click(deal.first)
    switch.tap()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(switch).to_be_enabled()
    shown = switch.evaluate(LIT_JS)
    assert shown["lit"] == shown["accent"] and shown["filter"] == "none"

    fatal = where(deal.start, min(deal.start.mined))
    with game.next_view(page):  # a long press opens in flag mode
        long_press(page, *game.centre(game.cell(fatal)))
    expect(game.cell(fatal)).to_have_class(re.compile(r"\bexploded\b"))
    expect(switch).to_be_disabled()
    wait_for_animations(page)
    shown = switch.evaluate(LIT_JS)
    assert shown["lit"] != shown["accent"], "the mode still lit once the game is over"
    assert "grayscale(1)" in shown["filter"], "the emoji keep their colours"
    switch.tap(force=True)  # force: it is disabled
    page.keyboard.press("f")
    expect(switch).to_have_attribute("aria-pressed", "true")

    page.locator("#btn-undo").tap()
    with game.next_view(page):
        page.locator("#undo-yes").tap()
    expect(game.cell(fatal)).to_have_class(re.compile(r"\bclosed\b"))
    expect(switch).to_be_enabled()
    expect(switch).to_have_attribute("aria-pressed", "true")  # the mode as it was
    wait_for_animations(page)
    shown = switch.evaluate(LIT_JS)
    assert shown["lit"] == shown["accent"] and shown["filter"] == "none"
    page.keyboard.press("f")
    expect(switch).to_have_attribute("aria-pressed", "false")


def test_flag_mode_shows_with_a_mouse_only_once_on_swaps_the_keys_and_is_remembered(
    minesweeper: OpenGame, next_view: NextView
) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal)
    page = game.page
    switch = page.locator("#ms-mode")
    expect(switch).to_be_hidden()
    page.keyboard.press("f")
    expect(switch).to_be_visible()
    expect(switch).to_have_attribute("aria-pressed", "true")
    game.sends_nothing(lambda: page.keyboard.press("f"))  # the switch is the page's alone
    game.sends_nothing(lambda: page.keyboard.press("f"))
    expect(switch).to_have_attribute("aria-pressed", "true")

    page.keyboard.press("ArrowRight")  # the cursor comes on in the middle
    expect(game.cell((2, 2))).to_be_focused()
    for key in ("ArrowLeft", "ArrowLeft", "ArrowUp", "ArrowUp"):
        page.keyboard.press(key)
    expect(game.cell(deal.first)).to_be_focused()
    with next_view(page):  # nothing is open yet: the mode waits, and Enter opens
        page.keyboard.press("Enter")
    game.wait_board(text(deal.start))
    flagged, safe = (where(deal.start, c) for c in closed_safe(deal.start)[:2])
    game.cell(flagged).focus()
    with next_view(page):  # then Enter flags
        page.keyboard.press("Enter")
    expect(game.cell(flagged)).to_have_class(re.compile(r"\bflag\b"))
    page.reload()  # the page remembers the mode
    wait_for_views(page, 1)
    expect(switch).to_have_attribute("aria-pressed", "true")
    # a right click is the other action: in flag mode it opens (a mouse can still open)
    with next_view(page):
        game.cell(safe).click(button="right")
    expect(game.cell(safe)).to_have_class(re.compile(r"\bopen\b"))
    page.keyboard.press("f")
    expect(switch).to_be_hidden()
    page.reload()
    wait_for_views(page, 1)
    expect(switch).to_be_hidden()


def test_a_wide_board_stands_on_its_side_on_a_tall_phone(
    minesweeper: OpenGame, next_view: NextView
) -> None:
    deal = find_deal(16, 30, 99, (7, 14),
                     lambda s: len(closed_safe(s)) > 0 and hinted_off_the_diagonal(s))
    game = minesweeper(deal, phone=True)
    page = game.page
    # all 16 rows across the screen: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    wrap = page.locator("#board-wrap")
    assert wrap.evaluate("(w) => w.scrollWidth <= w.clientWidth"), "the board scrolls sideways"
    corner, right, below = (game.centre(game.cell(at)) for at in ((0, 0), (1, 0), (0, 1)))
    assert right[0] > corner[0] + 15 and abs(right[1] - corner[1]) < 1, "rows do not run across"
    assert below[1] > corner[1] + 15 and abs(below[0] - corner[0]) < 1, "columns do not run down"
    cell = game.cell((0, 0)).bounding_box()
    assert cell is not None and cell["width"] >= 18
    with next_view(page):
        game.cell(deal.first).tap()
    game.wait_board(text(deal.start))
    # a hint names its cells (the one to open, the mines that make it safe) as the player
    # sees them: the board's rows are columns here
    page.locator("#btn-hint").tap()
    hinted = page.locator(".ms-cell.hint")
    expect(hinted).to_have_count(1)
    row, col = map(int, str(hinted.get_attribute("id")).split("-")[1:])
    expect(page.locator("#message")).to_contain_text(f"row {col + 1}, column {row + 1}")
    note = hint(deal.start, 0)
    assert note is not None
    expect(page.locator("#message [aria-hidden=true]")).to_contain_text(sideways(note.note))
    # a screen reader walks the grid as written, row by row: it hears the note as written,
    # so the cell it names is the cell whose label says so
    expect(page.locator("#message .visually-hidden")).to_contain_text(note.note)
    assert f"row {row + 1}, column {col + 1}" in note.note
    assert str(hinted.get_attribute("aria-label")).startswith(f"row {row + 1}, column {col + 1}:")


def closed_near_the_end(state: Minefield) -> list[int]:
    """The closed cells of the board's last three columns (on its side: the bottom rows)."""
    return [c for c in range(state.size)
            if state.marks[c] == HIDDEN and c % state.cols >= state.cols - 3]


def hinted_near_the_end(state: Minefield) -> bool:
    """The hint opens a cell of the board's last three columns."""
    found = hint(state, 0)
    return found is not None and found.move.get("open", [0, 0])[1] >= state.cols - 3


def swipe_up(page: Page, x: float, y: float, distance: float, steps: int = 12) -> None:
    """A finger drawn up the screen from (x, y), as the browser's own touch input (CDP)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {
                "type": "touchMove", "touchPoints": [{"x": x, "y": y - distance * step / steps}]})
            page.wait_for_timeout(16)  # a frame between moves, as a finger's come
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def test_on_a_tall_phone_a_board_longer_than_the_screen_pans_in_its_box_not_the_page(
    minesweeper: OpenGame, next_view: NextView
) -> None:
    """Expert's 30 cells run down a 390x844 phone past its foot at the least size a finger
    takes: a swipe pans the grid in a box of its own, as phone Minesweepers do, and the
    counters, the face and flag mode stay on the screen (the page scrolled, and they went
    off it). Its far end takes a tap and a long press as the rest of the board does, and a
    hint there is panned to."""
    last = (8, 29)  # on its side, the board's last column is the screen's bottom row
    deal = find_deal(16, 30, 99, last, lambda s: len(closed_near_the_end(s)) > 1
                     and hinted_near_the_end(s))
    game = minesweeper(deal, phone=True)
    page = game.page
    assert page.evaluate("document.documentElement.scrollHeight") <= 844, "the page scrolls"
    box = page_box(page, "#ms-scroll")
    expect(game.cell(last)).not_to_be_in_viewport()
    game.nothing_happens(lambda: swipe_up(page, (box["left"] + box["right"]) / 2,
                                          box["bottom"] - 20, 300))  # a pan opens nothing
    assert page.evaluate("document.getElementById('ms-scroll').scrollTop") > 0, "no pan"
    assert page.evaluate("window.scrollY") == 0, "the page moved"
    for counter in ("#ms-mines", "#ms-face", "#ms-time", "#ms-mode", "#message"):
        expect(page.locator(counter)).to_be_in_viewport()
    expect(game.cell(last)).to_be_in_viewport()
    with next_view(page):
        tap(page, *game.centre(game.cell(last)))
    game.wait_board(text(deal.start))
    hinted = hint(deal.start, 0)
    flagged = next(divmod(c, deal.cols) for c in closed_near_the_end(deal.start)
                   if hinted is None or list(divmod(c, deal.cols)) != hinted.move["open"])
    with next_view(page):
        long_press(page, *game.centre(game.cell(flagged)))
    expect(game.cell(flagged)).to_have_class(re.compile(r"\bflag\b"))
    # a hint at the far end, the box panned back to the start, is brought into sight
    page.evaluate("document.getElementById('ms-scroll').scrollTop = 0")
    expect(game.cell(last)).not_to_be_in_viewport()
    page.locator("#btn-hint").tap()
    expect(page.locator(".ms-cell.hint")).to_be_in_viewport()


def test_large_cells_take_a_fingertip_and_pan_across_and_down_in_their_box(
    minesweeper: OpenGame, next_view: NextView
) -> None:
    """The Display dialog's Cells, Large: Expert's cells, 20 px across an upright phone, are 34 px;
    the grid pans in its box both ways, the page in neither, and the far corner takes a
    tap. The choice is the player's, kept across reloads."""
    far = (15, 29)  # on its side: the screen's bottom right
    deal = find_deal(16, 30, 99, (7, 14), lambda s: far[0] * s.cols + far[1] in closed_safe(s))
    game = minesweeper(deal, phone=True)
    page = game.page
    dialog = open_dialog(page, "display")
    page.locator("#opt-cells").select_option("large")
    dialog.get_by_role("button", name="Done").click()
    expect(page.locator("#board")).to_have_attribute("data-opt-cells", "large")
    for checked in ("before", "after a reload"):
        cell = game.cell((0, 0)).bounding_box()
        assert cell is not None and cell["width"] >= 34, checked
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page pans"
        if checked == "before":
            page.reload()
            game.wait_board("\n".join("#" * deal.cols for _ in range(deal.rows)))
    with next_view(page):
        game.cell(deal.first).tap()
    game.wait_board(text(deal.start))
    expect(game.cell(far)).not_to_be_in_viewport()
    page.evaluate("""() => { const box = document.getElementById('ms-scroll');
      box.scrollLeft = box.scrollWidth; box.scrollTop = box.scrollHeight; }""")
    assert page.evaluate("window.scrollX") == 0
    expect(game.cell(far)).to_be_in_viewport()
    with next_view(page):
        tap(page, *game.centre(game.cell(far)))
    expect(game.cell(far)).to_have_class(re.compile(r"\bopen\b"))


def test_on_a_tall_phone_the_box_pans_to_the_mine_that_ended_the_game(
    minesweeper: OpenGame, base_url: str
) -> None:
    """Expert on a 390x844 phone: the box shows the board's top, and the game is lost at
    its far end, out of the box's sight (here in another tab of the same player: as a
    chord's mine past the box's edge). The box pans to the exploded mine; and again when
    the lost game is opened anew (the box starts at the board's top)."""
    far = (8, 29)  # on its side, the board's last column is the screen's bottom row
    deal = find_deal(16, 30, 99, (8, 1), lambda s: far[0] * 30 + far[1] in s.mined)
    game = minesweeper(deal, phone=True)
    page = game.page
    with game.next_view(page):
        game.cell(deal.first).tap()
    assert page.evaluate("document.getElementById('ms-scroll').scrollTop") == 0
    assert not in_its_box(game.cell(far))
    with game.next_view(page):
        moved = httpx.post(f"{base_url}/api/games/{game.session()}/moves",
                           json={"move": {"open": list(far)}},
                           headers={"Authorization": f"Bearer {game.token()}"})
        assert moved.status_code == 200, moved.text
    expect(game.cell(far)).to_have_class(re.compile(r"\bexploded\b"))
    assert in_its_box(game.cell(far)), "the mine that ended the game is out of sight"
    expect(game.cell(far)).to_be_in_viewport()
    page.reload()
    wait_for_views(page, 1)
    expect(page.locator("#end-card")).to_be_visible()  # placed once the page has settled
    assert in_its_box(game.cell(far)), "reopened, the mine is out of sight"
    expect(game.cell(far)).to_be_in_viewport()


def test_on_a_tall_phone_a_mine_tapped_in_sight_leaves_the_box_where_it_is(
    minesweeper: OpenGame
) -> None:
    """The mine a tap hit is in sight already: the box does not pan to centre it."""
    deal = find_deal(16, 30, 99, (8, 1), lambda s: any(
        c % 30 in range(12, 18) for c in s.mined))
    game = minesweeper(deal, phone=True)
    page = game.page
    with game.next_view(page):
        game.cell(deal.first).tap()
    page.evaluate("document.getElementById('ms-scroll').scrollTop = 80")
    fatal = next(where(deal.start, c) for c in sorted(deal.start.mined, key=lambda c: c % 30)
                 if c % 30 >= 12 and in_its_box(game.cell(where(deal.start, c))))
    with game.next_view(page):
        tap(page, *game.centre(game.cell(fatal)))
    expect(game.cell(fatal)).to_have_class(re.compile(r"\bexploded\b"))
    expect(page.locator("#end-card")).to_be_visible()
    assert page.evaluate("document.getElementById('ms-scroll').scrollTop") == 80


def test_a_tap_after_a_long_press_opens_a_cell(
    minesweeper: OpenGame, next_view: NextView, server_view: ServerView
) -> None:
    """After a long press (which the browser does not follow with a click), the next
    tap is a tap like any other: it opens the cell."""
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal, phone=True)
    page, sid = game.page, game.session()
    flagged = (4, 4) if deal.first != (4, 4) else (4, 3)
    with next_view(page):
        long_press(page, *game.centre(game.cell(flagged)))
    expect(game.cell(flagged)).to_have_class(re.compile(r"\bflag\b"))

    tap(page, *game.centre(game.cell(deal.first)))
    state = replay(deal.game_id, [("mark", *flagged), ("open", *deal.first)])
    with contextlib.suppress(PlaywrightError):
        wait_for_views(page, 3, timeout=1_500)
    assert game.views() == 3, (
        "the tap after a long press was swallowed: the page sent no move "
        f"(server moves: {server_view(sid)['moves']})"
    )
    game.wait_board(text(state))
    expect(game.cell(deal.first)).to_have_class(re.compile(r"\bopen\b"))


def a_number_to_chord(minesweeper: OpenGame) -> tuple[MinesweeperPage, Minefield, int]:
    """A 6x6 game opened at its corner, and an open number with closed safe cells around
    it (and a mine) to chord."""
    deal = find_deal(6, 6, 5, (0, 0), lambda s: chordable(s) is not None and not s.won())
    game = minesweeper(deal)
    game.click(deal.first)
    game.wait_board(text(deal.start))
    number = chordable(deal.start)
    assert number is not None
    return game, deal.start, number


def press_number(game: MinesweeperPage, at: Where, how: str) -> None:
    """A click, a middle click, both buttons pressed together and let go, or Space with
    the mouse on the number."""
    if how == "space":
        game.cell(at).hover()
        game.page.keyboard.press(" ")
    elif how == "click":
        game.cell(at).click()
    elif how == "middle click":
        game.cell(at).click(button="middle")
    else:
        game.cell(at).hover()
        game.page.mouse.down(button="left")
        game.page.mouse.down(button="right")
        game.page.mouse.up(button="right")
        game.page.mouse.up(button="left")


@pytest.mark.parametrize("how", ["click", "middle click", "both buttons", "space"])
def test_chording_opens_the_neighbours_of_a_number(
    minesweeper: OpenGame, server_view: ServerView, how: str
) -> None:
    """A click on a number whose flags are all placed opens its other neighbours; so do
    a middle click and both buttons pressed together, as in Windows Minesweeper, and
    Space, which flags a closed cell, as on minesweeper.online."""
    game, state, number = a_number_to_chord(minesweeper)
    at = where(state, number)
    expect(game.cell(at)).to_have_class(re.compile(rf"\bn{state.counts[number]}\b"))
    mines = [n for n in around(state, number) if n in state.mined]
    to_open = [n for n in around(state, number) if state.marks[n] == HIDDEN and n not in mines]
    assert to_open and mines

    # too few flags: the number does not chord, and says nothing (as Google's and
    # minesweeper.online's: fast players click numbers all the time)
    game.listen_to_tones()
    message_before = game.message.inner_text()
    game.nothing_happens(lambda: press_number(game, at, how))
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))
    if how == "space":  # a key's note says why, in plain words
        expect(game.message).to_contain_text("nothing to chord")
    else:
        expect(game.message).to_have_text(message_before)
    for mine in mines:  # answered after the refusal: it has come by the first view
        game.right_click(where(state, mine))
        state = RULES.apply(state, ("mark", *where(state, mine)))
    game.wait_board(text(state))
    assert game.tones() == [980.0] * len(mines), "only the flags' sounds are heard"
    assert server_view(game.session())["moves"] == 1 + len(mines)  # no move, no undo step
    for cell in to_open:
        expect(game.cell(where(state, cell))).to_have_class(re.compile(r"\bclosed\b"))

    if how == "click":
        game.click(at)
    elif how == "space":
        with game.next_view(game.page):
            press_number(game, at, how)
    elif how == "middle click":
        with game.next_view(game.page):
            game.cell(at).click(button="middle")
    else:
        game.cell(at).hover()
        with game.next_view(game.page):
            game.page.mouse.down(button="left")
            game.page.mouse.down(button="right")
        game.nothing_happens(lambda: (game.page.mouse.up(button="right"),
                                      game.page.mouse.up(button="left")))
    state = RULES.apply(state, ("chord", *at))
    game.wait_board(text(state))
    for cell in to_open:
        expect(game.cell(where(state, cell))).to_have_class(re.compile(r"\bopen\b"))
    for mine in mines:
        expect(game.cell(where(state, mine))).to_have_class(re.compile(r"\bflag\b"))
    assert state.exploded is None
    assert server_view(game.session())["text"] == text(state)


def test_a_number_held_down_shows_the_cells_its_chord_would_open(minesweeper: OpenGame) -> None:
    """As in Windows' Minesweeper: while the mouse holds a number down, its closed
    neighbours (not its flags) lie flat; on release they stand again, and nothing is
    played when its flags are not all placed."""
    game, state, number = a_number_to_chord(minesweeper)
    mine = next(n for n in around(state, number) if n in state.mined)
    game.right_click(where(state, mine))
    closed = {f"ms-{r}-{c}" for r, c in (where(state, n) for n in around(state, number)
                                         if state.marks[n] == HIDDEN and n != mine)}
    assert closed
    game.cell(where(state, number)).hover()
    game.page.mouse.down()
    pressed = game.page.locator("#ms-grid .pressed")
    expect(pressed).to_have_count(len(closed))
    assert set(pressed.evaluate_all("cells => cells.map((c) => c.id)")) == closed
    flat = pressed.first.evaluate("c => getComputedStyle(c).backgroundImage")
    assert flat == "none", "a pressed cell keeps its raised look"
    game.page.mouse.up()
    expect(pressed).to_have_count(0)


def test_a_whole_game_with_the_keyboard_only(
    minesweeper: OpenGame, server_view: ServerView
) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: chordable(s) is not None and not s.won())
    game = minesweeper(deal)
    page = game.page
    keys = page.keyboard
    position: list[Where] = []

    def go(to: Where) -> None:
        """Walk the cursor to `to` with the arrows, checking each step."""
        row, col = position[0]
        while (row, col) != to:
            if col != to[1]:
                step = 1 if to[1] > col else -1
                keys.press("ArrowRight" if step > 0 else "ArrowLeft")
                col += step
            else:
                step = 1 if to[0] > row else -1
                keys.press("ArrowDown" if step > 0 else "ArrowUp")
                row += step
            assert game.focused() == f"ms-{row}-{col}"
        position[0] = to

    def press(key: str) -> None:
        with game.next_view(page):
            keys.press(key)

    assert not (game.focused() or "").startswith("ms-")
    keys.press("ArrowRight")  # the cursor appears in the middle, where a first click opens most
    assert game.focused() == "ms-2-2"
    position.append((2, 2))
    go(deal.first)
    press("Enter")
    state = deal.start
    game.wait_board(text(state))

    # C on a number whose flags are not placed does nothing but say so, in plain words
    number = chordable(state)
    assert number is not None
    go(where(state, number))
    game.nothing_happens(lambda: keys.press("c"))
    expect(game.message).to_have_text(
        "Row {}, column {} has 0 flags around it, not {}: nothing to chord".format(
            *(n + 1 for n in where(state, number)), state.counts[number]))
    expect(game.message).not_to_have_class(re.compile(r"\berror\b"))

    # Space flags the mines round a number, C on the number opens its other neighbours
    for mine in [n for n in around(state, number) if n in state.mined]:
        go(where(state, mine))
        press("Space")
        state = RULES.apply(state, ("mark", *where(state, mine)))
        game.wait_board(text(state))
        expect(game.cell(where(state, mine))).to_have_class(re.compile(r"\bflag\b"))
    go(where(state, number))
    press("c")
    state = RULES.apply(state, ("chord", *where(state, number)))
    game.wait_board(text(state))
    assert game.focused() == "ms-{}-{}".format(*where(state, number))  # the cursor stays

    # Enter opens the rest
    while closed_safe(state):
        target = where(state, closed_safe(state)[0])
        go(target)
        press("Enter")
        state = RULES.apply(state, ("open", *target))
        game.wait_board(text(state))

    assert state.won()
    expect(game.headline).to_have_text("You win! Board cleared")
    expect(game.face.locator(".face-end")).to_have_text("😎")
    seen = server_view(game.session())
    assert seen["status"] == "won" and seen["text"] == text(state)


def test_a_hint_takes_the_keyboards_cursor_and_enter_plays_it(minesweeper: OpenGame) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: not s.won())
    game = minesweeper(deal)
    page = game.page
    for key in ("ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowUp", "ArrowUp"):
        page.keyboard.press(key)  # the cursor comes on in the middle: to the first click
    expect(game.cell(deal.first)).to_be_focused()
    with game.next_view(page):
        page.keyboard.press("Enter")
    game.wait_board(text(deal.start))
    page.keyboard.press("h")
    hinted = page.locator("#ms-grid .ms-cell.hint")
    expect(hinted).to_have_count(1)
    expect(hinted).to_be_focused()  # one cell marked, not the hint and the cursor apart
    cell = str(hinted.get_attribute("id"))
    with game.next_view(page):
        page.keyboard.press("Enter")
    expect(page.locator(f"#{cell}")).to_have_class(re.compile(r"\bopen\b"))


def long_hint(state: Minefield) -> bool:
    """The hint's note runs to three lines on a 390-pixel phone at the page's 16 px."""
    found = hint(state, 0)
    return found is not None and len(f"Hint: {found.note}") >= 115


def test_on_a_phone_a_long_hint_fits_the_two_lines_kept_for_it(minesweeper: OpenGame) -> None:
    """A phone keeps two lines above the board for a hint's note; most of Minesweeper's
    run to three (the 2 at ..., its 2 mines at ... and ...): set smaller, such a note fits
    the two lines' room, and the board does not move down a line as it comes (nor back
    up as it goes)."""
    deal = find_deal(15, 15, 40, (7, 7), long_hint)
    game = minesweeper(deal, phone=True)
    page = game.page
    message = page.locator("#message")
    with game.next_view(page):
        game.cell(deal.first).tap()
    game.wait_board(text(deal.start))
    grid_top = page_box(page, "#ms-grid")["top"]
    page.locator("#btn-hint").tap()
    expect(message).to_contain_text("Hint: ")
    room = page_box(page, "#message")
    assert room["bottom"] - room["top"] <= 2.9 * 16 + 0.5, "the note takes more than its room"
    assert page_box(page, "#ms-grid")["top"] == grid_top, "the board moved down"
    def size() -> float:
        return float(message.evaluate("(m) => parseFloat(getComputedStyle(m).fontSize)"))

    assert 13 <= size() < 16
    with game.next_view(page):
        page.locator(".ms-cell.hint").tap()
    assert page_box(page, "#ms-grid")["top"] == grid_top, "the board moved"
    expect(message).to_have_text("")
    assert size() == 16  # the next note is measured anew


def test_the_face_and_the_counters(minesweeper: OpenGame, server_view: ServerView) -> None:
    deal = find_deal(5, 5, 3, (2, 2), lambda s: not s.won())
    game = minesweeper(deal)
    page = game.page
    expect(game.mines_left).to_have_text("003")
    expect(game.time).to_have_text("000")
    assert game.shown("#ms-face .face-normal") and not game.shown("#ms-face .face-pressed")
    expect(game.face).to_have_text("🙂😮")
    page.wait_for_timeout(1_100)
    expect(game.time).to_have_text("000")  # no clock before the first click

    # the mouse button held down on a closed cell: the face is worried
    page.mouse.move(*game.centre(game.cell(deal.first)))
    page.mouse.down()
    expect(page.locator("html")).to_have_class(re.compile(r"\bpressing\b"))
    assert game.shown("#ms-face .face-pressed"), "no 😮 while the button is down"
    assert not game.shown("#ms-face .face-normal")
    assert page.locator("#ms-face").inner_text().strip() == "😮"
    with game.next_view(page):
        page.mouse.up()  # the release is the click that opens the cell
    game.wait_board(text(deal.start))
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bpressing\b"))
    assert game.shown("#ms-face .face-normal") and not game.shown("#ms-face .face-pressed")
    assert page.locator("#ms-face").inner_text().strip() == "🙂"

    # the seconds count from the first click
    assert game.seconds() == 0
    assert game.wait_seconds(1) == 1, "the clock does not tick to 001"
    expect(game.time).to_have_text("001")
    assert game.wait_seconds(2) == 2, "the clock does not tick on to 002"
    expect(game.mines_left).to_have_text("003")

    # the face starts a new game of the same size
    sid = game.session()
    with game.next_view(page):
        game.face.click()
    assert game.session() != sid
    game.wait_board("\n".join("#" * 5 for _ in range(5)))
    expect(game.time).to_have_text("000")
    expect(game.mines_left).to_have_text("003")
    seen = server_view(game.session())
    assert seen["params"]["rows"] == 5 and seen["params"]["cols"] == 5
    assert seen["params"]["mines"] == 3 and seen["moves"] == 0


@pytest.mark.parametrize(
    ("key", "preset", "rows", "cols", "mines"),
    [("1", "easy", 7, 7, 10), ("2", "medium", 15, 15, 40), ("3", "hard", 15, 30, 99)],
)
def test_keys_start_preset_games(
    minesweeper: OpenGame,
    server_view: ServerView,
    key: str,
    preset: str,
    rows: int,
    cols: int,
    mines: int,
) -> None:
    game = minesweeper(find_deal(5, 5, 3, (0, 0), lambda s: True))
    sid = game.session()
    with game.next_view(game.page):
        game.page.keyboard.press(key)
    assert game.session() != sid
    cells = game.page.locator("#ms-grid .ms-cell")
    expect(cells).to_have_count(rows * cols)
    expect(game.page.locator("#ms-grid .ms-cell.closed")).to_have_count(rows * cols)
    expect(game.page.locator(f"#ms-{rows - 1}-{cols - 1}")).to_have_count(1)
    drawn = game.page.evaluate(GRID_GEOMETRY_JS)
    assert (len(drawn["tops"]), len(drawn["lefts"])) == (rows, cols), drawn
    expect(game.mines_left).to_have_text(f"{mines:03d}")
    expect(game.time).to_have_text("000")
    expect(game.page.locator(f"#ms-new-{preset}")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(game.page.locator(".ms-preset.current")).to_have_count(1)
    seen = server_view(game.session())
    assert seen["preset"] == preset
    assert (seen["params"]["rows"], seen["params"]["cols"], seen["params"]["mines"]) == (
        rows,
        cols,
        mines,
    )


def test_reload_resumes_the_game_and_its_clock(
    minesweeper: OpenGame, server_view: ServerView, wait_views: WaitViews
) -> None:
    deal = find_deal(5, 5, 3, (0, 0), lambda s: len(closed_safe(s)) >= 2)
    game = minesweeper(deal)
    sid = game.session()
    game.click(deal.first)
    state = deal.start
    mine = where(state, min(state.mined))
    game.right_click(mine)
    state = RULES.apply(state, ("mark", *mine))
    game.wait_board(text(state))
    assert game.wait_seconds(2, timeout=3_000) == 2
    before = game.board()
    assert before == text(state)

    game.page.reload()
    wait_views(game.page, 1)
    assert game.session() == sid
    assert game.board() == before
    seconds = game.seconds()
    assert seconds >= 2, f"the clock restarted: {seconds:03d} after reloading at 002"
    expect(game.mines_left).to_have_text("002")
    expect(game.cell(mine)).to_have_text("🚩")
    assert game.wait_seconds(seconds + 1) == seconds + 1, "the clock stopped"  # it runs on

    # and the game goes on where it was
    target = where(state, closed_safe(state)[0])
    game.click(target)
    state = RULES.apply(state, ("open", *target))
    game.wait_board(text(state))
    assert server_view(sid)["text"] == text(state)


# -- the look: crisp lines, one toolbar ------------------------------------------------
GRID_GEOMETRY_JS = """() => {
  const cells = [...document.querySelectorAll('#ms-grid .ms-cell')]
    .map((c) => c.getBoundingClientRect());
  const grid = document.getElementById('ms-grid').getBoundingClientRect();
  const unique = (values) => [...new Set(values.map((v) => Math.round(v * 1000) / 1000))]
    .sort((a, b) => a - b);
  return {
    widths: unique(cells.map((r) => r.width)), heights: unique(cells.map((r) => r.height)),
    lefts: unique(cells.map((r) => r.left - grid.left)),
    tops: unique(cells.map((r) => r.top - grid.top)),
  };
}"""
BOARDS = {"easy": (7, 7, 10), "medium": (15, 15, 40), "hard": (15, 30, 99),
          "expert": (16, 30, 99)}
VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1366, "height": 800}}, "phone": PHONE,
}


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("preset", BOARDS)
def test_grid_lines_are_whole_pixels_at_every_board_size(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame, preset: str,
    viewport: str,
) -> None:
    """At 30.5 px cells the 1 px lines between them dropped out (2×2 blocks): cells are
    whole pixels, all alike, and every line between them is there, 1 px wide."""
    created = create_game("minesweeper", params={"first_click": "safe", **dict(
        zip(("rows", "cols", "mines"), BOARDS[preset], strict=True))})
    tokens = {created["session"]: created["token"]}
    page = open_page(f"/play/minesweeper?session={created['session']}",
                     context=new_context(tokens=tokens, **VIEWPORTS[viewport]))
    found = page.evaluate(GRID_GEOMETRY_JS)
    assert len(found["widths"]) == 1 and found["widths"] == found["heights"], found
    size = found["widths"][0]
    assert size == int(size) and size >= 18, f"cells of {size} px"
    rows, cols, _ = BOARDS[preset]
    for edges in (found["lefts"], found["tops"]):  # (a wide board stands on its side on a phone)
        assert len(edges) in (rows, cols)
        steps = {round(b - a, 3) for a, b in pairwise(edges)}
        assert steps == {size + 1}, f"cells {size} px apart by {steps}: a line dropped out"
        assert edges[0] == int(edges[0]), f"the first cell starts {edges[0]} px into the grid"


def test_toolbar_one_set_of_boards_and_counters_on_their_own_row_on_a_phone(
    minesweeper: OpenGame,
) -> None:
    game = minesweeper(find_deal(9, 9, 10, (0, 0), lambda s: True), phone=True)
    page = game.page
    buttons = page.locator("#ms-presets .ms-preset")
    # the seed's three boards, and this one (Beginner, a classic board: in New game)
    expect(buttons).to_have_text(["Easy", "Medium", "Hard", "Beginner"])
    expect(page.locator("#ms-new-other")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#ms-presets .current")).to_have_count(1)
    boxes = [buttons.nth(i).bounding_box() for i in range(4)]
    assert len({round(box["y"]) for box in boxes if box}) == 1, "the boards wrap"
    looks = page.eval_on_selector_all(
        "#ms-presets .ms-preset:not(.current)",
        "bs => bs.map((b) => { const s = getComputedStyle(b); "
        "return [s.backgroundColor, s.color, s.fontSize].join(); })",
    )
    assert len(set(looks)) == 1, f"boards drawn in {len(set(looks))} styles"
    counters = [page.locator(f"#{part}").bounding_box()
                for part in ("ms-mines", "ms-face", "ms-time")]
    centres = {round(box["y"] + box["height"] / 2) for box in counters if box}
    assert len(centres) == 1, "the counters and the face break across rows"
    assert all(box and box["y"] > boxes[0]["y"] + boxes[0]["height"] for box in counters)  # type: ignore[index]
    face, grid = counters[1], page.locator("#ms-grid").bounding_box()
    assert face and grid
    assert abs(face["x"] + face["width"] / 2 - (grid["x"] + grid["width"] / 2)) < 2, \
        "the face is not in the middle of the board"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the last board button opens New game, with the other boards
    page.locator("#ms-new-other").click()
    expect(page.locator("#new-dialog")).to_be_visible()


def test_a_board_wider_than_the_window_scrolls_to_both_edges(
    open_page: OpenPage, new_context: NewContext, create_game: CreateGame,
) -> None:
    """A custom board too wide for the window (cells at their smallest) starts at its
    card's left edge, not past it: the card scrolls to the last column, and the first
    column can be clicked."""
    created = create_game("minesweeper", params={"rows": 40, "cols": 60, "mines": 500,
                                                 "first_click": "opening"})
    page = open_page(f"/play/minesweeper?session={created['session']}",
                     context=new_context(tokens={created["session"]: created["token"]},
                                         viewport={"width": 1280, "height": 860}))
    grid, wrap = page.locator(".ms-grid"), page.locator("#board-wrap")
    grid_box, wrap_box = grid.bounding_box(), wrap.bounding_box()
    assert grid_box and wrap_box and grid_box["width"] > wrap_box["width"]  # it overflows
    assert grid_box["x"] >= wrap_box["x"], "the first columns are cut off on the left"
    first = page.locator('.ms-cell[aria-label^="row 6, column 1:"]')
    last = page.locator('.ms-cell[aria-label^="row 6, column 60:"]')
    first.click()  # the opening click: the first column is in reach
    expect(first).not_to_have_class(re.compile(r"\bclosed\b"))
    last.scroll_into_view_if_needed()
    last_box, wrap_box = last.bounding_box(), wrap.bounding_box()
    assert last_box and wrap_box
    assert last_box["x"] + last_box["width"] <= wrap_box["x"] + wrap_box["width"]


def test_on_a_phone_the_end_card_leaves_a_mine_hit_low_in_sight(minesweeper: OpenGame) -> None:
    """The card, a sheet at the bottom of a phone, would hide a mine hit in the bottom row
    (at the top, the board's upper rows): it goes under the board, in the page's flow."""
    corner = (8, 0)
    deal = find_deal(9, 9, 10, (0, 4), lambda s: corner[0] * 9 + corner[1] in s.mined)
    game = minesweeper(deal, phone=True)
    game.click(deal.first)
    game.click(corner)
    card = game.page.locator("#end-card")
    expect(card).to_be_visible()
    expect(card).to_have_class(re.compile(r"\bbelow\b"))
    wait_for_layout(game.page)  # (the page scrolls to the card: read the boxes once still)
    exploded, shown = game.cell(corner).bounding_box(), card.bounding_box()
    grid = game.page.locator("#ms-grid").bounding_box()
    assert exploded and shown and grid
    assert not overlap(shown, exploded), f"the card {shown} hides the mine {exploded}"
    assert not overlap(shown, grid), f"the card {shown} hides the board {grid}"


def test_the_end_card_leaves_the_exploded_mine_in_sight(minesweeper: OpenGame) -> None:
    """On a wide screen the end card is a panel at the top right, over the corner of an
    expert board as wide as the page (low or at the other side, over another corner): a
    mine hit there stays in sight, the card under the board, in the page's flow."""
    corner = (0, 29)
    deal = find_deal(16, 30, 99, (8, 15), lambda s: corner[0] * 30 + corner[1] in s.mined)
    game = minesweeper(deal)  # 1280×720: the card's panel is at the right
    game.click(deal.first)
    game.click(corner)
    card = game.page.locator("#end-card")
    expect(card).to_be_visible()
    expect(card).to_have_class(re.compile(r"\bbelow\b"))  # no place beside has room
    wait_for_layout(game.page)
    exploded, shown = game.cell(corner).bounding_box(), card.bounding_box()
    grid = game.page.locator("#ms-grid").bounding_box()
    assert exploded and shown and grid
    assert not overlap(shown, exploded), f"the card {shown} hides the mine {exploded}"
    assert not overlap(shown, grid), f"the card {shown} hides the board {grid}"
